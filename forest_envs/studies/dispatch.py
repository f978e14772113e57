"""Where a study's runs execute: the one place that starts them and learns how they ended.

``LocalProcesses`` (the default) starts each run as its own process (``python -m
forest_envs.studies.run_one plan.json``, its output in the run's log.txt), at most ``jobs`` at
once; ``InProcess`` runs them one after the other in this process (the tests: no interpreter
to start); ``RayRuns`` (ray_runs.py, `--address`) runs each as a Ray actor on a cluster.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from typing import Protocol

from .plan import RunPlan

LOG = "log.txt"
STOP_GRACE_SECONDS = 120.0   # a run stopped by Ctrl-C saves a checkpoint first
RUN_HASH_SEED = "0"          # every run process's PYTHONHASHSEED (run_environment)


def run_environment() -> dict[str, str]:
    """The environment of a run's process: this one's, with two settings of its own."""
    env = dict(os.environ)
    # torch's OpenMP threads otherwise spin on the cores the other runs need (cli/train.py)
    env.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    # RLlib PPO's training follows the string-hash seed of the process its learner runs in
    # (this run's), which Python draws per process: two runs of one seed differed after one
    # iteration (docs/training.md, "Repeatable runs"). Fixed, a run depends on its plan alone,
    # whatever the shell's PYTHONHASHSEED; the other algorithms never depended on it.
    env["PYTHONHASHSEED"] = RUN_HASH_SEED
    return env


@dataclass(frozen=True)
class Ended:
    plan: RunPlan
    status: int              # run_one's exit status: 0 finished, 130 interrupted, else failed
    seconds: float


class Dispatch(Protocol):
    slots: int               # how many runs may execute at once

    def start(self, plan: RunPlan) -> None: ...

    def wait(self, timeout: float) -> list[Ended]:
        """The runs that ended since the last call, waiting up to ``timeout`` for one."""

    def stop(self) -> list[Ended]:
        """After Ctrl-C: let every running run save and stop; how they ended."""


class LocalProcesses:
    def __init__(self, jobs: int, progress: bool = False):
        from ..evaluation.workers import cpu_cores

        self.slots = jobs
        self.progress = progress
        # Each run evaluates over its share of the cores: a study of one run at a time on two
        # cores evaluates twice as fast, two at a time as before.
        self.eval_workers = max(1, cpu_cores() // jobs)
        self.running: dict[int, tuple[RunPlan, subprocess.Popen, float]] = {}

    def start(self, plan: RunPlan) -> None:
        env = run_environment()
        log = (plan.path / LOG).open("a")
        argv = [sys.executable, "-m", "forest_envs.studies.run_one", str(plan.path / "plan.json"),
                "--workers", str(self.eval_workers)]
        # In a session of its own, so a Ctrl-C at the terminal reaches this process alone, which
        # passes it on once (stop): a second SIGINT would stop a run without its checkpoint.
        proc = subprocess.Popen(argv + (["--progress"] if self.progress else []), stdout=log,
                                stderr=subprocess.STDOUT, env=env, start_new_session=True)
        log.close()  # the child holds its own copy
        self.running[proc.pid] = (plan, proc, time.time())

    def _ended(self) -> list[Ended]:
        out = []
        for pid, (plan, proc, started) in list(self.running.items()):
            if proc.poll() is not None:
                out.append(Ended(plan, proc.returncode, time.time() - started))
                del self.running[pid]
        return out

    def wait(self, timeout: float) -> list[Ended]:
        deadline = time.time() + timeout
        while True:
            ended = self._ended()
            if ended or not self.running or time.time() >= deadline:
                return ended
            time.sleep(0.2)

    def _signal_all(self, signum: int) -> None:
        for _, proc, _ in self.running.values():
            if proc.poll() is None:
                proc.send_signal(signum)

    def stop(self) -> list[Ended]:
        """One SIGINT to every run (each stops between two steps and saves a checkpoint, or
        stops its evaluation), then wait for them; a second Ctrl-C passes on a second SIGINT,
        which stops them at once, and past the grace time they are killed: either way their
        last checkpoint is what remains."""
        self._signal_all(signal.SIGINT)
        deadline = time.time() + STOP_GRACE_SECONDS
        ended = []
        try:
            while self.running and time.time() < deadline:
                ended += self.wait(deadline - time.time())
        except KeyboardInterrupt:
            self._signal_all(signal.SIGINT)
        for plan, proc, started in self.running.values():
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
            ended.append(Ended(plan, proc.returncode, time.time() - started))
        self.running.clear()
        return ended


class InProcess:
    """Each run in this process, when it is started; for tests and debugging."""

    slots = 1

    def __init__(self, progress: bool = False):
        self.progress = progress
        self.done: list[Ended] = []

    def start(self, plan: RunPlan) -> None:
        from .run_one import run

        started = time.time()
        with (plan.path / LOG).open("a") as log:
            try:
                status = run(plan, self.progress, say=lambda text: print(text, file=log, flush=True))
            except Exception:  # as a process's would, the traceback goes to its log
                import traceback

                traceback.print_exc(file=log)
                status = 1
        self.done.append(Ended(plan, status, time.time() - started))

    def wait(self, timeout: float) -> list[Ended]:
        done, self.done = self.done, []
        return done

    def stop(self) -> list[Ended]:
        return self.wait(0)
