"""One run of a study, in its own process: train to the budget (continuing from the last
checkpoint of an earlier session), evaluate each point's checkpoint with the benchmark
protocol (the random and heuristic line-ups, few games), then the final policy with the full
protocol. Every evaluation is saved as it ends, so a session stopped anywhere loses at most
the one under way.

    python -m forest_envs.studies.run_one RUN_FOLDER/plan.json [--progress]

Exit status: 0 finished (final.json written), 130 interrupted (Ctrl-C), 1 failed.
"""

from __future__ import annotations

import signal
import sys
import time
from dataclasses import asdict
from pathlib import Path

from .algorithms import PolicyCheckpoint, algorithm
from .plan import RunPlan, read_plan
from .references import GameReferences, read_references
from .results import (
    CurvePoint,
    FinalScores,
    ProtocolFigures,
    read_curve,
    read_final,
    write_curve,
    write_final,
)
from .spec import CHECKPOINT_LINEUPS

INTERRUPTED = 130


def _at_or_after(checkpoints: list[PolicyCheckpoint], steps: int) -> PolicyCheckpoint:
    """The policy that had been reached when training passed ``steps`` learner steps."""
    later = [c for c in checkpoints if c.learner_steps >= steps]
    if not later:
        raise RuntimeError(f"no checkpoint at or after learner step {steps}: the run saved "
                           f"{[c.learner_steps for c in checkpoints]}")
    return min(later, key=lambda c: c.learner_steps)


def _rating_mu(entry: dict) -> tuple[float | None, float | None]:
    rating = entry["overall"]["rating"]
    return (rating["mu"], rating["sigma"]) if rating else (None, None)


def _win_rate(entry: dict, lineup: str) -> float:
    return next(row["win_rate"] for row in entry["lineups"] if row["name"] == lineup)


def evaluate_point(plan: RunPlan, refs: GameReferences, k: int, ckpt: PolicyCheckpoint,
                   workers: int = 1) -> CurvePoint:
    from ..benchmark import DEFAULT_SEED, run_benchmark

    entry = run_benchmark(plan.env, ckpt.agent, plan.games, DEFAULT_SEED, plan.config,
                          workers=workers, lineups=list(CHECKPOINT_LINEUPS))
    mu, sigma = _rating_mu(entry)
    vs_heuristic = _win_rate(entry, "heuristic")
    return CurvePoint(k, plan.point_steps[k - 1], ckpt.learner_steps, plan.games,
                      _win_rate(entry, "random"), vs_heuristic, mu, sigma,
                      refs.win_rate_score(vs_heuristic, plan.games), refs.rating_score(mu))


def full_protocol(env: str, agent: str, games: int, config: dict, refs: GameReferences,
                  workers: int = 1) -> tuple[dict, ProtocolFigures]:
    """``agent``'s benchmark entry of ``games`` games per line-up (every line-up, the
    benchmark's seed), and its figures scored on ``refs``."""
    from ..benchmark import DEFAULT_SEED, run_benchmark

    entry = run_benchmark(env, agent, games, DEFAULT_SEED, config, workers=workers)
    mu, _ = _rating_mu(entry)
    vs_heuristic = _win_rate(entry, "heuristic")
    return entry, ProtocolFigures(games_per_lineup=games, win_rate_vs_heuristic=vs_heuristic,
                                  rating_mu=mu, score_win_rate=refs.win_rate_score(vs_heuristic, games),
                                  score_rating=refs.rating_score(mu))


def evaluate_final(plan: RunPlan, refs: GameReferences, ckpt: PolicyCheckpoint,
                   training_seconds: float, workers: int = 1) -> None:
    entry, figures = full_protocol(plan.env, ckpt.agent, plan.final_games, plan.config, refs, workers)
    write_final(plan.path, entry, FinalScores(
        study=plan.study, study_file=plan.study_file, tier=plan.tier, algorithm=plan.algorithm,
        game=plan.game, seed=plan.seed, learner_steps=ckpt.learner_steps,
        training_seconds=round(training_seconds, 1), **asdict(figures)))


def session_line(plan: RunPlan, steps_done: int, now: float) -> str:
    """The log's first line of a session of the run: when it started and where its training
    stood, so a run's log says whether it ran through or was continued from a checkpoint
    (which an algorithm may train differently from a run that ran through: docs/studies.md)."""
    when = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(now))
    if steps_done == 0:
        where = "training from learner step 0"
    elif steps_done < plan.learner_steps:
        where = f"continuing from its checkpoint at learner step {steps_done:,}"
    else:
        where = f"trained ({steps_done:,} learner steps): evaluating what is not yet evaluated"
    return f"{plan.run_id}: session of {when}: {where}"


def run(plan: RunPlan, progress: bool = False, say=print, workers: int = 1) -> int:
    """Train, then evaluate over ``workers`` processes (the benchmark's games are the same
    whatever their number)."""
    if read_final(plan.path) is not None:
        return 0
    adapter = algorithm(plan.adapter)
    job = plan.job(progress)
    say(session_line(plan, adapter.learner_steps_done(job), time.time()))
    started = time.time()
    outcome = adapter.train(job)
    if not outcome.finished:
        say(f"{plan.run_id}: training stopped at {outcome.learner_steps:,} learner steps")
        return INTERRUPTED
    say(f"{plan.run_id}: trained {outcome.learner_steps:,} learner steps "
        f"({time.time() - started:.0f} s this session); evaluating")
    refs = read_references(Path(plan.references))[plan.game]
    checkpoints = adapter.checkpoints(job)
    curve = read_curve(plan.path)
    for k in range(len(curve) + 1, len(plan.point_steps) + 1):
        curve.append(evaluate_point(plan, refs, k, _at_or_after(checkpoints, plan.point_steps[k - 1]),
                                    workers))
        write_curve(plan.path, curve)
        say(f"{plan.run_id}: point {k}/{len(plan.point_steps)} at {curve[-1].learner_steps:,} "
            f"steps: win rate vs heuristic {curve[-1].win_rate_vs_heuristic:.3f}")
    final = max(checkpoints, key=lambda c: c.learner_steps)
    evaluate_final(plan, refs, final, outcome.wall_seconds, workers)
    say(f"{plan.run_id}: final evaluation written")
    return 0


def take_sigint() -> None:
    """The study stops this process with one SIGINT (dispatch.py): take it as Ctrl-C even
    when SIGINT came ignored, as it does to every process of a study started in the background
    of a shell, which would otherwise train on to the end of its evaluation."""
    signal.signal(signal.SIGINT, signal.default_int_handler)


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(prog="python -m forest_envs.studies.run_one")
    parser.add_argument("plan", help="a run's plan.json (forest-envs study writes them)")
    parser.add_argument("--progress", action="store_true", help="show the trainer's progress")
    parser.add_argument("--workers", type=int, default=1, help="processes for the evaluations "
                        "(default 1; the study gives each run its share of the cores)")
    args = parser.parse_args(argv)
    if args.workers < 1:
        parser.error(f"--workers must be at least 1, got {args.workers}")
    take_sigint()
    try:
        return run(read_plan(Path(args.plan)), args.progress,
                   say=lambda text: print(text, flush=True), workers=args.workers)
    except KeyboardInterrupt:
        print("interrupted: the next session continues from the last checkpoint", flush=True)
        return INTERRUPTED


if __name__ == "__main__":
    sys.exit(main())
