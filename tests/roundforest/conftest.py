"""Helpers for building Roundforest positions in the rules tests.

Positions are built by writing the state's named buffer views (pieces, chips, tokens,
backpacks, coins) and then playing actions by their names, so each test reads like the
rulebook: ``act(state, "move to B3", "keep the item")``.
"""

from __future__ import annotations

import numpy as np
import pytest
from engine_helpers import act, legal_names, phase  # noqa: F401  (re-exported to the tests)

from forest_envs.core import engines
from forest_envs.roundforest.components import (
    CHARACTER_NAMES,
    ITEM_NAMES,
    NUM_ITEMS,
    TILES,
    cell_id,
)
from forest_envs.roundforest.observation import APPLES, COPPER, SILVER
from forest_envs.roundforest.rules import NO_CHAR, NO_ITEM, RoundforestGame


def cell(name: str) -> int:
    """"B3" -> cell id (rows A-F, columns 1-6)."""
    return cell_id("ABCDEF".index(name[0]), int(name[1:]) - 1)


def item(name: str) -> int:
    return ITEM_NAMES.index(name)


def char(name: str) -> int:
    return CHARACTER_NAMES.index(name)


def tile_named(name: str) -> int:
    return [t.name for t in TILES].index(name)


# Every test here runs on each engine this machine has (the Python reference and, where it is
# built, the native one): a rule's test is the native engine's test too. A test that needs one
# engine says so (``pytest.mark.python_only`` with its reason, or its own ``engine`` fixture).
_ENGINE = [None]


@pytest.fixture(params=engines.available(RoundforestGame), autouse=True)
def engine(request):
    marker = request.node.get_closest_marker("python_only")
    if marker is not None and request.param != "python":
        pytest.skip(f"python engine only: {marker.args[0]}")
    _ENGINE[0] = request.param
    yield request.param
    _ENGINE[0] = None


def new_state(num_players: int = 3, seed: int = 0, **cfg):
    """A new game on the engine of the running test."""
    return RoundforestGame.shared({"num_players": num_players, **cfg}).new_initial_state(seed, _ENGINE[0])




def move_names(state) -> set[str]:
    return {n for n in legal_names(state) if n.startswith("move to") or n.startswith("compass")}


def clear_board(state) -> None:
    """No chips, tokens or blockades on the forest (wells stay)."""
    state.cell_chip[:] = 0
    state.cell_chip[:, 0] = 1
    state.cell_item[:] = NO_ITEM
    state.cell_char[:] = NO_CHAR
    state.edited()


def place(state, p: int, where: str | int) -> None:
    c = cell(where) if isinstance(where, str) else where
    pos = list(state.pos)
    pos[p] = c
    state.pos = pos  # a native state's pos is a copy: set whole
    state.edited()  # writes the piece_at block from pos


def set_pile(state, *names: str) -> None:
    """The character pile holds exactly these cards, in this order."""
    state.pile = [char(name) for name in names]
    state.edited()  # writes the pile_size block from pile


def add_to_pile(state, *names: str) -> None:
    state.pile += [char(name) for name in names]
    state.edited()


def set_tile(state, where: str, tile: int | str, orientation: int = 0) -> None:
    c = cell(where)
    state.cell_tile[c] = tile_named(tile) if isinstance(tile, str) else tile
    state.cell_orient[c] = orientation
    state.edited()  # writes cell_turn and cell_open from the tile and its orientation


def set_chip(state, where: str, chip: int) -> None:
    state._set_chip(cell(where), chip)
    state.edited()


def set_bag(state, spec: dict[str, int]) -> None:
    """The blue bag holds exactly these tokens (tests that force a draw)."""
    state.bag_items[:] = 0
    for name, n in spec.items():
        state.bag_items[item(name)] = n
    state.edited()


def set_backpack(state, p: int, *names: str) -> None:
    state.backpack[p] = 0
    for name in names:
        state.backpack[p, item(name)] += 1
    state.edited()


def give_coins(state, p: int, copper: int = 0, silver: int = 0, apples: int = 0) -> None:
    state.copper[p] += copper
    state.supply[COPPER] -= copper
    state.silver[p] += silver
    state.supply[SILVER] -= silver
    state.apples[p] += apples
    state.supply[APPLES] -= apples
    state.edited()


def counts(names: list[str]) -> np.ndarray:
    out = np.zeros(NUM_ITEMS, np.int16)
    for name in names:
        out[item(name)] += 1
    return out
