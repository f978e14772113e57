"""Meeting the Forest Spirit: where its token goes when this seat places it."""

from __future__ import annotations

from .. import actions as A
from .impossible import impossible
from .params import UNREACHED
from .seat_view import SeatView
from .valuation import distances


def choose_spirit_place(agent, sv: SeatView, legal: set[int]) -> int:
    """As the qualified player's neighbour: as far from that player as possible."""
    q = sv.data.qualified
    target = sv.piece_cells[q]
    if q == sv.seat:
        raise impossible(sv, legal, "the qualified player's left neighbour "
                         "places the Forest Spirit, never that player")
    # a piece still in its backpack stands on a corner cell, not a tile: no target
    dist = distances(sv, {target} if target in sv.tile_cells else set(),
                     (a - A.TILE.start for a in legal))
    return max(legal, key=lambda a: dist.get(a - A.TILE.start, UNREACHED))
