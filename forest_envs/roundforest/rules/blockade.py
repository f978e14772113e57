"""The optional blockade rule (game option ``blockade``): a heavy item set in a gap between
tiles stops the tiles around it from turning.

Roundforest rulebook, "Setting and removing a blockade (optional!)": "a token showing a
heavy item is taken from the backpack and placed in a free space between the forest tiles.
All adjacent forest tiles are then blocked and cannot be rotated until the heavy item is
removed again. A blockade may be set or removed only once per turn, either at the beginning
or at the end of the turn", and "only 1 heavy item may be in the backpack at any time".

A gap's heavy item lives in ``gap_item``; ``cell_blocked`` (blockades next to each tile) is
its observation, written only by ``_set_gap``.
"""

from __future__ import annotations

import numpy as np

from .. import actions as A
from ..components import BACKPACK_HEAVY, BACKPACK_ITEMS, HEAVY_KINDS
from ..observation import Kind
from .bags import NO_ITEM
from .phase_base import PhaseBase


class BlockadeRules(PhaseBase):
    """Setting and removing blockades, at a turn's start or end (a mixin of
    ``RoundforestState``)."""

    __slots__ = ()

    def _blockade_options(self, p: int) -> bool:
        """Whether p may still set or remove a blockade this turn."""
        if not self.game.blockade or self.blockade_used[0]:  # game.blockade: a Python bool
            return False
        setting, taking = self._blockade_gaps(p)
        return bool(setting.any() or taking.any())

    def _blockade_gaps(self, p: int) -> tuple[np.ndarray, np.ndarray]:
        """Gaps where p may set a blockade (p carries a heavy item: an empty gap) and gaps
        whose blockade p may take (room in the backpack and no heavy item yet)."""
        usable, empty = self.game.gap_usable, self.gap_item < 0
        heavy = self.heavy_of(p)
        room = heavy < BACKPACK_HEAVY and self.items_of(p) < BACKPACK_ITEMS
        none = np.zeros_like(usable)
        return (usable & empty if heavy > 0 else none), (usable & ~empty if room else none)

    def _set_gap(self, g: int, k: int) -> None:
        """Gap g now holds item k (NO_ITEM: none); the tiles around it show the change."""
        step = int(k >= 0) - int(self.gap_item[g] >= 0)
        self.gap_item[g] = k
        for cell in self.game.gap_cells[g]:
            self.cell_blocked[cell] += step

    def _mask_blockade(self, p: int, mask) -> None:
        setting, taking = self._blockade_gaps(p)
        mask[A.GAP_SET.start:A.GAP_SET.stop] = setting
        mask[A.GAP_TAKE.start:A.GAP_TAKE.stop] = taking
        mask[A.DONE.start] = 1

    def _mask_blockade_start(self, d, mask) -> None:
        """"either at the beginning ..." (``done``: none this time)."""
        self._mask_blockade(d.player, mask)

    def _mask_blockade_end(self, d, mask) -> None:
        """"... or at the end of the turn"."""
        self._mask_blockade(d.player, mask)

    def _blockade_act(self, p: int, a: int) -> None:
        if a in A.GAP_SET:
            k = HEAVY_KINDS.start + int(np.flatnonzero(self.backpack[p, HEAVY_KINDS])[0])
            self.backpack[p, k] -= 1
            self._set_gap(a - A.GAP_SET.start, k)
            self.blockade_used[0] = 1
        elif a in A.GAP_TAKE:
            g = a - A.GAP_TAKE.start
            self.backpack[p, int(self.gap_item[g])] += 1
            self._set_gap(g, NO_ITEM)
            self.blockade_used[0] = 1

    def _apply_blockade_start(self, d, a: int) -> None:
        self._blockade_act(d.player, a)
        self.replace(Kind.TURN, d.player)

    def _apply_blockade_end(self, d, a: int) -> None:
        self._blockade_act(d.player, a)
        self._next_player()
