"""MaskablePPO (sb3-contrib) training of any forest_envs game from a validated config: the
model and its learn loop.

One learner seat per game, opponents drawn from a self-play pool at every reset, the seat
drawn uniformly so the learner plays every position; worker processes step the games and
send each step's mask with its observation (see vec.py).

A run can be stopped and restarted: Ctrl-C stops PPO between two steps and saves a
checkpoint (ctrl_c.py, checkpoints.py); ``--resume`` continues it, counting steps and wall
time over all its sessions (runs.py). What a run shows is in progress.py, its eval.csv in
csvlog.py.
"""

from __future__ import annotations

import json
from contextlib import contextmanager
from pathlib import Path

from stable_baselines3.common.callbacks import BaseCallback

from ..envs.registration import make_raw
from .checkpoints import Checkpoint, json_default
from .config import num_players
from .csvlog import append_evaluation
from .ctrl_c import CtrlC
from .export import export_policy
from .progress import LimitProgress, Progress
from .runs import Run, RunClock, prepare_output, write_yaml
from .timing import TrainingClock, describe
from .vec import make_vec_env


def evaluate_policy_file(cfg: dict, policy_path: str | Path, opponents: list[str], games: int,
                         seed: int = 12345, workers: int = 1) -> dict[str, dict]:
    """Win rate etc. of the policy against (n-1) copies of each opponent kind, seat-rotated."""
    from ..evaluation import run_games, summarize

    n = num_players(cfg)
    out = {}
    for kind in opponents:
        specs = [str(policy_path)] + [kind] * (n - 1)
        results = run_games(cfg["env"], specs, games, seed=seed, config=cfg["env_config"],
                            workers=workers)
        out[kind] = summarize(specs, results)[0]
    return out


# --- training ---------------------------------------------------------------------------------------

def _next_multiple(t: int, every: int) -> int:
    return (t // every + 1) * every


class TrainingMonitor(BaseCallback):
    """Snapshots for the pool, checkpoints, periodic evaluation and progress; ends learn()
    between two steps (so the model is whole) at the time limit or on Ctrl-C."""

    def __init__(self, run: Run, start_steps: int, ctrl_c: CtrlC, progress: LimitProgress,
                 clock: TrainingClock | None = None):
        super().__init__()
        self.clock = clock
        self.run, self.cfg, self.out = run, run.cfg, run.out
        self.ctrl_c, self.progress = ctrl_c, progress
        self.start_steps = start_steps
        self.next_snapshot = _next_multiple(start_steps, self.cfg["opponents"]["snapshot_every"])
        self.next_checkpoint = _next_multiple(start_steps, self.cfg["checkpoint_every"])
        self.next_eval = _next_multiple(start_steps, self.cfg["eval"]["every"])
        self.stopped: str | None = None

    def _on_rollout_start(self) -> None:
        if self.clock is not None:
            self.clock.rollout_start()

    def _on_rollout_end(self) -> None:
        if self.clock is not None:
            self.clock.rollout_end()

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
        # The run's wall time: it continues across resumed sessions.
        append_evaluation(self.out / "eval.csv", t, self.run.clock.total(), rows)
        for kind, r in rows.items():
            self.logger.record(f"eval/win_rate_vs_{kind}", r["win_rate"])
            if r["mean_score"] is not None:  # None in a game without points
                self.logger.record(f"eval/mean_score_vs_{kind}", r["mean_score"])


def _model_class(cfg: dict):
    """MaskablePPO, or its pipelined rollouts (pipeline.py) if the config asks for them."""
    if cfg["pipeline"]:
        from .pipeline import PipelinedMaskablePPO

        return PipelinedMaskablePPO
    from sb3_contrib import MaskablePPO

    return MaskablePPO


def _new_model(cfg: dict, venv, out: Path):
    import torch

    activation = {"tanh": torch.nn.Tanh, "relu": torch.nn.ReLU}[cfg["policy"]["activation"]]
    kwargs = {"net_arch": list(cfg["policy"]["net_arch"]), "activation_fn": activation}
    policy: str | type = "MlpPolicy"
    if cfg["policy"]["cells"]:
        from .cellpolicy import CellPolicy, cell_policy_kwargs

        policy = CellPolicy
        kwargs.update(cell_policy_kwargs(make_raw(cfg["env"], **cfg["env_config"]).game,
                                         cfg["policy"]["cells"]))
    return _model_class(cfg)(policy, venv, seed=cfg["seed"], device="cpu", verbose=0,
                             tensorboard_log=str(out / "tb"), policy_kwargs=kwargs, **cfg["ppo"])


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
    # The config's PPO hyper-parameters replace the saved ones, so config.yaml tells the truth.
    return _model_class(cfg).load(ckpt.path, env=venv, device="cpu",
                                  tensorboard_log=str(out / "tb"), **cfg["ppo"])


@contextmanager
def unchecked_distributions():
    """torch's distributions without their argument checks, then as they were.

    Each of PPO's forward passes builds its categorical distribution three times (on the
    logits, then on the masked logits) and scores the actions; torch checks the arguments
    each time (logits finite, actions in range) in a dozen small tensor operations. On the
    2-core machine that was a third of a forward pass of four rows (0.67 ms with the checks,
    0.43 without; 4 December 2026), and the pipelined trainer makes two such passes a step. The
    checks draw no random numbers and change no value, so a run is the same bit for bit;
    what they would catch fails anyway: NaN probabilities in ``torch.multinomial``, an
    action out of range in the log-probabilities' gather."""
    from torch.distributions import Distribution

    before = Distribution._validate_args
    Distribution.set_default_validate_args(False)
    try:
        yield
    finally:
        Distribution.set_default_validate_args(before)


def _learn(model, run: Run, ctrl_c: CtrlC, progress: Progress, resumed: bool,
           clock: TrainingClock | None = None) -> str:
    """PPO until a limit or Ctrl-C; returns why it stopped: "step_budget", "time_limit" or
    "interrupted"."""
    ctrl_c.graceful = True  # from here on a model is worth saving
    start_steps = model.num_timesteps
    shown = LimitProgress(progress, run, start_steps)
    monitor = TrainingMonitor(run, start_steps, ctrl_c, shown, clock)
    try:
        with unchecked_distributions():
            model.learn(total_timesteps=run.cfg["total_timesteps"] - start_steps,
                        callback=monitor, progress_bar=False, reset_num_timesteps=not resumed,
                        tb_log_name="maskable_ppo")
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
    ckpt = prepare_output(cfg, out, resume, overwrite)  # nothing is written before this passes
    run = Run(cfg, out, RunClock(ckpt.wall_seconds if ckpt else 0.0), ckpt.pretrain if ckpt else None)
    shown = Progress(progress)
    torch.set_num_threads(cfg["torch_threads"])
    for sub in ("snapshots", "checkpoints"):
        (out / sub).mkdir(parents=True, exist_ok=True)
    write_yaml(out / "config.yaml", cfg)
    start_steps = ckpt.timesteps if ckpt else 0
    with CtrlC() as ctrl_c:
        # Another seed on resume: the new session does not replay the first one's games.
        clock = TrainingClock(in_process=cfg["vec_env"] != "subproc" or cfg["n_envs"] == 1)
        venv = make_vec_env(cfg, out / "snapshots", seed=cfg["seed"] + start_steps, clock=clock)
        try:
            model = _load_model(ckpt, cfg, venv, out) if ckpt else _start_model(cfg, venv, run, shown)
            if not any((out / "snapshots").glob("snapshot_*.npz")):
                export_policy(model.policy, out / "snapshots" / f"snapshot_{model.num_timesteps:012d}.npz")
            learned_from = model.num_timesteps
            clock.restart()
            clock.attach(model)
            stopped = _learn(model, run, ctrl_c, shown, resumed=ckpt is not None, clock=clock)
            timing = clock.summary(model.num_timesteps - learned_from)
            wall = run.clock.total()
            checkpoint = _save_results(model, run, stopped)
        finally:
            venv.close()
        ctrl_c.graceful = False  # everything is saved: a Ctrl-C now just skips the evaluation
        summary = _summary(cfg, run, model, stopped, wall, start_steps, checkpoint, resume)
        summary["timing"] = timing  # this session's PPO (warm start and evaluation excluded)
        shown.line(describe(timing))
        if stopped != "interrupted":
            _final_evaluation(cfg, summary, shown)
    with (out / "summary.json").open("w") as f:
        json.dump(summary, f, indent=2, default=json_default)
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

