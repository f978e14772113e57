"""``HeuristicAgent``: reads its seat's view, hands each decision to the module for its kind."""

from __future__ import annotations

import numpy as np

from .alms_routes import choose_alms
from .endgame import (
    choose_arrow_give,
    choose_arrow_take,
    choose_beard,
    choose_entertainers_first,
    choose_entertainers_second,
)
from .opponent_model import OpponentModel
from .params import Params
from .raiding import choose_key, choose_raid, choose_spy
from .scouting import choose_play
from .seat_view import SeatView
from .valuation import Valuer

# The Legendary end of the game: decided on the view alone.
END_OF_GAME = {
    "entertainers_first": choose_entertainers_first,
    "entertainers_second": choose_entertainers_second,
    "arrow_give": choose_arrow_give,
    "arrow_take": choose_arrow_take,
    "fake_beard": choose_beard,
}
CASTLE_DECISIONS = ("scout", "spy", "raid", "key")


class HeuristicAgent:
    """Scripted Chickwood Forest player; the package docstring says how it plays.

    It reads only what its seat may know: ``env.unwrapped.reading(agent)`` (the facts of
    its ``view``) and ``env.unwrapped.action_mask(agent)``, plus the public component data.
    Its only memory
    is the opponent model. It is deterministic (``seed`` is accepted for the agent
    protocol); ``params`` override the defaults of ``Params``."""

    name = "heuristic"

    def __init__(self, seed: int | None = None, **params: float):
        self.p = Params.of(**params)
        self.model = OpponentModel(self.p)

    def reset(self, seed: int | None = None) -> None:
        self.model.reset()

    def act(self, env, agent: str) -> int:
        raw = env.unwrapped
        legal = np.flatnonzero(raw.action_mask(agent)).tolist()
        if not legal:
            raise ValueError(f"{agent} has no legal action: it is not its turn")
        if len(legal) == 1:
            return legal[0]  # forced: nothing to decide
        sv = SeatView(raw.reading(agent))
        action = self.decide(sv, legal)
        if action not in legal:
            raise RuntimeError(f"the heuristic chose illegal action {action} at a "
                               f"{sv.decision!r} decision (legal: {legal})")
        return action

    def decide(self, sv: SeatView, legal: list[int]) -> int:
        """The action for the pending decision (``sv.decision``, 2+ legal actions)."""
        kind = sv.decision
        if kind == "alms":
            return choose_alms(sv, self.p, legal)
        if kind in END_OF_GAME:
            return END_OF_GAME[kind](sv, legal)
        if kind not in CASTLE_DECISIONS:
            raise RuntimeError(f"the heuristic has no rule for decision {kind!r}")
        # The castle decisions value the table, and the opponent model learns from it.
        val = Valuer(sv, self.p)
        self.model.observe(val)
        if kind == "scout":
            return choose_play(val, self.model, legal)
        if kind == "spy":
            return choose_spy(val, legal)
        if kind == "raid":
            return choose_raid(val, legal)
        return choose_key(val, legal)
