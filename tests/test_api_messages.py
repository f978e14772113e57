"""The Python API where a person meets it: the referee's view, reset options, opponents by
name in gymnasium.make, and error messages that name things one way."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest

import forest_envs
from forest_envs import ConfigError, IllegalActionError


@pytest.mark.parametrize("env_id", forest_envs.ENV_IDS)
def test_view_none_is_the_referees_view(env_id):
    env = forest_envs.make(env_id)
    env.reset(seed=2)
    raw = env.unwrapped
    assert raw.view(None) == raw.engine_state.view(None)
    assert raw.view(None) != raw.view("player_0")  # the referee sees what a seat may not


@pytest.mark.parametrize(("options", "message"), [
    ({"foo": 1}, "unknown reset option(s) ['foo'] for chickwood_v0; valid reset options are ['state'] "
                 "(game and env options go to make())"),
    ({"state": None, "seed": 3}, "unknown reset option(s) ['seed']"),
    ([1, 2], "reset options must be a dict such as {'state': state} or None, got [1, 2]"),
    ("state", "reset options must be a dict such as {'state': state} or None, got 'state'"),
])
def test_reset_options_are_checked(options, message):
    env = forest_envs.make("chickwood_v0")
    with pytest.raises(ConfigError) as err:
        env.reset(seed=0, options=options)
    assert str(err.value).startswith(message)


def test_reset_takes_a_state_and_the_probe_pettingzoo_sends():
    env = forest_envs.make("chickwood_v0")
    env.reset(seed=0, options={})
    start = env.unwrapped.engine_state.clone()
    env.reset(seed=0, options={"options": 1})  # PettingZoo's api_test checks an unused dict is taken
    env.reset(seed=5, options={"state": start})
    assert env.unwrapped.engine_state.to_dict() == start.to_dict()


def test_an_illegal_action_names_the_agent_one_way():
    env = forest_envs.make("chickwood_v0")
    env.reset(seed=0)
    agent = env.agent_selection
    illegal = int(np.flatnonzero(env.unwrapped.action_mask(agent) == 0)[0])
    name = env.unwrapped.action_to_string(illegal)
    with pytest.raises(IllegalActionError) as err:
        env.step(illegal)
    text = str(err.value)
    assert text.startswith(f"action {illegal} ({name}) is illegal for {agent}: ")
    assert "player 1" not in text and "player 0" not in text
    with pytest.raises(IllegalActionError) as err:
        env.step(9999)
    assert str(err.value) == f"{agent}: action 9999 is out of range 0..279"


def test_gymnasium_make_takes_opponents_by_name():
    env = gymnasium.make("forest_envs/chickwood_v0", opponents=["heuristic", "random"], learner_seat=0)
    kinds = [type(o).__name__ for o in env.unwrapped._opponents]
    assert kinds == ["HeuristicAgent", "RandomAgent"]
    first = env.reset(seed=4)[0]
    again = env.reset(seed=4)[0]
    assert np.array_equal(first, again)  # named opponents are reseeded from the env's seed


def test_one_name_is_every_opponent():
    env = gymnasium.make("forest_envs/sherwood_v0", opponents="heuristic")
    assert [type(o).__name__ for o in env.unwrapped._opponents] == ["HeuristicAgent"] * 3
    env = gymnasium.make("forest_envs/roundforest_v0", opponents=["ismcts:sims=5", "random"])
    assert [type(o).__name__ for o in env.unwrapped._opponents] == ["ISMCTSAgent", "RandomAgent"]


def test_opponents_are_any_agent_name_the_cli_takes_or_one_agent_object():
    from forest_envs.agents import make_agent

    env = gymnasium.make("forest_envs/chickwood_v0", opponents="ppo", learner_seat=0)
    assert [type(o).__name__ for o in env.unwrapped._opponents] == ["PolicyAgent"] * 2
    env = gymnasium.make("forest_envs/chickwood_v0", opponents=["ppo:greedy", "random"])
    assert [type(o).__name__ for o in env.unwrapped._opponents] == ["PolicyAgent", "RandomAgent"]
    assert env.unwrapped._opponents[0].deterministic
    heuristic = make_agent("chickwood_v0", "heuristic", seed=1)
    env = gymnasium.make("forest_envs/chickwood_v0", opponents=heuristic, learner_seat=2)
    assert env.unwrapped._opponents == [heuristic, heuristic]
    obs, info = env.reset(seed=0)
    obs, *_ = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert env.observation_space.contains(obs)


@pytest.mark.parametrize(("opponents", "message"), [
    (["runs/a.npz", "random"], "opponent 'runs/a.npz': policy file 'runs/a.npz' does not exist; or pass an "
                               "object with act(env, agent), such as forest_envs.agents.make_agent("
                               "env_id, name) returns"),
    (["genius", "random"], "opponent 'genius': unknown agent 'genius'; expected one of random, heuristic, "
                           "ismcts[:options], ppo, a policy file (.npz / .zip), either with :greedy; or "
                           "pass an object with act(env, agent), such as "
                           "forest_envs.agents.make_agent(env_id, name) returns"),
    (["random"], "chickwood_v0 with 3 players needs 2 opponents, got 1"),
])
def test_bad_opponents_are_named(opponents, message):
    with pytest.raises(ConfigError) as err:
        gymnasium.make("forest_envs/chickwood_v0", opponents=opponents)
    assert str(err.value) == message
