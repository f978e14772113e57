"""``HeuristicAgent``: takes its seat's reading as a ``SeatView`` and hands each decision to
the module for its kind (``HANDLERS``)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...agents.base import SeededAgent
from ..observation import Kind
from ..text.view import SeatReading
from .characters import choose_character, choose_meet
from .ending import choose_spirit_place
from .helpful_characters import (
    choose_bag_item,
    choose_beggar,
    choose_goblin_give,
    choose_merchant,
    choose_saddle,
    choose_unicorn,
)
from .items import choose_chest, choose_coin_token, choose_drawn, choose_token_item, choose_yellow
from .params import DEFAULT, Params
from .seat_view import SeatView
from .turn import choose_blockade, choose_turn
from .wells import choose_well, choose_well_give

# Each decision kind's handler, by the game's Kind (``observation.Kind``): handler(agent,
# seat view, legal) -> the action, for a set of two or more legal actions.
HANDLERS = {
    Kind.TURN: choose_turn,
    Kind.BLOCKADE_START: choose_blockade,
    Kind.BLOCKADE_END: choose_blockade,
    Kind.DRAWN: choose_drawn,
    Kind.TOKEN_ITEM: choose_token_item,
    Kind.YELLOW: choose_yellow,
    Kind.CHARACTER: choose_character,
    Kind.MEET: choose_meet,
    Kind.WELL: choose_well,
    Kind.WELL_GIVE: choose_well_give,
    Kind.MERCHANT: choose_merchant,
    Kind.PRINCE: choose_bag_item,
    Kind.GOBLIN_GIVE: choose_goblin_give,
    Kind.GOBLIN_TAKE: choose_bag_item,
    Kind.BEGGAR: choose_beggar,
    Kind.UNICORN: choose_unicorn,
    Kind.SADDLE: choose_saddle,
    Kind.SPIRIT_PLACE: choose_spirit_place,
    Kind.COIN_TOKEN: choose_coin_token,
    Kind.CHEST: choose_chest,
}
if set(HANDLERS) != set(Kind):
    raise RuntimeError(
        "HeuristicAgent.HANDLERS does not match Roundforest's decisions: missing "
        f"{sorted(k.name for k in set(Kind) - set(HANDLERS))}, unknown "
        f"{sorted(map(repr, set(HANDLERS) - set(Kind)))}")


class HeuristicAgent(SeededAgent):
    """Scripted Roundforest player; the package docstring says how it plays. ``params``
    override the defaults of ``Params``."""

    name = "heuristic"

    def __init__(self, seed: int | None = None, **params: Any):  # each of a Params field's type
        super().__init__(seed)
        self.p = Params(**params) if params else DEFAULT

    def act(self, env, agent: str) -> int:
        raw = env.unwrapped
        legal = raw.action_mask(agent).nonzero()[0].tolist()
        if len(legal) == 1:
            return legal[0]  # forced: nothing to decide, so nothing is even read
        if not legal:
            raise ValueError(f"{agent} has no legal action: it is not its decision or the "
                             "game is over")
        return self._decide(SeatView(raw.reading(agent)), legal)

    def choose(self, reading: SeatReading, mask: np.ndarray) -> int:
        """The choice among ``mask``'s actions for the seat's ``reading`` (``State.reading``)."""
        legal = np.flatnonzero(mask).tolist()
        if not legal:
            raise ValueError(f"seat {reading.seat} has no legal action: it is not its decision "
                             "or the game is over")
        if len(legal) == 1:
            return legal[0]  # forced: nothing to decide
        return self._decide(SeatView(reading), legal)

    def _decide(self, sv: SeatView, legal: list[int]) -> int:
        """The handler's choice among ``legal`` (more than one action) for ``sv``."""
        if sv.kind is None:
            raise RuntimeError(f"HeuristicAgent has no handler for decision {sv.decision!r}")
        choice = HANDLERS[sv.kind](self, sv, set(legal))
        if choice not in legal:
            raise RuntimeError(f"HeuristicAgent chose {choice!r} in the {sv.decision!r} decision, "
                               f"not one of the legal actions {legal}")
        return int(choice)
