"""Checkpoints: an SB3 MaskablePPO ``.zip`` with a small ``.json`` beside it (the run's step
count and wall time when it was saved, and the settings that shape the network, which a
resume may not change). Reading one checks that it can resume a config's run and writes
nothing; writing one writes each file whole or not at all."""

from __future__ import annotations

import json
import zipfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..agents.policy import check_sizes, describe_game
from ..core.errors import ConfigError
from ..envs.registration import make_raw

# --- what a resume must keep -------------------------------------------------------------------

def fixed_settings(cfg: dict) -> dict:
    """The settings a resumed run must share with its checkpoint: they fix the network's shape
    and what its inputs and outputs mean. Game options are taken as resolved by the game, so
    a default left out and the same value written down compare equal."""
    game = make_raw(cfg["env"], **cfg["env_config"]).game
    settings = {"env": cfg["env"], "policy.net_arch": list(cfg["policy"]["net_arch"]),
                "policy.activation": cfg["policy"]["activation"],
                "policy.cells": list(cfg["policy"]["cells"] or []) or None}
    settings.update({f"env_config.{k}": v for k, v in {**cfg["env_config"], **game.config}.items()})
    return settings


def check_unchanged(before: dict, cfg: dict, source: str) -> None:
    now = fixed_settings(cfg)
    for key, old in before.items():
        if old != now.get(key):
            raise ConfigError(f"{key} cannot change on resume: {source} was trained with {old!r}, "
                              f"the config says {now.get(key)!r}")


# --- reading -------------------------------------------------------------------------------------

@dataclass
class Checkpoint:
    """A checkpoint checked fit to resume ``cfg``'s run."""

    path: Path
    timesteps: int
    wall_seconds: float          # the run's wall time when it was saved (0 if not recorded)
    pretrain: dict | None = None


def _read_model_data(path: Path) -> dict:
    """The saved data of an SB3 MaskablePPO zip, or a ConfigError naming what the file is not."""
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
    from stable_baselines3.common.save_util import load_from_zip_file

    what = f"checkpoint {path} is not a MaskablePPO model saved by forest-envs train"
    if not zipfile.is_zipfile(path):
        raise ConfigError(f"{what}: it is not a zip file")
    try:
        data, params, _ = load_from_zip_file(path, device="cpu")
    except Exception as err:
        # zipfile, json, pickle and torch each have their own error for a damaged file.
        raise ConfigError(f"{what}: {type(err).__name__}: {err}") from err
    policy = (data or {}).get("policy_class")
    if not (isinstance(policy, type) and issubclass(policy, MaskableActorCriticPolicy)) or not params:
        found = policy.__name__ if isinstance(policy, type) else "no SB3 policy"
        raise ConfigError(f"{what} (it holds {found})")
    return data


def _model_settings(data: dict) -> dict:
    kwargs = data.get("policy_kwargs") or {}
    activation = kwargs.get("activation_fn")
    return {"policy.net_arch": kwargs.get("net_arch"),
            "policy.activation": activation.__name__.lower() if activation else "tanh",
            "policy.cells": list(kwargs.get("cell_arch") or []) or None}


def inspect_checkpoint(path: str | Path, cfg: dict) -> Checkpoint:
    """Check that ``path`` can resume ``cfg``'s run (ConfigError otherwise); writes nothing."""
    path = Path(path)
    if not path.is_file():
        raise ConfigError(f"checkpoint {path} does not exist")
    data = _read_model_data(path)
    state = _read_state(path)
    # The named settings first: "env_config.num_players" says more than two sizes.
    check_unchanged({**_model_settings(data), **state.get("settings", {})}, cfg, f"checkpoint {path}")
    env = make_raw(cfg["env"], **cfg["env_config"])
    obs_shape = getattr(data.get("observation_space"), "shape", None) or (0,)
    num_actions = getattr(data.get("action_space"), "n", 0)
    check_sizes((int(np.prod(obs_shape)), int(num_actions)),
                (env.game.observation_size, env.game.num_actions), f"checkpoint {path}",
                describe_game(env))
    return Checkpoint(path, int(data.get("num_timesteps", 0)), float(state.get("wall_seconds", 0.0)),
                      state.get("pretrain"))


def _state_path(model_path: Path) -> Path:
    return model_path.with_suffix(".json")


def _read_state(model_path: Path) -> dict:
    path = _state_path(model_path)
    if not path.is_file():
        return {}  # saved before run states existed: wall time unknown, settings from the model
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError) as err:
        raise ConfigError(f"run state {path} beside the checkpoint is unreadable: {err}") from err


def check_limits_left(ckpt: Checkpoint, cfg: dict) -> None:
    if ckpt.timesteps >= cfg["total_timesteps"]:
        raise ConfigError(f"checkpoint {ckpt.path} is at step {ckpt.timesteps}, already at "
                          f"total_timesteps={cfg['total_timesteps']}; raise it (--set "
                          "total_timesteps=N) to train further")
    limit = cfg["time_limit_minutes"]
    if limit is not None and ckpt.wall_seconds >= limit * 60:
        raise ConfigError(f"the run of checkpoint {ckpt.path} has trained {ckpt.wall_seconds / 60:.1f} "
                          f"min, already at time_limit_minutes={limit}; raise it (--set "
                          "time_limit_minutes=M) to train further")


# --- writing -------------------------------------------------------------------------------------

def save_model(model, path: Path) -> None:
    """``model`` to ``path``, written whole or not at all."""
    tmp = path.with_name(path.stem + ".tmp.zip")
    model.save(tmp)
    tmp.replace(path)


def save_state(model_path: Path, state: dict) -> None:
    """The run state beside the model at ``model_path``, written whole or not at all."""
    tmp_state = model_path.with_name(model_path.stem + ".tmp.json")
    tmp_state.write_text(json.dumps(state, indent=2, default=json_default))
    tmp_state.replace(_state_path(model_path))


def json_default(o):
    """numpy numbers and tuples as JSON, for run states and summaries."""
    if isinstance(o, (np.integer, np.floating)):
        return o.item()
    if isinstance(o, tuple):
        return list(o)
    raise TypeError(type(o))
