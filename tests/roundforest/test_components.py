"""Roundforest component data: the printed numbers, the reconstructed forest and the proof
that its octagon patterns make a playable forest (random legal movement reaches every tile)."""

from __future__ import annotations

import numpy as np
import pytest

from forest_envs.roundforest.components import (
    CCW,
    CHARACTERS,
    CHIPS,
    CW,
    FAIRY_COST,
    FAIRY_ROWS,
    FAIRY_SLOTS,
    FRIENDLY,
    HEAVY,
    HELPFUL,
    HOSTILE,
    ITEM_COUNTS,
    ITEM_NAMES,
    NUM_TILES,
    PLAIN_TILES,
    SILVER_TOKEN,
    TILES,
    WELL_TILES,
    backpack_corner,
    cell_id,
    cell_rc,
    corners,
    grid_size,
    item_counts,
    open_sides,
    pattern_targets,
    start_targets,
    tile_cells,
    tiles_in_play,
    well_cells,
)
from forest_envs.roundforest.rules import new_game

from .conftest import cell


def test_printed_counts():
    assert NUM_TILES == 32 and len(WELL_TILES) == 4 and len(PLAIN_TILES) == 28
    assert CHIPS == {1: 24, 2: 16, 3: 12} and sum(CHIPS.values()) == 52
    assert sum(ITEM_COUNTS) == 39
    assert len(CHARACTERS) == 12
    kinds = [c.kind for c in CHARACTERS]
    assert kinds.count(FRIENDLY) == 3 and kinds.count(HOSTILE) == 3 and kinds.count(HELPFUL) == 6
    assert (FAIRY_ROWS, FAIRY_SLOTS) == (3, 3) and FAIRY_COST == (2, 1, 0)


def test_heavy_and_light_items_as_the_rulebook_lists_them():
    heavy = {ITEM_NAMES[k] for k in HEAVY}
    assert heavy == {"anvil", "barrel", "saddle", "treasure chest", "stone"}
    light = set(ITEM_NAMES) - heavy
    assert light == {"helmet", "horseshoe", "hat", "cheese", "cauldron", "cross", "jug", "spoon",
                     "mortar", "copper coin", "silver coin", "mushroom", "provision flask", "key",
                     "sword", "boot", "magic potion"}
    # every item a task or the chest needs exists at least twice
    for name in ("anvil", "barrel", "stone", "sword", "cross", "magic potion", "saddle",
                 "treasure chest", "key"):
        assert ITEM_COUNTS[ITEM_NAMES.index(name)] == 2


def test_no_silver_variant_removes_the_silver_coin_tokens():
    assert sum(item_counts(True)) == 39 - ITEM_COUNTS[SILVER_TOKEN] == 35
    assert item_counts(True)[SILVER_TOKEN] == 0


@pytest.mark.parametrize(("players", "tiles", "side"), [(2, 21, 5), (3, 32, 6), (4, 32, 6)])
def test_forest_shape(players, tiles, side):
    assert grid_size(players) == side
    cells = tile_cells(players)
    assert len(cells) == tiles == tiles_in_play(players)
    assert set(corners(players)).isdisjoint(cells)
    wells = well_cells(players)
    assert len(wells) == 4 and set(wells) <= set(cells)
    # the wells are symmetric under a quarter turn of the forest
    g = side - 1
    turned = {cell_id(cell_rc(w)[1], g - cell_rc(w)[0]) for w in wells}
    assert turned == set(wells)
    # no well lies next to a backpack (first moves are onto ordinary tiles)
    for p in range(players):
        assert len(start_targets(players, p)) == 2
        assert set(start_targets(players, p)).isdisjoint(wells)


def test_backpacks_at_the_corners():
    assert [backpack_corner(4, p) for p in range(4)] == [cell("A1"), cell("A6"), cell("F6"), cell("F1")]
    assert [backpack_corner(2, p) for p in range(2)] == [cell("A1"), cell("E5")]
    assert set(start_targets(3, 0)) == {cell("A2"), cell("B1")}


def test_tile_patterns_rotate_and_are_balanced():
    for t in TILES:
        assert t.turn in (CW, CCW)
        filled = sum(t.inner) + sum(t.outer)
        assert 4 <= filled <= 6
        dirs = [d for d in range(4) if t.inner[d] or t.outer[d]]
        assert any((a - b) % 2 == 1 for a in dirs for b in dirs)  # two perpendicular directions
    turns = [t.turn for t in TILES]
    assert turns.count(CW) == turns.count(CCW) == 16
    # a quarter turn clockwise moves the north octagons to the east
    hook = [i for i, t in enumerate(TILES) if t.name == "hook-1"][0]
    inner0, outer0 = open_sides(hook, 0)
    inner1, outer1 = open_sides(hook, 1)
    assert (inner0, outer0) == ((True, False, True, False), (True, True, False, False))
    assert inner1 == (False, True, False, True) and outer1 == (False, True, True, False)


def test_pattern_targets_jump_and_edge():
    hook = [i for i, t in enumerate(TILES) if t.name == "hook-1"][0]
    # on C3: N inner+outer (B3, A3), E outer only (C5, jumping C4), S inner (D3), W none
    assert set(pattern_targets(3, cell("C3"), hook, 0)) == {cell("B3"), cell("A3"), cell("C5"), cell("D3")}
    # with the compass every octagon is filled
    assert set(pattern_targets(3, cell("C3"), hook, 0, compass=True)) == {
        cell("B3"), cell("A3"), cell("C4"), cell("C5"), cell("D3"), cell("E3"), cell("C2"), cell("C1")}
    # never off the forest, never into a backpack corner
    assert set(pattern_targets(3, cell("A2"), hook, 0, compass=True)) == {
        cell("A3"), cell("A4"), cell("B2"), cell("C2")}


def _random_walk(players: int, seed: int, steps: int) -> set[int]:
    """One piece per seat moving at random as the octagons allow, the stood-on tile turning
    each turn, pieces never sharing a tile; returns the tiles visited."""
    state = new_game({"num_players": players}, seed=seed)
    rng = np.random.default_rng(seed)
    tile = state.cell_tile.copy()
    orient = state.cell_orient.copy().astype(int)
    turn = state.cell_turn.copy().astype(int)
    pos = [None] * players
    seen = set()
    for step in range(steps):
        p = step % players
        if pos[p] is None:
            options = start_targets(players, p)
        else:
            options = pattern_targets(players, pos[p], int(tile[pos[p]]), orient[pos[p]])
        options = [t for t in options if t not in pos]
        if options:
            pos[p] = int(rng.choice(options))
            seen.add(pos[p])
        if pos[p] is not None:
            orient[pos[p]] = (orient[pos[p]] + turn[pos[p]]) % 4
    return seen


@pytest.mark.whole_games
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_movement_reaches_every_tile(players):
    for seed in range(10):
        assert _random_walk(players, seed, 3000) == set(tile_cells(players)), seed


@pytest.mark.whole_games
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_play_of_the_engine_reaches_every_tile(players):
    seen = set()
    for seed in range(4):
        state = new_game({"num_players": players}, seed=seed)
        rng = np.random.default_rng(seed)
        for _ in range(4000):
            if state.is_terminal:
                break
            state.apply(int(rng.choice(state.legal_actions())))
            seen.update(state.pos)
    assert set(tile_cells(players)) <= seen
