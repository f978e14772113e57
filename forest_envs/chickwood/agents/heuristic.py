"""``HeuristicAgent``: reads its seat's view, hands each decision to the module for its kind."""

from __future__ import annotations

import numpy as np

from ..observation import Kind
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

# Each decision kind's rule. The castle decisions value the table, and the opponent model
# learns from it first; the alms and the Legendary end of the game are decided on the view.
CASTLE_RULES = {
    Kind.SCOUT: lambda agent, val, legal: choose_play(val, agent.model, legal),
    Kind.SPY: lambda agent, val, legal: choose_spy(val, legal),
    Kind.RAID: lambda agent, val, legal: choose_raid(val, legal),
    Kind.KEY: lambda agent, val, legal: choose_key(val, legal),
}
VIEW_RULES = {
    Kind.ALMS: lambda agent, sv, legal: choose_alms(sv, agent.p, legal),
    Kind.ENTERTAINERS_FIRST: lambda agent, sv, legal: choose_entertainers_first(sv, legal),
    Kind.ENTERTAINERS_SECOND: lambda agent, sv, legal: choose_entertainers_second(sv, legal),
    Kind.ARROW_GIVE: lambda agent, sv, legal: choose_arrow_give(sv, legal),
    Kind.ARROW_TAKE: lambda agent, sv, legal: choose_arrow_take(sv, legal),
    Kind.FAKE_BEARD: lambda agent, sv, legal: choose_beard(sv, legal),
}
if set(CASTLE_RULES) | set(VIEW_RULES) != set(Kind) or set(CASTLE_RULES) & set(VIEW_RULES):
    raise TypeError("the heuristic needs exactly one rule for each of Chickwood's decision kinds")


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
        """The action for the pending decision (``sv.kind``, 2+ legal actions)."""
        if sv.kind is None:  # no Kind: no rule (the message as for a kind without one)
            raise RuntimeError(f"the heuristic has no rule for decision {sv.decision!r}")
        rule = VIEW_RULES.get(sv.kind)
        if rule is not None:
            return rule(self, sv, legal)
        rule = CASTLE_RULES.get(sv.kind)
        if rule is None:
            raise RuntimeError(f"the heuristic has no rule for decision {sv.decision!r}")
        val = Valuer(sv, self.p)
        self.model.observe(val)
        return rule(self, val, legal)
