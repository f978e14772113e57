"""Sherwood Forest additions: setup, the Sheriff, the forest cloak, provisions, the
messenger's clothes (an interrupt window) and the fork bonus outlaw. Values asserted are
those the rulebook (or rules/README.md) fixes."""

from __future__ import annotations

import pytest

from forest_envs.sherwood.components import (
    CARDS,
    DECK_CARDS,
    DERBY,
    EQUIPMENT_COUNTS,
    FOREST_CLOAK,
    GOLD_BAGS,
    LINCOLN,
    MESSENGER,
    NOTTINGHAM,
    PROVISIONS,
    ROUTES,
    YORK,
    equipment_deck,
    reroute,
    reroute_towns,
)
from forest_envs.sherwood.rules import new_game

from .conftest import act, amb, attack_setup, legal_names, new_state, phase, set_player, set_slots


def check_totals(state) -> None:
    assert (state.outlaw_totals() == 8).all(), state.outlaw_totals()
    assert state.gold_total() == GOLD_BAGS
    assert state.equipment_total() == 24
    assert state.traveller_total() == 55
    assert not state.game.layout.out_of_range(state.buf), state.game.layout.out_of_range(state.buf)


SHERIFF_A6 = 45     # A: strength 6, 2 fame, no fame loss, 1 outlaw; York -> Nottingham
SHERIFF_B12 = 53    # B: strength 12, 4 fame, loses 2 fame and 2 outlaws; Lincoln -> Nottingham


def test_sheriff_cards():
    assert (CARDS[SHERIFF_A6].strength, CARDS[SHERIFF_A6].fame, CARDS[SHERIFF_A6].fame_loss,
            CARDS[SHERIFF_A6].outlaw_loss) == (6, 2, 0, 1)
    assert all(c.fame_loss == 0 for c in CARDS if c.sheriff and c.deck == "A")
    assert all(c.fame_loss > 0 for c in CARDS if c.sheriff and c.deck == "B")


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_setup_with_additions(n):
    s = new_game({"num_players": n, "additions": True}, seed=11)
    cards = [c for c in s.slots if c >= 0] + s.pile
    assert [CARDS[c].deck for c in cards] == ["A"] * DECK_CARDS[n] + ["B"] * DECK_CARDS[n]
    # Sheriffs are shuffled into both piles: the box holds the rest of 27 A and 28 B cards.
    assert len(s.box) == 27 + 28 - 2 * DECK_CARDS[n]
    assert sorted(s.equip_deck) == sorted(equipment_deck(True))
    assert len(s.equip_deck) == 24 and EQUIPMENT_COUNTS[3:] == (2, 2, 2)


def test_sheriff_defeated_gives_fame_only():
    s = attack_setup(SHERIFF_A6, {"York Gate": {0: 4, 1: 2}}, additions=True, gold={0: 0, 1: 0})
    act(s, "lead traveller 1")
    assert phase(s) == "provisions"              # every participant is asked, in order
    act(s, "no provisions", "no provisions")
    assert s.fame.tolist()[:2] == [2, 2] and s.gold.tolist()[:2] == [0, 0]
    assert SHERIFF_A6 in s.removed and not s.ambush_outlaws.any()
    check_totals(s)


def test_sheriff_crushes_every_ambush_he_passes():
    # Lincoln -> Nottingham: Lincoln Gate, then Lincoln Wood.
    s = attack_setup(SHERIFF_B12, {"Lincoln Gate": {0: 3}, "Lincoln Wood": {1: 2}}, additions=True)
    s.oak[0], s.camp[0] = 2, 3                   # P0's band is 6: 3 in the ambush, 3 at home
    s.fame[0], s.fame[1] = 5, 1
    s.edited()
    check_totals(s)
    act(s, "lead traveller 1")
    assert phase(s) == "cloak" and s.current_player == 0
    act(s, "no forest cloak")
    # P0 loses 2 fame and 2 outlaws (under the oak; his band falls to 4).
    assert (int(s.fame[0]), int(s.oak[0]), int(s.camp[0])) == (3, 4, 4)
    assert phase(s) == "cloak" and s.current_player == 1
    act(s, "no forest cloak")
    # P1's band is 4 already: no outlaw lost; fame cannot fall below 0.
    assert (int(s.fame[1]), int(s.oak[1]), int(s.camp[1])) == (0, 4, 4)
    assert SHERIFF_B12 in s.removed and not s.ambush_outlaws.any()
    check_totals(s)


def test_forest_cloak_protects_its_owner_who_may_stay_and_lead():
    s = attack_setup(SHERIFF_B12, {"Lincoln Gate": {0: 3, 1: 2}}, additions=True,
                     hands={1: {"forest cloak": 1}}, leads=(0, 1), more_cards=(0,))
    s.oak[0], s.camp[0] = 2, 3
    s.fame[:] = 5
    s.edited()
    act(s, "lead traveller 1")
    assert phase(s) == "messenger"               # P1 holds a card: asked, reveals nothing
    act(s, "no messenger's clothes")
    # 5 outlaws + 3 for P1's one card cannot reach 12: nobody is asked for equipment.
    assert phase(s) == "cloak" and s.current_player == 0
    act(s, "no forest cloak")
    assert legal_names(s) == {"no forest cloak", "forest cloak: stay in the ambush",
                              "forest cloak: go home"}
    act(s, "forest cloak: stay in the ambush")
    a = amb("Lincoln Gate")
    assert int(s.fame[0]) == 3 and int(s.fame[1]) == 5    # the cloak protects only its owner
    assert s.ambush_outlaws[a].tolist() == [0, 2, 0] and s.ambush_leader[a].tolist() == [0, 1, 0]
    assert int(s.equip_discard[FOREST_CLOAK]) == 1
    assert phase(s) == "lead" and s.current_player == 1
    check_totals(s)


def test_provisions_keep_outlaws_in_the_ambush_until_a_second_success():
    # Card 7 (strength 4, York -> Lincoln) then card 3 (strength 3, York -> Nottingham).
    s = attack_setup(7, {"York Gate": {0: 4}}, additions=True, hands={0: {"provisions": 1}},
                     leads=(0, 1), more_cards=(3,))
    act(s, "lead traveller 1", "no messenger's clothes")
    assert phase(s) == "provisions"
    act(s, "provisions: stay in the ambush")
    a = amb("York Gate")
    assert s.ambush_outlaws[a, 0] == 4 and s.provisioned[a, 0] == 1 and int(s.fame[0]) == 2
    assert int(s.equip_discard[PROVISIONS]) == 1
    act(s, "lead traveller 2")                   # nobody holds a card: no messenger window
    assert int(s.fame[0]) == 3
    assert legal_names(s) == {"no provisions"}   # his outlaws already stayed once
    act(s, "no provisions")
    assert s.ambush_outlaws[a, 0] == 0
    check_totals(s)


def test_messenger_clothes_change_the_destination():
    s = attack_setup(7, {"Lincoln Gate": {0: 4}, "Derby Gate": {2: 4}}, additions=True,
                     hands={1: {"messenger's clothes": 1}, 2: {"cudgel": 1}})
    act(s, "lead traveller 1")
    assert phase(s) == "messenger" and s.current_player == 1
    assert legal_names(s) == {"no messenger's clothes", "messenger's clothes: send to Derby",
                              "messenger's clothes: send to Nottingham"}
    act(s, "messenger's clothes: send to Derby")
    # One card per traveller: P2 is not asked; the coach now drives York -> Derby.
    assert phase(s) == "provisions" and int(s.fame[2]) == 2 and int(s.fame[0]) == 0
    assert int(s.equip_discard[MESSENGER]) == 1
    act(s, "no provisions")
    check_totals(s)


def test_the_messenger_window_asks_every_seat_holding_cards_in_order():
    s = attack_setup(7, {}, additions=True, hands={0: {"cudgel": 1}, 2: {"bow": 1}})
    act(s, "lead traveller 1")
    assert (phase(s), s.current_player) == ("messenger", 0)
    assert legal_names(s) == {"no messenger's clothes"}
    act(s, "no messenger's clothes")
    assert (phase(s), s.current_player) == ("messenger", 2)
    act(s, "no messenger's clothes")
    assert 7 in s.removed


def test_fork_bonus_outlaw_for_the_most_outlaws_in_the_red_forks_ties_all_win():
    # Card 44: strength 14, Derby -> Nottingham; nobody can attack it.
    s = attack_setup(44, {"North-East Fork": {0: 3}, "South-West Fork": {1: 2},
                          "North-West Fork": {1: 1}, "York Gate": {2: 4}}, additions=True)
    act(s, "lead traveller 1")
    assert s.round_index == 2
    assert s.oak.tolist() == [3, 3, 4] and s.camp.tolist() == [5, 5, 4]
    assert s.fork_bonus.tolist() == [1, 1, 0]
    check_totals(s)


# =========================================================================================
# Binding agreements and gold in offers
# =========================================================================================
def test_an_offer_with_a_target_promised_loot_and_gold_paid_now():
    s = new_state(3, additions=True)
    set_slots(s, [7, 0, 1, 2])
    pit = int(s.pit[0])
    act(s, "offer a joint ambush at York Gate with 2 own")
    assert phase(s) == "target"
    act(s, "mark traveller 1 as the target", "ask for 2 outlaws and 0 cards")
    assert phase(s) == "terms" and s.decision.data[2] == 1
    # Loot is promised only as far as the pit can advance it; payment only from the camp.
    names = legal_names(s)
    assert "promise 9 bags of loot and pay 2 gold now" in names        # P0 has 2 bags
    assert "promise 0 bags of loot and pay 3 gold now" not in names
    act(s, "promise 3 bags of loot and pay 1 gold now", "ask for 0 outlaws and 0 cards")
    assert phase(s) == "answer" and s.offer_terms[1].tolist() == [3, 1, 0]
    act(s, "accept")
    a = amb("York Gate")
    assert s.gold.tolist() == [1, 3, 2] and int(s.pit[0]) == pit - 3
    assert s.advance[a].tolist() == [0, 3, 0] and s.informant[a].tolist() == [1, 0, 0]
    assert s.ambush_target[a, 0] == 1 and s.targets == {a: 7} and (a, -1) in s.tokens
    check_totals(s)


def planned(s, name: str, card: int, advance: dict[int, int], informant: int = 0,
            comrades: dict[int, int] | None = None) -> None:
    a = amb(name)
    for q, g in advance.items():
        s.advance[a, q] = g
        s.pit[0] -= g
    for q, c in (comrades or {}).items():
        s.advance_comrades[a, q] = c
        s.oak[q] -= c
    s.targets = {**s.targets, a: card}   # set whole: a native state's field is a copy
    s.tokens = {**s.tokens, (a, -1): 5}
    s.ambush_target[a, s.slots.index(card)] = 1
    s.informant[a, informant] = 1
    s.edited()


@pytest.mark.parametrize("informant_gold, ally_gets", [(2, 3), (1, 2), (0, 1)])
def test_planned_attack_pays_the_promise_the_informant_covers_shortfalls(informant_gold, ally_gets):
    # Card 7: strength 4, 2 fame, 1 gold. Promised 3 bags to P1; the loot covers 1.
    s = attack_setup(7, {"York Gate": {0: 2, 1: 2}}, additions=True,
                     gold={0: informant_gold, 1: 0, 2: 0})
    planned(s, "York Gate", 7, {1: 3})
    pit = int(s.pit[0])
    act(s, "lead traveller 1", "no provisions", "no provisions")
    assert s.fame.tolist() == [2, 2, 0]
    paid = min(2, informant_gold)
    assert s.gold.tolist() == [informant_gold - paid, ally_gets, 0]
    # The pit gets back what the informant paid and what the ally could not keep.
    assert int(s.pit[0]) == pit + paid + (3 - ally_gets)
    assert not s.advance.any() and not s.targets and (amb("York Gate"), -1) not in s.tokens
    check_totals(s)


def test_the_rest_of_the_loot_is_shared_by_the_basic_rules():
    # Card 9: strength 5, 4 gold. 1 bag promised to P1; 3 bags left for 5 outlaws.
    s = attack_setup(9, {"York Gate": {0: 3, 1: 2}}, additions=True, gold={0: 0, 1: 0, 2: 0})
    planned(s, "York Gate", 9, {1: 1})
    act(s, "lead traveller 1")
    assert phase(s) == "share"                   # round 2: one bag for P0 or P1
    act(s, "give a share to self", "no provisions", "no provisions")
    assert s.gold.tolist() == [2, 2, 0]
    check_totals(s)


def test_a_spontaneous_attack_voids_the_agreement():
    # The agreement targets card 0; card 7 falls into the ambush instead.
    s = attack_setup(7, {"York Gate": {0: 2, 1: 2}}, additions=True, gold={0: 0, 1: 0, 2: 0},
                     more_cards=(0,), leads=(0, 1))
    planned(s, "York Gate", 0, {1: 3})
    pit = int(s.pit[0])
    act(s, "lead traveller 1", "no provisions", "no provisions")
    assert s.gold.tolist() == [0, 1, 0]          # 1 bag shared evenly (allies first)
    assert int(s.pit[0]) == pit + 3 - 1 and not s.advance.any() and not s.targets
    check_totals(s)


def test_a_target_that_gets_away_voids_the_agreement():
    s = attack_setup(7, {"Derby Gate": {0: 1, 1: 1}}, additions=True, more_cards=(0,), leads=(0, 1))
    planned(s, "Derby Gate", 7, {1: 2})
    pit = int(s.pit[0])
    act(s, "lead traveller 1")                   # York -> Lincoln never passes Derby Gate
    assert int(s.pit[0]) == pit + 2 and not s.advance.any() and not s.ambush_target.any()
    assert s.ambush_outlaws[amb("Derby Gate")].tolist() == [1, 1, 0]
    check_totals(s)


def test_without_a_target_no_loot_can_be_promised():
    s = new_state(3, additions=True)
    act(s, "offer a joint ambush at York Gate with 2 own", "mark no target",
        "ask for 2 outlaws and 0 cards")
    assert {n for n in legal_names(s)} == {f"promise 0 bags of loot and pay {k} gold now"
                                           for k in range(3)}


# =========================================================================================
# The messenger's clothes at any point of the journey
# =========================================================================================
def test_messenger_clothes_after_the_first_ambush_change_the_remaining_route():
    # Card 7: strength 4, York -> Lincoln (York Gate, York Wood, NW, NE, SE, NE, Lincoln
    # Wood, Lincoln Gate). P2's lone outlaw at York Gate cannot rob it; P0 waits at Derby Gate.
    s = attack_setup(7, {"York Gate": {2: 1}, "Derby Gate": {0: 4}}, additions=True,
                     hands={1: {"messenger's clothes": 1}})
    act(s, "lead traveller 1")
    assert (phase(s), s.current_player, s.coach.step) == ("messenger", 1, 0)   # at reveal
    act(s, "no messenger's clothes")
    # The coach passed the occupied York Gate without being robbed: the window opens again.
    assert (phase(s), s.current_player, s.coach.step) == ("messenger", 1, 1)
    assert legal_names(s) == {"no messenger's clothes", "messenger's clothes: send to Derby",
                              "messenger's clothes: send to Nottingham"}
    act(s, "messenger's clothes: send to Derby")
    # It drives on from York Gate along York -> Derby and falls to P0 at Derby Gate.
    assert s.coach.destination == DERBY and ROUTES[(YORK, DERBY)][s.coach.step] == amb("Derby Gate")
    assert phase(s) == "provisions" and s.fame.tolist() == [2, 0, 0]
    act(s, "no provisions")
    assert int(s.equip_discard[MESSENGER]) == 1
    check_totals(s)


def test_messenger_clothes_cannot_send_the_coach_back_along_its_path():
    # Card 7 passes the North-East Fork twice (route places 4 and 6).
    assert reroute_towns(YORK, LINCOLN, 4) == (DERBY, NOTTINGHAM)
    assert reroute_towns(YORK, LINCOLN, 5) == ()          # on Lincoln's arm: back to reach any other
    assert reroute(YORK, 5, DERBY) is None and reroute(YORK, 4, DERBY) == ROUTES[(YORK, DERBY)][4:]
    s = attack_setup(7, {"North-East Fork": {2: 1}}, additions=True, leads=(0, 1), more_cards=(0,),
                     hands={1: {"messenger's clothes": 1}})
    act(s, "lead traveller 1", "no messenger's clothes")
    assert (phase(s), s.coach.step) == ("messenger", 4)     # passed York's arm: both towns legal
    assert len(legal_names(s)) == 3
    coach = s.coach                                         # set whole: a native state's field is a copy
    coach.step = 5                                          # had it passed the South-East Fork too
    s.coach = coach
    s.edited()
    assert legal_names(s) == {"no messenger's clothes"}   # every other town means driving back
    coach.step = 4
    s.coach = coach
    s.edited()
    act(s, "no messenger's clothes")
    # Its second pass of the fork (6 ambushes behind it) opens no window: no town is legal.
    assert (phase(s), s.current_player) == ("lead", 1) and 7 in s.removed
    check_totals(s)


def test_only_one_messenger_clothes_per_traveller():
    s = attack_setup(7, {"York Gate": {0: 1}}, additions=True, leads=(0, 1), more_cards=(0,),
                     hands={1: {"messenger's clothes": 1}, 2: {"messenger's clothes": 1}})
    act(s, "lead traveller 1")
    assert (phase(s), s.current_player) == ("messenger", 1)
    act(s, "messenger's clothes: send to Nottingham")
    # P2 is not asked, and no window opens after York Gate: the coach reaches Nottingham.
    assert (phase(s), s.current_player) == ("lead", 1) and 7 in s.removed
    assert s.hand[2, MESSENGER] == 1 and int(s.equip_discard[MESSENGER]) == 1
    check_totals(s)


def test_no_window_once_both_messenger_clothes_are_discarded():
    s = attack_setup(7, {"York Gate": {0: 1}}, additions=True, leads=(0, 1), more_cards=(0,),
                     hands={1: {"cudgel": 1}})
    deck = s.equip_deck                 # set whole: a native state's field is a copy
    deck.remove(MESSENGER)
    deck.remove(MESSENGER)
    s.equip_deck = deck
    s.equip_discard[MESSENGER] = 2
    s.edited()
    act(s, "lead traveller 1")
    assert (phase(s), s.current_player) == ("lead", 1)
    check_totals(s)


# =========================================================================================
# Comrades as promised loot
# =========================================================================================
def test_terms_may_promise_the_allys_own_comrades_from_under_the_oak():
    s = new_state(3, additions=True)
    set_slots(s, [8, 0, 1, 2])
    s.oak[1] = 1                                  # P1 has one figure under the oak
    s.camp[1] = 7
    s.edited()
    act(s, "offer a joint ambush at Derby Gate with 2 own", "mark traveller 1 as the target",
        "ask for 2 outlaws and 0 cards")
    names = legal_names(s)
    assert "promise 1 bags and 1 comrades of loot and pay 0 gold now" in names
    assert "promise 1 bags and 2 comrades of loot and pay 0 gold now" not in names
    act(s, "promise 1 bags and 1 comrades of loot and pay 0 gold now",
        "ask for 0 outlaws and 0 cards", "accept")
    a = amb("Derby Gate")
    assert s.advance_comrades[a].tolist() == [0, 1, 0] and int(s.oak[1]) == 0
    assert s.offer is None and s.advance[a].tolist() == [0, 1, 0]
    check_totals(s)                               # the laid-out comrade is still counted


def test_without_a_target_no_comrades_can_be_promised():
    s = new_state(3, additions=True)
    act(s, "offer a joint ambush at York Gate with 2 own", "mark no target",
        "ask for 2 outlaws and 0 cards")
    assert not any("comrades" in name for name in legal_names(s))


@pytest.mark.parametrize("promised, collected", [(1, 1), (2, 1)])
def test_planned_attack_hands_over_promised_comrades_a_shortfall_stays_under_the_oak(promised, collected):
    # Card 8: strength 4, 1 fame, 1 gold, 1 comrade, Derby -> Nottingham.
    s = attack_setup(8, {"Derby Gate": {0: 2, 1: 2}}, additions=True, gold={0: 3, 1: 0, 2: 0})
    planned(s, "Derby Gate", 8, {}, comrades={1: promised})
    check_totals(s)
    act(s, "lead traveller 1", "no provisions", "no provisions")
    # The traveller's comrade covers the promise first; the informant cannot pay with
    # outlaws (his gold is untouched); the one bag is shared by the basic rules (ally first).
    assert s.gold.tolist() == [3, 1, 0]
    assert (int(s.camp[1]), int(s.oak[1])) == (4 + collected, 4 - collected)
    assert (int(s.camp[0]), int(s.oak[0])) == (4, 4)
    assert not s.advance_comrades.any()
    check_totals(s)


def test_traveller_comrades_beyond_the_promise_are_shared_by_the_basic_rules():
    # Card 34: strength 9, 1 fame, 4 gold, 2 comrades. One comrade promised to P1.
    s = attack_setup(34, {"Nottingham Gate": {0: 5, 1: 4}}, additions=True, gold={0: 0, 1: 0, 2: 0})
    planned(s, "Nottingham Gate", 34, {}, comrades={1: 1})
    act(s, "lead traveller 1")
    # 4 gold + 1 comrade for 9 outlaws: round 1 gives P1 then P0 a share; the leader picks
    # who takes the comrade (both have a share and a figure under the oak).
    while phase(s) in ("share", "comrade"):
        act(s, sorted(legal_names(s))[0])
    while phase(s) == "provisions":
        act(s, "no provisions")
    assert int(s.oak.sum()) == 3 + 3 + 4 - 1 + 0   # P1's promised comrade plus one shared
    check_totals(s)


def test_uncollected_promised_comrades_go_back_under_the_oak():
    s = attack_setup(7, {"Derby Gate": {0: 1, 1: 1}}, additions=True, more_cards=(0,), leads=(0, 1))
    planned(s, "Derby Gate", 7, {1: 2}, comrades={1: 2})
    assert int(s.oak[1]) == 2
    act(s, "lead traveller 1")                   # the target never passes Derby Gate
    assert int(s.oak[1]) == 4 and not s.advance_comrades.any()
    check_totals(s)


# =========================================================================================
# The informant need not be the performer
# =========================================================================================
def test_an_ally_who_looked_at_the_target_can_be_named_informant():
    s = new_state(3, additions=True)
    set_slots(s, [7, 0, 1, 2])
    s.slot_marked[0, 1] = 1                       # P1's inn marker lies on traveller 1
    s.edited()
    act(s, "offer a joint ambush at York Gate with 2 own", "mark traveller 1 as the target")
    assert phase(s) == "informant"
    assert legal_names(s) == {"name self as the informant", "name +1 as the informant"}  # P2 did not look
    act(s, "name +1 as the informant")
    assert s.offer_informant.tolist() == [0, 1, 0]
    # The informant takes part: he must be asked for outlaws.
    assert "ask for 0 outlaws and 0 cards" not in legal_names(s)
    act(s, "ask for 2 outlaws and 0 cards")
    # The informant is promised no loot (he hands it out); the performer may pay him gold.
    assert legal_names(s) == {f"promise 0 bags of loot and pay {k} gold now" for k in range(3)}
    act(s, "promise 0 bags of loot and pay 1 gold now", "ask for 1 outlaws and 0 cards")
    assert "promise 2 bags and 1 comrades of loot and pay 0 gold now" in legal_names(s)
    act(s, "promise 2 bags of loot and pay 0 gold now")
    # Then the informant's promise to the performer (the leader is his ally): loot, no gold.
    assert phase(s) == "terms" and s.current_player == 0 and s.decision.data[2] == 0
    assert "promise 3 bags of loot and pay 1 gold now" not in legal_names(s)
    act(s, "promise 3 bags of loot and pay 0 gold now")
    assert (phase(s), s.current_player) == ("answer", 1)    # the informant answers like any ally
    act(s, "accept", "accept")
    a = amb("York Gate")
    assert s.informant[a].tolist() == [0, 1, 0] and s.advance[a].tolist() == [3, 0, 2]
    assert s.ambush_leader[a].tolist() == [1, 0, 0] and s.gold.tolist() == [1, 3, 2]
    check_totals(s)


def test_without_an_ally_who_looked_the_performer_is_the_informant():
    s = new_state(3, additions=True)
    set_slots(s, [7, 0, 1, 2])
    act(s, "offer a joint ambush at York Gate with 2 own", "mark traveller 1 as the target")
    assert phase(s) == "ask" and s.offer_informant.tolist() == [1, 0, 0]


def test_an_ally_informant_declining_ends_the_offer():
    s = new_state(3, additions=True)
    set_slots(s, [7, 0, 1, 2])
    s.slot_marked[0, 2] = 1
    s.edited()
    act(s, "offer a joint ambush at York Gate with 2 own", "mark traveller 1 as the target",
        "name +2 as the informant", "ask for 0 outlaws and 0 cards", "ask for 1 outlaws and 0 cards",
        "promise 0 bags of loot and pay 0 gold now", "promise 2 bags of loot and pay 0 gold now",
        "decline")
    assert phase(s) == "prep" and s.offer is None and not s.informant.any()
    check_totals(s)


@pytest.mark.parametrize("informant_gold, leader_gets", [(5, 3), (1, 2)])
def test_an_ally_informant_pays_the_shortfall_of_the_leaders_promise(informant_gold, leader_gets):
    # Card 7: strength 4, 2 fame, 1 gold. P1 (the informant, an ally) promised P0 3 bags.
    s = attack_setup(7, {"York Gate": {0: 2, 1: 2}}, additions=True,
                     gold={0: 0, 1: informant_gold, 2: 0})
    planned(s, "York Gate", 7, {0: 3}, informant=1)
    act(s, "lead traveller 1", "no provisions", "no provisions")
    paid = min(2, informant_gold)
    assert s.gold.tolist() == [leader_gets, informant_gold - paid, 0]
    check_totals(s)


# =========================================================================================
# Equipment promises: unmarked, a public number of cards, tested at the planned attack
# =========================================================================================
def test_an_equipment_promise_is_a_number_of_cards_kept_hidden_in_hand():
    s = new_state(3, additions=True)
    set_slots(s, [7, 0, 1, 2])
    set_player(s, 1, hand={"cudgel": 1, "sword": 1})
    act(s, "offer a joint ambush at York Gate with 2 own", "mark traveller 1 as the target",
        "ask for 2 outlaws and 2 cards", "promise 0 bags of loot and pay 0 gold now",
        "ask for 0 outlaws and 0 cards")
    assert legal_names(s) == {"accept", "decline"}     # no choice of cards: nothing is marked
    act(s, "accept")
    a = amb("York Gate")
    assert s.pledged[a].tolist() == [0, 2, 0] and not s.promised.any()
    assert s.hand[1].tolist()[:3] == [1, 0, 1] and int(s.hand_count[1]) == 2
    assert list(s.tokens) == [(a, -1)]                 # only the target's token pair
    check_totals(s)


def test_without_a_target_no_cards_are_promised_with_the_additions():
    s = new_state(3, additions=True)
    set_player(s, 1, hand={"cudgel": 1})
    act(s, "offer a joint ambush at York Gate with 2 own", "mark no target")
    assert not any(n.endswith("1 cards") for n in legal_names(s))


def pledge_setup(card: int, outlaws: dict, pledges: dict, hands: dict, target=None, **kw):
    s = attack_setup(card, {"York Gate": outlaws}, additions=True, hands=hands,
                     leads=(0, 1), more_cards=(0,), **kw)
    planned(s, "York Gate", card if target is None else target, {})
    for q, e in pledges.items():
        s.pledged[amb("York Gate"), q] = e
    s.edited()
    return s


def test_a_kept_promise_carries_the_planned_attack():
    # Card 7: strength 4, York -> Lincoln. 3 outlaws; P1 promised one card.
    s = pledge_setup(7, {0: 2, 1: 1}, {1: 1}, {1: {"bow": 1}})
    act(s, "lead traveller 1", "no messenger's clothes")
    assert (phase(s), s.current_player) == ("pledge", 1)
    assert legal_names(s) == {"play bow", "renounce the promised cards"}
    act(s, "play bow")
    assert phase(s) == "provisions" and s.fame.tolist() == [2, 2, 0]
    act(s, "no provisions", "no provisions")
    assert int(s.equip_discard[1]) == 1 and not s.pledged.any()
    check_totals(s)


def test_a_renounced_promise_calls_the_planned_attack_off_played_cards_are_discarded():
    # Card 9: strength 5, York -> Derby. 3 outlaws; P1 promised two cards.
    s = pledge_setup(9, {0: 1, 1: 2}, {1: 2}, {1: {"cudgel": 1, "bow": 1}})
    act(s, "lead traveller 1", "no messenger's clothes", "play cudgel")
    assert (phase(s), s.current_player) == ("pledge", 1)    # the promise is not yet applied in full
    act(s, "renounce the promised cards")
    # Called off: the cudgel is discarded, the traveller drives on (the window reopens).
    assert int(s.equip_discard[0]) == 1 and s.hand[1].tolist()[:3] == [0, 1, 0]
    assert phase(s) == "messenger"
    act(s, "no messenger's clothes")
    assert (phase(s), s.current_player) == ("lead", 1) and 9 in s.removed
    assert s.fame.tolist() == [0, 0, 0] and s.ambush_outlaws[amb("York Gate")].tolist() == [1, 2, 0]
    check_totals(s)


def test_after_every_promise_is_kept_hand_cards_may_still_reach_the_strength():
    # Card 9: strength 5. 3 outlaws + P1's promised cudgel = 4; P0 (leader) adds a bow.
    s = pledge_setup(9, {0: 2, 1: 1}, {1: 1}, {0: {"bow": 1}, 1: {"cudgel": 1}})
    act(s, "lead traveller 1", "no messenger's clothes", "no messenger's clothes")
    assert (phase(s), s.current_player) == ("pledge", 1)
    act(s, "play cudgel")
    assert (phase(s), s.current_player) == ("equip", 0)      # optional now, as at any ambush
    act(s, "play bow")
    assert phase(s) == "provisions" and s.fame.tolist() == [1, 1, 0]
    act(s, "no provisions", "no provisions")
    check_totals(s)


def test_outlaws_alone_strong_enough_need_no_promised_cards():
    s = pledge_setup(7, {0: 3, 1: 1}, {1: 1}, {1: {"bow": 1}})
    act(s, "lead traveller 1", "no messenger's clothes")
    assert phase(s) == "provisions" and s.hand[1, 1] == 1   # the bow stays in hand
    act(s, "no provisions", "no provisions")
    check_totals(s)


def test_promises_play_no_part_at_other_encounters():
    # The agreement targets card 0; card 9 (strength 5) passes: an ordinary encounter.
    s = pledge_setup(9, {0: 2, 1: 2}, {1: 1}, {1: {"bow": 1}}, target=0)
    act(s, "lead traveller 1", "no messenger's clothes")
    assert (phase(s), s.current_player) == ("equip", 1)
    assert "play no more cards" in legal_names(s)           # nothing binds P1 here
    act(s, "play no more cards")
    assert s.fame.tolist() == [0, 0, 0] and s.pledged[amb("York Gate"), 1] == 1
    check_totals(s)


def test_an_ally_with_a_promise_is_asked_whatever_his_hand():
    # Being asked reveals nothing: P1 holds no card at all and can only renounce.
    s = pledge_setup(7, {0: 2, 1: 1}, {1: 1}, {})
    act(s, "lead traveller 1")
    assert (phase(s), s.current_player) == ("pledge", 1)
    assert legal_names(s) == {"renounce the promised cards"}
    act(s, "renounce the promised cards")
    assert (phase(s), s.current_player) == ("lead", 1) and s.fame.tolist() == [0, 0, 0]
    check_totals(s)


# =========================================================================================
# Beating the Sheriff ends the ambush's agreement
# =========================================================================================
def test_after_beating_the_sheriff_provisioned_outlaws_attack_the_target_by_the_basic_rules():
    """'Successful attack [on the Sheriff]: ... the outlaws must return to the camps.'
    The agreement of the ambush ends with it: P0 stays with provisions, P1 (who promised a
    card and was promised 2 bags) goes home, and the old target (card 9, strength 5) later
    meets P0's 4 outlaws alone, an ordinary encounter (this raised IndexError when the
    agreement survived: the promise's ally was gone)."""
    s = attack_setup(SHERIFF_A6, {"York Gate": {0: 4, 1: 2}}, additions=True,
                     hands={0: {"provisions": 1, "cudgel": 1}}, gold={0: 0, 1: 0, 2: 0},
                     leads=(0, 1), more_cards=(9,))
    planned(s, "York Gate", 9, {1: 2})
    s.pledged[amb("York Gate"), 1] = 1
    s.edited()
    pit = int(s.pit[0])
    check_totals(s)
    act(s, "lead traveller 1", "no messenger's clothes")    # the Sheriff: 6 outlaws beat him
    assert s.fame.tolist() == [2, 2, 0]
    act(s, "provisions: stay in the ambush", "no provisions")
    a = amb("York Gate")
    assert s.ambush_outlaws[a].tolist() == [4, 0, 0]
    # The agreement ended: its bags went back to the pit, nothing is pledged or targeted.
    assert not s.targets and not s.pledged.any() and not s.advance.any()
    assert int(s.pit[0]) == pit + 2 and not s.ambush_target.any() and not s.informant.any()
    act(s, "lead traveller 2", "no messenger's clothes")
    # Strength 5 against 4 outlaws: an ordinary encounter, P0 may play his cudgel.
    assert (phase(s), s.current_player) == ("equip", 0)
    act(s, "play cudgel")
    # Card 9: 1 fame, 4 gold, all P0's (his outlaws alone are the ambush); nothing for P1.
    assert s.fame.tolist() == [3, 2, 0] and s.gold.tolist() == [4, 0, 0]
    act(s, "no provisions")
    check_totals(s)


def test_a_planned_attack_on_the_sheriff_keeps_the_agreement_the_informant_pays():
    # The Sheriff (no gold) is the target: "first the informant must fulfil the requirements
    # of the binding agreements" - the 2 bags laid out for P1 are collected, the Sheriff's
    # loot covering none: P0 pays 1 from his camp (all he has), 1 bag goes back to the pit.
    s = attack_setup(SHERIFF_A6, {"York Gate": {0: 4, 1: 2}}, additions=True,
                     gold={0: 1, 1: 0, 2: 0})
    planned(s, "York Gate", SHERIFF_A6, {1: 2})
    pit = int(s.pit[0])
    act(s, "lead traveller 1", "no provisions", "no provisions")
    assert s.fame.tolist() == [2, 2, 0] and s.gold.tolist() == [0, 1, 0]
    assert int(s.pit[0]) == pit + 1 + 1 and not s.advance.any() and not s.targets
    check_totals(s)


# =========================================================================================
# Shortage of loot: the informant chooses who leaves empty-handed
# =========================================================================================
def shortfall_setup(card: int, promised_bags: dict, promised_comrades=None, informant_gold=0):
    name = "York Gate" if CARDS[card].origin == YORK else "Derby Gate"
    s = attack_setup(card, {name: {0: 2, 1: 1, 2: 1}}, additions=True,
                     gold={0: informant_gold, 1: 0, 2: 0})
    planned(s, name, card, promised_bags, comrades=promised_comrades)
    return s


def test_the_informant_chooses_whose_promised_bags_go_unpaid():
    """'If he has no gold in his camp either, the allies may leave empty-handed': card 7
    carries 1 bag, the informant P0 has 1, P1 and P2 were promised 2 each; 2 of the 4 bags
    cannot be paid and P0 decides whose."""
    for picks, expected in ((("+1", "+1"), [0, 2]), (("+1", "+2"), [1, 1]), (("+2", "+2"), [2, 0])):
        s = shortfall_setup(7, {1: 2, 2: 2}, informant_gold=1)
        pit = int(s.pit[0])
        act(s, "lead traveller 1")
        assert (phase(s), s.current_player) == ("shortfall", 0)
        assert s.decision.data == (amb("York Gate"), 2, 0)
        # never himself (he was promised nothing), never a comrade while bags are short
        assert legal_names(s) == {"withhold a promised bag from +1", "withhold a promised bag from +2"}
        act(s, f"withhold a promised bag from {picks[0]}")
        assert phase(s) == "shortfall"               # one more bag short, both still owed
        act(s, f"withhold a promised bag from {picks[1]}")
        assert phase(s) == "provisions"
        assert s.gold.tolist() == [0, *expected]
        assert int(s.pit[0]) == pit + 1 + 2          # the informant's bag and the two withheld
        act(s, "no provisions", "no provisions", "no provisions")
        check_totals(s)


def test_a_promise_the_informant_cannot_cover_for_one_recipient_or_for_all_is_no_decision():
    # One recipient: he alone goes short (earlier tests). Every bag short: all go without.
    # Card 4 carries no gold and the informant has none: nothing of the 3 bags is paid.
    s = attack_setup(4, {"Derby Gate": {0: 2, 1: 1, 2: 1}}, additions=True, gold={0: 0, 1: 0, 2: 0})
    planned(s, "Derby Gate", 4, {1: 1, 2: 2})
    act(s, "lead traveller 1")
    assert phase(s) == "share"                       # the card's comrade, by the basic rules
    assert s.gold.tolist() == [0, 0, 0] and not s.advance.any()
    check_totals(s)


def test_the_informant_chooses_whose_promised_comrade_goes_back_under_the_oak():
    # Card 8 carries 1 comrade; P1 and P2 were each promised one (their own figures).
    for pick, q in (("+1", 1), ("+2", 2)):
        s = shortfall_setup(8, {}, {1: 1, 2: 1}, informant_gold=5)
        oak, camp = s.oak.tolist(), s.camp.tolist()
        act(s, "lead traveller 1")
        assert (phase(s), s.current_player) == ("shortfall", 0)
        assert s.decision.data == (amb("Derby Gate"), 0, 1)
        assert legal_names(s) == {"withhold a promised comrade from +1",
                                  "withhold a promised comrade from +2"}
        act(s, f"withhold a promised comrade from {pick}")
        other = 3 - q
        assert int(s.oak[q]) == oak[q] + 1 and int(s.camp[other]) == camp[other] + 1
        assert int(s.gold[0]) == 5                   # the informant cannot pay with outlaws
        while phase(s) in ("share", "comrade", "provisions"):
            act(s, sorted(legal_names(s))[0])
        check_totals(s)


def test_the_leader_says_in_what_order_the_allies_confirm_their_promises():
    """'If there are doubts, the leader says in what order the allies must confirm this
    agreement or renounce it.' Card 9 (strength 5): 4 outlaws and one card reach it, so the
    ally called first spends his card and the other keeps his."""
    for first, spent, kept in (("+1", 1, 2), ("+2", 2, 1)):
        s = pledge_setup(9, {0: 2, 1: 1, 2: 1}, {1: 1, 2: 1}, {1: {"cudgel": 1}, 2: {"cudgel": 1}})
        act(s, "lead traveller 1", "no messenger's clothes", "no messenger's clothes")
        assert (phase(s), s.current_player) == ("call", 0)
        assert legal_names(s) == {"call on +1 to keep his promise", "call on +2 to keep his promise"}
        act(s, f"call on {first} to keep his promise")
        assert (phase(s), s.current_player) == ("pledge", spent)
        act(s, "play cudgel")
        assert phase(s) == "provisions" and s.fame.tolist() == [1, 1, 1]
        assert int(s.hand[spent, 0]) == 0 and int(s.hand[kept, 0]) == 1
        act(s, "no provisions", "no provisions", "no provisions")
        check_totals(s)


def test_the_last_ally_to_confirm_is_called_without_a_decision():
    # Card 9 (strength 5) against 3 outlaws: both promised cudgels are needed.
    s = pledge_setup(9, {0: 1, 1: 1, 2: 1}, {1: 1, 2: 1}, {1: {"cudgel": 1}, 2: {"cudgel": 1}})
    act(s, "lead traveller 1", "no messenger's clothes", "no messenger's clothes",
        "call on +2 to keep his promise", "play cudgel")
    assert (phase(s), s.current_player) == ("pledge", 1)   # nobody else is left to call
    act(s, "play cudgel")
    assert phase(s) == "provisions" and s.fame.tolist() == [1, 1, 1]
    act(s, "no provisions", "no provisions", "no provisions")
    check_totals(s)


def test_a_player_cannot_lose_more_outlaws_than_he_had_in_the_crushed_ambush():
    # The B Sheriff takes 2 outlaws; P0 has one there and a band of 7: he loses just that one.
    s = attack_setup(SHERIFF_B12, {"Lincoln Gate": {0: 1}}, additions=True)
    s.oak[0], s.camp[0] = 1, 6
    s.edited()
    check_totals(s)
    act(s, "lead traveller 1", "no forest cloak")
    assert (int(s.oak[0]), int(s.camp[0])) == (2, 6)
    check_totals(s)
