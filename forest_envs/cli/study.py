"""``forest-envs study``: a study file's runs, their evaluations and statistics
(forest_envs/studies/, docs/studies.md)."""

from __future__ import annotations

import os
import shlex
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from ..core.errors import ConfigError
from .args import program_words, require_extra


def cmd_study(args) -> int:
    """Run a study. Ctrl-C stops the runs under way (each saves a checkpoint), prints the
    command that continues the study and exits with 130."""
    require_extra("train")
    require_extra("study")
    if args.jobs is not None and args.jobs < 1:
        raise ConfigError(f"--jobs must be at least 1, got {args.jobs}")
    if args.cpus_per_run is not None and not args.address:
        raise ConfigError("--cpus-per-run is for runs on a Ray cluster: give --address too")
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")  # as forest-envs train (cli/train.py)
    from ..studies import load_study

    seeds = _seeds(args.seeds)
    study = load_study(args.study).selected(args.game or (), args.algorithm or (), seeds)
    out = Path(args.out) if args.out else Path("results") / study.name
    words = [*program_words(), "study", args.study, "--out", str(out)]
    for game in args.game or ():
        words += ["--game", game]
    for label in args.algorithm or ():
        words += ["--algorithm", label]
    if seeds:
        words += ["--seeds", ",".join(map(str, seeds))]
    for flag, value in (("--jobs", args.jobs), ("--address", args.address),
                        ("--cpus-per-run", args.cpus_per_run)):
        words += [flag, str(value)] if value is not None else []
    again = shlex.join(words)
    try:
        with sigterm_as_ctrl_c():
            outcome = _run(study, out, args)
    except KeyboardInterrupt:
        print(f"study interrupted: finished runs are kept, the others continue from their last "
              f"checkpoint with:\n  {again}")
        return 130
    if outcome.failed:
        print(f"{len(outcome.failed)} run(s) failed: {', '.join(outcome.failed)} (each run's log.txt "
              f"says why); the others are kept: fix the cause and run\n  {again}")
        return 1
    if outcome.interrupted:
        print(f"run(s) interrupted: {', '.join(outcome.interrupted)}; continue with\n  {again}")
        return 130
    print(f"wrote {outcome.report} (aggregate.json and plots/ beside it)")
    return 0


def _seeds(given: str | None) -> list[int]:
    if given is None:
        return []
    try:
        seeds = [int(x) for x in given.split(",")]
    except ValueError:
        raise ConfigError(f"--seeds takes seeds separated by commas, such as 0,1; got {given!r}") from None
    return seeds


@contextmanager
def sigterm_as_ctrl_c() -> Iterator[None]:
    """SIGTERM (``kill PID``) stops the study as Ctrl-C does: each run saves a checkpoint, and
    a second one stops them at once. A study started in the background of a shell
    (``nohup forest-envs study ... &``) inherits SIGINT ignored, so there ``kill`` is the way
    to stop it; without this a SIGTERM would end the study at once and leave its runs going."""
    if threading.current_thread() is not threading.main_thread():
        yield  # only the main thread may set handlers
        return

    def stop(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _run(study, out: Path, args):
    """The study's runs as local processes, or as Ray actors on the cluster at --address."""
    from ..studies.runner import run_study

    if not args.address:
        return run_study(study, out, jobs=args.jobs or 1, progress=not args.quiet,
                         train_progress=args.progress)
    from ..evaluation.workers import ray_cluster
    from ..studies.ray_runs import RayRuns

    with ray_cluster(args.address):
        dispatch = RayRuns(args.cpus_per_run or 1, args.jobs, args.progress)
        return run_study(study, out, jobs=dispatch.slots, dispatch=dispatch,
                         progress=not args.quiet, train_progress=args.progress)


def add_study_parser(sub) -> None:
    q = sub.add_parser("study", help="benchmark RL algorithms over seeds under a budget tier, with "
                       "rliable's statistics (the train and study extras; docs/studies.md)")
    # The shipped studies are not listed here: that would read the study package at every
    # command's start; a name that is none of them gets an error listing them.
    q.add_argument("study", help="a study file (YAML) or the name of a shipped one "
                   "(docs/studies.md; any other name lists them)")
    q.add_argument("--out", help="the results folder; a second run in it continues the study "
                   "(default: results/<study name>)")
    q.add_argument("--game", action="append", metavar="LABEL", help="only the runs of this game "
                   "configuration (its label in the study file; repeat for more; default: all)")
    q.add_argument("--algorithm", action="append", metavar="LABEL", help="only the runs of this "
                   "algorithm (its label in the study file; repeat for more; default: all)")
    q.add_argument("--seeds", metavar="S,S,...", help="only the runs of these seeds, such as 0,1 "
                   "(default: the study's). A cut shares its runs with the whole study in the same "
                   "--out; its report covers the cut only")
    q.add_argument("--jobs", type=int, help="runs at once, each its own process (default: 1; "
                   "with --address, as many as the cluster's CPUs hold)")
    q.add_argument("--address", help="run on a Ray cluster: HOST:PORT of a head started with "
                   "`ray start --head`, or auto; one Ray actor per run, its folder sent to the node "
                   "and back (no shared filesystem needed; the same forest_envs on every node)")
    q.add_argument("--cpus-per-run", type=int, help="CPUs each run declares to Ray (default: 1); "
                   "only with --address")
    q.add_argument("--progress", action="store_true", help="each run's training progress in its "
                   "log.txt (default: off)")
    q.add_argument("--quiet", action="store_true", help="no progress lines (default: off)")
    q.set_defaults(func=cmd_study)
