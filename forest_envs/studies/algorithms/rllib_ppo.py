"""RLlib PPO self-play with action masking (forest_envs/train/rllib.py): one policy shared by
every seat, trained from scratch on a local Ray instance of its own. A learner step is one
move of any seat, all of them the shared policy's (RLlib's env steps).

After the iteration that passes each checkpoint point the run saves the RLlib checkpoint
(which a later session restores) and exports the policy as policies/step_<steps>.npz.

Settings: any key of the training config (forest_envs/train/config.py), dotted, as
``maskable_ppo``'s; ``rllib.policies`` must stay ``shared`` (one policy is one candidate).
"""

from __future__ import annotations

import copy
import json
import shutil
import time
from pathlib import Path

from ...core.errors import ConfigError
from .base import PolicyCheckpoint, PublishedPolicy, TrainingJob, TrainingOutcome

# forest_envs/configs/*_rllib.yaml's recipe, the reward the game's win (the scores measure
# winning), one env runner beside the learner
RECIPE: dict = {
    "reward": "win",
    "torch_threads": 1,
    "policy": {"net_arch": [256, 256], "activation": "tanh"},
    "ppo": {"learning_rate": 3.0e-4, "n_epochs": 4, "gamma": 1.0, "gae_lambda": 0.95,
            "clip_range": 0.2, "ent_coef": 0.01},
    "rllib": {"policies": "shared", "train_batch_size": 4000, "minibatch_size": 500,
              "num_env_runners": 1, "num_cpus": 2},
}
STUDY_KEYS = ("env", "env_config", "seed", "total_timesteps", "time_limit_minutes", "output_dir",
              "checkpoint_every", "eval", "rllib.iterations")
POLICY = "shared"
CHECKPOINT, STATE = "checkpoint", "state.json"


def training_config(job: TrainingJob, where: str = "settings") -> dict:
    from ...train.config import apply_overrides, validate_config

    taken = sorted(k for k in job.settings
                   if k in STUDY_KEYS or k.split(".")[0] in STUDY_KEYS)
    if taken:
        raise ConfigError(f"{where}: {', '.join(taken)} is decided by the study (its games, seeds, "
                          "tier and evaluation), not by an algorithm's settings")
    raw = apply_overrides(copy.deepcopy(RECIPE), dict(job.settings), where)
    raw.update(env=job.env, env_config=dict(job.config), seed=job.seed, output_dir=str(job.folder))
    try:
        cfg = validate_config(raw)
    except ConfigError as err:
        raise ConfigError(f"{where}: {err}") from None
    if cfg["rllib"]["policies"] != POLICY:
        raise ConfigError(f"{where}: rllib.policies={cfg['rllib']['policies']!r}: a study evaluates "
                          f"one policy in every seat; use {POLICY!r}")
    if cfg["policy"]["cells"]:
        raise ConfigError(f"{where}: policy.cells: RLlib trains an MLP (the cell network is "
                          "MaskablePPO's); use cells: null")
    return cfg


def _state(folder: Path) -> tuple[int, float]:
    path = folder / STATE
    if not path.is_file():
        return 0, 0.0
    data = json.loads(path.read_text())
    return int(data["learner_steps"]), float(data["wall_seconds"])


def _save(algo, folder: Path, steps: int, wall: float) -> None:
    """The RLlib checkpoint, the policy at ``steps`` and the run state, the state last (a
    session stopped in between restores the newer checkpoint and counts on from its steps)."""
    from ...train.rllib_masking import export_npz

    export_npz(algo.get_module(POLICY), folder / "policies" / f"step_{steps:012d}.npz")
    tmp = folder / f"{CHECKPOINT}.tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    algo.save_to_path(str(tmp.resolve()))
    shutil.rmtree(folder / CHECKPOINT, ignore_errors=True)
    tmp.rename(folder / CHECKPOINT)
    state = folder / f"{STATE}.tmp"
    state.write_text(json.dumps({"learner_steps": steps, "wall_seconds": round(wall, 1)}) + "\n")
    state.replace(folder / STATE)


class RLlibPPO:
    name = "rllib_ppo"

    def check(self, settings: dict, env: str, config: dict, where: str) -> None:
        training_config(TrainingJob(env, config, 0, 1_000_000, 100_000, Path("unused"), settings), where)

    def train(self, job: TrainingJob) -> TrainingOutcome:
        import ray
        import torch

        from ...train.ctrl_c import CtrlC
        from ...train.rllib import build_algorithm_config

        cfg = training_config(job)
        steps, wall_before = _state(job.folder)
        if steps >= job.learner_steps:
            return TrainingOutcome(True, steps, wall_before)
        job.folder.mkdir(parents=True, exist_ok=True)
        started = time.time()
        # "local": a Ray instance of this run's own, even on a machine that runs a cluster
        ray.init(address="local", num_cpus=cfg["rllib"]["num_cpus"], include_dashboard=False,
                 log_to_driver=False)
        try:
            torch.set_num_threads(cfg["torch_threads"])
            algo = build_algorithm_config(cfg).build_algo()
            try:
                if (job.folder / CHECKPOINT).is_dir():
                    algo.restore_from_path(str((job.folder / CHECKPOINT).resolve()))
                with CtrlC() as ctrl_c:
                    ctrl_c.graceful = True  # stop after the iteration under way, and save
                    steps = self._iterate(algo, job, steps, wall_before, started, ctrl_c)
            finally:
                algo.stop()
        finally:
            ray.shutdown()
        return TrainingOutcome(steps >= job.learner_steps, steps, wall_before + time.time() - started)

    @staticmethod
    def _iterate(algo, job: TrainingJob, steps: int, wall_before: float, started: float, ctrl_c) -> int:
        every = job.checkpoint_every
        next_point = (steps // every + 1) * every
        saved = steps
        while steps < job.learner_steps and not ctrl_c.requested:
            result = algo.train()
            steps = int(result["env_runners"]["num_env_steps_sampled_lifetime"])
            if steps >= next_point or steps >= job.learner_steps:
                _save(algo, job.folder, steps, wall_before + time.time() - started)
                saved, next_point = steps, (steps // every + 1) * every
            if job.progress:
                print(f"rllib_ppo: {steps:,} of {job.learner_steps:,} learner steps", flush=True)
        if steps != saved:  # stopped between two points: keep what was learned
            _save(algo, job.folder, steps, wall_before + time.time() - started)
        return steps

    def learner_steps_done(self, job: TrainingJob) -> int:
        try:
            return _state(job.folder)[0]
        except (OSError, ValueError, KeyError):  # being written
            return 0

    def published(self, env: str, config: dict) -> PublishedPolicy | None:
        return None

    def checkpoints(self, job: TrainingJob) -> list[PolicyCheckpoint]:
        return [PolicyCheckpoint(int(p.stem.removeprefix("step_")), str(p))
                for p in sorted((job.folder / "policies").glob("step_*.npz"))]
