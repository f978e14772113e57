"""The PettingZoo AEC environment and the gymnasium single-agent adapter, for every
configuration of every registered game (the toy game of tests/toy_game.py included): API
conformance, seeding, records and replay, starting from a state, errors, truncation,
end-of-game infos built from the game's ranks, reward modes, information hiding.

A game gets this whole suite by registering; nothing here names a game.
"""

from __future__ import annotations

import json
import warnings

import numpy as np
import pytest
from config_cases import all_cases, config_cases
from gymnasium.utils.env_checker import check_env, data_equivalence
from hypothesis import given, settings
from hypothesis import strategies as st
from pettingzoo.test import api_test, render_test, seed_test
from random_play import advance, episode_trace, play

import forest_envs
from forest_envs import IllegalActionError, WrongAgentError
from forest_envs.agents.base import RandomAgent
from forest_envs.core.registry import env_ids, game_spec
from forest_envs.core.results import returns_from_ranks
from forest_envs.envs.gym_env import SingleAgentEnv

CASES = config_cases()  # the pairwise cover by default, the rest slow
GAMES = list(env_ids())


def running(env) -> bool:
    """Neither finished nor truncated (games that can stall are truncated by the env)."""
    return not env.unwrapped.engine_state.is_terminal and not any(env.unwrapped.truncations.values())


def play_until_finished(env, first_seed: int) -> dict:
    """Games from ``first_seed`` on until one ends by the rules (a truncated one is checked
    to have paid nobody); returns that game's summed rewards per agent. Two random games
    first; a game whose random games rarely end (Roundforest, whose random seats wander to
    the step limit) then gets ten of its scripted players', then eight more random ones."""
    spec = game_spec(env.unwrapped.game.env_id)
    seats = range(len(env.possible_agents))
    scripted = [spec.heuristic] * 10 if spec.heuristic is not None else []
    line_ups = [None] * 2 + scripted + [None] * 8
    for k, heuristic in enumerate(line_ups):
        agents = None if heuristic is None else [heuristic(seed=seat) for seat in seats]
        totals, _ = play(env, seed=first_seed + k, agent_seed=2, agents=agents)
        if env.unwrapped.engine_state.is_terminal:
            return totals
        assert all(info["truncated"] and not info["winner"] for info in play.infos.values())
        assert all(t == 0 for t in totals.values())
    raise AssertionError(f"none of {len(line_ups)} games (random, then scripted) ended by the rules")


def traits(env_id):
    return game_spec(env_id).game_class.traits


# --- PettingZoo conformance -----------------------------------------------------------------
@pytest.mark.parametrize(("env_id", "cfg"), CASES)
def test_pettingzoo_api_test(env_id, cfg, capsys):
    with warnings.catch_warnings():
        # Expected for every action-masked env (connect_four_v3 emits the same two).
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        warnings.filterwarnings("ignore", message="Observation space for each agent probably")
        api_test(forest_envs.make(env_id, **cfg), num_cycles=1000)
    # Only PettingZoo's own two lines: the env prints nothing unless made with render_mode="human".
    assert capsys.readouterr().out == "Starting API test\nPassed API test\n"


@pytest.mark.parametrize(("env_id", "cfg"), CASES)
def test_pettingzoo_seed_test(env_id, cfg):
    seed_test(lambda: forest_envs.make(env_id, **cfg), num_cycles=100)


@pytest.mark.parametrize("env_id", GAMES)
@pytest.mark.parametrize("max_steps", [1, 7, 40])
def test_pettingzoo_api_test_with_truncation(env_id, max_steps):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        api_test(forest_envs.make(env_id, max_steps=max_steps), num_cycles=200)


@pytest.mark.parametrize("env_id", [g for g in GAMES if g != "toy_v0"])
def test_pettingzoo_render_test(env_id):
    render_test(lambda render_mode=None: forest_envs.make(env_id, render_mode=render_mode))


@pytest.mark.parametrize("env_id", GAMES)
def test_entry_points_and_metadata(env_id):
    spec = game_spec(env_id)
    raw = spec.env_class()
    assert forest_envs.make(env_id).unwrapped.__class__ is raw.__class__
    assert raw.metadata["name"] == env_id
    assert raw.metadata["is_parallelizable"] is False
    n = spec.game_class.options["num_players"].default
    assert raw.possible_agents == [f"player_{i}" for i in range(n)]
    t = traits(env_id)
    assert t.min_players == min(spec.game_class.options["num_players"].choices)
    assert t.max_players == max(spec.game_class.options["num_players"].choices)


# --- spaces and observations --------------------------------------------------------------------
@pytest.mark.parametrize(("env_id", "cfg"), CASES)
def test_observation_and_state_spaces(env_id, cfg):
    env = forest_envs.make(env_id, **cfg)
    env.reset(seed=11)
    game = env.unwrapped.game
    for step in range(60):
        for agent in env.possible_agents:
            space = env.observation_space(agent)
            obs = env.observe(agent)
            assert set(obs) == {"observation", "action_mask"}
            assert obs["observation"].dtype == np.float32
            assert obs["observation"].shape == (game.observation_size,)
            assert obs["action_mask"].dtype == np.int8 and obs["action_mask"].shape == (game.num_actions,)
            assert space.contains(obs), f"observation of {agent} outside its space at step {step}"
            assert env.action_space(agent).n == game.num_actions
            # Only the agent to move has a non-empty mask, and it is the engine's.
            if agent == env.agent_selection and not env.unwrapped.engine_state.is_terminal:
                np.testing.assert_array_equal(
                    obs["action_mask"], env.unwrapped.engine_state.legal_action_mask())
                assert obs["action_mask"].any()
            else:
                assert not obs["action_mask"].any()
        state = env.state()
        assert state.dtype == np.float32 and state.shape == (game.state_size,)
        assert env.unwrapped.state_space.contains(state)
        if not advance(env, 1, agent_seed=step):
            break


@pytest.mark.parametrize("env_id", GAMES)
def test_observation_is_a_copy(env_id):
    env = forest_envs.make(env_id)
    env.reset(seed=0)
    agent = env.agent_selection
    obs = env.observe(agent)
    obs["observation"][:] = 123
    obs["action_mask"][:] = 0
    again = env.observe(agent)
    assert not np.all(again["observation"] == 123)
    assert again["action_mask"].any()


def test_box_bounds_come_from_the_declared_block_ranges():
    env = forest_envs.make_raw("toy_v0", pile=5)
    box = env.observation_spaces["player_0"]["observation"]
    slices = env.game.layout.observation_slices()
    start, stop, _ = slices["pile"]
    assert box.high[start:stop].tolist() == [7.0]
    start, stop, shape = slices["secret"]
    assert shape == () and box.high[start:stop].tolist() == [3.0]


# --- records, replay and seeding ------------------------------------------------------------------
@pytest.mark.parametrize(("env_id", "cfg"), CASES)
@pytest.mark.parametrize("stop", [0, 25, None])
def test_record_is_json_and_replay_reproduces(env_id, cfg, stop):
    env = forest_envs.make(env_id, **cfg, reward="rank", max_steps=5000)
    env.reset(seed=1000 + cfg["num_players"])
    advance(env, 10**6 if stop is None else stop, agent_seed=cfg["num_players"])
    record = env.unwrapped.record()
    text = json.dumps(record)
    assert json.loads(text) == record
    assert record["env_id"] == env_id and record["config"] == env.unwrapped.game.config
    assert record["env_options"]["reward"] == "rank"
    replayed = forest_envs.replay(json.loads(text))
    a, b = env.unwrapped, replayed.unwrapped
    assert b.engine_state.to_dict() == a.engine_state.to_dict()
    for name in env.possible_agents:
        np.testing.assert_array_equal(replayed.observe(name)["observation"], env.observe(name)["observation"])
        np.testing.assert_array_equal(replayed.observe(name)["action_mask"], env.observe(name)["action_mask"])
    np.testing.assert_array_equal(replayed.state(), env.state())
    assert b.agent_selection == a.agent_selection
    assert b.rewards == a.rewards and b.terminations == a.terminations
    assert data_equivalence(b.infos, a.infos)  # infos hold the masks (arrays): == would be ambiguous
    assert b.record() == record


@settings(max_examples=25, deadline=None, derandomize=True, database=None)
@given(case=st.sampled_from(all_cases()), seed=st.integers(0, 2**62), agent_seed=st.integers(0, 99),
       steps=st.integers(0, 400), reward=st.sampled_from(["win", "rank"]))
def test_replay_reproduces_any_prefix(case, seed, agent_seed, steps, reward):
    """Any game, configuration, seed and number of random actions: the record replays."""
    env_id, cfg = case
    env = forest_envs.make(env_id, **cfg, reward=reward)
    env.reset(seed=seed)
    advance(env, steps, agent_seed)
    record = json.loads(json.dumps(env.unwrapped.record()))
    replayed = forest_envs.replay(record)
    assert replayed.unwrapped.engine_state.to_dict() == env.unwrapped.engine_state.to_dict()
    for name in env.possible_agents:
        np.testing.assert_array_equal(replayed.observe(name)["observation"],
                                      env.observe(name)["observation"])
    assert replayed.unwrapped.rewards == env.unwrapped.rewards


@pytest.mark.parametrize("env_id", GAMES)
def test_same_seed_same_actions_same_game(env_id):
    e1, e2 = forest_envs.make(env_id), forest_envs.make(env_id)
    e1.reset(seed=77)
    e2.reset(seed=77)
    agent = RandomAgent(5)
    while running(e1):
        assert e1.agent_selection == e2.agent_selection
        for name in e1.possible_agents:
            np.testing.assert_array_equal(e1.observe(name)["observation"], e2.observe(name)["observation"])
        np.testing.assert_array_equal(e1.state(), e2.state())
        action = agent.act(e1, e1.agent_selection)
        e1.step(action)
        e2.step(action)
    assert not running(e2) and e1.truncations == e2.truncations
    assert e1.unwrapped.engine_state.ranks() == e2.unwrapped.engine_state.ranks()
    assert e1.unwrapped.record() == e2.unwrapped.record()


@pytest.mark.parametrize("env_id", GAMES)
def test_different_seeds_differ(env_id):
    starts = set()
    for seed in range(12):
        env = forest_envs.make(env_id)
        env.reset(seed=seed)
        starts.add(env.state().tobytes())
    assert len(starts) > 1


@pytest.mark.parametrize("env_id", GAMES)
def test_reset_chain_is_deterministic(env_id):
    """reset(seed) then plain reset()s: the whole chain of games repeats."""
    def chain():
        env = forest_envs.make(env_id)
        env.reset(seed=42)
        out = [env.unwrapped.record()["seed"]]
        for _ in range(3):
            env.reset()
            out.append(env.unwrapped.record()["seed"])
        return out

    seeds = chain()
    assert seeds == chain() and len(set(seeds)) == 4, "each reset() must start a new game"
    # A record made after a plain reset() replays on its own: it holds the game's seed.
    env = forest_envs.make(env_id)
    env.reset(seed=42)
    env.reset()
    play(env, seed=None, limit=30)
    np.testing.assert_array_equal(forest_envs.replay(env.unwrapped.record()).state(), env.state())


# --- starting from a given state ------------------------------------------------------------------
@pytest.mark.parametrize("env_id", GAMES)
def test_reset_from_a_state_plays_on_identically_and_replays(env_id):
    env = forest_envs.make(env_id)
    env.reset(seed=5)
    advance(env, 6, agent_seed=1)
    state = env.unwrapped.engine_state.clone()
    other = forest_envs.make(env_id)
    other.reset(options={"state": state})
    assert other.unwrapped.engine_state is not state
    assert other.unwrapped.engine_state.to_dict() == state.to_dict()
    assert other.agent_selection == env.agent_selection
    tail = advance(env, 500, agent_seed=2)
    for a in tail:
        other.step(a)
    assert other.unwrapped.engine_state.to_dict() == env.unwrapped.engine_state.to_dict()
    if env.unwrapped.engine_state.is_terminal:
        assert data_equivalence(other.unwrapped.infos, env.unwrapped.infos)
    replayed = forest_envs.replay(json.loads(json.dumps(other.unwrapped.record())))
    assert replayed.unwrapped.engine_state.to_dict() == env.unwrapped.engine_state.to_dict()


def test_reset_from_a_state_of_another_configuration_is_refused():
    env = forest_envs.make("toy_v0", num_players=3)
    state = forest_envs.make_raw("toy_v0", num_players=2).game.new_initial_state(0)
    with pytest.raises(ValueError, match="needs a toy_v0 state with config"):
        env.reset(options={"state": state})
    with pytest.raises(ValueError, match="needs a toy_v0 state"):
        env.reset(options={"state": "a board"})
    over = env.unwrapped.game.new_initial_state(0)
    while not over.is_terminal:
        over.apply(over.legal_actions()[0])
    with pytest.raises(ValueError, match="got a finished game"):
        env.reset(options={"state": over})


# --- illegal actions ----------------------------------------------------------------------------
@pytest.mark.parametrize("env_id", GAMES)
def test_illegal_actions_raise_and_change_nothing(env_id):
    env = forest_envs.make(env_id)
    env.reset(seed=0)
    agent = env.agent_selection
    state = env.unwrapped.engine_state
    n_actions = env.unwrapped.game.num_actions
    before = state.to_dict()
    illegal = int(np.flatnonzero(state.legal_action_mask() == 0)[0])
    with pytest.raises(IllegalActionError) as err:
        env.step(illegal)
    msg = str(err.value)
    assert agent in msg and str(illegal) in msg and env.unwrapped.game.action_names[illegal] in msg
    with pytest.raises(IllegalActionError, match=f"out of range 0..{n_actions - 1}"):
        env.step(n_actions)
    legal = int(np.flatnonzero(state.legal_action_mask())[0])
    for not_an_int in ("x", float(legal), np.float32(legal), np.float64(legal), True, None, [legal]):
        with pytest.raises(IllegalActionError, match="action must be an int"):
            state.apply(not_an_int)
    assert state.to_dict() == before and env.agent_selection == agent
    env.step(np.int64(legal))  # numpy integers are actions
    assert state.to_dict() != before


@pytest.mark.parametrize("env_id", GAMES)
@pytest.mark.parametrize("bad_action", ["illegal", "range", "nonsense", 2.5])
def test_penalize_ends_game_with_penalty_for_offender(env_id, bad_action):
    env = forest_envs.make(env_id, illegal_action="penalize", illegal_penalty=-2.5)
    env.reset(seed=8)
    advance(env, 3, agent_seed=1)
    offender = env.agent_selection
    mask = env.observe(offender)["action_mask"]
    bad = {"illegal": int(np.flatnonzero(mask == 0)[0]), "range": len(mask) + 5}.get(bad_action, bad_action)
    env.step(bad)
    assert all(env.terminations.values()) and not any(env.truncations.values())
    for a in env.agents:
        assert env.infos[a]["illegal_action"]["agent"] == offender
    record = env.unwrapped.record()
    totals, actions = play(env, seed=None)
    assert actions == []
    assert totals == {a: (-2.5 if a == offender else 0.0) for a in env.possible_agents}
    replayed = forest_envs.replay(json.loads(json.dumps(record)))
    assert replayed.rewards == {a: (-2.5 if a == offender else 0.0) for a in env.possible_agents}


# --- wrong agents and bad configs -------------------------------------------------------------------
@pytest.mark.parametrize("env_id", GAMES)
@pytest.mark.parametrize("name", ["player_7", "player_-1", "nobody", 0])
def test_unknown_agent_names_raise(env_id, name):
    env = forest_envs.make(env_id)
    env.reset(seed=0)
    raw = env.unwrapped
    for call in (env.observe, env.observation_space, env.action_space, raw.observe, raw.view,
                 raw.action_mask, raw.render_text, lambda a: raw.describe_action(0, a)):
        with pytest.raises(WrongAgentError) as err:
            call(name)
        assert repr(name) in str(err.value) and "player_0" in str(err.value)


@pytest.mark.parametrize("env_id", GAMES)
def test_agent_not_to_move_has_no_legal_action(env_id):
    env = forest_envs.make(env_id)
    env.reset(seed=0)
    for a in env.possible_agents:
        assert env.unwrapped.action_mask(a).any() == (a == env.agent_selection)


@pytest.mark.parametrize("env_id", GAMES)
def test_observe_before_reset_says_so(env_id):
    raw = forest_envs.make_raw(env_id)
    with pytest.raises(RuntimeError, match="before reset"):
        raw.observe("player_0")


@pytest.mark.parametrize("env_id", GAMES)
def test_unknown_option_names_both_option_lists(env_id):
    with pytest.raises(ValueError) as err:
        forest_envs.make(env_id, colour="red")
    for word in ["colour", "num_players", "reward", "max_steps"]:
        assert word in str(err.value)


@pytest.mark.parametrize("env_id", GAMES)
def test_reward_modes_are_the_games(env_id):
    for mode in traits(env_id).reward_modes:
        forest_envs.make(env_id, reward=mode)
    if not traits(env_id).has_scores:
        with pytest.raises(ValueError, match="reward='score' is invalid"):
            forest_envs.make(env_id, reward="score")
    with pytest.raises(ValueError, match="reward='bad'"):
        forest_envs.make(env_id, reward="bad")


def test_bad_single_agent_setup():
    with pytest.raises(ValueError, match="learner_seat=3 is invalid; expected None or 0..2"):
        SingleAgentEnv("toy_v0", learner_seat=3, num_players=3)
    with pytest.raises(ValueError, match="needs 2 opponents, got 1"):
        SingleAgentEnv("toy_v0", opponents=[RandomAgent(0)], num_players=3)
    with pytest.raises(ValueError, match="unknown env id"):
        SingleAgentEnv("sherlock_v9")


# --- truncation, end-of-game infos, rewards ------------------------------------------------------------
@pytest.mark.parametrize("env_id", GAMES)
def test_max_steps_truncates_with_no_winner(env_id):
    env = forest_envs.make(env_id, max_steps=3)
    totals, actions = play(env, seed=5)
    assert len(actions) == 3
    assert totals == {a: 0.0 for a in env.possible_agents}
    assert not env.unwrapped.engine_state.is_terminal
    assert env.agents == [] and set(play.infos) == set(env.possible_agents)
    for info in play.infos.values():
        assert info["truncated"] is True and info["winner"] is False


@pytest.mark.parametrize(("env_id", "cfg"), CASES)
def test_end_infos_and_rewards_come_from_the_ranks(env_id, cfg):
    for mode in traits(env_id).reward_modes:
        env = forest_envs.make(env_id, **cfg, reward=mode)
        totals = play_until_finished(env, first_seed=21)
        state = env.unwrapped.engine_state
        ranks = state.ranks()
        assert 1 in ranks and all(1 <= r <= len(ranks) for r in ranks)
        scores = state.totals()
        assert (scores is not None) == traits(env_id).has_scores
        expected = returns_from_ranks(ranks, mode, scores, traits(env_id).score_scale)
        assert state.returns(mode) == expected
        assert [totals[a] for a in env.possible_agents] == pytest.approx(expected)
        for seat, a in enumerate(env.possible_agents):
            info = play.infos[a]
            assert info["rank"] == ranks[seat]
            assert info["winner"] == (ranks[seat] == 1)
            assert info["score"] == (None if scores is None else scores[seat])
            assert info["breakdown"] == state.breakdown()[seat]
            assert info["truncated"] is False


@pytest.mark.parametrize("env_id", GAMES)
def test_rewards_are_zero_until_the_end(env_id):
    env = forest_envs.make(env_id, reward="rank")
    for seed in range(2, 12):
        env.reset(seed=seed)
        agent = RandomAgent(0)
        while running(env):
            assert all(r == 0 for r in env.rewards.values())
            env.step(agent.act(env, env.agent_selection))
        if env.unwrapped.engine_state.is_terminal:
            break
        assert all(r == 0 for r in env.rewards.values())  # truncated: nobody is paid
    assert any(r != 0 for r in env.rewards.values())


# --- what a seat may know ------------------------------------------------------------------------------
@pytest.mark.parametrize(("env_id", "cfg"), CASES)
def test_views_are_plain_data_and_blind_to_what_the_seat_cannot_know(env_id, cfg):
    env = forest_envs.make(env_id, **cfg, render_mode="ansi")
    env.reset(seed=6)
    for step in range(20):
        raw = env.unwrapped
        state = raw.engine_state
        json.dumps(state.view(None))
        for seat, name in enumerate(env.possible_agents):
            v = raw.view(name)
            json.dumps(v)
            text = raw.render_text(name)
            assert isinstance(text, str) and text
            # A state differing only in what this seat cannot know looks the same to it.
            other = state.resample_hidden(seat, np.random.default_rng(seat + step))
            assert other.view(seat) == v and other.render(seat) == text
            np.testing.assert_array_equal(other.observation(seat), state.observation(seat))
            if seat == state.current_player:
                np.testing.assert_array_equal(other.legal_action_mask(), state.legal_action_mask())
        if not advance(env, 1, agent_seed=step):
            break


@pytest.mark.parametrize("env_id", GAMES)
def test_describe_action_gives_the_full_name_to_the_actor_and_the_referee(env_id):
    env = forest_envs.make(env_id)
    env.reset(seed=3)
    raw = env.unwrapped
    for a in np.flatnonzero(raw.engine_state.legal_action_mask()).tolist():
        name = raw.action_to_string(a)
        assert raw.describe_action(a, env.agent_selection) == name
        assert raw.describe_action(a, None) == name
        for other in env.possible_agents:
            assert isinstance(raw.describe_action(a, other), str)


# --- the gymnasium single-agent adapter ----------------------------------------------------------------
@pytest.mark.parametrize(("env_id", "cfg"), CASES)
def test_single_agent_env_passes_check_env(env_id, cfg):
    # check_env steps action_space.sample(), which ignores the mask: with the default
    # illegal_action="raise" that would (rightly) raise, so penalize is used here.
    for seat in (None, cfg["num_players"] - 1):
        env = SingleAgentEnv(env_id, **cfg, illegal_action="penalize", learner_seat=seat)
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message=".*not having a spec.*")
            check_env(env, skip_render_check=True)


@pytest.mark.parametrize("env_id", GAMES)
def test_single_agent_env_masks_and_observations_are_the_learners(env_id):
    n = game_spec(env_id).game_class.options["num_players"].default
    env = SingleAgentEnv(env_id, learner_seat=n - 1, render_mode="ansi")
    obs, info = env.reset(seed=3)
    assert info["seat"] == n - 1
    done = trunc = False
    steps = 0
    while not (done or trunc):
        masks = env.action_masks()
        state = env.aec.engine_state
        assert masks.dtype == bool and state.current_player == n - 1
        np.testing.assert_array_equal(masks, state.legal_action_mask().astype(bool))
        np.testing.assert_array_equal(obs, state.observation(n - 1))
        np.testing.assert_array_equal(info["action_mask"], masks)
        assert info["action_mask"].dtype == bool
        info["action_mask"][:] = False  # the info's mask is a copy: the env's stays as it was
        assert env.action_masks().any() and env.aec.infos[env.agent]["action_mask"].any()
        assert isinstance(env.render(), str)
        obs, reward, done, trunc, info = env.step(int(np.flatnonzero(masks)[steps % masks.sum()]))
        assert env.observation_space.contains(obs)
        steps += 1
    assert not env.action_masks().any()
    assert info["action_mask"].dtype == bool and not info["action_mask"].any()
    assert reward == state.returns("win")[n - 1]
    assert info["rank"] == state.ranks()[n - 1]
    with pytest.raises(RuntimeError, match="after the episode ended"):
        env.step(0)


@pytest.mark.parametrize("env_id", GAMES)
def test_single_agent_reward_is_the_learners_own(env_id):
    """Whatever seat the learner takes, the reward it receives is its own seat's terminal
    return, once, at the end."""
    n = game_spec(env_id).game_class.options["num_players"].default
    informative = 0
    for seat in range(n):
        for episode in range(3):
            env = SingleAgentEnv(env_id, learner_seat=seat, reward="rank")
            env.reset(seed=100 * seat + episode)
            rng = np.random.default_rng(episode)
            rewards = []
            done = trunc = False
            while not (done or trunc):
                assert env.aec.agent_selection == f"player_{seat}"
                _, reward, done, trunc, info = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
                rewards.append(reward)
            state = env.aec.engine_state
            expected = state.returns("rank")[seat]
            assert rewards[-1] == pytest.approx(expected) and all(r == 0 for r in rewards[:-1])
            informative += any(r != expected for r in state.returns("rank"))
    assert informative >= n


def test_single_agent_env_with_an_opponent_pool():
    drawn = []

    def pool(rng):
        drawn.append(int(rng.integers(1000)))
        return [RandomAgent(drawn[-1]), RandomAgent(drawn[-1] + 1)]

    env = SingleAgentEnv("toy_v0", opponents=pool, num_players=3)
    seats = set()
    for seed in range(12):
        _, info = env.reset(seed=seed)
        seats.add(info["seat"])
    assert len(drawn) == 12
    assert seats == {0, 1, 2}, "learner_seat=None must rotate the learner through every seat"


def test_single_agent_reset_never_hands_over_a_finished_game():
    """Toy game, 3 players, pile 5, seed 0: the learner drawn to seat 2 sees P0 and P1 take
    the whole pile before its turn. reset plays the next game instead, the same one for the
    same seed, and the learner has a move."""
    env = SingleAgentEnv("toy_v0", num_players=3, pile=5)
    obs, info = env.reset(seed=0)
    assert info["seat"] == 2
    assert not (env.aec.terminations[env.agent] or env.aec.truncations[env.agent])
    assert env.aec.agent_selection == env.agent and info["action_mask"].any()
    first = (obs.tolist(), env.aec._actions[:])
    obs, info = env.reset(seed=0)
    assert (obs.tolist(), env.aec._actions[:]) == first


def test_single_agent_reset_gives_up_with_a_clear_error(monkeypatch):
    import forest_envs.envs.gym_env as gym_env

    monkeypatch.setattr(gym_env, "MAX_GAMES_WITHOUT_A_TURN", 1)
    env = SingleAgentEnv("toy_v0", num_players=3, pile=5)
    with pytest.raises(RuntimeError, match="in 1 games in a row the opponents ended the game "
                                           "before seat 2 had a decision"):
        env.reset(seed=0)


@pytest.mark.parametrize("env_id", GAMES)
def test_single_agent_env_is_deterministic_given_a_seed(env_id):
    env = SingleAgentEnv(env_id)
    first = episode_trace(env, 10)
    episode_trace(env, 11)  # opponents' generators move on in between
    assert episode_trace(env, 10) == first
    assert episode_trace(SingleAgentEnv(env_id), 10) == first


def test_a_games_default_max_steps_truncates_when_the_option_is_not_given():
    from toy_game import ToyEnv, ToyGame

    class ShortToyGame(ToyGame):
        default_max_steps = 2

    class ShortToyEnv(ToyEnv):
        game_class = ShortToyGame

    env = ShortToyEnv(pile=7)
    totals, actions = play(env, seed=0)
    assert len(actions) == 2 and totals == {a: 0.0 for a in env.possible_agents}
    assert all(info["truncated"] and not info["winner"] for info in play.infos.values())
    longer = ShortToyEnv(pile=7, max_steps=4)  # the option, when given, wins
    _, actions = play(longer, seed=0)
    assert len(actions) == 4
