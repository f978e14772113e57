"""What a Roundforest state dict must hold, checked by every engine's ``from_dict``
(core/state_checks.py reads the buffer, the generator, the decisions and the turn): each piece
on its backpack or a tile of this forest, one piece per tile, a pile of distinct character
cards, a tile on every cell of this forest, what the pending decisions read of the board.

Unlike Chickwood's cards, nothing here is checked to add up: a built position (a puzzle, a
test) may leave pieces out of the game (an empty forest, a bag holding only what a draw
needs), and the rules read no total (each bag is drawn from by its own counts, an empty one
draws nothing), so such a position plays; every index the rules take is checked above and
again by the native engine.
"""

from __future__ import annotations

import numpy as np

from ..components import NUM_CHARACTERS
from ..observation import Kind


def _refuse(field: str, why: str) -> ValueError:
    return ValueError(f"state dict: '{field}' {why}")


def _ints(value, field: str) -> list[int]:
    if not isinstance(value, list) or any(
            isinstance(v, bool) or not isinstance(v, (int, np.integer)) for v in value):
        raise _refuse(field, f"must be a list of ints, not {value!r}")
    return [int(v) for v in value]


def check_fields(game, loaded) -> None:
    """``pos`` and ``pile`` within what the rules can hold for ``game``'s configuration
    (``loaded``: core/state_checks.LoadedState)."""
    fields = loaded.fields
    n = game.num_players
    pos = _ints(fields["pos"], "pos")
    if len(pos) != n:
        raise _refuse("pos", f"must hold one cell per seat ({n}), not {pos!r}")
    for p, cell in enumerate(pos):
        if cell != game.corner[p] and cell not in game.tile_cells:
            raise _refuse("pos", f"puts seat {p}'s piece on cell {cell}: neither its backpack nor a tile")
    on_tiles = [c for c in pos if c in game.tile_cells]
    if len(set(on_tiles)) != len(on_tiles):
        raise _refuse("pos", f"puts two pieces on one tile: {pos!r}")
    pile = _ints(fields["pile"], "pile")
    if len(set(pile)) != len(pile) or not all(0 <= c < NUM_CHARACTERS for c in pile):
        raise _refuse("pile", f"must hold distinct character cards 0..{NUM_CHARACTERS - 1}, not {pile!r}")
    blocks = game.layout.views(loaded.buf)
    cell_tile = blocks["cell_tile"]
    for cell in game.tile_cells:
        if cell_tile[cell] < 0:
            raise ValueError(f"state dict: cell {cell} of this forest has no tile ('cell_tile' -1)")
    # what a pending decision reads of the board: the item token it is about
    cell_item = blocks["cell_item"]
    for kind, player, data in loaded.decisions:
        if kind == Kind.TOKEN_ITEM and cell_item[data[0]] < 0:
            raise ValueError(f"state dict: seat {player}'s token_item decision names cell {data[0]}, "
                             f"which holds no item token")

