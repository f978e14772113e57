"""What a seat cannot see (the conservation totals the tests check are in ``facts.py``).

Hidden are the traveller cards a seat has not seen (the pile, the box, face-down laid-out
cards it did not look at in the inn: Sherwood Forest rulebook, "Preparation Actions", 2) and
the equipment cards it cannot see (the deck, the others' hands: "take an equipment card
blindly").
"""

from __future__ import annotations

import numpy as np

from .. import actions as A
from ..components import CARDS
from .phase_base import PhaseBase
from .precomputed import CARD_FEATURES


class HiddenInformation(PhaseBase):
    """``resample_hidden`` (a mixin of ``SherwoodState``)."""

    __slots__ = ()

    def resample_hidden(self, seat: int, rng: np.random.Generator):
        """A state ``seat`` cannot tell from this one: travellers it has not seen (the
        pile, the box, face-down laid-out cards it did not look at) are redealt within
        their deck letter, and the equipment it cannot see (the deck, others' hands) is
        redealt into the same places."""
        new = self.clone()
        hidden_slots = [s for s, c in enumerate(new.slots)
                        if c >= 0 and not new.slot_face_up[s] and not new.peek[seat, s].any()]
        for deck in ("A", "B"):
            # (list, index) of every hidden card of this deck letter
            places = ([(new.pile, i) for i, c in enumerate(new.pile) if CARDS[c].deck == deck]
                      + [(new.box, i) for i, c in enumerate(new.box) if CARDS[c].deck == deck
                         and (new.game.additions or not CARDS[c].sheriff)]
                      + [(new.slots, s) for s in hidden_slots if CARDS[new.slots[s]].deck == deck])
            # sorted first, so that the redeal depends only on what the seat knows
            cards = sorted(where[i] for where, i in places)
            for (where, i), card in zip(places, rng.permutation(np.array(cards, np.int64)).tolist()):
                where[i] = int(card)
        new.box.sort()
        for o in range(new.num_players):
            for s in range(A.MAX_SLOTS):
                if o != seat and new.peek[o, s].any():
                    new.peek[o, s] = CARD_FEATURES[new.slots[s]]
        others = [o for o in range(new.num_players) if o != seat]
        pool = list(new.equip_deck)
        for o in others:
            pool += np.repeat(np.arange(new.hand.shape[1]), new.hand[o]).tolist()
        pool = rng.permutation(np.array(sorted(pool), np.int64)).tolist()
        new.equip_deck = [int(k) for k in pool[:len(new.equip_deck)]]
        pos = len(new.equip_deck)
        for o in others:
            count = int(new.hand[o].sum())
            new.hand[o] = np.bincount(np.array(pool[pos:pos + count], np.int64),
                                      minlength=new.hand.shape[1])
            pos += count
        return new._resampled(rng)
