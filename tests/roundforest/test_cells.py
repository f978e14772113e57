"""Roundforest's cells (``observation.CELLS``): the 36 tiles of the frame, read by a cell
network with shared weights. What changes in an observation when something on one tile
changes must be among that tile's entries (or the near_* distances, which are per tile too),
and the actions of a tile are the three that name it."""

from __future__ import annotations

import numpy as np
import pytest

from forest_envs.roundforest.components import NUM_CELLS, cell_name

from .conftest import cell, char, clear_board, item, new_state, place

NEAR = ("near_well", "near_spirit", "near_debt", "near_piece")


def _changed(s, seat: int, edit, *args) -> set[int]:
    before = s.observation(seat).copy()
    t = s.clone()
    edit(t, *args)
    t.edited()
    return set(np.flatnonzero(t.observation(seat) != before).tolist())


def _near_positions(s) -> set[int]:
    slices = s.game.layout.observation_slices()
    return {i for name in NEAR for i in range(*slices[name][:2])}


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_every_entry_about_a_tile_is_read_once_by_that_tile(num_players):
    s = new_state(num_players, seed=3)
    cells = s.game.cells()
    assert cells.features.shape[0] == NUM_CELLS
    flat = cells.features.ravel()
    assert len(set(flat.tolist())) == flat.size      # no entry read by two cells
    slices = s.game.layout.observation_slices()
    declared = sum(slices[name][1] - slices[name][0] for name, _ in s.game.cell_spec.blocks)
    assert flat.size == declared


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_what_lies_on_a_tile_is_seen_in_that_tiles_entries(seat):
    s = new_state(3, seed=5)
    clear_board(s)
    cells = s.game.cells()
    near = _near_positions(s)
    edits = {
        "an item token": lambda t, c: t.cell_item.__setitem__(c, item("key")),
        "a character": lambda t, c: t.cell_char.__setitem__(c, char("Witch")),
        "a red chip": lambda t, c: (t.cell_chip.__setitem__((c, 0), 0), t.cell_chip.__setitem__((c, 3), 1)),
        "a quarter turn": lambda t, c: t.cell_orient.__setitem__(c, (int(t.cell_orient[c]) + 1) % 4),
    }
    for c in (cell("B2"), cell("C4"), cell("E5")):
        own = set(cells.features[c].tolist())
        for what, edit in edits.items():
            changed = _changed(s, seat, edit, c)
            assert changed & own, f"{what} on {cell_name(c)} changed none of its entries"
            assert changed <= own | near, f"{what} on {cell_name(c)} changed another tile's entries"


def test_a_piece_is_seen_on_the_tile_it_stands_on():
    s = new_state(3, seed=5)
    cells = s.game.cells()
    near = _near_positions(s)
    before = s.pos[2]
    changed = _changed(s, 0, place, 2, "C3")
    allowed = set(cells.features[cell("C3")].tolist()) | set(cells.features[before].tolist()) | near
    assert changed & set(cells.features[cell("C3")].tolist())
    assert changed <= allowed


def test_the_actions_of_a_tile_are_the_three_that_name_it():
    game = new_state(3).game
    cells = game.cells()
    for c in range(NUM_CELLS):
        names = [game.action_names[a] for a in cells.actions[c]]
        assert names == [f"move to {cell_name(c)}", f"compass: move to {cell_name(c)}",
                         f"choose tile {cell_name(c)}"]
