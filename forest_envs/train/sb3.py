"""MaskablePPO (sb3-contrib) training of any forest_envs game from a validated config.

One learner seat per game, opponents drawn from a self-play pool at every reset, the seat
drawn uniformly so the learner plays every position; worker processes step the games and
send each step's mask with its observation (see vec.py).

A run can be stopped and restarted: Ctrl-C stops PPO between two steps and saves a
checkpoint; ``--resume`` continues it, counting steps and wall time over all its sessions
(each checkpoint has a small ``.json`` beside it with the run's wall time and the settings
that shape the network, which a resume may not change). A fresh run refuses an output
folder that holds another run unless told to overwrite it.
"""

from __future__ import annotations

import csv
import json
import os
import shlex
import shutil
import signal
import sys
import threading
import time
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from stable_baselines3.common.callbacks import BaseCallback
from tqdm import tqdm

from ..core.errors import ConfigError
from ..core.gym_env import SingleAgentEnv
from ..core.registry import make_raw
from ..workers import ignore_sigint
from .policy import check_sizes, describe_game, export_policy
from .selfplay import OpponentPool

# Everything a run writes into its output folder, and so everything --overwrite deletes.
RUN_FILES = ("checkpoints", "snapshots", "tb", "eval.csv", "eval_policy.npz", "summary.json",
             "final.zip", "final.json", "final.npz", "config.yaml")


def _num_players(cfg: dict) -> int:
    return make_raw(cfg["env"], **cfg["env_config"]).game.num_players


def _start_forkserver() -> None:
    """SubprocVecEnv starts its workers from multiprocessing's forkserver. Started while
    Ctrl-C is ignored, the forkserver hands that on to every worker from its first
    instruction, so a Ctrl-C while they import torch cannot make them print tracebacks (the
    main process handles it). Ignoring lasts the few milliseconds of one fork and exec."""
    import multiprocessing
    from multiprocessing import forkserver

    if ("forkserver" not in multiprocessing.get_all_start_methods()
            or threading.current_thread() is not threading.main_thread()):
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        forkserver.ensure_running()
    finally:
        signal.signal(signal.SIGINT, previous)


def _env_factory(cfg: dict, snapshot_dir: Path, n: int, in_worker: bool):
    def build():
        import torch

        if in_worker:
            ignore_sigint()  # the main process saves, then stops the workers
        torch.set_num_threads(1)
        pool = OpponentPool(cfg["env"], cfg["opponents"]["pool"], n - 1, snapshot_dir,
                            cfg["opponents"]["max_snapshots"])
        return SingleAgentEnv(cfg["env"], opponents=pool, reward=cfg["reward"], **cfg["env_config"])

    return build


def make_vec_env(cfg: dict, snapshot_dir: Path, seed: int | None = None):
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    from .vec import MaskInfoVecEnv

    n = _num_players(cfg)
    subproc = cfg["vec_env"] == "subproc" and cfg["n_envs"] > 1
    fns = [_env_factory(cfg, snapshot_dir, n, subproc) for _ in range(cfg["n_envs"])]
    if subproc:
        _start_forkserver()
        venv = SubprocVecEnv(fns)
    else:
        venv = DummyVecEnv(fns)
    venv.seed(cfg["seed"] if seed is None else seed)
    return MaskInfoVecEnv(venv)


def evaluate_policy_file(cfg: dict, policy_path: str | Path, opponents: list[str], games: int,
                         seed: int = 12345, workers: int = 1) -> dict[str, dict]:
    """Win rate etc. of the policy against (n-1) copies of each opponent kind, seat-rotated."""
    from ..evaluation import run_games, summarize

    n = _num_players(cfg)
    out = {}
    for kind in opponents:
        specs = [str(policy_path)] + [kind] * (n - 1)
        results = run_games(cfg["env"], specs, games, seed=seed, config=cfg["env_config"],
                            workers=workers)
        out[kind] = summarize(specs, results)[0]
    return out


# --- what a resume must keep -------------------------------------------------------------------

def fixed_settings(cfg: dict) -> dict:
    """The settings a resumed run must share with its checkpoint: they fix the network's shape
    and what its inputs and outputs mean. Game options are taken as resolved by the game, so
    a default left out and the same value written down compare equal."""
    game = make_raw(cfg["env"], **cfg["env_config"]).game
    settings = {"env": cfg["env"], "policy.net_arch": list(cfg["policy"]["net_arch"]),
                "policy.activation": cfg["policy"]["activation"]}
    settings.update({f"env_config.{k}": v for k, v in {**cfg["env_config"], **game.config}.items()})
    return settings


def _check_unchanged(before: dict, cfg: dict, source: str) -> None:
    now = fixed_settings(cfg)
    for key, old in before.items():
        if old != now.get(key):
            raise ConfigError(f"{key} cannot change on resume: {source} was trained with {old!r}, "
                              f"the config says {now.get(key)!r}")


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
            "policy.activation": activation.__name__.lower() if activation else "tanh"}


def inspect_checkpoint(path: str | Path, cfg: dict) -> Checkpoint:
    """Check that ``path`` can resume ``cfg``'s run (ConfigError otherwise); writes nothing."""
    path = Path(path)
    if not path.is_file():
        raise ConfigError(f"checkpoint {path} does not exist")
    data = _read_model_data(path)
    state = _read_state(path)
    # The named settings first: "env_config.num_players" says more than two sizes.
    _check_unchanged({**_model_settings(data), **state.get("settings", {})}, cfg, f"checkpoint {path}")
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


def _check_limits_left(ckpt: Checkpoint, cfg: dict) -> None:
    if ckpt.timesteps >= cfg["total_timesteps"]:
        raise ConfigError(f"checkpoint {ckpt.path} is at step {ckpt.timesteps}, already at "
                          f"total_timesteps={cfg['total_timesteps']}; raise it (--set "
                          "total_timesteps=N) to train further")
    limit = cfg["time_limit_minutes"]
    if limit is not None and ckpt.wall_seconds >= limit * 60:
        raise ConfigError(f"the run of checkpoint {ckpt.path} has trained {ckpt.wall_seconds / 60:.1f} "
                          f"min, already at time_limit_minutes={limit}; raise it (--set "
                          "time_limit_minutes=M) to train further")


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


def _prepare_output(cfg: dict, out: Path, resume: str | None, overwrite: bool) -> Checkpoint | None:
    """Every check a run makes before it writes anything into ``out``; returns the checkpoint
    to resume from, if any. ``overwrite`` deletes an earlier run's files (and only those)."""
    if resume and overwrite:
        raise ConfigError("--resume and --overwrite exclude each other: resume continues the run "
                          "that --overwrite would delete")
    if resume:
        ckpt = inspect_checkpoint(resume, cfg)
        _check_limits_left(ckpt, cfg)
        if (out / "config.yaml").is_file() and earlier_run(out):
            _check_unchanged(fixed_settings(_read_yaml(out / "config.yaml")), cfg, f"the run in {out}")
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
        tmp = path.with_name(path.stem + ".tmp.zip")
        model.save(tmp)
        tmp.replace(path)
        state = {"timesteps": int(model.num_timesteps), "wall_seconds": round(self.clock.total(), 1),
                 "settings": self.settings, "pretrain": self.pretrain}
        tmp_state = path.with_name(path.stem + ".tmp.json")
        tmp_state.write_text(json.dumps(state, indent=2, default=_json_default))
        tmp_state.replace(_state_path(path))
        return path

    def save_checkpoint(self, model) -> Path:
        """checkpoints/model_<step>.zip and checkpoints/latest.zip; returns latest."""
        folder = self.out / "checkpoints"
        self.save(model, folder / f"model_{model.num_timesteps:012d}.zip")
        return self.save(model, folder / "latest.zip")


# --- Ctrl-C ----------------------------------------------------------------------------------------

class CtrlC:
    """While installed, Ctrl-C (SIGINT) is handled by the main process only. When ``graceful``
    the first one just asks training to stop after the current step (so the saved model is
    whole) and a second one stops at once; otherwise the first one raises KeyboardInterrupt."""

    MESSAGE = (b"\nCtrl-C: stopping after this step and saving a checkpoint "
               b"(Ctrl-C again stops at once, without saving)\n")

    def __init__(self):
        self.graceful = False
        self.requested = False
        self._pid = os.getpid()
        self._installed = False
        self._previous = None

    def __enter__(self) -> CtrlC:
        # Python lets only the main thread set handlers; elsewhere Ctrl-C keeps its default.
        if threading.current_thread() is threading.main_thread():
            self._previous = signal.signal(signal.SIGINT, self._handle)
            self._installed = True
        return self

    def __exit__(self, *exc) -> None:
        if self._installed:
            signal.signal(signal.SIGINT, self._previous)

    def _handle(self, signum, frame) -> None:
        if os.getpid() != self._pid:
            return  # a forked evaluation worker inherited this handler: its parent decides
        if not self.graceful or self.requested:
            raise KeyboardInterrupt
        self.requested = True
        try:
            # os.write, not print: the handler may run while the main thread is inside a print.
            os.write(2, self.MESSAGE)
        except OSError:
            pass  # no stderr to tell: the checkpoint is saved all the same


# --- progress ---------------------------------------------------------------------------------------

class Progress:
    """What a person sees while a run works: tqdm bars when stderr is a terminal, and plain
    lines on stdout (flushed, so a log file shows them as they come) for every stage."""

    def __init__(self, enabled: bool = True):
        self.enabled = enabled
        self.tty = enabled and sys.stderr.isatty()

    def line(self, text: str) -> None:
        if self.enabled:
            tqdm.write(text, file=sys.stdout)  # keeps a bar on the terminal intact
            sys.stdout.flush()

    def bar(self, total: int, desc: str, unit: str, **kwargs) -> tqdm:
        """A bar (a no-op one when not on a terminal): ``with progress.bar(...) as b: b.update()``."""
        return tqdm(total=total, desc=desc, unit=unit, disable=not self.tty, leave=False,
                    dynamic_ncols=True, **kwargs)


def _minutes(seconds: float) -> str:
    seconds = max(0, int(seconds))
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


class LimitProgress:
    """PPO's progress toward whichever limit ends the run first. At a steady step rate that is
    the one further along, so the bar counts time when the time limit binds (and its ETA is
    the time left) and steps otherwise; in a log it writes a line at every tenth of the run."""

    def __init__(self, progress: Progress, run: Run, start_steps: int):
        self.progress, self.run, self.cfg = progress, run, run.cfg
        limit = self.cfg["time_limit_minutes"]
        progress.line(f"ppo: from step {start_steps:,} until total_timesteps={self.cfg['total_timesteps']:,}"
                      + (f" or time_limit_minutes={limit:g}, whichever comes first" if limit else ""))
        self.start_steps, self.started = start_steps, time.time()
        # Per mille of the run; the postfix says which limit that is and what is left.
        self.bar = progress.bar(1000, "ppo", "", bar_format="{desc} {percentage:3.0f}%|{bar}| {elapsed}{postfix}")
        self.last_shown, self.next_line = 0.0, 0.1

    def status(self, t: int, rate: float) -> tuple[str, float, float | None]:
        """(binding limit, fraction of the run done, seconds left or None if unknown)."""
        total, limit = self.cfg["total_timesteps"], self.cfg["time_limit_minutes"]
        if limit is not None:
            elapsed = self.run.clock.total()
            if elapsed / (limit * 60) > t / total:
                return f"time limit {limit:g} min", elapsed / (limit * 60), limit * 60 - elapsed
        return f"step budget {total:,}", t / total, (total - t) / rate if rate > 0 else None

    def update(self, t: int) -> None:
        now = time.time()
        if now - self.last_shown < 0.5:
            return
        self.last_shown = now
        rate = (t - self.start_steps) / max(now - self.started, 1e-9)
        why, done, left = self.status(t, rate)
        text = f"{t:,} steps, {rate:,.0f} steps/s, {_minutes(left) if left is not None else '?'} left"
        if self.progress.tty:
            self.bar.n = min(1000, int(done * 1000))
            self.bar.set_postfix_str(f"{text} ({why})", refresh=False)
            self.bar.refresh()
        elif done >= self.next_line:
            self.progress.line(f"ppo: {min(done, 1.0):.0%} of the {why}: {text}")
            self.next_line = np.floor(done * 10 + 1) / 10

    def close(self) -> None:
        self.bar.close()


def stop_reason(summary: dict, cfg: dict) -> str:
    """Why a run stopped, in words, from its summary."""
    t = f"{summary['timesteps']:,} steps"
    return {"time_limit": f"time limit of {cfg['time_limit_minutes']} min reached at {t}",
            "step_budget": f"step budget reached: {t} of total_timesteps={cfg['total_timesteps']:,}",
            "interrupted": f"interrupted (Ctrl-C) at {t}"}[summary["stopped"]]


def resume_command(config: str, overrides: list[str] | None, checkpoint: str | Path,
                   quiet: bool = False) -> str:
    """The shell command that continues a run: its config and overrides, --resume CHECKPOINT."""
    words = ["forest-envs", "train", str(config)]
    for pair in overrides or []:
        words += ["--set", pair]
    words += ["--quiet"] if quiet else []
    return shlex.join(words + ["--resume", str(checkpoint)])


# --- training ---------------------------------------------------------------------------------------

def _next_multiple(t: int, every: int) -> int:
    return (t // every + 1) * every


class TrainingMonitor(BaseCallback):
    """Snapshots for the pool, checkpoints, periodic evaluation and progress; ends learn()
    between two steps (so the model is whole) at the time limit or on Ctrl-C."""

    def __init__(self, run: Run, start_steps: int, ctrl_c: CtrlC, progress: LimitProgress):
        super().__init__()
        self.run, self.cfg, self.out = run, run.cfg, run.out
        self.ctrl_c, self.progress = ctrl_c, progress
        self.start_steps = start_steps
        self.next_snapshot = _next_multiple(start_steps, self.cfg["opponents"]["snapshot_every"])
        self.next_checkpoint = _next_multiple(start_steps, self.cfg["checkpoint_every"])
        self.next_eval = _next_multiple(start_steps, self.cfg["eval"]["every"])
        self.stopped: str | None = None

    def _on_step(self) -> bool:
        t = self.num_timesteps
        if t >= self.next_snapshot:
            export_policy(self.model.policy, self.out / "snapshots" / f"snapshot_{t:012d}.npz")
            self.next_snapshot = _next_multiple(t, self.cfg["opponents"]["snapshot_every"])
        if t >= self.next_checkpoint:
            self.run.save_checkpoint(self.model)
            self.next_checkpoint = _next_multiple(t, self.cfg["checkpoint_every"])
        if t >= self.next_eval and self.cfg["eval"]["games"] > 0:
            self._evaluate(t)
            self.next_eval = _next_multiple(t, self.cfg["eval"]["every"])
        self.logger.record("time/steps_per_second_total",
                           (t - self.start_steps) / max(self.run.clock.session(), 1e-9))
        self.progress.update(t)
        if self.ctrl_c.requested:
            self.stopped = "interrupted"
        elif self.run.out_of_time():
            self.stopped = "time_limit"
        return self.stopped is None

    def _evaluate(self, t: int) -> None:
        path = export_policy(self.model.policy, self.out / "eval_policy.npz")
        ev = self.cfg["eval"]
        rows = evaluate_policy_file(self.cfg, path, ev["opponents"], ev["games"], workers=ev["workers"])
        wall = self.run.clock.total()  # continues across resumed sessions
        log = self.out / "eval.csv"
        new = not log.exists()
        with log.open("a", newline="") as f:
            w = csv.writer(f)
            if new:
                w.writerow(["timesteps", "wall_s", "opponent", "games", "win_rate", "ci_low",
                            "ci_high", "mean_score"])
            for kind, r in rows.items():
                score = r["mean_score"]  # None in a game without points
                self.logger.record(f"eval/win_rate_vs_{kind}", r["win_rate"])
                if score is not None:
                    self.logger.record(f"eval/mean_score_vs_{kind}", score)
                w.writerow([t, round(wall, 1), kind, r["games"], round(r["win_rate"], 4),
                            round(r["win_ci95"][0], 4), round(r["win_ci95"][1], 4),
                            "" if score is None else round(score, 2)])


def _new_model(cfg: dict, venv, out: Path):
    import torch
    from sb3_contrib import MaskablePPO

    activation = {"tanh": torch.nn.Tanh, "relu": torch.nn.ReLU}[cfg["policy"]["activation"]]
    return MaskablePPO("MlpPolicy", venv, seed=cfg["seed"], device="cpu", verbose=0,
                       tensorboard_log=str(out / "tb"),
                       policy_kwargs={"net_arch": list(cfg["policy"]["net_arch"]),
                                      "activation_fn": activation},
                       **cfg["ppo"])


def _start_model(cfg: dict, venv, run: Run, progress: Progress):
    """A new model, warm-started if the config asks for it."""
    model = _new_model(cfg, venv, run.out)
    if cfg["pretrain"]["games"] > 0:
        from .pretrain import warm_start

        run.pretrain = warm_start(model, cfg, progress)
        run.save_checkpoint(model)  # a later Ctrl-C never costs the warm start again
    return model


def _save_results(model, run: Run, stopped: str) -> Path:
    """The checkpoint (returned) and, unless interrupted, final.zip and final.npz."""
    checkpoint = run.save_checkpoint(model)
    if stopped != "interrupted":
        run.save(model, run.out / "final.zip")
        export_policy(model.policy, run.out / "final.npz")
    return checkpoint


def _load_model(ckpt: Checkpoint, cfg: dict, venv, out: Path):
    from sb3_contrib import MaskablePPO

    # The config's PPO hyper-parameters replace the saved ones, so config.yaml tells the truth.
    return MaskablePPO.load(ckpt.path, env=venv, device="cpu", tensorboard_log=str(out / "tb"),
                            **cfg["ppo"])


def _learn(model, run: Run, ctrl_c: CtrlC, progress: Progress, resumed: bool) -> str:
    """PPO until a limit or Ctrl-C; returns why it stopped: "step_budget", "time_limit" or
    "interrupted"."""
    ctrl_c.graceful = True  # from here on a model is worth saving
    start_steps = model.num_timesteps
    shown = LimitProgress(progress, run, start_steps)
    monitor = TrainingMonitor(run, start_steps, ctrl_c, shown)
    try:
        model.learn(total_timesteps=run.cfg["total_timesteps"] - start_steps, callback=monitor,
                    progress_bar=False, reset_num_timesteps=not resumed, tb_log_name="maskable_ppo")
    finally:
        shown.close()
    return monitor.stopped or "step_budget"


def train(cfg: dict, resume: str | None = None, progress: bool = True, overwrite: bool = False) -> dict:
    """Train per ``cfg`` (see config.py); returns a summary (also written to summary.json).

    ``resume``: a checkpoint .zip of this run to continue. ``overwrite``: delete an earlier
    run in the output folder first (without it, such a folder is refused). Ctrl-C during PPO
    saves a checkpoint and returns a summary with ``stopped == "interrupted"``."""
    import torch

    out = Path(cfg["output_dir"])
    ckpt = _prepare_output(cfg, out, resume, overwrite)  # nothing is written before this passes
    run = Run(cfg, out, RunClock(ckpt.wall_seconds if ckpt else 0.0), ckpt.pretrain if ckpt else None)
    shown = Progress(progress)
    torch.set_num_threads(cfg["torch_threads"])
    for sub in ("snapshots", "checkpoints"):
        (out / sub).mkdir(parents=True, exist_ok=True)
    _write_yaml(out / "config.yaml", cfg)
    start_steps = ckpt.timesteps if ckpt else 0
    with CtrlC() as ctrl_c:
        # Another seed on resume: the new session does not replay the first one's games.
        venv = make_vec_env(cfg, out / "snapshots", seed=cfg["seed"] + start_steps)
        try:
            model = _load_model(ckpt, cfg, venv, out) if ckpt else _start_model(cfg, venv, run, shown)
            if not any((out / "snapshots").glob("snapshot_*.npz")):
                export_policy(model.policy, out / "snapshots" / f"snapshot_{model.num_timesteps:012d}.npz")
            stopped = _learn(model, run, ctrl_c, shown, resumed=ckpt is not None)
            wall = run.clock.total()
            checkpoint = _save_results(model, run, stopped)
        finally:
            venv.close()
        ctrl_c.graceful = False  # everything is saved: a Ctrl-C now just skips the evaluation
        summary = _summary(cfg, run, model, stopped, wall, start_steps, checkpoint, resume)
        if stopped != "interrupted":
            _final_evaluation(cfg, summary, shown)
    with (out / "summary.json").open("w") as f:
        json.dump(summary, f, indent=2, default=_json_default)
    return summary


def _summary(cfg: dict, run: Run, model, stopped: str, wall: float, start_steps: int,
             checkpoint: Path, resume: str | None) -> dict:
    out, t = run.out, int(model.num_timesteps)
    session_wall = wall - run.clock.before
    summary = {"env": cfg["env"], "env_config": cfg["env_config"], "stopped": stopped,
               "timesteps": t, "wall_seconds": round(wall, 1),
               "steps_per_second": round(t / max(wall, 1e-9), 1),
               "session": {"timesteps": t - start_steps, "wall_seconds": round(session_wall, 1),
                           "steps_per_second": round((t - start_steps) / max(session_wall, 1e-9), 1)},
               "checkpoint": str(checkpoint)}
    if resume:
        summary["resumed_from"] = str(resume)
    if stopped != "interrupted":
        summary.update(policy=str(out / "final.npz"), model=str(out / "final.zip"))
    if run.pretrain:
        summary["pretrain"] = run.pretrain
    return summary


def _final_evaluation(cfg: dict, summary: dict, progress: Progress) -> None:
    ev = cfg["eval"]
    if ev["final_games"] <= 0:
        return
    progress.line(f"final evaluation: {ev['final_games']} games against each of {', '.join(ev['opponents'])}")
    try:
        summary["evaluation"] = evaluate_policy_file(cfg, summary["policy"], ev["opponents"],
                                                     ev["final_games"], workers=ev["workers"])
    except KeyboardInterrupt:
        summary["final_evaluation"] = "interrupted"


def _json_default(o):
    if isinstance(o, (np.integer, np.floating)):
        return o.item()
    if isinstance(o, tuple):
        return list(o)
    raise TypeError(type(o))


def _write_yaml(path: Path, data: dict) -> None:
    import yaml

    with path.open("w") as f:
        yaml.safe_dump(data, f, sort_keys=False)


def _read_yaml(path: Path) -> dict:
    import yaml

    with path.open() as f:
        return yaml.safe_load(f) or {}
