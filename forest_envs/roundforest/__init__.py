"""Roundforest: octagon tiles that turn, items, wells and characters (2-4 players).

Not registered yet: the lead adds ``register("roundforest_v0", RoundforestGame, raw_env,
heuristic=heuristic_agent, bench_configs=[...])`` here and imports the package in
``forest_envs/__init__.py`` once the engine is complete.
"""

from .env import env, raw_env
from .rules import RoundforestGame, RoundforestState, new_game


def heuristic_agent(seed: int | None = None):
    from .agents import HeuristicAgent

    return HeuristicAgent(seed=seed)


__all__ = ["RoundforestGame", "RoundforestState", "env", "heuristic_agent", "new_game", "raw_env"]
