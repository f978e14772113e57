"""The catalogue of games: which env ids exist and what each is made of.

Shared layers (agents, evaluation, training, the CLI, the benchmark) find games only here, so
a game added later gets every command and every generic test suite by registering. A game
registers through ``forest_envs.register`` (``envs/registration.py``), which also makes it an
env (the module ``forest_envs.<env_id>``, the gymnasium id ``forest_envs/<env_id>``) and
then calls ``add`` here. This module imports no env: the catalogue sits in core so that the
agents layer, below the envs, can find a game's heuristic and configurations.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .errors import ConfigError

if TYPE_CHECKING:
    from .game import Game


@dataclass(frozen=True)
class GameSpec:
    env_id: str
    game_class: type[Game]
    env_class: type                        # its PettingZoo raw env (a ForestAECEnv subclass)
    heuristic: Callable[..., Any] | None   # heuristic(seed=...) -> agent, or None
    bench_configs: tuple[dict, ...] = field(default_factory=tuple)


_GAMES: dict[str, GameSpec] = {}


def check(spec: GameSpec) -> None:
    """Refuse a spec whose game names another env id, or an id another game holds."""
    if spec.game_class.env_id != spec.env_id:
        raise ValueError(f"{spec.game_class.__name__}.env_id is {spec.game_class.env_id!r}, "
                         f"not {spec.env_id!r}")
    if spec.env_id in _GAMES and _GAMES[spec.env_id].game_class is not spec.game_class:
        raise ValueError(f"env id {spec.env_id!r} is already registered by another game")


def add(spec: GameSpec) -> None:
    check(spec)
    _GAMES[spec.env_id] = spec


def remove(env_id: str) -> None:
    _GAMES.pop(env_id, None)


def env_ids() -> tuple[str, ...]:
    return tuple(_GAMES)


def game_spec(env_id: str) -> GameSpec:
    try:
        return _GAMES[env_id]
    except KeyError:
        raise ConfigError(f"unknown env id {env_id!r}; valid ids are {list(_GAMES)}") from None
