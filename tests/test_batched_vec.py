"""train/batched.py: envs stepped several to a worker process give what one process gives."""

from __future__ import annotations

import copy

import numpy as np
import pytest

pytest.importorskip("stable_baselines3")

from stable_baselines3.common.vec_env import DummyVecEnv  # noqa: E402

from forest_envs.envs.gym_env import SingleAgentEnv  # noqa: E402
from forest_envs.train.batched import BatchedSubprocVecEnv  # noqa: E402


def _fns(n: int):
    return [lambda: SingleAgentEnv("chickwood_v0", num_players=2) for _ in range(n)]


def _play(venv, steps: int) -> list:
    """Every step's observations, rewards, dones, infos and reset infos (masked random moves),
    copied: an env in this process may reuse its arrays at the next step."""
    venv.seed(11)
    out = [copy.deepcopy((venv.reset(), venv.reset_infos))]
    rng = np.random.default_rng(0)
    for _ in range(steps):
        masks = venv.env_method("action_masks")
        actions = np.array([int(rng.choice(np.flatnonzero(m))) for m in masks])
        obs, rewards, dones, infos = venv.step(actions)
        out.append(copy.deepcopy((obs, rewards, dones, infos, venv.reset_infos)))
    return out


def _same(a, b) -> None:
    if isinstance(a, dict):
        assert a.keys() == b.keys()
        for k in a:
            _same(a[k], b[k])
    elif isinstance(a, (list, tuple)):
        assert len(a) == len(b)
        for x, y in zip(a, b):
            _same(x, y)
    elif isinstance(a, np.ndarray):
        assert np.array_equal(a, b)
    else:
        assert a == b


def test_five_envs_on_two_workers_step_as_in_one_process():
    """Uneven shares (3 + 2), auto-resets and their reset infos, seeds seed + i."""
    one = DummyVecEnv(_fns(5))
    batched = BatchedSubprocVecEnv(_fns(5), workers=2)
    try:
        assert [(s.start, s.stop) for s in batched.slices] == [(0, 3), (3, 5)]
        a, b = _play(one, 300), _play(batched, 300)
        _same(a, b)
        assert sum(int(step[2].sum()) for step in a[1:]) >= 3  # games ended and restarted
    finally:
        batched.close()


def test_env_methods_and_attributes_reach_the_right_envs():
    venv = BatchedSubprocVecEnv(_fns(3), workers=2)
    try:
        venv.seed(0)
        venv.reset()
        assert venv.num_envs == 3 and venv.render_mode is None
        assert len(venv.env_method("action_masks")) == 3
        venv.set_attr("tag", "x", indices=[2])
        venv.set_attr("tag", "y", indices=[0, 1])
        assert venv.get_attr("tag") == ["y", "y", "x"]
        assert venv.get_attr("tag", indices=[2, 0]) == ["x", "y"]
        assert venv.env_is_wrapped(SingleAgentEnv) == [False, False, False]
    finally:
        venv.close()


def test_more_workers_than_envs_is_one_per_env():
    venv = BatchedSubprocVecEnv(_fns(2), workers=8)
    try:
        assert len(venv.processes) == 2
    finally:
        venv.close()


def _broken():
    raise ValueError("no such table")


@pytest.mark.slow  # a whole-process run: make test-all
def test_a_worker_error_is_raised_with_its_traceback():
    with pytest.raises(RuntimeError, match=r"env worker 0 \(envs 0\.\.0\) failed:(.|\n)*no such table"):
        BatchedSubprocVecEnv([_broken], workers=1)
    venv = BatchedSubprocVecEnv(_fns(2), workers=2)
    try:
        with pytest.raises(RuntimeError, match=r"env worker 1 \(envs 1\.\.1\) failed:(.|\n)*called before reset"):
            venv.env_method("action_masks", indices=[1])  # not reset yet
        with pytest.raises(AttributeError, match="no_such_attribute"):
            venv.get_attr("no_such_attribute")
    finally:
        venv.close()


@pytest.mark.slow  # a whole-process run: make test-all
def test_the_trainer_s_own_envs_step_as_in_one_process_and_say_their_errors():
    """The last envs stepped by the trainer's process itself (``in_trainer``) answer every
    step, method and attribute as DummyVecEnv does, and their errors name them."""
    reference = DummyVecEnv(_fns(5))
    batched = BatchedSubprocVecEnv(_fns(5), workers=1, in_trainer=2)
    try:
        assert len(batched.processes) == 1
        assert [(s.start, s.stop) for s in batched.slices] == [(0, 3), (3, 5)]
        _same(_play(batched, 60), _play(reference, 60))
        assert batched.get_attr("seat", indices=[4]) == reference.get_attr("seat", indices=[4])
    finally:
        batched.close()
        reference.close()
    with pytest.raises(RuntimeError, match=r"the trainer's own envs \(envs 1\.\.1\) failed:(.|\n)*"
                                           "no such table"):
        BatchedSubprocVecEnv(_fns(1) + [_broken], workers=1, in_trainer=1)
    venv = BatchedSubprocVecEnv(_fns(3), workers=1, in_trainer=1)
    try:
        with pytest.raises(RuntimeError, match=r"the trainer's own envs \(envs 2\.\.2\) failed:"
                                               r"(.|\n)*called before reset"):
            venv.env_method("action_masks", indices=[2])  # not reset yet
    finally:
        venv.close()
    for bad in (3, -1):
        with pytest.raises(ValueError, match=r"in_trainer must be between 0 and the number of "
                                             r"envs less one \(2\)"):
            BatchedSubprocVecEnv(_fns(3), workers=1, in_trainer=bad)


def test_zero_workers_is_refused():
    with pytest.raises(ValueError, match="workers must be at least 1"):
        BatchedSubprocVecEnv(_fns(1), workers=0)
