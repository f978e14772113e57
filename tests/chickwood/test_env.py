"""Chickwood Forest through the env adapters: what the generic suites of tests/test_env_api.py
cannot know (its option words, error reasons, scores and their breakdown, its text picture,
its heuristic as an opponent)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from random_play import advance, episode_trace, play

import forest_envs
from forest_envs import IllegalActionError
from forest_envs.agents import make_agent
from forest_envs.agents.base import RandomAgent
from forest_envs.chickwood import raw_env
from forest_envs.core.results import REWARD_MODES, competition_ranks, returns_from_ranks
from forest_envs.envs.gym_env import SingleAgentEnv

ENV_ID = "chickwood_v0"
CONFIGS = [(n, leg) for n in (2, 3, 4, 5) for leg in (False, True)]
CONFIG_IDS = [f"{n}p{'-legendary' if leg else ''}" for n, leg in CONFIGS]
NUM_ACTIONS = 280


# --- illegal actions ----------------------------------------------------------------------------
def _raid_phase_env():
    """An env in the raid phase after the first raid of a round (castles already raided)."""
    env = forest_envs.make(ENV_ID, num_players=3)
    env.reset(seed=3)
    agent = RandomAgent(3)
    state = env.unwrapped.engine_state
    while not (state.decision_name() == "raid" and state.step >= 1):
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
    ({"render_mode": "rgb"}, ["render_mode='rgb'", "'ansi', 'human', 'rgb_array'"]),
])
def test_bad_config_raises_value_error_naming_the_problem(config, words):
    for factory in (lambda: forest_envs.make(ENV_ID, **config), lambda: raw_env(**config),
                    lambda: SingleAgentEnv(ENV_ID, **config)):
        with pytest.raises(ValueError) as err:
            factory()
        for word in words:
            assert word in str(err.value), (word, str(err.value))


@pytest.mark.parametrize(("num_players", "legendary"), CONFIGS, ids=CONFIG_IDS)
def test_end_infos_match_scores(num_players, legendary):
    env = forest_envs.make(ENV_ID, num_players=num_players, legendary=legendary)
    env.reset(seed=21)
    advance(env, 10**6, agent_seed=2)
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
        parts = {k: v for k, v in info["breakdown"].items()
                 if k not in ("total", "busts", "village_glory")}
        assert sum(parts.values()) == info["score"]
        assert sum(info["breakdown"]["village_glory"].values()) == info["breakdown"]["villages"]
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
        expected = returns_from_ranks(competition_ranks(totals), mode, totals, 10.0)
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
    advance(env, 10**6)
    final = env.render()
    assert "Final scores" in final


def test_render_human_prints_the_table_as_moves_are_played(capsys):
    env = forest_envs.make(ENV_ID, num_players=2, render_mode="human")
    env.reset(seed=0)
    assert env.render() is None and capsys.readouterr().out == ""
    env.step(env.unwrapped.engine_state.legal_actions()[0])
    out = capsys.readouterr().out
    assert out.count("Chickwood Forest") == 2 and "Villages:" in out and "\nP1: " in out


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
        assert sum(v["hand"]) == int(state.hand[seat].sum())
        assert v["hand"] == full["hands"][seat]
        for castle in v["castles"].values():
            assert "face_down" not in castle  # only one's own face-down cards ("my_face_down")
        json.dumps(v)  # plain Python data
        text = raw.render_text(name)
        assert "(you)" in text and "Hand P" not in text
        # A state differing only in what this seat cannot know shows the same view.
        other = state.resample_hidden(seat, np.random.default_rng(seat))
        assert other.view(seat) == v
        assert other.render(seat) == text


def test_single_agent_env_with_heuristic_opponents_is_deterministic_given_a_seed():
    # Scripted opponents are reseeded from the env's generator (their reset takes a seed);
    # random opponents are covered for every game in tests/test_env_api.py.
    def heuristic_env():
        return SingleAgentEnv(ENV_ID, num_players=3, legendary=True,
                              opponents=[make_agent(ENV_ID, "heuristic", seed=i) for i in range(2)])

    env = heuristic_env()
    first = episode_trace(env, 3)
    episode_trace(env, 4)
    assert episode_trace(env, 3) == first == episode_trace(heuristic_env(), 3)


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
            assert expected == pytest.approx(
                returns_from_ranks(competition_ranks(totals), mode, totals, 10.0)[seat])
            assert info["score"] == totals[seat] and info["rank"] == state.ranks()[seat]
            informative += any(r != expected for r in state.returns(mode))
    # The check has teeth only if other seats' returns differ from the learner's.
    assert informative >= num_players
    assert max_gap >= num_players - 1, "opponents should move between the learner's turns"
    assert ended_by == {"learner", "opponent"}, ended_by


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


def test_view_lists_the_castles_each_player_raided():
    env = forest_envs.make(ENV_ID, num_players=3)
    env.reset(seed=4)
    agent = RandomAgent(4)
    expected = {p: [] for p in range(3)}
    while not env.unwrapped.engine_state.is_terminal:
        state = env.unwrapped.engine_state
        a = agent.act(env, env.agent_selection)
        name = env.unwrapped.action_to_string(a)
        raider = state.current_player
        env.step(a)
        if name.startswith("raid castle") and state.decision_name() != "key":
            expected[raider].append(int(name.split()[-1]))
    view = env.unwrapped.view("player_1")
    assert [pl["raids"] for pl in view["players"]] == [expected[p] for p in range(3)]
    rounds = int(env.unwrapped.engine_state.round_no[0])
    assert all(len(expected[p]) == rounds for p in range(3))
    board = " ".join(env.unwrapped.render_text("player_1").split())  # long lines are wrapped
    for p in range(3):
        assert f"raided {' '.join(map(str, expected[p]))}, glory" in board


def test_board_names_players_as_the_log_does_and_shows_alms_to_place():
    env = forest_envs.make(ENV_ID, num_players=3)
    env.reset(seed=4)
    agent = RandomAgent(1)
    while env.unwrapped.engine_state.decision_name() != "alms":
        env.step(agent.act(env, env.agent_selection))
    state = env.unwrapped.engine_state
    left = state.decision_view()["data"]["alms_left"]
    board = env.unwrapped.render_text(env.agent_selection)
    header = board.splitlines()[0]
    assert header.endswith(f"P{state.current_player} to move")
    sentence = state.prompt(state.current_player)  # in lines of at most 80 columns
    assert board.startswith(f"{header}\nCastles:")
    # the board ends with the pending decision, right above a list of moves
    assert " ".join(board.split()).endswith("Now: " + " ".join(sentence.split()))
    to_move = " ".join(sentence.split())
    assert to_move.startswith(f"P{state.current_player} gives {left} alms")
    legend = env.unwrapped.legend()
    assert "banner" in legend and "~forest~" in legend
