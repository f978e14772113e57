"""One decision's reading of the seat's record: the entries the agent computes with.

The seat's record (``text.view.SeatReading``: what the seat may know) holds every seat's
standing; the handlers read their own seat's many times a decision, so it is taken out once
here, with the decision's kind and record. The tile columns are the record's own tuples,
which the valuations' memos are keyed on.
"""

from __future__ import annotations

from typing import Any

from ..observation import Kind
from ..text.view import SeatReading


class SeatView:
    """The view of one seat at one decision (``reading``: ``text.view.reading(state, seat)``,
    a seat's, never the referee's)."""

    __slots__ = ("apples", "backpack", "character", "chip", "compasses", "copper", "data",
                 "debts", "decision", "fairy", "item", "kind", "num_players", "orientation",
                 "piece_cells", "seat", "silver", "tile", "tile_cells", "well")

    def __init__(self, reading: SeatReading):
        seat = reading.seat
        if seat is None or seat < 0:
            raise ValueError("the heuristic reads a seat's reading, not the referee's or a spectator's")
        self.seat: int = seat
        self.num_players: int = reading.num_players
        decision = reading.decision
        self.decision: str | None = None if decision is None else decision.name  # None: the game is over
        # the decision's kind: what the heuristic dispatches on
        self.kind: Kind | None = None if decision is None else decision.kind
        # the decision's record, fields by name (core/decisions.py's DecisionRecord); Any, not
        # Optional, because the heuristic reads it only while a decision is pending
        self.data: Any = None if decision is None else decision.data
        # the forest, indexed by cell id over all cells (``SeatReading``'s columns)
        self.tile_cells: tuple[int, ...] = reading.tile_cells
        self.tile: tuple[int, ...] = reading.tile
        self.orientation: tuple[int, ...] = reading.orientation
        self.well: tuple[bool, ...] = reading.well
        self.chip: tuple[int, ...] = reading.chip
        self.item: tuple[int, ...] = reading.item
        self.character: tuple[int, ...] = reading.character
        self.fairy: tuple[tuple[int, ...], ...] = reading.fairy
        # each seat's piece (a corner cell: still in the backpack)
        self.piece_cells: tuple[int, ...] = tuple([p.cell for p in reading.players])
        # this seat's own standing
        (_, _, self.backpack, self.copper, self.silver, self.apples, self.compasses, self.debts,
         *_) = reading.players[seat]
