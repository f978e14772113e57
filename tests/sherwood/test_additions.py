"""Sherwood Forest additions: setup, the Sheriff, the forest cloak, provisions, the
messenger's clothes (an interrupt window) and the fork bonus outlaw. Values asserted are
those the rulebook (or rules/README.md) fixes."""

from __future__ import annotations

import pytest

from forest_envs.sherwood.components import (
    CARDS,
    DECK_CARDS,
    EQUIPMENT_COUNTS,
    FOREST_CLOAK,
    GOLD_BAGS,
    MESSENGER,
    PROVISIONS,
    equipment_deck,
)
from forest_envs.sherwood.rules import new_game

from .conftest import act, amb, attack_setup, legal_names, new_state, phase, set_slots


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
    assert phase(s) == "answer" and s.offer_terms[1].tolist() == [3, 1]
    act(s, "accept")
    a = amb("York Gate")
    assert s.gold.tolist() == [1, 3, 2] and int(s.pit[0]) == pit - 3
    assert s.advance[a].tolist() == [0, 3, 0] and s.informant[a].tolist() == [1, 0, 0]
    assert s.ambush_target[a, 0] == 1 and s.targets == {a: 7} and (a, -1) in s.tokens
    check_totals(s)


def planned(s, name: str, card: int, advance: dict[int, int], informant: int = 0) -> None:
    a = amb(name)
    for q, g in advance.items():
        s.advance[a, q] = g
        s.pit[0] -= g
    s.targets[a] = card
    s.tokens[(a, -1)] = 5
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
