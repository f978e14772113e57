"""Training configs: YAML files validated against a schema (unknown keys and bad values
raise ConfigError naming the key and what is expected). The package ships its configs in
``forest_envs/configs/`` (package data): a config is given by its name (its file's stem, as
``forest-envs configs`` lists it) or as a path to a YAML file."""

from __future__ import annotations

import copy
import re
from pathlib import Path
from typing import Any

from ..core.config import Option, validate_options
from ..core.errors import ConfigError
from ..core.registry import env_ids
from ..envs.registration import make_raw

_pos_int: dict[str, Any] = dict(check=lambda v: isinstance(v, int) and not isinstance(v, bool) and v > 0,
                doc="a positive int")
_nonneg_int: dict[str, Any] = dict(check=lambda v: isinstance(v, int) and not isinstance(v, bool) and v >= 0,
                   doc="a non-negative int")
_pos_num: dict[str, Any] = dict(check=lambda v: isinstance(v, (int, float)) and not isinstance(v, bool) and v > 0,
                doc="a positive number")
_unit: dict[str, Any] = dict(check=lambda v: isinstance(v, (int, float)) and not isinstance(v, bool) and 0 <= v <= 1,
             doc="a number in [0, 1]")
_AGENT_KINDS = ("random", "heuristic", "snapshot")

SCHEMA: dict[str, Any] = {
    "env": Option(None, check=lambda v: v in env_ids(), doc="a registered env id (forest-envs list)"),
    "env_config": Option({}, check=lambda v: isinstance(v, dict), doc="a mapping of game options"),
    "reward": Option("win", choices=("win", "rank", "score")),
    # potential-based shaping of the learner's reward (train/shaping.py): 0 is none
    "shaping": Option(0.0, check=lambda v: isinstance(v, (int, float)) and not isinstance(v, bool)
                      and v >= 0, doc="a number >= 0 (0: no shaping)"),
    "seed": Option(0, **_nonneg_int),
    "total_timesteps": Option(1_000_000, **_pos_int),
    "time_limit_minutes": Option(None, check=lambda v: v is None or _pos_num["check"](v),
                                 doc="None or a positive number"),
    "n_envs": Option(4, **_pos_int),
    "vec_env": Option("subproc", choices=("subproc", "dummy")),
    # with vec_env subproc: the worker processes that step the n_envs envs (train/batched.py);
    # null: one per CPU core the trainer leaves (pipelined: all but one, at least one;
    # otherwise one per core), never more than n_envs. The layout never changes a run.
    "env_workers": Option(None, check=lambda v: v is None or _pos_int["check"](v),
                          doc="null or a positive integer"),
    # with vec_env subproc: the last trainer_envs envs are stepped by the trainer's own
    # process, the others by its workers; with pipelined rollouts the trainer steps its
    # envs while the workers step theirs (train/batched.py). Never changes a run.
    "trainer_envs": Option(0, **_nonneg_int),
    # act for one half of the envs while the other half's worker processes step
    # (train/pipeline.py); null: wherever worker processes step two or more envs
    "pipeline": Option(None, check=lambda v: v is None or isinstance(v, bool),
                       doc="null (on wherever vec_env is subproc and n_envs >= 2), true or false"),
    "output_dir": Option("runs/default", check=lambda v: isinstance(v, str) and v != "", doc="a path"),
    "checkpoint_every": Option(200_000, **_pos_int),
    "torch_threads": Option(1, **_pos_int),
    "policy": {
        "net_arch": Option([256, 256], check=lambda v: isinstance(v, list) and v and all(
            isinstance(x, int) and x > 0 for x in v), doc="a list of positive layer widths"),
        "activation": Option("tanh", choices=("tanh", "relu")),
        # A cell network (train/cellpolicy.py) of these layer widths in the action head; none
        # by default. Only for a game that declares its cells (Game.cell_spec).
        "cells": Option(None, check=lambda v: v is None or (isinstance(v, list) and v and all(
            isinstance(x, int) and not isinstance(x, bool) and x > 0 for x in v)),
            doc="null or a list of positive layer widths"),
    },
    "ppo": {
        "learning_rate": Option(3e-4, **_pos_num),
        "n_steps": Option(256, **_pos_int),
        "batch_size": Option(512, **_pos_int),
        "n_epochs": Option(4, **_pos_int),
        "gamma": Option(1.0, **_unit),
        "gae_lambda": Option(0.95, **_unit),
        "clip_range": Option(0.2, **_pos_num),
        "ent_coef": Option(0.01, check=lambda v: isinstance(v, (int, float)) and v >= 0, doc="a number >= 0"),
        "vf_coef": Option(0.5, **_pos_num),
        "max_grad_norm": Option(0.5, **_pos_num),
    },
    "opponents": {
        "pool": Option([{"agent": "random", "weight": 1.0}], check=lambda v: _valid_pool(v),
                       doc="a list of {agent: random|heuristic|snapshot, weight: >0}"),
        "snapshot_every": Option(100_000, **_pos_int),
        "max_snapshots": Option(10, **_pos_int),
    },
    "pretrain": {
        "games": Option(0, check=_nonneg_int["check"], doc="teacher games (0: no warm start)"),
        "teacher": Option("heuristic", choices=("heuristic",)),
        "epochs": Option(4, **_pos_int),
        "batch_size": Option(1024, **_pos_int),
        "learning_rate": Option(1e-3, **_pos_num),
        "workers": Option(2, **_pos_int),
    },
    "rllib": {
        "policies": Option("shared", choices=("shared", "per_seat"),
                           doc="one policy for every seat, or one per seat"),
        "iterations": Option(50, **_pos_int),
        "train_batch_size": Option(4000, **_pos_int),
        "minibatch_size": Option(500, **_pos_int),
        "num_env_runners": Option(1, **_nonneg_int),
        "num_cpus": Option(2, **_pos_int),
    },
    "eval": {
        "every": Option(250_000, **_pos_int),
        "games": Option(100, **_nonneg_int),
        "final_games": Option(1000, **_nonneg_int),
        "opponents": Option(["random", "heuristic"], check=lambda v: isinstance(v, list) and all(
            x in ("random", "heuristic") for x in v), doc="a list of random/heuristic"),
        "workers": Option(2, **_pos_int),
    },
}


def _valid_pool(pool) -> bool:
    return isinstance(pool, list) and len(pool) > 0 and all(
        isinstance(e, dict) and set(e) <= {"agent", "weight"} and e.get("agent") in _AGENT_KINDS
        and isinstance(e.get("weight", 1.0), (int, float)) and e.get("weight", 1.0) > 0 for e in pool)


def _validate(schema: dict, given: Any, where: str) -> dict:
    if not isinstance(given, dict):
        raise ConfigError(f"{where or 'config'} must be a mapping, got {type(given).__name__}")
    flat = {k: v for k, v in schema.items() if isinstance(v, Option)}
    nested = {k: v for k, v in schema.items() if isinstance(v, dict)}
    unknown = sorted(set(given) - set(schema))
    if unknown:
        raise ConfigError(f"unknown training config key(s) {[where + k for k in unknown]}; "
                          f"valid keys here are {sorted(schema)}")
    out = validate_options(flat, {k: v for k, v in given.items() if k in flat},
                           f"training config {where or ''}".rstrip())
    for key, sub in nested.items():
        out[key] = _validate(sub, given.get(key, {}) or {}, f"{where}{key}.")
    return out


def validate_config(raw: dict) -> dict:
    cfg = _validate(SCHEMA, copy.deepcopy(raw), "")
    # Build the env once: a bad game option is reported now, not inside a worker process.
    env = make_raw(cfg["env"], **cfg["env_config"], reward=cfg["reward"])
    if cfg["shaping"] and not env.game.state_class.has_potential():
        raise ConfigError(f"shaping={cfg['shaping']}: {cfg['env']} declares no potential to shape "
                          "the reward by (state.potential); use shaping: 0")
    if cfg["policy"]["cells"] and env.game.cells() is None:
        raise ConfigError(f"policy.cells={cfg['policy']['cells']}: {cfg['env']} declares no cells "
                          "for a cell network to read (Game.cell_spec); use cells: null")
    if cfg["pipeline"] is None:
        cfg["pipeline"] = cfg["vec_env"] == "subproc" and cfg["n_envs"] >= 2
    elif cfg["pipeline"] and (cfg["vec_env"] != "subproc" or cfg["n_envs"] < 2):
        raise ConfigError(f"pipeline: true needs vec_env: subproc and n_envs >= 2 (two halves of "
                          f"envs in worker processes), not vec_env: {cfg['vec_env']} with n_envs: "
                          f"{cfg['n_envs']}")
    if cfg["trainer_envs"] and (cfg["vec_env"] != "subproc"
                                or cfg["trainer_envs"] >= cfg["n_envs"]):
        raise ConfigError(f"trainer_envs={cfg['trainer_envs']} needs vec_env: subproc and fewer "
                          f"than n_envs={cfg['n_envs']} (at least one env in a worker process); "
                          f"vec_env: dummy steps every env in the trainer already")
    if cfg["ppo"]["batch_size"] > cfg["ppo"]["n_steps"] * cfg["n_envs"]:
        raise ConfigError(f"ppo.batch_size={cfg['ppo']['batch_size']} exceeds n_steps * n_envs = "
                          f"{cfg['ppo']['n_steps'] * cfg['n_envs']}")
    return cfg


def num_players(cfg: dict) -> int:
    """The number of seats of a validated config's game (its options may set it)."""
    return make_raw(cfg["env"], **cfg["env_config"]).game.num_players


# YAML 1.1 (PyYAML) reads 1e-4 as a string: its floats need a dot (1.0e-4). Configs are
# written by people, so an exponent without a dot is a float too.
_EXPONENT_FLOAT = re.compile(r"^[-+]?[0-9][0-9_]*(?:\.[0-9_]*)?[eE][-+]?[0-9]+$")


def _yaml_loader():
    import yaml

    class Loader(yaml.SafeLoader):
        pass

    Loader.add_implicit_resolver("tag:yaml.org,2002:float", _EXPONENT_FLOAT, list("-+0123456789"))
    return Loader


SHIPPED_CONFIGS = "configs"  # the folder of the package that holds the shipped configs


def shipped_configs() -> dict[str, Path]:
    """The configs that ship inside the package, by name (the file name without ``.yaml``)."""
    from importlib.resources import files

    folder = Path(str(files("forest_envs") / SHIPPED_CONFIGS))
    return {p.stem: p for p in sorted(folder.glob("*.yaml"))}


def config_description(path: Path) -> str:
    """A config's opening comment, as one line."""
    words = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.startswith("#"):
            break
        words += line.lstrip("#").split()
    return " ".join(words)


def resolve_config(given: str | Path) -> Path:
    """The YAML file ``given`` names: a file path, or the name of a shipped config
    (``NAME`` or ``NAME.yaml``); anything else is a ConfigError naming the shipped
    ones."""
    path = Path(given)
    if path.is_file():
        return path
    shipped = shipped_configs()
    name = path.name[:-5] if path.name.endswith(".yaml") else path.name
    if str(given) in (name, f"{name}.yaml") and name in shipped:
        return shipped[name]
    what = (f"config {str(given)!r} is a folder, not a file" if path.exists() else
            f"config file {str(given)!r} does not exist")
    hint = f" (the shipped config {name!r} is {shipped[name]})" if name in shipped else ""
    raise ConfigError(f"{what}{hint}; give a YAML file or the name of a shipped config: "
                      f"{', '.join(shipped)} (forest-envs configs lists them)")


def load_config(path: str | Path, overrides: dict | None = None) -> dict:
    """Read and validate a YAML config (a path or a shipped config's name); ``overrides`` maps dotted keys (``ppo.n_steps``) to
    values. A file that is missing, unreadable or not YAML, and an override of a key that is
    not in a section, raise ConfigError naming the file (and line) or the key."""
    import yaml

    path = resolve_config(path)
    try:
        with path.open(encoding="utf-8") as f:
            raw = yaml.load(f, Loader=_yaml_loader())
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None) or getattr(err, "context_mark", None)
        where = f", line {mark.line + 1} column {mark.column + 1}" if mark is not None else ""
        problem = getattr(err, "problem", None) or str(err).splitlines()[0]
        raise ConfigError(f"config file {str(path)!r} is not valid YAML{where}: {problem}") from None
    except (OSError, UnicodeDecodeError) as err:
        raise ConfigError(f"cannot read config file {str(path)!r}: {err}") from None
    raw = {} if raw is None else raw
    if not isinstance(raw, dict):
        raise ConfigError(f"config file {str(path)!r} must hold a mapping of keys (env: ..., "
                          f"ppo: ...), not a {type(raw).__name__}")
    return validate_config(apply_overrides(raw, overrides or {}))


def apply_overrides(raw: dict, overrides: dict, source: str = "--set") -> dict:
    """``raw`` (an unvalidated config, changed in place and returned) with ``overrides``: dotted
    keys (``ppo.n_steps``) to values; ``source`` names where they came from in an error."""
    for dotted, value in overrides.items():
        if isinstance(value, str) and _EXPONENT_FLOAT.match(value):
            value = float(value)
        node = raw
        *parents, last = dotted.split(".")
        for i, p in enumerate(parents):
            if node.get(p) is None:  # absent, or an empty section ("ppo:")
                node[p] = {}
            node = node[p]
            if not isinstance(node, dict):
                raise ConfigError(f"{source} {dotted}: {'.'.join(parents[:i + 1])} is a value, not a "
                                  "section with keys")
        node[last] = value
    return raw
