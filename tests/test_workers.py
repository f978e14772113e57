"""Our worker processes run numpy's BLAS on one thread (a pool per worker spins against the
others: 25 ms instead of 0.3 ms per small network forward pass with eight workers on two cores)."""

from __future__ import annotations

from threadpoolctl import threadpool_info

from forest_envs.workers import map_in_workers


def blas_threads(_job) -> list[int]:
    import numpy as np

    np.ones((64, 64)) @ np.ones((64, 64))  # BLAS loaded and used
    return sorted({pool["num_threads"] for pool in threadpool_info() if pool["user_api"] == "blas"})


def test_evaluation_workers_use_one_blas_thread():
    assert list(map_in_workers(blas_threads, [0, 1], workers=2)) == [[1], [1]]
