"""Chickwood Forest: card drafting, hidden cards and alms on a village grid (2-5 players)."""

from ..envs.registration import register
from . import native
from .env import raw_env
from .rules import ChickwoodGame, ChickwoodState, new_game

ChickwoodGame.native_state_class = native.NativeChickwoodState
ChickwoodGame.native_unavailable = native.UNAVAILABLE_BECAUSE


def heuristic_agent(seed: int | None = None):
    from .agents import HeuristicAgent  # the heuristic is large: imported only when asked for

    return HeuristicAgent(seed=seed)


# The benchmark's first config (3 players, the shipped training setup) also times the bare engine.
register("chickwood_v0", ChickwoodGame, raw_env, heuristic=heuristic_agent,
         bench_configs=[{"num_players": n} for n in (3, 2, 4, 5)]
         + [{"num_players": 3, "legendary": True}])

__all__ = ["ChickwoodGame", "ChickwoodState", "heuristic_agent", "new_game", "raw_env"]
