"""Roundforest's flat action ids (the same ids for every configuration).

Tiles are named by cell (``A1`` .. ``F6``, rows A-F top to bottom, columns 1-6); blocks
whose meaning depends on the pending decision (``tile``, ``item``, ``bag``) say so in their
names, and the mask makes only the meaningful ones legal.
"""

from __future__ import annotations

from ..core.actions import ActionSpace
from .components import (
    CHARACTER_NAMES,
    FAIRY_ROWS,
    FAIRY_SLOTS,
    ITEM_NAMES,
    MAX_GRID,
    NUM_CELLS,
    NUM_CHARACTERS,
    NUM_ITEMS,
    cell_name,
)

ROW_NAMES = ("top", "middle", "bottom")


def gap_name(r: int, c: int) -> str:
    """The gap between the tiles of rows r, r+1 and columns c, c+1 (e.g. A1/B2)."""
    return f"{cell_name(r * MAX_GRID + c)}/{cell_name((r + 1) * MAX_GRID + c + 1)}"

SPACE = ActionSpace()
MOVE = SPACE.add("move", NUM_CELLS, lambda c: f"move to {cell_name(c)}")
COMPASS = SPACE.add("compass", NUM_CELLS, lambda c: f"compass: move to {cell_name(c)}")
PAUSE = SPACE.add("pause", (), lambda: "pause")
KEEP = SPACE.add("keep", (), lambda: "keep the item")
DROP = SPACE.add("drop", (), lambda: "leave the item on the tile")
TRADE = SPACE.add("trade", (FAIRY_ROWS, FAIRY_SLOTS),
                  lambda r, s: f"trade with the fairy: {ROW_NAMES[r]} row item {s + 1}")
TILE = SPACE.add("tile", NUM_CELLS, lambda c: f"choose tile {cell_name(c)}")
UPPER = SPACE.add("upper", (), lambda: "fulfil the upper task")
LOWER = SPACE.add("lower", (), lambda: "fulfil the lower task")
APPLE = SPACE.add("apple", (), lambda: "settle the debt with a golden apple")
DEBT = SPACE.add("debt", (), lambda: "take the debt")
USE = SPACE.add("use", (), lambda: "use the ability")
DEFER = SPACE.add("defer", (), lambda: "lay the character out")
WELL_ITEMS = SPACE.add("well_items", (), lambda: "well: 2 items for 2 copper")
WELL_COPPER = SPACE.add("well_copper", (), lambda: "well: 3 copper for 1 silver")
WELL_SILVER = SPACE.add("well_silver", (), lambda: "well: 1 silver for 1 golden apple")
WELL_NONE = SPACE.add("well_none", (), lambda: "well: no exchange")
ITEM = SPACE.add("item", NUM_ITEMS, lambda k: f"give {ITEM_NAMES[k]} from the backpack")
BAG = SPACE.add("bag", NUM_ITEMS, lambda k: f"take {ITEM_NAMES[k]}")
DONE = SPACE.add("done", (), lambda: "done")
MERCHANT_APPLE = SPACE.add("merchant_apple", (), lambda: "merchant: buy a golden apple for 1 silver")
CHARACTER = SPACE.add("character", NUM_CHARACTERS, lambda c: f"beggar: lead me to the {CHARACTER_NAMES[c]}")
GAP_SET = SPACE.add("gap_set", (MAX_GRID - 1, MAX_GRID - 1),
                    lambda r, c: f"blockade: set the heavy item at gap {gap_name(r, c)}")
GAP_TAKE = SPACE.add("gap_take", (MAX_GRID - 1, MAX_GRID - 1),
                     lambda r, c: f"blockade: remove the heavy item at gap {gap_name(r, c)}")
# Added after the blockade blocks so that every older id keeps its number.
EXCHANGE = SPACE.add("exchange", (), lambda: "exchange the coin token for a coin from the supply")
OPEN_CHEST = SPACE.add("open_chest", (), lambda: "open the treasure chest with the key")
SPACE.freeze()
NUM_ACTIONS = SPACE.size
