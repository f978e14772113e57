"""ismcts with a policy as its prior and/or rollout policy (``ismcts:prior=ppo``,
``rollout=<file.npz>``): options and their errors, that the default search is unchanged,
that a uniform policy prior is plain UCT exactly, the prior's expansion order, determinism
for a seed, and that a policy is given nothing but observations of determinizations (at the
root, the searching seat's own)."""

from __future__ import annotations

import random

import numpy as np
import pytest
from test_ismcts import DeterminizingState, SearchSeatOnlyEnv

from forest_envs.agents import make_agent
from forest_envs.agents.policy import check_agent_fits
from forest_envs.agents.search.ismcts import ISMCTSAgent, _policy_action, parse_options
from forest_envs.core.errors import ConfigError
from forest_envs.envs.registration import make_raw
from forest_envs.train.export import save_policy_arrays

SEATS = {"chickwood_v0": 3, "roundforest_v0": 3, "sherwood_v0": 4}

# Moves of the default search and of its heuristic options, recorded before policies came
# (each game at its first benchmark config, game seed 5, agent seeds 100 + seat, 30 actions),
# by the Python search (search=python: on a native state the default is the native search,
# which draws its own numbers; tests/test_native_search.py pins its moves).
FROZEN = {'chickwood_v0 ismcts:sims=12:depth=4': [42, 30, 55, 49, 86, 81, 73, 92, 62, 140, 147, 150, 149,
                                         138, 139, 6, 30, 1, 49, 49, 81, 87, 62, 14, 139, 138, 140,
                                         12, 18, 37],
 'chickwood_v0 ismcts:sims=12:depth=4:prior=heuristic': [43, 32, 54, 48, 85, 61, 74, 92, 81, 140,
                                                         150, 147, 139, 150, 138, 32, 9, 3, 48, 48,
                                                         13, 63, 86, 81, 139, 138, 140, 146, 18,
                                                         12],
 'chickwood_v0 ismcts:sims=6:depth=3:rollout=heuristic': [42, 31, 54, 49, 85, 62, 75, 92, 81, 138,
                                                          139, 146, 140, 146, 147, 1, 9, 30, 13, 48,
                                                          49, 80, 86, 62, 141, 140, 147, 138, 13,
                                                          19],
 'roundforest_v0 ismcts:sims=12:depth=4': [6, 73, 11, 73, 34, 73, 8, 23, 73, 58, 90, 2, 83, 17, 73,
                                           16, 37, 81, 239, 47, 74, 10, 93, 7, 101, 23, 105, 11, 73,
                                           6],
 'roundforest_v0 ismcts:sims=12:depth=4:prior=heuristic': [6, 238, 4, 73, 34, 81, 7, 93, 10, 90, 58,
                                                           108, 8, 128, 11, 81, 23, 82, 238, 2, 73,
                                                           10, 123, 17, 74, 4, 91, 9, 74, 16],
 'roundforest_v0 ismcts:sims=6:depth=3:rollout=heuristic': [1, 73, 4, 73, 34, 73, 38, 73, 3, 81, 64,
                                                            124, 141, 4, 81, 239, 2, 87, 16, 10, 88,
                                                            3, 81, 238, 17, 83, 238, 11, 73, 1],
 'sherwood_v0 ismcts:sims=12:depth=4': [1, 61, 98, 53, 68, 1, 42, 42, 352, 351, 353, 350, 354, 52,
                                        42, 43, 1, 42, 49, 42, 44, 43, 1, 74, 42, 42, 43, 350, 351,
                                        352],
 'sherwood_v0 ismcts:sims=12:depth=4:prior=heuristic': [53, 154, 242, 246, 285, 181, 246, 254, 285,
                                                        285, 75, 351, 361, 352, 353, 354, 350, 49,
                                                        0, 53, 42, 44, 43, 49, 82, 44, 123, 58, 66,
                                                        350],
 'sherwood_v0 ismcts:sims=6:depth=3:rollout=heuristic': [203, 242, 242, 246, 285, 61, 171, 242, 246,
                                                         285, 115, 0, 1, 0, 43, 352, 354, 350, 351,
                                                         353, 50, 85, 43, 1, 42, 91, 59, 106, 44,
                                                         114]}


def policy_file(tmp_path, env_id, hidden=8, scale=0.0, bias=None, num_players=None):
    """A small MLP policy of ``env_id``'s sizes written by the trainer's writer: uniform
    (``scale=0``, no ``bias``), random weights (``scale``) or one fixed preference (``bias``
    over the actions)."""
    game = make_raw(env_id, num_players=num_players or SEATS[env_id]).game
    rng = np.random.default_rng(0)
    arrays = {"w0": (rng.normal(size=(game.observation_size, hidden)) * scale).astype(np.float32),
              "b0": np.zeros(hidden, np.float32),
              "w_out": (rng.normal(size=(hidden, game.num_actions)) * scale).astype(np.float32),
              "b_out": (np.zeros(game.num_actions) if bias is None else bias).astype(np.float32),
              "activation": np.array("Tanh")}
    return str(save_policy_arrays(arrays, tmp_path / f"{env_id}-{hidden}-{scale}-{bias is None}.npz"))


def play(env_id, specs, seed, max_steps, env_wrapper=None):
    env = make_raw(env_id, num_players=len(specs))
    env.reset(seed=seed)
    agents = [make_agent(env_id, s, seed=100 + i) for i, s in enumerate(specs)]
    for a in agents:
        check_agent_fits(a, env)
    actions = []
    while not env.engine_state.is_terminal and len(actions) < max_steps:
        agent = env.agent_selection
        a = agents[env.possible_agents.index(agent)].act(
            env if env_wrapper is None else env_wrapper(env), agent)
        assert env.action_mask(agent)[a] == 1
        env.step(a)
        actions.append(a)
    return actions


def first_decision(env_id, seed=4):
    """An env at its first decision with at least two legal actions."""
    env = make_raw(env_id, num_players=SEATS[env_id])
    env.reset(seed=seed)
    while env.action_mask(env.agent_selection).sum() < 2:
        env.step(int(np.flatnonzero(env.action_mask(env.agent_selection))[0]))
    return env


# --- the default search is unchanged -----------------------------------------------------------
@pytest.mark.parametrize("key", sorted(FROZEN))
def test_the_search_without_a_policy_plays_the_moves_it_played_before(key):
    env_id, spec = key.split()
    assert play(env_id, [spec + ":search=python"] * SEATS[env_id], seed=5, max_steps=30) == FROZEN[key]


# --- options and their errors ------------------------------------------------------------------
def test_policy_options_parse():
    opts = parse_options("prior=ppo,rollout=runs/a/final.npz:pick=greedy:widen=all:prior_at=root")
    assert (opts["prior"], opts["rollout"], opts["pick"], opts["widen"], opts["prior_at"]) == (
        "ppo", "runs/a/final.npz", "greedy", "all", "root")
    assert parse_options("rollout=model.zip")["rollout"] == "model.zip"


@pytest.mark.parametrize("text, words", [
    ("prior=policy.txt", ["prior='policy.txt'", "none, heuristic, ppo or a policy file (.npz / .zip)"]),
    ("rollout=ppo2", ["rollout='ppo2'", "random, heuristic, ppo or a policy file"]),
    ("pick=best", ["pick='best'", "sample, greedy"]),
    ("widen=some", ["widen='some'", "sqrt, all"]),
    ("prior_at=leaves", ["prior_at='leaves'", "all, root"]),
    ("priors=ppo", ["unknown ismcts option 'priors'", "pick", "widen", "prior_at"]),
    ("pick=greedy", ["pick=greedy is for a policy rollout", "rollout is random"]),
    ("rollout=heuristic,pick=sample", ["pick=sample is for a policy rollout", "rollout is heuristic"]),
    ("widen=all", ["widen=all is for a search with a prior", "prior=none"]),
    ("prior_at=root", ["prior_at=root is for a search with a prior"]),
])
def test_bad_policy_options_raise_naming_the_option(text, words):
    with pytest.raises(ConfigError) as err:
        parse_options(text)
    for w in words:
        assert w in str(err.value)


def test_a_policy_that_is_missing_or_does_not_fit_is_a_clear_error(tmp_path):
    with pytest.raises(ConfigError, match=r"policy file '.*nowhere\.npz' does not exist"):
        make_agent("chickwood_v0", f"ismcts:prior={tmp_path}/nowhere.npz")
    junk = tmp_path / "junk.npz"
    junk.write_text("not a policy")
    with pytest.raises(ConfigError, match="not a zip archive"):
        make_agent("chickwood_v0", f"ismcts:rollout={junk}")
    # a Roundforest policy for Chickwood: refused before any game, naming both sizes
    agent = make_agent("chickwood_v0", f"ismcts:prior={policy_file(tmp_path, 'roundforest_v0')}")
    env = make_raw("chickwood_v0", num_players=3)
    rf_size = make_raw("roundforest_v0", num_players=3).observation_space("player_0")["observation"].shape[0]
    with pytest.raises(ConfigError, match=f"expects observations of {rf_size} floats and 240 actions; "
                                          "chickwood_v0 with num_players=3, legendary=False gives 1425 and 280"):
        check_agent_fits(agent, env)
    # ... and at its first move when nobody checked
    env = first_decision("chickwood_v0")
    with pytest.raises(ConfigError, match=f"expects observations of {rf_size} floats"):
        agent.act(env, env.agent_selection)
    # a 3-player policy for a 4-player game
    four = make_raw("chickwood_v0", num_players=4)
    with pytest.raises(ConfigError, match="gives 1692 and 280"):
        check_agent_fits(make_agent("chickwood_v0", f"ismcts:rollout={policy_file(tmp_path, 'chickwood_v0')}"),
                         four)
    with pytest.raises(ConfigError, match="prior=ppo needs a policy loader"):
        ISMCTSAgent(0, prior="ppo")
    with pytest.raises(ConfigError, match="an object with logits"):
        ISMCTSAgent(0, rollout=object())


def test_the_cli_keeps_a_policy_path_option_with_its_search():
    from forest_envs.cli.args import agent_list as _agent_list

    assert _agent_list("ismcts:sims=100,prior=runs/a b/final.npz,rollout=ppo,heuristic,runs/p.npz") == [
        "ismcts:sims=100,prior=runs/a b/final.npz,rollout=ppo", "heuristic", "runs/p.npz"]


def test_prior_and_rollout_naming_one_policy_share_it(tmp_path):
    path = policy_file(tmp_path, "chickwood_v0")
    agent = make_agent("chickwood_v0", f"ismcts:prior={path},rollout={path}")
    assert agent.prior_policy is agent.rollout_policy and agent.prior == path


# --- what the prior does -----------------------------------------------------------------------
@pytest.mark.parametrize("env_id", sorted(SEATS))
def test_a_uniform_policy_prior_is_plain_uct_exactly(env_id, tmp_path):
    """With every legal action equally likely, expansion order is uniform at random and the
    exploration weights are all 1.0: the same moves and the same root visits, bit for bit."""
    uniform = policy_file(tmp_path, env_id)
    env = make_raw(env_id, num_players=SEATS[env_id])
    env.reset(seed=3)
    plain = make_agent(env_id, "ismcts:sims=40,depth=5", seed=1)
    guided = make_agent(env_id, f"ismcts:sims=40,depth=5,prior={uniform},widen=all", seed=1)
    searched = 0
    while not env.engine_state.is_terminal and searched < 12:
        agent = env.agent_selection
        move = plain.act(env, agent)
        assert guided.act(env, agent) == move and guided.last_visits == plain.last_visits
        searched += bool(plain.last_visits)
        env.step(move)
    assert searched == 12


def test_the_policy_prior_expands_in_the_order_of_its_probabilities(tmp_path):
    env = first_decision("sherwood_v0", seed=1)
    agent = env.agent_selection
    legal = np.flatnonzero(env.action_mask(agent))
    assert legal.size > 60
    order = np.random.default_rng(5).permutation(596).astype(np.float64)  # distinct logits
    path = policy_file(tmp_path, "sherwood_v0", bias=order / 50)
    ranked = [int(a) for a in legal[np.argsort(-order[legal])]]
    one = make_agent("sherwood_v0", f"ismcts:sims=1,depth=3,prior={path}", seed=0)
    one.act(env, agent)
    assert one.last_visits == {ranked[0]: 1}  # one simulation: the policy's most likely move
    narrow = make_agent("sherwood_v0", f"ismcts:sims=100,depth=3,prior={path}", seed=0)
    narrow.act(env, agent)
    tried = len(narrow.last_visits)
    assert 2 <= tried <= 11 and set(narrow.last_visits) == set(ranked[:tried])  # the top ones
    wide = make_agent("sherwood_v0", f"ismcts:sims=100,depth=3,prior={path},widen=all", seed=0)
    wide.act(env, agent)
    assert len(wide.last_visits) == min(100, legal.size)


class Counting:
    """A policy that records the observations it is given."""

    def __init__(self, policy):
        self.policy, self.seen = policy, []

    def logits(self, observation):
        self.seen.append(observation.copy())
        return self.policy.logits(observation)


def test_the_prior_is_computed_once_per_node_and_at_the_root_only_if_asked(tmp_path):
    path = policy_file(tmp_path, "chickwood_v0", scale=0.1)
    env = first_decision("chickwood_v0")
    agent = env.agent_selection
    for where, calls in (("root", lambda n: n == 1), ("all", lambda n: 1 < n <= 60)):
        spy = Counting(make_agent("chickwood_v0", path).policy)
        ISMCTSAgent(0, sims=60, depth=3, prior=spy, prior_at=where).act(env, agent)
        assert calls(len(spy.seen)), (where, len(spy.seen))
        # the root's prior: the searching seat's own observation, as the env gives it
        np.testing.assert_array_equal(spy.seen[0], env.observe(agent)["observation"])


# --- policy rollouts ---------------------------------------------------------------------------
def test_greedy_and_sampled_policy_rollouts(tmp_path):
    env = first_decision("chickwood_v0")
    agent = env.agent_selection
    spy = Counting(make_agent("chickwood_v0", policy_file(tmp_path, "chickwood_v0", scale=0.1)).policy)
    ISMCTSAgent(0, sims=10, depth=4, rollout=spy).act(env, agent)
    assert 10 <= len(spy.seen) <= 40  # up to depth policy moves per simulation, none in the tree
    # a rollout move: greedy is the most likely legal action, sample draws by the probabilities
    state = env.engine_state
    legal = np.flatnonzero(state.legal_action_mask())
    bias = np.zeros(280)
    bias[legal[:2]] = (1.0, np.log(3.0))  # p(legal[0]) : p(legal[1]) = e : 3; the rest ~ 0
    bias[legal[2:]] = -30.0
    favour = make_agent("chickwood_v0", policy_file(tmp_path, "chickwood_v0", bias=bias))
    assert _policy_action(favour, state, True, random.Random(0).random) == legal[1]  # log 3 > 1
    draw = random.Random(0).random
    picks = [_policy_action(favour, state, False, draw) for _ in range(400)]
    assert set(picks) == set(legal[:2].tolist())
    assert picks.count(legal[1]) == pytest.approx(400 * 3.0 / (np.e + 3.0), abs=30)


@pytest.mark.parametrize("env_id", sorted(SEATS))
def test_policy_search_is_deterministic_for_a_seed_and_legal(env_id, tmp_path):
    path = policy_file(tmp_path, env_id, scale=0.1)
    specs = [f"ismcts:sims=8,depth=4,prior={path},rollout={path}"] + ["random"] * (SEATS[env_id] - 1)
    first = play(env_id, specs, seed=2, max_steps=30)
    assert play(env_id, specs, seed=2, max_steps=30) == first
    greedy = [specs[0] + ",pick=greedy,prior_at=root"] + specs[1:]
    assert play(env_id, greedy, seed=2, max_steps=30) == play(env_id, greedy, seed=2, max_steps=30)


# --- it reads only its seat's information ------------------------------------------------------
@pytest.mark.parametrize("env_id", sorted(SEATS))
def test_a_policy_search_touches_the_true_state_only_to_determinize(env_id, tmp_path):
    path = policy_file(tmp_path, env_id, scale=0.1)
    spec = f"ismcts:sims=8,depth=3,prior={path},rollout={path}"
    play(env_id, [spec] * SEATS[env_id], seed=3, max_steps=25, env_wrapper=SearchSeatOnlyEnv)
    assert DeterminizingState  # the stand-in state the wrapper hands the agent


@pytest.mark.parametrize("env_id", sorted(SEATS))
def test_states_differing_only_in_hidden_information_give_the_same_policy_search(env_id, tmp_path):
    """The policy sees the same observations and the search makes the same move whether the
    true state is one deal of what the seat cannot see or another."""
    path = policy_file(tmp_path, env_id, scale=0.1)
    n = SEATS[env_id]
    compared = differed = 0
    for seed in range(4):
        state = make_raw(env_id, num_players=n).game.new_initial_state(seed)
        rng = np.random.default_rng(seed)
        for _ in range(6 + 9 * seed):
            if state.is_terminal:
                break
            state.apply(int(rng.choice(np.flatnonzero(state.legal_action_mask()))))
        if state.is_terminal or state.legal_action_mask().sum() < 2:
            continue
        seat = state.current_player
        other = state.resample_hidden(seat, np.random.default_rng(1000 + seed))
        differed += other.to_dict() != state.to_dict()
        runs = []
        for s in (state, other):
            spy = Counting(make_agent(env_id, path).policy)
            move = ISMCTSAgent(seed, sims=20, depth=4, prior=spy, rollout=spy).search(s, seat)
            runs.append((move, spy.seen))
        assert runs[0][0] == runs[1][0]
        assert len(runs[0][1]) == len(runs[1][1])
        assert all(np.array_equal(a, b) for a, b in zip(runs[0][1], runs[1][1]))
        np.testing.assert_array_equal(runs[0][1][0], state.observation(seat))  # the root's: its own
        compared += 1
    assert compared >= 2 and differed
