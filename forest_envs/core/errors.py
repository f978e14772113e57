"""Errors raised by forest_envs. Every one names the offending value."""


class ForestEnvError(Exception):
    """Base class of every error raised on purpose by forest_envs."""


class ConfigError(ForestEnvError, ValueError):
    """A game or environment option is unknown or out of range."""


class IllegalActionError(ForestEnvError, ValueError):
    """An action id is out of range or not legal in the current state."""


class WrongAgentError(ForestEnvError, ValueError):
    """An agent acted or was asked about when it is not its turn / not in the game."""
