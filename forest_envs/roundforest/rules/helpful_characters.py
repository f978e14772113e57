"""The helpful characters' abilities: the Prince, the Merchant, the Goblin, the Beggar, the
Unicorn (with the saddle) and the Forest Spirit met on its token.

Roundforest rulebook, "Helpful characters": each paragraph names its character ("The
Prince rewards the courage ...", "The Merchant offers a tempting deal ...", "The Goblin
finds the object of the player's desire", "The Beggar travels far and knows everyone", "The
Unicorn finds its way through the Roundforest", "The Forest Spirit possesses the legendary
Emerald Ring"); "Red colour chip: draw a character card" says when an ability is used (at
once, or later by whoever meets the token).
"""

from __future__ import annotations

import numpy as np

from .. import actions as A
from ..components import (
    BACKPACK_HEAVY,
    BACKPACK_ITEMS,
    BEGGAR,
    BEGGAR_FEE,
    COIN_TOKENS,
    GOBLIN,
    IS_HEAVY,
    MERCHANT,
    MERCHANT_MAX_SALES,
    NUM_ITEMS,
    PRINCE,
    PRINCE_DRAWS,
    SADDLE,
    SPIRIT,
    UNICORN,
)
from ..observation import APPLES, COPPER, SILVER, Kind
from .phase_base import PhaseBase


class HelpfulCharacterRules(PhaseBase):
    """The six helpers' abilities (a mixin of ``RoundforestState``)."""

    __slots__ = ()

    def _can_use(self, p: int, c: int) -> bool:
        """Whether helper c's ability can do anything for p now (else its token bars p)."""
        if c == PRINCE:
            return self.items_of(p) < BACKPACK_ITEMS and self.bag_items.sum() > 0
        if c == MERCHANT:
            return bool((self.items_of(p) > 0 and self.supply[COPPER] > 0)
                        or (self.silver[p] > 0 and self.supply[APPLES] > 0))
        if c == GOBLIN:
            return bool(self._goblin_pairs(p))
        if c == BEGGAR:
            return self.copper[p] >= BEGGAR_FEE and any(x != BEGGAR for x in self.pile)
        if c == UNICORN:
            return bool(self._unicorn_cells(p).any())
        if c == SPIRIT:
            return self.qualified(p)
        return False

    def _start_ability(self, p: int, c: int) -> None:
        """Helper c's ability begins (its card is already back in the pile)."""
        if c == SPIRIT:
            self._win(p)
        elif c == PRINCE:
            # The three tokens are looked at in secret; until one is chosen they count as
            # still in the bag, so the public bag count reveals nothing of them.
            self.prince_items[p] = self._peek_items(self.rng, PRINCE_DRAWS)
            if any(self.fits(p, k) for k in np.flatnonzero(self.prince_items[p]).tolist()):
                self.replace(Kind.PRINCE, p)
            else:
                self.prince_items[p] = 0
                self._end_action()
        elif c == MERCHANT:
            self.replace(Kind.MERCHANT, p, 0)
        elif c == GOBLIN:
            self.replace(Kind.GOBLIN_GIVE, p)
        elif c == BEGGAR:
            self.copper[p] -= BEGGAR_FEE
            self.supply[COPPER] += BEGGAR_FEE
            self.replace(Kind.BEGGAR, p)
        elif c == UNICORN:
            self.replace(Kind.UNICORN, p)

    # --- the Prince -------------------------------------------------------------------------------
    def _mask_prince(self, d, mask) -> None:
        """"draw three items from the blue bag, choose one of them" (one that fits); "This
        ability may only be used if there is still enough room in the backpack"."""
        p = d.player
        for k in np.flatnonzero(self.prince_items[p]).tolist():
            mask[A.BAG.start + k] = self.fits(p, k)

    def _apply_prince(self, d, a: int) -> None:
        """"The other two items go back into the bag"; a coin token may be exchanged."""
        p, k = d.player, a - A.BAG.start
        self.prince_items[p] = 0
        self.bag_items[k] -= 1
        self._receive(p, k)

    # --- the Merchant -----------------------------------------------------------------------------
    def _mask_merchant(self, d, mask) -> None:
        """"he buys up to 3 items from the player for one copper coin each" or sells "a
        golden apple for one silver coin"; "one of the two offers, but never ... both"."""
        sold, = d.data
        p = d.player
        if sold < MERCHANT_MAX_SALES and self.supply[COPPER] > 0:
            mask[A.ITEM.start:A.ITEM.stop] = self.backpack[p] > 0
        if sold == 0 and self.silver[p] > 0 and self.supply[APPLES] > 0:
            mask[A.MERCHANT_APPLE.start] = 1
        if sold > 0:
            mask[A.DONE.start] = 1

    def _apply_merchant(self, d, a: int) -> None:
        sold, = d.data
        p = d.player
        if a == A.MERCHANT_APPLE.start:
            self.silver[p] -= 1
            self.supply[SILVER] += 1
            self._give_apple(p)
        elif a in A.ITEM:
            k = a - A.ITEM.start
            self.backpack[p, k] -= 1
            self.bag_items[k] += 1
            self.supply[COPPER] -= 1
            self.copper[p] += 1
            sold += 1
            if sold < MERCHANT_MAX_SALES and self.supply[COPPER] > 0 and self.items_of(p) > 0:
                self.replace(Kind.MERCHANT, p, sold)
                return
        self._end_action()

    # --- the Goblin --------------------------------------------------------------------------------
    def _goblin_pairs(self, p: int) -> list[tuple[int, int]]:
        """(given, taken) swaps the Goblin allows p: a backpack item for a non-coin item
        from the bag ("The goblin does not hand over coin tokens!"), with at most one heavy
        item afterwards ("here too, after the exchange, only one heavy item")."""
        heavy = self.heavy_of(p)
        pairs = []
        for g in np.flatnonzero(self.backpack[p]).tolist():
            for k in range(NUM_ITEMS):
                if k in COIN_TOKENS or k == g:
                    continue
                if self.bag_items[k] and heavy - IS_HEAVY[g] + IS_HEAVY[k] <= BACKPACK_HEAVY:
                    pairs.append((g, k))
        return pairs

    def _mask_goblin_give(self, d, mask) -> None:
        """First the backpack item given ..."""
        for g, _ in self._goblin_pairs(d.player):
            mask[A.ITEM.start + g] = 1

    def _apply_goblin_give(self, d, a: int) -> None:
        p, g = d.player, a - A.ITEM.start
        self.backpack[p, g] -= 1
        self.bag_items[g] += 1
        self.replace(Kind.GOBLIN_TAKE, p, g)

    def _mask_goblin_take(self, d, mask) -> None:
        """... then "an item of their choice from the blue bag" (not the one given)."""
        p = d.player
        heavy = self.heavy_of(p)
        given, = d.data
        for k in range(NUM_ITEMS):
            if (k not in COIN_TOKENS and k != given and self.bag_items[k] > 0
                    and heavy + IS_HEAVY[k] <= BACKPACK_HEAVY):
                mask[A.BAG.start + k] = 1

    def _apply_goblin_take(self, d, a: int) -> None:
        p, k = d.player, a - A.BAG.start
        self.bag_items[k] -= 1
        self.backpack[p, k] += 1
        self._end_action()

    # --- the Beggar --------------------------------------------------------------------------------
    def _mask_beggar(self, d, mask) -> None:
        """"For one copper coin ... the player may choose any character card from the pile"
        (not the Beggar himself, who is shuffled back with it)."""
        for c in self.pile:
            if c != BEGGAR:
                mask[A.CHARACTER.start + c] = 1

    def _apply_beggar(self, d, a: int) -> None:
        """"If the player has chosen a helper, the character's ability may be used
        immediately ... a friendly or hostile character, the debt may be settled
        immediately. Otherwise, proceed as described above": as a drawn card."""
        c = a - A.CHARACTER.start
        self._take_card(c)
        self._resolve_card(d.player, c, beggar=1)

    # --- the Unicorn and the saddle -----------------------------------------------------------------
    def _unicorn_cells(self, p: int) -> np.ndarray:
        """Where the Unicorn may set p's piece: "any free forest tile", free meaning no
        piece on it, that p could also enter by a move: so an item token's tile unless p's
        backpack is full (the token then stays: no action without a saddle), never a
        character token's tile (entered only to meet the character). With a saddle also a
        token's tile p may enter once the saddle is back in the bag (its action is then
        carried out: the rulebook's "a chip or a token"). The Unicorn's own token is never
        a target (meeting it removes it)."""
        free = self.game.is_tile & (self.cell_char < 0)
        if self.items_of(p) >= BACKPACK_ITEMS:
            free &= self.cell_item < 0
        free[self.pos] = False
        if not self.backpack[p, SADDLE]:
            return free
        tokens = self.game.is_tile & ~free & ((self.cell_item >= 0) | (self.cell_char >= 0))
        tokens &= self.cell_char != UNICORN
        tokens[self.pos] = False
        if not tokens.any():
            return free
        self.backpack[p, SADDLE] -= 1  # judged as after the saddle's return (restored below)
        self.bag_items[SADDLE] += 1
        try:
            for cell in np.flatnonzero(tokens).tolist():
                free[cell] = self.can_enter(p, cell)
        finally:
            self.backpack[p, SADDLE] += 1
            self.bag_items[SADDLE] -= 1
        return free

    def _mask_unicorn(self, d, mask) -> None:
        mask[A.TILE.start:A.TILE.stop] = self._unicorn_cells(d.player)

    def _apply_unicorn(self, d, a: int) -> None:
        """"set their playing piece on any free forest tile and then rotates that tile by
        90°. Their turn then ends", unless a saddle offers the tile's action."""
        p, cell = d.player, a - A.TILE.start
        src = self._move_piece(p, cell)
        self._refill(src)
        self._rotate(cell)
        if self.backpack[p, SADDLE] and (self.chip(cell) or self.cell_item[cell] >= 0
                                         or self.cell_char[cell] >= 0):
            self.replace(Kind.SADDLE, p, cell)
        else:
            self._end_action()

    def _mask_saddle(self, d, mask) -> None:
        """"if the player has collected a saddle ..., they may additionally carry out the
        action indicated on that forest tile by a chip or a token"."""
        cell, = d.data
        p = d.player
        mask[A.USE.start] = 1
        # keeping the saddle is standing on the tile without its action: not on a character
        # token (entered only to meet it), nor on an item token with a full backpack
        mask[A.DONE.start] = self.cell_char[cell] < 0 and (
            self.cell_item[cell] < 0 or self.items_of(p) < BACKPACK_ITEMS)

    def _apply_saddle(self, d, a: int) -> None:
        """"The saddle token goes back into the blue bag" when it is used."""
        cell, = d.data
        p = d.player
        if a == A.USE.start:
            self.backpack[p, SADDLE] -= 1
            self.bag_items[SADDLE] += 1
            self._arrive(p, cell)  # the token's action, else the chip's (never a well here)
        else:
            self._end_action()
