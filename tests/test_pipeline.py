"""train/pipeline.py: rollouts that act for one half of the envs while the other steps fill
the buffer as MaskablePPO's own rollouts do; batched.py's groups step apart."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from sb3_contrib import MaskablePPO  # noqa: E402

from forest_envs.core.errors import ConfigError  # noqa: E402
from forest_envs.envs.gym_env import SingleAgentEnv  # noqa: E402
from forest_envs.train.batched import BatchedSubprocVecEnv  # noqa: E402
from forest_envs.train.config import load_config  # noqa: E402
from forest_envs.train.pipeline import PipelinedMaskablePPO  # noqa: E402
from forest_envs.train.vec import make_vec_env  # noqa: E402

CONFIGS = Path(__file__).resolve().parents[1] / "forest_envs" / "configs"


def _fns(n: int):
    return [lambda: SingleAgentEnv("chickwood_v0", num_players=2) for _ in range(n)]


@pytest.mark.slow  # a whole-process run: make test-all
def test_groups_get_workers_of_their_own():
    venv = BatchedSubprocVecEnv(_fns(5), workers=2, groups=2)
    try:
        assert [(s.start, s.stop) for s in venv.groups] == [(0, 3), (3, 5)]
        assert [(s.start, s.stop) for s in venv.slices] == [(0, 3), (3, 5)]
        assert [list(r) for r in venv.group_workers] == [[0], [1]]
    finally:
        venv.close()
    # more workers are shared out among the groups; fewer than groups still give one each
    venv = BatchedSubprocVecEnv(_fns(8), workers=5, groups=2)
    try:
        assert [(s.start, s.stop) for s in venv.slices] == [(0, 2), (2, 3), (3, 4), (4, 6), (6, 8)]
        assert [list(r) for r in venv.group_workers] == [[0, 1, 2], [3, 4]]
    finally:
        venv.close()
    # fewer workers than groups: the workers are shared
    venv = BatchedSubprocVecEnv(_fns(4), workers=1, groups=2)
    try:
        assert len(venv.processes) == 1
        assert [list(r) for r in venv.group_workers] == [[0], [0]]
    finally:
        venv.close()
    venv = BatchedSubprocVecEnv(_fns(6), workers=2, groups=4)
    try:
        assert [(s.start, s.stop) for s in venv.slices] == [(0, 3), (3, 6)]
        assert [(s.start, s.stop) for s in venv.groups] == [(0, 2), (2, 4), (4, 5), (5, 6)]
        assert [list(r) for r in venv.group_workers] == [[0], [0, 1], [1], [1]]
    finally:
        venv.close()
    with pytest.raises(ValueError, match=r"groups must be between 1 and the number of envs \(2\)"):
        BatchedSubprocVecEnv(_fns(2), workers=2, groups=3)


@pytest.mark.slow  # a whole-process run: make test-all
def test_the_trainer_steps_the_last_envs_of_the_last_groups_itself():
    # one worker and the trainer: the second half is shared between them
    venv = BatchedSubprocVecEnv(_fns(8), workers=1, groups=2, in_trainer=3)
    try:
        assert len(venv.processes) == 1
        assert [(s.start, s.stop) for s in venv.slices] == [(0, 5), (5, 8)]
        assert [list(r) for r in venv.group_workers] == [[0], [0, 1]]
    finally:
        venv.close()
    # a worker for each half's envs left to the workers
    venv = BatchedSubprocVecEnv(_fns(8), workers=2, groups=2, in_trainer=2)
    try:
        assert [(s.start, s.stop) for s in venv.slices] == [(0, 4), (4, 6), (6, 8)]
        assert [list(r) for r in venv.group_workers] == [[0], [1, 2]]
    finally:
        venv.close()
    # a half all in the trainer: its step is taken when sent, and the messages name it
    venv = BatchedSubprocVecEnv(_fns(4), workers=1, groups=2, in_trainer=2)
    try:
        assert [list(r) for r in venv.group_workers] == [[0], [1]]
        venv.seed(3)
        venv.reset()
        actions = np.array([int(np.flatnonzero(m)[0]) for m in venv.env_method("action_masks")])
        venv.step_group_async(1, actions[2:])
        with pytest.raises(RuntimeError, match=r"the trainer's own envs \(envs 2\.\.3\) are "
                                               r"still stepping"):
            venv.step_group_async(1, actions[2:])
        with pytest.raises(RuntimeError, match=r"env worker 0 has no step of envs 0\.\.1 to "
                                               r"answer first"):
            venv.step_group_wait(0)
        assert len(venv.step_group_wait(1)[0]) == 2
    finally:
        venv.close()
    # the trainer's envs may reach into the first half
    venv = BatchedSubprocVecEnv(_fns(8), workers=1, groups=2, in_trainer=5)
    try:
        assert [(s.start, s.stop) for s in venv.slices] == [(0, 3), (3, 8)]
        assert [list(r) for r in venv.group_workers] == [[0, 1], [1]]
    finally:
        venv.close()


def test_a_group_steps_alone_and_a_worker_is_never_sent_two_steps():
    venv = BatchedSubprocVecEnv(_fns(4), workers=2, groups=2)
    try:
        venv.seed(3)
        venv.reset()
        masks = venv.env_method("action_masks")
        actions = np.array([int(np.flatnonzero(m)[0]) for m in masks])
        venv.step_group_async(1, actions[2:])
        with pytest.raises(RuntimeError, match=r"env worker 1 \(envs 2\.\.3\) is still stepping"):
            venv.step_group_async(1, actions[2:])
        obs, rewards, dones, infos = venv.step_group_wait(1)
        assert obs.shape[0] == rewards.shape[0] == dones.shape[0] == len(infos) == 2
        venv.step_group_async(0, actions[:2])
        # a worker with a step out would answer anything else with that step's answer
        with pytest.raises(RuntimeError, match=r"get_attr while env workers \[0\] still have a step out"):
            venv.get_attr("render_mode", indices=[1])
        with pytest.raises(RuntimeError, match=r"reset while env workers \[0\] still"):
            venv.reset()
        assert venv.get_attr("render_mode", indices=[3]) == [None]   # the other group's worker
        venv.wait_pending()   # answers read and dropped: the worker takes a step again
        assert not venv.pending
        masks = venv.env_method("action_masks", indices=[0, 1])
        venv.step_group_async(0, np.array([int(np.flatnonzero(m)[0]) for m in masks]))
    finally:
        venv.close()   # with a step still out


def _halves_step_as_one_process(venv, while_out) -> None:
    """60 steps of ``venv``'s four envs in two halves, both halves' steps out at once
    (``while_out(actions)`` is called then), every answer what DummyVecEnv stepping all four
    gives; nothing is left out."""
    from stable_baselines3.common.vec_env import DummyVecEnv

    one = DummyVecEnv(_fns(4))
    try:
        for v in (venv, one):
            v.seed(3)
        assert np.array_equal(venv.reset(), one.reset())
        rng = np.random.default_rng(0)
        for _ in range(60):
            masks = one.env_method("action_masks")
            actions = np.array([int(rng.choice(np.flatnonzero(m))) for m in masks])
            venv.step_group_async(0, actions[:2])
            venv.step_group_async(1, actions[2:])      # while half 0's step is out
            while_out(actions)
            first, second = venv.step_group_wait(0), venv.step_group_wait(1)
            obs, rewards, dones, infos = one.step(actions)
            assert np.array_equal(np.concatenate([first[0], second[0]]), obs)
            assert np.array_equal(np.concatenate([first[1], second[1]]), rewards)
            assert np.array_equal(np.concatenate([first[2], second[2]]), dones)
            for got, want in zip(first[3] + second[3], infos):
                assert got.keys() == want.keys() and got["seat"] == want["seat"]
                assert np.array_equal(got["action_mask"], want["action_mask"])
            for i in np.flatnonzero(dones):
                assert np.array_equal(venv.reset_infos[i]["action_mask"],
                                      one.reset_infos[i]["action_mask"])
        assert not venv.pending
    finally:
        venv.close()
        one.close()


def test_one_worker_steps_both_halves_in_the_order_sent_as_one_process_would():
    """The default on two cores: one worker holds both halves. It takes a half's step while
    the other's is out, answers in the order sent, refuses a half sent twice and a wait out
    of order, and every answer is what DummyVecEnv stepping all four envs gives."""
    venv = BatchedSubprocVecEnv(_fns(4), workers=1, groups=2)

    def refused(actions):
        with pytest.raises(RuntimeError, match=r"env worker 0 \(envs 2\.\.3\) is still stepping"):
            venv.step_group_async(1, actions[2:])
        with pytest.raises(RuntimeError, match=r"env worker 0 has no step of envs 2\.\.3 to answer first"):
            venv.step_group_wait(1)

    _halves_step_as_one_process(venv, refused)


def test_the_trainer_steps_its_envs_while_the_worker_steps_the_other_half():
    """Half 1's envs 2..3: env 2 in the worker, env 3 in the trainer, whose step is taken
    when sent; the worker's part is answered in order, and every answer is DummyVecEnv's."""
    venv = BatchedSubprocVecEnv(_fns(4), workers=1, groups=2, in_trainer=1)
    assert [(s.start, s.stop) for s in venv.slices] == [(0, 3), (3, 4)]

    def refused(actions):
        with pytest.raises(RuntimeError, match=r"env worker 0 \(envs 2\.\.2\) is still stepping"):
            venv.step_group_async(1, actions[2:])

    _halves_step_as_one_process(venv, refused)


def _config(tmp_path, name="smoke.yaml", **overrides):
    settings = {"output_dir": str(tmp_path / "run"), "n_envs": 4, "ppo.n_steps": 64,
                "ppo.batch_size": 64, "pretrain.games": 0,
                "opponents.pool": [{"agent": "random"}, {"agent": "heuristic"}]}
    return load_config(CONFIGS / name, {**settings, **overrides})


def _rollout(cfg, tmp_path, steps: int):
    """One rollout of ``steps`` steps by the trainer's own model (``sb3._new_model``: the
    config's network, MaskablePPO or the pipelined one) on its own vec env, seeded alike."""
    from stable_baselines3.common.callbacks import BaseCallback

    from forest_envs.train.sb3 import _new_model

    class Nothing(BaseCallback):
        def _on_step(self):
            return True

    venv = make_vec_env(cfg, tmp_path, seed=5)
    try:
        model = _new_model(cfg, venv, tmp_path)   # seeds torch: both draw the same numbers
        callback = Nothing()
        model._setup_learn(steps * venv.num_envs, callback)
        callback.init_callback(model)
        assert model.collect_rollouts(venv, callback, model.rollout_buffer, steps)
    finally:
        venv.close()
    return model


@pytest.mark.parametrize("name, workers, in_trainer", [
    ("smoke.yaml", 1, 1),
    # whole training processes: make test-all
    pytest.param("smoke.yaml", 1, 0, marks=pytest.mark.slow),
    pytest.param("smoke.yaml", 2, 0, marks=pytest.mark.slow),
    pytest.param("roundforest_baseline.yaml", None, 0, marks=pytest.mark.slow)])
def test_a_pipelined_rollout_is_maskable_ppo_s_own(tmp_path, name, workers, in_trainer):
    """Same seed: every observation, sampled action, mask, reward and episode start the
    same, values and log-probabilities equal up to float rounding (the halves' forward
    passes draw the same random numbers in the same order as the whole batch's); games end
    and restart inside the rollout. Chickwood's MLP (one worker for both halves, one each,
    one worker and an env the trainer steps itself) and Roundforest's cell network."""
    steps = 48
    overrides = {"ppo.n_steps": steps, "ppo.batch_size": steps, "env_workers": workers}
    reference = _rollout(_config(tmp_path, name, pipeline=False, **overrides), tmp_path, steps)
    model = _rollout(_config(tmp_path, name, pipeline=True, trainer_envs=in_trainer,
                             **overrides), tmp_path, steps)
    assert type(reference) is MaskablePPO and type(model) is PipelinedMaskablePPO
    a, b = reference.rollout_buffer, model.rollout_buffer
    for field in ("observations", "actions", "rewards", "episode_starts", "action_masks"):
        assert np.array_equal(getattr(a, field), getattr(b, field)), field
    for field in ("values", "log_probs", "returns", "advantages"):
        assert np.allclose(getattr(a, field), getattr(b, field), atol=1e-5), field
    if name == "smoke.yaml":
        assert a.episode_starts[1:].sum() >= 2   # games ended and restarted inside the rollout
    assert model.num_timesteps == reference.num_timesteps == steps * 4
    assert np.array_equal(model._last_obs, reference._last_obs)


def test_a_pipelined_run_trains_stops_and_says_its_wait_overlapped(tmp_path):
    from forest_envs.train.sb3 import train

    cfg = _config(tmp_path, pipeline=True, total_timesteps=512, **{
        "eval.games": 0, "eval.final_games": 0, "opponents.pool": [
            {"agent": "random"}, {"agent": "heuristic"}, {"agent": "snapshot"}]})
    summary = train(cfg, progress=False)
    assert summary["timesteps"] == 512 and summary["stopped"] == "step_budget"
    timing = json.loads((tmp_path / "run" / "summary.json").read_text())["timing"]
    assert timing["overlapped"] is True and "wait_shares" not in timing
    shares = timing["time_shares"]
    assert sum(shares.values()) == pytest.approx(1.0, abs=2e-3)
    for part in ("network_forward", "network_train", "env", "opponents"):
        assert shares[part] > 0, (part, shares)
    # a run resumed from its checkpoint goes on pipelined
    cfg2 = _config(tmp_path, pipeline=True, total_timesteps=768, **{
        "eval.games": 0, "eval.final_games": 0})
    again = train(cfg2, resume=summary["checkpoint"], progress=False)
    assert again["timesteps"] == 768


def test_a_callback_that_stops_mid_rollout_leaves_no_step_out(tmp_path):
    from stable_baselines3.common.callbacks import BaseCallback

    class StopAtThird(BaseCallback):
        def _on_step(self):
            return self.n_calls < 3

    venv = make_vec_env(_config(tmp_path, pipeline=True), tmp_path, seed=1)
    try:
        model = PipelinedMaskablePPO("MlpPolicy", venv, n_steps=16, batch_size=16, seed=0,
                                     device="cpu", policy_kwargs={"net_arch": [16]})
        model.learn(64, callback=StopAtThird())
        assert model.num_timesteps == 3 * 4
        assert not venv.venv.pending
        venv.reset()   # the envs answer again
    finally:
        venv.close()


def test_the_pipeline_is_on_wherever_workers_step_two_envs_unless_said(tmp_path):
    assert _config(tmp_path)["pipeline"] is True                        # subproc, 4 envs
    assert _config(tmp_path, vec_env="dummy")["pipeline"] is False
    assert _config(tmp_path, n_envs=1, **{"ppo.batch_size": 32})["pipeline"] is False
    assert _config(tmp_path, pipeline=False)["pipeline"] is False


def test_pipeline_needs_worker_processes_and_two_envs(tmp_path):
    with pytest.raises(ConfigError, match="pipeline: true needs vec_env: subproc and n_envs >= 2"):
        _config(tmp_path, pipeline=True, vec_env="dummy")
    with pytest.raises(ConfigError, match="not vec_env: subproc with n_envs: 1"):
        _config(tmp_path, pipeline=True, n_envs=1, **{"ppo.batch_size": 32})
    with pytest.raises(ConfigError, match="pipeline.*null .on wherever vec_env is subproc"):
        _config(tmp_path, pipeline="yes")


def test_the_trainer_s_envs_need_worker_processes_and_one_env_left_to_them(tmp_path):
    assert _config(tmp_path, trainer_envs=3)["trainer_envs"] == 3
    with pytest.raises(ConfigError, match="trainer_envs=4 needs vec_env: subproc and fewer than "
                                          "n_envs=4"):
        _config(tmp_path, trainer_envs=4)
    with pytest.raises(ConfigError, match="trainer_envs=1 needs vec_env: subproc"):
        _config(tmp_path, trainer_envs=1, vec_env="dummy")


@pytest.mark.parametrize("cores, pipelined, workers", [(2, True, 1), (1, True, 1), (4, True, 3),
                                                       (2, False, 2), (4, False, 4)])
def test_default_workers_leave_the_pipelined_trainer_a_core(monkeypatch, cores, pipelined, workers):
    from forest_envs.train import vec

    monkeypatch.setattr(vec, "cpu_cores", lambda: cores)
    assert vec.default_workers(pipelined) == workers
