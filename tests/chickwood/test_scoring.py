"""Chickwood Forest final scoring: every rulebook scoring example, as pure functions and
through full states' ``scores()`` (with the per-category breakdown)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from forest_envs.chickwood.components import MAX_SPACES, VILLAGES
from forest_envs.chickwood.rules import scoring as S

from .conftest import VILLAGE, F, cell, counts, new_state, place_alms, set_collection, set_grid

RED, YELLOW, BLUE, GREEN = 0, 1, 2, 3
GOLD, SILVER, EMERALD, RUBY = 0, 1, 2, 3


def chests(gold=0, silver=0, emerald=0, ruby=0) -> list[int]:
    return [gold, silver, emerald, ruby]


# --- 1. loot: busts ----------------------------------------------------------------------
def test_one_bust_discards_a_chest_of_the_majority_type():
    # "Your chests are mostly green emeralds. Discard one green emerald chest."
    assert S.resolve_busts(chests(gold=1, silver=2, emerald=3), 1) == chests(1, 2, 2, 0)


def test_two_busts_recheck_the_majority_after_each_discard():
    # "You discard a green emerald chest because of the first. Now the types of chest you
    # have most are emerald and silver, at three each, so you discard either one."
    after = S.resolve_busts(chests(silver=3, emerald=4), 2)
    assert sorted(after) == [0, 0, 2, 3]
    assert after[EMERALD] in (2, 3) and after[SILVER] in (2, 3)
    # whichever tied type is chosen, the score is the same
    assert S.chest_score(after) == S.chest_score(chests(silver=2, emerald=3)) == 9 - 2


def test_busts_recheck_rather_than_hit_one_type_twice():
    # 3 + 3 with two busts: 2 + 2 (re-checked), not 1 + 3.
    after = S.resolve_busts(chests(gold=3, silver=3), 2)
    assert sorted(after) == [0, 0, 2, 2]
    assert S.chest_score(after) == 2


def test_busts_without_chests_do_nothing():
    assert S.resolve_busts(chests(), 3) == chests()
    assert S.resolve_busts(chests(gold=1), 3) == chests()


def test_bust_breakdown_counts_discarded_chests_and_changes_chest_score():
    coll = [0] * 22
    coll[GOLD], coll[SILVER] = 4, 1
    coll[11] = 1  # bust
    s = S.loot_scores(coll)
    assert s["busts"] == 1
    assert s["chests"] == 3 * 3 - 1


# --- chests --------------------------------------------------------------------------------
def test_chest_example_4_3_1_is_12():
    # 4 brown gold (16), 3 silver and 1 green emerald (-4): 12.
    assert S.chest_score(chests(gold=4, silver=3, emerald=1)) == 12


def test_chest_example_2_2_is_2():
    assert S.chest_score(chests(gold=2, emerald=2)) == 2


@pytest.mark.parametrize("cs, expected", [
    (chests(), 0), (chests(ruby=1), 1), (chests(gold=5), 25), (chests(1, 1, 1, 1), -2),
    (chests(gold=7, silver=7), 42),
])
def test_chest_score_is_majority_squared_minus_others(cs, expected):
    assert S.chest_score(cs) == expected


# --- garments, jewelry, maid, henchmen ---------------------------------------------------
def test_garment_example_is_10():
    # one silver armor, one blue jerkin (5 each), two green gowns (nothing)
    assert S.garment_score([1, 1, 2, 0]) == 10


def test_garments_held_twice_score_nothing():
    assert S.garment_score([2, 2, 2, 2]) == 0
    assert S.garment_score([1, 1, 1, 1]) == 20


def test_jewelry_example_is_19():
    # two violet rings (4), three turquoise pendants (3), one bronze bracelet (2)
    assert S.jewelry_score([1, 3, 2]) == 19


def test_maid_example_is_9_and_more_maids_add_nothing():
    treasures = [1, 1, 1, 0] + [1, 1, 1, 0] + [1, 1, 1]   # 3 chest, 3 garment, 3 jewel types
    assert S.maid_score(treasures, 1) == 9
    assert S.maid_score(treasures, 3) == 9
    assert S.maid_score(treasures, 0) == 0
    assert S.maid_score([3, 0, 0, 0] + [0] * 7, 1) == 1   # types, not cards


def test_maid_counts_chest_types_left_after_busts():
    coll = counts({"gold chest": 1, "silver chest": 2, "bust": 2, "maid marihen": 1}).tolist()
    # two busts: silver 2 -> 1, then gold/silver tied at 1 -> one of them gone: one type left
    assert S.loot_scores(coll)["maid"] == 1


def test_henchmen_example_is_minus_6():
    assert S.henchmen_score(2) == -6


@pytest.mark.whole_games
@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 4), min_size=22, max_size=22), st.booleans())
def test_loot_glory_is_the_breakdown_without_busts(collection, as_tuple):
    # loot_glory sums the same parts as loot_scores without building the breakdown; it is
    # what the scripted players value collections with, on tuples and on lists
    scores = S.loot_scores(collection)
    expected = sum(scores.values()) - scores["busts"]
    assert S.loot_glory(tuple(collection) if as_tuple else collection) == expected


# --- 2. castles ----------------------------------------------------------------------------
def test_castle_example_is_20():
    raided = [2, 5, 5, 2, 1, 5]   # starting castle 2 included
    held = [raided.count(v) for v in range(1, 7)]
    assert S.castle_score(held) == 20


# --- 3. villages -----------------------------------------------------------------------------
def spaces(village: str, placed: list[int]) -> tuple[int, list[int]]:
    """Village id and owners per space for alms placed in this order (spaces fill left to
    right, top to bottom, so the i-th alms lies in space i); -1 marks the empty spaces."""
    return VILLAGE[village], placed + [-1] * (MAX_SPACES - len(placed))


def test_village_rows_as_the_examples_need():
    rows = {v.name: [g for _, g in v.rows] for v in VILLAGES}
    assert rows["Ashford"] == [3, 6]
    assert rows["Bramblewick"] == [2, 4, 8]
    assert rows["Cinderholt"][:2] == [9, 5] and len(rows["Cinderholt"]) == 3
    assert rows["Dunmere"][0] is None


def test_bramblewick_third_row_empty_so_8_not_unlocked():
    # Blue together with Yellow unlocked the first row, Red the second; the third is empty.
    g, owners = spaces("Bramblewick", [BLUE, YELLOW, RED])
    assert S.unlocked_glory(g, 3) == [4, 2]
    awards = S.village_awards(g, owners, 4)
    assert 8 not in awards
    assert sorted(awards, reverse=True) == [4, 2, 0, 0]
    # one alms each: the later space ranks higher (red, then yellow, then blue)
    assert awards[RED] == 4 and awards[YELLOW] == 2 and awards[BLUE] == 0


def test_ashford_tie_goes_to_the_later_placer():
    # Yellow placed his alms later than red: yellow 3; the 6 row is empty; red nothing.
    g, owners = spaces("Ashford", [RED, YELLOW])
    assert S.unlocked_glory(g, 2) == [3]
    assert S.village_awards(g, owners, 2) == [0, 3]
    # the other order of placement reverses it
    g, owners = spaces("Ashford", [YELLOW, RED])
    assert S.village_awards(g, owners, 2) == [3, 0]


def test_cinderholt_nobody_third():
    # Red earns nine, yellow five; nobody is third, so the third unlocked glory is unearned.
    g, owners = spaces("Cinderholt", [RED, YELLOW, RED, RED])
    assert S.unlocked_glory(g, 4) == [9, 5, 2]
    assert S.village_awards(g, owners, 3) == [9, 5, 0]


def test_four_player_tie_example_8_4_2_0():
    # Red placed his last alms later than blue and wins the tie; green wins the tie with
    # yellow. Red 8, blue 4, green 2, yellow nothing.
    g, owners = spaces("Bramblewick", [BLUE, RED, YELLOW, BLUE, GREEN, RED])
    assert S.unlocked_glory(g, 6) == [8, 4, 2]
    assert S.village_ranking(owners, 4) == [RED, BLUE, GREEN, YELLOW]
    assert S.village_awards(g, owners, 4) == [8, 0, 4, 2]


def test_dunmere_first_row_prints_no_glory():
    # Red placed two alms on this large village, the second row is empty: no glory.
    g, owners = spaces("Dunmere", [RED, RED])
    assert S.unlocked_glory(g, 2) == []
    assert S.village_awards(g, owners, 2) == [0, 0]
    # one alms in the second row unlocks its 10
    g, owners = spaces("Dunmere", [RED, RED, RED, YELLOW])
    assert S.village_awards(g, owners, 2) == [10, 0]


def test_more_alms_beats_later_placement():
    g, owners = spaces("Elderbrook", [RED, RED, YELLOW])
    assert S.village_awards(g, owners, 2) == [7, 4]


def test_tie_uses_last_alms_not_first():
    # Red placed first and last; yellow's only alms came between: red wins the 2-2 tie.
    g, owners = spaces("Elderbrook", [RED, YELLOW, YELLOW, RED])
    assert S.village_awards(g, owners, 2) == [7, 4]


def test_empty_village_gives_nothing():
    g, owners = spaces("Ashford", [])
    assert S.village_ranking(owners, 3) == []
    assert S.village_awards(g, owners, 3) == [0, 0, 0]


def test_tie_is_decided_by_the_later_space_not_by_seat_or_list_order():
    # 1-1-1 tie on Cinderholt (9, 5 and 2 unlocked): the later the space, the better.
    g, owners = spaces("Cinderholt", [YELLOW, BLUE, RED])
    assert S.village_ranking(owners, 3) == [RED, BLUE, YELLOW]
    assert S.village_awards(g, owners, 3) == [9, 2, 5]


def test_tie_after_a_swap_goes_to_the_later_space_not_the_later_gift():
    # Ashford: yellow gave its alms first (space 1), red second (space 2). Later in the game
    # blue gave one alms to Elderbrook. At the end the travelling entertainers swap yellow's
    # Ashford alms with blue's Elderbrook one. Ashford now holds blue (space 1, the alms
    # given last of all) and red (space 2). A clock would give blue the tie; the table
    # gives it to red, whose alms lies in the later space. The function sees only spaces.
    g, owners = spaces("Ashford", [BLUE, RED])
    assert S.village_awards(g, owners, 3) == [3, 0, 0]


def test_swap_inside_one_village_changes_the_tie():
    # Red's and yellow's alms change places on Ashford: counts and unlocked rows stay, the
    # tie follows the cubes to their new spaces (with a clock it would have stayed put).
    g, before = spaces("Ashford", [RED, YELLOW, RED, YELLOW])
    _, after = spaces("Ashford", [RED, YELLOW, YELLOW, RED])
    assert S.village_awards(g, before, 2) == [3, 6]
    assert S.village_awards(g, after, 2) == [6, 3]


def test_only_the_last_alms_of_each_player_matters():
    # Yellow's alms lie in spaces 1, 2 and 5, red's in 3, 4 and 6: three each; red's last
    # alms (space 6) lies later than yellow's last (space 5).
    g, owners = spaces("Dunmere", [YELLOW, YELLOW, RED, RED, YELLOW, RED])
    assert S.village_ranking(owners, 2) == [RED, YELLOW]
    assert S.village_awards(g, owners, 2) == [10, 5]


# --- full states -------------------------------------------------------------------------------
def test_state_scores_breakdown_and_total():
    s = new_state(3, seed=5)
    set_collection(s, 0, {
        "gold chest": 4, "silver chest": 3, "emerald chest": 1,           # chests 12
        "silver armor": 1, "blue jerkin": 1, "green gown": 2,              # garments 10
        "violet ring": 2, "turquoise pendant": 3, "bronze bracelet": 1,    # jewelry 19
        "maid marihen": 2,                                                 # 3+3+3 types: 9
        "henchman": 2,                                                     # -6
    })
    s.castles_held[0] = [1, 2, 0, 0, 3, 0]                                 # castles 20
    set_collection(s, 1, {"bust": 1, "gold chest": 2, "silver chest": 1})
    s.castles_held[1] = [0, 0, 0, 1, 0, 0]
    set_collection(s, 2, {})
    s.castles_held[2] = [0, 0, 0, 0, 0, 0]
    set_grid(s, ["Ashford", "Bramblewick", "Cinderholt",
                 F, "Dunmere", "Elderbrook",
                 "Foxmoor", "Greywater", F])
    place_alms(s, cell("r1c1"), [0, 1])          # Ashford: tie, later placer 1 gets 3
    place_alms(s, cell("r1c3"), [0, 1, 0, 0])    # Cinderholt: 0 gets 9, 1 gets 5
    place_alms(s, cell("r2c2"), [2, 2])          # Dunmere: no glory unlocked
    sc = s.scores()
    nothing = {"r1c1": 0, "r1c2": 0, "r1c3": 0, "r2c2": 0, "r2c3": 0, "r3c1": 0, "r3c2": 0}
    assert sc[0] == {"busts": 0, "chests": 12, "garments": 10, "jewelry": 19, "maid": 9,
                     "henchmen": -6, "castles": 20, "villages": 9,
                     "village_glory": {**nothing, "r1c3": 9},
                     "total": 12 + 10 + 19 + 9 - 6 + 20 + 9}
    # player 1: the bust takes a gold chest: 1 gold + 1 silver -> 1 - 1 = 0
    assert sc[1]["busts"] == 1 and sc[1]["chests"] == 0
    assert sc[1]["castles"] == 4 and sc[1]["villages"] == 3 + 5
    assert sc[1]["village_glory"] == {**nothing, "r1c1": 3, "r1c3": 5}
    assert sc[1]["total"] == 0 + 4 + 8
    assert sc[2]["total"] == 0 and sc[2]["villages"] == 0
    assert sc[2]["village_glory"] == nothing


def lay_alms(state, cell_index: int, owners: list[int]) -> None:
    """Put alms on a cell's first spaces as they lie (owners[s] on space s), with no
    placement history: all a table shows."""
    state.alms_owner[cell_index] = 0
    for space, p in enumerate(owners):
        state.alms_owner[cell_index, space, p] = 1
    state.cell_filled[cell_index] = len(owners)
    state.edited()


def test_state_scores_break_ties_by_the_spaces_alone():
    s = new_state(3, seed=2)
    for p in range(3):
        set_collection(s, p, {})
        s.castles_held[p] = 0
    set_grid(s, ["Ashford", "Elderbrook", F, F, F, F, F, F, F])
    lay_alms(s, cell("r1c1"), [0, 1])            # 1-1 tie: seat 1 lies in the later space
    lay_alms(s, cell("r1c2"), [2, 0, 0, 2])      # 2-2 tie: seat 2 lies in the last space
    sc = s.scores()
    assert [x["village_glory"] for x in sc] == [{"r1c1": 0, "r1c2": 4},
                                                {"r1c1": 3, "r1c2": 0},
                                                {"r1c1": 0, "r1c2": 7}]
    assert [x["villages"] for x in sc] == [x["total"] for x in sc] == [4, 3, 7]


def test_state_scores_four_player_village_example():
    s = new_state(4, seed=1)
    for p in range(4):
        set_collection(s, p, {})
        s.castles_held[p] = 0
    set_grid(s, ["Bramblewick", F, F, F, F, F, F, F, F])
    place_alms(s, 0, [BLUE, RED, YELLOW, BLUE, GREEN, RED])
    sc = s.scores()
    assert [x["villages"] for x in sc] == [x["total"] for x in sc] == [8, 0, 4, 2]
    assert [x["village_glory"] for x in sc] == [{"r1c1": 8}, {"r1c1": 0}, {"r1c1": 4},
                                                {"r1c1": 2}]
