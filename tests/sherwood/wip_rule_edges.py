"""Sherwood Forest rule edges the mutation check (tools/mutate.py, docs/testing.md) found
untested: each test pins one rule sentence (or reading) at a boundary that a deliberate bug
slipped past. Positions are built with the conftest helpers; every test asserts values."""

from __future__ import annotations

import pytest

from forest_envs.sherwood.components import CARDS, DERBY, EXAMPLE_CARD, ROUTES, TOWNS, YORK
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
            s.tokens[(a + 6, 0)] = a          # five pairs in use elsewhere
        s.edited()
        act(s, "offer a joint ambush at York Gate with 1 own", first)
        assert phase(s) == "ask" and s.view(None)["decision"]["data"]["ally"] == 2
        assert ("ask for 1 outlaws and 1 cards" in legal_names(s)) == second_may_promise
        assert "ask for 1 outlaws and 0 cards" in legal_names(s)


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
