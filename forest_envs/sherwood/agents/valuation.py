"""What the scripted player (``HeuristicAgent``) makes of a seat's reading at a decision
(``seat_view.SeatView``), as numbers it can weigh fast: each traveller card as a
``Traveller``, the cards a face-down traveller may be (``candidates``), and the strength of
every ambush (``Forces``), read once per decision.

Everything here comes from the reading and the game's public card table (the card a reading
knows is ``components.CARDS`` at its id), so nothing reaches the player that its seat may
not know.
"""

from __future__ import annotations

from typing import NamedTuple

from ..components import (
    CARDS,
    MIN_BAND,
    NUM_WEAPON_KINDS,
    OUTLAWS_PER_COLOUR,
    WEAPON_STRENGTH,
    deck_ids,
)
from ..text.view import AmbushReading, SlotReading
from .params import COMRADE_FAME, OUTLAW_FAME
from .seat_view import SeatView

WEAPONS_WEAKEST_FIRST = tuple(range(NUM_WEAPON_KINDS))   # weapon kinds, cudgel first


def loot_value(fame: int, gold: int, comrades: int) -> int:
    """What a robbed traveller brings its leader, in fame: fame, a bag of gold is one fame at
    the church, a comrade two (his final value, and an outlaw for later rounds)."""
    return fame + gold + COMRADE_FAME * comrades


class Traveller(NamedTuple):
    """A traveller card as the player weighs it: ``loot`` is ``loot_value`` of its loot,
    ``stops`` the distinct ambushes of its route (a Sheriff fights each once)."""

    strength: int
    fame: int
    loot: int
    route: tuple[int, ...]
    stops: frozenset[int]
    sheriff: bool
    fame_loss: int
    outlaw_loss: int

    def crush_loss(self, oak: int) -> int:
        """(Additions) What this Sheriff crushing its ambush costs a seat with ``oak`` outlaws
        under the oak: the fame lost and two for each outlaw lost (he fights no more, and
        outlaws under the oak lose ties); a band of four loses no outlaw."""
        band = OUTLAWS_PER_COLOUR - oak
        return self.fame_loss + OUTLAW_FAME * min(self.outlaw_loss, max(0, band - MIN_BAND))


def _traveller(card_id: int) -> Traveller:
    c = CARDS[card_id]
    return Traveller(c.strength, c.fame, loot_value(c.fame, c.gold, c.comrades), tuple(c.route),
                     frozenset(c.route), bool(c.sheriff), c.fame_loss if c.sheriff else 0,
                     c.outlaw_loss if c.sheriff else 0)


TRAVELLERS = tuple(_traveller(i) for i in range(len(CARDS)))

# The cards a face-down traveller may be, by deck letter and by whether the Sheriffs are in
# play (the additions), each with its weight: every card of the letter, equally likely.
_DECKS = {(d, sheriffs): tuple((TRAVELLERS[i], 1.0 / len(deck_ids(d, sheriffs)))
                               for i in deck_ids(d, sheriffs))
          for d in "AB" for sheriffs in (False, True)}


def candidates(slot: SlotReading | None, additions: bool) -> tuple[tuple[Traveller, float], ...]:
    """The cards a laid-out traveller (a reading's slot) may be, with their weights: itself if
    known, else every card of its deck letter, equally likely (the Sheriffs too with the
    additions)."""
    if slot is None:
        return ()
    if slot.card is not None:
        return ((TRAVELLERS[slot.card], 1.0),)
    return _DECKS[slot.deck, additions]


def known_travellers(sv: SeatView) -> list[Traveller]:
    """The laid-out travellers the seat knows (face up, or looked at in the inn), in place
    order."""
    return [TRAVELLERS[slot.card] for slot in sv.slots if slot is not None and slot.card is not None]


def strength_here(e: AmbushReading | None) -> int:
    """The public strength of an ambush (a reading's entry): its outlaws and the cards
    promised to it."""
    return 0 if e is None else e.strength


class Forces:
    """The strengths a seat reads off its reading at one decision: ``public[a]`` of every
    ambush (``strength_here``), ``own(k)`` of ``k`` of its outlaws carrying the strongest
    cards of its hand (one each)."""

    __slots__ = ("public", "_prefix", "_sv", "_fights")

    def __init__(self, sv: SeatView):
        self.public = [strength_here(e) for e in sv.ambushes]
        hand = sv.hand
        prefix, total = [0], 0
        for k in reversed(WEAPONS_WEAKEST_FIRST):          # strongest cards first
            s = WEAPON_STRENGTH[k]
            for _ in range(hand[k]):
                total += s
                prefix.append(total)
        self._prefix = prefix
        self._sv = sv
        self._fights: list[tuple[int, int, int] | None] | None = None  # made when first asked

    def own(self, outlaws: int) -> int:
        """Outlaws plus the strongest cards of its hand they can carry (one each)."""
        prefix = self._prefix
        return outlaws + prefix[min(outlaws, len(prefix) - 1)]

    def fights(self) -> list[tuple[int, int, int] | None]:
        """Each ambush as a traveller meets it (None: nobody lies there): its strength (the
        seat's own ambush counts its hand's cards too, another's only its outlaws and
        promised cards), the seat's outlaws in it and all outlaws in it."""
        if self._fights is None:
            seat = self._sv.seat
            fights: list[tuple[int, int, int] | None] = []
            for a, e in enumerate(self._sv.ambushes):
                if e is None:
                    fights.append(None)
                    continue
                outlaws = e.outlaws
                mine = outlaws[seat]
                fights.append((self.public[a] + (self.own(mine) - mine if mine else 0), mine, sum(outlaws)))
            self._fights = fights
        return self._fights

