"""Environment ids, ``make`` and ``replay``."""

from __future__ import annotations

import importlib

from .errors import ConfigError

_MODULES = {"chickwood_v0": "forest_envs.chickwood"}
ENV_IDS = tuple(_MODULES)


def env_module(env_id: str):
    if env_id not in _MODULES:
        raise ConfigError(f"unknown env id {env_id!r}; valid ids are {list(ENV_IDS)}")
    return importlib.import_module(_MODULES[env_id])


def make(env_id: str, **config):
    """The wrapped PettingZoo AEC env (as ``forest_envs.<game>.env(**config)``)."""
    return env_module(env_id).env(**config)


def make_raw(env_id: str, **config):
    return env_module(env_id).raw_env(**config)


def replay(record: dict):
    """Rebuild the game a ``record()`` describes; returns the env after its last action."""
    try:
        env_id, seed, actions = record["env_id"], record["seed"], record["actions"]
    except (KeyError, TypeError):
        raise ValueError("a record needs 'env_id', 'seed' and 'actions'") from None
    env = make(env_id, **record.get("config", {}), **record.get("env_options", {}))
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


def make_agent(env_id: str, spec: str, seed: int | None = None):
    """An agent by name: ``random``, ``heuristic`` (the game's scripted agent), or the path
    of a trained policy (``.npz`` exported by the trainer, or an SB3 ``.zip``)."""
    from .agents import RandomAgent

    env_module(env_id)
    if spec == "random":
        return RandomAgent(seed)
    if spec == "heuristic":
        module = importlib.import_module(_MODULES[env_id] + ".agents")
        return module.HeuristicAgent(seed=seed)
    if spec.endswith((".npz", ".zip")):
        from ..train.policy import PolicyAgent

        try:
            return PolicyAgent(spec, seed=seed)
        except FileNotFoundError as err:
            raise ConfigError(str(err)) from None
    raise ConfigError(f"unknown agent {spec!r}; expected 'random', 'heuristic' or a policy file "
                      "(.npz / .zip)")
