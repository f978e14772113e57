"""Meeting the Forest Spirit: where its token goes when this seat places it."""

from __future__ import annotations

from typing import Any

from .. import actions as A
from ..text.reading import SeatReading
from .impossible import impossible
from .params import UNREACHED
from .valuation import distances


def choose_spirit_place(agent, reading: SeatReading, legal: set[int]) -> int:
    """As the qualified player's neighbour: as far from that player as possible."""
    data: Any = reading.data  # its kind's record: a namedtuple built at run time (core/decisions.py)
    q = data.qualified
    target = reading.piece_cells[q]
    if q == reading.seat:
        raise impossible(reading, legal, "the qualified player's left neighbour "
                         "places the Forest Spirit, never that player")
    # a piece still in its backpack stands on a corner cell, not a tile: no target
    dist = distances(reading, {target} if target in reading.tile_cells else set(),
                     (a - A.TILE.start for a in legal))
    return max(legal, key=lambda a: dist.get(a - A.TILE.start, UNREACHED))
