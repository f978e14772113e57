"""MaskablePPO (sb3-contrib) through ``forest-envs train`` (forest_envs/train/sb3.py): the
shipped baselines' recipe, one learner seat against a pool of random, heuristic and frozen
past selves, without their warm start (a study measures learning from scratch; the setting
``pretrain.games: 2000`` puts it back).

Settings: any key of the training config (forest_envs/train/config.py), dotted
(``ppo.learning_rate: 3.0e-4``, ``n_envs: 2``), but the ones the study decides: the game, the
seed, the budget, the checkpoints, the output folder and the evaluation.
"""

from __future__ import annotations

import json
from pathlib import Path

from ...core.errors import ConfigError
from .base import PolicyCheckpoint, PublishedPolicy, TrainingJob, TrainingOutcome

# The MaskablePPO settings the shipped baselines share (forest_envs/configs/*_baseline.yaml);
# the reward is the game's win, as the study's scores measure winning.
RECIPE: dict = {
    "reward": "win",
    "n_envs": 8,
    "vec_env": "subproc",
    "torch_threads": 1,
    "policy": {"net_arch": [256, 256], "activation": "tanh"},
    "ppo": {"learning_rate": 1.0e-4, "n_steps": 256, "batch_size": 1024, "n_epochs": 4,
            "gamma": 1.0, "gae_lambda": 0.95, "clip_range": 0.2, "ent_coef": 0.003,
            "vf_coef": 0.5, "max_grad_norm": 0.5},
    "opponents": {"pool": [{"agent": "random", "weight": 1.0}, {"agent": "heuristic", "weight": 3.0},
                           {"agent": "snapshot", "weight": 1.0}],
                  "max_snapshots": 10},
}
SNAPSHOTS_PER_RUN = 10      # the pool's past selves are taken every tenth of the budget
STUDY_KEYS = ("env", "env_config", "seed", "total_timesteps", "time_limit_minutes", "output_dir",
              "checkpoint_every", "eval")


def _nested(dotted: dict) -> dict:
    """Study settings as a training config's sections (``{"ppo.n_steps": 64}`` ->
    ``{"ppo": {"n_steps": 64}}``)."""
    from ...train.config import apply_overrides

    return apply_overrides({}, dotted, "settings")


def training_config(job: TrainingJob, where: str = "settings", recipe: dict | None = None) -> dict:
    """The validated training config of ``job``: the recipe (``RECIPE``, its past selves taken
    every tenth of the budget, unless another ``recipe`` is given), the settings over it, and
    what the study decides."""
    import copy

    from ...train.config import apply_overrides, validate_config

    taken = sorted(k for k in job.settings if k.split(".")[0] in STUDY_KEYS)
    if taken:
        raise ConfigError(f"{where}: {', '.join(taken)} is decided by the study (its games, seeds, "
                          "tier and evaluation), not by an algorithm's settings")
    if recipe is None:
        raw = copy.deepcopy(RECIPE)
        raw["opponents"]["snapshot_every"] = max(1, job.learner_steps // SNAPSHOTS_PER_RUN)
    else:
        raw = {k: copy.deepcopy(v) for k, v in recipe.items() if k not in STUDY_KEYS}
    apply_overrides(raw, dict(job.settings), where)
    raw.update(env=job.env, env_config=dict(job.config), seed=job.seed,
               total_timesteps=job.learner_steps, time_limit_minutes=None,
               output_dir=str(job.folder), checkpoint_every=job.checkpoint_every,
               eval={"games": 0, "final_games": 0})
    try:
        return validate_config(raw)
    except ConfigError as err:
        raise ConfigError(f"{where}: {err}") from None


def _finished_summary(folder: Path) -> dict | None:
    path = folder / "summary.json"
    if not path.is_file():
        return None
    summary = json.loads(path.read_text())
    return summary if summary.get("stopped") == "step_budget" else None


def _checkpoint_steps(path: Path) -> tuple[int, float]:
    """(learner steps, wall seconds) a checkpoint's run state records."""
    state = json.loads(path.with_suffix(".json").read_text())
    return int(state["timesteps"]), float(state.get("wall_seconds", 0.0))


class MaskablePPO:
    name = "maskable_ppo"

    def recipe(self, env: str, config: dict, where: str) -> dict | None:
        """The training config the settings go over (None: ``RECIPE``)."""
        return None

    def training_config(self, job: TrainingJob, where: str = "settings") -> dict:
        return training_config(job, where, self.recipe(job.env, job.config, where))

    def check(self, settings: dict, env: str, config: dict, where: str) -> None:
        job = TrainingJob(env, config, 0, 1_000_000, 100_000, Path("unused"), settings)
        self.training_config(job, where)

    def train(self, job: TrainingJob) -> TrainingOutcome:
        from ...train.sb3 import train

        summary = _finished_summary(job.folder)
        latest = job.folder / "checkpoints" / "latest.zip"
        if summary is None and latest.is_file():
            steps, wall = _checkpoint_steps(latest)
            if steps >= job.learner_steps:  # stopped after its last checkpoint, before the summary
                return TrainingOutcome(True, steps, wall)
            summary = train(self.training_config(job), resume=str(latest), progress=job.progress)
        elif summary is None:
            # Nothing to continue: whatever an earlier session left before its first
            # checkpoint is deleted (train's --overwrite deletes a run's files, only those).
            summary = train(self.training_config(job), progress=job.progress, overwrite=True)
        return TrainingOutcome(summary["stopped"] == "step_budget", int(summary["timesteps"]),
                               float(summary["wall_seconds"]))

    def learner_steps_done(self, job: TrainingJob) -> int:
        latest = job.folder / "checkpoints" / "latest.zip"
        try:
            return _checkpoint_steps(latest)[0]
        except (OSError, ValueError, KeyError):  # none yet, or being written
            return 0

    def published(self, env: str, config: dict) -> PublishedPolicy | None:
        return None

    def checkpoints(self, job: TrainingJob) -> list[PolicyCheckpoint]:
        """Every checkpoint model_<step>.zip as a policy file policies/step_<step>.npz (numpy
        alone plays it), exported once."""
        found = []
        for model in sorted((job.folder / "checkpoints").glob("model_*.zip")):
            steps = int(model.stem.removeprefix("model_"))
            policy = job.folder / "policies" / f"step_{steps:012d}.npz"
            if not policy.is_file():
                _export(model, policy)
            found.append(PolicyCheckpoint(steps, str(policy)))
        return found


def _export(model_path: Path, policy_path: Path) -> None:
    from sb3_contrib import MaskablePPO as Model

    from ...train.export import export_policy

    export_policy(Model.load(model_path, device="cpu").policy, policy_path)
