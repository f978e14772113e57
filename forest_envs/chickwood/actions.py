"""Chickwood Forest's flat action ids (the same 280 ids for every configuration).

Opponents are named relative to the actor (+1 = the next seat in seat order), so a policy
sees the same meaning for an id whatever seat it plays.
"""

from __future__ import annotations

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

PLAY = 0                                   # play kind k to castle slot c: PLAY + k*6 + c
SPY = PLAY + NUM_KINDS * MAX_CASTLE        # look at castle slot c's face-down cards
RAID = SPY + MAX_CASTLE                    # raid castle slot c
KEY_USE = RAID + MAX_CASTLE                # force the raider to choose another castle
KEY_PASS = KEY_USE + 1
ALMS = KEY_PASS + 1                        # give one alms to grid cell (row*3 + col)
ENT_PICK = ALMS + MAX_CELLS                # entertainers: pick the alms at cell, space
ENT_PASS = ENT_PICK + MAX_CELLS * MAX_SPACES
ARROW_GIVE = ENT_PASS + 1                  # golden arrow: hand over own treasure kind k
ARROW_TAKE = ARROW_GIVE + NUM_TREASURE_KINDS  # + (r-1)*11 + k: take kind k from opponent +r
ARROW_PASS = ARROW_TAKE + MAX_OPPONENTS * NUM_TREASURE_KINDS
BEARD_GIVE = ARROW_PASS + 1                # fake beard: give a henchman to opponent +r
BEARD_PASS = BEARD_GIVE + MAX_OPPONENTS
NUM_ACTIONS = BEARD_PASS + 1


def play_action(kind: int, castle_value: int) -> int:
    return PLAY + kind * MAX_CASTLE + castle_value - 1


def cell_name(cell: int) -> str:
    return f"r{cell // GRID_COLS + 1}c{cell % GRID_COLS + 1}"


def action_names() -> list[str]:
    names = []
    for k in range(NUM_KINDS):
        names += [f"play {KIND_NAMES[k]} to castle {c + 1}" for c in range(MAX_CASTLE)]
    names += [f"spy castle {c + 1}" for c in range(MAX_CASTLE)]
    names += [f"raid castle {c + 1}" for c in range(MAX_CASTLE)]
    names += ["key: force another castle", "key: pass"]
    names += [f"alms {cell_name(c)}" for c in range(MAX_CELLS)]
    names += [f"entertainers: alms {cell_name(c)} space {s + 1}"
              for c in range(MAX_CELLS) for s in range(MAX_SPACES)]
    names += ["entertainers: pass"]
    names += [f"golden arrow: give {KIND_NAMES[k]}" for k in range(NUM_TREASURE_KINDS)]
    names += [f"golden arrow: take {KIND_NAMES[k]} from +{r}"
              for r in range(1, MAX_OPPONENTS + 1) for k in range(NUM_TREASURE_KINDS)]
    names += ["golden arrow: pass"]
    names += [f"fake beard: give henchman to +{r}" for r in range(1, MAX_OPPONENTS + 1)]
    names += ["fake beard: pass"]
    assert len(names) == NUM_ACTIONS
    return names
