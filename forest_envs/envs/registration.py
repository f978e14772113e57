"""A game registered as envs: ``register``, and ``make`` / ``make_raw`` / ``replay``.

``register`` puts a game in the catalogue (``core/registry.py``) and makes it the PettingZoo
module ``forest_envs.<env_id>`` (``env``, ``raw_env``, ``parallel_env``: see env_modules.py)
and the gymnasium id ``forest_envs/<env_id>``. Each game package calls it when imported.

Imports go one way: gym_env.py imports this module, never the reverse (the gymnasium entry
point is named by a string, which gymnasium imports when an env is made).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..core import registry
from ..core.registry import GameSpec, game_spec
from . import env_modules
from .order_enforcing import OrderEnforcedEnv


def register(env_id: str, game_class: type, env_class: type, *,
             heuristic: Callable[..., Any] | None = None,
             bench_configs: tuple[dict, ...] | list[dict] = ()) -> GameSpec:
    """Make a game available under ``env_id`` (to ``make``, the CLI, evaluation, training,
    the benchmark and the generic tests), as the module ``forest_envs.<env_id>`` and as the
    gymnasium id ``forest_envs/<env_id>``. ``heuristic(seed=None)`` builds its scripted agent."""
    spec = GameSpec(env_id, game_class, env_class, heuristic,
                    tuple(dict(c) for c in bench_configs) or ({},))
    registry.check(spec)
    env_modules.install(env_id, env_class)  # checked first: a refused id registers nothing
    registry.add(spec)
    _register_gymnasium(env_id)
    return spec


def unregister(env_id: str) -> None:
    registry.remove(env_id)
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
