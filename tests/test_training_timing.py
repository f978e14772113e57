"""A training run says where its wall time went: network (acting forward, optimisation),
env, opponents and the rest, as non-negative shares summing to 1, with steps per second,
in its summary.json (``timing``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from forest_envs.train.config import load_config

CONFIGS = Path(__file__).resolve().parents[1] / "configs"
PARTS = {"network_forward", "network_train", "env", "opponents", "other"}


@pytest.mark.parametrize("vec_env", ["dummy", "subproc"])
def test_a_tiny_run_writes_its_time_shares(tmp_path, vec_env):
    from forest_envs.train.sb3 import train

    out = tmp_path / "run"
    cfg = load_config(CONFIGS / "smoke.yaml", {
        "output_dir": str(out), "total_timesteps": 256, "vec_env": vec_env, "eval.games": 0,
        "eval.final_games": 0, "checkpoint_every": 10_000, "opponents.snapshot_every": 10_000})
    summary = train(cfg, progress=False)
    timing = json.loads((out / "summary.json").read_text())["timing"]
    assert timing == summary["timing"]
    shares = timing["time_shares"]
    assert set(shares) == PARTS
    assert all(v >= 0 for v in shares.values()), shares
    assert sum(shares.values()) == pytest.approx(1.0, abs=2e-3)
    # every part of a run was seen: the learner acted and trained, envs stepped, and the
    # pool's random/heuristic/snapshot opponents played
    for part in ("network_forward", "network_train", "env", "opponents"):
        assert shares[part] > 0, (part, shares)
    assert timing["steps_per_second"] > 0
    assert timing["worker_seconds"]["env"] > 0 and timing["worker_seconds"]["opponents"] > 0
