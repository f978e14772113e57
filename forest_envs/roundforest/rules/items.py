"""Items: a drawn item kept, left or traded, an item token found on a tile, a yellow chip's
item placed elsewhere, the fairy's trades, coin tokens and the treasure chest.

Roundforest rulebook, "Blue colour chip: draw an item, then keep, trade or drop it" (a. keep,
b. leave it on the tile, c. Trade with the Fairy, the coin-token note), "Yellow colour chip:
draw an item and place it on another forest tile", "Item tokens", and "Meeting the Forest
Spirit" (the treasure chest opened with the key).

An item in a player's hand (drawn, or traded or chosen as a coin token) is the pending
decision's ``item``; the ``drawn_item`` block shows it, written only by ``_hold`` and
``_put_down``.
"""

from __future__ import annotations

import numpy as np

from .. import actions as A
from ..components import (
    BLUE,
    CHEST,
    FAIRY_COST,
    FAIRY_ROWS,
    FAIRY_SLOTS,
    KEY,
    NUM_CELLS,
    YELLOW,
)
from ..observation import APPLES, COPPER, SILVER, Kind
from .bags import NO_ITEM
from .phase_base import PhaseBase


class ItemRules(PhaseBase):
    """Drawn items, item tokens, the fairy board, coin tokens and the treasure chest (a
    mixin of ``RoundforestState``)."""

    __slots__ = ()

    # --- an item in hand ------------------------------------------------------------------------
    def _hold(self, kind: int, p: int, k: int) -> None:
        """p holds item k and decides what becomes of it (decision ``kind``, carrying k)."""
        self.drawn_item[0] = k
        self.replace(kind, p, k)

    def _put_down(self) -> None:
        """The item in hand is decided on: nobody holds one."""
        self.drawn_item[0] = NO_ITEM

    # --- the fairy board ------------------------------------------------------------------------
    def _fill_fairy_row(self, r: int) -> None:
        for s in range(FAIRY_SLOTS):
            self.fairy[r, s] = self._draw_item()

    def can_pay_fairy(self, p: int, row: int) -> bool:
        """"Top row: The player must pay 2 copper coins. Middle row: ... 1 copper coin";
        "If a player has no copper coins, they may also give the Fairy 1 silver coin"."""
        cost = FAIRY_COST[row]
        return cost == 0 or self.copper[p] >= cost or (self.copper[p] == 0 and self.silver[p] > 0)

    def _mask_trades(self, p: int, mask) -> None:
        """A fairy item is on offer if it has room in the backpack, or is a coin token the
        player can exchange at once (it then never enters the backpack)."""
        for r in range(FAIRY_ROWS):
            if not self.can_pay_fairy(p, r):
                continue
            for s in range(FAIRY_SLOTS):
                k = int(self.fairy[r, s])
                if k >= 0 and (self.fits(p, k) or self.can_exchange(k)):
                    mask[A.TRADE.start + r * FAIRY_SLOTS + s] = 1

    def _trade(self, p: int, a: int) -> None:
        """c. Trade with the Fairy. The offered token is already back in the bag; pay, take,
        slide, refill; the traded token goes into the backpack, a coin token by the player's
        choice (end of the action either way)."""
        r, s = A.TRADE.index(a)
        cost = FAIRY_COST[r]
        if cost:
            if self.copper[p] >= cost:
                self.copper[p] -= cost
                self.supply[COPPER] += cost
            else:  # silver from a player without copper: the fairy keeps the change
                self.silver[p] -= 1
                self.supply[SILVER] += 1
        k = int(self.fairy[r, s])
        self.fairy[r, s] = NO_ITEM
        removed = [int(x) for x in self.fairy[r] if x >= 0]
        for rr in range(r, 0, -1):
            self.fairy[rr] = self.fairy[rr - 1]
        self._fill_fairy_row(0)
        for x in removed:
            self.bag_items[x] += 1
        self._receive(p, k)

    def _receive(self, p: int, k: int) -> None:
        """A traded token or the Prince's choice (both with room, or an exchangeable coin
        token); a coin token may be exchanged at once or kept as an item."""
        keep, exchange = self.fits(p, k), self.can_exchange(k)
        if keep and exchange:
            self._hold(Kind.COIN_TOKEN, p, k)
            return
        if exchange:
            self._exchange(p, k)
        else:
            self._add_item(p, k)
        self._end_action()

    # --- coin_token: keep or exchange a traded coin token -----------------------------------------
    def _mask_coin_token(self, d, mask) -> None:
        """"If a drawn or traded token shows a coin, it may immediately be exchanged"."""
        mask[A.KEEP.start] = 1  # offered only when both are possible (_receive)
        mask[A.EXCHANGE.start] = 1

    def _apply_coin_token(self, d, a: int) -> None:
        item, = d.data
        p, k = d.player, item
        self._put_down()
        if a == A.EXCHANGE.start:
            self._exchange(p, k)
        else:
            self._add_item(p, k)
        self._end_action()

    # --- chest: the treasure chest opened with the key ---------------------------------------------
    def can_open_chest(self, p: int) -> bool:
        """p holds the treasure chest and the key, and the supply has the apple inside
        ("Meeting the Forest Spirit": "may open the chest with the key")."""
        bp = self.backpack[p]
        return bool(bp[CHEST] and bp[KEY] and self.supply[APPLES] > 0)

    def _mask_chest(self, d, mask) -> None:
        mask[A.OPEN_CHEST.start] = 1
        mask[A.DONE.start] = 1

    def _apply_chest(self, d, a: int) -> None:
        """"Both item tokens go back into the blue bag, and the golden apple is kept"; offered
        at the start and the end of the turn (``at_end``)."""
        at_end, = d.data
        p = d.player
        if a == A.OPEN_CHEST.start:
            self.backpack[p, CHEST] -= 1
            self.backpack[p, KEY] -= 1
            self.bag_items[CHEST] += 1
            self.bag_items[KEY] += 1
            self._give_apple(p)
        if at_end:
            self._after_chest()
        else:
            self.replace(Kind.BLOCKADE_START if self._blockade_options(p) else Kind.TURN, p)

    # --- drawn: a blue chip's item ------------------------------------------------------------------
    def _mask_drawn(self, d, mask) -> None:
        """"they may choose one of the following three options": a. keep (with room), b.
        leave it on the tile, c. trade it; a coin token may be exchanged too."""
        item, = d.data
        self._mask_item_choice(d.player, item, mask)

    def _mask_item_choice(self, p: int, k: int, mask) -> None:
        """What p may do with item token k in hand, drawn or found: keep it (with room),
        exchange a coin token, leave it on the tile, or trade it with the fairy."""
        mask[A.KEEP.start] = self.fits(p, k)
        mask[A.EXCHANGE.start] = self.can_exchange(k)
        mask[A.DROP.start] = 1
        self._mask_trades(p, mask)

    def _apply_drawn(self, d, a: int) -> None:
        item, = d.data
        p, k = d.player, item
        self._put_down()
        if a in A.TRADE:
            self.bag_items[k] += 1
            self._trade(p, a)
            return
        if a == A.KEEP.start:
            self._add_item(p, k)
        elif a == A.EXCHANGE.start:
            self._exchange(p, k)
        else:
            self.cell_item[self.pos[p]] = k
        self._end_action()

    # --- token_item: an item token found on the tile --------------------------------------------------
    def _mask_token_item(self, d, mask) -> None:
        """A token found on a tile: take it into the backpack or trade it to the fairy "as
        described above" (rulebook, "Item tokens"), which includes the coin note: a coin
        token may be exchanged at once too; or leave it."""
        cell, = d.data
        self._mask_item_choice(d.player, int(self.cell_item[cell]), mask)

    def _apply_token_item(self, d, a: int) -> None:
        cell, = d.data
        p = d.player
        k = int(self.cell_item[cell])
        if a != A.DROP.start:
            self.cell_item[cell] = NO_ITEM
            if a == A.KEEP.start:
                self._add_item(p, k)
            elif a == A.EXCHANGE.start:
                self._exchange(p, k)
            else:
                self.bag_items[k] += 1
                self._trade(p, a)
                return
        self._end_action()

    # --- yellow: a yellow chip's item goes to another tile -----------------------------------------------
    def _yellow_targets(self, p: int) -> np.ndarray:
        """"any other forest tile that has a yellow colour chip"; "If no forest tiles have
        yellow chips ... any other forest tile with a blue colour chip instead"."""
        here = self.pos[p]
        for chip in (YELLOW, BLUE):
            ok = self.cell_chip[:, chip].astype(bool).copy()
            ok[here] = False
            if ok.any():
                return ok
        return np.zeros(NUM_CELLS, bool)

    def _mask_yellow(self, d, mask) -> None:
        mask[A.TILE.start:A.TILE.stop] = self._yellow_targets(d.player)

    def _apply_yellow(self, d, a: int) -> None:
        cell = a - A.TILE.start
        self._use_chip(cell)
        item, = d.data
        self.cell_item[cell] = item
        self._put_down()
        self._end_action()
