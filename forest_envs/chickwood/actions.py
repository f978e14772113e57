"""Chickwood Forest's flat action ids (the same 280 ids for every configuration).

Opponents are named relative to the actor (+1 = the next seat in seat order), so a policy
sees the same meaning for an id whatever seat it plays.
"""

from __future__ import annotations

from ..core.actions import ActionSpace
from .components import (
    GRID_COLS,
    KIND_NAMES,
    MAX_CASTLE,
    MAX_CELLS,
    MAX_SPACES,
    NUM_KINDS,
    NUM_TREASURE_KINDS,
)

MAX_OPPONENTS = 4


def cell_name(cell: int) -> str:
    return f"r{cell // GRID_COLS + 1}c{cell % GRID_COLS + 1}"


SPACE = ActionSpace()
PLAY = SPACE.add("play", (NUM_KINDS, MAX_CASTLE),
                 lambda k, c: f"play {KIND_NAMES[k]} to castle {c + 1}")
SPY = SPACE.add("spy", MAX_CASTLE, lambda c: f"spy castle {c + 1}")
RAID = SPACE.add("raid", MAX_CASTLE, lambda c: f"raid castle {c + 1}")
KEY_USE = SPACE.add("key_use", (), lambda: "key: force another castle")
KEY_PASS = SPACE.add("key_pass", (), lambda: "key: pass")
ALMS = SPACE.add("alms", MAX_CELLS, lambda cell: f"alms {cell_name(cell)}")
ENT_PICK = SPACE.add("entertainers_pick", (MAX_CELLS, MAX_SPACES),
                     lambda cell, s: f"entertainers: alms {cell_name(cell)} space {s + 1}")
ENT_PASS = SPACE.add("entertainers_pass", (), lambda: "entertainers: pass")
ARROW_GIVE = SPACE.add("arrow_give", NUM_TREASURE_KINDS,
                       lambda k: f"golden arrow: give {KIND_NAMES[k]}")
ARROW_TAKE = SPACE.add("arrow_take", (MAX_OPPONENTS, NUM_TREASURE_KINDS),
                       lambda r, k: f"golden arrow: take {KIND_NAMES[k]} from +{r + 1}")
ARROW_PASS = SPACE.add("arrow_pass", (), lambda: "golden arrow: pass")
BEARD_GIVE = SPACE.add("beard_give", MAX_OPPONENTS, lambda r: f"fake beard: give henchman to +{r + 1}")
BEARD_PASS = SPACE.add("beard_pass", (), lambda: "fake beard: pass")
SPACE.freeze()
NUM_ACTIONS = SPACE.size
