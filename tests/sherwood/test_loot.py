"""Sharing the loot of a successful attack (rulebook, basic rules, "Successful attack";
rules/README.md's readings): each outlaw brings one share, the leader keeps the rest; rounds
of one share per participant not yet fully served, the allies before the leader in the first
round only; the leader chooses when fewer shares than such participants are left; "Of
course, the leader can give a new comrade only to a player who still has outlaw figures
under the oak": a comrade is one of the recipient's shares and one of his own figures, and
a comrade nobody in the ambush can take stays under the oak and is no share. No share that
somebody could take is ever lost, whatever the leader chooses."""

from __future__ import annotations

import functools
import itertools

import numpy as np
import pytest

from forest_envs.sherwood.components import AMBUSHES, CARDS, GOLD_BAGS, TOWNS

from .conftest import act, attack_setup, legal_names, obs_block, phase, set_player

# Cards used (all from Derby, so Derby Gate is the first ambush on their route):
# 4: strength 3, 1 fame, 0 gold, 1 comrade; 8: strength 4, 1 fame, 1 gold, 1 comrade;
# 41: strength 12, 3 fame, 5 gold, 1 comrade.  Card 34 (strength 9, 4 gold, 2 comrades)
# starts in Nottingham.
ZERO_GOLD_ONE_COMRADE, ONE_GOLD_ONE_COMRADE, TWO_COMRADES = 4, 8, 34


def check_totals(state) -> None:
    assert (state.outlaw_totals() == 8).all(), state.outlaw_totals()
    assert state.gold_total() == GOLD_BAGS
    assert state.traveller_total() == 55


def set_oak(state, q: int, oak: int) -> None:
    """q keeps ``oak`` figures under the oak (the others wait in his camp)."""
    set_player(state, q, camp=int(state.camp[q]) + int(state.oak[q]) - oak, oak=oak)


def empty_the_pit(state, into: int) -> None:
    state.gold[into] += state.pit[0]
    state.pit[0] = 0
    state.edited()


def test_a_comrade_share_is_never_given_to_an_ally_without_figures_under_the_oak():
    # No gold, one comrade; P1 has no figure under the oak, P2 and P3 have. Round one is the
    # allies': one share for three allies, and only P2 or P3 can take it.
    s = attack_setup(ZERO_GOLD_ONE_COMRADE, {"Derby Gate": {0: 1, 1: 1, 2: 1, 3: 1}}, n=4,
                     leads=(0, 1), more_cards=(0,))
    set_oak(s, 1, 0)
    act(s, "lead traveller 1")
    assert (phase(s), s.current_player) == ("share", 0)
    assert legal_names(s) == {"give a share to +2", "give a share to +3"}   # not +1, not self
    act(s, "give a share to +3")
    assert s.shares[:, 1].tolist() == [0, 0, 0, 1] and int(s.oak[3]) == 3 and int(s.camp[3]) == 5
    check_totals(s)


def test_the_only_participant_who_can_take_a_comrade_gets_it_without_a_choice():
    s = attack_setup(ZERO_GOLD_ONE_COMRADE, {"Derby Gate": {0: 1, 1: 1, 2: 1}},
                     leads=(0, 1), more_cards=(0,))
    set_oak(s, 1, 0)
    act(s, "lead traveller 1")
    assert phase(s) == "lead"                      # nothing left to choose
    assert s.shares.tolist() == [[0, 0], [0, 0], [1, 1]]
    check_totals(s)


def test_one_bag_one_comrade_allies_without_figures_leader_keeps_the_comrade_chooses_the_bag():
    # The allies can take only the bag: the leader chooses which of them gets it and keeps
    # the comrade himself (the first round's allies come first, then the leader).
    for ally in ("+1", "+2"):
        s = attack_setup(ONE_GOLD_ONE_COMRADE, {"Derby Gate": {0: 2, 1: 1, 2: 1}},
                         gold={0: 0, 1: 0, 2: 0}, leads=(0, 1), more_cards=(0,))
        set_oak(s, 1, 0)
        set_oak(s, 2, 0)
        act(s, "lead traveller 1")
        assert (phase(s), s.current_player) == ("share", 0)
        assert legal_names(s) == {"give a share to +1", "give a share to +2"}
        act(s, f"give a share to {ally}")
        q = int(ally[1])
        assert phase(s) == "lead"                  # the comrade can only be the leader's
        assert s.gold.tolist() == [0, int(q == 1), int(q == 2)]
        assert s.shares[0].tolist() == [1, 1] and (int(s.oak[0]), int(s.camp[0])) == (3, 5)
        check_totals(s)


def test_with_an_empty_pit_the_leader_who_alone_can_take_comrades_gets_all_of_them():
    # Card 34's two comrades, no gold in the pit; only the leader has figures under the
    # oak. He takes one in the first round and keeps the other, which nobody else can take
    # ("the leader receives the loot"), although his one outlaw is served.
    s = attack_setup(TWO_COMRADES, {"Nottingham Gate": {0: 1, 1: 4, 2: 4}},
                     leads=(0, 1), more_cards=(0,))
    set_oak(s, 1, 0)
    set_oak(s, 2, 0)
    empty_the_pit(s, into=1)
    oak0 = int(s.oak[0])
    act(s, "lead traveller 1")
    assert phase(s) == "lead"
    assert s.shares.tolist() == [[2, 2], [0, 0], [0, 0]] and int(s.oak[0]) == oak0 - 2
    check_totals(s)


def test_a_comrade_the_leader_cannot_take_stays_under_the_oak():
    # Card 34 with an empty pit: P1 (one outlaw, figures under the oak) takes one comrade;
    # the other nobody can take (P1 is served, the leader has no figure under the oak).
    s = attack_setup(TWO_COMRADES, {"Nottingham Gate": {0: 8, 1: 1}}, leads=(0, 1), more_cards=(0,))
    empty_the_pit(s, into=2)
    oak1 = int(s.oak[1])
    assert int(s.oak[0]) == 0
    act(s, "lead traveller 1")
    assert phase(s) == "lead"
    assert s.shares.tolist() == [[0, 0], [1, 1], [0, 0]] and int(s.oak[1]) == oak1 - 1
    check_totals(s)


def test_the_leader_chooses_who_of_several_takes_a_comrade_a_forced_one_is_no_decision():
    # Card 8 (1 bag, 1 comrade) for P0 and P1 with one outlaw each: one share each; either
    # can take the comrade, so the leader chooses.
    s = attack_setup(ONE_GOLD_ONE_COMRADE, {"Derby Gate": {0: 2, 1: 2}}, gold={0: 0, 1: 0, 2: 0},
                     leads=(0, 1), more_cards=(0,))
    act(s, "lead traveller 1")
    assert (phase(s), legal_names(s)) == ("comrade", {"give a comrade to self", "give a comrade to +1"})
    act(s, "give a comrade to +1")
    assert s.shares.tolist() == [[1, 0], [1, 1], [0, 0]] and s.gold.tolist() == [1, 0, 0]
    # The same loot where P1 has no figure under the oak: the comrade is the leader's.
    s = attack_setup(ONE_GOLD_ONE_COMRADE, {"Derby Gate": {0: 2, 1: 2}}, gold={0: 0, 1: 0, 2: 0},
                     leads=(0, 1), more_cards=(0,))
    set_oak(s, 1, 0)
    act(s, "lead traveller 1")
    assert phase(s) == "lead" and s.shares.tolist() == [[1, 1], [1, 0], [0, 0]]
    check_totals(s)


def test_the_leader_cannot_give_an_unfillable_share_in_a_later_round():
    # Card 41: 5 gold, 1 comrade (6 shares) for P0 2, P1 3, P2 3 outlaws; P2 has no figure
    # under the oak. Rounds 1-2 hand out 6 shares: one each in round 1 (3), then round 2
    # for P0, P1, P2 (3 more) - but the comrade must be P0's or P1's, which every
    # distribution respects; no share is lost.
    s = attack_setup(41, {"Derby Gate": {0: 2, 1: 5, 2: 5}}, gold={0: 0, 1: 0, 2: 0},
                     leads=(0, 1), more_cards=(0,))
    set_oak(s, 2, 0)
    act(s, "lead traveller 1")
    assert phase(s) == "comrade"
    assert legal_names(s) == {"give a comrade to self", "give a comrade to +1"}
    act(s, "give a comrade to self")
    assert s.shares.tolist() == [[2, 1], [2, 0], [2, 0]] and s.gold.tolist() == [1, 2, 2]
    check_totals(s)


def leader_with_figures_allies_without():
    """The built case: 5 players, basic rules, card 34 (strength 9: 4 bags, 2 comrades) at
    Nottingham Gate; the leader P0 brings 1 outlaw and keeps 2 figures under the oak, the
    allies P1 and P2 bring 4 and 3 and have none there; P0's cudgel makes the strength."""
    s = attack_setup(TWO_COMRADES, {"Nottingham Gate": {0: 1, 1: 4, 2: 3}}, n=5,
                     hands={0: {"cudgel": 1}}, leads=(0, 1), more_cards=(0,))
    set_oak(s, 0, 2)
    set_oak(s, 1, 0)
    set_oak(s, 2, 0)
    act(s, "lead traveller 1", "play cudgel")
    return s


def test_the_leader_takes_his_own_share_as_a_bag_or_a_comrade_when_it_changes_the_allies_shares():
    """"the leader gives one share of the loot to each ally (if possible) ... The procedure
    is repeated until all the loot has been handed out"; a comrade only to "a player who
    still has outlaw figures under the oak". Round 1: one bag to each ally, then the
    leader's own share: his choice, a bag or a comrade (the reading), and nobody else's."""
    s = leader_with_figures_allies_without()
    assert (phase(s), s.current_player, s.decision.data) == ("share", 0, (0, 1))
    assert legal_names(s) == {"give a share to self", "give a comrade to self"}
    assert s.shares.tolist() == [[1, 0], [1, 0], [1, 0], [0, 0], [0, 0]]   # round 1, shown

    # A comrade: both allies get a second bag in round 2 (the other comrade is his too).
    s = leader_with_figures_allies_without()
    gold = s.gold.tolist()
    act(s, "give a comrade to self")
    assert phase(s) == "lead"
    assert s.shares.tolist() == [[2, 2], [2, 0], [2, 0], [0, 0], [0, 0]]
    assert [g - g0 for g, g0 in zip(s.gold.tolist(), gold)] == [0, 2, 2, 0, 0]
    assert int(s.oak[0]) == 0
    check_totals(s)

    # A bag: one bag is left for round 2, which only one ally can get (the comrades are not
    # theirs to take); the leader chooses whom, then keeps both comrades.
    for ally, got in (("+1", [1, 2, 1]), ("+2", [1, 1, 2])):
        s = leader_with_figures_allies_without()
        gold = s.gold.tolist()
        act(s, "give a share to self")
        assert (phase(s), s.decision.data) == ("share", (1, 0))
        assert legal_names(s) == {"give a share to +1", "give a share to +2"}
        assert s.shares[:3].tolist() == [[1, 0], [1, 0], [1, 0]]
        act(s, f"give a share to {ally}")
        assert phase(s) == "lead"
        assert s.shares.tolist() == [[3, 2], [got[1], 0], [got[2], 0], [0, 0], [0, 0]]
        assert [g - g0 for g, g0 in zip(s.gold.tolist(), gold)] == got + [0, 0]
        assert int(s.oak[0]) == 0
        check_totals(s)


def test_the_leader_is_not_asked_about_his_own_share_where_it_cannot_change_an_allys():
    # The same robbery where the allies keep their figures under the oak: the comrades run
    # out before the room for them, so a bag of the leader's cannot take a share from an
    # ally; his own share is settled with the comrades at the end. Rounds 1 and 2 serve
    # everybody, round 3 has one share for the two allies (the leader's choice, as ever).
    s = attack_setup(TWO_COMRADES, {"Nottingham Gate": {0: 1, 1: 4, 2: 3}}, n=5,
                     hands={0: {"cudgel": 1}}, leads=(0, 1), more_cards=(0,))
    set_oak(s, 0, 2)
    act(s, "lead traveller 1", "play cudgel")
    assert (phase(s), s.decision.data) == ("share", (1, 0))
    assert legal_names(s) == {"give a share to +1", "give a share to +2"}
    act(s, "give a share to +1")
    assert phase(s) == "comrade"
    assert legal_names(s) == {"give a comrade to self", "give a comrade to +1", "give a comrade to +2"}
    # With the pit empty he has no bag to take: no question either.
    s = attack_setup(TWO_COMRADES, {"Nottingham Gate": {0: 1, 1: 4, 2: 3}}, n=5,
                     hands={0: {"cudgel": 1}}, leads=(0, 1), more_cards=(0,))
    set_oak(s, 0, 2)
    set_oak(s, 1, 0)
    set_oak(s, 2, 0)
    empty_the_pit(s, into=3)
    act(s, "lead traveller 1", "play cudgel")
    assert phase(s) == "lead" and s.shares.tolist() == [[2, 2]] + [[0, 0]] * 4


def robbed(card: int, n: int, outlaws: dict[int, int], oak: list[int], sword: bool = False):
    """``card`` led into its origin's gate, manned by ``outlaws`` (seat 0 leads), each seat
    keeping ``oak`` figures under the oak (``sword``: the leader plays one to reach the
    strength)."""
    s = attack_setup(card, {f"{TOWNS[CARDS[card].origin]} Gate": outlaws}, n=n, leads=(0, 1),
                     more_cards=(0,), hands={0: {"sword": 1}} if sword else None)
    for q, k in enumerate(oak):
        set_oak(s, q, k)
    act(s, "lead traveller 1", *(("play sword",) if sword else ()))
    return s


@pytest.mark.parametrize(("case", "card", "n", "outlaws", "oak", "sword", "first"), [
    # Leader 4 outlaws, 1 figure under the oak; card 15 (4 bags, 1 comrade). In round 2 his
    # shares not taken as bags (2) pass his figures (1): one of them is a bag anyway. The
    # first question is round 3's last share.
    ("one of his open shares is a bag anyway", 15, 3, {0: 4, 1: 3}, [1, 0], False,
     ("share", (1, 0))),
    # Card 38 (6 bags, 1 comrade); P3 and the leader have room for 2 comrades.
    ("the comrades run out before the room", 38, 5, {0: 3, 1: 3, 2: 3, 3: 4}, [1, 0, 0, 1],
     False, ("share", (3, 0))),
    # Card 11 (2 bags, 1 comrade): P1's one outlaw is served in round 1.
    ("no ally's share can be a bag any more", 11, 5, {0: 4, 1: 1}, [2, 0], False, ("lead", ())),
    # Card 34 (4 bags, 2 comrades). After round 1, 3 bags are left for bag-only shares
    # (slack); the allies' bag-only shares to come: P1 (4 outlaws, 3 figures) 1, P2 (2
    # outlaws, none) 1: 2 < 3. Round 2 hands out the rest; then the comrades are chosen.
    ("an ally's shares that can be comrades need no bag", 34, 3, {0: 3, 1: 4, 2: 2}, [3, 3, 0],
     False, ("comrade", (2,))),
    # The same card (the leader's sword makes the strength): P1 has a figure for each of
    # his 2 outlaws (no bag-only share), P2 (3 outlaws, none) 2 more: 2 < 3.
    ("an ally with a figure for every outlaw needs no bag", 34, 3, {0: 2, 1: 2, 2: 3}, [2, 2, 0],
     True, ("comrade", (2,))),
])
def test_the_leader_is_not_asked_about_his_own_share_where_a_bag_cannot_cost_an_ally(
        case, card, n, outlaws, oak, sword, first):
    s = robbed(card, n, outlaws, oak, sword)
    assert (phase(s), s.decision.data) == first, case
    check_totals(s)


@pytest.mark.parametrize("oak", [[2, 0, 1], [2, 2, 0]], ids=["figures-short", "figures-over"])
def test_the_bag_only_shares_to_come_are_each_allys_outlaws_beyond_his_figures(oak):
    """Card 34 (4 bags, 2 comrades); leader 4 outlaws and 2 figures, P1 1 outlaw, P2 4.
    After round 1 slack is 3 and the allies' bag-only shares still to come are 3, so he is
    asked (that his answer could be reached otherwise here is the question too many that
    docs/sherwood.md, item 11, allows). figures-short: P2 has 1 figure (4 - 1 beyond it, none
    yet), P1 none (served). figures-over: P1 has 2 figures for his 1 outlaw (counts 0, not
    less), P2 none (4 beyond, 1 of them served)."""
    s = robbed(TWO_COMRADES, 3, {0: 4, 1: 1, 2: 4}, oak)
    assert (phase(s), s.decision.data) == ("share", (0, 1))
    assert s.legal_action_mask().tolist().count(1) == 2 and s.legal_action_mask().max() == 1


def test_the_leader_is_asked_once_at_the_end_of_the_round_in_which_he_took_his_share():
    # Card 20 (6 bags, 1 comrade); the leader's one outlaw and one figure, P1 and P2 four
    # outlaws each and no figure. Round 1: asked. A comrade: rounds 2 and 3 are the allies'
    # (he takes no share in them), and nobody asks him again.
    s = robbed(20, 4, {0: 1, 1: 4, 2: 4}, [1, 0, 0])
    assert (phase(s), s.decision.data, s.loot.round) == ("share", (0, 1), 1)
    act(s, "give a comrade to self")
    assert phase(s) == "lead"
    assert s.shares.tolist() == [[1, 1], [3, 0], [3, 0], [0, 0]]
    # A bag: round 3 has one bag for the two allies.
    s = robbed(20, 4, {0: 1, 1: 4, 2: 4}, [1, 0, 0])
    act(s, "give a share to self")
    assert (phase(s), s.decision.data, s.loot.round) == ("share", (1, 0), 3)
    act(s, "give a share to +2")
    assert s.shares.tolist() == [[2, 1], [2, 0], [3, 0], [0, 0]]
    check_totals(s)


def test_a_bag_the_leader_took_stays_a_bag_when_the_comrades_are_handed_out():
    # Card 34 (4 bags, 2 comrades), 5 players; leader 4 outlaws and 1 figure, P4 2 outlaws
    # and 2 figures, the others none. A bag as his round-1 share; round 2's last share goes
    # to P4: both comrades are P4's, the leader keeps his bag (his one figure has no share
    # left to be a comrade in).
    s = robbed(TWO_COMRADES, 5, {0: 4, 1: 1, 2: 1, 3: 3, 4: 2}, [1, 0, 0, 0, 2])
    assert (phase(s), s.decision.data) == ("share", (0, 1))
    act(s, "give a share to self", "give a share to +4")
    assert phase(s) == "lead"
    assert s.shares.tolist() == [[1, 0], [1, 0], [1, 0], [1, 0], [2, 2]]
    check_totals(s)


def test_the_leader_is_not_asked_again_once_no_bag_is_left_for_him():
    # Card 11 (2 bags, 1 comrade), leader 4 outlaws and 2 figures under the oak, P1 2 outlaws
    # and none. Round 1: asked. A bag leaves no bag: round 2's share is his (only a comrade
    # is left, and it is his), with no second question.
    s = robbed(11, 3, {0: 4, 1: 2}, [2, 0])
    assert (phase(s), s.decision.data) == ("share", (0, 1))
    act(s, "give a share to self")
    assert phase(s) == "lead" and s.shares.tolist() == [[2, 1], [1, 0], [0, 0]]
    # A comrade leaves a bag for round 2, which the leader gives to himself or to P1.
    s = robbed(11, 3, {0: 4, 1: 2}, [2, 0])
    act(s, "give a comrade to self")
    assert (phase(s), s.decision.data) == ("share", (1, 0))
    assert legal_names(s) == {"give a share to self", "give a share to +1"}
    assert s.shares[:2].tolist() == [[1, 1], [1, 0]]
    check_totals(s)


def test_a_robbery_with_nothing_to_share_leaves_the_shares_block_empty():
    """The observed ``shares`` block holds the shares of the last robbery: a robbery whose
    loot is nothing (card 5 carries fame only) must not show the previous robbery's."""
    s = attack_setup(ONE_GOLD_ONE_COMRADE, {"Derby Gate": {0: 2, 1: 2}, "Derby Wood": {2: 3}},
                     gold={0: 0, 1: 0, 2: 0}, leads=(0, 1, 2), more_cards=(5,))
    act(s, "lead traveller 1", "give a comrade to +1")
    assert s.shares.tolist() == [[1, 0], [1, 1], [0, 0]]
    assert obs_block(s, 1, "shares").tolist() == [[1, 1], [0, 0], [1, 0]]   # rotated to P1
    fame = s.fame.tolist()
    act(s, "lead traveller 2")                      # card 5: 2 fame, no gold, no comrade
    assert s.fame.tolist() == [fame[0], fame[1], fame[2] + 2]
    assert s.shares.tolist() == [[0, 0]] * 3
    assert not obs_block(s, 1, "shares").any()
    check_totals(s)


def _outcomes(state, out: list) -> None:
    """Every end of the sharing, over every choice the leader has."""
    if phase(state) not in ("share", "comrade"):
        out.append(state)
        return
    for a in state.legal_actions():
        child = state.clone()
        child.apply(a)
        _outcomes(child, out)


@pytest.mark.parametrize("seed", range(60))
def test_no_choice_of_the_leader_loses_a_share_random_positions(seed):
    """Whatever the leader chooses, every bag the pit can pay is handed out, and as many
    comrades as any distribution could place (the leader takes any number, an ally at most
    one per outlaw, each at most his figures under the oak); no ally gets more shares than
    he has outlaws, nobody more comrades than figures under the oak."""
    rng = np.random.default_rng(seed)
    n = 4
    k = int(rng.integers(2, n + 1))
    outlaws = {q: int(rng.integers(1, 5)) for q in range(k)}
    fits = [i for i, c in enumerate(CARDS) if not c.sheriff and c.strength <= sum(outlaws.values())
            and (c.gold or c.comrades)]
    card = fits[int(rng.integers(len(fits)))]
    gate = AMBUSHES.index(f"{TOWNS[CARDS[card].origin]} Gate")
    s = attack_setup(card, {AMBUSHES[gate]: outlaws}, n=n, leads=(0, 1), more_cards=(0,))
    for q in range(k):
        # few figures under the oak are where comrades do not fit
        set_oak(s, q, int(rng.choice([0, 0, 1, int(s.oak[q])])))
    if rng.random() < 0.4:
        left = int(rng.integers(0, 3))
        s.gold[k % n] += s.pit[0] - left
        s.pit[0] = left
        s.edited()
    oak, pit = s.oak.tolist(), int(s.pit[0])
    c = CARDS[card]
    bags = min(c.gold, pit)
    comrades = min(c.comrades, oak[0] + sum(min(outlaws[q], oak[q]) for q in range(1, k)))
    act(s, "lead traveller 1")
    ends: list = []
    _outcomes(s, ends)
    for end in ends:
        shares = end.shares.tolist()
        assert sum(sh - com for sh, com in shares) == bags, (card, outlaws, oak, pit, shares)
        assert sum(com for _, com in shares) == comrades, (card, outlaws, oak, pit, shares)
        for q in range(n):
            assert shares[q][1] <= oak[q]
            if q > 0:
                assert shares[q][0] <= outlaws.get(q, 0)
        check_totals(end)


# --- every hand-out the engine reaches is one of the rounds as read, and the reverse ------------
def reference_handouts(order: list[int], outlaws: list[int], oak: list[int], gold: int,
                       comrades: int) -> set[tuple]:
    """Every end of the hand-out by the rounds as the project reads them, written out plainly
    and asking the leader about *every* share of his own: each outlaw brings one share when
    the loot fills them all (the leader keeps the rest); else rounds of one share per
    participant not yet served who can still take one (the allies first in round 1 only),
    the leader choosing who gets a round's shares when it cannot serve them all; after each
    round in which he took one, his own share is a bag or a comrade, as he chooses, as far
    as the shares given stay fillable; an ally's share is given wherever the loot can fill
    it; then the leader keeps what nobody else can take, and the comrades are handed out in
    every way the shares allow. Ends as seat -> (shares, of which comrades)."""
    n, leader = len(outlaws), order[0]

    def fits(s, bags):
        need = sum(s) - gold
        room = sum(min(s[q] - (bags if q == leader else 0), oak[q]) for q in range(n))
        return need <= 0 or (need <= comrades and need <= room)

    def plus(s, q):
        return s[:q] + (s[q] + 1,) + s[q + 1:]

    def finish(s, bags, coms):
        while fits(plus(s, leader), bags):
            s = plus(s, leader)
        top = [min(s[q], oak[q]) for q in range(n)]
        top[leader] = min(s[leader] - bags, oak[leader])
        low = [coms if q == leader else 0 for q in range(n)]
        return frozenset(tuple(zip(s, c)) for c in itertools.product(
            *(range(low[q], top[q] + 1) for q in range(n))) if sum(c) == sum(s) - gold)

    @functools.cache
    def rounds(s, bags, coms, rnd):
        unserved = tuple(q for q in order if s[q] < outlaws[q] and fits(plus(s, q), bags))
        if not unserved:
            return finish(s, bags, coms)
        allies = tuple(q for q in unserved if q != leader)
        tiers = (allies, (leader,)) if rnd == 1 and allies and leader in unserved else (unserved,)
        return picks(s, bags, coms, rnd, tiers, frozenset(tiers[0]), s[leader])

    @functools.cache
    def picks(s, bags, coms, rnd, tiers, left, before):
        can = [q for q in left if fits(plus(s, q), bags)]
        if can:
            return frozenset().union(*(picks(plus(s, q), bags, coms, rnd, tiers, left - {q}, before)
                                       for q in can))
        if len(tiers) > 1:
            return picks(s, bags, coms, rnd, tiers[1:], frozenset(tiers[1]), before)
        if s[leader] == before:
            return rounds(s, bags, coms, rnd + 1)
        kinds = []
        if fits(s, bags + 1) and coms <= min(s[leader] - bags - 1, oak[leader]):
            kinds.append((bags + 1, coms))                  # a bag
        if coms < comrades and coms < min(s[leader] - bags, oak[leader]):
            kinds.append((bags, coms + 1))                  # a comrade
        assert kinds, "a share he took is neither a bag nor a comrade"
        return frozenset().union(*(rounds(s, b, c, rnd + 1) for b, c in kinds))

    if fits(tuple(outlaws), 0):
        return set(finish(tuple(outlaws), 0, 0))
    return set(rounds((0,) * n, 0, 0, 1))


@pytest.mark.whole_games
def test_the_engine_hands_out_exactly_what_the_rounds_allow_random_positions():
    """Over random robberies built where the leader's own share matters most (a leader with
    figures under the oak, allies with few, loot of bags and comrades, a pit sometimes
    short), the hand-outs the engine reaches over every choice are exactly those of
    ``reference_handouts``, which asks the leader about every share of his own: leaving it
    open where the engine does never loses a hand-out he could choose, and never adds one.
    Some of these positions ask him, and in some of those neither answer reaches all the
    hand-outs of the other."""
    rng = np.random.default_rng(2026)
    asked = questions = needed = 0
    for _ in range(300):
        n = int(rng.integers(3, 6))
        k = int(rng.integers(2, n + 1))
        outlaws = {q: int(rng.integers(1, 5)) for q in range(k)}
        fitting = [i for i, c in enumerate(CARDS) if not c.sheriff and c.comrades
                   and c.strength <= sum(outlaws.values())]
        if not fitting:
            continue
        card = fitting[int(rng.integers(len(fitting)))]
        gate = AMBUSHES.index(f"{TOWNS[CARDS[card].origin]} Gate")
        s = attack_setup(card, {AMBUSHES[gate]: outlaws}, n=n, leads=(0, 1), more_cards=(0,))
        set_oak(s, 0, int(rng.integers(1, min(3, int(s.oak[0])) + 1)))
        for q in range(1, k):
            set_oak(s, q, int(rng.choice([0, 0, 0, 1, 2])))
        if rng.random() < 0.3:
            left = int(rng.integers(0, CARDS[card].gold + 1))
            s.gold[k % n] += s.pit[0] - left
            s.pit[0] = left
            s.edited()
        oak, gold = s.oak.tolist(), min(CARDS[card].gold, int(s.pit[0]))
        act(s, "lead traveller 1")
        ends: list = []
        _outcomes(s, ends)
        got = {tuple(map(tuple, end.shares.tolist())) for end in ends}
        order = list(range(k))
        want = reference_handouts(order, [outlaws.get(q, 0) for q in range(n)], oak, gold,
                                  CARDS[card].comrades)
        assert got == want, (card, outlaws, oak, gold)
        own = [st for st in _decisions(s) if phase(st) == "share" and st.decision.data == (0, 1)]
        asked += bool(own)
        questions += len(own)
        for st in own:
            bag, comrade = _ends_after(st, "give a share to self"), _ends_after(st, "give a comrade to self")
            needed += not (bag <= comrade or comrade <= bag)
    # 26 positions ask him, 29 questions in all; after 6 of them neither answer's hand-outs
    # are all reachable after the other (the rest are the questions too many that
    # docs/sherwood.md, item 11, allows). Pinned: a change of when he is asked shows here.
    assert (asked, questions, needed) == (26, 29, 6)


def _decisions(state) -> list:
    """Every state of the hand-out's decision tree that waits for a choice."""
    if phase(state) not in ("share", "comrade"):
        return []
    out = [state]
    for a in state.legal_actions():
        child = state.clone()
        child.apply(a)
        out += _decisions(child)
    return out


def _ends_after(state, name: str) -> set[tuple]:
    """Every end of the hand-out (the shares block) after ``name``."""
    child = state.clone()
    act(child, name)
    ends: list = []
    _outcomes(child, ends)
    return {tuple(map(tuple, end.shares.tolist())) for end in ends}
