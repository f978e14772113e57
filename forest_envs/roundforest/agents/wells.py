"""The magic well: silver into an apple first, then copper into silver; two items into
copper only when they are worth little or the backpack is full."""

from __future__ import annotations

from .. import actions as A
from ..components import BACKPACK_ITEMS
from .seat_view import SeatView
from .valuation import cheapest_item, item_worth


def choose_well(agent, sv: SeatView, legal: set[int]) -> int:
    for a in (A.WELL_SILVER.start, A.WELL_COPPER.start):
        if a in legal:
            return a
    if A.WELL_ITEMS.start in legal:
        spare = sorted(item_worth(agent.p, sv, k) for k, n in enumerate(sv.backpack)
                       for _ in range(n))
        if spare[0] + spare[1] <= agent.p.well_items_max_worth or sum(sv.backpack) >= BACKPACK_ITEMS:
            return A.WELL_ITEMS.start
    return A.WELL_NONE.start


def choose_well_give(agent, sv: SeatView, legal: set[int]) -> int:
    return cheapest_item(agent.p, sv, legal)
