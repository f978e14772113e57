"""forest_envs: three forest board games as multi-agent RL environments (PettingZoo AEC).

Every registered game is also a PettingZoo-style module, as ``pettingzoo.classic``'s are:
``from forest_envs import chickwood_v0`` (or ``import forest_envs.chickwood_v0``) gives
``chickwood_v0.env()``, ``raw_env()`` and ``parallel_env()`` (see envs/env_modules.py).
"""

# Each game package registers itself on import (its env id, its module forest_envs.<env_id>,
# its gymnasium id); these are the games that ship.
from . import chickwood, roundforest, sherwood  # noqa: F401  (each registers its env id)
from .core.errors import ConfigError, IllegalActionError, WrongAgentError
from .core.registry import env_ids
from .envs.gym_env import SingleAgentEnv
from .envs.registration import gymnasium_id, make, make_raw, register, replay
from .envs.vector import BatchedEnv, SelfPlayVectorEnv, make_vec

ENV_IDS = env_ids()  # the games that ship; env_ids() also lists games registered later
__version__ = "0.1.0"
__all__ = ["ENV_IDS", "BatchedEnv", "ConfigError", "IllegalActionError", "SelfPlayVectorEnv",
           "SingleAgentEnv", "WrongAgentError", "__version__", "env_ids", "gymnasium_id", "make",
           "make_raw", "make_vec", "register", "replay",
           *ENV_IDS]  # the generated modules chickwood_v0, roundforest_v0, sherwood_v0
