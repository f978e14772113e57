"""The Forest Spirit's appearance, the end of the game and the result.

Roundforest rulebook, "Goal" and "Meeting the Forest Spirit" (the two conditions: no debts
and 3 golden apples; "the player to the left of the player who fulfils all conditions ...
places it on any forest tile with a red colour chip", else "on a forest tile with a blue
colour chip"), "End of the Game" ("The player receives the Emerald Ring from the Forest
Spirit in exchange for the 3 golden apples and wins the game"). The rulebook ranks only the
winner; the order of the others (``progress``) is the engine's own (docs/roundforest.md).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ...core.results import competition_ranks
from .. import actions as A
from ..components import APPLES_TO_WIN, BLUE, NO_CHIP, RED, SPIRIT, WELL_COPPER_IN
from ..observation import APPLES

# In the ranking of the players without the ring a silver coin counts as much copper as a
# well asks for it.
SILVER_IN_COPPER = WELL_COPPER_IN


class Progress(NamedTuple):
    """How far a player has come: the result's ``breakdown`` entry of one seat."""

    winner: bool
    apples: int
    debts: int
    coins: int   # copper, a silver coin counted as SILVER_IN_COPPER
    item_count: int  # not "items": a dict method (Tianshou's Batch refuses such a key)

    def rank_key(self) -> tuple:
        """Higher is better: the winner, then more apples, fewer debts, more coins, more
        items."""
        return (self.winner, self.apples, -self.debts, self.coins, self.item_count)


def _progress(winner, apples, owed: list, copper, silver, items: list) -> Progress:
    """One seat's ``Progress`` from its entries of the blocks (``owed``, ``items``: its rows)."""
    return Progress(winner=bool(winner), apples=int(apples), debts=sum(owed),
                    coins=int(copper) + SILVER_IN_COPPER * int(silver), item_count=sum(items))


class EndingRules:
    """The Forest Spirit's token, the winner and the ranks (a mixin of
    ``RoundforestState``)."""

    __slots__ = ()

    def qualified(self, p: int) -> bool:
        """"they must no longer be in debt to any character, and they must have collected 3
        golden apples"."""
        return bool(self.apples[p] >= APPLES_TO_WIN and not self.debts[p].any())

    def spirit_on_forest(self) -> bool:
        return bool((self.cell_char == SPIRIT).any())

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

    @property
    def winner_seat(self) -> int:
        """The seat that won (-1: nobody yet)."""
        seats = np.flatnonzero(self.winner)
        return int(seats[0]) if seats.size else -1

    def progress_all(self) -> list[Progress]:
        """Every seat's ``progress``, each block read once as Python lists and summed in
        Python (the view shows them at every decision; on blocks this small a numpy
        reduction costs more than the sums)."""
        return [_progress(*rows) for rows in zip(
            self.winner.tolist(), self.apples.tolist(), self.debts.tolist(),
            self.copper.tolist(), self.silver.tolist(), self.backpack.tolist())]

    def progress(self, p: int) -> Progress:
        """Seat ``p``'s ``progress``, from its own rows only (shaping asks it at every step)."""
        return _progress(self.winner[p], self.apples[p], self.debts[p].tolist(),
                         self.copper[p], self.silver[p], self.backpack[p].tolist())

    def potential(self, p: int) -> float:
        """How far ``p`` has come toward the ring, for reward shaping in training: golden apples
        plus the coins that buy them at wells (a silver coin, or 3 copper, per apple; counted at
        half, as they still need a well), at most the 3 apples the ring asks for, less half an
        apple per debt, divided by 3 (a qualified player stands at 1). The engine's own reading:
        the rulebook has no points."""
        now = self.progress(p)
        toward = min(APPLES_TO_WIN, now.apples + 0.5 * now.coins / SILVER_IN_COPPER)
        return (toward - 0.5 * now.debts) / APPLES_TO_WIN

    def breakdown(self) -> list[dict]:
        return [now._asdict() for now in self.progress_all()]

    def ranks(self) -> list[int]:
        return competition_ranks([now.rank_key() for now in self.progress_all()])
