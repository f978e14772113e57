"""The native ismcts (core/native/search.hpp, agents/search/native.py): which search runs and
why, the same algorithm as the Python search (statistical agreement: clear moves, visit
distributions, mean values; a uniform policy prior is plain UCT), determinism for a seed,
the tree's invariants, the budgets, the reward modes, the policy network in C++, and errors
for bad options. The long comparisons are behind ``slow``.

Where the extension is not built the tests skip, saying why, except under
``FOREST_ENVS_REQUIRE_NATIVE=1`` (``make test``), where a missing engine fails."""

from __future__ import annotations

import numpy as np
import pytest
from test_ismcts_policy import policy_file
from test_native_engines import native_or_skip

from forest_envs.agents import make_agent
from forest_envs.agents.search.ismcts import ISMCTSAgent
from forest_envs.agents.search.native import plain_mlp
from forest_envs.core.errors import ConfigError
from forest_envs.envs.registration import make_raw

ENV = "chickwood_v0"


@pytest.fixture(autouse=True)
def _native_chickwood():
    native_or_skip(ENV)


def state_after(seed: int, moves: int, engine: str = "native"):
    """Chickwood (3 players) after ``moves`` uniform random actions from ``seed`` (or at its
    end)."""
    state = make_raw(ENV, num_players=3).game.new_initial_state(seed, engine)
    rng = np.random.default_rng(seed)
    for _ in range(moves):
        if state.is_terminal:
            break
        state.apply(int(rng.choice(np.flatnonzero(state.legal_action_mask()))))
    return state


def decisions(seed: int, every: int = 1):
    """The states of a seeded random game at which the player to move has a choice."""
    state = state_after(seed, 0)
    rng = np.random.default_rng(seed)
    count = 0
    while not state.is_terminal:
        legal = np.flatnonzero(state.legal_action_mask())
        if legal.size > 1:
            if count % every == 0:
                yield state.clone()
            count += 1
        state.apply(int(rng.choice(legal)))


def search(state, seed: int = 0, **options) -> ISMCTSAgent:
    """An agent that has searched ``state`` for its player to move (its result in last_*)."""
    steps_left = options.pop("steps_left", None)
    agent = ISMCTSAgent(seed, **options)
    agent.last_move = agent.search(state, state.current_player, steps_left)
    return agent


def run(state, seed=0, sims=200, seconds=0.0, c=0.7, depth=20, steps_left=-1, reward="rank",
        score_scale=10.0, prior=None, prior_at_root_only=False, widen_all=False, rollout=None,
        greedy=False, keep_tree=True, seat=None):
    """The binding called directly (every option spelled out)."""
    return state._ismcts(state.current_player if seat is None else seat, seed, sims, seconds, c, depth,
                         steps_left, reward, score_scale, prior, prior_at_root_only, widen_all, rollout,
                         greedy, keep_tree)


# --- which search runs ----------------------------------------------------------------------------
def test_the_native_search_runs_where_it_can_and_the_agent_says_which_ran(tmp_path):
    env = make_raw(ENV, num_players=3)  # the default engine: native where built
    env.reset(seed=1)
    agent_name = env.agent_selection
    agent = make_agent(ENV, "ismcts:sims=50", seed=0)
    agent.act(env, agent_name)
    assert (agent.last_search, agent.last_search_note, agent.last_sims) == ("native", "", 50)
    assert sum(agent.last_visits.values()) == 50
    python_env = make_raw(ENV, num_players=3, engine="python")
    python_env.reset(seed=1)
    agent.act(python_env, agent_name)
    assert agent.last_search == "python" and "not a native engine's state" in agent.last_search_note
    heuristic = make_agent(ENV, "ismcts:sims=5,depth=2,rollout=heuristic", seed=0)
    heuristic.act(env, agent_name)
    assert heuristic.last_search == "python" and "rollout=heuristic" in heuristic.last_search_note
    forced = make_agent(ENV, "ismcts:sims=50,search=python", seed=0)
    forced.act(env, agent_name)
    assert (forced.last_search, forced.last_search_note) == ("python", "search=python")
    # a policy the native search cannot evaluate: a cell network, or another object with logits
    cells = make_agent("roundforest_v0", "ppo").policy
    assert cells.cells is not None and plain_mlp(cells) is None

    class Wrapped:
        def logits(self, observation):
            return np.zeros(280)

    wrapped = ISMCTSAgent(0, sims=5, prior=Wrapped())
    wrapped.act(env, agent_name)
    assert wrapped.last_search == "python" and "prior=Wrapped" in wrapped.last_search_note
    assert make_agent(ENV, f"ismcts:prior={policy_file(tmp_path, ENV)}").python_only == []


def test_search_native_is_an_error_where_the_native_search_cannot_run():
    with pytest.raises(ConfigError, match=r"search=native cannot run rollout=heuristic .*search=auto"):
        make_agent(ENV, "ismcts:rollout=heuristic,search=native")
    with pytest.raises(ConfigError, match="search=native cannot run prior=heuristic"):
        make_agent(ENV, "ismcts:prior=heuristic,search=native")
    with pytest.raises(ConfigError, match="search='fast'.*auto, native, python"):
        make_agent(ENV, "ismcts:search=fast")
    with pytest.raises(ConfigError, match="search 'fast' must be one of auto, native, python"):
        ISMCTSAgent(0, search="fast")
    state = state_after(1, 0, engine="python")
    with pytest.raises(ConfigError, match="cannot search this decision: the state searched .* not a native"):
        search(state, search="native", sims=5)


# --- the same algorithm as the Python search ------------------------------------------------------
def test_where_the_best_move_is_clear_both_searches_pick_it():
    """Positions of two random games where the native search puts most of its simulations on
    one move: the Python search picks the same move, with a similar mean reward."""
    compared = 0
    for seed in (2, 3):
        for state in decisions(seed, every=3):
            native = search(state, seed=1, sims=1000)
            top = max(native.last_visits.values())
            if top < 0.8 * 1000 or len(native.last_visits) < 2:
                continue
            python = search(state, seed=1, sims=1000, search="python")
            assert python.last_move == native.last_move, (seed, state.to_dict()["decisions"])
            move = native.last_move
            assert abs(python.last_values[move] - native.last_values[move]) < 0.1
            compared += 1
            if compared == 4:
                return
    pytest.fail(f"only {compared} clear positions found")


def test_a_uniform_policy_prior_is_plain_uct_in_the_native_search_too(tmp_path):
    """test_ismcts_policy checks it for the default search; here it is the native one."""
    uniform = policy_file(tmp_path, ENV)
    for state in decisions(3, every=7):
        plain = search(state, seed=4, sims=60, depth=5)
        guided = search(state, seed=4, sims=60, depth=5, prior=make_agent(ENV, uniform), widen="all")
        assert plain.last_search == guided.last_search == "native"
        assert (guided.last_move, guided.last_visits) == (plain.last_move, plain.last_visits)


# --- determinism, the tree, the budgets -----------------------------------------------------------
def test_the_same_seed_gives_the_same_search_and_another_seed_another():
    state = state_after(5, 30)
    runs = [(a.last_move, a.last_visits) for a in (search(state, seed=s, sims=300) for s in (7, 7, 8))]
    assert runs[0] == runs[1] and runs[0][1] != runs[2][1]
    before = state.to_dict()
    search(state, sims=100)
    assert state.to_dict() == before  # the true state is only determinized (a copy)


# Moves of the native search (game seed 5, agent seeds 100 + seat, 30 actions): a change to
# its draws or its arithmetic shows here first.
NATIVE_MOVES = [42, 30, 55, 49, 87, 61, 74, 93, 80, 141, 150, 147, 146, 138, 139, 6, 30, 1, 49, 50, 15, 87,
                63, 79, 141, 147, 139, 138, 36, 12]


def test_the_native_search_plays_the_moves_it_played_before():
    env = make_raw(ENV, num_players=3)
    env.reset(seed=5)
    agents = [make_agent(ENV, "ismcts:sims=12:depth=4", seed=100 + i) for i in range(3)]
    moves = []
    while len(moves) < 30:
        agent = env.agent_selection
        move = agents[env.possible_agents.index(agent)].act(env, agent)
        env.step(move)
        moves.append(move)
    assert moves == NATIVE_MOVES


def check_tree(tree, sims: int, seat: int):
    """The tree's invariants: every simulation leaves the root by one action of the searching
    seat; an action is tried at most as often as it was available, and available at most as
    often as its node was visited; a history is visited less often than the action that leads
    to it was tried (the expanding simulation stops there); rank rewards lie in 0..1."""
    nodes = {(h, s): edges for h, s, _, edges in tree}
    root = nodes[(0, seat)]
    assert sum(e[1] for e in root) == sims
    assert all(s == seat for h, s in nodes if h == 0)
    parent_tries = {}
    for (_h, _s), edges in nodes.items():
        visits = sum(e[1] for e in edges)
        actions = [e[0] for e in edges]
        assert actions == sorted(set(actions))
        for action, tries, available, reward_sum, child in edges:
            assert tries <= available <= visits, (action, tries, available, visits)
            assert 0.0 <= reward_sum <= tries + 1e-9
            assert (child >= 0) == (tries > 0)
            if child >= 0:
                assert child not in parent_tries
                parent_tries[child] = tries
    by_history = {}
    for (h, _s), edges in nodes.items():
        by_history[h] = by_history.get(h, 0) + sum(e[1] for e in edges)
    for h, visits in by_history.items():
        if h:
            assert visits <= parent_tries[h] - 1
    assert set(parent_tries) == set(range(1, len(parent_tries) + 1))  # every history expanded once


def test_the_tree_adds_up(tmp_path):
    path = policy_file(tmp_path, ENV, scale=0.1)
    for state in decisions(4, every=9):
        seat = state.current_player
        check_tree(run(state, sims=300)["tree"], 300, seat)
        net = _net(state, path)
        check_tree(run(state, sims=200, depth=3, prior=net, rollout=net)["tree"], 200, seat)
        check_tree(run(state, sims=200, depth=3, prior=net, prior_at_root_only=True)["tree"], 200, seat)


def test_budgets_are_respected():
    state = state_after(6, 10)
    assert search(state, sims=77).last_sims == 77
    timed = search(state, sims=None, time=0.05)
    assert timed.last_sims >= 1 and 0.05 <= timed.last_seconds < 0.5
    both = search(state, sims=10**9, time=0.05)
    assert both.last_seconds < 0.5
    assert search(state, sims=40, time=30.0).last_sims == 40
    assert search(state, sims=1).last_sims == 1


# --- rewards, depth and the step limit ------------------------------------------------------------
def test_rewards_per_mode_and_nothing_at_the_step_limit():
    """depth 0 scores the position right after the expanded action: with as many simulations
    as the root has actions, each is tried once and credited with the searching seat's
    return of that position in the mode asked for (what the env would pay, from the game's
    ranks and totals; a scouting play moves no glory, so the determinization's hidden cards
    do not change it). With one step left the env would truncate right after the root
    action: nobody gets anything."""
    state = state_after(1, 0)
    seat = state.current_player
    legal = np.flatnonzero(state.legal_action_mask())
    for reward in ("rank", "win", "score"):
        root = [t for t in run(state, sims=legal.size, depth=0, reward=reward)["tree"] if t[0] == 0][0][3]
        for action, tries, _, reward_sum, _ in root:
            after = state.clone()
            after.apply(action)
            expected = after.result().returns(reward, after.game.traits.score_scale)[seat]
            assert tries == 1 and reward_sum == pytest.approx(expected), (reward, action)
    root = [t for t in run(state, sims=60, steps_left=1)["tree"] if t[0] == 0][0][3]
    assert sum(n for _, n, _, _, _ in root) == 60 and all(w == 0.0 for _, _, _, w, _ in root)


def test_every_reward_mode_and_depth_plays_legal_moves():
    env = make_raw(ENV, num_players=3)
    env.reset(seed=8)
    specs = ["ismcts:sims=30,reward=win", "ismcts:sims=30,reward=score,depth=none", "ismcts:sims=30,depth=0"]
    agents = [make_agent(ENV, s, seed=i) for i, s in enumerate(specs)]
    for _ in range(60):
        agent = env.agent_selection
        move = agents[env.possible_agents.index(agent)].act(env, agent)
        assert env.action_mask(agent)[move] == 1
        env.step(move)


def test_against_random_players_it_wins():
    """The docs' strength check at 200 simulations (0.98 of 100 games for the Python search):
    here 9 seat-rotated games."""
    from forest_envs.evaluation.run import run_games

    results = run_games(ENV, ["ismcts:sims=200", "random", "random"], games=9, seed=3)
    wins = sum(r.win_shares[r.seats.index(0)] for r in results)
    assert wins >= 7, wins


# --- a policy in C++ --------------------------------------------------------------------------------
def test_the_policy_network_in_cpp_gives_numpys_logits(tmp_path):
    policy = make_agent(ENV, "ppo").policy
    state = state_after(2, 40)
    make = __import__(type(state)._native_base().__module__, fromlist=["SearchPolicy"]).SearchPolicy
    net = make([w for w, _ in policy.layers], [b for _, b in policy.layers], *policy.out, policy.activation)
    relu = make_agent(ENV, policy_file(tmp_path, ENV, hidden=16, scale=0.3)).policy
    relu.activation, relu.act = "ReLU", lambda x: np.maximum(x, 0.0)
    relu_net = make([w for w, _ in relu.layers], [b for _, b in relu.layers], *relu.out, "ReLU")
    for seat in range(3):
        obs = state.observation(seat)
        np.testing.assert_allclose(net.logits(obs), policy.logits(obs), rtol=1e-4, atol=1e-4)
        np.testing.assert_allclose(relu_net.logits(obs), relu.logits(obs), rtol=1e-4, atol=1e-4)
    with pytest.raises(ValueError, match="an observation of 3 floats, not 1425"):
        net.logits(np.zeros(3, np.float32))
    w0, b0 = policy.layers[0]
    with pytest.raises(ValueError, match="layer shapes do not chain"):
        make([w0, w0], [b0, b0], *policy.out, "Tanh")
    with pytest.raises(ValueError, match="activation Sigmoid"):
        make([w0], [b0], np.zeros((256, 280), np.float32), np.zeros(280, np.float32), "Sigmoid")
    with pytest.raises(ValueError, match="weights and bias do not match"):
        make([w0], [b0[:3]], np.zeros((256, 280), np.float32), np.zeros(280, np.float32), "Tanh")


def test_the_policy_prior_expands_in_the_order_of_its_probabilities(tmp_path):
    state = state_after(1, 0)
    legal = np.flatnonzero(state.legal_action_mask())
    assert legal.size == 12
    order = np.random.default_rng(5).permutation(280).astype(np.float64)  # distinct logits
    path = policy_file(tmp_path, ENV, bias=order / 50)
    ranked = [int(a) for a in legal[np.argsort(-order[legal])]]
    one = search(state, sims=1, depth=3, prior=make_agent(ENV, path))
    assert one.last_search == "native" and one.last_visits == {ranked[0]: 1}
    narrow = search(state, sims=100, depth=3, prior=make_agent(ENV, path))
    tried = len(narrow.last_visits)
    assert 2 <= tried <= 11 and set(narrow.last_visits) == set(ranked[:tried])
    wide = search(state, sims=100, depth=3, prior=make_agent(ENV, path), widen="all")
    assert len(wide.last_visits) == 12
    root = search(state, sims=100, depth=3, prior=make_agent(ENV, path), prior_at="root")
    assert set(root.last_visits) == set(ranked[:len(root.last_visits)])


def test_policy_rollouts_are_deterministic_for_a_seed(tmp_path):
    path = policy_file(tmp_path, ENV, scale=0.1)
    state = state_after(1, 0)
    for pick in ("greedy", "sample"):
        runs = [search(state, seed=s, sims=50, depth=4, rollout=make_agent(ENV, path), pick=pick)
                for s in (3, 3)]
        assert runs[0].last_search == "native"
        assert runs[0].last_visits == runs[1].last_visits and runs[0].last_values == runs[1].last_values


def _net(state, path):
    mlp = make_agent(ENV, path).policy
    make = __import__(type(state)._native_base().__module__, fromlist=["SearchPolicy"]).SearchPolicy
    return make([w for w, _ in mlp.layers], [b for _, b in mlp.layers], *mlp.out, mlp.activation)


def test_a_policy_that_does_not_fit_is_refused(tmp_path):
    state = state_after(1, 0)
    four = policy_file(tmp_path, ENV, num_players=4)
    agent = ISMCTSAgent(0, sims=5, prior=make_agent(ENV, four))
    with pytest.raises(ConfigError, match="expects observations of 1692 floats and 280 actions; chickwood_v0 "
                                          "gives 1425 and 280"):
        agent.search(state, state.current_player)
    with pytest.raises(ValueError, match="a policy for observations of 1692 floats"):
        run(state, prior=_net(state, four))


# --- bad options at the binding ---------------------------------------------------------------------
@pytest.mark.parametrize("options, words", [
    ({"seat": 5}, "seat 5 is not a seat"),
    ({"seat": "another"}, "it is player 2's decision, not seat 0's"),
    ({"sims": 0, "seconds": 0.0}, "needs a budget"),
    ({"sims": -1}, "sims must be >= 0"),
    ({"seconds": float("nan")}, "seconds must be a finite number"),
    ({"c": -0.1}, "c must be a finite number >= 0"),
    ({"c": float("inf")}, "c must be a finite number >= 0"),
    ({"depth": -2}, "depth must be >= 0, or -1"),
    ({"steps_left": -5}, "steps_left must be >= 0, or -1"),
    ({"reward": "money"}, "reward money is not one of win, rank, score"),
    ({"score_scale": 0.0}, "score_scale must be > 0"),
])
def test_bad_options_are_refused_naming_them(options, words):
    state = state_after(1, 0)
    assert state.current_player == 2
    if options.get("seat") == "another":
        options = {"seat": 0}
    with pytest.raises(ValueError, match=words):
        run(state, **options)


def test_a_finished_game_is_not_searched():
    state = state_after(1, 0)
    rng = np.random.default_rng(0)
    while not state.is_terminal:
        state.apply(int(rng.choice(np.flatnonzero(state.legal_action_mask()))))
    with pytest.raises(ValueError, match="the game is over"):
        run(state, seat=0)


def test_the_bench_times_the_native_search():
    from forest_envs.benchmark.throughput import _ismcts_rate

    game = make_raw(ENV, num_players=3).game
    assert _ismcts_rate(lambda seed: game.new_initial_state(seed, "native"), 0.05, None) > 0
    with pytest.raises(ConfigError):
        _ismcts_rate(lambda seed: game.new_initial_state(seed, "python"), 0.05, None, search="native")


# --- fuzzed options (also what the sanitizer build runs) ----------------------------------------------
def fuzz_searches(count: int, seed: int, tmp_path):
    """``count`` searches of random positions with random options: a legal move, the
    simulations asked for, and a tree that adds up."""
    rng = np.random.default_rng(seed)
    nets = {}
    for i in range(count):
        state = state_after(int(rng.integers(1000)), int(rng.integers(0, 120)))
        while not state.is_terminal and state.legal_action_mask().sum() < 2:
            state.apply(int(np.flatnonzero(state.legal_action_mask())[0]))
        if state.is_terminal:
            continue
        if not nets:
            nets = {"tanh": _net(state, policy_file(tmp_path, ENV, scale=0.2)),
                    "relu": _relu_net(state, tmp_path)}
        net = [None, None, nets["tanh"], nets["relu"]]
        sims = int(rng.integers(1, 300))
        steps_left = [-1, -1, int(rng.integers(0, 40))][int(rng.integers(3))]
        options = dict(sims=sims, seed=int(rng.integers(2**63)), c=float(rng.uniform(0, 3)),
                       depth=int(rng.integers(-1, 30)), steps_left=steps_left,
                       reward=["win", "rank", "score"][int(rng.integers(3))],
                       prior=net[int(rng.integers(4))], rollout=net[int(rng.integers(4))],
                       prior_at_root_only=bool(rng.integers(2)), widen_all=bool(rng.integers(2)),
                       greedy=bool(rng.integers(2)))
        found = run(state, **options)
        assert state.legal_action_mask()[found["action"]] == 1, (i, options)
        assert found["sims"] == sims
        if steps_left == 0:  # the env would truncate before the move: nothing is searched
            assert found["visits"] == {}
            continue
        assert sum(found["visits"].values()) == sims
        if options["reward"] != "score":
            check_tree(found["tree"], sims, state.current_player)


def _relu_net(state, tmp_path):
    mlp = make_agent(ENV, policy_file(tmp_path, ENV, hidden=16, scale=0.3)).policy
    make = __import__(type(state)._native_base().__module__, fromlist=["SearchPolicy"]).SearchPolicy
    return make([w for w, _ in mlp.layers], [b for _, b in mlp.layers], *mlp.out, "ReLU")


def test_fuzzed_searches(tmp_path):
    fuzz_searches(25, seed=1, tmp_path=tmp_path)


@pytest.mark.slow
def test_many_fuzzed_searches(tmp_path):
    fuzz_searches(600, seed=2, tmp_path=tmp_path)


# --- long comparisons -------------------------------------------------------------------------------
def total_variation(a: dict, b: dict) -> float:
    sa, sb = sum(a.values()), sum(b.values())
    return 0.5 * sum(abs(a.get(k, 0) / sa - b.get(k, 0) / sb) for k in set(a) | set(b))


@pytest.mark.slow
@pytest.mark.parametrize("reward", ["rank", "win", "score"])
def test_root_visit_distributions_and_values_agree_with_the_python_search(reward):
    """Over positions of random games, the native search's root visits are as close to the
    Python search's as two Python searches with other seeds are to each other, it picks the
    same move as often, and the mean rewards of well-tried actions differ from the Python
    search's as much as two Python searches' do (score rewards span more than 0..1)."""
    sims = 2000
    py_py, py_native, same_py, same_native, gap_py, gap_native = [], [], 0, 0, [], []
    positions = [s for seed in (11, 12) for s in decisions(seed, every=6)][:24]
    for i, state in enumerate(positions):
        a = search(state, seed=i, sims=sims, reward=reward, search="python")
        b = search(state, seed=1000 + i, sims=sims, reward=reward, search="python")
        n = search(state, seed=i, sims=sims, reward=reward)
        py_py.append(total_variation(a.last_visits, b.last_visits))
        py_native.append(total_variation(a.last_visits, n.last_visits))
        same_py += a.last_move == b.last_move
        same_native += a.last_move == n.last_move
        for act in a.last_visits:
            if min(a.last_visits[act], b.last_visits.get(act, 0), n.last_visits.get(act, 0)) >= 400:
                gap_py.append(abs(b.last_values[act] - a.last_values[act]))
                gap_native.append(abs(n.last_values[act] - a.last_values[act]))
    assert np.mean(py_native) <= 1.3 * np.mean(py_py) + 0.02, (np.mean(py_native), np.mean(py_py))
    assert same_native >= same_py - 4, (same_native, same_py)
    assert len(gap_py) >= 10 and np.mean(gap_native) <= 1.5 * np.mean(gap_py) + 0.01, (gap_native, gap_py)
