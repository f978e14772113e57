"""What every game shares: engine base classes, the AEC adapter, agents, errors, registry."""

from .agents import Agent, RandomAgent
from .errors import ConfigError, ForestEnvError, IllegalActionError, WrongAgentError

__all__ = [
           "Agent",
           "ConfigError",
           "ForestEnvError",
           "IllegalActionError",
           "RandomAgent",
           "WrongAgentError",
]
