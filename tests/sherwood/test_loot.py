"""Sharing the loot of a successful attack (rulebook, basic rules, "Successful attack";
rules/README.md's readings): each outlaw brings one share, the leader keeps the rest; rounds
of one share per participant not yet fully served, the allies before the leader in the first
round only; the leader chooses when fewer shares than such participants are left; "Of
course, the leader can give a new comrade only to a player who still has outlaw figures
under the oak": a comrade is one of the recipient's shares and one of his own figures, and
a comrade nobody in the ambush can take stays under the oak and is no share. No share that
somebody could take is ever lost, whatever the leader chooses."""

from __future__ import annotations

import numpy as np
import pytest

from forest_envs.sherwood.components import AMBUSHES, CARDS, GOLD_BAGS, TOWNS

from .conftest import act, attack_setup, legal_names, phase, set_player

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
