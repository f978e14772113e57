"""A training run says where its wall time went: network (acting forward, optimisation),
env, opponents and the rest, as non-negative shares summing to 1, with steps per second,
in its summary.json (``timing``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from forest_envs.train.config import load_config

CONFIGS = Path(__file__).resolve().parents[1] / "forest_envs" / "configs"
PARTS = {"network_forward", "network_train", "env", "opponents", "other"}


@pytest.mark.parametrize("vec_env", ["dummy", "subproc"])
def test_a_tiny_run_writes_its_time_shares(tmp_path, vec_env):
    """Without the pipeline (tests/test_pipeline.py has the pipelined run's timing)."""
    from forest_envs.train.sb3 import train

    out = tmp_path / "run"
    cfg = load_config(CONFIGS / "smoke.yaml", {
        "output_dir": str(out), "total_timesteps": 256, "vec_env": vec_env, "eval.games": 0,
        "eval.final_games": 0, "checkpoint_every": 10_000, "opponents.snapshot_every": 10_000,
        "pipeline": False})
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
    if vec_env == "subproc":  # the wait for the workers, split: their work, imbalance, messages
        parts = timing["wait_shares"]
        assert set(parts) == {"work", "imbalance", "messages"}
        assert parts["work"] > 0 and all(v >= 0 for v in parts.values()), parts
        assert sum(parts.values()) == pytest.approx(shares["env"] + shares["opponents"], abs=2e-3)
    else:
        assert "wait_shares" not in timing


def test_the_wait_is_split_into_work_imbalance_and_messages():
    """Per step, each worker's work is what its envs' running totals grew by; the mean worker's
    work, the busiest one's excess and the rest of the wait are summed over the steps (the
    first step after a restart sets the baseline)."""
    from forest_envs.train.timing import TIMING_KEY, TrainingClock

    clock = TrainingClock(in_process=False)
    clock.groups = [slice(0, 2), slice(2, 3)]

    def step(wait, totals):
        clock.waited(wait, [{TIMING_KEY: (t, 0.0)} for t in totals], None)

    step(0.1, [1.0, 1.0, 1.0])        # the baseline: not counted as work
    step(1.0, [1.2, 1.3, 1.1])        # worker 0 worked 0.5, worker 1 0.1
    step(0.5, [1.3, 1.4, 1.5])        # worker 0 0.2, worker 1 0.4
    assert clock.work_mean == pytest.approx(0.3 + 0.3)
    assert clock.work_busiest == pytest.approx(0.5 + 0.4)
    parts = clock.wait_shares(wall=10.0)
    assert parts == {"work": 0.06, "imbalance": 0.03, "messages": pytest.approx(0.07)}


def test_the_wait_for_the_envs_starts_at_the_sends():
    """With worker processes the sends already wait on the workers (a worker steps as soon as
    its action arrives), so the trainer's wait is timed from step_async, not step_wait."""
    import time

    import numpy as np
    from stable_baselines3.common.vec_env import DummyVecEnv

    from forest_envs.envs.gym_env import SingleAgentEnv
    from forest_envs.train.timing import TrainingClock
    from forest_envs.train.vec import MaskInfoVecEnv

    class SlowSends(DummyVecEnv):
        def step_async(self, actions):
            time.sleep(0.05)
            super().step_async(actions)

    clock = TrainingClock(in_process=False)
    venv = MaskInfoVecEnv(SlowSends([lambda: SingleAgentEnv("chickwood_v0", num_players=2)]), clock)
    venv.reset()
    venv.step(np.array([int(np.flatnonzero(venv.env_method("action_masks")[0])[0])]))
    assert clock.wait >= 0.05


def test_an_opponents_reset_is_timed_as_its_own_work_not_the_envs():
    """Reseeding an opponent before each game (SingleAgentEnv.reset) is the opponent's work:
    its clock counts it; an agent without ``reset`` is left alone."""
    import time

    from forest_envs.train.timing import OpponentClock, TimedOpponent

    class SlowReset:
        seeds: list = []

        def reset(self, seed=None):
            self.seeds.append(seed)
            time.sleep(0.01)

        def act(self, env, agent):
            return 0

    clock = OpponentClock()
    TimedOpponent(SlowReset(), clock).reset(seed=7)
    assert SlowReset.seeds == [7] and clock.seconds >= 0.01

    class NoReset:
        def act(self, env, agent):
            return 0

    TimedOpponent(NoReset(), clock).reset(seed=8)  # nothing to call, nothing raised
    assert clock.seconds < 0.02


def test_drawing_a_games_opponents_from_the_pool_is_timed_as_their_work():
    import time

    import numpy as np

    from forest_envs.train.timing import OpponentClock, TimedOpponent, timed_pool

    made = []

    def slow_pool(rng):
        time.sleep(0.01)
        made.append(rng.integers(100))
        return ["a", "b"]

    clock = OpponentClock()
    agents = timed_pool(slow_pool, clock)(np.random.default_rng(0))
    assert clock.seconds >= 0.01 and len(made) == 1
    assert all(isinstance(a, TimedOpponent) for a in agents) and [a._agent for a in agents] == ["a", "b"]


def test_an_opponents_time_is_counted_even_when_it_raises():
    import time

    from forest_envs.train.timing import OpponentClock, TimedOpponent

    class Fails:
        def act(self, env, agent):
            time.sleep(0.01)
            raise ValueError("no move")

        def reset(self, seed=None):
            time.sleep(0.01)
            raise ValueError("no seed")

    clock = OpponentClock()
    for call in (lambda o: o.act(None, "p0"), lambda o: o.reset(seed=1)):
        with pytest.raises(ValueError):
            call(TimedOpponent(Fails(), clock))
    assert clock.seconds >= 0.02
    assert clock.timed(max, 3, 5) == 5
