"""Sherwood Forest rule edges the mutation check (tools/mutate.py, docs/testing.md) found
untested: each test pins one rule sentence (or reading) at a boundary that a deliberate bug
slipped past. Positions are built with the conftest helpers; every test asserts values."""

from __future__ import annotations

import numpy as np
import pytest

from forest_envs.sherwood.components import (
    AMBUSHES,
    BOW,
    CARDS,
    CUDGEL,
    DERBY,
    EXAMPLE_CARD,
    ROUTES,
    SWORD,
    TOWNS,
    YORK,
)
from forest_envs.sherwood.rules import card_features, new_game

from .conftest import (
    act,
    amb,
    attack_setup,
    legal_names,
    new_state,
    obs_block,
    phase,
    set_ambush,
    set_player,
    set_slots,
    start_attacks,
)


# --- what a face-up traveller card shows ---------------------------------------------------------------
def test_a_card_shows_its_numbers_its_two_towns_once_and_its_deck():
    """Strength, fame, gold, comrades; origin and destination as one mark each; the
    Sheriff's numbers; the deck letter (the example card: strength 12, 1 fame, 9 gold, 1
    comrade)."""
    c = CARDS[EXAMPLE_CARD]
    f = card_features(EXAMPLE_CARD).tolist()
    towns = len(TOWNS)
    origin = [0] * towns
    origin[c.origin] = 1
    dest = [0] * towns
    dest[c.destination] = 1
    assert f == [12, 1, 9, 1, *origin, *dest, 0, 0, 0, int(c.deck == "B")]
    sheriff = next(i for i, x in enumerate(CARDS) if x.sheriff and x.deck == "B")
    s = CARDS[sheriff]
    f = card_features(sheriff).tolist()
    assert f[:4] == [s.strength, s.fame, 0, 0]
    assert f[4:8].count(1) == 1 and f[4 + s.origin] == 1 and sum(f[4:8]) == 1
    assert f[8:12].count(1) == 1 and f[8 + s.destination] == 1 and sum(f[8:12]) == 1
    assert f[12:] == [1, s.fame_loss, s.outlaw_loss, 1]


# --- setup ---------------------------------------------------------------------------------------------
def test_the_default_game_has_four_players():
    assert new_game().num_players == 4


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_the_observation_shows_the_player_count(n):
    s = new_state(n)
    assert s.players_onehot.tolist() == [int(k == n) for k in (3, 4, 5, 6)]


# --- the inn: a look at a traveller lasts while that card lies out --------------------------------------
def test_a_look_at_a_traveller_is_forgotten_once_the_card_has_left_its_place():
    s = new_state(3)
    set_slots(s, [0, 1, 2, 3], face_up=(0,))
    act(s, "inn: look at traveller 2")
    assert obs_block(s, 0, "peek")[1, 0] == CARDS[1].strength
    start_attacks(s, [0])
    act(s, "lead traveller 2")            # Nottingham -> Derby, nobody in its way
    assert s.round_index == 2 and s.slots[1] >= 0   # a new, unseen card lies in that place
    assert not s.peek[:, 1].any() and not obs_block(s, 0, "peek")[1].any()


# --- the end of a round: "all outlaws return to their camps" --------------------------------------------
def test_no_ambush_keeps_a_leader_into_the_next_round():
    s = new_state(4)
    set_slots(s, [0])
    set_ambush(s, "York Gate", {1: 2})
    set_player(s, 1, camp=2)
    start_attacks(s, [0])
    act(s, "lead traveller 1")            # Lincoln -> Derby: nobody in its way
    assert s.round_index == 2 and phase(s) == "prep"
    assert not s.ambush_outlaws.any() and not s.ambush_leader.any()


# --- joint ambushes: one alliance token pair for each ally who promises cards -------------------------
def test_the_last_free_token_pair_goes_to_the_first_ally_asked_for_cards():
    """Five of the six pairs in use: an ally asked only for outlaws takes no pair, so the next
    ally may still be asked for a card; once an ally was asked for a card, no pair is left."""
    for first, second_may_promise in (("ask for 1 outlaws and 0 cards", True),
                                      ("ask for 1 outlaws and 1 cards", False)):
        s = new_state(3)
        set_player(s, 1, hand={"bow": 1})
        set_player(s, 2, hand={"bow": 1})
        for a in range(5):
            s.tokens = {**s.tokens, (a + 6, 0): a}          # five pairs in use elsewhere
        s.edited()
        act(s, "offer a joint ambush at York Gate with 1 own", first)
        assert phase(s) == "ask" and s.view(None)["decision"]["data"]["ally"] == 2
        assert ("ask for 1 outlaws and 1 cards" in legal_names(s)) == second_may_promise
        assert "ask for 1 outlaws and 0 cards" in legal_names(s)



def test_two_allies_promising_cards_mark_them_with_two_different_token_pairs():
    """"The player marks the card and the ambush with alliance tokens bearing the same
    letter": each ally's reserved card has its own letter, so two allies take two pairs."""
    s = new_state(3)
    set_player(s, 1, hand={"bow": 1})
    set_player(s, 2, hand={"sword": 1})
    act(s, "offer a joint ambush at York Gate with 1 own", "ask for 1 outlaws and 1 cards",
        "ask for 1 outlaws and 1 cards", "accept promising 1 bow", "accept promising 1 sword")
    a = amb("York Gate")
    assert phase(s) == "confirm"
    assert s.tokens == {(a, 1): 0, (a, 2): 1}
    assert s.promised[a, 1, BOW] == 1 and s.promised[a, 2, SWORD] == 1

# --- offers with the additions: what the table sees once an offer is settled -----------------------------
def formed_offer(round_index: int = 1):
    """(Additions, 3 players) P0 offers a joint ambush at York Gate, marks traveller 1 as the
    target, asks P1 for 2 outlaws, promises him 3 bags and pays him 1 gold now; P1 accepts."""
    s = new_state(3, additions=True)
    s.round_index = round_index
    s.round_no[0] = round_index
    set_slots(s, [7, 0, 1, 2])
    act(s, "offer a joint ambush at York Gate with 2 own", "mark traveller 1 as the target",
        "ask for 2 outlaws and 0 cards", "promise 3 bags of loot and pay 1 gold now",
        "ask for 0 outlaws and 0 cards", "accept")
    assert s.ambush_outlaws[amb("York Gate")].tolist() == [2, 2, 0]
    return s


def test_a_settled_offer_leaves_no_offer_marks_in_the_observation():
    s = formed_offer()
    assert s.offer is None
    for block in ("offer_ambush", "offer_target", "offer_terms", "offer_informant", "offer_ask",
                  "offer_answer"):
        assert not getattr(s, block).any(), block
    assert s.informant[amb("York Gate")].tolist() == [1, 0, 0]    # the agreement keeps it


def test_gold_paid_with_an_offer_in_the_sixth_round_is_sixth_round_gold():
    """Sixth-round gold turns into fame at the end; gold an ally receives with an offer then
    is such gold (the payment is loot of that round)."""
    s = formed_offer(round_index=6)
    assert s.round_gold.tolist() == [0, 1, 0]
    s = formed_offer(round_index=5)
    assert not s.round_gold.any()


# --- the coach on the road: the observation shows where it stands ---------------------------------------
def test_the_coach_step_shows_the_ambushes_passed_when_a_fight_asks_for_cards():
    card = 9                                   # strength 5, York -> Derby
    assert (CARDS[card].strength, ROUTES[(YORK, DERBY)][1]) == (5, amb("York Wood"))
    s = attack_setup(card, {"York Wood": {0: 3}}, hands={0: {"bow": 1}})
    act(s, "lead traveller 1")
    assert phase(s) == "equip"
    assert s.coach_step[0] == 1 and s.coach_at[amb("York Wood")] == 1


# --- an ambush's strength: outlaws, promised cards, cards from hand --------------------------------------
def test_outlaws_and_promised_cards_exactly_equal_to_the_strength_rob_the_traveller():
    # Card 9: strength 5, York -> Derby. 3 outlaws and a promised bow (2).
    s = attack_setup(9, {"York Gate": {0: 2, 1: 1}}, promised={"York Gate": {1: {"bow": 1}}})
    act(s, "lead traveller 1")
    assert s.fame.tolist() == [1, 1, 0]                       # robbed: 1 fame each
    assert s.equip_discard[BOW] == 1 and not s.promised.any()  # the promise was needed: used up


def test_a_fight_that_a_sword_from_hand_would_carry_asks_for_cards():
    # Card 9: strength 5. Two outlaws and one card in hand: a sword (3) reaches 5.
    s = attack_setup(9, {"York Gate": {0: 2}}, hands={0: {"sword": 1}})
    act(s, "lead traveller 1")
    assert phase(s) == "equip" and s.current_player == 0
    act(s, "play sword")
    assert s.fame.tolist() == [1, 0, 0] and s.equip_discard[SWORD] == 1


def test_promised_cards_short_of_the_strength_that_a_hand_card_would_carry_ask_for_it():
    """"If the total strength of the ambush (taking into account the equipment cards
    promised by allies) equals or exceeds the strength of the traveller, you must attack";
    short of it, "you may use equipment cards", "one card per outlaw". Card 15 (strength 7,
    from York Gate): 3 outlaws and P1's promised sword (3) make 6; only P0's card in hand
    (one, on one of his two outlaws) can carry the attack, so P0 is asked, and the promise
    counts towards it."""
    assert CARDS[15].strength == 7 and not CARDS[15].sheriff
    for play, robbed in (("play cudgel", True), ("play no more cards", False)):
        s = attack_setup(15, {"York Gate": {0: 2, 1: 1}}, promised={"York Gate": {1: {"sword": 1}}},
                         hands={0: {"cudgel": 1}}, leads=(0, 1), more_cards=(0,))
        act(s, "lead traveller 1")
        assert (phase(s), s.current_player, s.decision.data[1:3]) == ("equip", 0, (7, 6))
        assert legal_names(s) == {"play cudgel", "play no more cards"}
        act(s, play)
        if robbed:                 # 3 + 3 + 1 = 7: robbed, the promise needed and used up
            assert s.fame.tolist() == [1, 1, 0]
            assert s.equip_discard[CUDGEL] == 1 and s.equip_discard[SWORD] == 1
            assert not s.promised.any()
        else:                      # 6 of 7: the traveller drives on, the promise stays laid out
            assert not s.fame.any() and s.hand[0, CUDGEL] == 1
            assert s.promised[amb("York Gate"), 1, SWORD] == 1 and s.equip_discard[SWORD] == 0


def test_promised_cards_not_needed_go_back_to_hand_at_once():
    """Outlaws alone reach the strength: the promised cards return to their owner right
    after the attack (not only at the round's end), and the token pair is free again."""
    s = attack_setup(9, {"York Gate": {0: 4, 1: 1}}, promised={"York Gate": {1: {"bow": 1}}},
                     leads=(0, 1), more_cards=(0,))
    act(s, "lead traveller 1")
    assert (phase(s), s.current_player, s.round_index) == ("lead", 1, 1)
    assert s.hand[1, BOW] == 1 and s.hand_count[1] == 1 and not s.promised.any()
    assert (amb("York Gate"), 1) not in s.tokens and s.equip_discard[BOW] == 0


# --- planned attacks (additions) ------------------------------------------------------------------------
def plan(s, name: str, card: int, advance: dict[int, int], informant: int = 0,
         pledged: dict[int, int] | None = None) -> None:
    """A binding agreement on ``name`` targeting ``card`` with loot laid out in advance and
    the number of equipment cards each ally promised (``pledged``)."""
    a = amb(name)
    for q, g in advance.items():
        s.advance[a, q] = g
        s.pit[0] -= g
    for q, k in (pledged or {}).items():
        s.pledged[a, q] = k
    s.targets = {**s.targets, a: card}   # set whole: a native state's field is a copy
    s.tokens = {**s.tokens, (a, -1): 5}
    s.ambush_target[a, s.slots.index(card)] = 1
    s.informant[a, informant] = 1
    s.edited()


def test_a_kept_card_promise_leaves_the_hand():
    # Card 7: strength 4, York -> Lincoln. 3 outlaws; P1 promised one card and holds a bow.
    s = attack_setup(7, {"York Gate": {0: 2, 1: 1}}, additions=True, hands={1: {"bow": 1}},
                     leads=(0, 1), more_cards=(0,))
    plan(s, "York Gate", 7, {}, pledged={1: 1})
    act(s, "lead traveller 1", "no messenger's clothes")
    assert phase(s) == "pledge" and s.current_player == 1
    act(s, "play bow")
    assert s.hand[1].sum() == 0 and s.hand_count[1] == 0


def test_loot_collected_from_an_agreement_in_the_sixth_round_is_sixth_round_gold():
    # Card 9: strength 5, 4 gold. Outlaws alone rob it; P1 was promised 2 bags (covered by
    # the traveller's gold, so the informant pays nothing).
    s = attack_setup(9, {"York Gate": {0: 3, 1: 2}}, additions=True, leads=(0, 1), more_cards=(0,))
    s.round_index = 6
    s.round_no[0] = 6
    plan(s, "York Gate", 9, {1: 2})
    before = s.gold.tolist()
    act(s, "lead traveller 1")
    got = [g - b for g, b in zip(s.gold.tolist(), before)]
    assert got[1] >= 2
    assert s.round_gold.tolist() == got


def test_the_shares_shown_after_an_attack_are_the_participants_only():
    s = attack_setup(9, {"York Gate": {0: 5}})                # outlaws alone: 5 >= 5
    act(s, "lead traveller 1")
    assert s.fame.tolist() == [1, 0, 0]
    assert s.shares[0].tolist() == [4, 0]                     # 4 bags, no comrade
    assert not s.shares[1].any() and not s.shares[2].any()


# --- provisions (additions): outlaws who stay keep a leader ----------------------------------------------
def test_outlaws_staying_with_provisions_keep_the_ambush_led():
    s = attack_setup(9, {"York Gate": {0: 4, 1: 1}}, additions=True, hands={1: {"provisions": 1}},
                     leads=(0, 1), more_cards=(0,))
    act(s, "lead traveller 1", "no messenger's clothes")
    assert phase(s) == "provisions" and s.current_player == 0
    act(s, "no provisions", "provisions: stay in the ambush")
    a = amb("York Gate")
    assert s.ambush_outlaws[a].tolist() == [0, 1, 0]
    assert s.ambush_leader[a].tolist() == [0, 1, 0]          # the leader went home: P1 leads


# --- what a seat may believe about equipment it cannot see ------------------------------------------------
def test_a_resampled_state_redeals_the_unseen_equipment_and_keeps_every_count():
    s = new_state(4)
    set_player(s, 1, hand={"bow": 2})
    set_player(s, 2, hand={"sword": 1})
    unseen = sorted(s.equip_deck + [1, 1, 2])
    changed = False
    for i in range(8):
        t = s.resample_hidden(0, np.random.default_rng(i))
        assert t.hand[0].tolist() == s.hand[0].tolist()                 # its own hand is known
        assert [int(t.hand[q].sum()) for q in range(4)] == [int(s.hand[q].sum()) for q in range(4)]
        assert len(t.equip_deck) == len(s.equip_deck)
        dealt = sorted(t.equip_deck + [k for q in (1, 2, 3) for k in np.repeat(np.arange(6), t.hand[q]).tolist()])
        assert dealt == unseen
        changed |= t.hand[1].tolist() != s.hand[1].tolist()
    assert changed


# --- mutation survivors (docs/testing.md), second pass -----------------------------------------------------
def test_only_cards_an_outlaw_may_still_play_open_a_call_for_equipment():
    """"Remember -- one card per outlaw, no more!" (rulebook, ATTACKS): P1's one outlaw already
    carries his promised cudgel, so his hand card cannot be played here. Card 15 (strength 7, from York Gate): 2
    outlaws + the cudgel (1) + P0's one card (3 at most) reach 6 only: nobody is asked."""
    assert CARDS[15].strength == 7 and not CARDS[15].sheriff
    s = attack_setup(15, {"York Gate": {0: 1, 1: 1}}, promised={"York Gate": {1: {"cudgel": 1}}},
                     hands={0: {"sword": 1}, 1: {"sword": 1}}, leads=(0, 1), more_cards=(0,))
    act(s, "lead traveller 1")
    assert (phase(s), s.current_player) == ("lead", 1)     # the traveller drove on
    assert not s.fame.any() and s.hand[0, SWORD] == 1 and s.hand[1, SWORD] == 1
    assert s.fight is None


def test_an_ally_still_owing_promised_cards_is_asked_again_under_the_same_leader():
    # Card 9: strength 5, York -> Derby. 3 outlaws; P1 promised two cards and holds two cudgels.
    s = attack_setup(9, {"York Gate": {0: 1, 1: 2}}, additions=True, hands={1: {"cudgel": 2}},
                     leads=(0, 1), more_cards=(0,))
    plan(s, "York Gate", 9, {}, pledged={1: 2})
    act(s, "lead traveller 1", "no messenger's clothes")
    assert phase(s) == "pledge" and s.current_player == 1
    act(s, "play cudgel")                                   # 4 < 5: one card still owed
    assert phase(s) == "pledge" and s.current_player == 1
    data = s.view(None)["decision"]["data"]
    assert (data["leader"], data["total"], data["strength"]) == (0, 4, 5)


def test_a_renounced_promise_ends_the_fight():
    """"The planned attack is called off if the equipment cards are not applied in full":
    nothing of the fight is left in the state (its JSON form included)."""
    s = attack_setup(9, {"York Gate": {0: 1, 1: 2}}, additions=True, hands={1: {"cudgel": 2}},
                     leads=(0, 1), more_cards=(0,))
    plan(s, "York Gate", 9, {}, pledged={1: 2})
    act(s, "lead traveller 1", "no messenger's clothes", "renounce the promised cards")
    assert s.fight is None and s.to_dict()["fight"] is None
    while phase(s) == "messenger":                          # the traveller drives on
        act(s, "no messenger's clothes")
    assert (phase(s), s.current_player) == ("lead", 1)
    assert not s.fame.any() and s.fight is None and s.to_dict()["fight"] is None


def test_two_outlaw_bands_staying_under_forest_cloaks_are_led_by_the_first_in_seat_order():
    """The leader goes home; of the two allies who stay under a cloak the first in the
    fight's order (clockwise from the leader) leads the ambush on. Sheriff card 53 (strength
    12, Lincoln Gate): 5 outlaws + 3 per ally card reach 11 only, nobody is asked for cards."""
    assert CARDS[53].sheriff and CARDS[53].strength == 12
    s = attack_setup(53, {"Lincoln Gate": {0: 1, 1: 2, 2: 2}}, additions=True,
                     hands={1: {"forest cloak": 1}, 2: {"forest cloak": 1}}, leads=(0, 1),
                     more_cards=(0,))
    act(s, "lead traveller 1")
    while phase(s) == "messenger":
        act(s, "no messenger's clothes")
    assert phase(s) == "cloak" and s.current_player == 0
    act(s, "no forest cloak", "forest cloak: stay in the ambush", "forest cloak: stay in the ambush")
    a = amb("Lincoln Gate")
    assert s.ambush_outlaws[a].tolist() == [0, 2, 2]
    assert s.ambush_leader[a].tolist() == [0, 1, 0]


def test_a_leader_staying_with_provisions_keeps_leading_his_ally_who_stays_too():
    """Provisions: "you may leave your outlaws in the ambush after a successful attack"; the
    leader and his ally both stay, and the ambush keeps its leader."""
    s = attack_setup(9, {"York Gate": {0: 4, 1: 1}}, additions=True,
                     hands={0: {"provisions": 1}, 1: {"provisions": 1}}, leads=(0, 1), more_cards=(0,))
    act(s, "lead traveller 1")
    while phase(s) == "messenger":
        act(s, "no messenger's clothes")
    assert phase(s) == "provisions" and s.current_player == 0
    act(s, "provisions: stay in the ambush", "provisions: stay in the ambush")
    a = amb("York Gate")
    assert s.ambush_outlaws[a].tolist() == [4, 1, 0]
    assert s.ambush_leader[a].tolist() == [1, 0, 0]


def test_loot_collected_from_an_agreement_before_the_sixth_round_is_not_sixth_round_gold():
    """Only gold and comrades gained in the sixth round turn into fame at the end: promised
    loot collected in the fifth round is not counted as such."""
    s = attack_setup(9, {"York Gate": {0: 3, 1: 2}}, additions=True, leads=(0, 1), more_cards=(0,))
    s.round_index = 5
    s.round_no[0] = 5
    plan(s, "York Gate", 9, {1: 2})
    before = s.gold.tolist()
    act(s, "lead traveller 1")
    assert s.gold[1] - before[1] >= 2
    assert not s.round_gold.any() and not s.round_comrades.any()


def test_a_robbed_sheriff_leaves_no_loot_to_share():
    """A Sheriff card carries no gold and no comrades: after the robbery nothing of a loot is
    left in the state (its JSON form included)."""
    card = 45                                   # strength 6, York -> Nottingham
    assert CARDS[card].sheriff and (CARDS[card].gold, CARDS[card].comrades) == (0, 0)
    start = ROUTES[(CARDS[card].origin, CARDS[card].destination)][0]
    s = attack_setup(card, {AMBUSHES[start]: {0: 4, 1: 2}}, additions=True, leads=(0, 1),
                     more_cards=(0,))
    act(s, "lead traveller 1")
    while phase(s) in ("messenger", "provisions"):
        act(s, {"messenger": "no messenger's clothes", "provisions": "no provisions"}[phase(s)])
    assert s.fame[0] == CARDS[card].fame and s.fame[1] == CARDS[card].fame
    assert s.loot is None and s.to_dict()["loot"] is None


def test_cards_promised_to_an_ambush_no_traveller_reached_go_back_at_the_rounds_end():
    """Rulebook, "Equipment cards": promised cards not needed go back to their owners'
    hands, and so at the round's end do those promised to an ambush no traveller passed
    (card 9 goes York -> Derby, never by Lincoln Gate); the token pair is free again."""
    s = attack_setup(9, {"York Gate": {0: 4}, "Lincoln Gate": {1: 1, 2: 1}},
                     promised={"Lincoln Gate": {2: {"bow": 1}}}, leads=(0,))
    assert s.promised[amb("Lincoln Gate"), 2, BOW] == 1 and s.hand[2, BOW] == 0
    act(s, "lead traveller 1")
    assert s.round_index == 2 and phase(s) == "prep"
    assert s.hand[2, BOW] == 1 and s.hand_count[2] == 1 and not s.promised.any()
    assert (amb("Lincoln Gate"), 2) not in s.tokens and s.equip_discard[BOW] == 0


# --- who leads first when nobody holds the starting player card ------------------------------------
def test_with_no_second_camp_to_empty_the_figure_seat_leads_the_first_traveller():
    """"The starting player acts first, then his left-hand neighbour" — the holder of the
    starting player card, and the starting player figure when no camp emptied second. Here
    P0 and P2 start the preparation with empty camps, so only P1's camp empties: nobody
    takes the card, and P1 (the figure) leads first."""
    s = new_state(3, figure=1)
    for p in (0, 2):
        s.oak[p] += int(s.camp[p])
        s.camp[p] = 0
    s.edited()
    act(s, "ambush at York Gate with 4")
    assert int(s.fame[1]) == 1 and s.card_holder_seat() == -1
    assert phase(s) == "lead" and s.current_player == 1 and s.leads == [1, 2, 0, 1]


@pytest.mark.parametrize("in_use, may_target", [(5, True), (6, False)])
def test_a_target_needs_a_free_alliance_token_pair_and_the_last_one_will_do(in_use, may_target):
    """"The informant uses a pair of identical alliance tokens to mark the ambush and the
    chosen traveller card": with five of the six pairs in use elsewhere the last pair marks
    the target; with all six in use only "no target" is left."""
    s = new_state(3, additions=True)
    set_slots(s, [7, 0, 1, 2])
    for a in range(in_use):
        s.tokens = {**s.tokens, (a + 6, 0): a}
    s.edited()
    act(s, "offer a joint ambush at York Gate with 2 own")
    assert phase(s) == "target"
    marks = {n for n in legal_names(s) if n.startswith("mark traveller")}
    assert "mark no target" in legal_names(s)
    assert marks == ({f"mark traveller {i} as the target" for i in range(1, 5)} if may_target else set())


def test_a_sheriff_out_of_reach_of_the_cards_outlaws_may_still_play_crushes_the_ambush():
    """As above, one card per outlaw: P1's outlaw carries his promised cudgel. The Sheriff
    (card 50, strength 9, from Lincoln Gate) faces 2 outlaws + the cudgel + P0's one card
    (3 at most) = 6: nobody is asked for a card, and the ambush suffers "Defeat by the
    Sheriff" (Sherwood Forest rulebook, "Attacks (with the additions)", "Sheriff" cards):
    each member is first asked about a forest cloak."""
    assert CARDS[50].sheriff and CARDS[50].strength == 9
    s = attack_setup(50, {"Lincoln Gate": {0: 1, 1: 1}}, additions=True,
                     promised={"Lincoln Gate": {1: {"cudgel": 1}}},
                     hands={0: {"sword": 1}, 1: {"sword": 1}}, leads=(0, 1), more_cards=(0,))
    act(s, "lead traveller 1", "no messenger's clothes", "no messenger's clothes")
    assert s.fight is None and s.hand[0, SWORD] == 1 and s.hand[1, SWORD] == 1
    assert (phase(s), s.current_player) == ("cloak", 0) and legal_names(s) == {"no forest cloak"}
