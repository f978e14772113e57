"""forest_envs: three forest board games as multi-agent RL environments (PettingZoo AEC)."""

from .core.errors import ConfigError, IllegalActionError, WrongAgentError
from .core.registry import ENV_IDS, make, make_raw, replay

__version__ = "0.1.0"
__all__ = ["ENV_IDS", "ConfigError", "IllegalActionError", "WrongAgentError", "__version__",
           "make", "make_raw", "replay"]
