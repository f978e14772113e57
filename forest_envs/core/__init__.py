"""The engine contract every game implements and every other layer reads: Game and State,
decisions, results, the state buffer's layout, action spaces, options, seeded generators,
plain-data records, errors and the catalogue of registered games (docs/architecture.md)."""

from .errors import ConfigError, ForestEnvError, IllegalActionError, WrongAgentError

__all__ = [
           "ConfigError",
           "ForestEnvError",
           "IllegalActionError",
           "WrongAgentError",
]
