"""The trained policies shipped inside the package, by name: the agent ``ppo``.

For an env id, ``forest_envs/baselines/<env_id>.npz`` is the policy (the trainer's export, read
by ``policy.NumpyPolicy``) and ``forest_envs/baselines/<env_id>.json`` the ``summary.json`` of
the run that trained it, whose ``env`` and ``env_config`` say which configuration it plays
(one source: the run's own record, committed beside the weights). A game of another
configuration (another player count, a variant) is refused by the agent's fit check, which
``check_agent_fits`` runs before evaluation and play, with an error saying that no ``ppo``
ships for it and how to pass a policy file instead.
"""

from __future__ import annotations

import json
from pathlib import Path

from ..core.errors import ConfigError
from ..core.registry import env_ids, game_spec
from .policy import NumpyPolicy, PolicyAgent

BASELINE = "ppo"  # the agent name of a shipped baseline
FOLDER = Path(__file__).resolve().parent.parent / "baselines"

# (policy file, its mtime) -> (policy, trained for): each process loads a baseline once.
_LOADED: dict[tuple[str, float], tuple[NumpyPolicy, tuple[str, dict]]] = {}


def baseline_files(env_id: str) -> tuple[Path, Path]:
    """The shipped policy file and its run summary for ``env_id`` (they may not exist)."""
    return FOLDER / f"{env_id}.npz", FOLDER / f"{env_id}.json"


def shipped_env_ids() -> list[str]:
    """The registered env ids a baseline ships for."""
    return [e for e in env_ids() if all(p.is_file() for p in baseline_files(e))]


def _how_to_pass_a_file(env_id: str) -> str:
    return (f"pass a trained policy file instead (an agent named by its path, e.g. "
            f"--agents runs/<run>/final.npz,heuristic,... or make_agent({env_id!r}, "
            f"'runs/<run>/final.npz')); `forest-envs train <config>` writes one")


def baseline_summary(env_id: str) -> tuple[dict, dict]:
    """The summary.json of the run that trained ``env_id``'s shipped policy, and the full game
    config (defaults filled in) it was trained for. A ConfigError when none ships or the
    summary does not say."""
    weights, summary = baseline_files(env_id)
    if not weights.is_file():
        shipped = shipped_env_ids()
        raise ConfigError(f"no {BASELINE} baseline ships for {env_id} yet (forest_envs/baselines/ "
                          f"holds {', '.join(shipped) if shipped else 'none'}); "
                          + _how_to_pass_a_file(env_id))
    if not summary.is_file():
        raise ConfigError(f"the shipped {weights.name} has no {summary.name} beside it (the "
                          "training run's summary.json, saying which configuration it plays)")
    try:
        record = json.loads(summary.read_text())
        trained_env, trained_config = record["env"], dict(record.get("env_config") or {})
    except (ValueError, KeyError, TypeError) as err:
        raise ConfigError(f"{summary} is not a training run's summary.json (needs 'env' and "
                          f"'env_config'): {type(err).__name__}: {err}") from None
    if trained_env != env_id:
        raise ConfigError(f"{summary} says its policy was trained on {trained_env}, not {env_id}")
    return record, dict(game_spec(env_id).game_class.shared(trained_config).config)  # with the defaults


def load_baseline(env_id: str) -> tuple[NumpyPolicy, tuple[str, dict]]:
    """The shipped policy of ``env_id`` and the (env id, full game config) it was trained
    for; loaded once per process. A ConfigError when none ships."""
    weights, _ = baseline_files(env_id)
    key = (str(weights), weights.stat().st_mtime if weights.is_file() else 0.0)
    if key in _LOADED:
        return _LOADED[key]
    _, full_config = baseline_summary(env_id)
    _LOADED[key] = NumpyPolicy.load(weights), (env_id, full_config)
    return _LOADED[key]


def baseline_agent(env_id: str, seed: int | None = None, deterministic: bool = False) -> PolicyAgent:
    """The agent ``ppo`` of ``env_id``: its shipped policy, refusing any other configuration."""
    policy, trained_for = load_baseline(env_id)
    return PolicyAgent(baseline_files(env_id)[0], seed=seed, deterministic=deterministic,
                       policy=policy, trained_for=trained_for, name=BASELINE,
                       otherwise=_how_to_pass_a_file(env_id))
