"""How an env's game ended, as the env decides it when the game ends (``aec.py``,
``_set_end_infos``, which writes the end infos from it) and keeps it for ``env.outcome()``:
the terminal game's end screen, a replay page and a served table each word the same
``Outcome`` in their own medium instead of each working it out again."""

from __future__ import annotations

from typing import Literal, NamedTuple

from ..core.results import Result

Ending = Literal["finished", "truncated", "illegal", "unfinished"]
FINISHED: Ending = "finished"
TRUNCATED: Ending = "truncated"
ILLEGAL: Ending = "illegal"
UNFINISHED: Ending = "unfinished"


class Place(NamedTuple):
    """A seat's place: its rank (1 = first; in a game cut short, the standing when it
    stopped), its point total (None in a game without points) and what decided it."""

    rank: int
    seat: int
    total: int | None
    breakdown: dict


class Outcome(NamedTuple):
    """How the game ended: ``ending`` is ``finished`` (by the rules), ``truncated`` (at the
    env's ``max_steps``), ``illegal`` (an illegal action under ``illegal_action="penalize"``:
    ``offender`` made ``illegal_action``) or ``unfinished`` (still running, or a record that
    stops before the end; no places then); ``moves`` the actions the env took; ``places``
    by rank, then seat. Nobody wins a game that did not finish."""

    ending: Ending
    moves: int
    places: tuple[Place, ...]
    offender: int | None = None
    illegal_action: object = None

    @property
    def winners(self) -> list[int]:
        """The seats that won (several share a win): none unless the game finished."""
        return [p.seat for p in self.places if p.rank == 1] if self.ending == FINISHED else []

    def cut_short(self) -> str | None:
        """Why nobody won a game that stopped before its end, in a sentence every medium shows
        as it is (None for a finished or unfinished game)."""
        if self.ending == TRUNCATED:
            return f"Game over after {self.moves} moves (max_steps): truncated, nobody wins."
        if self.ending == ILLEGAL:
            return f"Game over: P{self.offender} made an illegal move ({self.illegal_action!r}) and is penalised."
        return None

    @classmethod
    def ended(cls, result: Result, ending: Ending, moves: int, offender: int | None = None,
              illegal_action: object = None) -> Outcome:
        """The outcome of a game that ended so, with ``result`` (the state's, at the end)."""
        ranks, totals, breakdown = result
        places = tuple(sorted(Place(rank, seat, None if totals is None else totals[seat], breakdown[seat])
                              for seat, rank in enumerate(ranks)))
        return cls(ending, moves, places, offender, illegal_action)
