"""Roundforest's state buffer layout, which is also its observation layout.

The standard decision blocks come first (core), then these blocks in observation order.
Cells are the 36 ids of a 6 x 6 frame (``components.cell_id``); a 2-player forest leaves
the cells of its sixth row and column empty (``cell_tile`` -1). Values that are ids
(tiles, item kinds, characters) are stored as ints with -1 for "none", as the rules read
them, and observed one-hot (``onehot``: all zeros for "none"; a tile by its design, the one
thing its id says that ``cell_turn`` and ``cell_open`` do not); whatever involves a seat is
one-hot on a seat axis, rotated so the observer comes first. docs/roundforest.md describes
each block.
"""

from __future__ import annotations

from enum import IntEnum

from ..core.cells import CellSpec
from ..core.decisions import DecisionKind, check_kind_ids
from ..core.layout import Layout
from .actions import COMPASS, MOVE, TILE
from .components import (
    APPLE_SUPPLY,
    BACKPACK_ITEMS,
    CHIPS,
    COMPASSES_EACH,
    COPPER_SUPPLY,
    FAIRY_ROWS,
    FAIRY_SLOTS,
    HEAVY_KINDS,
    ITEM_COUNTS,
    MAX_GRID,
    MERCHANT_MAX_SALES,
    NEAR_SCALE,
    NUM_CELLS,
    NUM_CHARACTERS,
    NUM_ITEMS,
    NUM_TILES,
    ROUND_CAP,
    SILVER_SUPPLY,
    TILES,
)

# The decisions of Roundforest, in the order of the ``decision_kind`` block.
DECISIONS = (
    DecisionKind("turn"),                                            # move / compass / pause
    DecisionKind("blockade_start"),                                  # set / remove / done
    DecisionKind("blockade_end"),
    DecisionKind("drawn", ints=(("item", NUM_ITEMS - 1),)),          # blue chip: keep / exchange / drop / trade
    DecisionKind("token_item", ints=(("cell", NUM_CELLS - 1),)),     # item token: keep / trade / leave
    DecisionKind("yellow", ints=(("item", NUM_ITEMS - 1),)),         # where the yellow item goes
    DecisionKind("character", ints=(("beggar", 1),)),                # the hidden drawn card
    DecisionKind("meet", ints=(("character", NUM_CHARACTERS - 1), ("cell", NUM_CELLS - 1))),
    DecisionKind("well"),
    DecisionKind("well_give", ints=(("left", 2),)),
    DecisionKind("merchant", ints=(("sold", MERCHANT_MAX_SALES),)),
    DecisionKind("prince"),
    DecisionKind("goblin_give"),                                     # first the item given ...
    DecisionKind("goblin_take", ints=(("given", NUM_ITEMS - 1),)),   # ... then the one chosen
    DecisionKind("beggar"),
    DecisionKind("unicorn"),
    DecisionKind("saddle", ints=(("cell", NUM_CELLS - 1),)),
    DecisionKind("spirit_place", seats=("qualified",)),
    DecisionKind("coin_token", ints=(("item", NUM_ITEMS - 1),)),     # a traded/Prince coin token
    DecisionKind("chest", ints=(("at_end", 1),)),                    # open the chest? (turn start/end)
)


class Kind(IntEnum):
    """Each decision kind by name: ``Kind.X`` is the index in ``DECISIONS`` (and in the
    ``decision_kind`` block) of the kind named ``x``; checked against ``DECISIONS`` below
    (the naming every game uses). A pending decision holds its kind as a plain int."""

    TURN = 0
    BLOCKADE_START = 1
    BLOCKADE_END = 2
    DRAWN = 3
    TOKEN_ITEM = 4
    YELLOW = 5
    CHARACTER = 6
    MEET = 7
    WELL = 8
    WELL_GIVE = 9
    MERCHANT = 10
    PRINCE = 11
    GOBLIN_GIVE = 12
    GOBLIN_TAKE = 13
    BEGGAR = 14
    UNICORN = 15
    SADDLE = 16
    SPIRIT_PLACE = 17
    COIN_TOKEN = 18
    CHEST = 19


check_kind_ids(Kind, DECISIONS)
# A view names the pending decision's kind (``"kind": "turn"``): words and agents key by Kind.
KIND_OF_NAME = {spec.name: Kind(i) for i, spec in enumerate(DECISIONS)}

GAPS = (MAX_GRID - 1) * (MAX_GRID - 1)
# A tile is observed by its design: the octagons it prints (its class: the designs in order
# of first appearance, 7 plain and the well's). Tiles of one design differ only in their
# arrows, which ``cell_turn`` shows, so a one-hot of the 32 tile ids would add 24 classes
# that no rule tells apart.
_PRINTED = tuple((t.inner, t.outer) for t in TILES)
TILE_DESIGN = tuple(tuple(dict.fromkeys(_PRINTED)).index(p) for p in _PRINTED)
# The entries of the ``supply`` block.
COPPER, SILVER, APPLES = 0, 1, 2


def build_layout(L: Layout) -> None:
    n = L.num_players
    most_items = max(ITEM_COUNTS)
    # --- configuration
    L.add("players_onehot", 3, high=1)                        # 2, 3, 4 players
    L.add("no_silver", 1, high=1)
    L.add("blockade_rule", 1, high=1)
    # --- the forest (public)
    L.add("cell_tile", NUM_CELLS, low=-1, high=NUM_TILES - 1, onehot=TILE_DESIGN)  # -1: no tile
    L.add("cell_well", NUM_CELLS, high=1)
    L.add("cell_turn", NUM_CELLS, low=-1, high=1)             # +1 clockwise, -1 counter-clockwise
    L.add("cell_orient", NUM_CELLS, high=3, scale=1 / 3)      # quarter turns clockwise from printed
    L.add("cell_open", (NUM_CELLS, 4, 2), high=1)             # now: side N/E/S/W x inner/outer filled
    L.add("cell_blocked", NUM_CELLS, high=4)                  # blockades next to the tile
    L.add("cell_chip", (NUM_CELLS, 4), high=1)                # one-hot none / blue / yellow / red
    L.add("cell_item", NUM_CELLS, low=-1, high=NUM_ITEMS - 1, onehot=True)
    L.add("cell_char", NUM_CELLS, low=-1, high=NUM_CHARACTERS - 1, onehot=True)
    L.add("gap_item", GAPS, low=-1, high=HEAVY_KINDS.stop - 1, onehot=True)  # blockades: heavy items
    L.add("piece_at", (n, NUM_CELLS), high=1, seats=0)        # a corner cell = still in the backpack
    # 1 / (1 + moves) between tiles, written from the blocks above at each observation
    # (rules/distances.py): to the nearest well, the Spirit, a character owed; from a piece
    L.add("near_well", NUM_CELLS, high=NEAR_SCALE, scale=1 / NEAR_SCALE)
    L.add("near_spirit", NUM_CELLS, high=NEAR_SCALE, scale=1 / NEAR_SCALE)
    L.add("near_debt", (n, NUM_CELLS), high=NEAR_SCALE, seats=0, scale=1 / NEAR_SCALE)
    L.add("near_piece", (n, NUM_CELLS), high=NEAR_SCALE, seats=0, scale=1 / NEAR_SCALE)
    # --- the table (public)
    L.add("fairy", (FAIRY_ROWS, FAIRY_SLOTS), low=-1, high=NUM_ITEMS - 1, onehot=True)
    L.add("bag_items", NUM_ITEMS, high=most_items)             # blue bag (known from all else)
    L.add("drawn_item", 1, low=-1, high=NUM_ITEMS - 1, onehot=True)  # item in the drawer's hand
    L.add("black_bag", 3, high=max(CHIPS.values()), scale=0.1)
    L.add("used_chips", 3, high=max(CHIPS.values()), scale=0.1)
    L.add("supply", 3, high=COPPER_SUPPLY, scale=0.1)          # COPPER, SILVER, APPLES
    L.add("pile_size", 1, high=NUM_CHARACTERS)
    L.add("laid_out", NUM_CHARACTERS, high=1)                  # helpers beside the fairy board
    L.add("blockade_used", 1, high=1)                          # this turn's blockade action is done
    L.add("round_no", 1, high=ROUND_CAP, scale=0.01)
    # --- the players (public, seat axis rotated)
    L.add("backpack", (n, NUM_ITEMS), high=BACKPACK_ITEMS, seats=0)
    L.add("copper", n, high=COPPER_SUPPLY, seats=0, scale=0.25)
    L.add("silver", n, high=SILVER_SUPPLY, seats=0, scale=0.5)
    L.add("apples", n, high=APPLE_SUPPLY, seats=0)
    L.add("compasses", n, high=COMPASSES_EACH, seats=0)
    L.add("debts", (n, NUM_CHARACTERS), high=1, seats=0)
    L.add("winner", n, high=1, seats=0)
    # --- seen by its owner only
    L.add("drawn_card", (n, NUM_CHARACTERS), high=1, see="owner")  # card drawn face down
    L.add("prince_items", (n, NUM_ITEMS), high=3, see="owner")     # the Prince's three draws


# The blocks about one tile, each with its cell axis as observed (a seat axis comes first in
# piece_at and the near_* blocks of seats), and the actions that name a tile: a policy may
# read every tile with the same weights (core/cells.py).
CELLS = CellSpec(NUM_CELLS, blocks=(
    ("cell_tile", 0), ("cell_well", 0), ("cell_turn", 0), ("cell_orient", 0), ("cell_open", 0),
    ("cell_blocked", 0), ("cell_chip", 0), ("cell_item", 0), ("cell_char", 0), ("piece_at", 1),
    ("near_well", 0), ("near_spirit", 0), ("near_debt", 1), ("near_piece", 1),
), actions=(MOVE, COMPASS, TILE))


def block_names() -> tuple[str, ...]:
    layout = Layout(2)
    build_layout(layout)
    return tuple(layout.blocks)

