"""One configuration of a forest game on the OpenSpiel side (``_Setup``): the engine Game of
the options, the reward mode and the step bound, validated once and shared by every game and
state with those parameters (``_setup_of`` caches one per key)."""

from __future__ import annotations

import functools

from ...core import registry
from ...core.errors import ConfigError
from .parameters import OPENSPIEL_REWARDS, PLAYERS, short_name


class _Setup:
    """What one OpenSpiel game (one set of parameters) fixes, shared by all its states."""

    __slots__ = ("env_id", "engine", "reward", "max_steps", "num_players")

    def __init__(self, env_id: str, config: dict, reward: str, max_steps: int):
        spec = registry.game_spec(env_id)
        self.env_id = env_id
        try:
            self.engine = spec.game_class.shared(config)  # validates the options
        except ConfigError as err:
            note = f" (the OpenSpiel parameter {PLAYERS!r})" if "num_players" in str(err) else ""
            raise ConfigError(f"{short_name(env_id)}: {err}{note}") from None
        modes = [m for m in self.engine.traits.reward_modes if m in OPENSPIEL_REWARDS]
        if reward not in modes:
            why = (" ('score' has no utility bounds, which OpenSpiel needs)"
                   if reward in self.engine.traits.reward_modes else "")
            raise ConfigError(f"{short_name(env_id)} parameter reward={reward!r} is invalid{why}; "
                              f"expected one of {modes}")
        if type(max_steps) is not int or max_steps < 1:
            raise ConfigError(f"{short_name(env_id)} parameter max_steps={max_steps!r} is invalid; "
                              "expected a positive int")
        self.reward, self.max_steps = reward, max_steps
        self.num_players = self.engine.num_players

    @property
    def key(self) -> tuple:
        return _setup_key(self.env_id, self.engine.config, self.reward, self.max_steps)


def _setup_key(env_id: str, config: dict, reward: str, max_steps: int) -> tuple:
    # Each value's type is in the key: 1 == True, and legendary=1 must not find the setup of
    # legendary=True (it deserves the engine's error).
    return (env_id, tuple(sorted((k, type(v).__name__, v) for k, v in config.items())), reward,
            type(max_steps).__name__, max_steps)


@functools.cache
def _setup_of(key: tuple) -> _Setup:
    env_id, config, reward, _, max_steps = key
    return _Setup(env_id, {k: v for k, _, v in config}, reward, max_steps)
