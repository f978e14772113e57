"""A move as a person reads it in ``forest-envs play``'s list (``move_label``, the state's
hook): the action's name, and for a move to a grid cell (alms, the entertainers' swap) the
card lying there too ("alms r1c2 Dunmere"), as the board shows it."""

from __future__ import annotations

from ..actions import ALMS, ENT_PICK, cell_name
from .view import reading
from .words import place


def move_label(state, action: int, seat: int | None = None) -> str:
    """A move as a person reads it in a list: a move to a grid cell (alms, the entertainers'
    swap) also names the card there ("alms r1c2 Dunmere"), as the board shows it."""
    name = state.game.action_to_string(action)
    block = state.game.actions.block_of(action)
    if block is ALMS or block is ENT_PICK:
        cell = block.index(action)[0]
        return name.replace(cell_name(cell), place(reading(state, seat), cell), 1)
    return name
