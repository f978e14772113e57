"""OpenSpiel's names and parameters of a forest game: ``python_<env id>``, the parameter
specification (the game's options, then ``reward``, ``max_steps``, ``rng_seed``), the
GameType built from the game's traits, and the split of a game's parameters into engine
config, reward mode, step bound and seed."""

from __future__ import annotations

from typing import Any

import pyspiel

from ...core import registry
from ...core.errors import ConfigError
from ...core.results import REWARD_MODES

PREFIX = "python_"
# max_game_length of a game whose rules always end it (no ``default_max_steps``): OpenSpiel
# needs a bound, and the state truncates there so that the bound holds. Far above any game's
# length (docs/openspiel.md gives the longest random games measured).
FALLBACK_MAX_STEPS = 10_000
# The engine's reward modes OpenSpiel can take: both are in [0, 1]. "score" (score
# differences) has no bound the engine declares, and GameInfo needs min and max utility.
OPENSPIEL_REWARDS = tuple(m for m in REWARD_MODES if m != "score")
# OpenSpiel's name for the player count (every one of its games with a variable count uses it).
PLAYERS = "players"
_ADAPTER_PARAMS = ("reward", "max_steps", "rng_seed")
_PARAM_TYPES = (bool, int, float, str)


def short_name(env_id: str) -> str:
    """The OpenSpiel name of a game: ``python_<env id>``."""
    return PREFIX + env_id


# --- parameters and GameType --------------------------------------------------------------
def _default_max_steps(game_class) -> int:
    return game_class.default_max_steps or FALLBACK_MAX_STEPS


def _parameter_specification(env_id: str) -> dict[str, Any]:
    """OpenSpiel parameter -> default: the game's options (``num_players`` as ``players``),
    then ``reward``, ``max_steps`` and ``rng_seed``."""
    game_class = registry.game_spec(env_id).game_class
    spec: dict[str, Any] = {}
    for key, option in game_class.options.items():
        if key in _ADAPTER_PARAMS or key == PLAYERS:
            raise ConfigError(f"{env_id} option {key!r} clashes with the OpenSpiel parameter {key!r}")
        if type(option.default) not in _PARAM_TYPES:
            raise ConfigError(f"{env_id} option {key!r} has the default {option.default!r}; an OpenSpiel "
                              "parameter is a bool, int, float or str")
        spec[PLAYERS if key == "num_players" else key] = option.default
    spec["reward"] = _default_reward()
    spec["max_steps"] = _default_max_steps(game_class)
    spec["rng_seed"] = -1
    return spec


def _default_reward() -> str:
    """The PettingZoo env's default reward mode (one default for both front ends)."""
    from ..aec import ENV_OPTIONS

    return ENV_OPTIONS["reward"].default


def game_type(env_id: str) -> pyspiel.GameType:
    """The GameType of ``python_<env id>``, from the game's traits (docs/openspiel.md)."""
    traits = registry.game_spec(env_id).game_class.traits
    Type = pyspiel.GameType
    return Type(
        short_name=short_name(env_id),
        long_name=f"Python {traits.name}",
        dynamics=Type.Dynamics.SEQUENTIAL,
        chance_mode=(Type.ChanceMode.SAMPLED_STOCHASTIC if traits.chance
                     else Type.ChanceMode.DETERMINISTIC),
        information=(Type.Information.IMPERFECT_INFORMATION if traits.hidden_information
                     else Type.Information.PERFECT_INFORMATION),
        # "win" pays the winners 1 in all, but a truncated game pays nobody; "rank" sums to
        # more when players share a place: neither has a constant sum.
        utility=Type.Utility.GENERAL_SUM,
        reward_model=Type.RewardModel.TERMINAL,
        max_num_players=traits.max_players,
        min_num_players=traits.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_parameter_specification(env_id))


def _split_params(env_id: str, params: dict) -> tuple[dict, str, int, int]:
    """OpenSpiel parameters -> (engine config, reward, max_steps, rng_seed)."""
    spec = _parameter_specification(env_id)
    unknown = sorted(set(params) - set(spec))
    if unknown:
        raise ConfigError(f"unknown parameter(s) {unknown} for {short_name(env_id)}; valid ones are "
                          f"{sorted(spec)}")
    full = {**spec, **params}
    config = {("num_players" if k == PLAYERS else k): v for k, v in full.items()
              if k not in _ADAPTER_PARAMS}
    rng_seed = full["rng_seed"]
    if type(rng_seed) is not int or rng_seed < -1:
        raise ConfigError(f"{short_name(env_id)} parameter rng_seed={rng_seed!r} is invalid; expected "
                          "-1 (fresh entropy) or a seed >= 0")
    return config, full["reward"], full["max_steps"], rng_seed
