"""The preparation phase (Sherwood Forest rulebook, "PREPARATION PHASE": "Preparation
Actions" 1-5 and "5.1 Preparing a simple attack"; the joint attack of 5.2 is
``negotiate.py``).

Each turn the player sends one outlaw from his camp to the church, the inn, the merchant or
the market, or sends outlaws into an ambush alone or offers a joint ambush. With more than
five bags in his camp the church is his only action.
"""

from __future__ import annotations

import numpy as np

from .. import actions as A
from ..components import (
    CHURCH,
    CHURCH_FORCED_ABOVE,
    HAND_LIMIT,
    INN,
    MARKET,
    MARKET_COST,
    MERCHANT,
    MERCHANT_COST,
)
from ..observation import MAX_OFFERS
from .phase_base import PhaseBase
from .precomputed import (
    AMBUSH_IDS,
    CARD_FEATURES,
    CHURCH_START,
    INN_IDS,
    JOINT_IDS,
    MARKET_ID,
    MERCHANT_ID,
    ambush_pattern,
)


class Preparation(PhaseBase):
    """The ``prep`` decision (a mixin of ``SherwoodState``)."""

    __slots__ = ()

    def _equipment_available(self) -> bool:
        return bool(self.equip_deck) or bool(self.equip_discard.any())

    def _mask_prep(self, d, mask) -> None:
        """Rulebook, "Preparation Actions": "If more than five bags of gold have accumulated
        in his camp, the performer must give the gold to the poor at the church"; the
        merchant "cannot be done if you already have three equipment cards in your hand";
        5.1: "send any number of outlaws to any unoccupied ambush"."""
        p = d.player
        # .item() gives Python ints directly: this runs at every preparation turn.
        gold = self.gold.item(p)
        if gold > 0:
            mask[CHURCH_START:CHURCH_START + gold] = 1
        if gold > CHURCH_FORCED_ABOVE:
            return
        camps = self.camp.tolist()
        camp = camps[p]
        mask[INN_IDS] = self.slot_present
        if (gold >= MERCHANT_COST and self.hand_count.item(p) < HAND_LIMIT
                and self._equipment_available()):
            mask[MERCHANT_ID] = 1
        if gold >= MARKET_COST and self.oak.item(p) > 0:
            mask[MARKET_ID] = 1
        ambush = ambush_pattern(tuple(map(any, self.ambush_outlaws.tolist())), camp)
        mask[AMBUSH_IDS] = ambush
        offers_made, = d.data
        if offers_made < MAX_OFFERS and sum(camps) > camp:
            mask[JOINT_IDS] = ambush

    def _why_prep(self, d, a: int) -> str | None:
        p = d.player
        if self.gold[p] > CHURCH_FORCED_ABOVE and a not in A.CHURCH:
            return f"with {int(self.gold[p])} gold (more than five) the church is the only action"
        if a in A.CHURCH:
            return f"the player has only {int(self.gold[p])} gold"
        if a in A.MERCHANT:
            return "the merchant needs 1 gold, fewer than three cards in hand and a card to sell"
        if a in A.MARKET:
            return "the market needs 2 gold and an outlaw of the player's colour under the oak"
        if a in A.JOINT:
            offers_made, = d.data
            if offers_made >= MAX_OFFERS:
                return (f"the player has made {offers_made} failed joint offers this turn, the most "
                        "a turn allows (a reading: docs/sherwood.md, item 7)")
            if int(self.camp.sum()) == int(self.camp[p]):
                return "no other player has outlaws in camp to ask"
        if a in A.AMBUSH or a in A.JOINT:
            return "the ambush must be unoccupied and the outlaws must be in the camp"
        if a in A.INN:
            return "no traveller lies in that place"
        return None

    def _apply_prep(self, d, a: int) -> None:
        """Rulebook, "Preparation Actions" 1 (church: a bag for a fame point), 2 (inn: look
        at a laid-out traveller, "You may look at it again at any convenient moment": it
        stays in the seat's ``peek``), 3 (merchant), 4 (market: "you will be able to use
        both outlaws ... only in the next preparation phase": the recruit stands on the
        market), 5.1 (a simple ambush: its leader)."""
        p = d.player
        # Most preparation actions are ambushes (one id per ambush and band size): tested first.
        if a in A.AMBUSH:
            amb, k = A.AMBUSH.index(a)
            self.camp[p] -= k + 1
            self.ambush_outlaws[amb, p] = k + 1
            self.ambush_leader[amb, p] = 1
        elif a in A.JOINT:
            amb, k = A.JOINT.index(a)
            offers_made, = d.data
            self._start_offer(p, amb, k + 1, offers_made)
            return
        elif a in A.CHURCH:
            k = a - A.CHURCH.start + 1
            self._place(p, CHURCH)
            self.gold[p] -= k
            self.pit[0] += k
            self.fame[p] += k
        elif a in A.INN:
            (s,) = A.INN.index(a)
            self._place(p, INN)
            self.peek[p, s] = CARD_FEATURES[self.slots[s]]
            self.slot_marked[s, p] = 1
        elif a == A.MERCHANT.start:
            self._place(p, MERCHANT)
            self.gold[p] -= MERCHANT_COST
            self.pit[0] += MERCHANT_COST
            self._draw_equipment(p)
        else:                                    # the market
            self._place(p, MARKET)
            self.oak[p] -= 1
            self.places[p, MARKET] += 1          # the recruit stands beside his recruiter
            self.gold[p] -= MARKET_COST
            self.pit[0] += MARKET_COST
        self._note_emptied([p])
        self._next_prep(p)

    def _place(self, p: int, place: int) -> None:
        self.camp[p] -= 1
        self.places[p, place] += 1

    def _draw_equipment(self, p: int) -> None:
        """Rulebook, "Preparation Actions", 3: "take an equipment card blindly from the deck"
        (an empty deck is the discard pile shuffled)."""
        if not self.equip_deck:
            kinds = np.repeat(np.arange(self.equip_discard.size), self.equip_discard)
            self.equip_deck = [int(k) for k in self.rng.permutation(kinds)]
            self.equip_discard.fill(0)
        k = self.equip_deck.pop()
        self.hand[p, k] += 1
        self.hand_count[p] += 1
        self.equip_left[0] = len(self.equip_deck)
