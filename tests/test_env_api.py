"""The PettingZoo AEC environment and the gymnasium single-agent adapter, for every
configuration of Chickwood Forest: API conformance, seeding, records and replay, errors,
truncation, end-of-game infos, reward modes, rendering, information hiding."""

from __future__ import annotations

import json
import warnings

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from hypothesis import given, settings
from hypothesis import strategies as st
from pettingzoo.test import api_test, render_test, seed_test

import forest_envs
from forest_envs import IllegalActionError, WrongAgentError
from forest_envs.chickwood import env as chickwood_env
from forest_envs.chickwood import raw_env
from forest_envs.core.agents import RandomAgent
from forest_envs.core.engine import REWARD_MODES, returns_from_scores
from forest_envs.core.gym_env import SingleAgentEnv

ENV_ID = "chickwood_v0"
CONFIGS = [(n, leg) for n in (2, 3, 4, 5) for leg in (False, True)]
CONFIG_IDS = [f"{n}p{'-legendary' if leg else ''}" for n, leg in CONFIGS]
NUM_ACTIONS = 280


def play(env, seed: int | None = 0, agent_seed: int = 0, limit: int | None = None):
    """Play with random agents through agent_iter/last/step, as a trainer would. Returns the
    summed rewards per agent and the list of actions taken; ``play.infos`` keeps each agent's
    last info (the env drops them with the dead agents)."""
    if seed is not None or not hasattr(env, "agent_selection"):
        env.reset(seed=seed)
    agent = RandomAgent(agent_seed)
    totals = {a: 0.0 for a in env.possible_agents}
    actions = []
    play.infos = {}
    for name in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        totals[name] += reward
        play.infos[name] = info
        if term or trunc:
            action = None
        else:
            if limit is not None and len(actions) >= limit:
                break
            assert obs["action_mask"].any()
            action = agent.act(env, name)
            actions.append(action)
        env.step(action)
    return totals, actions


def finish_with_random(env, agent_seed: int = 0) -> list[int]:
    """Step random legal actions until the engine state is terminal (no dead steps)."""
    agent = RandomAgent(agent_seed)
    actions = []
    while not env.unwrapped.engine_state.is_terminal:
        a = agent.act(env, env.agent_selection)
        env.step(a)
        actions.append(a)
    return actions


# --- PettingZoo conformance -----------------------------------------------------------------
@pytest.mark.parametrize(("num_players", "legendary"), CONFIGS, ids=CONFIG_IDS)
def test_pettingzoo_api_test(num_players, legendary):
    with warnings.catch_warnings():
        # Expected for every action-masked env (connect_four_v3 emits the same two).
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        warnings.filterwarnings("ignore", message="Observation space for each agent probably")
        api_test(forest_envs.make(ENV_ID, num_players=num_players, legendary=legendary),
                 num_cycles=1000)


@pytest.mark.parametrize(("num_players", "legendary"), CONFIGS, ids=CONFIG_IDS)
def test_pettingzoo_seed_test(num_players, legendary):
    seed_test(lambda: forest_envs.make(ENV_ID, num_players=num_players, legendary=legendary),
              num_cycles=300)


@pytest.mark.parametrize("max_steps", [1, 7, 40])
def test_pettingzoo_api_test_with_truncation(max_steps):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        api_test(forest_envs.make(ENV_ID, num_players=4, max_steps=max_steps), num_cycles=200)


def test_pettingzoo_render_test():
    render_test(lambda render_mode=None: chickwood_env(num_players=3, render_mode=render_mode))


def test_module_entry_points_and_metadata():
    env = chickwood_env(num_players=2)
    raw = raw_env(num_players=2)
    assert env.unwrapped.__class__ is raw.__class__
    assert raw.metadata["name"] == ENV_ID
    assert raw.metadata["render_modes"] == ["ansi", "human"]
    assert raw.metadata["is_parallelizable"] is False
    assert raw.possible_agents == ["player_0", "player_1"]
    assert forest_envs.make_raw(ENV_ID).possible_agents == ["player_0", "player_1", "player_2"]


# --- spaces and observations --------------------------------------------------------------------
@pytest.mark.parametrize(("num_players", "legendary"), CONFIGS, ids=CONFIG_IDS)
def test_observation_and_state_spaces(num_players, legendary):
    env = forest_envs.make(ENV_ID, num_players=num_players, legendary=legendary)
    env.reset(seed=11)
    size = env.unwrapped.game.observation_size
    for step in range(60):
        for agent in env.possible_agents:
            space = env.observation_space(agent)
            obs = env.observe(agent)
            assert set(obs) == {"observation", "action_mask"}
            assert obs["observation"].dtype == np.float32 and obs["observation"].shape == (size,)
            assert obs["action_mask"].dtype == np.int8 and obs["action_mask"].shape == (NUM_ACTIONS,)
            assert space.contains(obs), f"observation of {agent} outside its space at step {step}"
            assert env.action_space(agent).n == NUM_ACTIONS
            # Only the agent to move has a non-empty mask, and it is the engine's.
            if agent == env.agent_selection:
                np.testing.assert_array_equal(
                    obs["action_mask"], env.unwrapped.engine_state.legal_action_mask())
                assert obs["action_mask"].any()
            else:
                assert not obs["action_mask"].any()
        state = env.state()
        assert state.dtype == np.float32 and state.shape == env.unwrapped.state_space.shape
        assert env.unwrapped.state_space.contains(state)
        assert state.shape == (env.unwrapped.game.state_size,)
        env.step(RandomAgent(step).act(env, env.agent_selection))


def test_observation_is_a_copy():
    env = forest_envs.make(ENV_ID, num_players=3)
    env.reset(seed=0)
    agent = env.agent_selection
    obs = env.observe(agent)
    obs["observation"][:] = 123
    obs["action_mask"][:] = 0
    again = env.observe(agent)
    assert not np.all(again["observation"] == 123)
    assert again["action_mask"].any()


# --- records, replay and seeding ------------------------------------------------------------------
@pytest.mark.parametrize(("num_players", "legendary"), CONFIGS, ids=CONFIG_IDS)
@pytest.mark.parametrize("stop", [0, 25, None])
def test_record_is_json_and_replay_reproduces(num_players, legendary, stop):
    env = forest_envs.make(ENV_ID, num_players=num_players, legendary=legendary, reward="rank",
                           max_steps=5000)
    env.reset(seed=1000 + num_players)
    agent = RandomAgent(num_players)
    while not env.unwrapped.engine_state.is_terminal and (stop is None or
                                                         len(env.unwrapped.record()["actions"]) < stop):
        env.step(agent.act(env, env.agent_selection))
    record = env.unwrapped.record()
    text = json.dumps(record)
    assert json.loads(text) == record
    assert record["env_id"] == ENV_ID
    assert record["config"] == {"num_players": num_players, "legendary": legendary}
    assert record["env_options"]["reward"] == "rank"
    replayed = forest_envs.replay(json.loads(text))
    a, b = env.unwrapped, replayed.unwrapped
    assert b.engine_state.to_dict() == a.engine_state.to_dict()
    for name in env.possible_agents:
        np.testing.assert_array_equal(replayed.observe(name)["observation"], env.observe(name)["observation"])
        np.testing.assert_array_equal(replayed.observe(name)["action_mask"], env.observe(name)["action_mask"])
    np.testing.assert_array_equal(replayed.state(), env.state())
    assert b.engine_state.scores() == a.engine_state.scores()
    assert b.agent_selection == a.agent_selection
    assert b.rewards == a.rewards and b.terminations == a.terminations
    assert b.infos == a.infos
    assert b.record() == record


@settings(max_examples=25, deadline=None, derandomize=True, database=None)
@given(config=st.sampled_from(CONFIGS), seed=st.integers(0, 2**62), agent_seed=st.integers(0, 99),
       steps=st.integers(0, 400), reward=st.sampled_from(REWARD_MODES))
def test_replay_reproduces_any_prefix(config, seed, agent_seed, steps, reward):
    """Any configuration, seed and number of random actions: the record replays exactly."""
    num_players, legendary = config
    env = forest_envs.make(ENV_ID, num_players=num_players, legendary=legendary, reward=reward)
    env.reset(seed=seed)
    agent = RandomAgent(agent_seed)
    for _ in range(steps):
        if env.unwrapped.engine_state.is_terminal:
            break
        env.step(agent.act(env, env.agent_selection))
    record = json.loads(json.dumps(env.unwrapped.record()))
    replayed = forest_envs.replay(record)
    assert replayed.unwrapped.engine_state.to_dict() == env.unwrapped.engine_state.to_dict()
    for name in env.possible_agents:
        np.testing.assert_array_equal(replayed.observe(name)["observation"],
                                      env.observe(name)["observation"])
    assert replayed.unwrapped.rewards == env.unwrapped.rewards


def test_same_seed_same_actions_same_game():
    e1 = forest_envs.make(ENV_ID, num_players=4, legendary=True)
    e2 = forest_envs.make(ENV_ID, num_players=4, legendary=True)
    e1.reset(seed=77)
    e2.reset(seed=77)
    agent = RandomAgent(5)
    while not e1.unwrapped.engine_state.is_terminal:
        assert e1.agent_selection == e2.agent_selection
        for name in e1.possible_agents:
            np.testing.assert_array_equal(e1.observe(name)["observation"], e2.observe(name)["observation"])
        np.testing.assert_array_equal(e1.state(), e2.state())
        action = agent.act(e1, e1.agent_selection)
        e1.step(action)
        e2.step(action)
    assert e2.unwrapped.engine_state.is_terminal
    assert e1.unwrapped.engine_state.scores() == e2.unwrapped.engine_state.scores()
    assert e1.unwrapped.record() == e2.unwrapped.record()


def test_different_seeds_differ():
    starts = set()
    for seed in range(6):
        env = forest_envs.make(ENV_ID, num_players=3)
        env.reset(seed=seed)
        starts.add(env.state().tobytes())
    assert len(starts) == 6


def test_reset_chain_is_deterministic():
    """reset(seed) then plain reset()s: the whole chain of games repeats."""
    def chain():
        env = forest_envs.make(ENV_ID, num_players=3)
        env.reset(seed=42)
        out = [env.state().copy()]
        for _ in range(3):
            env.reset()
            out.append(env.state().copy())
        return out, env.unwrapped.record()["seed"]

    (a, seed_a), (b, seed_b) = chain(), chain()
    for x, y in zip(a, b):
        np.testing.assert_array_equal(x, y)
    assert seed_a == seed_b
    assert len({s.tobytes() for s in a}) == 4, "each reset() must start a new game"
    # A record made after a plain reset() replays on its own: it holds the game's seed.
    env = forest_envs.make(ENV_ID, num_players=3)
    env.reset(seed=42)
    env.reset()
    play(env, seed=None, limit=30)
    np.testing.assert_array_equal(forest_envs.replay(env.unwrapped.record()).state(), env.state())


def test_reset_without_seed_is_random():
    seen = set()
    for _ in range(3):
        env = forest_envs.make(ENV_ID, num_players=3)
        env.reset()
        seen.add(env.state().tobytes())
    assert len(seen) > 1


# --- illegal actions ----------------------------------------------------------------------------
def _raid_phase_env():
    """An env in the raid phase after the first raid of a round (castles already raided)."""
    env = forest_envs.make(ENV_ID, num_players=3)
    env.reset(seed=3)
    agent = RandomAgent(3)
    state = env.unwrapped.engine_state
    while not (state.phase == 2 and state.step >= 1):  # 2 = raid
        env.step(agent.act(env, env.agent_selection))
    return env


def test_illegal_action_raises_naming_action_and_reason():
    env = forest_envs.make(ENV_ID, num_players=3)
    env.reset(seed=0)
    agent = env.agent_selection
    game = env.unwrapped.game
    state = env.unwrapped.engine_state
    before = state.to_dict()
    raid = game.string_to_action("raid castle 1")
    with pytest.raises(IllegalActionError) as err:
        env.step(raid)
    msg = str(err.value)
    assert agent in msg and str(raid) in msg and "raid castle 1" in msg
    assert "the pending decision is 'scout'" in msg
    # A card the player does not hold.
    seat = state.current_player
    missing = int(np.flatnonzero(state.hand[seat] == 0)[0])
    play_missing = game.action_names.index(next(n for n in game.action_names
                                                if n.startswith(f"play {_kind(missing)} to castle 1")))
    with pytest.raises(IllegalActionError, match="is not in the player's hand"):
        env.step(play_missing)
    with pytest.raises(IllegalActionError, match="out of range 0..279"):
        env.step(NUM_ACTIONS)
    with pytest.raises(IllegalActionError, match="action must be an int"):
        env.step("raid castle 1")
    # Nothing changed; the game goes on.
    assert state.to_dict() == before
    assert env.agent_selection == agent
    env.step(int(np.flatnonzero(env.observe(agent)["action_mask"])[0]))


def _kind(k: int) -> str:
    from forest_envs.chickwood.components import KIND_NAMES

    return KIND_NAMES[k]


def test_illegal_raid_names_the_reason():
    env = _raid_phase_env()
    state = env.unwrapped.engine_state
    raided = int(np.flatnonzero(state.castle_raided_by.sum(axis=1))[0])
    with pytest.raises(IllegalActionError, match=f"castle {raided + 1} was already raided this round"):
        env.step(env.unwrapped.game.string_to_action(f"raid castle {raided + 1}"))
    absent = [c for c in range(6) if not state.castle_in_play[c]]
    if absent:
        with pytest.raises(IllegalActionError, match="is not in this game"):
            env.step(env.unwrapped.game.string_to_action(f"raid castle {absent[0] + 1}"))


@pytest.mark.parametrize("bad_action", [0, NUM_ACTIONS + 5, "nonsense", 2.5])
@pytest.mark.parametrize("num_players", [2, 5])
def test_penalize_ends_game_with_penalty_for_offender(num_players, bad_action):
    env = forest_envs.make(ENV_ID, num_players=num_players, illegal_action="penalize",
                           illegal_penalty=-2.5)
    env.reset(seed=8)
    finish_prefix = RandomAgent(1)
    for _ in range(5):
        env.step(finish_prefix.act(env, env.agent_selection))
    offender = env.agent_selection
    mask = env.observe(offender)["action_mask"]
    if bad_action == 0:
        bad_action = int(np.flatnonzero(mask == 0)[0])
    env.step(bad_action)
    assert all(env.terminations.values())
    assert not any(env.truncations.values())
    for a in env.agents:
        assert env.infos[a]["illegal_action"]["agent"] == offender
    # Returns reach each agent through last(): penalty for the offender, 0 for the others.
    record = env.unwrapped.record()
    totals, actions = play(env, seed=None)
    assert actions == []
    assert totals == {a: (-2.5 if a == offender else 0.0) for a in env.possible_agents}
    assert env.agents == []
    # The record ends with the offending action; replaying it ends the game the same way.
    assert len(record["actions"]) == 6
    replayed = forest_envs.replay(json.loads(json.dumps(record)))
    assert all(replayed.terminations.values())
    assert replayed.rewards == {a: (-2.5 if a == offender else 0.0) for a in env.possible_agents}


def test_penalize_default_penalty_is_minus_one():
    env = forest_envs.make(ENV_ID, num_players=3, illegal_action="penalize")
    env.reset(seed=0)
    offender = env.agent_selection
    env.step(NUM_ACTIONS)
    assert env.rewards[offender] == -1.0
    assert sum(env.rewards.values()) == -1.0


# --- wrong agents and bad configs -------------------------------------------------------------------
@pytest.mark.parametrize("name", ["player_3", "player_-1", "nobody", 0])
def test_unknown_agent_names_raise(name):
    env = forest_envs.make(ENV_ID, num_players=3)
    env.reset(seed=0)
    raw = env.unwrapped
    for call in (env.observe, env.observation_space, env.action_space, raw.observe, raw.view,
                 raw.action_mask, raw.render_text):
        with pytest.raises(WrongAgentError) as err:
            call(name)
        assert repr(name) in str(err.value) and "player_0" in str(err.value)


def test_agent_not_to_move_has_no_legal_action():
    env = forest_envs.make(ENV_ID, num_players=3)
    env.reset(seed=0)
    waiting = [a for a in env.possible_agents if a != env.agent_selection]
    for a in waiting:
        assert not env.unwrapped.action_mask(a).any()
        assert "legal_actions" not in env.unwrapped.view(a)
    assert env.unwrapped.action_mask(env.agent_selection).any()


@pytest.mark.parametrize(("config", "words"), [
    ({"num_players": 6}, ["num_players=6", "2, 3, 4, 5"]),
    ({"num_players": 1}, ["num_players=1", "2, 3, 4, 5"]),
    ({"num_players": "3"}, ["num_players='3'", "2, 3, 4, 5"]),
    ({"legendary": "yes"}, ["legendary='yes'", "False, True"]),
    ({"legendary": 1}, ["legendary=1", "False, True"]),
    ({"colour": "red"}, ["colour", "num_players", "legendary", "reward", "max_steps"]),
    ({"reward": "bad"}, ["reward='bad'", "'win', 'rank', 'score'"]),
    ({"max_steps": 0}, ["max_steps=0", "positive"]),
    ({"max_steps": -3}, ["max_steps=-3", "positive"]),
    ({"max_steps": 2.5}, ["max_steps=2.5", "positive"]),
    ({"illegal_action": "ignore"}, ["illegal_action='ignore'", "'raise', 'penalize'"]),
    ({"illegal_penalty": "a lot"}, ["illegal_penalty='a lot'", "a number"]),
    ({"render_mode": "rgb_array"}, ["render_mode='rgb_array'", "'ansi', 'human'"]),
])
def test_bad_config_raises_value_error_naming_the_problem(config, words):
    for factory in (lambda: forest_envs.make(ENV_ID, **config), lambda: raw_env(**config),
                    lambda: SingleAgentEnv(ENV_ID, **config)):
        with pytest.raises(ValueError) as err:
            factory()
        for word in words:
            assert word in str(err.value), (word, str(err.value))


def test_bad_single_agent_setup():
    with pytest.raises(ValueError, match="learner_seat=3 is invalid; expected None or 0..2"):
        SingleAgentEnv(ENV_ID, learner_seat=3, num_players=3)
    with pytest.raises(ValueError, match="needs 2 opponents, got 1"):
        SingleAgentEnv(ENV_ID, opponents=[RandomAgent(0)], num_players=3)
    with pytest.raises(ValueError, match="unknown env id"):
        SingleAgentEnv("sherlock_v9")


# --- truncation, end-of-game infos, rewards ------------------------------------------------------------
@pytest.mark.parametrize("max_steps", [1, 10, 33])
def test_max_steps_truncates(max_steps):
    env = forest_envs.make(ENV_ID, num_players=3, max_steps=max_steps)
    totals, actions = play(env, seed=5)
    assert len(actions) == max_steps
    assert totals == {a: 0.0 for a in env.possible_agents}
    raw = env.unwrapped
    assert not raw.engine_state.is_terminal
    assert env.agents == [] and set(play.infos) == set(env.possible_agents)
    scores = raw.engine_state.scores()
    for a in env.possible_agents:
        info = play.infos[a]
        seat = int(a.split("_")[1])
        assert info["truncated"] is True and info["winner"] is False
        assert info["score"] == scores[seat]["total"]


def test_no_truncation_when_the_game_ends_first():
    env = forest_envs.make(ENV_ID, num_players=2, max_steps=10_000)
    totals, _ = play(env, seed=5)
    assert env.unwrapped.engine_state.is_terminal
    assert not any(env.unwrapped.truncations.values())
    assert sum(totals.values()) == pytest.approx(1.0)


@pytest.mark.parametrize(("num_players", "legendary"), CONFIGS, ids=CONFIG_IDS)
def test_end_infos_match_scores(num_players, legendary):
    env = forest_envs.make(ENV_ID, num_players=num_players, legendary=legendary)
    env.reset(seed=21)
    finish_with_random(env, agent_seed=2)
    state = env.unwrapped.engine_state
    scores = state.scores()
    totals = [s["total"] for s in scores]
    assert all(env.terminations.values())
    for a in env.possible_agents:
        seat = int(a.split("_")[1])
        info = env.infos[a]
        assert info["score"] == totals[seat]
        assert info["rank"] == state.ranks()[seat] == 1 + sum(t > totals[seat] for t in totals)
        assert info["winner"] == (totals[seat] == max(totals))
        assert info["breakdown"] == scores[seat]
        assert info["truncated"] is False
        parts = {k: v for k, v in info["breakdown"].items() if k not in ("total", "busts")}
        assert sum(parts.values()) == info["score"]
        assert {"castles", "villages"} <= set(parts)
    assert any(env.infos[a]["winner"] for a in env.possible_agents)


@pytest.mark.parametrize("num_players", [2, 3, 5])
def test_reward_modes(num_players):
    """The same game (seed and actions) under each reward mode pays what the mode says."""
    _, actions = play(forest_envs.make(ENV_ID, num_players=num_players), seed=9, agent_seed=4)
    results = {}
    for mode in REWARD_MODES:
        env = forest_envs.make(ENV_ID, num_players=num_players, reward=mode)
        env.reset(seed=9)
        for a in actions:
            env.step(a)
        state = env.unwrapped.engine_state
        assert state.is_terminal
        totals = [s["total"] for s in state.scores()]
        expected = returns_from_scores(totals, mode)
        assert state.returns(mode) == expected
        got, rest = play(env, seed=None)
        assert rest == []
        assert [got[a] for a in env.possible_agents] == pytest.approx(expected)
        results[mode] = expected
    assert sum(results["win"]) == pytest.approx(1.0)
    assert max(results["rank"]) == 1.0 and min(results["rank"]) >= 0.0
    assert sum(results["score"]) == pytest.approx(0.0)
    assert np.argmax(results["score"]) in np.flatnonzero(np.array(results["win"]) > 0)


def test_rewards_are_zero_until_the_end():
    env = forest_envs.make(ENV_ID, num_players=3, reward="score")
    env.reset(seed=2)
    agent = RandomAgent(0)
    while not env.unwrapped.engine_state.is_terminal:
        assert all(r == 0 for r in env.rewards.values())
        env.step(agent.act(env, env.agent_selection))
    assert any(r != 0 for r in env.rewards.values())


# --- rendering and views ------------------------------------------------------------------------------
def test_render_ansi_returns_text():
    env = forest_envs.make(ENV_ID, num_players=3, render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert isinstance(text, str) and "Chickwood Forest" in text and "Castles:" in text
    finish_with_random(env)
    final = env.render()
    assert "Final scores" in final


def test_render_human_prints(capsys):
    env = forest_envs.make(ENV_ID, num_players=2, render_mode="human")
    env.reset(seed=0)
    assert env.render() is None
    out = capsys.readouterr().out
    assert "Chickwood Forest" in out and "Villages:" in out


def test_render_without_mode_warns():
    env = forest_envs.make(ENV_ID, num_players=2)
    env.reset(seed=0)
    with pytest.warns(UserWarning, match="render_mode"):
        assert env.render() is None


@pytest.mark.parametrize("num_players", [2, 4])
def test_view_hides_other_hands(num_players):
    env = forest_envs.make(ENV_ID, num_players=num_players)
    env.reset(seed=6)
    agent = RandomAgent(6)
    for _ in range(2 * num_players + 1):  # some face-down cards are on the table
        env.step(agent.act(env, env.agent_selection))
    raw = env.unwrapped
    state = raw.engine_state
    full = state.view(None)
    assert "hands" in full
    for name in env.possible_agents:
        seat = int(name.split("_")[1])
        v = raw.view(name)
        assert v["seat"] == seat
        assert "hands" not in v and "hand" in v
        assert sum(v["hand"].values()) == int(state.hand[seat].sum())
        assert v["hand"] == full["hands"][seat]
        for castle in v["castles"]:
            assert "face_down" not in castle  # only one's own face-down cards ("my_face_down")
        json.dumps(v)  # plain Python data
        text = raw.render_text(name)
        assert "(you)" in text and "Hand P" not in text
        # A state differing only in what this seat cannot know shows the same view.
        other = state.resample_hidden(seat, np.random.default_rng(seat))
        assert other.view(seat) == v
        assert other.render(seat) == text


# --- the gymnasium single-agent adapter ----------------------------------------------------------------
@pytest.mark.parametrize(("num_players", "legendary"), CONFIGS, ids=CONFIG_IDS)
def test_single_agent_env_passes_check_env(num_players, legendary):
    # check_env steps action_space.sample(), which ignores the mask: with the default
    # illegal_action="raise" that would (rightly) raise, so penalize is used here.
    for seat in (None, num_players - 1):
        env = SingleAgentEnv(ENV_ID, num_players=num_players, legendary=legendary,
                             illegal_action="penalize", learner_seat=seat)
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message=".*not having a spec.*")
            check_env(env, skip_render_check=True)


def test_single_agent_env_action_masks_and_render():
    env = SingleAgentEnv(ENV_ID, num_players=4, learner_seat=2, render_mode="ansi")
    obs, info = env.reset(seed=3)
    assert info["seat"] == 2 and env.agent == "player_2"
    assert env.observation_space.contains(obs)
    done = False
    steps = 0
    while not done:
        masks = env.action_masks()
        state = env.aec.engine_state
        assert masks.dtype == bool and masks.shape == (NUM_ACTIONS,)
        assert state.current_player == 2
        np.testing.assert_array_equal(masks, state.legal_action_mask().astype(bool))
        np.testing.assert_array_equal(obs, state.observation(2))
        assert isinstance(env.render(), str)
        obs, _, done, _, info = env.step(int(np.flatnonzero(masks)[steps % masks.sum()]))
        assert env.observation_space.contains(obs)
        steps += 1
    assert not env.action_masks().any()
    assert info["score"] == env.aec.engine_state.scores()[2]["total"]
    with pytest.raises(RuntimeError, match="after the episode ended"):
        env.step(0)


def test_single_agent_env_is_deterministic_given_a_seed():
    def episode(env, seed):
        obs, _ = env.reset(seed=seed)
        trace = [obs.tobytes()]
        done = trunc = False
        k = 0
        while not (done or trunc):
            legal = np.flatnonzero(env.action_masks())
            obs, r, done, trunc, _ = env.step(int(legal[k % legal.size]))
            trace.append((obs.tobytes(), r))
            k += 1
        return trace

    env = SingleAgentEnv(ENV_ID, num_players=5)
    first = episode(env, 10)
    episode(env, 11)  # opponents' generators move on in between
    assert episode(env, 10) == first
    assert episode(SingleAgentEnv(ENV_ID, num_players=5), 10) == first
    # Scripted opponents are reseeded the same way (their reset takes a seed).
    from forest_envs.core.registry import make_agent

    def heuristic_env():
        return SingleAgentEnv(ENV_ID, num_players=3, legendary=True,
                              opponents=[make_agent(ENV_ID, "heuristic", seed=i) for i in range(2)])

    env = heuristic_env()
    first = episode(env, 3)
    episode(env, 4)
    assert episode(env, 3) == first == episode(heuristic_env(), 3)


@pytest.mark.parametrize("num_players", [2, 3, 4, 5])
@pytest.mark.parametrize("mode", ["score", "win"])
def test_single_agent_reward_is_the_learners_own(num_players, mode):
    """Whatever seat the learner takes and however many opponent moves fall between its
    turns, the reward it receives is its own seat's terminal return, once, at the end."""
    ended_by = set()
    max_gap = informative = 0
    for seat in range(num_players):
        for episode in range(3):
            env = SingleAgentEnv(ENV_ID, num_players=num_players, learner_seat=seat, reward=mode,
                                 legendary=bool(episode % 2))
            _, info = env.reset(seed=100 * seat + episode)
            assert info["seat"] == seat
            rng = np.random.default_rng(episode)
            rewards = []
            done = trunc = False
            while not (done or trunc):
                assert env.aec.agent_selection == f"player_{seat}"
                legal = np.flatnonzero(env.action_masks())
                before = env.aec.num_steps
                _, reward, done, trunc, info = env.step(int(rng.choice(legal)))
                opponent_moves = env.aec.num_steps - before - 1
                max_gap = max(max_gap, opponent_moves)
                rewards.append(reward)
            ended_by.add("opponent" if opponent_moves else "learner")
            state = env.aec.engine_state
            assert state.is_terminal and not trunc
            expected = state.returns(mode)[seat]
            assert rewards[-1] == pytest.approx(expected)
            assert all(r == 0 for r in rewards[:-1])
            totals = [s["total"] for s in state.scores()]
            assert expected == pytest.approx(returns_from_scores(totals, mode)[seat])
            assert info["score"] == totals[seat] and info["rank"] == state.ranks()[seat]
            informative += any(r != expected for r in state.returns(mode))
    # The check has teeth only if other seats' returns differ from the learner's.
    assert informative >= num_players
    assert max_gap >= num_players - 1, "opponents should move between the learner's turns"
    assert ended_by == {"learner", "opponent"}, ended_by


def test_single_agent_reward_with_truncation_is_zero():
    env = SingleAgentEnv(ENV_ID, num_players=3, learner_seat=1, reward="score", max_steps=12)
    env.reset(seed=0)
    trunc = done = False
    while not (done or trunc):
        _, reward, done, trunc, info = env.step(int(np.flatnonzero(env.action_masks())[0]))
    assert trunc and not done and reward == 0.0
    assert info["truncated"] is True


def test_single_agent_env_with_an_opponent_pool():
    drawn = []

    def pool(rng):
        drawn.append(int(rng.integers(1000)))
        return [RandomAgent(drawn[-1]), RandomAgent(drawn[-1] + 1)]

    env = SingleAgentEnv(ENV_ID, opponents=pool, num_players=3)
    seats = set()
    for seed in range(12):
        _, info = env.reset(seed=seed)
        seats.add(info["seat"])
    assert len(drawn) == 12
    assert seats == {0, 1, 2}, "learner_seat=None must rotate the learner through every seat"
