"""Moved: the engine contract is split into ``forest_envs/core/game.py`` (Game, GameTraits),
``core/decisions.py`` (Decision, DecisionKind, check_kind_ids, add_decision_blocks),
``core/results.py`` (REWARD_MODES, competition_ranks, returns_from_ranks, Result) and
``core/state.py`` (GameState, BufferState). This module keeps the old import path working
(docs/architecture.md lists every such module)."""

from .decisions import Decision, DecisionKind, add_decision_blocks, check_kind_ids
from .game import Game, GameTraits
from .results import REWARD_MODES, Result, competition_ranks, returns_from_ranks
from .state import BufferState, GameState

__all__ = ["REWARD_MODES", "BufferState", "Decision", "DecisionKind", "Game", "GameState", "GameTraits",
           "Result", "add_decision_blocks", "check_kind_ids", "competition_ranks", "returns_from_ranks"]
