"""Chickwood Forest rule sentences that no other test pinned down on its own, one test per
sentence (docs/chickwood.md, "Rules trace", names the sentence each test is built from).
Each test asserts the legal moves, including the ones the sentence forbids, and the result.
"""

from __future__ import annotations

import itertools

import pytest

from forest_envs.chickwood.components import (
    BENEFACTOR0,
    BENEFACTOR_ALMS,
    CHEST0,
    GARMENT0,
    JEWEL0,
    KIND_NAMES,
    NUM_KINDS,
    castle_values,
)
from forest_envs.chickwood.observation import Kind
from forest_envs.chickwood.rules import scoring as S
from forest_envs.chickwood.rules.raiding import BENEFACTOR_VALUE
from forest_envs.core.errors import IllegalActionError

from .conftest import (
    F,
    act,
    cell,
    clear_castles,
    kind,
    legal_names,
    new_state,
    phase,
    place_alms,
    scout_all,
    set_castle_cards,
    set_grid,
    set_hands,
)
from .test_rules import end_position, key_position, raid_out, scout_position


# --- Sequence of Play: 1. Scout the Castles ----------------------------------------------
def test_scout_offers_every_held_card_at_every_open_castle():
    # "On your turn, play one card from your hand in front of any castle."
    s = scout_position((1, 2, 3))                  # 3 players: castles 1-4, P0 first
    set_hands(s, {0: {"gold chest": 2, "violet ring": 1}, 1: {"silver chest": 3},
                  2: {"ruby chest": 3}})
    assert legal_names(s) == {f"play {card} to castle {c}"
                              for card in ("gold chest", "violet ring") for c in (1, 2, 3, 4)}
    with pytest.raises(IllegalActionError, match="not in the player's hand"):
        act(s, "play silver chest to castle 4")
    act(s, "play violet ring to castle 2")
    # one card per turn: the next player in turn order plays, P0 keeps his two chests
    assert s.current_player == 1 and s.hand[0, kind("gold chest")] == 2
    assert s.hand[0, kind("violet ring")] == 0 and s.castle_cards[1] == 1


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_castles_not_in_the_game_are_never_offered(n):
    # "Return any unused castle cards to the box": with n players only castles 1..n+1
    # (1-3 with two players) can take cards or be raided.
    values = castle_values(n)
    assert values == ((1, 2, 3) if n == 2 else tuple(range(1, n + 2)))
    s = new_state(n, seed=n)
    held = [KIND_NAMES[k] for k in range(NUM_KINDS) if s.hand[s.current_player, k]]
    assert legal_names(s) == {f"play {card} to castle {v}" for card in held for v in values}
    for v in range(len(values) + 1, 7):
        with pytest.raises(IllegalActionError, match=f"castle {v} is not in this game"):
            act(s, f"play {held[0]} to castle {v}")
    scout_all(s)
    assert phase(s) == "raid"
    assert legal_names(s) == {f"raid castle {v}" for v in values}
    for v in range(len(values) + 1, 7):
        with pytest.raises(IllegalActionError, match=f"castle {v} is not in this game"):
            act(s, f"raid castle {v}")


# --- Sequence of Play: 3. Give Alms ---------------------------------------------------------
# Forests in the bottom corners; every other cell a village (r2c2 in the middle).
OPEN_GRID = ["Ashford", "Bramblewick", "Cinderholt",
             "Dunmere", "Elderbrook", "Foxmoor",
             F, "Greywater", F]


def snake_position(benefactors: dict[str, int], grid=OPEN_GRID):
    """3 players, raid phase: the first raider finds ``benefactors`` before castle 1."""
    s = new_state(3, seed=0)
    scout_all(s)
    clear_castles(s)
    set_grid(s, grid)
    set_castle_cards(s, 1, face_up=benefactors)
    return s, s.current_player


@pytest.mark.parametrize("cards, alms", [
    ({"benefactor 1": 1}, 1), ({"benefactor 2": 1}, 2), ({"benefactor 3": 1}, 3),
    ({"benefactor 1": 2, "benefactor 3": 1}, 5), ({"benefactor 2": 2, "benefactor 3": 2}, 10)])
def test_each_benefactor_gives_its_alms(cards, alms):
    # "Benefit cards can count as one, two or even three alms." "Add up all the alms shown
    # on your newly captured benefit cards. You place this many of your alms cubes".
    assert [BENEFACTOR_ALMS[k] for k in range(BENEFACTOR0, BENEFACTOR0 + 3)] == [1, 2, 3]
    assert BENEFACTOR_VALUE.tolist() == [1, 2, 3]   # raiding.py's table, built from it
    s, p = snake_position(cards)
    act(s, "raid castle 1")
    assert s.decision.kind == Kind.ALMS and s.current_player == p
    assert s.decision.data == (alms, 9)              # this many to place, no village yet


def test_snake_never_branches_and_never_goes_diagonally():
    # "an unbroken 'snaking' line, never branching off"; "Each subsequent village ... must
    # be vertically or horizontally adjacent" (German: "an das vorige", to the previous one);
    # "you can't 'snake' diagonally".
    s, p = snake_position({"benefactor 3": 1})
    act(s, "raid castle 1")
    act(s, "alms r2c2")
    # the four orthogonal neighbours of the middle village, no diagonal corner
    assert legal_names(s) == {"alms r1c2", "alms r2c1", "alms r2c3", "alms r3c2"}
    for diagonal in ("alms r1c1", "alms r1c3"):
        with pytest.raises(IllegalActionError, match="orthogonally next to the previous one"):
            act(s, diagonal)
    act(s, "alms r1c2")
    # only the neighbours of the *last* village: r2c1, r2c3, r3c2 (next to r2c2) would branch
    assert legal_names(s) == {"alms r1c1", "alms r1c3"}
    for branch in ("alms r2c1", "alms r2c3", "alms r3c2"):
        with pytest.raises(IllegalActionError):
            act(s, branch)
    act(s, "alms r1c3")
    assert phase(s) == "raid" and s.current_player != p
    assert [s.alms_count[c, p] for c in range(9)] == [0, 1, 1, 0, 1, 0, 0, 0, 0]


def test_another_players_village_of_this_round_stays_open():
    # "villages that *you* have already placed alms on this round" are closed to the snake;
    # a village another player gave to this round is not.
    s, first = snake_position({"benefactor 1": 1})
    set_castle_cards(s, 2, face_up={"benefactor 2": 1})
    act(s, "raid castle 1", "alms r2c2")
    second = s.current_player
    assert second != first and phase(s) == "raid"
    act(s, "raid castle 2")
    assert "alms r2c2" in legal_names(s)
    act(s, "alms r2c2")
    assert "alms r2c2" not in legal_names(s)        # closed to him now, as to the first
    act(s, "alms r2c1")
    assert s.alms_owner[cell("r2c2"), :2].argmax(axis=1).tolist() == [first, second]


# --- Final Scoring: 1. Loot --------------------------------------------------------------------
def every_bust_outcome(chests: list[int], busts: int) -> set[tuple[int, ...]]:
    """Chest counts after every sequence of choices the rulebook allows: each bust discards
    one chest of a type held most (re-checked after each), the player choosing among ties."""
    if busts == 0 or max(chests) == 0:
        return {tuple(chests)}
    top = max(chests)
    out = set()
    for t, c in enumerate(chests):
        if c == top:
            after = list(chests)
            after[t] -= 1
            out |= every_bust_outcome(after, busts - 1)
    return out


def test_every_bust_choice_gives_the_same_loot_glory():
    # "If tied, choose one of the tied types and discard just one of that type." The engine
    # does not ask: for every collection of up to 4 chests a type and up to 3 busts, every
    # choice the rule allows ends in the same glory, and resolve_busts makes one of them.
    garments_and_jewels = [0] * NUM_KINDS
    garments_and_jewels[GARMENT0] = 1
    garments_and_jewels[JEWEL0 + 2] = 2
    garments_and_jewels[kind("maid marihen")] = 1       # the Maid counts chest types
    for chests in itertools.product(range(5), repeat=4):
        for busts in range(4):
            collection = list(garments_and_jewels)
            collection[CHEST0:CHEST0 + 4] = chests
            collection[kind("bust")] = busts
            engine = S.resolve_busts(list(chests), busts)
            outcomes = every_bust_outcome(list(chests), busts)
            assert tuple(engine) in outcomes, (chests, busts, engine)
            engine_glory = S.loot_glory(collection)
            for outcome in outcomes:
                chosen = list(garments_and_jewels)
                chosen[CHEST0:CHEST0 + 4] = outcome        # that choice, busts resolved
                assert S.loot_glory(chosen) == engine_glory, (chests, busts, outcome)


def test_every_chest_tie_choice_scores_the_same():
    # "If tied, choose one of the tied types and score just that. You lose one glory for
    # each chest you have of any other type."
    for chests in itertools.product(range(5), repeat=4):
        top = max(chests)
        choices = {c * c - (sum(chests) - c) for c in chests if c == top}
        assert choices == {S.chest_score(list(chests))}, chests


# --- Variant: Legendary Cards --------------------------------------------------------------------
def test_key_forced_raider_chooses_among_all_other_open_castles():
    # "force him to raid another castle of his choice": every unraided castle but the one
    # he chose is his to pick; the next raider may take the blocked one.
    s = key_position()                               # 3 players, order P0, P1, P2; P2 has the key
    act(s, "raid castle 4", "key: force another castle")
    assert s.current_player == 0
    assert legal_names(s) == {"raid castle 1", "raid castle 2", "raid castle 3"}
    act(s, "raid castle 2")
    assert legal_names(s) == {"raid castle 1", "raid castle 3", "raid castle 4"}


def test_entertainers_skipped_when_one_colour_holds_every_alms():
    # "you may swap the positions of any two alms": alms of one colour are alike, so when
    # only one player has alms on the board every swap leaves the table as it is; the
    # holder is not asked. A single alms of a second colour makes the swap real.
    for owner in (0, 1):
        s = end_position({0: {"travelling entertainers": 1}})
        place_alms(s, cell("r1c1"), [owner, owner])
        place_alms(s, cell("r1c2"), [owner])
        raid_out(s)
        assert s.is_terminal
    s = end_position({0: {"travelling entertainers": 1}})
    place_alms(s, cell("r1c1"), [1, 1])
    place_alms(s, cell("r1c2"), [2])
    raid_out(s)
    assert phase(s) == "entertainers_first" and s.current_player == 0
    assert legal_names(s) == {"entertainers: alms r1c1 space 1", "entertainers: alms r1c1 space 2",
                              "entertainers: alms r1c2 space 1", "entertainers: pass"}


def test_golden_arrow_exchanges_treasures_only():
    # "you may exchange any one of your treasures with any one treasure of an opponent":
    # treasures are chests, garments and jewelry; busts, Maids, henchmen and Legendary cards
    # are loot but not treasure. Without a treasure on both sides there is nothing to ask.
    not_treasure = {"bust": 1, "maid marihen": 1, "henchman": 1}
    s = end_position({0: {"golden arrow": 1, **not_treasure}, 1: {"violet ring": 1}})
    raid_out(s)
    assert s.is_terminal                             # the holder has no treasure
    s = end_position({0: {"golden arrow": 1, "gold chest": 1},
                      1: not_treasure, 2: {"spy glass": 1, "maid marihen": 2}})
    raid_out(s)
    assert s.is_terminal                             # no opponent has one
    s = end_position({0: {"golden arrow": 1, "gold chest": 1, **not_treasure},
                      1: {"bust": 1, "blue jerkin": 1}, 2: {"henchman": 2}})
    raid_out(s)
    assert phase(s) == "arrow_give"
    assert legal_names(s) == {"golden arrow: give gold chest", "golden arrow: pass"}
    act(s, "golden arrow: give gold chest")
    assert legal_names(s) == {"golden arrow: take blue jerkin from +1"}
