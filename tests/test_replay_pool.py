"""The replay page drawn by forked workers is the serial page byte for byte (frames, tiles and
their order), and the number of workers is checked and chosen as documented."""

from __future__ import annotations

import json
import multiprocessing

import pytest

from forest_envs.core.errors import ConfigError
from forest_envs.core.registry import env_ids, game_spec
from forest_envs.evaluation import run_games
from forest_envs.replays import pool as replay_pool
from forest_envs.replays.html import build_data, replay_positions

GAMES = [g for g in env_ids() if game_spec(g).game_class.state_class.has_picture()]
forks = pytest.mark.skipif("fork" not in multiprocessing.get_all_start_methods(),
                           reason="workers are forked")


@forks
@pytest.mark.parametrize("env_id", GAMES)
def test_pages_drawn_by_workers_are_the_serial_page(env_id, monkeypatch):
    rec = run_games(env_id, ["heuristic", "random", "random"], 1, seed=2)[0].record
    rep = replay_positions(dict(rec, actions=rec["actions"][:9]), "referee,0,2")
    monkeypatch.setattr(replay_pool, "CHUNK", 4)   # several runs per view, one shorter
    serial = build_data(rep, colors=0, workers=1)
    assert len(serial["frames"]) > 8
    for workers in (2, 3):
        assert json.dumps(build_data(rep, colors=0, workers=workers)) == json.dumps(serial)


def test_worker_count_is_checked_and_chosen():
    for bad in (0, -1, 1.5, True, "2"):
        with pytest.raises(ConfigError, match="workers must be a whole number from 1"):
            replay_pool.worker_count(bad, 500)
    assert replay_pool.worker_count(1, 500) == 1
    assert replay_pool.worker_count(None, replay_pool.POOL_FROM - 1) == 1
    assert 1 <= replay_pool.worker_count(None, 10_000) <= 4


def test_worker_count_follows_the_idle_cores(monkeypatch):
    if "fork" not in multiprocessing.get_all_start_methods():
        pytest.skip("workers are forked")
    monkeypatch.setattr(replay_pool.os, "sched_getaffinity", lambda _pid: {0, 1}, raising=False)
    for load, count in ((0.2, 2), (0.9, 2), (1.3, 1), (6.0, 1)):
        monkeypatch.setattr(replay_pool.os, "getloadavg", lambda load=load: (load, load, load))
        assert replay_pool.worker_count(None, 10_000) == count
