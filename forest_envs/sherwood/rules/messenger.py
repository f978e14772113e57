"""(Additions) The messenger's clothes (Sherwood Forest rulebook, "Special item cards:
Messenger's Clothes": "as soon as anyone has chosen and revealed a traveller card, you may
play this card and choose a new destination town").

An interrupt window: when a traveller is revealed and each time it has passed an occupied
ambush without being robbed, every seat that could hold the card is asked in turn,
clockwise from the leading player (``messenger``).
"""

from __future__ import annotations

from .. import actions as A
from ..components import CARDS, EQUIPMENT_COUNTS, MESSENGER, REROUTE, TOWNS
from ..observation import F_DEST, Kind
from .phase_base import PhaseBase


class Messenger(PhaseBase):
    """The ``messenger`` decision (a mixin of ``SherwoodState``)."""

    __slots__ = ()

    def _reroute_towns(self) -> tuple[int, ...]:
        """Towns the coach may be sent to now: ``coach.step`` ambushes of its route are
        behind it, and the new route must start with them ("provided he does not have to
        move back along the path already travelled")."""
        assert self.coach is not None
        coach = self.coach
        return REROUTE[CARDS[coach.card].origin][coach.destination][coach.step]

    def _open_window(self) -> bool:
        """The interrupt window for the messenger's clothes, when the traveller is revealed
        (``coach.step`` = 0) and each time it has passed an occupied ambush without being
        robbed (``coach.step`` = ambushes passed): every seat that could hold the card (any
        card in hand: a public number) is asked, clockwise from the leading player. Not
        opened once a card was played on this traveller ("only one messenger's clothes card
        on one traveller card"), while both cards lie in the discard pile, or when no new
        destination is legal (only public facts decide). True when it opened."""
        if (not self.game.additions or self.messenger_used[0]
                or self.equip_discard[MESSENGER] >= EQUIPMENT_COUNTS[MESSENGER]
                or not self._reroute_towns()):
            return False
        seats = [q for q in self._seats_from(self.turn) if self.hand_count[q] > 0]
        if not seats:
            return False
        self.window = seats
        self.push(Kind.MESSENGER, seats[0])
        return True

    def _mask_messenger(self, d, mask) -> None:
        mask[A.MESSENGER_PASS.start] = 1
        if self.hand[d.player, MESSENGER] > 0:
            for t in self._reroute_towns():
                mask[A.MESSENGER.start + t] = 1

    def _why_messenger(self, d, a: int) -> str | None:
        return ("the player must hold the messenger's clothes and name a town other than the "
                "traveller's origin and destination that the coach reaches without driving "
                "back along the path already travelled") if a in A.MESSENGER else None

    def _apply_messenger(self, d, a: int) -> None:
        assert self.coach is not None
        q = d.player
        if a in A.MESSENGER:
            (t,) = A.MESSENGER.index(a)
            self.hand[q, MESSENGER] -= 1
            self.hand_count[q] -= 1
            self.equip_discard[MESSENGER] += 1
            self.coach.destination = t
            self.coach_card[F_DEST:F_DEST + len(TOWNS)] = 0
            self.coach_card[F_DEST + t] = 1
            self.messenger_used[0] = 1
            self.window = []          # only one messenger's clothes per traveller
        else:
            self.window.pop(0)
        if self.window:
            self.replace(Kind.MESSENGER, self.window[0])
            return
        self.pop()
        self._drive()
