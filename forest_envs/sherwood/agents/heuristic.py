"""``HeuristicAgent``: takes its seat's reading as a ``SeatView`` and hands each decision to
the rule for its kind (``RULES``), one module per phase of the game (``preparation``, ``negotiation``,
``attacks``, ``loot``)."""

from __future__ import annotations

import numpy as np

from ...agents.base import SeededAgent
from .. import actions as A
from ..observation import Kind
from ..text.view import SeatReading
from .attacks import (
    choose_call,
    choose_cloak,
    choose_equip,
    choose_lead,
    choose_messenger,
    choose_pledge,
)
from .loot import choose_comrade, choose_provisions, choose_share, choose_shortfall
from .negotiation import (
    choose_answer,
    choose_ask,
    choose_confirm,
    choose_informant,
    choose_reveal,
    choose_target,
    choose_terms,
)
from .preparation import choose_prep
from .seat_view import SeatView

# The preparation decision's actions are the space's first ids, below this one (checked).
_PREPARATION_BLOCKS = (A.CHURCH, A.INN, A.MERCHANT, A.MARKET, A.AMBUSH, A.JOINT)
PREPARATION_ACTIONS = sum(b.size for b in _PREPARATION_BLOCKS)
if any(b.stop > PREPARATION_ACTIONS for b in _PREPARATION_BLOCKS):
    raise TypeError("Sherwood's preparation actions are no longer the first ids of the action space")


class HeuristicAgent(SeededAgent):
    """Scripted Sherwood Forest player; the package docstring says how it plays. Its memory
    is ``asks``: the outlaws to ask of each seat for the offer it is making (its ``prep``
    rule writes it, its ``ask`` rule reads it); its generator breaks ties between ambushes."""

    name = "heuristic"

    def __init__(self, seed: int | None = None):
        super().__init__(seed)
        self.asks: dict[int, int] = {}     # outlaws to ask of each seat for its pending offer

    def act(self, env, agent: str) -> int:
        game = env.unwrapped
        mask = game.action_mask(agent)
        forced = self._forced(mask)
        if forced is not None:
            return forced
        return self.choose(game.reading(agent), mask)

    @staticmethod
    def _forced(mask: np.ndarray) -> int | None:
        """The one legal action where there is one, outside the preparation (every rule
        returns a legal action, so it returns that one, and nothing need be read); a
        forced preparation action still goes through its rule, whose tie-break draws must
        be drawn."""
        if np.count_nonzero(mask) != 1:
            return None
        action = int(mask.argmax())
        return None if action < PREPARATION_ACTIONS else action

    def choose(self, reading: SeatReading, mask: np.ndarray) -> int:
        """The action for the pending decision of ``reading`` (the seat's reading,
        ``State.reading``) under ``mask``."""
        sv = SeatView(reading)
        if sv.kind is None:
            raise ValueError("the game is over: there is no decision to take")
        action = RULES[sv.kind](self, sv, mask)
        if action is None or not 0 <= action < mask.size or not mask[action]:
            raise RuntimeError(f"the heuristic chose {action!r}, not a legal action, at a {sv.decision!r} "
                               f"decision of seat {sv.seat} (legal: {np.flatnonzero(mask).tolist()})")
        return int(action)


# The rule of each decision kind, by the game's Kind (``observation.Kind``): called as
# ``rule(agent, seat view, mask)``. Checked at import, so a kind added to the game without a
# rule here fails at once.
RULES = {
    Kind.PREP: choose_prep,
    Kind.ASK: choose_ask,
    Kind.REVEAL: choose_reveal,
    Kind.ANSWER: choose_answer,
    Kind.LEAD: choose_lead,
    Kind.EQUIP: choose_equip,
    Kind.SHARE: choose_share,
    Kind.COMRADE: choose_comrade,
    Kind.CLOAK: choose_cloak,
    Kind.PROVISIONS: choose_provisions,
    Kind.MESSENGER: choose_messenger,
    Kind.TARGET: choose_target,
    Kind.TERMS: choose_terms,
    Kind.INFORMANT: choose_informant,
    Kind.PLEDGE: choose_pledge,
    Kind.SHORTFALL: choose_shortfall,
    Kind.CALL: choose_call,
    Kind.CONFIRM: choose_confirm,
}
if list(RULES) != list(Kind):
    raise TypeError(f"the heuristic's RULES list {list(RULES)}, but Sherwood's decision kinds "
                    f"are {list(Kind)}")
