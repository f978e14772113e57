"""``forest-envs study``: every run of a study into one results folder, then its statistics.

    OUT/study.yaml                     the study file as it was run
    OUT/references.json                what scores 0 and 1 per game (references.py)
    OUT/runs/<algorithm>/<game>/seed_<n>/
        plan.json, log.txt, training/ (the algorithm's), curve.json, curve.csv, final.json
    OUT/published/<algorithm>/<game>/final.json    a policy the algorithm published (published.py)
    OUT/aggregate.json, OUT/results.md, OUT/plots/   (report.py)

A second session in the same folder keeps the finished runs (final.json written), continues
the others from their last checkpoint and refuses a study whose runs differ (plan.py).
"""

from __future__ import annotations

import shutil
import signal
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..train.progress import Progress
from .dispatch import LOG, Dispatch, Ended, LocalProcesses
from .plan import RunPlan, plans, write_plan
from .references import ensure_references
from .results import read_final
from .run_one import INTERRUPTED
from .spec import Study

STATUS_EVERY_SECONDS = 300.0   # a status line at least this often while runs go on


@dataclass
class StudyOutcome:
    finished: list[str] = field(default_factory=list)     # run ids, this session and earlier
    failed: list[str] = field(default_factory=list)
    interrupted: list[str] = field(default_factory=list)
    left: list[str] = field(default_factory=list)         # never started this session
    report: Path | None = None                            # results.md, once every run finished


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


def _clock(seconds: float) -> str:
    seconds = max(0, int(seconds))
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


@dataclass(frozen=True)
class Running:
    plan: RunPlan
    started: float
    steps_at_start: int       # the learner steps its folder held when this session started it


def _steps_done(plan: RunPlan) -> int:
    from .algorithms import algorithm

    return algorithm(plan.adapter).learner_steps_done(plan.job())


class StudyProgress:
    """Runs done / running / left, and the time left. Once runs have finished, each run not
    yet finished is expected to take what the finished runs of its algorithm on its game took
    (else of its algorithm, else on its game, else all of them: the algorithms of a study
    differ several-fold), a running one less its time so far. Before that, at the training
    pace of the runs under way (their saved learner steps; evaluations not counted).

    A run continued from a checkpoint of an earlier session trains only the rest of its
    budget: what it took counts as a whole run's at its pace (its duration times the budget
    over the steps it trained), and one under way is expected to take that part of a whole
    run's time."""

    def __init__(self, shown: Progress, total: int, done_before: int, slots: int, budget: int,
                 waiting: list[RunPlan] | None = None):
        self.shown, self.total, self.slots, self.budget = shown, total, slots, budget
        self.done, self.started = done_before, time.time()
        self.waiting = waiting if waiting is not None else []  # the runner's list: runs not started
        self.durations: dict[tuple[str, str], list[float]] = {}  # (algorithm, game): seconds

    def took(self, plan: RunPlan, seconds: float) -> None:
        """A finished run's duration from 0 steps, which later estimates go by."""
        self.durations.setdefault((plan.algorithm, plan.game), []).append(seconds)

    def _part_left(self, steps_at_start: int) -> float:
        """The part of a whole run's time that a run started at ``steps_at_start`` takes."""
        return max(0, self.budget - steps_at_start) / self.budget

    def expected(self, plan: RunPlan) -> float | None:
        """The seconds ``plan`` is expected to take (None before any run has finished)."""
        for match in (lambda a, g: (a, g) == (plan.algorithm, plan.game),
                      lambda a, g: a == plan.algorithm, lambda a, g: g == plan.game,
                      lambda a, g: True):
            seen = [t for (a, g), times in self.durations.items() if match(a, g) for t in times]
            if seen:
                return sum(seen) / len(seen)
        return None

    def time_left(self, running: list[Running]) -> float | None:
        if not self.durations:
            return None
        now = time.time()
        left = sum(max(0.0, (self.expected(r.plan) or 0.0) * self._part_left(r.steps_at_start)
                       - (now - r.started)) for r in running)
        left += sum(self.expected(p) or 0.0 for p in self.waiting)
        return left / self.slots

    def training_left(self, running: list[Running]) -> float | None:
        """Seconds of training left for the runs under way and those not started, at the
        mean pace of the runs under way; None until one has saved progress."""
        now, rates, steps_left = time.time(), [], 0
        for run in running:
            done = _steps_done(run.plan)
            if done > run.steps_at_start and now > run.started:
                rates.append((done - run.steps_at_start) / (now - run.started))
            steps_left += max(0, self.budget - done)
        if not rates:
            return None
        steps_left += self.budget * (self.total - self.done - len(running))
        return steps_left / (sum(rates) / len(rates) * self.slots)

    def status(self, running: list[Running]) -> str:
        left = self.total - self.done - len(running)
        text = (f"runs: {self.done}/{self.total} done, {len(running)} running, {left} left; "
                f"{_clock(time.time() - self.started)} elapsed")
        if (seconds := self.time_left(running)) is not None:
            text += f", about {_clock(seconds)} left"
        elif (seconds := self.training_left(running)) is not None:
            text += (f", about {_clock(seconds)} of training left at the pace of the runs under "
                     "way (evaluations not counted)")
        return text

    def ended(self, end: Ended, running: list[Running], steps_at_start: int = 0) -> None:
        """``end`` of a run this session started at ``steps_at_start`` learner steps; the runs
        still under way."""
        final = read_final(end.plan.path)
        if end.status == 0 and final is not None:
            self.done += 1
            if (part := self._part_left(steps_at_start)) > 0:  # (0: it only evaluated)
                self.took(end.plan, end.seconds / part)
            what = (f"finished in {_clock(end.seconds)}: win rate {final.win_rate_vs_heuristic:.3f} "
                    f"against the heuristic line-up (score {final.score_win_rate:.2f})")
        elif end.status == INTERRUPTED:
            what = "interrupted (continues from its last checkpoint next time)"
        else:
            what = f"FAILED (exit status {end.status}; see {end.plan.path / LOG})"
        self.shown.line(f"{end.plan.run_id}: {what}")
        self.shown.line(self.status(running))


def _judged(end: Ended) -> Ended:
    """How a run ended, by its files first: a run whose final.json is written has finished,
    whatever its exit status (a Ctrl-C as its process exits kills it with SIGINT)."""
    if read_final(end.plan.path) is not None:
        return replace(end, status=0)
    if end.status == -signal.SIGINT:
        return replace(end, status=INTERRUPTED)
    return end


def _copy_study_file(study: Study, out: Path) -> None:
    target = out / "study.yaml"
    if Path(study.source).resolve() != target.resolve():
        shutil.copyfile(study.source, target)


def _workers_for(games: int) -> int:
    """Processes for the study's own evaluations (the references, the published policies),
    which run while no run does: every core of this machine, unless the games are so few that
    starting worker processes would cost more (the tests' tiny study)."""
    from ..evaluation.workers import cpu_cores

    return cpu_cores() if games >= 100 else 1


def run_study(study: Study, out: Path, jobs: int = 1, dispatch: Dispatch | None = None,
              progress: bool = True, train_progress: bool = False) -> StudyOutcome:
    """Every unfinished run of ``study`` (at most ``jobs`` at once), then the report if every
    run has finished. Ctrl-C stops the runs (each saves a checkpoint) and raises
    KeyboardInterrupt once they have."""
    shown = Progress(progress)
    out.mkdir(parents=True, exist_ok=True)
    all_plans = plans(study, out)
    for plan in all_plans:  # every check before anything is trained
        write_plan(plan)
    _copy_study_file(study, out)
    count = max(study.evaluation.games, study.evaluation.final_games)
    ensure_references(study.games, count, out / "references.json", workers=_workers_for(count),
                      say=shown.line)  # before any run starts
    outcome = StudyOutcome(finished=[p.run_id for p in all_plans if read_final(p.path) is not None])
    todo: list[RunPlan] = [p for p in all_plans if read_final(p.path) is None]
    dispatch = dispatch or LocalProcesses(jobs, train_progress)
    meter = StudyProgress(shown, len(all_plans), len(outcome.finished), dispatch.slots,
                          study.tier.learner_steps, todo)
    for plan in all_plans:  # runs of earlier sessions: their training time (evaluations not kept)
        if (earlier := read_final(plan.path)) is not None:
            meter.took(plan, earlier.training_seconds)
    shape = " x ".join(_count(len(items), noun) for items, noun in (
        (study.algorithms, "algorithm"), (study.games, "game"), (study.seeds, "seed")))
    shown.line(f"study {study.name}: {_count(len(all_plans), 'run')} ({shape}, {study.tier.name} "
               f"tier: {study.tier.learner_steps:,} learner steps each), {len(outcome.finished)} "
               f"already finished; results in {out}")
    running: dict[str, Running] = {}
    last_status = time.time()

    def record(ended: list[Ended]) -> None:
        for end in ended:
            run = running.pop(end.plan.run_id, None)
            end = _judged(end)
            {0: outcome.finished, INTERRUPTED: outcome.interrupted}.get(
                end.status, outcome.failed).append(end.plan.run_id)
            meter.ended(end, list(running.values()), run.steps_at_start if run else 0)

    try:
        while todo or running:
            while todo and len(running) < dispatch.slots:
                plan = todo.pop(0)
                shown.line(f"{plan.run_id}: started")
                running[plan.run_id] = Running(plan, time.time(), _steps_done(plan))
                dispatch.start(plan)
            ended = dispatch.wait(timeout=60.0)
            record(ended)
            if not ended and time.time() - last_status >= STATUS_EVERY_SECONDS:
                shown.line(meter.status(list(running.values())))
                last_status = time.time()
    except KeyboardInterrupt:
        try:
            shown.line("Ctrl-C: stopping the runs under way (each saves a checkpoint)")
        except BrokenPipeError:
            # The same Ctrl-C ended the `| tee` this study writes to: no more lines, and the
            # runs are stopped all the same.
            shown.enabled = False
        record(dispatch.stop())
        outcome.left = [p.run_id for p in todo]
        raise
    except BaseException:
        # Whatever else ends this process (its output closed, a bug) stops the runs first as
        # Ctrl-C does, each saving a checkpoint: none is left training with no study to wait for it.
        shown.enabled = False
        dispatch.stop()
        raise
    if not outcome.failed and not outcome.interrupted:
        from .published import evaluate_published
        from .report import write_report

        evaluate_published(study, out, workers=_workers_for(study.evaluation.final_games),
                           say=shown.line)
        shown.line("statistics (rliable) and plots")
        outcome.report = write_report(study, out)
    return outcome
