"""Roundforest: octagon tiles that turn, items, wells and characters (2-4 players)."""

from ..envs.registration import register
from . import native
from .env import raw_env
from .rules import RoundforestGame, RoundforestState, new_game

RoundforestGame.native_state_class = native.NativeRoundforestState
RoundforestGame.native_unavailable = native.UNAVAILABLE_BECAUSE


def heuristic_agent(seed: int | None = None):
    from .agents import HeuristicAgent

    return HeuristicAgent(seed=seed)


# The benchmark's first config (3 players, the shipped training setup) also times the bare engine.
register("roundforest_v0", RoundforestGame, raw_env, heuristic=heuristic_agent,
         bench_configs=[{"num_players": n} for n in (3, 2, 4)]
         + [{"num_players": 3, "no_silver": True, "blockade": True}])

__all__ = ["RoundforestGame", "RoundforestState", "heuristic_agent", "new_game", "raw_env"]
