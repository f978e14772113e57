"""Worker process pools that leave Ctrl-C to the main process.

Evaluation, the warm start and training all run games in worker processes. A Ctrl-C goes to
the whole process group; only the main process should act on it (stop, save, say so), so
workers ignore it and the main process holds it back while workers are being forked.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager


def ignore_sigint() -> None:
    """For worker processes: Ctrl-C is the main process's to handle (it stops the workers);
    a worker would only print a traceback."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextmanager
def sigint_held():
    """Hold Ctrl-C back while worker processes are forked, then hand it to the handler that
    was in place. Raised in the middle of a fork, a KeyboardInterrupt is swallowed by the
    fork hooks ("Exception ignored in _releaseLock") and the Ctrl-C is lost."""
    if threading.current_thread() is not threading.main_thread():
        yield  # only the main thread may set handlers; it alone runs them
        return
    caught = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: caught.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        if caught and callable(previous):
            previous(signal.SIGINT, None)


def map_in_workers(func: Callable, jobs: Iterable, workers: int) -> Iterator:
    """``map(func, jobs)`` over ``workers`` processes, results in order. On Ctrl-C the queued
    jobs are dropped (only those already running are waited for) and KeyboardInterrupt
    reaches the caller."""
    with ProcessPoolExecutor(workers, initializer=ignore_sigint) as pool:
        try:
            with sigint_held():  # map() submits every job and so starts the workers
                results = pool.map(func, jobs)
            yield from results
        except KeyboardInterrupt:
            pool.shutdown(cancel_futures=True)
            raise
