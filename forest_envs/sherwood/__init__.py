"""Sherwood Forest: outlaws, ambushes and alliances on the roads of Sherwood (3-6 players)."""

from ..envs.registration import register
from . import native
from .env import raw_env
from .rules import SherwoodGame, SherwoodState, new_game

SherwoodGame.native_state_class = native.NativeSherwoodState
SherwoodGame.native_unavailable = native.UNAVAILABLE_BECAUSE


def heuristic_agent(seed: int | None = None):
    from .agents import HeuristicAgent

    return HeuristicAgent(seed=seed)


# The benchmark's first config (4 players, the shipped training setup) also times the bare engine.
register("sherwood_v0", SherwoodGame, raw_env, heuristic=heuristic_agent,
         bench_configs=[{"num_players": n} for n in (4, 3, 5, 6)]
         + [{"num_players": 4, "additions": True}])

__all__ = ["SherwoodGame", "SherwoodState", "heuristic_agent", "new_game", "raw_env"]
