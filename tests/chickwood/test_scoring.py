"""Chickwood Forest final scoring: every rulebook scoring example, as pure functions and
through full states' ``scores()`` (with the per-category breakdown)."""

from __future__ import annotations

import pytest

from forest_envs.chickwood import scoring as S
from forest_envs.chickwood.components import VILLAGES

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


# --- 2. castles ----------------------------------------------------------------------------
def test_castle_example_is_20():
    raided = [2, 5, 5, 2, 1, 5]   # starting castle 2 included
    held = [raided.count(v) for v in range(1, 7)]
    assert S.castle_score(held) == 20


# --- 3. villages -----------------------------------------------------------------------------
def owners_times(village: str, placed: list[int]) -> tuple[int, list[int], list[int]]:
    """Alms placed in this order (spaces fill left to right, top to bottom, time 1, 2, ...)."""
    g = VILLAGE[village]
    size = 7
    owners = placed + [-1] * (size - len(placed))
    times = list(range(1, len(placed) + 1)) + [0] * (size - len(placed))
    return g, owners, times


def test_village_rows_as_the_examples_need():
    rows = {v.name: [g for _, g in v.rows] for v in VILLAGES}
    assert rows["Ashford"] == [3, 6]
    assert rows["Bramblewick"] == [2, 4, 8]
    assert rows["Cinderholt"][:2] == [9, 5] and len(rows["Cinderholt"]) == 3
    assert rows["Dunmere"][0] is None


def test_bramblewick_third_row_empty_so_8_not_unlocked():
    # Blue together with Yellow unlocked the first row, Red the second; the third is empty.
    g, owners, times = owners_times("Bramblewick", [BLUE, YELLOW, RED])
    assert S.unlocked_glory(g, 3) == [4, 2]
    awards = S.village_awards(g, owners, times, 4)
    assert 8 not in awards
    assert sorted(awards, reverse=True) == [4, 2, 0, 0]
    # one alms each: the later placer ranks higher (red, then yellow, then blue)
    assert awards[RED] == 4 and awards[YELLOW] == 2 and awards[BLUE] == 0


def test_ashford_tie_goes_to_the_later_placer():
    # Yellow placed his alms later than red: yellow 3; the 6 row is empty; red nothing.
    g, owners, times = owners_times("Ashford", [RED, YELLOW])
    assert S.unlocked_glory(g, 2) == [3]
    assert S.village_awards(g, owners, times, 2) == [0, 3]
    # the other order of placement reverses it
    g, owners, times = owners_times("Ashford", [YELLOW, RED])
    assert S.village_awards(g, owners, times, 2) == [3, 0]


def test_cinderholt_nobody_third():
    # Red earns nine, yellow five; nobody is third, so the third unlocked glory is unearned.
    g, owners, times = owners_times("Cinderholt", [RED, YELLOW, RED, RED])
    assert S.unlocked_glory(g, 4) == [9, 5, 2]
    assert S.village_awards(g, owners, times, 3) == [9, 5, 0]


def test_four_player_tie_example_8_4_2_0():
    # Red placed his last alms later than blue and wins the tie; green wins the tie with
    # yellow. Red 8, blue 4, green 2, yellow nothing.
    g, owners, times = owners_times("Bramblewick", [BLUE, RED, YELLOW, BLUE, GREEN, RED])
    assert S.unlocked_glory(g, 6) == [8, 4, 2]
    awards = S.village_awards(g, owners, times, 4)
    assert awards[RED] == 8 and awards[BLUE] == 4 and awards[GREEN] == 2 and awards[YELLOW] == 0


def test_dunmere_first_row_prints_no_glory():
    # Red placed two alms on this large village, the second row is empty: no glory.
    g, owners, times = owners_times("Dunmere", [RED, RED])
    assert S.unlocked_glory(g, 2) == []
    assert S.village_awards(g, owners, times, 2) == [0, 0]
    # one alms in the second row unlocks its 10
    g, owners, times = owners_times("Dunmere", [RED, RED, RED, YELLOW])
    assert S.village_awards(g, owners, times, 2) == [10, 0]


def test_more_alms_beats_later_placement():
    g, owners, times = owners_times("Elderbrook", [RED, RED, YELLOW])
    assert S.village_awards(g, owners, times, 2) == [7, 4]


def test_tie_uses_last_alms_not_first():
    # Red placed first and last; yellow's only alms came between: red wins the 2-2 tie.
    g, owners, times = owners_times("Elderbrook", [RED, YELLOW, YELLOW, RED])
    assert S.village_awards(g, owners, times, 2) == [7, 4]


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
    assert sc[0] == {"busts": 0, "chests": 12, "garments": 10, "jewelry": 19, "maid": 9,
                     "henchmen": -6, "castles": 20, "villages": 9,
                     "total": 12 + 10 + 19 + 9 - 6 + 20 + 9}
    # player 1: the bust takes a gold chest: 1 gold + 1 silver -> 1 - 1 = 0
    assert sc[1]["busts"] == 1 and sc[1]["chests"] == 0
    assert sc[1]["castles"] == 4 and sc[1]["villages"] == 3 + 5
    assert sc[1]["total"] == 0 + 4 + 8
    assert sc[2]["total"] == 0 and sc[2]["villages"] == 0


def test_state_scores_four_player_village_example():
    s = new_state(4, seed=1)
    for p in range(4):
        set_collection(s, p, {})
        s.castles_held[p] = 0
    set_grid(s, ["Bramblewick", F, F, F, F, F, F, F, F])
    place_alms(s, 0, [BLUE, RED, YELLOW, BLUE, GREEN, RED])
    assert [x["villages"] for x in s.scores()] == [8, 0, 4, 2]
    assert [x["total"] for x in s.scores()] == [8, 0, 4, 2]
