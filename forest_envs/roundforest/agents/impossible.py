"""The error a handler raises when handed legal actions its decision can never offer."""

from __future__ import annotations

from .. import actions as A
from .seat_view import SeatView


class ImpossibleDecision(RuntimeError):
    """A handler was given legal actions its decision can never offer (a rules bug or a
    reading that does not belong to the mask)."""


def impossible(sv: SeatView, legal: set[int], why: str) -> ImpossibleDecision:
    """The error naming the decision, the actions offered and ``why`` they cannot be."""
    kind = sv.decision
    names = sorted(A.SPACE.names[a] for a in legal)
    return ImpossibleDecision(f"the {kind!r} decision cannot offer {names}: {why}")
