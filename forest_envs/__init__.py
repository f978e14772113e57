"""forest_envs: three forest board games as multi-agent RL environments (PettingZoo AEC)."""

# Each game package registers itself on import; these are the games that ship.
from . import chickwood, roundforest, sherwood  # noqa: F401  (each registers its env id)
from .core.errors import ConfigError, IllegalActionError, WrongAgentError
from .core.gym_env import SingleAgentEnv
from .core.registry import env_ids, gymnasium_id, make, make_raw, register, replay

ENV_IDS = env_ids()  # the games that ship; env_ids() also lists games registered later
__version__ = "0.1.0"
__all__ = ["ENV_IDS", "ConfigError", "IllegalActionError", "SingleAgentEnv", "WrongAgentError",
           "__version__", "env_ids", "gymnasium_id", "make", "make_raw", "register", "replay"]
