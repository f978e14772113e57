"""The cell network (``train/cellpolicy.py``): one set of weights reads every cell of the
board and adds to the logits of that cell's actions. Trained in torch, played in numpy
(``agents/policy.py``): both must give the same distribution; a config or a checkpoint that
cannot hold one says why."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from forest_envs.agents.policy import NumpyPolicy
from forest_envs.core.errors import ConfigError
from forest_envs.envs.gym_env import SingleAgentEnv
from forest_envs.envs.registration import make_raw
from forest_envs.train.checkpoints import check_unchanged, fixed_settings
from forest_envs.train.config import load_config, validate_config
from forest_envs.train.export import export_policy, save_policy_arrays

CONFIGS = Path(__file__).resolve().parents[1] / "forest_envs" / "configs"
RF = {"env": "roundforest_v0", "env_config": {"num_players": 3}}


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    """One model for the module (building one costs about a second): its env, the model and
    its export."""
    env, model = _model()
    return env, model, export_policy(model.policy, tmp_path_factory.mktemp("cells") / "p.npz")


def _model(cells=(8, 4), seed=1):
    import torch
    from sb3_contrib import MaskablePPO

    from forest_envs.train.cellpolicy import CellPolicy, cell_policy_kwargs

    env = SingleAgentEnv("roundforest_v0", num_players=3)
    kwargs = {"net_arch": [16], **cell_policy_kwargs(make_raw("roundforest_v0", num_players=3).game, list(cells))}
    model = MaskablePPO(CellPolicy, env, policy_kwargs=kwargs, n_steps=64, batch_size=64,
                        device="cpu", seed=seed)
    with torch.no_grad():  # weights far from their initial 0.01 gains, so every part matters
        for p in model.policy.parameters():
            p.add_(torch.randn_like(p) * 0.3)
    return env, model


def _positions(env, n=25, seed=3):
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    out = []
    for _ in range(n):
        mask = env.action_masks()
        out.append((obs, mask))
        obs, _, done, trunc, _ = env.step(int(rng.choice(np.flatnonzero(mask))))
        if done or trunc:
            obs, _ = env.reset(seed=seed + 1)
    return out


def test_the_numpy_cell_policy_plays_the_torch_policys_distribution(trained, tmp_path):
    import torch

    env, model, exported = trained
    policy = NumpyPolicy.load(exported)
    assert policy.cells is not None and policy.cells.features.shape == (36, 69)
    model.save(tmp_path / "m.zip")
    from_zip = NumpyPolicy.load(tmp_path / "m.zip")
    for obs, mask in _positions(env):
        with torch.no_grad():
            dist = model.policy.get_distribution(torch.as_tensor(obs[None]), action_masks=mask[None])
            expected = dist.distribution.probs.numpy()[0]
        assert np.allclose(policy.probabilities(obs, mask), expected, atol=1e-5)
        assert np.allclose(from_zip.probabilities(obs, mask), expected, atol=1e-5)
    batch = np.stack([o for o, _ in _positions(env, 6)])
    assert np.allclose(policy.logits(batch), np.stack([policy.logits(o) for o in batch]), atol=1e-5)


def test_the_cell_network_adds_to_the_logits_of_its_cells_actions_only(trained, tmp_path):
    env, _, exported = trained
    arrays = dict(np.load(exported))
    obs = _positions(env, 1)[0][0]
    with_cells = NumpyPolicy(arrays).logits(obs)
    flat = {k: v for k, v in arrays.items() if not k.startswith("cell_")}
    without = NumpyPolicy(flat).logits(obs)
    touched = np.flatnonzero(~np.isclose(with_cells, without))
    assert set(touched.tolist()) <= set(arrays["cell_actions"].ravel().tolist())
    assert touched.size > 36  # move, compass and tile ids of every cell


def test_one_set_of_weights_reads_every_cell(trained, tmp_path):
    """With the trunk's part zeroed, swapping what two cells hold swaps their logits."""
    env, _, exported = trained
    arrays = dict(np.load(exported))
    arrays["w_out"][:] = 0
    arrays["b_out"][:] = 0
    arrays["cell_context"][:] = 0
    policy = NumpyPolicy(arrays)
    feats, acts = arrays["cell_features"], arrays["cell_actions"]
    obs = _positions(env, 12)[-1][0].copy()
    a, b = 7, 21
    swapped = obs.copy()
    swapped[feats[a]], swapped[feats[b]] = obs[feats[b]], obs[feats[a]]
    before, after = policy.logits(obs), policy.logits(swapped)
    assert np.allclose(after[acts[a]], before[acts[b]], atol=1e-6)
    assert np.allclose(after[acts[b]], before[acts[a]], atol=1e-6)
    assert not np.allclose(before[acts[a]], before[acts[b]])  # the two cells differ


def test_a_cell_network_that_does_not_fit_its_policy_is_refused_with_its_name(trained, tmp_path):
    env, _, exported = trained
    arrays = dict(np.load(exported))
    bad = dict(arrays, cell_actions=arrays["cell_actions"] + 1000)
    path = save_policy_arrays(bad, tmp_path / "bad.npz")
    with pytest.raises(ConfigError, match=r"bad\.npz.*cell network: cell_actions outside 240 actions"):
        NumpyPolicy.load(path)
    bad = dict(arrays, cell_w0=arrays["cell_w0"][:-1])
    path = save_policy_arrays(bad, tmp_path / "short.npz")
    with pytest.raises(ConfigError, match=r"short\.npz.*for 69 entries per cell"):
        NumpyPolicy.load(path)


def test_a_config_asks_for_cells_only_of_a_game_that_declares_them():
    cfg = validate_config({**RF, "policy": {"cells": [64]}})
    assert cfg["policy"]["cells"] == [64]
    assert validate_config(RF)["policy"]["cells"] is None
    with pytest.raises(ConfigError, match="chickwood_v0 declares no cells"):
        validate_config({"env": "chickwood_v0", "policy": {"cells": [64]}})
    for bad in ([], [0], [True], 64, "64"):
        with pytest.raises(ConfigError, match=r"policy\. option cells=.* is invalid; expected null or a list"):
            validate_config({**RF, "policy": {"cells": bad}})


def test_rllib_refuses_a_cell_network():
    from forest_envs.train.rllib import build_algorithm_config

    cfg = load_config(CONFIGS / "smoke_rllib.yaml", {"env": "roundforest_v0", "policy.cells": [8]})
    with pytest.raises(ConfigError, match="cell network is a MaskablePPO policy"):
        build_algorithm_config(cfg)


def test_a_resume_keeps_the_cell_network():
    before = fixed_settings(validate_config({**RF, "policy": {"cells": [16]}}))
    check_unchanged(before, validate_config({**RF, "policy": {"cells": [16]}}), "ckpt")
    with pytest.raises(ConfigError, match=r"policy.cells cannot change on resume.*\[16\].*\[8\]"):
        check_unchanged(before, validate_config({**RF, "policy": {"cells": [8]}}), "ckpt")
    with pytest.raises(ConfigError, match=r"policy.cells cannot change on resume.*\[16\].*None"):
        check_unchanged(before, validate_config(RF), "ckpt")
