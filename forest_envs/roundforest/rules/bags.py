"""The bags and what comes out of them: colour chips from the black bag, item tokens from
the blue bag into the backpacks, and coins and golden apples from the supply.

Roundforest rulebook, "Setup" (one chip on each tile without a well, every item token in the
blue bag), "Blue colour chip: draw an item, then keep, trade or drop it" (a backpack's room:
"at most 3 items, of which at most one may be heavy"; a coin token "may immediately be
exchanged for the corresponding coin from the supply"), "Red colour chip: draw a character
card" (the used chips return to the black bag "only when all colour chips have been used
up"). Every draw is made at the moment of drawing, from the state's own generator. What
lies on a tile and what a backpack holds or has room for only read the state: they are in
``facts``.
"""

from __future__ import annotations

import numpy as np

from ..components import BLUE, COPPER_TOKEN, NUM_ITEMS, RED, YELLOW
from ..observation import APPLES, COPPER, SILVER
from .phase_base import PhaseBase

NO_ITEM = -1  # cell_item, gap_item, fairy, drawn_item: no token
NO_CHAR = -1  # cell_char: no character token
CHIP_ORDER = (BLUE, YELLOW, RED)  # index order of black_bag / used_chips


class BagRules(PhaseBase):
    """Chips, bags, backpacks and the supply (a mixin of ``RoundforestState``)."""

    __slots__ = ()

    # --- colour chips (black bag) ---------------------------------------------------------------
    def _set_chip(self, cell: int, chip: int) -> None:
        self.cell_chip[cell] = 0
        self.cell_chip[cell, chip] = 1

    def _use_chip(self, cell: int) -> None:
        """A chip leaves its tile for the pile beside the playing area."""
        chip = self.chip(cell)
        if chip:
            self.used_chips[CHIP_ORDER.index(chip)] += 1
            self._set_chip(cell, 0)

    def _draw_counted(self, bag: np.ndarray) -> int:
        """One token at random from a bag held as counts by kind (each token equally likely),
        taken out of ``bag``; its kind, or -1 when the bag is empty (no draw made)."""
        counts = bag.tolist()
        total = sum(counts)
        if total == 0:
            return -1
        r = int(self.rng.integers(total))
        k = 0
        while r >= counts[k]:
            r -= counts[k]
            k += 1
        bag[k] -= 1
        return k

    def _draw_chip(self) -> int:
        """A random chip from the black bag; the used chips go back in only when it is empty
        (Roundforest rulebook, "Red colour chip: draw a character card", last sentence)."""
        if self.black_bag.sum() == 0:
            self.black_bag += self.used_chips
            self.used_chips[:] = 0
        i = self._draw_counted(self.black_bag)
        return 0 if i < 0 else CHIP_ORDER[i]

    # --- item tokens (blue bag) ----------------------------------------------------------------
    def _draw_item(self) -> int:
        """A random item token from the blue bag (NO_ITEM when it is empty)."""
        k = self._draw_counted(self.bag_items)
        return NO_ITEM if k < 0 else k

    def _peek_items(self, rng: np.random.Generator, count: int) -> np.ndarray:
        """Counts by kind of up to ``count`` tokens drawn at random from the bag without
        taking them out of ``bag_items``."""
        bag = self.bag_items.astype(np.int64)
        out = np.zeros(NUM_ITEMS, np.int16)
        for _ in range(min(count, int(bag.sum()))):
            k = int(np.searchsorted(np.cumsum(bag), int(rng.integers(int(bag.sum()))), side="right"))
            bag[k] -= 1
            out[k] += 1
        return out

    # --- backpacks -------------------------------------------------------------------------------
    def _add_item(self, p: int, k: int) -> None:
        self.backpack[p, k] += 1

    # --- coins and golden apples (the supply) ----------------------------------------------------
    def _exchange(self, p: int, k: int) -> None:
        """Coin token k for its coin from the supply; the token goes back into the bag."""
        which = COPPER if k == COPPER_TOKEN else SILVER
        self.supply[which] -= 1
        (self.copper if which == COPPER else self.silver)[p] += 1
        self.bag_items[k] += 1

    def _give_apple(self, p: int) -> None:
        """A golden apple from the supply, if one is left."""
        if self.supply[APPLES] > 0:
            self.supply[APPLES] -= 1
            self.apples[p] += 1
