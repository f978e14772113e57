"""What a study asks of an algorithm: check its settings, train one run under a budget in a
folder of its own (continuing what the folder holds), and list the policies it saved on the
way, each a file an agent plays (``forest_envs.agents.make_agent``), so the study evaluates
every algorithm with the same benchmark protocol.

An adapter is a thin layer over a library's trainer (MaskablePPO: forest_envs/train/sb3.py);
it never evaluates. A new algorithm is one module in this folder and one line in
``ALGORITHMS`` (``algorithms/__init__.py``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from ...core.errors import ConfigError


def is_number(value: object) -> bool:
    """An int or a float, not a bool (YAML's true is an int to Python)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def settings_over_defaults(given: dict, defaults: dict, algorithm: str, where: str,
                           positive_ints: tuple[str, ...]) -> dict:
    """An adapter's settings: ``given`` over ``defaults``, with a ConfigError naming an unknown
    key or a key of ``positive_ints`` that is not a positive int. The adapter checks the rest."""
    unknown = sorted(set(given) - set(defaults))
    if unknown:
        raise ConfigError(f"{where}: unknown {algorithm} setting(s) {unknown}; the settings are "
                          f"{', '.join(defaults)}")
    merged = {**defaults, **given}
    for key in positive_ints:
        if not isinstance(merged[key], int) or isinstance(merged[key], bool) or merged[key] < 1:
            raise ConfigError(f"{where}.{key}: {merged[key]!r} must be a positive int")
    return merged


@dataclass(frozen=True)
class TrainingJob:
    """One run as its algorithm sees it."""

    env: str                  # a registered env id
    config: dict              # the game's options
    seed: int
    learner_steps: int        # the budget (tiers.py says what a learner step is)
    checkpoint_every: int     # save a policy at least this often, in learner steps
    folder: Path              # the algorithm's own folder, kept across sessions
    settings: dict            # the study file's settings of this algorithm
    progress: bool = False    # show the trainer's own progress


@dataclass(frozen=True)
class TrainingOutcome:
    finished: bool            # the budget is spent; False: stopped early (Ctrl-C), resumable
    learner_steps: int        # where training stands
    wall_seconds: float       # training time over every session


@dataclass(frozen=True)
class PolicyCheckpoint:
    """A policy saved after ``learner_steps`` steps: ``agent`` is what ``make_agent`` plays."""

    learner_steps: int
    agent: str


@dataclass(frozen=True)
class PublishedPolicy:
    """A policy that an algorithm's recipe already made and the package ships (the
    ``shipped_recipe``'s: the shipped ``ppo`` baseline): the study evaluates it like a run's
    final policy and sets it beside the runs, to say where the published seed falls in the
    recipe's spread over seeds."""

    agent: str              # what ``make_agent`` plays
    learner_steps: int      # its own training budget, which may differ from the study's
    what: str               # how the report names it


class Algorithm(Protocol):
    name: str

    def check(self, settings: dict, env: str, config: dict, where: str) -> None:
        """Raise ConfigError, naming ``where`` (the study file's field), for settings this
        algorithm cannot train with on this game."""

    def train(self, job: TrainingJob) -> TrainingOutcome:
        """Train ``job`` to its budget, continuing from the folder's last checkpoint if it
        holds one (a run already at its budget returns at once)."""

    def checkpoints(self, job: TrainingJob) -> list[PolicyCheckpoint]:
        """The policies the run saved, by learner step, the last one at the budget."""

    def learner_steps_done(self, job: TrainingJob) -> int:
        """Where the run's training stands by the state it last saved (0 before the first),
        read from one small file while the run goes on (the study's time estimate)."""

    def published(self, env: str, config: dict) -> PublishedPolicy | None:
        """The policy this algorithm already published for the game (``check`` has accepted
        it), or None: most algorithms publish none."""
