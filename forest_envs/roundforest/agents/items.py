"""Items: a drawn item or one found on the tile kept, traded or left; a coin token
exchanged for its coin; the treasure chest opened; a yellow chip's item placed.

Money beats a coin token kept as an item; an item is traded with the fairy when a row
offers one worth clearly more than keeping it, the price counted in copper.
"""

from __future__ import annotations

from .. import actions as A
from ..components import COIN_TOKENS, COPPER_TOKEN, FAIRY_COST, cell_rc
from .params import NO_KEEP
from .seat_view import SeatView
from .valuation import item_worth


def best_trade(agent, sv: SeatView, legal: set[int], floor: float) -> int | None:
    """The fairy trade worth most, if worth more than ``floor``."""
    p = agent.p
    best, best_worth = None, floor
    for a in legal:
        if a in A.TRADE:
            row, slot = A.TRADE.index(a)
            k = sv.fairy[row][slot]
            cost = FAIRY_COST[row]  # copper
            worth = item_worth(p, sv, k) - cost * p.copper_worth
            if k in COIN_TOKENS:
                worth = (p.copper_token_worth if k == COPPER_TOKEN else p.silver_token_worth) - cost
            if worth > best_worth:
                best, best_worth = a, worth
    return best


def take_or_trade(agent, sv: SeatView, legal: set[int], k: int) -> int:
    """An item in hand (drawn, or lying on the tile): exchange a coin token (money beats
    a coin token kept as an item, worth 1), else keep it, trade it or leave it."""
    p = agent.p
    if A.EXCHANGE.start in legal:
        floor = p.exchange_copper_floor if k == COPPER_TOKEN else p.exchange_silver_floor
        trade = best_trade(agent, sv, legal, floor)
        return trade if trade is not None else A.EXCHANGE.start
    keep = item_worth(p, sv, k) if A.KEEP.start in legal else NO_KEEP
    trade = best_trade(agent, sv, legal, max(keep, p.keep_floor) + p.trade_margin)
    if trade is not None:
        return trade
    return A.KEEP.start if A.KEEP.start in legal else A.DROP.start


def choose_drawn(agent, sv: SeatView, legal: set[int]) -> int:
    return take_or_trade(agent, sv, legal, sv.data.item)


def choose_token_item(agent, sv: SeatView, legal: set[int]) -> int:
    return take_or_trade(agent, sv, legal, sv.item[sv.data.cell])


def choose_coin_token(agent, sv: SeatView, legal: set[int]) -> int:
    """A traded coin token or the Prince's: coins buy trades, wells and tasks."""
    return A.EXCHANGE.start


def choose_chest(agent, sv: SeatView, legal: set[int]) -> int:
    """A golden apple now, and two places free in the backpack."""
    return A.OPEN_CHEST.start


def choose_yellow(agent, sv: SeatView, legal: set[int]) -> int:
    """Far from my piece: the item is more likely to land where I am not in the way."""
    r0, c0 = cell_rc(sv.piece_cells[sv.seat])
    return max(legal, key=lambda a: -abs(cell_rc(a - A.TILE.start)[0] - r0)
               - abs(cell_rc(a - A.TILE.start)[1] - c0))
