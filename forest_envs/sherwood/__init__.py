"""Sherwood Forest: outlaws, ambushes and alliances on the roads of Sherwood (3-6 players).

Not registered yet: the lead registers ``sherwood_v0`` and imports this package from
``forest_envs/__init__.py``; the call will be

    register("sherwood_v0", SherwoodGame, raw_env, heuristic=heuristic_agent,
             bench_configs=[{"num_players": n} for n in (4, 3, 5, 6)]
             + [{"num_players": 4, "additions": True}])
"""

from .env import env, raw_env
from .rules import SherwoodGame, SherwoodState, new_game


def heuristic_agent(seed: int | None = None):
    from .agents import HeuristicAgent

    return HeuristicAgent(seed=seed)


__all__ = ["SherwoodGame", "SherwoodState", "env", "heuristic_agent", "new_game", "raw_env"]
