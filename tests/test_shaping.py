"""Potential-based reward shaping (train config ``shaping``, ``train/shaping.py``) and the
game potential it reads (Roundforest's ``potential``)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from forest_envs.core.errors import ConfigError
from forest_envs.envs.gym_env import SingleAgentEnv
from forest_envs.roundforest.components import CHARACTER_NAMES
from forest_envs.roundforest.rules import new_game
from forest_envs.train.config import load_config, validate_config
from forest_envs.train.shaping import PotentialShaping

CONFIGS = Path(__file__).resolve().parents[1] / "forest_envs" / "configs"


def _fresh(seat_apples=0, copper=0, silver=0, debts=()):
    state = new_game({"num_players": 3}, seed=0)
    state.apples[0], state.copper[0], state.silver[0] = seat_apples, copper, silver
    for name in debts:
        state.debts[0, CHARACTER_NAMES.index(name)] = 1
    state.edited()
    return state


@pytest.mark.parametrize("apples, copper, silver, debts, expected", [
    (0, 0, 0, (), 0.0),
    (3, 0, 0, (), 1.0),                 # qualified: the ring is next
    (2, 2, 1, (), 2.8333333 / 3),       # 2 apples + half of (2 + 3) copper / 3 per apple
    (2, 2, 1, ("Witch",), 2.3333333 / 3),  # a debt costs half an apple
    (3, 9, 3, (), 1.0),                 # never above the 3 apples the ring asks for
    (0, 0, 0, ("Witch", "Bandit"), -1 / 3),
])
def test_roundforest_potential_counts_apples_coins_and_debts(apples, copper, silver, debts, expected):
    state = _fresh(apples, copper, silver, debts)
    assert state.potential(0) == pytest.approx(expected)
    assert state.potential(1) == 0.0    # the other seats' stores are untouched


def test_games_without_a_potential_refuse_shaping():
    cfg = load_config(CONFIGS / "smoke.yaml")
    raw = {"env": "chickwood_v0", "env_config": {"num_players": 3}, "shaping": 0.5}
    with pytest.raises(ConfigError, match="chickwood_v0 declares no potential"):
        validate_config(raw)
    with pytest.raises(ConfigError, match="shaping"):
        validate_config(dict(raw, env="roundforest_v0", shaping=-1))
    assert validate_config(dict(raw, env="roundforest_v0"))["shaping"] == 0.5
    assert cfg["shaping"] == 0.0


@pytest.mark.parametrize("gamma", [1.0, 0.9])
def test_shaped_rewards_telescope_to_the_game_reward(gamma):
    """Each step adds weight * (gamma * potential(after) - potential(before)), potential 0 once
    the episode is over, so with gamma = 1 the episode's shaped rewards sum to the game's
    reward less weight * potential(start); the terms are the potentials the state reports."""
    weight = 0.5
    env = PotentialShaping(SingleAgentEnv("roundforest_v0", opponents="random", max_steps=400),
                           weight, gamma)
    rng = np.random.default_rng(3)
    obs, info = env.reset(seed=11)
    learner = env.unwrapped
    before = learner.aec.engine_state.potential(learner.seat)
    start = before
    total = 0.0
    raw_total = 0.0
    done = truncated = False
    steps = 0
    while not (done or truncated):
        legal = np.flatnonzero(info["action_mask"])
        obs, reward, done, truncated, info = env.step(int(rng.choice(legal)))
        after = 0.0 if (done or truncated) else learner.aec.engine_state.potential(learner.seat)
        raw = float(learner.aec._cumulative_rewards[learner.agent]) if (done or truncated) else 0.0
        assert reward == pytest.approx(raw + weight * (gamma * after - before))
        total += reward
        raw_total += raw
        before = after
        steps += 1
    assert steps > 10
    if gamma == 1.0:
        assert total == pytest.approx(raw_total - weight * start)
