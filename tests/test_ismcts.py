"""The information-set MCTS agent (forest_envs/agents/search/ismcts.py): options by name, legal play
in every registered game, determinism for a seed, and that it reads only its seat's
information."""

from __future__ import annotations

import time

import numpy as np
import pytest
from engine_helpers import SeatOnlyEnv

from forest_envs.agents import make_agent
from forest_envs.agents.search.ismcts import DEFAULTS, ISMCTSAgent, parse_options
from forest_envs.benchmark.throughput import format_rows, run
from forest_envs.core.errors import ConfigError
from forest_envs.core.registry import env_ids, game_spec
from forest_envs.envs.registration import make_raw

GAMES = [e for e in env_ids() if e != "toy_v0"]
FAST = "ismcts:sims=12:depth=4"


# --- options by name ------------------------------------------------------------------------------
def test_options_parse_with_commas_or_colons():
    assert parse_options("") == DEFAULTS
    opts = parse_options("sims=400,time=0.5,rollout=heuristic,c=1.2,depth=none,reward=win,"
                         "prior=heuristic,widen=all,prior_at=root")
    assert opts == {"sims": 400, "time": 0.5, "rollout": "heuristic", "c": 1.2, "depth": None,
                    "reward": "win", "prior": "heuristic", "pick": "sample", "widen": "all",
                    "prior_at": "root", "search": "auto"}
    assert parse_options("sims=50:depth=0") == dict(DEFAULTS, sims=50, depth=0)
    assert parse_options("time=0.2") == dict(DEFAULTS, sims=None, time=0.2)  # time alone


@pytest.mark.parametrize("text, words", [
    ("simz=3", ["unknown ismcts option 'simz'", "sims", "time", "rollout", "depth", "reward"]),
    ("sims=0", ["sims='0'", "positive int"]),
    ("sims=x", ["sims='x'"]),
    ("time=-1", ["time='-1'", "> 0"]),
    ("rollout=greedy", ["rollout='greedy'", "random, heuristic"]),
    ("c=nan", ["c='nan'"]),
    ("depth=-2", ["depth='-2'"]),
    ("reward=money", ["reward='money'", "win, rank, score"]),
    ("prior=policy", ["prior='policy'", "none, heuristic"]),
    ("sims", ["needs a value"]),
    ("sims=3,sims=4", ["given twice"]),
    ("sims=none", ["needs a budget"]),
])
def test_bad_options_raise_naming_the_option(text, words):
    with pytest.raises(ValueError) as err:
        parse_options(text)
    for w in words:
        assert w in str(err.value)


def test_make_agent_builds_ismcts_by_name():
    agent = make_agent("chickwood_v0", "ismcts:sims=7:rollout=heuristic", seed=3)
    assert isinstance(agent, ISMCTSAgent)
    assert (agent.sims, agent.rollout, agent.heuristic) == (7, "heuristic",
                                                            game_spec("chickwood_v0").heuristic)
    assert isinstance(make_agent("toy_v0", "ismcts", seed=1), ISMCTSAgent)
    with pytest.raises(ConfigError, match="rollout=heuristic needs the game's heuristic"):
        make_agent("toy_v0", "ismcts:rollout=heuristic")
    with pytest.raises(ConfigError, match=r"prior=heuristic needs the game's heuristic.*prior=none"):
        make_agent("toy_v0", "ismcts:prior=heuristic")
    with pytest.raises(ConfigError, match="unknown ismcts option"):
        make_agent("chickwood_v0", "ismcts:bogus=1")
    with pytest.raises(ConfigError, match=r"ismcts\[:options\]"):
        make_agent("chickwood_v0", "ismcts2")


# --- play -----------------------------------------------------------------------------------------
def play(env_id, specs, seed, max_steps=None, env_wrapper=None, **config):
    """Seeded game with one agent per seat (their seeds 100+seat); returns the actions."""
    env = make_raw(env_id, **config)
    env.reset(seed=seed)
    agents = [make_agent(env_id, s, seed=100 + i) for i, s in enumerate(specs)]
    state, actions = env.engine_state, []
    while not state.is_terminal and (max_steps is None or len(actions) < max_steps):
        agent = env.agent_selection
        seat = env.possible_agents.index(agent)
        a = agents[seat].act(env if env_wrapper is None else env_wrapper(env), agent)
        assert env.action_mask(agent)[a] == 1, (env_id, state.game.action_names[a])
        env.step(a)
        actions.append(a)
        state = env.engine_state
    return actions


@pytest.mark.parametrize("env_id", GAMES)
def test_never_plays_an_illegal_move(env_id):
    n = game_spec(env_id).bench_configs[0].get("num_players", 3)
    # every seat searches; a whole game where it is short, else its first 80 actions
    play(env_id, [FAST] * n, seed=5, max_steps=80, num_players=n)


@pytest.mark.parametrize("env_id", GAMES)
def test_never_plays_an_illegal_move_with_the_heuristic_prior(env_id):
    n = game_spec(env_id).bench_configs[0].get("num_players", 3)
    play(env_id, [FAST + ":prior=heuristic"] * n, seed=6, max_steps=60, num_players=n)


def test_plays_a_whole_game_with_heuristic_rollouts_and_a_toy_game_to_the_end():
    play("chickwood_v0", ["ismcts:sims=4:rollout=heuristic:depth=3", "random"], seed=2,
         num_players=2)
    play("toy_v0", ["ismcts:sims=30:depth=none", "ismcts:sims=30:reward=win"], seed=1)


def test_same_seed_same_game_and_another_seed_another():
    specs = [FAST, "random", FAST]
    first = play("chickwood_v0", specs, seed=9, max_steps=60, num_players=3)
    assert play("chickwood_v0", specs, seed=9, max_steps=60, num_players=3) == first
    env = make_raw("chickwood_v0", num_players=3)
    env.reset(seed=9)
    while env.action_mask(env.agent_selection).sum() < 2:  # a real decision
        env.step(int(np.flatnonzero(env.action_mask(env.agent_selection))[0]))
    # one simulation tries one action at random: the seed decides it
    picks = {ISMCTSAgent(s, sims=1).act(env, env.agent_selection) for s in range(8)}
    assert len(picks) > 1


def test_time_budget_stops_the_search():
    env = make_raw("chickwood_v0", num_players=3)
    env.reset(seed=4)
    agent = ISMCTSAgent(0, sims=None, time=0.1)
    while env.action_mask(env.agent_selection).sum() < 2:
        env.step(int(np.flatnonzero(env.action_mask(env.agent_selection))[0]))
    t = time.perf_counter()
    agent.act(env, env.agent_selection)
    assert time.perf_counter() - t < 1.0 and agent.last_sims >= 1


# --- it reads only its seat's information ---------------------------------------------------------
class DeterminizingState:
    """All of the true state a seat-only search may touch: ``resample_hidden`` from that
    seat. Anything else (the buffer, hands, the deck, another seat's determinization)
    raises."""

    def __init__(self, state, seat):
        self._state, self._seat = state, seat

    def resample_hidden(self, seat, rng):
        assert seat == self._seat, f"determinized from seat {seat}, not its own {self._seat}"
        return self._state.resample_hidden(seat, rng)


class SearchSeatOnlyEnv(SeatOnlyEnv):
    """The seat's view and mask, the public step limit and a determinizing state only."""

    def steps_left(self):
        return self._env.steps_left()

    @property
    def engine_state(self):
        env = self._env
        return DeterminizingState(env.engine_state, env.possible_agents.index(env.agent_selection))


@pytest.mark.parametrize("env_id", GAMES)
def test_touches_the_true_state_only_to_determinize_from_its_own_seat(env_id):
    n = game_spec(env_id).bench_configs[0].get("num_players", 3)
    play(env_id, [FAST] * n, seed=3, max_steps=40, env_wrapper=SearchSeatOnlyEnv, num_players=n)


@pytest.mark.parametrize("env_id", GAMES)
def test_states_differing_only_in_what_the_seat_cannot_see_give_the_same_action(env_id):
    """Two true states that differ only in what the seat cannot see lead to the same
    determinizations and so to the same action for the same agent seed: nothing but the
    determinization from the seat is read."""
    n = game_spec(env_id).bench_configs[0].get("num_players", 3)
    differed = 0
    for seed in range(6):
        state = make_raw(env_id, num_players=n).game.new_initial_state(seed)
        rng = np.random.default_rng(seed)
        for _ in range(5 + 7 * seed):
            if state.is_terminal:
                break
            state.apply(int(rng.choice(np.flatnonzero(state.legal_action_mask()))))
        if state.is_terminal:
            continue
        seat = state.current_player
        other = state.resample_hidden(seat, np.random.default_rng(1000 + seed))
        differed += other.to_dict() != state.to_dict()
        np.testing.assert_array_equal(other.observation(seat), state.observation(seat))
        same = [s.resample_hidden(seat, np.random.default_rng(7)).to_dict() for s in (state, other)]
        assert same[0] == same[1]
        picks = [ISMCTSAgent(seed, sims=30).search(s, seat) for s in (state, other)]
        assert picks[0] == picks[1]
    assert differed


# --- the benchmark row -------------------------------------------------------------------------
def test_bench_has_an_ismcts_simulations_row():
    out = format_rows(run(0.02, games=["toy_v0"]))
    assert "ismcts" in out and "simulations/s" in out


# --- the heuristic prior --------------------------------------------------------------------------
def test_one_simulation_with_the_heuristic_prior_plays_the_heuristic_move():
    # Chickwood's heuristic is a function of the seat's view: the prior's first expansion,
    # made in a determinization the seat cannot tell from the true state, is the same move.
    env = make_raw("chickwood_v0", num_players=3)
    env.reset(seed=4)
    heuristic = make_agent("chickwood_v0", "heuristic", seed=0)
    searcher = make_agent("chickwood_v0", "ismcts:sims=1,prior=heuristic", seed=0)
    blind = make_agent("chickwood_v0", "ismcts:sims=1", seed=0)
    searched = differs = 0
    while not env.engine_state.is_terminal:
        agent = env.agent_selection
        move = heuristic.act(env, agent)
        if env.action_mask(agent).sum() > 1:
            assert searcher.act(env, agent) == move
            assert searcher.last_visits == {move: 1}
            differs += blind.act(env, agent) != move
            searched += 1
        env.step(move)
    assert searched > 60 and differs > searched // 2  # without the prior: a random first try


def test_the_heuristic_prior_widens_by_the_square_root_of_the_visits():
    env = make_raw("sherwood_v0", num_players=4)
    env.reset(seed=1)
    agent = env.agent_selection
    legal = int(env.action_mask(agent).sum())
    assert legal > 60  # the first preparation: most of the map
    wide = make_agent("sherwood_v0", "ismcts:sims=100,depth=4", seed=0)
    wide.act(env, agent)
    assert len(wide.last_visits) == min(100, legal)  # every action tried before any twice
    narrow = make_agent("sherwood_v0", "ismcts:sims=100,depth=4,prior=heuristic", seed=0)
    narrow.act(env, agent)
    # a root visited n times has tried fewer than 1 + sqrt(n) actions before its last one
    assert 2 <= len(narrow.last_visits) <= 11
    assert sum(narrow.last_visits.values()) == 100
    heuristic = make_agent("sherwood_v0", "heuristic", seed=0)
    assert heuristic.act(env, agent) in narrow.last_visits
