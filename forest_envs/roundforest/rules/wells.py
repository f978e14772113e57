"""The magic wells: items into copper, copper into silver, silver into a golden apple.

Roundforest rulebook, "Magic well": "When a player moves onto a forest tile with a well, they
may choose one of the following options" (2 items for 2 copper, 3 copper for 1 silver, 1
silver for 1 golden apple, or nothing), "only one of the actions mentioned, and only if they
have just moved onto the forest tile with the well" (a pause on a well does nothing:
``TurnRules._apply_turn``), and "It is not allowed to change money arbitrarily".
"""

from __future__ import annotations

import numpy as np

from .. import actions as A
from ..components import WELL_COPPER_IN, WELL_COPPER_OUT, WELL_ITEMS_IN
from ..observation import APPLES, COPPER, SILVER, Kind
from .phase_base import PhaseBase


class WellRules(PhaseBase):
    """The well decision and the two items given for copper (a mixin of
    ``RoundforestState``)."""

    __slots__ = ()

    def _well_options(self, p: int) -> np.ndarray:
        """Which of the three exchanges p can make now (items, copper, silver)."""
        return np.array([
            self.items_of(p) >= WELL_ITEMS_IN and self.supply[COPPER] >= WELL_COPPER_OUT,
            self.copper[p] >= WELL_COPPER_IN and self.supply[SILVER] > 0,
            self.silver[p] >= 1 and self.supply[APPLES] > 0,
        ])

    def _mask_well(self, d, mask) -> None:
        """One exchange or none ("they simply forgo it": ``well_none`` is always legal)."""
        items, copper, silver = self._well_options(d.player)
        mask[A.WELL_ITEMS.start] = items
        mask[A.WELL_COPPER.start] = copper
        mask[A.WELL_SILVER.start] = silver
        mask[A.WELL_NONE.start] = 1

    def _apply_well(self, d, a: int) -> None:
        p = d.player
        if a == A.WELL_ITEMS.start:
            self.replace(Kind.WELL_GIVE, p, WELL_ITEMS_IN)
            return
        if a == A.WELL_COPPER.start:
            self.copper[p] -= WELL_COPPER_IN
            self.supply[COPPER] += WELL_COPPER_IN
            self.supply[SILVER] -= 1
            self.silver[p] += 1
        elif a == A.WELL_SILVER.start:
            self.silver[p] -= 1
            self.supply[SILVER] += 1
            self._give_apple(p)
        self._end_action()

    def _mask_well_give(self, d, mask) -> None:
        """Which item to give up next ("Exchanged items go back into the blue bag")."""
        mask[A.ITEM.start:A.ITEM.stop] = self.backpack[d.player] > 0

    def _apply_well_give(self, d, a: int) -> None:
        left, = d.data
        p, left = d.player, left - 1
        k = a - A.ITEM.start
        self.backpack[p, k] -= 1
        self.bag_items[k] += 1
        if left:
            self.replace(Kind.WELL_GIVE, p, left)
            return
        self.supply[COPPER] -= WELL_COPPER_OUT
        self.copper[p] += WELL_COPPER_OUT
        self._end_action()
