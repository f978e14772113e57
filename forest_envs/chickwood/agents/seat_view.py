"""One decision's reading of the seat's view: the tuples the agent computes with.

The seat's reading (``text.view.SeatReading``: what the seat may know, as tuples) is
already indexed by kind, castle value, cell and seat, and its tuples are the keys of the
memoised valuations; this splits cards into loot and alms and counts the cards the seat
has not seen.
"""

from __future__ import annotations

import functools
from operator import sub
from typing import Any, NamedTuple

from ..components import BENEFACTOR_ALMS, NUM_KINDS, deck_composition, hand_size
from ..observation import Kind
from ..text.view import CastleReading, SeatReading

ALMS_OF = tuple(BENEFACTOR_ALMS.get(k, 0) for k in range(NUM_KINDS))  # alms a card gives
NO_LOOT = (0,) * NUM_KINDS


class Cards(NamedTuple):
    """Cards as what they give: ``loot`` (counts by kind, benefactors 0; None if the cards
    give no loot) and ``alms``."""

    loot: tuple | None
    alms: int

    @staticmethod
    @functools.lru_cache(maxsize=1 << 14)
    def of(counts: tuple[int, ...]) -> Cards:
        """The cards of these counts by kind (shared: the same few lie at the castles
        decision after decision)."""
        alms = sum([counts[k] * a for k, a in BENEFACTOR_ALMS.items()])
        if alms:
            without_alms = list(counts)
            for k in BENEFACTOR_ALMS:
                without_alms[k] = 0
            counts = tuple(without_alms)
        return Cards(tuple(counts) if any(counts) else None, alms)

    @functools.lru_cache(maxsize=1 << 15)  # noqa: B019 (keyed on the cards' values)
    def plus(self, kind: int) -> Cards:
        """These cards and one more of ``kind`` (shared, as ``of``)."""
        if ALMS_OF[kind]:
            return Cards(self.loot, self.alms + ALMS_OF[kind])
        loot = list(self.loot or NO_LOOT)
        loot[kind] += 1
        return Cards(tuple(loot), self.alms)


class Castle:
    """One castle in play as the seat sees it (shared, read only: ``Castle.of``)."""

    __slots__ = ("capacity", "cards", "dumped", "face_down", "known", "pile_left", "raided_by",
                 "unknown", "up", "value")

    def __init__(self, c: CastleReading, me: int, raided: tuple[bool, ...]):
        self.value: int = c.value
        self.pile_left: int = c.pile_left
        self.capacity: int | None = c.capacity
        self.raided_by: int | None = c.raided_by
        by = c.face_down_by
        spied, mine = c.spied_face_down, c.my_face_down
        assert spied is not None and mine is not None, "a seat's castle reading"
        n_spied = sum(spied)
        self.face_down: int = sum(by)                    # face-down cards lying there
        self.cards: int = sum(c.face_up) + self.face_down
        self.up = Cards.of(c.face_up)                    # what everybody sees
        if self.face_down == 0 or not (by[me] or n_spied):
            self.known = self.up                         # what this seat knows of
        else:
            self.known = Cards.of(tuple([u + m + s for u, m, s in
                                         zip(c.face_up, mine, spied)]))
        self.unknown: int = self.face_down - by[me] - n_spied
        # Face-down cards of opponents who already raided another castle: they did not
        # want them (scripted players leave their henchmen where they do not raid).
        self.dumped: int = 0 if n_spied or not self.face_down else sum(
            x for o, x in enumerate(by) if o != me and raided[o])

    @staticmethod
    @functools.lru_cache(maxsize=1 << 14)
    def of(c: CastleReading, me: int, raided: tuple[bool, ...]) -> Castle:
        """The castle ``c`` as seat ``me`` sees it: most castles lie unchanged from one
        decision to the next, so one object serves them all."""
        return Castle(c, me, raided)


class SeatView:
    """The view of one seat at one decision (``reading``: ``text.view.reading(state, seat)``,
    a seat's, never the referee's)."""

    __slots__ = ("alms_left", "banner", "castle_of", "castles", "castles_held", "colls", "data",
                 "deck_left", "decision", "face_down_now", "grid", "hand", "hand_size", "kind",
                 "legendary", "me", "n", "order", "played", "pool", "pool_total", "raided",
                 "round", "rounds_after", "snake_visited")

    def __init__(self, reading: SeatReading):
        me = reading.seat
        if me is None or reading.hand is None or reading.seen is None:
            raise ValueError("the heuristic reads a seat's reading, not the referee's or a spectator's")
        self.me: int = me
        self.n: int = reading.num_players
        self.legendary: bool = reading.legendary
        self.round: int = reading.round
        self.deck_left: int = reading.deck_left
        self.hand_size = hand_size(self.n)
        self.rounds_after: int = self.deck_left // (self.n * self.hand_size)  # after this one
        decision = reading.decision
        self.decision: str | None = None if decision is None else decision.name  # None: the game is over
        # the decision's kind: what the heuristic dispatches on
        self.kind: Kind | None = None if decision is None else decision.kind
        # the decision's record, fields by name (core/decisions.py's DecisionRecord); Any, not
        # Optional, because the heuristic reads it only while a decision is pending
        self.data: Any = None if decision is None else decision.data
        self.face_down_now: bool | None = reading.play_face_down
        self.snake_visited: tuple[int, ...] = reading.snake_visited
        self.order: tuple[int, ...] = reading.order
        players = reading.players
        # the players' columns at once (PlayerReading's field order)
        (self.castle_of, self.castles_held, _, self.colls, self.alms_left, _, self.raided, _,
         _) = zip(*players)
        mine = players[me]
        self.banner: tuple[int, ...] = mine.banner
        self.played: int = self.hand_size - mine.hand_count  # scouting plays made this round
        self.hand = reading.hand
        self.castles = {c.value: Castle.of(c, self.me, self.raided) for c in reading.castles}
        self.grid = reading.villages
        # The cards this seat has not seen: the deck's composition minus every card it knows
        # of (hand, collections, discards, the box, the cards at the castles it saw).
        self.pool = tuple(x if x > 0 else 0 for x in
                          map(sub, composition(self.n, self.legendary), reading.seen))
        self.pool_total = sum(self.pool)

    def open_castles(self) -> list[Castle]:
        return [c for c in self.castles.values() if c.raided_by is None]

    def opponents(self) -> list[int]:
        return [o for o in range(self.n) if o != self.me]


@functools.lru_cache(maxsize=16)
def composition(num_players: int, legendary: bool) -> tuple[int, ...]:
    return tuple(deck_composition(num_players, legendary))
