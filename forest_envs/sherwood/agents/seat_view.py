"""One decision's reading of the seat's record: the entries the agent computes with.

The seat's record (``text.view.SeatReading``: what the seat may know) holds every seat's
standing as a record per seat; the rules read them as columns by seat (``camp[q]``), and
their own hand and played cards, many times a decision, so they are taken out once here,
with the decision's kind and record.
"""

from __future__ import annotations

from typing import Any

from ..observation import Kind
from ..text.view import AmbushReading, CoachReading, OfferReading, SeatReading, SlotReading


class SeatView:
    """The view of one seat at one decision (``reading``: ``text.view.reading(state, seat)``,
    a seat's, never the referee's)."""

    __slots__ = ("additions", "ambushes", "camp", "coach", "data", "decision", "fame", "gold",
                 "hand", "hand_count", "kind", "num_players", "oak", "offer", "played", "round",
                 "seat", "slots")

    def __init__(self, reading: SeatReading):
        seat = reading.seat
        if seat is None or seat < 0:
            raise ValueError("the heuristic reads a seat's reading, not the referee's or a spectator's")
        hand = reading.hands[seat]
        assert hand is not None, "a seat's reading holds its own hand"
        self.seat: int = seat
        self.num_players: int = reading.num_players
        self.additions: bool = reading.additions
        self.round: int = reading.round
        decision = reading.decision
        self.decision: str | None = None if decision is None else decision.name  # None: the game is over
        # the decision's kind: what the heuristic dispatches on
        self.kind: Kind | None = None if decision is None else decision.kind
        # the decision's record, fields by name (core/decisions.py's DecisionRecord); Any, not
        # Optional, because the heuristic reads it only while a decision is pending
        self.data: Any = None if decision is None else decision.data
        # travellers by place (a card None: face down and not looked at), ambushes by id
        self.slots: tuple[SlotReading | None, ...] = reading.slots
        self.ambushes: tuple[AmbushReading | None, ...] = reading.ambushes
        # the players' columns at once (PlayerReading's field order)
        (self.camp, _, self.oak, self.gold, self.fame, self.hand_count, *_) = zip(*reading.players)
        self.hand: tuple[int, ...] = hand                  # this seat's cards by kind
        self.played: tuple[int, ...] = reading.played[seat]  # ... played at the fight now
        self.coach: CoachReading | None = reading.coach
        self.offer: OfferReading | None = reading.offer
