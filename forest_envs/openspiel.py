"""Moved: the OpenSpiel games live in ``forest_envs/envs/openspiel/`` (importing either
registers every game with ``pyspiel``). This module keeps the old import path working
(docs/architecture.md lists every such module)."""

from .envs.openspiel import (
    FALLBACK_MAX_STEPS,
    OPENSPIEL_REWARDS,
    PLAYERS,
    PREFIX,
    ForestGame,
    ForestObserver,
    ForestState,
    game_type,
    load_game,
    register,
    register_all,
    short_name,
)

__all__ = ["FALLBACK_MAX_STEPS", "OPENSPIEL_REWARDS", "PLAYERS", "PREFIX", "ForestGame", "ForestObserver",
           "ForestState", "game_type", "load_game", "register", "register_all", "short_name"]
