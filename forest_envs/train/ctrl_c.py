"""Ctrl-C during training: only the main process handles it, and it stops PPO between two
steps so the checkpoint it saves is whole. Worker processes ignore it from their first
instruction (the main process saves, then stops them)."""

from __future__ import annotations

import os
import signal
import threading


class CtrlC:
    """While installed, Ctrl-C (SIGINT) is handled by the main process only. When ``graceful``
    the first one just asks training to stop after the current step (so the saved model is
    whole) and a second one stops at once; otherwise the first one raises KeyboardInterrupt."""

    MESSAGE = (b"\nCtrl-C: stopping after this step and saving a checkpoint "
               b"(Ctrl-C again stops at once, without saving)\n")

    def __init__(self):
        self.graceful = False
        self.requested = False
        self._pid = os.getpid()
        self._installed = False
        self._previous = None

    def __enter__(self) -> CtrlC:
        # Python lets only the main thread set handlers; elsewhere Ctrl-C keeps its default.
        if threading.current_thread() is threading.main_thread():
            self._previous = signal.signal(signal.SIGINT, self._handle)
            self._installed = True
        return self

    def __exit__(self, *exc) -> None:
        if self._installed:
            signal.signal(signal.SIGINT, self._previous)

    def _handle(self, signum, frame) -> None:
        if os.getpid() != self._pid:
            return  # a forked evaluation worker inherited this handler: its parent decides
        if not self.graceful or self.requested:
            raise KeyboardInterrupt
        self.requested = True
        try:
            # os.write, not print: the handler may run while the main thread is inside a print.
            os.write(2, self.MESSAGE)
        except OSError:
            pass  # no stderr to tell: the checkpoint is saved all the same


# What every env worker imports (the worker loop, SB3 and so torch, the games with their
# native engines, the agents that play the opponents), imported once by the forkserver.
WORKER_MODULES = ("forest_envs.train.batched", "forest_envs.envs.gym_env", "forest_envs.agents.named")


def start_forkserver() -> None:
    """Env workers start from multiprocessing's forkserver. Started while Ctrl-C is ignored,
    the forkserver hands that on to every worker from its first instruction, so a Ctrl-C
    while they start cannot make them print tracebacks (the main process handles it).
    Ignoring lasts the few milliseconds of one fork and exec.

    The forkserver imports ``WORKER_MODULES`` once when it starts, and each worker is a fork
    of it with them imported: a worker is ready in a fraction of a second rather than after
    its own import of torch and the games (seconds each, paid by every worker of every run).
    A forkserver already running (started elsewhere in this process) is used as it is."""
    import multiprocessing
    from multiprocessing import forkserver

    if ("forkserver" not in multiprocessing.get_all_start_methods()
            or threading.current_thread() is not threading.main_thread()):
        return
    multiprocessing.set_forkserver_preload(list(WORKER_MODULES))
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        forkserver.ensure_running()
    finally:
        signal.signal(signal.SIGINT, previous)
