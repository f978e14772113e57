"""The expert_iteration adapter (forest_envs/studies/algorithms/expert_iteration.py): its
targets are the search's root visits as a distribution over legal moves only, a tiny run saves
policies the study plays as agents, and a stopped run continues from its saved iteration to the
same policies as a run never stopped."""

from __future__ import annotations

import numpy as np
import pytest

from forest_envs.core.errors import ConfigError
from forest_envs.studies.algorithms import TrainingJob, algorithm
from forest_envs.studies.algorithms import expert_iteration as ei

pytest.importorskip("sb3_contrib")

ENV, CONFIG = "chickwood_v0", {"num_players": 3, "legendary": False}
# one game (~116 searched decisions) per iteration, a small search and network
FAST = {"games_per_iteration": 1, "sims": 8, "depth": 4, "net_arch": [16], "epochs": 1, "batch_size": 64}


def test_visit_targets_are_a_distribution_over_the_legal_moves():
    mask = np.array([True, False, True, True])
    assert ei.visit_targets({0: 3, 3: 1}, mask).tolist() == [0.75, 0.0, 0.0, 0.25]
    with pytest.raises(RuntimeError, match="visited action 1, which is not legal"):
        ei.visit_targets({1: 2, 0: 1}, mask)
    with pytest.raises(RuntimeError, match="no root visits"):
        ei.visit_targets({}, mask)


def test_recorded_targets_sum_to_one_over_legal_moves_only():
    settings = ei.parse_settings({**FAST, "sims": 12})
    samples = ei.play_iteration(ENV, CONFIG, settings, None, seed=3)
    n = len(samples["targets"])
    assert n > 50 and samples["obs"].shape[0] == samples["masks"].shape[0] == samples["returns"].shape[0] == n
    np.testing.assert_allclose(samples["targets"].sum(axis=1), 1.0, rtol=1e-6)
    assert not (samples["targets"][~samples["masks"]]).any()            # nothing on an illegal move
    assert (samples["masks"].sum(axis=1) >= 2).all()                     # forced moves are not recorded
    # 12 simulations spread over the legal moves: a target is a multiple of 1/12
    np.testing.assert_allclose(samples["targets"] * 12, np.round(samples["targets"] * 12), atol=1e-5)
    assert set(np.unique(samples["returns"])) <= {0.0, 1.0}


def test_settings_are_checked():
    exit_ = algorithm("expert_iteration")
    exit_.check(FAST, ENV, CONFIG, "algorithms[0].settings")
    with pytest.raises(ConfigError, match=r"algorithms\[0\].settings: unknown expert_iteration setting\(s\) \['simz'\]"):
        exit_.check({"simz": 3}, ENV, CONFIG, "algorithms[0].settings")
    with pytest.raises(ConfigError, match=r"s.sims: 0 must be a positive int"):
        exit_.check({"sims": 0}, ENV, CONFIG, "s")
    with pytest.raises(ConfigError, match=r"s.prior: 'heuristic' must be one of policy, none"):
        exit_.check({"prior": "heuristic"}, ENV, CONFIG, "s")


def _arrays(path) -> dict:
    with np.load(path) as data:
        return {k: data[k] for k in data.files}


def test_a_tiny_run_saves_policies_that_play_and_continues_where_it_stopped(tmp_path, monkeypatch):
    from forest_envs.agents import make_agent
    from forest_envs.envs.registration import make_raw

    exit_ = algorithm("expert_iteration")
    job = TrainingJob(ENV, CONFIG, 0, 300, 150, tmp_path / "whole", FAST)
    assert exit_.learner_steps_done(job) == 0  # nothing saved yet
    played = []
    original = ei.play_iteration
    monkeypatch.setattr(ei, "play_iteration", lambda *a: played.append(a[-1]) or original(*a))

    done = exit_.train(job)
    assert done.finished and 300 <= done.learner_steps < 300 + 200
    state = ei.RunState.read(job.folder)
    assert (state.iteration, state.learner_steps) == (len(played), done.learner_steps)
    assert exit_.learner_steps_done(job) == done.learner_steps  # what the study's time estimate reads
    saved = exit_.checkpoints(job)
    assert len(saved) >= 2 and saved[-1].learner_steps == done.learner_steps
    assert saved[0].learner_steps >= 150
    # each policy file plays as an agent, legal moves only
    for ckpt in (saved[0], saved[-1]):
        env = make_raw(ENV, **CONFIG)
        env.reset(seed=5)
        agents = [make_agent(ENV, ckpt.agent, seed=i) for i in range(3)]
        for _ in range(60):
            if not env.agents:
                break
            name = env.agent_selection
            action = agents[env.possible_agents.index(name)].act(env, name)
            assert env.action_mask(name)[action]
            env.step(action)

    # the same run stopped after its first iteration (as a smaller budget makes it), continued
    played.clear()
    stopped = TrainingJob(ENV, CONFIG, 0, 1, 150, tmp_path / "stopped", FAST)
    assert exit_.train(stopped).finished and played == [ei._iteration_seed(0, 1)]
    played.clear()
    from dataclasses import replace

    again = exit_.train(replace(stopped, learner_steps=300))
    assert played[0] == ei._iteration_seed(0, 2)                          # from the saved iteration
    assert again.learner_steps == done.learner_steps
    last = exit_.checkpoints(replace(stopped, learner_steps=300))[-1]
    for key, value in _arrays(saved[-1].agent).items():                  # the same policy
        np.testing.assert_array_equal(_arrays(last.agent)[key], value)
    played.clear()
    assert exit_.train(replace(stopped, learner_steps=300)).learner_steps == done.learner_steps
    assert played == []                                                   # at the budget: nothing to do


def test_a_game_the_env_truncates_is_recorded_up_to_its_limit_and_worth_nothing():
    samples = ei.play_iteration(ENV, {**CONFIG, "max_steps": 30}, ei.parse_settings(FAST), None, seed=3)
    assert 0 < len(samples["targets"]) <= 30
    assert not samples["returns"].any()
