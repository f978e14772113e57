"""What a Roundforest state dict must hold in its fields, checked by every engine's
``from_dict`` (core/state_checks.py reads the buffer, the generator, the decisions and the
turn): each piece on its backpack or a tile of this forest, one piece per tile, and a pile of
distinct character cards."""

from __future__ import annotations

import numpy as np

from ..components import NUM_CHARACTERS


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
