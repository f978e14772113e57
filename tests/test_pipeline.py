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
from forest_envs.core.gym_env import SingleAgentEnv  # noqa: E402
from forest_envs.train.batched import BatchedSubprocVecEnv  # noqa: E402
from forest_envs.train.config import load_config  # noqa: E402
from forest_envs.train.pipeline import PipelinedMaskablePPO  # noqa: E402
from forest_envs.train.vec import make_vec_env  # noqa: E402

CONFIGS = Path(__file__).resolve().parents[1] / "configs"


def _fns(n: int):
    return [lambda: SingleAgentEnv("chickwood_v0", num_players=2) for _ in range(n)]


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
    venv = BatchedSubprocVecEnv(_fns(4), workers=1, groups=2)
    try:
        assert len(venv.processes) == 2
    finally:
        venv.close()
    with pytest.raises(ValueError, match=r"groups must be between 1 and the number of envs \(2\)"):
        BatchedSubprocVecEnv(_fns(2), workers=2, groups=3)


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
        venv.wait_pending()   # answers read and dropped: the worker takes a step again
        assert not venv.pending
        masks = venv.env_method("action_masks", indices=[0, 1])
        venv.step_group_async(0, np.array([int(np.flatnonzero(m)[0]) for m in masks]))
    finally:
        venv.close()   # with a step still out


def _config(tmp_path, **overrides):
    return load_config(CONFIGS / "smoke.yaml", {
        "output_dir": str(tmp_path / "run"), "n_envs": 4, "ppo.n_steps": 64,
        "ppo.batch_size": 64, "opponents.pool": [{"agent": "random"}, {"agent": "heuristic"}],
        **overrides})


def _rollout(model_class, venv, params, steps: int):
    """One rollout of ``steps`` steps with the policy acting greedily (its samples would
    otherwise depend on how the envs are batched), from the given weights."""
    model = model_class("MlpPolicy", venv, n_steps=steps, batch_size=steps, seed=0,
                        device="cpu", policy_kwargs={"net_arch": [32]})
    if params is not None:
        model.set_parameters(params)
    forward = model.policy.forward
    model.policy.forward = lambda obs, deterministic=False, action_masks=None: forward(
        obs, deterministic=True, action_masks=action_masks)
    from stable_baselines3.common.callbacks import BaseCallback

    class Nothing(BaseCallback):
        def _on_step(self):
            return True

    callback = Nothing()
    model._setup_learn(steps * venv.num_envs, callback)
    callback.init_callback(model)
    assert model.collect_rollouts(venv, callback, model.rollout_buffer, steps)
    return model


def test_a_pipelined_rollout_fills_the_buffer_as_maskable_ppo_does(tmp_path):
    """Same weights, same seeds, greedy actions: every observation, action, mask, reward and
    episode start the same, values and log-probabilities equal up to float rounding; games
    end and restart inside the rollout."""
    steps = 60
    plain = make_vec_env(_config(tmp_path), tmp_path, seed=5)
    piped = make_vec_env(_config(tmp_path, pipeline=True), tmp_path, seed=5)
    try:
        assert [(g.start, g.stop) for g in piped.groups] == [(0, 2), (2, 4)]
        reference = _rollout(MaskablePPO, plain, None, steps)
        model = _rollout(PipelinedMaskablePPO, piped, reference.get_parameters(), steps)
    finally:
        plain.close()
        piped.close()
    a, b = reference.rollout_buffer, model.rollout_buffer
    for name in ("observations", "actions", "rewards", "episode_starts", "action_masks"):
        assert np.array_equal(getattr(a, name), getattr(b, name)), name
    for name in ("values", "log_probs", "returns", "advantages"):
        assert np.allclose(getattr(a, name), getattr(b, name), atol=1e-5), name
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


def test_pipeline_needs_worker_processes_and_two_envs(tmp_path):
    with pytest.raises(ConfigError, match="pipeline: true needs vec_env: subproc and n_envs >= 2"):
        _config(tmp_path, pipeline=True, vec_env="dummy")
    with pytest.raises(ConfigError, match="not vec_env: subproc with n_envs: 1"):
        _config(tmp_path, pipeline=True, n_envs=1, **{"ppo.batch_size": 32})
    with pytest.raises(ConfigError, match="pipeline"):
        _config(tmp_path, pipeline="yes")
