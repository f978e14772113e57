"""Worker process pools that leave Ctrl-C to the main process.

Evaluation, the warm start and training all run games in worker processes. A Ctrl-C goes to
the whole process group; only the main process should act on it (stop, save, say so), so
workers ignore it and the main process holds it back while workers are being forked.
"""

from __future__ import annotations

import gc
import os
import signal
import threading
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from contextlib import contextmanager
from typing import Any

from ..core.errors import ConfigError


def cpu_cores() -> int:
    """The cores this process may run on (its affinity where the OS has one, not the
    machine's count)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


def ignore_sigint() -> None:
    """For worker processes: Ctrl-C is the main process's to handle (it stops the workers);
    a worker would only print a traceback."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def one_blas_thread() -> Any:
    """For worker processes: numpy's BLAS runs on one thread, from now on; used as a context
    manager (``with one_blas_thread():``), only inside the block. A worker's matrix products are
    one observation through a small policy network (an opponent, a search's prior); with
    OpenBLAS's default pool (a thread per core) in each of several workers, the idle threads
    spin against each other: eight processes on the 2-core machine took 25 ms per forward pass
    of a 2774x256x256 tanh network instead of 0.3 ms with one thread each (2026-12-01)."""
    from threadpoolctl import threadpool_limits

    return threadpool_limits(limits=1, user_api="blas")


# A full collection at most once every this many collections of the middle generation
# (Python's default: 10). See ``rare_full_collections``.
FULL_COLLECTION_EVERY = 1000


def rare_full_collections() -> None:
    """For worker processes: the cyclic garbage collector's full collections made rare, and
    what the process holds once set up (the imported libraries) left out of them.

    A full collection walks every object the collector tracks, and a worker holds a few
    hundred thousand: torch's and the other libraries' objects, and the scripted agents'
    memo tables, whose keys hold records the collector tracks. With Python's default
    thresholds a training worker with heuristic opponents made a full collection every few
    hundred steps at 0.2 s each, a sixth of its time (docs/training.md, "Worker processes
    and the garbage collector"). What the games and agents drop is freed by reference
    counting, with no reference cycles (tests/test_workers.py), so nothing piles up between
    the rare full collections; the young generations are collected as before. Nothing a
    game or an agent computes depends on it."""
    gc.freeze()
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, FULL_COLLECTION_EVERY)


def start_worker() -> None:
    """What every worker process of ours does first: Ctrl-C left to the main process, one BLAS
    thread, full garbage collections made rare."""
    ignore_sigint()
    one_blas_thread()
    rare_full_collections()


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


def map_in_workers(func: Callable, jobs: Iterable, workers: int, ordered: bool = True) -> Iterator:
    """``map(func, jobs)`` over ``workers`` processes: results in order, or as each job
    finishes (``ordered=False``). On Ctrl-C the queued jobs are dropped and the running ones
    stopped at once (their worker processes are ended: a job may take minutes), and
    KeyboardInterrupt reaches the caller, with what was yielded kept by it."""
    with ProcessPoolExecutor(workers, initializer=start_worker) as pool:
        try:
            with sigint_held():  # submitting starts the workers
                futures = [pool.submit(func, job) for job in jobs]
            for future in (futures if ordered else as_completed(futures)):
                yield future.result()
        except KeyboardInterrupt:
            _stop_now(pool)
            raise


def _stop_now(pool: ProcessPoolExecutor) -> None:
    """Drop the queued jobs and end the worker processes without waiting for their jobs."""
    # ProcessPoolExecutor has no public way to stop a running job; its processes are ours
    # (taken before shutdown, which forgets them).
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.terminate()


# --- Ray: the same jobs as tasks on a cluster --------------------------------------------------
# Games are deterministic from their seeds, so where a job runs (a local process or any node of
# a cluster) never changes its result; only the order results arrive in does, and the callers
# sort them by game index.

@contextmanager
def ray_cluster(address: str, num_cpus: int | None = None):
    """Connect to the Ray cluster at ``address`` (``HOST:PORT`` of a head started with ``ray
    start --head``, ``auto``, ``ray://HOST:10001``), or start a private instance of
    ``num_cpus`` CPUs for ``"local"`` (never joining a cluster this machine may run); yields
    the cluster's CPU count and disconnects at the end. A Ray session this process already has
    is used as it is and left open."""
    try:
        import ray
    except ImportError:
        raise ConfigError(f"--address {address!r} needs ray: pip install 'forest_envs[rllib]'") from None
    own = not ray.is_initialized()
    if own:
        try:
            if address == "local":
                ray.init(address="local", num_cpus=num_cpus, include_dashboard=False,
                         log_to_driver=False, configure_logging=False)
            else:
                ray.init(address=address, log_to_driver=False, configure_logging=False)
        except (ConnectionError, ValueError, RuntimeError, TimeoutError) as err:
            ray.shutdown()
            raise ConfigError(f"--address {address!r}: cannot connect to a Ray cluster "
                              f"({type(err).__name__}: {' '.join(str(err).split())[:300]})") from None
    try:
        yield max(1, int(ray.cluster_resources().get("CPU", 1)))
    finally:
        if own:
            ray.shutdown()


def map_in_ray(func: Callable, jobs: Iterable) -> Iterator:
    """``map(func, jobs)`` as Ray tasks of one CPU each (inside ``ray_cluster``), results in
    order. On Ctrl-C the tasks not yet finished are cancelled and KeyboardInterrupt reaches
    the caller."""
    import ray

    task = ray.remote(num_cpus=1)(func)
    refs = [task.remote(job) for job in jobs]
    try:
        for ref in refs:
            yield ray.get(ref)
    except KeyboardInterrupt:
        for ref in refs:
            ray.cancel(ref, force=True)
        raise
