"""Our worker processes run numpy's BLAS on one thread (a pool per worker spins against the
others: 25 ms instead of 0.3 ms per small network forward pass with eight workers on two
cores), and make the garbage collector's full collections rare (``rare_full_collections``),
which is safe because the games and their agents leave no reference cycles behind."""

from __future__ import annotations

import gc

import pytest
from threadpoolctl import threadpool_info

import forest_envs
from forest_envs.agents import make_agent
from forest_envs.core.registry import env_ids
from forest_envs.evaluation.workers import FULL_COLLECTION_EVERY, map_in_workers


def blas_threads(_job) -> list[int]:
    import numpy as np

    np.ones((64, 64)) @ np.ones((64, 64))  # BLAS loaded and used
    return sorted({pool["num_threads"] for pool in threadpool_info() if pool["user_api"] == "blas"})


def test_evaluation_workers_use_one_blas_thread():
    assert list(map_in_workers(blas_threads, [0, 1], workers=2)) == [[1], [1]]


def test_games_played_in_this_process_use_one_blas_thread(monkeypatch):
    """``run_games`` with one worker plays in this process, with one BLAS thread as a worker
    has (a study's in-process checkpoint evaluations took 8 ms per Roundforest forward pass
    instead of 0.3 ms with a thread per core), and gives the process its threads back."""
    from forest_envs.evaluation import run

    seen = []

    def play_chunk(job):
        seen.append(blas_threads(job))
        return []
    monkeypatch.setattr(run, "_play_chunk", play_chunk)
    before = blas_threads(None)
    run.run_games("chickwood_v0", ["random"] * 3, games=2, workers=1)
    assert seen == [[1], [1]] and blas_threads(None) == before


def collector(_job) -> tuple:
    return gc.get_threshold(), gc.get_freeze_count() > 0


def test_workers_make_full_collections_rare():
    young, middle, _ = gc.get_threshold()
    assert list(map_in_workers(collector, [0], workers=1)) == [
        ((young, middle, FULL_COLLECTION_EVERY), True)]
    assert gc.get_threshold()[2] != FULL_COLLECTION_EVERY  # the main process is left alone


def _heuristic_games(env_id: str, seeds) -> None:
    env = forest_envs.make(env_id)
    for seed in seeds:
        env.reset(seed=seed)
        agents = {a: make_agent(env_id, "heuristic", seed=i)
                  for i, a in enumerate(env.possible_agents)}
        for agent in env.agent_iter():
            _, _, terminated, truncated, _ = env.last()
            env.step(None if terminated or truncated else agents[agent].act(env, agent))


@pytest.mark.parametrize("env_id", [e for e in env_ids() if e != "toy_v0"])
def test_games_and_heuristics_leave_no_reference_cycles(env_id):
    """Everything a game and its heuristic agents drop is freed by reference counting, so a
    worker's rare full collections leave no garbage piling up (a recursive closure in
    Chickwood's alms search once left one cycle per search: 28 objects a step)."""
    _heuristic_games(env_id, [0])  # memo tables and imports settle first
    gc.collect()
    gc.disable()
    try:
        _heuristic_games(env_id, [1, 2])
        assert gc.collect() == 0
    finally:
        gc.enable()
