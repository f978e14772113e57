"""Every registered game as an OpenSpiel Python game (forest_envs/envs/openspiel/): OpenSpiel's own
random-simulation checks, its bots and its RL environment, and what the adapter promises
(seeds, clones, truncation, returns, observations that hide what a seat may not know).

The registry is read, never a game named: the toy game of tests/toy_game.py (registered by
conftest.py) runs through every test here too. Runs longer than a few seconds (every
configuration at its full length) are behind ``@pytest.mark.slow``.
"""

from __future__ import annotations

import numpy as np
import pytest
from config_cases import config_cases

pyspiel = pytest.importorskip("pyspiel")
fos = pytest.importorskip("forest_envs.envs.openspiel")

import forest_envs  # noqa: E402
from forest_envs.core import registry  # noqa: E402
from forest_envs.core.errors import ConfigError, IllegalActionError  # noqa: E402
from forest_envs.envs import registration  # noqa: E402

GAMES = registry.env_ids()
CONFIGS = [(env_id, cfg) for env_id in GAMES for cfg in registry.game_spec(env_id).game_class.all_configs()]
CONFIG_IDS = [f"{e}-" + "-".join(f"{k}={v}" for k, v in c.items()) for e, c in CONFIGS]
# Short games for the fast tests: the longest registered games run to thousands of actions.
SHORT = 40


def params_of(cfg: dict) -> dict:
    """A game configuration as OpenSpiel parameters (num_players is ``players``)."""
    return {(fos.PLAYERS if k == "num_players" else k): v for k, v in cfg.items()}


def fewest_players(env_id: str) -> int:
    return registry.game_spec(env_id).game_class.traits.min_players


def load(env_id: str, **params):
    return fos.load_game(env_id, **params)


def play_randomly(state, rng: np.random.Generator, steps: int | None = None):
    """Apply up to ``steps`` uniformly random legal actions (None: to the end)."""
    done = 0
    while not state.is_terminal() and (steps is None or done < steps):
        state.apply_action(int(rng.choice(state.legal_actions())))
        done += 1
    return state


def uniform_sampler(seed: int):
    """A probability sampler as OpenSpiel's are: a callable returning floats in [0, 1)."""
    return np.random.default_rng(seed).random


# --- registration ------------------------------------------------------------------------------
def test_every_registered_game_is_registered_with_openspiel_under_its_python_name():
    names = set(pyspiel.registered_names())
    assert set(GAMES) <= set(fos._REGISTERED)
    for env_id in GAMES:
        assert f"python_{env_id}" in names
        game_class = registry.game_spec(env_id).game_class
        gtype = pyspiel.load_game(f"python_{env_id}").get_type()
        traits = game_class.traits
        assert gtype.short_name == f"python_{env_id}" and gtype.long_name == f"Python {traits.name}"
        assert (gtype.min_num_players, gtype.max_num_players) == (traits.min_players, traits.max_players)
        assert gtype.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
        assert gtype.chance_mode == (pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC if traits.chance
                                     else pyspiel.GameType.ChanceMode.DETERMINISTIC)
        assert gtype.information == (pyspiel.GameType.Information.IMPERFECT_INFORMATION
                                     if traits.hidden_information
                                     else pyspiel.GameType.Information.PERFECT_INFORMATION)
        assert gtype.reward_model == pyspiel.GameType.RewardModel.TERMINAL
        assert gtype.utility == pyspiel.GameType.Utility.GENERAL_SUM
        assert (gtype.provides_information_state_string, gtype.provides_information_state_tensor,
                gtype.provides_observation_string, gtype.provides_observation_tensor) == (True, False, True, True)
        # The game's options (num_players as "players") with their defaults, then the adapter's.
        expected = {("players" if k == "num_players" else k): o.default for k, o in game_class.options.items()}
        expected.update(reward="win", max_steps=game_class.default_max_steps or fos.FALLBACK_MAX_STEPS,
                        rng_seed=-1)
        assert gtype.parameter_specification == expected


@pytest.mark.parametrize(("env_id", "cfg"), CONFIGS, ids=CONFIG_IDS)
def test_game_info_comes_from_the_engine_configuration(env_id, cfg):
    game = load(env_id, **params_of(cfg), max_steps=123)
    engine = registry.game_spec(env_id).game_class.shared(cfg)
    assert game.num_players() == engine.num_players
    assert game.num_distinct_actions() == engine.num_actions
    assert game.max_chance_outcomes() == 0  # chance is sampled inside apply
    assert (game.min_utility(), game.max_utility()) == (0.0, 1.0)
    assert game.max_game_length() == 123
    assert game.observation_tensor_shape() == [engine.observation_size]
    assert game.engine_game() is engine


def test_bad_parameters_get_a_clear_error():
    env_id = GAMES[0]
    game_class = registry.game_spec(env_id).game_class
    too_many = game_class.traits.max_players + 1
    with pytest.raises(ConfigError, match=r"num_players=.*'players'"):
        load(env_id, players=too_many)
    with pytest.raises(ConfigError, match="max_steps=0"):
        load(env_id, max_steps=0)
    with pytest.raises(ConfigError, match="rng_seed=-2"):
        load(env_id, rng_seed=-2)
    with pytest.raises(ConfigError, match="reward='bogus'.*expected one of"):
        load(env_id, reward="bogus")
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter 'nope'"):
        load(env_id, nope=1)
    with pytest.raises(ConfigError, match="unknown env id"):
        fos.load_game("no_such_game_v0")


def test_the_score_reward_is_refused_for_want_of_utility_bounds():
    with_points = [e for e in GAMES if "score" in registry.game_spec(e).game_class.traits.reward_modes]
    assert with_points
    for env_id in with_points:
        with pytest.raises(ConfigError, match="'score' has no utility bounds"):
            load(env_id, reward="score")


def test_registering_again_is_allowed_and_a_game_registered_later_can_be_added():
    from toy_game import ToyEnv, ToyGame

    assert fos.register(GAMES[0]) == f"python_{GAMES[0]}"
    game = type("LaterGame", (ToyGame,), {"env_id": "later_v0"})
    registration.register("later_v0", game, type("LaterEnv", (ToyEnv,), {"game_class": game}))
    try:
        assert "python_later_v0" not in pyspiel.registered_names()
        g = fos.load_game("later_v0")  # registers it first
        assert "python_later_v0" in pyspiel.registered_names()
        assert g.new_initial_state().current_player() == 0
    finally:
        registration.unregister("later_v0")


def test_the_adapter_names_no_game():
    from pathlib import Path

    files = sorted(Path(fos.__file__).parent.glob("*.py"))
    assert len(files) > 1  # the package's modules, not only its __init__
    for path in files:
        text = path.read_text(encoding="utf-8").lower()
        for env_id in forest_envs.ENV_IDS:
            assert env_id.split("_")[0] not in text, f"forest_envs/envs/openspiel/{path.name} names {env_id}"


def test_the_openspiel_extra_pins_the_version_tested():
    import importlib.metadata

    tomllib = pytest.importorskip("tomllib")  # Python >= 3.11
    from pathlib import Path

    meta = tomllib.loads((Path(__file__).resolve().parents[1] / "pyproject.toml").read_text())
    assert meta["project"]["optional-dependencies"]["openspiel"] == ["open_spiel>=2.0.2"]
    installed = tuple(int(x) for x in importlib.metadata.version("open_spiel").split(".")[:3])
    assert installed >= (2, 0, 2)


# --- OpenSpiel's own checks --------------------------------------------------------------------
@pytest.mark.parametrize(("env_id", "cfg"), config_cases())  # the rest under -m slow
def test_random_sim_test_passes_on_every_configuration(env_id, cfg):
    # OpenSpiel's C++ checks: clones equal their originals, legal actions sorted and empty for
    # others, unique action strings, the legal-action mask, finite tensors of the declared
    # size, rewards adding up to the returns, returns within the utility bounds and the game
    # within max_game_length. Cut at SHORT actions here (the slow test plays them out).
    # serialize=False: OpenSpiel cannot serialize a Python game with sampled chance (below).
    game = load(env_id, **params_of(cfg), max_steps=SHORT, rng_seed=7)
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


@pytest.mark.slow
@pytest.mark.parametrize(("env_id", "cfg"), CONFIGS, ids=CONFIG_IDS)
def test_random_sim_test_passes_on_every_configuration_at_its_full_length(env_id, cfg):
    game = load(env_id, **params_of(cfg), rng_seed=11)
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


@pytest.mark.parametrize("env_id", [e for e in GAMES if registry.game_spec(e).game_class.default_max_steps is None])
def test_random_sim_test_passes_at_full_length_on_games_whose_rules_always_end_them(env_id):
    # These end by their rules within a few hundred actions (the fallback max_steps is never
    # reached); a game that can stall (a default_max_steps) plays its full length in the slow test.
    game = load(env_id, rng_seed=3)
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)
    state = play_randomly(game.new_initial_state(), np.random.default_rng(0))
    assert state.engine_state.is_terminal and not state.truncated()


def test_openspiel_cannot_serialize_a_python_game_with_sampled_chance():
    # Game::Serialize appends the game's RNG state for SAMPLED_STOCHASTIC games, and a Python
    # game cannot provide it; state.serialize() / game.deserialize_state() do work (below).
    game = load(GAMES[0])
    with pytest.raises(pyspiel.SpielError, match="GetRNGState unimplemented"):
        pyspiel.serialize_game_and_state(game, game.new_initial_state())


@pytest.mark.parametrize("env_id", GAMES)
def test_a_serialized_state_is_the_same_position_and_plays_on_the_same(env_id):
    game = load(env_id, rng_seed=5)
    state = play_randomly(game.new_initial_state(), np.random.default_rng(1), steps=15)
    back = game.deserialize_state(state.serialize())
    assert back.history() == state.history() and str(back) == str(state)
    assert back.engine_state.to_dict() == state.engine_state.to_dict()
    for p in range(game.num_players()):
        assert back.information_state_string(p) == state.information_state_string(p)
    rng_a, rng_b = np.random.default_rng(2), np.random.default_rng(2)
    play_randomly(state, rng_a, steps=10)
    play_randomly(back, rng_b, steps=10)
    assert back.engine_state.to_dict() == state.engine_state.to_dict()


def test_games_and_states_pickle_and_play_on_the_same():
    import pickle

    game = load(GAMES[0], rng_seed=12)
    state = play_randomly(game.new_initial_state(), np.random.default_rng(0), steps=6)
    game2, state2 = pickle.loads(pickle.dumps((game, state)))
    assert state2.get_game() is game2 and game2.get_parameters() == game.get_parameters()
    assert state2.history() == state.history() and str(state2) == str(state)
    assert state2.information_state_string(1) == state.information_state_string(1)
    # the game's deals go on where they had got to
    assert game2.new_initial_state().engine_state.to_dict() == game.new_initial_state().engine_state.to_dict()


# --- seeds, clones and the engine's own chance -------------------------------------------------
@pytest.mark.parametrize("env_id", GAMES)
def test_rng_seed_deals_the_games_the_pettingzoo_env_deals_for_that_seed(env_id):
    game = load(env_id, rng_seed=42)
    env = forest_envs.make(env_id)
    env.reset(seed=42)
    for k in range(3):
        if k:
            env.reset()
        state = game.new_initial_state()
        if k == 1:
            # throw-away states (a clone starts from one, observation_tensor_size writes one)
            # use up no seed
            for _ in range(3):
                state.clone()
            game.observation_tensor_size()
            game.new_initial_state().observation_tensor(0)
        assert state.engine_state.to_dict() == env.unwrapped.engine_state.to_dict(), k


def test_rng_seed_minus_one_takes_fresh_entropy_for_each_game():
    env_id = GAMES[0]
    game = load(env_id)
    deals = {str(game.new_initial_state().engine_state.to_dict()["rng"]) for _ in range(3)}
    assert len(deals) == 3


def test_a_state_shown_a_tensor_before_it_is_dealt_is_dealt_what_it_was_shown():
    game = load(GAMES[0], rng_seed=9)
    first, second = game.new_initial_state(), game.new_initial_state()
    shown = first.observation_tensor(0)
    second.current_player()  # the second is used first, while the first one is alive
    np.testing.assert_array_equal(first.observation_tensor(0), shown)
    assert first.engine_state.to_dict() != second.engine_state.to_dict()


@pytest.mark.parametrize("env_id", GAMES)
def test_a_clone_plays_on_exactly_as_its_original_chance_included(env_id):
    game = load(env_id, rng_seed=8)
    state = play_randomly(game.new_initial_state(), np.random.default_rng(3), steps=5)
    clone = state.clone()
    assert clone.history() == state.history()
    rng = np.random.default_rng(4)
    for _ in range(30):
        if state.is_terminal():
            break
        action = int(rng.choice(state.legal_actions()))
        state.apply_action(action)
        clone.apply_action(action)
        assert clone.engine_state.to_dict() == state.engine_state.to_dict()
        assert str(clone) == str(state)


def test_an_illegal_action_is_refused_and_changes_nothing():
    game = load(GAMES[0], rng_seed=1)
    state = game.new_initial_state()
    illegal = next(a for a in range(game.num_distinct_actions()) if a not in state.legal_actions())
    before = state.engine_state.to_dict()
    with pytest.raises(IllegalActionError):
        state.apply_action(illegal)
    assert state.engine_state.to_dict() == before and state.history() == []
    assert state.information_state_string(0).startswith("player 0 after 0 action(s)\n")


# --- the end: returns from the game's ranks, truncation -----------------------------------------
@pytest.mark.parametrize("env_id", GAMES)
@pytest.mark.parametrize("reward", ["win", "rank"])
def test_returns_are_the_engines_from_the_games_ranks(env_id, reward):
    game = load(env_id, players=fewest_players(env_id), reward=reward, rng_seed=2)
    state = game.new_initial_state()
    rng = np.random.default_rng(5)
    while not state.is_terminal():
        assert state.returns() == [0.0] * game.num_players()
        state.apply_action(int(rng.choice(state.legal_actions())))
    if state.truncated():
        pytest.skip(f"{env_id}'s random game stalled until max_steps")
    engine = state.engine_state
    assert engine.is_terminal
    assert state.returns() == engine.returns(reward) == state.rewards()
    assert state.current_player() == pyspiel.PlayerId.TERMINAL
    ranks = engine.ranks()
    if reward == "win":
        winners = ranks.count(1)
        assert state.returns() == [1.0 / winners if r == 1 else 0.0 for r in ranks]


@pytest.mark.parametrize("env_id", GAMES)
def test_a_game_truncated_at_max_steps_pays_nobody(env_id):
    game = load(env_id, max_steps=4, rng_seed=3)
    state = game.new_initial_state()
    rng = np.random.default_rng(0)
    for _ in range(4):
        assert not state.is_terminal() and not state.truncated()
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert not state.engine_state.is_terminal  # no registered game ends in 4 actions
    assert state.is_terminal() and state.truncated()
    assert state.current_player() == pyspiel.PlayerId.TERMINAL
    assert state.legal_actions() == [] and state.returns() == [0.0] * game.num_players()
    assert len(state.history()) == 4
    with pytest.raises(IllegalActionError, match="truncated at max_steps=4"):
        state.apply_action(state.engine_state.legal_actions()[0])


def test_a_state_can_start_from_an_engine_position():
    env_id = GAMES[0]
    game = load(env_id, rng_seed=1)
    env = forest_envs.make(env_id)
    env.reset(seed=3)
    for _ in range(5):
        env.step(int(np.flatnonzero(env.unwrapped.action_mask(env.agent_selection))[0]))
    position = env.unwrapped.engine_state
    state = game.new_state_from(position)
    assert state.engine_state.to_dict() == position.to_dict() and state.engine_state is not position
    assert state.history() == [] and state.current_player() == position.current_player
    assert state.information_state_string(0) == "player 0 after 0 action(s)\n" + position.render(0)
    play_randomly(state, np.random.default_rng(0), steps=5)
    assert len(state.history()) == 5
    other = next(e for e in GAMES if e != env_id)
    with pytest.raises(ConfigError, match="new_state_from needs"):
        load(other).new_state_from(position)


# --- what a seat may know ----------------------------------------------------------------------
@pytest.mark.parametrize("env_id", GAMES)
def test_observations_are_the_seats_layout_observation_and_text_view(env_id):
    game = load(env_id, rng_seed=6)
    state = game.new_initial_state()
    rng = np.random.default_rng(6)
    expected_log = {p: [] for p in range(game.num_players())}
    for _ in range(25):
        if state.is_terminal():
            break
        engine = state.engine_state
        for p in range(game.num_players()):
            np.testing.assert_array_equal(np.asarray(state.observation_tensor(p), np.float32),
                                          engine.observation(p))
            assert state.observation_string(p) == engine.render(p)
            header = f"player {p} after {len(state.history())} action(s)\n"
            assert state.information_state_string(p) == header + "".join(expected_log[p]) + engine.render(p)
        actor, action = state.current_player(), int(rng.choice(state.legal_actions()))
        for p in range(game.num_players()):
            # what each seat reads of an action is the engine's describe_action, taken before
            expected_log[p].append(f"{len(state.history()) + 1}. player {actor}: "
                                   f"{engine.describe_action(action, p)}\n")
        assert state.action_to_string(actor, action) == engine.game.action_to_string(action)
        state.apply_action(action)
    assert str(state) == state.engine_state.render(None)


@pytest.mark.parametrize("env_id", GAMES)
def test_observation_pieces_are_the_layout_blocks(env_id):
    from open_spiel.python.observation import make_observation

    game = load(env_id, rng_seed=1)
    state = game.new_initial_state()
    obs = make_observation(game)
    obs.set_from(state, 1)
    engine = state.engine_state
    layout = engine.game.layout
    slices = {n: s for n, s in layout.observation_slices().items() if s[1] > s[0]}
    assert list(obs.dict) == list(slices)
    flat = engine.observation(1)
    for name, (start, stop, shape) in slices.items():
        assert obs.dict[name].shape == (shape or (1,))
        np.testing.assert_array_equal(obs.dict[name].ravel(), flat[start:stop])
    # the referee's observation: everything
    referee = make_observation(game, pyspiel.IIGObservationType(
        perfect_recall=False, private_info=pyspiel.PrivateInfoType.ALL_PLAYERS))
    referee.set_from(state, 0)
    np.testing.assert_array_equal(referee.tensor, engine.global_state())
    assert referee.string_from(state, 0) == engine.render(None)
    with pytest.raises(ValueError, match="SINGLE_PLAYER"):
        make_observation(game, pyspiel.IIGObservationType(
            perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE))


@pytest.mark.parametrize("env_id", GAMES)
def test_resampled_states_look_the_same_to_the_seat_and_hide_nothing_else(env_id):
    # OpenSpiel's ResampleInfostateTest (C++, not exposed to Python), plus the tensor and the
    # observation string: a state differing in what the seat cannot know looks the same to it.
    game = load(env_id, rng_seed=4)
    state = game.new_initial_state()
    rng = np.random.default_rng(4)
    differed = 0
    for step in range(30):
        if state.is_terminal():
            break
        for p in range(game.num_players()):
            other = state.resample_from_infostate(p, uniform_sampler(100 * step + p))
            assert other.history() == state.history()
            assert other.information_state_string(p) == state.information_state_string(p)
            assert other.observation_string(p) == state.observation_string(p)
            assert other.observation_tensor(p) == state.observation_tensor(p)
            assert other.current_player() == state.current_player()
            if p == state.current_player():
                assert other.legal_actions() == state.legal_actions()
            differed += other.engine_state.to_dict() != state.engine_state.to_dict()
            # the determinization's record of the past is what p read of it, for every seat
            for q in range(game.num_players()):
                assert other.information_state_string(q).split("\n")[1:len(state.history()) + 1] == \
                    state.information_state_string(p).split("\n")[1:len(state.history()) + 1]
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert differed


def test_two_plays_differing_only_in_another_seats_secret_look_the_same_to_a_seat():
    # The toy game's secrets are hidden and change nothing, so two games with the same actions
    # and seeds giving seat 0 the same secret and seat 1 another are the same to seat 0 only.
    by_seed = {}
    for seed in range(40):
        secret = tuple(load("toy_v0", players=2, rng_seed=seed).new_initial_state().engine_state.secret)
        by_seed.setdefault(secret[0], []).append((seed, secret))
    pair = next((a, b) for same in by_seed.values() for a in same for b in same if a[1][1] != b[1][1])
    states = [load("toy_v0", players=2, rng_seed=seed).new_initial_state() for seed, _ in pair]
    rng = np.random.default_rng(0)
    while not states[0].is_terminal():
        for f in ("information_state_string", "observation_string", "observation_tensor"):
            assert getattr(states[0], f)(0) == getattr(states[1], f)(0)
            assert getattr(states[0], f)(1) != getattr(states[1], f)(1)
        action = int(rng.choice(states[0].legal_actions()))
        for s in states:
            s.apply_action(action)


# --- OpenSpiel's bots and RL environment --------------------------------------------------------
def _rollout_evaluator(seed: int):
    from open_spiel.python.algorithms import mcts

    return mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(seed))


@pytest.mark.parametrize("env_id", GAMES)
def test_python_mcts_bots_play_whole_games_through_evaluate_bots(env_id):
    from open_spiel.python.algorithms import evaluate_bots, mcts

    n = fewest_players(env_id)
    game = load(env_id, players=n, max_steps=SHORT, rng_seed=1)
    bots = [mcts.MCTSBot(game, 1.4, 3, _rollout_evaluator(p), solve=False,
                         random_state=np.random.RandomState(p)) for p in range(n)]
    state = game.new_initial_state()
    returns = evaluate_bots.evaluate_bots(state, bots, np.random.RandomState(0))
    assert state.is_terminal() and list(returns) == state.returns()
    assert all(0.0 <= r <= 1.0 for r in returns)


def test_cpp_mcts_bots_play_a_whole_game_through_pyspiel_evaluate_bots():
    # The C++ MCTSBot's step() releases the GIL and then calls the Python game: a crash with
    # any Python game (OpenSpiel's python_kuhn_poker too). pyspiel.evaluate_bots keeps the GIL.
    game = load("toy_v0", players=2, rng_seed=3)
    evaluator = pyspiel.RandomRolloutEvaluator(1, 0)
    bots = [pyspiel.MCTSBot(game, evaluator, 1.4, 20, 10, False, p, False) for p in range(2)]
    returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, 0)
    assert sorted(returns) == [0.0, 1.0]  # the toy game always has one winner


@pytest.mark.parametrize("env_id", GAMES)
def test_python_ismcts_bots_play_whole_games_on_resampled_states(env_id):
    # open_spiel.python.algorithms.ismcts keys its nodes by information-state strings and checks
    # at every simulation that the resampled root has the root's key.
    from open_spiel.python.algorithms import ismcts

    n = fewest_players(env_id)
    game = load(env_id, players=n, max_steps=SHORT, rng_seed=2)
    bots = [ismcts.ISMCTSBot(game, _rollout_evaluator(p), 1.4, 3,
                             random_state=np.random.RandomState(p)) for p in range(n)]
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(bots[state.current_player()].step(state))
    assert all(0.0 <= r <= 1.0 for r in state.returns())


def test_cpp_ismcts_cannot_resample_a_python_game():
    # The C++ ISMCTSBot calls the C++ State::ResampleFromInfostate, which OpenSpiel's Python
    # game wrapper does not forward to Python (docs/openspiel.md); the Python ISMCTSBot does.
    game = load("toy_v0", players=2, rng_seed=3)
    bot = pyspiel.ISMCTSBot(0, pyspiel.RandomRolloutEvaluator(1, 0), 1.4, 5)
    with pytest.raises(pyspiel.SpielError, match="ResampleFromInfostate"):
        pyspiel.evaluate_bots(game.new_initial_state(), [bot, bot], 0)


@pytest.mark.parametrize("env_id", GAMES)
def test_rl_environment_steps_through_games_with_random_legal_actions(env_id):
    from open_spiel.python import rl_environment
    from open_spiel.python.algorithms import random_agent

    n = fewest_players(env_id)
    game = load(env_id, players=n, max_steps=SHORT, rng_seed=5)
    env = rl_environment.Environment(game)
    assert env.observation_spec()["info_state"] == (game.observation_tensor_size(),)
    assert env.action_spec()["num_actions"] == game.num_distinct_actions()
    agents = [random_agent.RandomAgent(p, game.num_distinct_actions()) for p in range(n)]
    deals = set()
    for _ in range(2):
        time_step = env.reset()
        deals.add(str(env.get_state.engine_state.to_dict()["rng"]))
        steps = 0
        while not time_step.last():
            p = time_step.observations["current_player"]
            legal = time_step.observations["legal_actions"][p]
            assert legal == env.get_state.legal_actions()
            np.testing.assert_array_equal(np.asarray(time_step.observations["info_state"][p], np.float32),
                                          env.get_state.engine_state.observation(p))
            action = agents[p].step(time_step).action
            assert action in legal
            time_step = env.step([action])
            steps += 1
        for agent in agents:
            agent.step(time_step)
        assert steps <= SHORT and time_step.rewards == env.get_state.returns()
    assert len(deals) == 2  # each reset is a new deal
