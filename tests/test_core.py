"""forest_envs.core on its own: layout roles and gathers, option validation, returns and
ranks, seeded generators, the engine base class, the registry and the random agent."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import forest_envs
from forest_envs.chickwood import ChickwoodGame, new_game
from forest_envs.core.agents import Agent, RandomAgent
from forest_envs.core.config import Option, validate_options
from forest_envs.core.engine import REWARD_MODES, ranks_from_scores, returns_from_scores
from forest_envs.core.errors import ConfigError, ForestEnvError, IllegalActionError, WrongAgentError
from forest_envs.core.layout import Layout
from forest_envs.core.registry import make_agent
from forest_envs.core.rng import make_rng, rng_from_json, rng_to_json


# --- layout ---------------------------------------------------------------------------------
def small_layout(n: int = 3) -> Layout:
    L = Layout(n)
    L.add("pub", 2)                              # 0..1
    L.add("rows", (n, 2), "by_player")           # 2..2+2n
    L.add("cols", (2, n), "player_last")
    L.add("secret", (n, 2), "private")
    L.add("bookkeeping", 4, "hidden")
    L.add("scaled", 1, scale=0.5)
    return L.freeze()


def test_layout_sizes_and_views():
    n = 3
    L = small_layout(n)
    assert L.size == 2 + 2 * n + 2 * n + 2 * n + 4 + 1
    # hidden blocks are not observed; private blocks contribute one row
    assert L.observation_size == 2 + 2 * n + 2 * n + 2 + 1
    buf = L.new_buffer()
    assert buf.dtype == np.int16 and buf.shape == (L.size,) and not buf.any()
    views = L.views(buf)
    views["rows"][1, 0] = 7
    assert buf[L.blocks["rows"].offset + 2] == 7, "views must write through to the buffer"
    slices = L.observation_slices()
    assert list(slices) == ["pub", "rows", "cols", "secret", "scaled"]
    assert slices["secret"][2] == (2,) and slices["rows"][2] == (n, 2)
    assert slices["scaled"][1] == L.observation_size


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_layout_gather_roles(seat):
    n = 3
    L = small_layout(n)
    buf = np.arange(L.size, dtype=np.int16)
    v = L.views(buf)
    obs = L.observe(buf, seat)
    assert obs.dtype == np.float32 and obs.shape == (L.observation_size,)
    s = L.observation_slices()

    def part(name):
        lo, hi, shape = s[name]
        return obs[lo:hi].reshape(shape)

    rot = [(seat + i) % n for i in range(n)]
    np.testing.assert_array_equal(part("pub"), v["pub"])                      # as is
    np.testing.assert_array_equal(part("rows"), v["rows"][rot])               # observer first
    np.testing.assert_array_equal(part("rows")[0], v["rows"][seat])
    np.testing.assert_array_equal(part("cols"), v["cols"][:, rot])            # observer first
    np.testing.assert_array_equal(part("secret"), v["secret"][seat])          # own row only
    np.testing.assert_array_equal(part("scaled"), v["scaled"] * 0.5)          # scale applied
    hidden = set(v["bookkeeping"].tolist())
    others = {int(x) for o in range(n) if o != seat for x in v["secret"][o]}
    assert not hidden & set(obs.tolist()), "a hidden block leaked into an observation"
    assert not others & set(obs.tolist()), "another seat's private row leaked"
    np.testing.assert_array_equal(L.gather(seat), L._gather[seat])
    assert L.scale.shape == (L.observation_size,)


def test_layout_unit_scale_and_rejections():
    L = Layout(2)
    L.add("a", 3)
    L.freeze()
    assert L.unit_scale
    np.testing.assert_array_equal(L.observe(np.array([1, 2, 3], np.int16), 1), [1, 2, 3])
    with pytest.raises(RuntimeError, match="frozen"):
        L.add("b", 1)
    M = Layout(3)
    with pytest.raises(ValueError, match="unknown role 'secretive'"):
        M.add("x", 3, "secretive")
    with pytest.raises(ValueError, match="first axis must be the 3 players"):
        M.add("x", (2, 4), "by_player")
    with pytest.raises(ValueError, match="first axis must be the 3 players"):
        M.add("x", (4,), "private")
    with pytest.raises(ValueError, match="last axis must be the 3 players"):
        M.add("x", (3, 2), "player_last")


def test_chickwood_layout_private_blocks_not_observed_by_others():
    """In the real game layout, a seat's observation of another's private row is absent."""
    game = ChickwoodGame(num_players=4)
    L = game.layout
    buf = L.new_buffer()
    hand = L.views(buf)["hand"]
    hand[2, 5] = 99
    for seat in range(4):
        has = 99 in L.observe(buf, seat)
        assert has == (seat == 2)


# --- config -----------------------------------------------------------------------------------
SCHEMA = {
    "players": Option(3, choices=(2, 3, 4)),
    "flag": Option(False, choices=(False, True)),
    "limit": Option(None, check=lambda v: v is None or v > 0, doc="None or a positive int"),
}


def test_validate_options_defaults_and_values():
    assert validate_options(SCHEMA, {}, "test") == {"players": 3, "flag": False, "limit": None}
    assert validate_options(SCHEMA, {"players": 4, "flag": True, "limit": 5}, "test") == {
        "players": 4, "flag": True, "limit": 5}


def test_validate_options_unknown_key_names_key_and_valid_options():
    with pytest.raises(ConfigError) as err:
        validate_options(SCHEMA, {"colour": "red"}, "test")
    msg = str(err.value)
    assert "colour" in msg and "flag" in msg and "limit" in msg and "players" in msg


@pytest.mark.parametrize(("key", "value", "expect"), [
    ("players", 5, "one of 2, 3, 4"),
    ("players", 3.0, "one of 2, 3, 4"),       # equal but not an int
    ("players", True, "one of 2, 3, 4"),      # bool is not an int here
    ("flag", 1, "one of False, True"),        # and 1 is not a bool
    ("flag", "yes", "one of False, True"),
    ("limit", 0, "None or a positive int"),
    ("limit", "many", "None or a positive int"),  # a check that raises counts as invalid
])
def test_validate_options_bad_value_names_key_and_choices(key, value, expect):
    with pytest.raises(ConfigError) as err:
        validate_options(SCHEMA, {key: value}, "test")
    msg = str(err.value)
    assert f"{key}={value!r}" in msg and expect in msg


def test_error_hierarchy():
    for cls in (ConfigError, IllegalActionError, WrongAgentError):
        assert issubclass(cls, ForestEnvError) and issubclass(cls, ValueError)
    assert forest_envs.ConfigError is ConfigError


# --- returns and ranks --------------------------------------------------------------------------
def test_ranks_competition_style():
    assert ranks_from_scores([10, 30, 20]) == [3, 1, 2]
    assert ranks_from_scores([5, 9, 9, 1]) == [3, 1, 1, 4]
    assert ranks_from_scores([7, 7]) == [1, 1]


def test_returns_win():
    assert returns_from_scores([10, 30, 20], "win") == [0.0, 1.0, 0.0]
    assert returns_from_scores([9, 9, 1], "win") == [0.5, 0.5, 0.0]
    assert returns_from_scores([4, 4, 4, 4], "win") == [0.25] * 4


def test_returns_rank():
    assert returns_from_scores([10, 30, 20], "rank") == [0.0, 1.0, 0.5]
    assert returns_from_scores([5, 9, 9, 1], "rank") == pytest.approx([1 / 3, 1.0, 1.0, 0.0])
    assert returns_from_scores([3, 8], "rank") == [0.0, 1.0]


def test_returns_score():
    assert returns_from_scores([10, 30, 20], "score") == pytest.approx([-1.5, 1.5, 0.0])
    assert returns_from_scores([10, 30], "score", score_scale=1) == [-20.0, 20.0]


def test_returns_unknown_mode():
    with pytest.raises(ValueError, match="unknown reward mode 'best'.*win.*rank.*score"):
        returns_from_scores([1, 2], "best")


@settings(max_examples=60, deadline=None, database=None)
@given(st.lists(st.integers(-20, 120), min_size=2, max_size=5))
def test_returns_properties(scores):
    n = len(scores)
    win = returns_from_scores(scores, "win")
    assert sum(win) == pytest.approx(1.0)
    assert all((w > 0) == (s == max(scores)) for w, s in zip(win, scores))
    rank = returns_from_scores(scores, "rank")
    assert all(0.0 <= r <= 1.0 for r in rank) and max(rank) == 1.0
    assert sum(returns_from_scores(scores, "score")) == pytest.approx(0.0, abs=1e-9)
    ranks = ranks_from_scores(scores)
    assert min(ranks) == 1 and max(ranks) <= n
    for i in range(n):  # higher score -> better (smaller) rank, in every mode
        for j in range(n):
            if scores[i] > scores[j]:
                assert ranks[i] < ranks[j]
                for mode in REWARD_MODES:
                    r = returns_from_scores(scores, mode)
                    assert r[i] >= r[j]


# --- seeded generators ---------------------------------------------------------------------------
def test_rng_json_round_trip_continues_the_same_stream():
    rng = make_rng(1234)
    rng.random(17)
    rng.integers(0, 10, 3)
    rng.random()  # leaves a half-used 64-bit word behind sometimes (has_uint32)
    rng.integers(0, 2**31, dtype=np.uint32)
    data = json.loads(json.dumps(rng_to_json(rng)))
    copy = rng_from_json(data)
    np.testing.assert_array_equal(copy.random(50), rng.random(50))
    np.testing.assert_array_equal(copy.integers(0, 2**31, 9, dtype=np.uint32),
                                  rng.integers(0, 2**31, 9, dtype=np.uint32))
    np.testing.assert_array_equal(copy.permutation(30), rng.permutation(30))


def test_make_rng_seeding():
    np.testing.assert_array_equal(make_rng(5).random(4), make_rng(5).random(4))
    assert not np.array_equal(make_rng(5).random(4), make_rng(6).random(4))
    make_rng(np.int64(3))
    make_rng(None)
    for bad in (-1, True, 1.5, "7"):
        with pytest.raises(ConfigError, match="seed must be a non-negative int"):
            make_rng(bad)


# --- the engine base class (through the Chickwood engine) --------------------------------------------
def test_action_names_round_trip_and_errors():
    game = ChickwoodGame(num_players=3)
    for a in range(game.num_actions):
        assert game.string_to_action(game.action_to_string(a)) == a
    assert len(set(game.action_names)) == game.num_actions
    with pytest.raises(IllegalActionError, match="out of range"):
        game.action_to_string(game.num_actions)
    with pytest.raises(IllegalActionError, match="no action is named 'fly away'"):
        game.string_to_action("fly away")


def test_apply_validates_action_type_and_range():
    state = new_game({"num_players": 3}, seed=0)
    legal = state.legal_actions()[0]
    for bad in (float(legal), True, "3", None, [legal]):
        with pytest.raises(IllegalActionError, match="action must be an int"):
            state.apply(bad)
    for bad in (-1, state.game.num_actions):
        with pytest.raises(IllegalActionError, match="out of range"):
            state.apply(bad)
    state.apply(np.int64(legal))  # numpy integers are fine


def test_apply_after_the_end_is_refused():
    state = new_game({"num_players": 2}, seed=1)
    rng = np.random.default_rng(0)
    while not state.is_terminal:
        legal = state.legal_actions()
        state.apply(legal[rng.integers(len(legal))])
    assert state.returns() != [0.0, 0.0]
    with pytest.raises(IllegalActionError, match="the game is over"):
        state.apply(0)


def test_returns_before_the_end_are_zero():
    state = new_game({"num_players": 4}, seed=2)
    assert state.returns("score") == [0.0] * 4


def test_clone_is_independent_and_from_dict_checks_config():
    state = new_game({"num_players": 3}, seed=3)
    twin = state.clone()
    before = state.to_dict()
    twin.apply(twin.legal_actions()[0])
    assert state.to_dict() == before
    assert twin.to_dict() != before
    other = ChickwoodGame(num_players=4)
    with pytest.raises(ValueError, match="another game or configuration"):
        other.state_from_dict(before)
    back = state.game.state_from_dict(json.loads(json.dumps(before)))
    assert back.to_dict() == before


def test_same_seed_same_game_different_seed_different_game():
    a, b, c = (new_game({"num_players": 3}, seed=s) for s in (9, 9, 10))
    assert a.to_dict() == b.to_dict()
    assert a.to_dict() != c.to_dict()


# --- registry and agents ----------------------------------------------------------------------
def test_registry_unknown_ids_and_agents():
    assert "chickwood_v0" in forest_envs.ENV_IDS
    with pytest.raises(ConfigError, match="unknown env id 'nope_v0'.*chickwood_v0"):
        forest_envs.make("nope_v0")
    with pytest.raises(ConfigError, match="unknown agent 'genius'.*random.*heuristic"):
        make_agent("chickwood_v0", "genius")
    assert isinstance(make_agent("chickwood_v0", "random", seed=1), RandomAgent)
    for bad in ({}, {"env_id": "chickwood_v0"}, None):
        with pytest.raises(ValueError, match="needs 'env_id', 'seed' and 'actions'"):
            forest_envs.replay(bad)


def test_replay_rejects_actions_after_the_end():
    env = forest_envs.make("chickwood_v0", num_players=2)
    env.reset(seed=4)
    agent = RandomAgent(0)
    while not env.unwrapped.engine_state.is_terminal:
        env.step(agent.act(env, env.agent_selection))
    rec = env.unwrapped.record()
    rec["actions"] = rec["actions"] + [0]
    with pytest.raises(ValueError, match="after the game ended"):
        forest_envs.replay(rec)


def test_random_agent_is_legal_uniform_and_seeded():
    env = forest_envs.make("chickwood_v0", num_players=3)
    env.reset(seed=0)
    agent = RandomAgent(seed=1)
    assert isinstance(agent, Agent)
    current = env.agent_selection
    legal = set(np.flatnonzero(env.unwrapped.action_mask(current)).tolist())
    picks = [agent.act(env, current) for _ in range(400)]
    assert set(picks) == legal  # uniform over the legal actions: all of them appear
    again = RandomAgent(seed=1)
    assert [again.act(env, current) for _ in range(400)] == picks
    agent.reset(seed=1)
    assert [agent.act(env, current) for _ in range(10)] == picks[:10]
    waiting = next(a for a in env.possible_agents if a != current)
    with pytest.raises(ValueError, match=f"{waiting} has no legal action"):
        agent.act(env, waiting)
