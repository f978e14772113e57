"""MaskablePPO (sb3-contrib) training of any forest_envs game from a validated config.

One learner seat per game, opponents drawn from a self-play pool at every reset, the seat
drawn uniformly so the learner plays every position; worker processes step the games and
send each step's mask with its observation (see vec.py).
"""

from __future__ import annotations

import csv
import json
import time
from pathlib import Path

import numpy as np
from stable_baselines3.common.callbacks import BaseCallback

from ..core.gym_env import SingleAgentEnv
from ..core.registry import make_raw
from .policy import export_policy
from .selfplay import OpponentPool


def _num_players(cfg: dict) -> int:
    return make_raw(cfg["env"], **cfg["env_config"]).game.num_players


def _env_factory(cfg: dict, snapshot_dir: Path, n: int):
    def build():
        import torch

        torch.set_num_threads(1)
        pool = OpponentPool(cfg["env"], cfg["opponents"]["pool"], n - 1, snapshot_dir,
                            cfg["opponents"]["max_snapshots"])
        return SingleAgentEnv(cfg["env"], opponents=pool, reward=cfg["reward"], **cfg["env_config"])

    return build


def make_vec_env(cfg: dict, snapshot_dir: Path):
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    from .vec import MaskInfoVecEnv

    n = _num_players(cfg)
    fns = [_env_factory(cfg, snapshot_dir, n) for _ in range(cfg["n_envs"])]
    venv = SubprocVecEnv(fns) if cfg["vec_env"] == "subproc" and cfg["n_envs"] > 1 else DummyVecEnv(fns)
    venv.seed(cfg["seed"])
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


class TrainingMonitor(BaseCallback):
    """Snapshots for the pool, checkpoints, periodic evaluation and the wall-time limit."""

    def __init__(self, cfg: dict, out: Path, start_steps: int, started: float):
        super().__init__()
        self.cfg, self.out = cfg, out
        self.start = started  # the time limit counts the warm start too
        self.start_steps = start_steps
        self.next_snapshot = start_steps + cfg["opponents"]["snapshot_every"]
        self.next_checkpoint = start_steps + cfg["checkpoint_every"]
        self.next_eval = start_steps + cfg["eval"]["every"]

    def _on_step(self) -> bool:
        t = self.num_timesteps
        if t >= self.next_snapshot:
            export_policy(self.model.policy, self.out / "snapshots" / f"snapshot_{t:012d}.npz")
            self.next_snapshot += self.cfg["opponents"]["snapshot_every"]
        if t >= self.next_checkpoint:
            self.model.save(self.out / "checkpoints" / f"model_{t:012d}.zip")
            self.model.save(self.out / "checkpoints" / "latest.zip")
            self.next_checkpoint += self.cfg["checkpoint_every"]
        if t >= self.next_eval and self.cfg["eval"]["games"] > 0:
            self._evaluate(t)
            self.next_eval += self.cfg["eval"]["every"]
        elapsed = time.time() - self.start
        self.logger.record("time/steps_per_second_total", (t - self.start_steps) / max(elapsed, 1e-9))
        limit = self.cfg["time_limit_minutes"]
        return limit is None or elapsed < limit * 60

    def _evaluate(self, t: int) -> None:
        path = export_policy(self.model.policy, self.out / "eval_policy.npz")
        ev = self.cfg["eval"]
        rows = evaluate_policy_file(self.cfg, path, ev["opponents"], ev["games"], workers=ev["workers"])
        wall = time.time() - self.start
        log = self.out / "eval.csv"
        new = not log.exists()
        with log.open("a", newline="") as f:
            w = csv.writer(f)
            if new:
                w.writerow(["timesteps", "wall_s", "opponent", "games", "win_rate", "ci_low",
                            "ci_high", "mean_score"])
            for kind, r in rows.items():
                self.logger.record(f"eval/win_rate_vs_{kind}", r["win_rate"])
                self.logger.record(f"eval/mean_score_vs_{kind}", r["mean_score"])
                w.writerow([t, round(wall, 1), kind, r["games"], round(r["win_rate"], 4),
                            round(r["win_ci95"][0], 4), round(r["win_ci95"][1], 4),
                            round(r["mean_score"], 2)])


def train(cfg: dict, resume: str | None = None, progress: bool = True) -> dict:
    """Train per ``cfg`` (see config.py); returns a summary (also written to summary.json)."""
    import torch
    from sb3_contrib import MaskablePPO

    started = time.time()
    torch.set_num_threads(cfg["torch_threads"])
    out = Path(cfg["output_dir"])
    for sub in ("snapshots", "checkpoints"):
        (out / sub).mkdir(parents=True, exist_ok=True)
    _write_yaml(out / "config.yaml", cfg)
    venv = make_vec_env(cfg, out / "snapshots")
    if resume:
        if not Path(resume).is_file():
            raise FileNotFoundError(f"checkpoint {resume!r} does not exist")
        model = MaskablePPO.load(resume, env=venv, device="cpu", tensorboard_log=str(out / "tb"))
    else:
        activation = {"tanh": torch.nn.Tanh, "relu": torch.nn.ReLU}[cfg["policy"]["activation"]]
        model = MaskablePPO("MlpPolicy", venv, seed=cfg["seed"], device="cpu", verbose=0,
                            tensorboard_log=str(out / "tb"),
                            policy_kwargs={"net_arch": list(cfg["policy"]["net_arch"]),
                                           "activation_fn": activation},
                            **cfg["ppo"])
    pretrain_report = None
    if not resume and cfg["pretrain"]["games"] > 0:
        from .pretrain import warm_start

        pretrain_report = warm_start(model, cfg)
    if not any((out / "snapshots").glob("snapshot_*.npz")):
        export_policy(model.policy, out / "snapshots" / f"snapshot_{model.num_timesteps:012d}.npz")
    start_steps = model.num_timesteps
    monitor = TrainingMonitor(cfg, out, start_steps, started)
    try:
        model.learn(total_timesteps=cfg["total_timesteps"] - start_steps if resume else cfg["total_timesteps"],
                    callback=monitor, progress_bar=progress, reset_num_timesteps=not resume,
                    tb_log_name="maskable_ppo")
    finally:
        venv.close()
    wall = time.time() - started
    model.save(out / "final.zip")
    model.save(out / "checkpoints" / "latest.zip")
    policy_path = export_policy(model.policy, out / "final.npz")
    summary = {"env": cfg["env"], "env_config": cfg["env_config"], "timesteps": int(model.num_timesteps),
               "wall_seconds": round(wall, 1),
               "steps_per_second": round((model.num_timesteps - start_steps) / max(wall, 1e-9), 1),
               "policy": str(policy_path), "model": str(out / "final.zip")}
    if pretrain_report:
        summary["pretrain"] = pretrain_report
    ev = cfg["eval"]
    if ev["final_games"] > 0:
        summary["evaluation"] = evaluate_policy_file(cfg, policy_path, ev["opponents"],
                                                     ev["final_games"], workers=ev["workers"])
    with (out / "summary.json").open("w") as f:
        json.dump(summary, f, indent=2, default=_json_default)
    return summary


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
