"""Results: a finished game's ranks turned into rewards, as every game and adapter reads them.

``state.ranks()`` is the one source of results (rank 1 = a winner); ``competition_ranks``
is how a game states its tie-breaks, and ``returns_from_ranks`` turns ranks (and, in games
with points, totals) into the terminal rewards of each reward mode.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

REWARD_MODES = ("win", "rank", "score")


def competition_ranks(keys: list) -> list[int]:
    """Rank 1 + the number of players with a strictly better key (higher is better; keys
    may be tuples, compared in order, which is how a game states its tie-breaks)."""
    return [1 + sum(1 for other in keys if other > k) for k in keys]


def returns_from_ranks(ranks: list[int], mode: str, totals: Sequence[float] | None = None,
                       score_scale: float = 1.0) -> list[float]:
    """Terminal rewards from a finished game's ranks.

    ``win``: the players ranked first share +1 (each 1/k), everybody else 0.
    ``rank``: 1 for first place down to 0 for last, linear in the competition rank.
    ``score``: (own total - mean of the opponents' totals) / ``score_scale``; games with
    points only.
    """
    n = len(ranks)
    if mode == "win":
        k = ranks.count(1)
        return [1.0 / k if r == 1 else 0.0 for r in ranks]
    if mode == "rank":
        return [(n - r) / (n - 1) for r in ranks]
    if mode == "score":
        if totals is None:
            raise ValueError("reward mode 'score' needs a game with points")
        total = sum(totals)
        return [(s - (total - s) / (n - 1)) / score_scale for s in totals]
    raise ValueError(f"unknown reward mode {mode!r}; expected one of {REWARD_MODES}")


class Result(NamedTuple):
    """A game's result by seat: ranks (1 = a winner), point totals (None in games without
    points) and what decided it (``breakdown``)."""

    ranks: list[int]
    totals: list[int] | None
    breakdown: list[dict]

    def returns(self, mode: str, score_scale: float) -> list[float]:
        return returns_from_ranks(self.ranks, mode, self.totals, score_scale)
