"""Moved: the gymnasium single-agent env lives in ``forest_envs/envs/gym_env.py``. This
module keeps the old import path working (docs/architecture.md lists every such module)."""

from ..envs.gym_env import MAX_GAMES_WITHOUT_A_TURN, SingleAgentEnv

__all__ = ["MAX_GAMES_WITHOUT_A_TURN", "SingleAgentEnv"]
