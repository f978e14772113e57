"""The Forest Spirit's appearance, the end of the game and the result.

Roundforest rulebook, "Goal" and "Meeting the Forest Spirit" (the two conditions: no debts
and 3 golden apples; "the player to the left of the player who fulfils all conditions ...
places it on any forest tile with a red colour chip", else "on a forest tile with a blue
colour chip"), "End of the Game" ("The player receives the Emerald Ring from the Forest
Spirit in exchange for the 3 golden apples and wins the game"). The Goal's two conditions
(``qualified``) and the result (the winner, each seat's progress, the ranks: the rulebook
ranks only the winner, the order of the others is the engine's own, docs/roundforest.md)
only read the state: they are in ``facts``.
"""

from __future__ import annotations

import numpy as np

from .. import actions as A
from ..components import APPLES_TO_WIN, BLUE, NO_CHIP, RED, SPIRIT
from ..observation import APPLES
from .phase_base import PhaseBase


class EndingRules(PhaseBase):
    """The Forest Spirit's token and the winner (a mixin of ``RoundforestState``)."""

    __slots__ = ()

    # --- spirit_place: the Forest Spirit appears ----------------------------------------------------
    def _spirit_cells(self) -> np.ndarray:
        """Tiles the Forest Spirit may be placed on: "any forest tile with a red colour
        chip", else one with a blue chip (a piece standing there does not matter: only the
        Unicorn leaves a piece on a chip). With neither on the forest the rulebook is silent;
        the project's reading (docs/roundforest.md): any tile with a chip (yellow, then,
        the colour left), else any tile without a piece or token. A well is left out of that
        last case, the engine's own rule: a well's exchange is what a tile with a well does
        when a piece arrives (``_arrive``), so a token there could not be met, and no chip or
        token ever lies on a well otherwise. A tile with a chip never holds a token (a token
        laid on a chip's tile takes the chip's place)."""
        chips = self.cell_chip
        for chip in (RED, BLUE):
            ok = chips[:, chip].astype(bool)
            if ok.any():
                return ok
        ok = chips[:, NO_CHIP] == 0       # a chip of any colour (only yellow can be left)
        ok &= self.game.is_tile
        if ok.any():
            return ok
        free = self.game.is_tile & (self.cell_item < 0) & (self.cell_char < 0) & (self.cell_well == 0)
        free[self.pos] = False
        return free

    def _mask_spirit_place(self, d, mask) -> None:
        mask[A.TILE.start:A.TILE.stop] = self._spirit_cells()

    def _apply_spirit_place(self, d, a: int) -> None:
        """"That colour chip is placed on the side beside the playing area"."""
        cell = a - A.TILE.start
        self._use_chip(cell)
        self.cell_char[cell] = SPIRIT
        self._end_action()

    # --- the end -------------------------------------------------------------------------------------
    def _win(self, p: int) -> None:
        """The Emerald Ring for 3 golden apples: the game ends."""
        self.apples[p] -= APPLES_TO_WIN
        self.supply[APPLES] += APPLES_TO_WIN
        self.winner[p] = 1
        self.end_game()
