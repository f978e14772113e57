"""The registry of games: each game package registers itself; ``make`` and ``replay``.

Shared layers (core, training, evaluation, CLI, bench) find games only here, so a game
added later gets every command and every generic test suite by calling ``register``, and
with it the PettingZoo module ``forest_envs.<env_id>`` (``env``, ``raw_env``,
``parallel_env``: see env_modules.py) and the gymnasium id ``forest_envs/<env_id>``.

Imports go one way: gym_env.py imports this module, never the reverse (the gymnasium entry
point is named by a string, which gymnasium imports when an env is made).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from . import env_modules
from .aec import OrderEnforcedEnv
from .errors import ConfigError


@dataclass(frozen=True)
class GameSpec:
    env_id: str
    game_class: type                       # a core.engine.Game subclass
    env_class: type                        # its PettingZoo raw env (a ForestAECEnv subclass)
    heuristic: Callable[..., Any] | None   # heuristic(seed=...) -> agent, or None
    bench_configs: tuple[dict, ...] = field(default_factory=tuple)


_GAMES: dict[str, GameSpec] = {}


def register(env_id: str, game_class: type, env_class: type, *,
             heuristic: Callable[..., Any] | None = None,
             bench_configs: tuple[dict, ...] | list[dict] = ()) -> GameSpec:
    """Make a game available under ``env_id`` (to ``make``, the CLI, evaluation, training,
    the benchmark and the generic tests), as the module ``forest_envs.<env_id>`` and as the
    gymnasium id ``forest_envs/<env_id>``. ``heuristic(seed=None)`` builds its scripted agent."""
    if game_class.env_id != env_id:
        raise ValueError(f"{game_class.__name__}.env_id is {game_class.env_id!r}, not {env_id!r}")
    if env_id in _GAMES and _GAMES[env_id].game_class is not game_class:
        raise ValueError(f"env id {env_id!r} is already registered by another game")
    spec = GameSpec(env_id, game_class, env_class, heuristic,
                    tuple(dict(c) for c in bench_configs) or ({},))
    env_modules.install(env_id, env_class)  # checked first: a refused id registers nothing
    _GAMES[env_id] = spec
    _register_gymnasium(env_id)
    return spec


def unregister(env_id: str) -> None:
    _GAMES.pop(env_id, None)
    env_modules.uninstall(env_id)
    import gymnasium

    gymnasium.registry.pop(gymnasium_id(env_id), None)


# --- gymnasium ids: every registered game is also gymnasium.make("forest_envs/<env_id>") ------
GYMNASIUM_NAMESPACE = "forest_envs"


def gymnasium_id(env_id: str) -> str:
    """The gymnasium id of a game's single-agent view: ``forest_envs/<env_id>``."""
    return f"{GYMNASIUM_NAMESPACE}/{env_id}"


# ``SingleAgentEnv(env_id=..., **kwargs)``, imported by gymnasium when an env is made.
SINGLE_AGENT_ENTRY_POINT = f"{__package__}.gym_env:SingleAgentEnv"


def _register_gymnasium(env_id: str) -> None:
    import gymnasium

    gid = gymnasium_id(env_id)
    if gid not in gymnasium.registry:  # registering a game again is allowed; gymnasium would warn
        gymnasium.register(id=gid, entry_point=SINGLE_AGENT_ENTRY_POINT, kwargs={"env_id": env_id})


def env_ids() -> tuple[str, ...]:
    return tuple(_GAMES)


def game_spec(env_id: str) -> GameSpec:
    try:
        return _GAMES[env_id]
    except KeyError:
        raise ConfigError(f"unknown env id {env_id!r}; valid ids are {list(_GAMES)}") from None


def make(env_id: str, **config):
    """The PettingZoo AEC env, order-enforced. Unlike ``forest_envs.<env_id>.env()``
    (PettingZoo's classic wrapping: an illegal action ends the game with a penalty), an
    illegal action raises ``IllegalActionError`` unless ``illegal_action="penalize"``."""
    return OrderEnforcedEnv(make_raw(env_id, **config))


def make_raw(env_id: str, **config):
    return game_spec(env_id).env_class(**config)


def replay(record: dict):
    """Rebuild the game a ``record()`` describes; returns the env after its last action."""
    try:
        env_id, seed, actions = record["env_id"], record["seed"], record["actions"]
    except (KeyError, TypeError):
        raise ValueError("a record needs 'env_id', 'seed' and 'actions'") from None
    env = make(env_id, **record.get("config", {}), **record.get("env_options", {}))
    if record.get("initial_state") is not None:
        start = env.unwrapped.game.state_from_dict(record["initial_state"])
        env.reset(seed=seed, options={"state": start})
    else:
        env.reset(seed=seed)
    for i, action in enumerate(actions):
        # A finished game keeps its agents listed (terminated) until their dead steps, so
        # "no agents left" missed extra actions; PettingZoo then said "the only valid action
        # is None" instead of naming the problem.
        current = env.agent_selection if env.agents else None
        if current is None or env.terminations[current] or env.truncations[current]:
            raise ValueError(f"record has {len(actions) - i} action(s) after the game ended")
        env.step(action)
    return env
