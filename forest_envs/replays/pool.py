"""The replay's pictures drawn by forked worker processes (``html.build_data``,
``workers``): the page is the one the serial drawing makes, byte for byte.

A worker draws runs of consecutive pictures of one view and sends back, for each, the tiles
that differ from the picture before it in the run; the frames are then added in the serial
order by ``_Tiler.add_cells``, each compared with the frame before it of its view.
"""

from __future__ import annotations

import os

from ..core.errors import ConfigError
from ..evaluation.workers import cpu_cores

POOL_FROM = 48          # pictures: fewer are drawn in this process (starting workers costs more)
CHUNK = 40              # pictures of one view handed to a worker at a time


def worker_count(workers: int | None, pictures: int) -> int:
    """How many processes draw: ``workers`` if given (1: this process alone). By default,
    when there are at least ``POOL_FROM`` pictures and processes can be forked (they inherit
    the replay), as many as there are idle cores this process may use (at most 4): workers
    cost about a fifth more CPU time in all (their own caches, the tiles sent back), which only
    idle cores repay; otherwise 1. The page is the same whatever the number."""
    import multiprocessing

    forks = "fork" in multiprocessing.get_all_start_methods()
    if workers is not None:
        if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
            raise ConfigError(f"workers must be a whole number from 1, got {workers!r}")
        return workers if forks else 1
    if pictures < POOL_FROM or not forks:
        return 1
    cores = cpu_cores()
    try:
        busy = os.getloadavg()[0]
    except (AttributeError, OSError):
        busy = float(cores)
    return max(1, min(4, cores, int(cores - busy + 1)))


_POOL_WORK: list = []   # (paint, jobs, new tiler) for the forked workers, set while they run


def draw_in_pool(tiler, paint, jobs: list, count: int, bar) -> None:
    """The pictures of ``jobs`` drawn by ``count`` forked processes, the frames added to
    ``tiler`` as the serial drawing adds them. Each worker draws a run of consecutive pictures
    of one view and sends, for each, the tiles that differ from the picture before it in the run
    (all tiles for the run's first); the frames are then added in the serial order, each
    compared with the frame before it of its view, so the frames, the tiles and their order are
    the serial drawing's exactly."""
    import multiprocessing

    runs: list[list[int]] = []
    by_view: dict = {}
    for i, (_, v, _) in enumerate(jobs):
        by_view.setdefault(v, []).append(i)
    for indices in by_view.values():
        runs += [indices[k:k + CHUNK] for k in range(0, len(indices), CHUNK)]
    for indices in by_view.values():   # what every picture draws, kept before the fork
        state, v, view_data = jobs[indices[0]]
        paint(state, v, view_data)
    _POOL_WORK[:] = [(paint, jobs, lambda: type(tiler)((tiler.h, tiler.w), tiler.tile))]
    cells: dict[int, list] = {}
    sent: dict[int, list[bytes]] = {}      # worker -> the tiles it sent, by its number for them
    try:
        with multiprocessing.get_context("fork").Pool(count) as pool:
            # a worker takes its runs in this order, so its tiles arrive in the order it numbered them
            for run, (worker, run_cells) in zip(runs, pool.imap(_draw_run, runs)):
                tiles = sent.setdefault(worker, [])
                for i, picture in zip(run, run_cells):
                    for k, (cell, tile) in enumerate(picture):
                        if isinstance(tile, bytes):
                            tiles.append(tile)
                        else:
                            picture[k] = (cell, tiles[tile])
                    cells[i] = picture
                bar.update(len(run))
    finally:
        _POOL_WORK.clear()
    for i, (_, v, _) in enumerate(jobs):
        tiler.add_cells(cells.pop(i), v)


_SENT: dict[bytes, int] = {}   # in a worker: the tiles it has sent, numbered


def _draw_run(run: list[int]) -> tuple[int, list]:
    """In a worker: the pictures of ``run`` (one view's), each as the (cell, tile) that differ
    from the picture before it in the run; a tile is its bytes the first time this worker
    sends it, then its number (tiles come back again and again: sending each once is most
    of the saving of drawing in several processes). Also says which worker it is."""
    from ..drawing.seats import watched

    paint, jobs, new_tiler = _POOL_WORK[0]
    differ = new_tiler()
    out = []
    with watched():
        for i in run:
            state, v, view_data = jobs[i]
            picture = []
            for cell, raw in differ.changed_tiles(paint(state, v, view_data)):
                number = _SENT.get(raw)
                if number is None:
                    _SENT[raw] = len(_SENT)
                    picture.append((cell, raw))
                else:
                    picture.append((cell, number))
            out.append(picture)
    return os.getpid(), out
