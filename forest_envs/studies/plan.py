"""A study's runs: one ``RunPlan`` per (algorithm, game, seed), everything its process needs,
written as plan.json in its folder of the results (``runs/<algorithm>/<game>/seed_<seed>/``).
A plan.json already there must be the same plan: a results folder holds one study."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path

from ..core.errors import ConfigError
from .algorithms import TrainingJob
from .spec import Study

TRAINING = "training"     # the algorithm's own folder inside a run's


@dataclass(frozen=True)
class RunPlan:
    study: str
    study_file: str
    tier: str
    algorithm: str          # the study's label of the algorithm
    adapter: str            # its name in algorithms.ALGORITHMS
    settings: dict
    game: str               # the study's label of the game
    env: str
    config: dict
    num_players: int
    seed: int
    learner_steps: int
    point_steps: tuple[int, ...]
    games: int              # per line-up at each point
    final_games: int        # per line-up of the full protocol at the end
    folder: str
    references: str         # references.json of the results folder

    @property
    def path(self) -> Path:
        return Path(self.folder)

    @property
    def run_id(self) -> str:
        return f"{self.algorithm}/{self.game}/seed_{self.seed}"

    def job(self, progress: bool = False) -> TrainingJob:
        every = self.point_steps[0]
        return TrainingJob(self.env, dict(self.config), self.seed, self.learner_steps, every,
                           self.path / TRAINING, dict(self.settings), progress)

    def as_json(self) -> dict:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict) -> RunPlan:
        return cls(**{**data, "point_steps": tuple(data["point_steps"])})


def plans(study: Study, out: Path) -> list[RunPlan]:
    """Every run of the study, in the order they start: seed by seed, and within a seed game by
    game, algorithm by algorithm. A study too long for one sitting (it resumes) thus has every
    algorithm on every game at its first seeds before it starts the next seed, so the results
    of a study stopped part way compare the algorithms on equal seeds."""
    points = tuple(study.point_steps())
    return [RunPlan(study.name, study.cited_source, study.tier.name, a.label, a.name, a.settings, g.label,
                    g.env, g.config, g.num_players, seed, study.tier.learner_steps, points,
                    study.evaluation.games, study.evaluation.final_games,
                    str(out / "runs" / a.label / g.label / f"seed_{seed}"), str(out / "references.json"))
            for seed in study.seeds for g in study.games for a in study.algorithms]


# Where a run lives and how its study file is named, not what it trains: a results folder moved
# or carried to another machine (or a study file cited anew) keeps its runs.
WHERE = ("study_file", "folder", "references")


def _changed(old: dict, new: dict) -> list[str]:
    return sorted(k for k in set(old) | set(new) if k not in WHERE and old.get(k) != new.get(k))


def write_plan(plan: RunPlan) -> None:
    """plan.json of the run; one already there must plan the same run (else ConfigError), and
    is written again where it names another place (WHERE): the run's process reads its folder
    from it, which must be where the run is now."""
    path = plan.path / "plan.json"
    new = json.loads(json.dumps(plan.as_json()))
    if path.is_file():
        old = json.loads(path.read_text())
        changed = _changed(old, new)
        if changed:
            raise ConfigError(f"{plan.path} holds a run of another plan ({', '.join(f'{k}: {old.get(k)!r} -> {new.get(k)!r}' for k in changed)}); "
                              "give the study another --out folder")
        if old == new:
            return
    plan.path.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(new, indent=1) + "\n")


def read_plan(path: Path) -> RunPlan:
    return RunPlan.from_json(json.loads(Path(path).read_text()))
