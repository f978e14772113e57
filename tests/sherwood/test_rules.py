"""Sherwood Forest rules (basic game): setup, preparation actions, the joint-ambush
negotiation, attacks along routes, loot sharing (the rulebook's Anna/Boris/Vasily example),
round end, final scoring and tie-breaks, determinism and hidden information. Each test
asserts the values the rulebook (or rules/README.md) fixes."""

from __future__ import annotations

import json

import numpy as np
import pytest

from forest_envs.core.errors import IllegalActionError
from forest_envs.sherwood import observation
from forest_envs.sherwood.components import (
    AMBUSHES,
    BOW,
    CARDS,
    CUDGEL,
    DECK_CARDS,
    EXAMPLE_CARD,
    FORK_NE,
    GOLD_BAGS,
    INN,
    LAID_OUT,
    LINCOLN,
    MARKET,
    NUM_CARDS,
    NUM_EQUIPMENT,
    NUM_SHERIFFS,
    NUM_TRAVELLERS,
    RED_FORKS,
    ROUTES,
    SWORD,
    TOWNS,
    YORK,
    equipment_deck,
)
from forest_envs.sherwood.observation import MAX_OFFERS
from forest_envs.sherwood.rules import SherwoodGame, new_game

from .conftest import (
    act,
    amb,
    attack_setup,
    legal_names,
    new_state,
    obs_block,
    phase,
    play_random,
    set_ambush,
    set_player,
    set_slots,
    start_attacks,
)


def check_totals(state) -> None:
    assert (state.outlaw_totals() == 8).all(), state.outlaw_totals()
    assert state.gold_total() == GOLD_BAGS
    assert state.equipment_total() == 18
    assert state.traveller_total() == 55
    assert not state.game.layout.out_of_range(state.buf), state.game.layout.out_of_range(state.buf)


# =========================================================================================
# Components
# =========================================================================================
def test_box_counts():
    assert len(CARDS) == NUM_CARDS == NUM_TRAVELLERS + NUM_SHERIFFS == 55
    assert sum(1 for c in CARDS if c.sheriff) == NUM_SHERIFFS == 10
    assert sum(1 for c in CARDS if not c.sheriff and c.deck == "A") == 22
    assert sum(1 for c in CARDS if not c.sheriff and c.deck == "B") == 23
    assert {c.strength for c in CARDS if not c.sheriff} == set(range(1, 15))
    assert len(equipment_deck(additions=True)) == NUM_EQUIPMENT == 24
    assert len(equipment_deck(additions=False)) == 18


def test_each_decision_kind_has_its_named_index():
    """observation.Kind.<NAME> is the index of the decision kind ``name`` in DECISIONS, and
    there is one such name per kind."""
    kinds = {name: v for name, v in vars(observation.Kind).items() if name.isupper()}
    assert kinds == {k.name.upper(): i for i, k in enumerate(observation.DECISIONS)}


def test_the_rulebook_example_card_exists():
    c = CARDS[EXAMPLE_CARD]
    assert (c.strength, c.fame, c.gold, c.comrades) == (12, 1, 9, 1)


def test_every_traveller_is_worth_its_strength_plus_one():
    for c in CARDS:
        if not c.sheriff:
            assert c.loot_value == c.strength + 1


def test_routes_pass_eight_ambushes_and_turns_pass_a_fork_twice():
    assert len(ROUTES) == 12
    for (o, d), r in ROUTES.items():
        assert len(r) == 8
        assert r[0] == AMBUSHES.index(f"{TOWNS[o]} Gate")      # the town's gate strikes first
        assert r[-1] == AMBUSHES.index(f"{TOWNS[d]} Gate")
        straight = {o, d} in ({0, 2}, {1, 3})
        counts = {f: r.count(f) for f in RED_FORKS}
        assert sorted(counts.values()) == ([1, 1, 1, 1] if straight else [0, 1, 1, 2])
    york_lincoln = [AMBUSHES[a] for a in ROUTES[(YORK, LINCOLN)]]
    assert york_lincoln == ["York Gate", "York Wood", "North-West Fork", "North-East Fork",
                            "South-East Fork", "North-East Fork", "Lincoln Wood", "Lincoln Gate"]


def test_each_fork_covers_two_roads():
    for f in RED_FORKS:
        arms = {o for (o, _), r in ROUTES.items() if f in r[:4]}
        assert len(arms) == 2


# =========================================================================================
# Setup
# =========================================================================================
@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_setup(n):
    s = new_game({"num_players": n}, seed=7)
    laid = LAID_OUT[n]
    assert (s.camp == 4).all() and (s.oak == 4).all() and (s.gold == 2).all()
    assert (s.fame == 0).all()
    assert int(s.pit[0]) == GOLD_BAGS - 2 * n
    assert sum(1 for c in s.slots if c >= 0) == laid
    assert int(s.slot_face_up.sum()) == 1
    assert len(s.pile) == 2 * DECK_CARDS[n] - laid
    # A cards first (the first three rounds), then B; no sheriff in the basic game.
    cards = [c for c in s.slots if c >= 0] + s.pile
    assert [CARDS[c].deck for c in cards] == ["A"] * DECK_CARDS[n] + ["B"] * DECK_CARDS[n]
    assert not any(CARDS[c].sheriff for c in cards)
    assert sorted(s.equip_deck) == sorted(equipment_deck(False))
    assert int(s.figure.sum()) == 1 and s.card_holder_seat() == -1
    assert phase(s) == "prep" and s.current_player == s.figure_seat
    check_totals(s)


# =========================================================================================
# Preparation actions
# =========================================================================================
def test_church_turns_gold_into_fame():
    s = new_state()
    set_player(s, 0, gold=4)
    act(s, "church: donate 3 gold")
    assert (int(s.gold[0]), int(s.fame[0]), int(s.places[0, 0]), int(s.camp[0])) == (1, 3, 1, 3)
    assert s.gold_total() == GOLD_BAGS
    assert s.current_player == 1


def test_church_is_forced_above_five_gold():
    s = new_state()
    set_player(s, 0, gold=6)
    assert legal_names(s) == {f"church: donate {k} gold" for k in range(1, 7)}
    with pytest.raises(IllegalActionError, match="church is the only action"):
        act(s, "inn: look at traveller 1")
    set_player(s, 0, gold=5)
    assert "inn: look at traveller 1" in legal_names(s)


def test_inn_peek_is_private_and_marked():
    s = new_state()
    set_slots(s, [0, 1, 2, 3], face_up=(0,))
    act(s, "inn: look at traveller 3")
    assert int(s.places[0, INN]) == 1
    assert obs_block(s, 0, "peek")[2, 0] == CARDS[2].strength
    assert not obs_block(s, 1, "peek").any()
    assert s.view(0)["slots"][2]["card"]["id"] == 2
    assert "card" not in s.view(1)["slots"][2]
    assert s.view(1)["slots"][2]["marked_by"] == [0]


def test_merchant_costs_one_gold_and_respects_the_hand_limit():
    s = new_state()
    act(s, "merchant: buy equipment")
    assert int(s.gold[0]) == 1 and int(s.hand_count[0]) == 1 and int(s.pit[0]) == GOLD_BAGS - 5
    s2 = new_state()
    set_player(s2, 0, hand={"cudgel": 3})
    assert "merchant: buy equipment" not in legal_names(s2)


def test_market_recruits_from_the_oak_for_the_next_round():
    s = new_state()
    act(s, "market: recruit an outlaw")
    assert (int(s.places[0, MARKET]), int(s.oak[0]), int(s.camp[0]), int(s.gold[0])) == (2, 3, 3, 0)
    check_totals(s)
    s2 = new_state()
    set_player(s2, 0, gold=2, oak=0, camp=8)
    assert "market: recruit an outlaw" not in legal_names(s2)


def test_simple_ambush_needs_an_unoccupied_ambush():
    s = new_state()
    act(s, "ambush at York Gate with 3")
    assert int(s.ambush_outlaws[amb("York Gate"), 0]) == 3 and s.ambush_leader[amb("York Gate"), 0]
    assert not any(n.startswith("ambush at York Gate") for n in legal_names(s))
    assert "ambush at York Wood with 4" in legal_names(s)


def test_first_to_empty_gains_fame_second_takes_the_card():
    s = new_state()
    act(s, "ambush at York Gate with 4")        # P0 empties first
    assert int(s.fame[0]) == 1 and int(s.emptied[0]) == 1
    act(s, "ambush at York Wood with 4")        # P1 second
    assert s.card_holder_seat() == 1 and int(s.fame[1]) == 0
    assert s.current_player == 2                 # empty camps are skipped
    act(s, "ambush at Derby Gate with 2")
    assert s.current_player == 2


def test_preparation_ends_when_every_camp_is_empty_and_the_card_holder_leads():
    s = new_state()
    act(s, "ambush at York Gate with 4", "ambush at York Wood with 4", "ambush at Derby Gate with 4")
    assert phase(s) == "lead" and s.current_player == 1
    assert s.leads == [1, 2, 0, 1]               # 3 players, 4 travellers: the holder leads two


# =========================================================================================
# Joint ambush negotiation
# =========================================================================================
def test_joint_ambush_forms_when_every_ally_accepts():
    s = new_state()
    set_player(s, 1, hand={"bow": 1, "sword": 1})
    act(s, "offer a joint ambush at North-East Fork with 2 own")
    assert phase(s) == "ask" and s.view(None)["decision"]["data"]["ally"] == 1
    act(s, "ask for 2 outlaws and 1 cards")
    assert s.view(None)["decision"]["data"]["ally"] == 2
    act(s, "ask for 0 outlaws and 0 cards")
    assert phase(s) == "answer" and s.current_player == 1 and s.turn_player == 0
    assert legal_names(s) == {"decline", "accept promising 1 bow", "accept promising 1 sword"}
    act(s, "accept promising 1 sword")
    a = FORK_NE
    assert s.ambush_outlaws[a].tolist() == [2, 2, 0] and s.ambush_leader[a, 0] == 1
    assert s.promised[a, 1].tolist() == [0, 0, 1] and s.hand[1].tolist()[:3] == [0, 1, 0]
    assert s.tokens == {(a, 1): 0}
    assert (phase(s), s.current_player) == ("confirm", 0)   # the card is shown: may give up
    act(s, "form the joint ambush")
    assert s.current_player == 1 and phase(s) == "prep"
    check_totals(s)


def test_a_decline_returns_the_performer_to_his_turn_and_offers_are_bounded():
    s = new_state()
    for i in range(MAX_OFFERS):
        act(s, "offer a joint ambush at York Gate with 1 own", "ask for 1 outlaws and 0 cards",
            "ask for 0 outlaws and 0 cards", "decline")
        assert phase(s) == "prep" and s.current_player == 0
        assert s.decision.data == (i + 1,)
        assert int(s.camp[0]) == 4 and not s.ambush_outlaws.any()
    assert not any(n.startswith("offer a joint") for n in legal_names(s))
    act(s, "ambush at York Gate with 1")
    assert s.current_player == 1


def test_the_cap_on_failed_offers_counts_given_up_offers_and_holds_for_one_turn():
    """The rulebook sets no limit ("the performer may give up this action and take another
    step"); the engine's reading (docs/sherwood.md, item 7): at most MAX_OFFERS failed joint
    offers in one turn, a declined offer and one the performer gave up alike, so that no
    performer can offer for ever. The count starts afresh at his next turn."""
    assert MAX_OFFERS == 3
    s = new_state()
    set_player(s, 1, hand={"cudgel": 1})
    act(s, "offer a joint ambush at York Gate with 1 own", "ask for 1 outlaws and 1 cards",
        "ask for 0 outlaws and 0 cards", "accept promising 1 cudgel", "give up the joint ambush")
    assert (phase(s), s.current_player, s.decision.data) == ("prep", 0, (1,))
    for i in (2, 3):
        act(s, "offer a joint ambush at York Gate with 1 own", "ask for 0 outlaws and 0 cards",
            "ask for 1 outlaws and 0 cards", "decline")
        assert (phase(s), s.current_player, s.decision.data) == ("prep", 0, (i,))
    assert int(obs_block(s, 0, "decision_data")[0]) == 3          # what every seat sees
    names = legal_names(s)
    assert not any(n.startswith("offer a joint") for n in names)
    assert "ambush at York Gate with 1" in names                  # every other action stays
    with pytest.raises(IllegalActionError, match="3 failed joint offers this turn"):
        act(s, "offer a joint ambush at York Gate with 1 own")
    act(s, "ambush at York Gate with 1", "ambush at York Wood with 1", "ambush at Derby Gate with 1")
    assert (phase(s), s.current_player, s.decision.data) == ("prep", 0, (0,))
    assert "offer a joint ambush at Derby Wood with 1 own" in legal_names(s)


def test_somebody_must_be_asked_and_asks_are_bounded_by_camps():
    s = new_state()
    set_player(s, 2, camp=2, oak=6)
    act(s, "offer a joint ambush at York Gate with 1 own", "ask for 0 outlaws and 0 cards")
    names = legal_names(s)
    assert "ask for 0 outlaws and 0 cards" not in names
    assert "ask for 2 outlaws and 0 cards" in names and "ask for 3 outlaws and 0 cards" not in names
    assert "ask for 1 outlaws and 1 cards" not in names      # P2 holds no card


def test_performer_may_tell_the_loot_of_a_peeked_traveller():
    s = new_state()
    set_slots(s, [0, 1, 2, EXAMPLE_CARD], face_up=(0,))
    act(s, "inn: look at traveller 4", "ambush at Derby Gate with 1", "ambush at Derby Wood with 1")
    act(s, "offer a joint ambush at York Gate with 1 own", "ask for 1 outlaws and 0 cards",
        "ask for 1 outlaws and 0 cards")
    assert phase(s) == "reveal"
    assert legal_names(s) == {"tell the loot of traveller 4", "tell nothing"}
    act(s, "tell the loot of traveller 4")
    # Only fame and loot are told (1 fame, 9 gold, 1 comrade), never the strength.
    assert s.slot_told[3].tolist() == [1, 1, 9, 1]
    assert s.view(2)["slots"][3]["told"] == {"fame": 1, "gold": 9, "comrades": 1}
    assert "card" not in s.view(2)["slots"][3]
    act(s, "accept", "accept")
    assert s.ambush_outlaws[amb("York Gate")].tolist() == [1, 1, 1]


def test_allies_emptying_at_once_rank_before_the_performer():
    s = new_state()
    act(s, "offer a joint ambush at York Gate with 4 own", "ask for 4 outlaws and 0 cards",
        "ask for 0 outlaws and 0 cards", "accept")
    assert int(s.emptied[1]) == 1 and int(s.fame[1]) == 1      # the ally acted on another's turn
    assert int(s.emptied[0]) == 2 and s.card_holder_seat() == 0


# =========================================================================================
# Attacks
# =========================================================================================
def test_strong_enough_ambush_must_attack():
    # Card 7: strength 4, 2 fame, 1 gold, York -> Lincoln. York Gate strikes first.
    s = attack_setup(7, {"York Gate": {0: 4}, "York Wood": {1: 4}})
    act(s, "lead traveller 1")
    assert int(s.fame[0]) == 2 and int(s.fame[1]) == 0
    assert int(s.gold[0]) == 3 and not s.ambush_outlaws[amb("York Gate")].any()
    assert int(s.camp[0]) == 4 and 7 in s.removed
    check_totals(s)


def test_weak_ambush_lets_the_traveller_pass_and_a_finished_route_removes_the_card():
    s = attack_setup(7, {"York Gate": {0: 3}})
    s.leads = [0, 1]
    set_slots(s, [7, 0])
    act(s, "lead traveller 1")
    assert int(s.fame[0]) == 0 and 7 in s.removed
    assert s.ambush_outlaws[amb("York Gate")].tolist() == [3, 0, 0]    # they wait for the next coach
    assert phase(s) == "lead" and s.current_player == 1


def test_a_fork_passed_twice_can_attack_on_the_second_pass():
    # York -> Lincoln passes the North-East Fork at steps 4 and 6.
    s = attack_setup(7, {"North-East Fork": {0: 3}}, hands={0: {"cudgel": 1}})
    act(s, "lead traveller 1")
    assert phase(s) == "equip" and s.coach.step == 3
    act(s, "play no more cards")
    assert phase(s) == "equip" and s.coach.step == 5
    act(s, "play cudgel")
    assert int(s.fame[0]) == 2 and int(s.equip_discard[CUDGEL]) == 1
    check_totals(s)


def test_cards_played_in_a_failed_attempt_are_used_up():
    # Strength 6; 2 outlaws may play 2 cards: 2 + 2 x 3 could reach it, two cudgels do not.
    s = attack_setup(12, {"Lincoln Gate": {0: 2}}, hands={0: {"cudgel": 2}})
    act(s, "lead traveller 1")
    assert phase(s) == "equip"
    act(s, "play cudgel")
    assert phase(s) == "equip" and s.decision.data[2] == 3
    act(s, "play cudgel")
    assert int(s.equip_discard[CUDGEL]) == 2 and int(s.hand_count[0]) == 0
    # No attack: the traveller drove on to Derby and left the game; the round is over.
    assert int(s.fame[0]) == 0 and 12 in s.removed and s.round_index == 2
    check_totals(s)


def test_nobody_is_asked_when_public_numbers_cannot_reach():
    s = attack_setup(12, {"Lincoln Gate": {0: 1}}, hands={0: {"sword": 1}})   # 1 + 3 < 6
    act(s, "lead traveller 1")
    assert 12 in s.removed and s.round_index == 2 and int(s.fame[0]) == 0
    assert int(s.hand[0, SWORD]) == 1


def test_needed_promised_cards_are_played_and_discarded():
    # Card 9: strength 5, 1 fame, 4 gold, York -> Derby. 2 + 1 outlaws + a promised sword.
    s = attack_setup(9, {"York Gate": {0: 2, 1: 1}}, promised={"York Gate": {1: {"sword": 1}}})
    act(s, "lead traveller 1")
    assert int(s.equip_discard[SWORD]) == 1 and int(s.hand[1, SWORD]) == 0
    assert int(s.fame[0]) == 1 and int(s.fame[1]) == 1
    # 4 shares for 3 outlaws: one each, the leader keeps the rest.
    assert (int(s.gold[0]), int(s.gold[1])) == (2 + 3, 2 + 1)
    assert s.tokens == {}
    check_totals(s)


def test_unneeded_promised_cards_return_to_hand():
    s = attack_setup(9, {"York Gate": {0: 4, 1: 1}}, promised={"York Gate": {1: {"bow": 1}}})
    act(s, "lead traveller 1")
    assert int(s.hand[1, BOW]) == 1 and int(s.equip_discard.sum()) == 0
    assert s.tokens == {}
    check_totals(s)


def test_the_rulebook_loot_example_anna_boris_vasily():
    """Anna leads with 5 outlaws, Boris brings 1, Vasily 6; the loot is 9 gold and a
    comrade. Boris gets one bag, Anna takes the comrade, Anna and Vasily three bags more
    each, and Anna chooses who takes the last bag."""
    for last in ("self", "+2"):
        s = attack_setup(EXAMPLE_CARD, {"Derby Gate": {0: 5, 1: 1, 2: 6}}, gold={0: 0, 1: 0, 2: 0})
        check_totals(s)
        oak = s.oak.tolist()
        act(s, "lead traveller 1")
        assert s.fame.tolist() == [1, 1, 1]
        assert phase(s) == "share" and s.current_player == 0
        assert legal_names(s) == {"give a share to self", "give a share to +2"}
        act(s, f"give a share to {last}")
        assert phase(s) == "comrade"
        assert legal_names(s) == {"give a comrade to self", "give a comrade to +1",
                                  "give a comrade to +2"}
        act(s, "give a comrade to self")
        anna_gold = 4 if last == "self" else 3
        assert s.gold.tolist() == [anna_gold, 1, 8 - anna_gold]
        assert s.oak.tolist() == [oak[0] - 1, oak[1], oak[2]]
        assert s.camp.tolist()[0] == 5 + 1           # home with the new comrade
        assert s.shares.tolist() == [[anna_gold + 1, 1], [1, 0], [8 - anna_gold, 0]]
        check_totals(s)


def test_first_round_allies_come_first():
    # 2 gold shares, leader and two allies with 2 outlaws each: both allies, not the leader.
    # Card 3: strength 3, 1 fame, 2 gold, York -> Nottingham.
    s = attack_setup(3, {"York Gate": {0: 1, 1: 1, 2: 1}}, gold={0: 0, 1: 0, 2: 0})
    act(s, "lead traveller 1")
    assert s.gold.tolist() == [0, 1, 1]


def test_leader_chooses_among_allies_when_shares_are_short():
    # Card 1: strength 2, 1 fame, 1 gold; one bag for two allies.
    s = attack_setup(1, {"Nottingham Gate": {0: 1, 1: 1, 2: 1}}, gold={0: 0, 1: 0, 2: 0})
    act(s, "lead traveller 1")
    assert legal_names(s) == {"give a share to +1", "give a share to +2"}
    act(s, "give a share to +2")
    assert s.gold.tolist() == [0, 0, 1]


def test_comrades_only_to_players_with_figures_under_the_oak():
    # Card 4: strength 3, 1 fame, no gold, 1 comrade, Derby -> York.
    s = attack_setup(4, {"Derby Gate": {0: 2, 1: 1}})
    set_player(s, 0, oak=0, camp=6)
    act(s, "lead traveller 1")
    assert int(s.oak[1]) == 3 and int(s.camp[1]) == 5     # the ally took it (no choice)
    s2 = attack_setup(4, {"Derby Gate": {0: 3}})
    set_player(s2, 0, oak=0, camp=5)
    act(s2, "lead traveller 1")
    assert int(s2.oak[0]) == 0 and int(s2.fame[0]) == 1   # nobody can take it: it stays


def test_the_pit_limits_the_gold():
    s = attack_setup(9, {"York Gate": {0: 5}})
    s.gold[1] = 2 + int(s.pit[0]) - 1
    s.pit[0] = 1
    act(s, "lead traveller 1")
    assert int(s.gold[0]) == 3 and int(s.pit[0]) == 0
    check_totals(s)


# =========================================================================================
# Round end, game end
# =========================================================================================
def test_round_end_everyone_home_new_travellers_and_the_poorest_takes_the_figure():
    s = new_state(4)
    set_slots(s, [0])
    set_ambush(s, "York Gate", {1: 2})
    set_player(s, 1, camp=2)
    s.places[2, MARKET] = 2
    set_player(s, 2, camp=2, oak=4)
    set_player(s, 0, gold=0)
    set_player(s, 1, gold=3)
    set_player(s, 2, gold=1)
    set_player(s, 3, gold=1)
    start_attacks(s, [0])
    act(s, "lead traveller 1")         # Lincoln -> Derby: nobody in its way
    assert s.round_index == 2 and phase(s) == "prep"
    assert s.camp.tolist() == [4, 4, 4, 4] and not s.places.any() and not s.ambush_outlaws.any()
    # The figure holder (P0, poorest) is excluded; P2 and P3 tie: clockwise from P0, P2.
    assert s.figure_seat == 2 and s.current_player == 2
    assert sum(1 for c in s.slots if c >= 0) == LAID_OUT[4]


def test_sixth_round_loot_becomes_fame():
    # Card 8: strength 4, 1 fame, 1 gold, 1 comrade, Derby -> Nottingham.
    s = attack_setup(8, {"Derby Gate": {0: 4}}, gold={0: 0})
    s.round_index = 6
    s.round_no[0] = 6
    act(s, "lead traveller 1")
    assert s.is_terminal
    # 1 fame for the attack + 1 for the bag + 2 for the comrade; the bag leaves the camp.
    assert int(s.fame[0]) == 4 and int(s.gold[0]) == 0 and int(s.oak[0]) == 3
    check_totals(s)


def test_ranks_break_ties_by_fewer_oak_outlaws_then_more_gold():
    s = new_state(3)
    for p, (fame, oak, gold) in enumerate([(10, 2, 1), (10, 1, 0), (10, 1, 3)]):
        set_player(s, p, fame=fame, oak=oak, gold=gold)
    assert s.ranks() == [3, 2, 1]
    set_player(s, 0, fame=31)          # fame beyond 30 keeps counting
    assert s.ranks() == [1, 3, 2] and s.scores()[0]["total"] == 31


# =========================================================================================
# Whole games: determinism, conservation, hidden information
# =========================================================================================
@pytest.mark.whole_games
@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_random_games_keep_every_piece(n):
    for seed in range(6):
        s = new_game({"num_players": n}, seed)
        play_random(s, np.random.default_rng(seed), check=check_totals)
        assert s.round_index == 6 and s.ranks().count(1) >= 1


def test_same_seed_and_actions_give_the_same_game_and_json_round_trips():
    a, b = new_game({"num_players": 4}, 3), new_game({"num_players": 4}, 3)
    rng = np.random.default_rng(1)
    for _ in range(150):
        if a.is_terminal:
            break
        action = int(rng.choice(a.legal_actions()))
        a.apply(action)
        b.apply(action)
        assert a.to_dict() == b.to_dict()
        again = a.game.state_from_dict(json.loads(json.dumps(a.to_dict())))
        assert again.to_dict() == a.to_dict()


@pytest.mark.parametrize("additions", [False, True])
def test_resampled_hidden_information_looks_the_same_to_the_seat(additions):
    s = new_game({"num_players": 4, "additions": additions}, 5)
    rng = np.random.default_rng(0)
    for _ in range(40):
        s.apply(int(rng.choice(s.legal_actions())))
    for seat in range(4):
        r = s.resample_hidden(seat, np.random.default_rng(seat))
        np.testing.assert_array_equal(r.observation(seat), s.observation(seat))
        assert r.render(seat) == s.render(seat)
        assert r.view(seat) == s.view(seat)
        assert (r.outlaw_totals() == 8).all() and r.gold_total() == GOLD_BAGS
        assert r.traveller_total() == 55


def test_illegal_actions_are_refused_with_a_reason():
    s = new_state()
    with pytest.raises(IllegalActionError, match="lead traveller 1"):
        act(s, "lead traveller 1")
    with pytest.raises(ValueError):
        SherwoodGame(num_players=7)


def test_others_read_an_acceptance_without_its_cards():
    s = new_state()
    set_player(s, 1, hand={"bow": 1})
    act(s, "offer a joint ambush at York Gate with 1 own", "ask for 1 outlaws and 1 cards",
        "ask for 1 outlaws and 0 cards")
    a = s.game.string_to_action("accept promising 1 bow")
    assert s.describe_action(a, 1) == "accept promising 1 bow"
    assert s.describe_action(a, 0) == "accept" and s.describe_action(a, 2) == "accept"


@pytest.mark.parametrize("n, leads", [(3, [1, 2, 0, 1]), (4, [1, 2, 3, 0, 1]), (5, [1, 2, 3, 4, 0, 1]),
                                      (6, [1, 2, 3, 4, 5, 0])])
def test_the_card_holder_leads_first_and_twice_with_fewer_than_six(n, leads):
    s = new_state(n)
    act(s, "ambush at York Gate with 4", "ambush at York Wood with 4")   # P1 takes the card
    names = iter(["Derby Gate", "Derby Wood", "Lincoln Gate", "Lincoln Wood"])
    while phase(s) == "prep":
        act(s, f"ambush at {next(names)} with 4")
    assert s.leads == leads and phase(s) == "lead" and s.current_player == 1


def test_an_empty_equipment_deck_is_reshuffled_from_the_discards():
    s = new_state()
    s.equip_discard[SWORD] = len(s.equip_deck)
    s.equip_deck = []
    s.equip_left[0] = 0
    s.edited()
    act(s, "merchant: buy equipment")
    assert s.hand[0, SWORD] == 1 and len(s.equip_deck) == 17 and not s.equip_discard.any()
    check_totals(s)


def test_returned_promised_cards_may_exceed_the_hand_limit():
    s = attack_setup(9, {"York Gate": {0: 4, 1: 1}}, promised={"York Gate": {1: {"bow": 1}}},
                     hands={1: {"cudgel": 3}})
    act(s, "lead traveller 1")
    assert int(s.hand_count[1]) == 4 and int(s.hand[1, BOW]) == 1
    check_totals(s)


def test_card_asks_need_a_free_alliance_token_pair():
    s = new_state()
    set_player(s, 1, hand={"bow": 1})
    for a in range(6):
        s.tokens = {**s.tokens, (a, 2): a}          # all six pairs in use
    s.edited()
    act(s, "offer a joint ambush at York Gate with 1 own")
    assert "ask for 1 outlaws and 1 cards" not in legal_names(s)
    assert "ask for 1 outlaws and 0 cards" in legal_names(s)


def test_the_performer_may_give_up_once_the_promised_cards_are_shown():
    """'If an ally has promised to send an outlaw with equipment, he now reveals and places
    the equipment card ... If the allies' forces are insufficient, the performer may give up
    this action and take another step.'"""
    for choice in ("form the joint ambush", "give up the joint ambush"):
        s = new_state()
        set_player(s, 1, hand={"cudgel": 1, "sword": 1})
        act(s, "offer a joint ambush at York Gate with 2 own", "ask for 2 outlaws and 1 cards",
            "ask for 0 outlaws and 0 cards", "accept promising 1 cudgel")
        a = amb("York Gate")
        assert (phase(s), s.current_player) == ("confirm", 0)
        assert legal_names(s) == {"form the joint ambush", "give up the joint ambush"}
        assert s.promised[a, 1].tolist() == [1, 0, 0]          # shown to everybody now
        assert s.ambush_outlaws[a].tolist() == [2, 2, 0]
        act(s, choice)
        if choice == "form the joint ambush":
            assert phase(s) == "prep" and s.current_player == 1
            assert s.tokens == {(a, 1): 0} and int(s.hand_count[1]) == 1
        else:
            assert (phase(s), s.current_player, s.decision.data) == ("prep", 0, (1,))
            assert not s.ambush_outlaws.any() and not s.promised.any() and s.tokens == {}
            assert s.camp.tolist() == [4, 4, 4] and s.hand[1].tolist()[:3] == [1, 0, 1]
            assert int(s.hand_count[1]) == 2
        check_totals(s)


def test_without_promised_cards_there_is_nothing_new_to_give_up_on():
    s = new_state()
    act(s, "offer a joint ambush at York Gate with 2 own", "ask for 2 outlaws and 0 cards",
        "ask for 0 outlaws and 0 cards", "accept")
    assert phase(s) == "prep" and s.current_player == 1       # formed at once


# =========================================================================================
# Sentences of the rules trace (docs/sherwood.md, "Rules trace") without a test before
# =========================================================================================
def test_one_card_per_outlaw_at_the_attack_and_in_an_ask():
    """'No more than one such card may be played on one outlaw'; 'one card per outlaw, no
    more!'. Card 3 (strength 3) against one outlaw holding two cudgels: 1 + 1 falls short
    and the second cudgel cannot be played."""
    s = attack_setup(3, {"York Gate": {0: 1}}, hands={0: {"cudgel": 2}})
    act(s, "lead traveller 1")
    assert phase(s) == "equip"
    act(s, "play cudgel")
    assert phase(s) != "equip" and int(s.fame[0]) == 0 and int(s.hand[0, CUDGEL]) == 1
    check_totals(s)
    s = new_state()
    set_player(s, 1, hand={"cudgel": 2})
    act(s, "offer a joint ambush at York Gate with 1 own")
    names = legal_names(s)
    assert "ask for 1 outlaws and 1 cards" in names and "ask for 1 outlaws and 2 cards" not in names


def test_any_laid_out_traveller_may_be_led_never_one_from_the_pile():
    """'Choose one of the traveller cards laid out by the board -- either face down or face
    up. You cannot take a card from the deck!'"""
    s = attack_setup(7, {"York Gate": {0: 1}}, more_cards=(0, 1))
    assert s.slot_face_up.tolist()[:3] == [1, 0, 0] and s.pile
    assert legal_names(s) == {"lead traveller 1", "lead traveller 2", "lead traveller 3"}


def test_preparation_steps_are_the_same_with_the_additions():
    """'Steps one through four are carried out by the basic rules. Only the attacks are done
    differently.' The same table gives the same preparation actions with the additions."""
    names = []
    for additions in (False, True):
        s = new_state(3, additions=additions)
        set_slots(s, [7, 0, 1, 2])
        set_player(s, 0, gold=3, hand={"cudgel": 1})
        names.append(legal_names(s))
    assert names[0] == names[1]
    assert {"merchant: buy equipment", "market: recruit an outlaw", "inn: look at traveller 4",
            "church: donate 3 gold"} <= names[0]
