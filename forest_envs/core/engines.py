"""Which engine plays a game: the Python rules (the readable reference, and the fallback where
no compiler built the native ones) or the native C++ rules of the same game (the same
games, bit for bit: ``forest_envs/testing/differential.py``).

The choice is made per env (``make(env_id, engine=...)``) or per state
(``game.new_initial_state(seed, engine=...)``); without one, ``FOREST_ENVS_ENGINE`` decides,
and without that a game plays on its native engine when it has one built. Asking for
``native`` where a game has none is an error that says why (no compiler, built with
``FOREST_ENVS_NATIVE=OFF``, or not written yet for that game).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from .errors import ConfigError

if TYPE_CHECKING:
    from .game import Game
    from .state import GameState

ENGINES = ("python", "native")
ENGINE_VARIABLE = "FOREST_ENVS_ENGINE"


def default_engine(game_class: type[Game]) -> str:
    """The engine a game plays on when none is asked for: ``$FOREST_ENVS_ENGINE`` if set,
    else native where built, else python."""
    chosen = os.environ.get(ENGINE_VARIABLE, "").strip()
    if chosen:
        return resolve_engine(game_class, chosen, source=ENGINE_VARIABLE)
    return "native" if game_class.native_state_class is not None else "python"


def resolve_engine(game_class: type[Game], engine: str | None, source: str = "engine") -> str:
    """``engine`` checked (None: the default engine)."""
    if engine is None:
        return default_engine(game_class)
    if engine not in ENGINES:
        raise ConfigError(f"{source}={engine!r} is not an engine; expected one of {list(ENGINES)}")
    if engine == "native" and game_class.native_state_class is None:
        raise ConfigError(f"{game_class.env_id} has no native engine here: {game_class.native_unavailable}; "
                          f"use engine='python'")
    return engine


def state_class(game_class: type[Game], engine: str | None = None) -> type[GameState]:
    """The state class of ``engine`` (None: the default) for ``game_class``."""
    native = game_class.native_state_class
    if resolve_engine(game_class, engine) == "native" and native is not None:  # (resolved: built)
        return native
    return game_class.state_class


def available(game_class: type[Game]) -> tuple[str, ...]:
    """The engines this game can play on here."""
    return ENGINES if game_class.native_state_class is not None else ("python",)


def engine_of(state) -> str:
    """The engine a state plays on."""
    return getattr(type(state), "engine", "python")
