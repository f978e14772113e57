"""A run's output folder and its life across sessions.

A run can be stopped and restarted: ``--resume`` continues it from a checkpoint, counting
steps and wall time over all its sessions. A fresh run refuses an output folder that holds
another run unless told to overwrite it, and then deletes that run's files (and only those).
"""

from __future__ import annotations

import shlex
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path

from ..core.errors import ConfigError
from .checkpoints import (
    Checkpoint,
    check_limits_left,
    check_unchanged,
    fixed_settings,
    inspect_checkpoint,
    save_model,
    save_state,
)

# Everything a run writes into its output folder, and so everything --overwrite deletes.
RUN_FILES = ("checkpoints", "snapshots", "tb", "eval.csv", "eval_policy.npz", "summary.json",
             "final.zip", "final.json", "final.npz", "config.yaml")


# --- the output folder -----------------------------------------------------------------------------

def earlier_run(out: Path) -> list[str]:
    """What an earlier run left in ``out`` (empty folders and a lone config.yaml do not count:
    a run stopped before its first snapshot left nothing to mix with)."""
    found = []
    for name in RUN_FILES:
        path = out / name
        if name != "config.yaml" and path.exists() and (path.is_file() or any(path.iterdir())):
            found.append(name)
    return found


def _clear_run(out: Path) -> None:
    for name in RUN_FILES:
        path = out / name
        if path.is_dir():
            shutil.rmtree(path)
        elif path.exists():
            path.unlink()


def prepare_output(cfg: dict, out: Path, resume: str | None, overwrite: bool) -> Checkpoint | None:
    """Every check a run makes before it writes anything into ``out``; returns the checkpoint
    to resume from, if any. ``overwrite`` deletes an earlier run's files (and only those)."""
    if resume and overwrite:
        raise ConfigError("--resume and --overwrite exclude each other: resume continues the run "
                          "that --overwrite would delete")
    if resume:
        ckpt = inspect_checkpoint(resume, cfg)
        check_limits_left(ckpt, cfg)
        if (out / "config.yaml").is_file() and earlier_run(out):
            check_unchanged(fixed_settings(read_yaml(out / "config.yaml")), cfg, f"the run in {out}")
        return ckpt
    found = earlier_run(out)
    if found and not overwrite:
        latest = out / "checkpoints" / "latest.zip"
        hint = f"continue it with --resume {latest}, " if latest.is_file() else ""
        raise ConfigError(f"output folder {out} holds an earlier run ({', '.join(found)}); {hint}"
                          "start over with --overwrite (deletes those files) or set another output_dir")
    if found:
        _clear_run(out)
    return None


def write_yaml(path: Path, data: dict) -> None:
    import yaml

    with path.open("w") as f:
        yaml.safe_dump(data, f, sort_keys=False)


def read_yaml(path: Path) -> dict:
    import yaml

    with path.open() as f:
        return yaml.safe_load(f) or {}


# --- one run: its clock, its checkpoints ---------------------------------------------------------

class RunClock:
    """Wall time of the whole run: its earlier sessions (from the checkpoint) plus this one."""

    def __init__(self, before: float = 0.0):
        self.before, self.started = before, time.time()

    def session(self) -> float:
        return time.time() - self.started

    def total(self) -> float:
        return self.before + self.session()


@dataclass
class Run:
    """One training run: its config, output folder and clock, and what its checkpoints record."""

    cfg: dict
    out: Path
    clock: RunClock
    pretrain: dict | None = None
    settings: dict = field(init=False)

    def __post_init__(self):
        self.settings = fixed_settings(self.cfg)

    def out_of_time(self) -> bool:
        limit = self.cfg["time_limit_minutes"]
        return limit is not None and self.clock.total() >= limit * 60

    def save(self, model, path: Path) -> Path:
        """``model`` to ``path`` and its run state beside it, each written whole or not at all."""
        save_model(model, path)
        save_state(path, {"timesteps": int(model.num_timesteps),
                          "wall_seconds": round(self.clock.total(), 1),
                          "settings": self.settings, "pretrain": self.pretrain})
        return path

    def save_checkpoint(self, model) -> Path:
        """checkpoints/model_<step>.zip and checkpoints/latest.zip; returns latest."""
        folder = self.out / "checkpoints"
        self.save(model, folder / f"model_{model.num_timesteps:012d}.zip")
        return self.save(model, folder / "latest.zip")


# --- telling the user -------------------------------------------------------------------------------

def stop_reason(summary: dict, cfg: dict) -> str:
    """Why a run stopped, in words, from its summary."""
    t = f"{summary['timesteps']:,} steps"
    if summary["stopped"] == "time_limit":
        return (f"time limit of {cfg['time_limit_minutes']:g} min reached at {t} of "
                f"total_timesteps={cfg['total_timesteps']:,} (a busy machine gets fewer steps in "
                "that time)")
    return {"step_budget": f"step budget reached: {t} of total_timesteps={cfg['total_timesteps']:,}",
            "interrupted": f"interrupted (Ctrl-C) at {t}"}[summary["stopped"]]


def resume_command(config: str, overrides: list[str] | None, checkpoint: str | Path,
                   quiet: bool = False, program: tuple[str, ...] = ("forest-envs",)) -> str:
    """The shell command that continues a run: its config and overrides, --resume CHECKPOINT;
    ``program``: the words that run the command line (``forest_envs.cli.args.program_words``)."""
    words = [*program, "train", str(config)]
    for pair in overrides or []:
        words += ["--set", pair]
    words += ["--quiet"] if quiet else []
    return shlex.join(words + ["--resume", str(checkpoint)])
