"""forest_envs.core on its own: layout visibility and seat axes, the action-space builder,
plain nested state data, option validation, returns built from ranks, seeded generators, the
engine base class and its decision stack (through the toy game of tests/toy_game.py), the
registry and the random agent."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from toy_game import AGREE, DOUBLE, TAKE, Kind, ToyGame

import forest_envs
from forest_envs.agents import make_agent
from forest_envs.agents.base import Agent, RandomAgent
from forest_envs.chickwood import ChickwoodGame
from forest_envs.core.actions import ActionSpace
from forest_envs.core.config import Option, validate_options
from forest_envs.core.decisions import DecisionKind
from forest_envs.core.errors import ConfigError, ForestEnvError, IllegalActionError, WrongAgentError
from forest_envs.core.layout import Layout
from forest_envs.core.plain import deep_copy, from_json, record, to_json
from forest_envs.core.registry import env_ids, game_spec
from forest_envs.core.results import REWARD_MODES, competition_ranks, returns_from_ranks
from forest_envs.core.rng import make_rng, rng_from_json, rng_to_json
from forest_envs.envs.registration import register, unregister


def new_game(config, seed):
    return ToyGame(**config).new_initial_state(seed)


def scores_to_ranks_and_returns(scores, mode, scale=10.0):
    return returns_from_ranks(competition_ranks(scores), mode, scores, scale)


# --- layout ---------------------------------------------------------------------------------
def small_layout(n: int = 3) -> Layout:
    L = Layout(n)
    L.add("pub", 2, high=9)
    L.add("rows", (n, 2), high=9, seats=0)             # first axis is a seat
    L.add("cols", (2, n), high=9, seats=1)             # last axis is a seat
    L.add("pairs", (n, n), high=9, seats=(0, 1))       # seat x seat
    L.add("secret", (n, 2), high=99, see="owner")
    L.add("secret_about", (n, n), high=99, see="owner", seats=1)  # own row, others rotated
    L.add("bookkeeping", 4, high=999, see="nobody")
    L.add("scaled", 1, high=4, low=-2, scale=0.5)
    return L.freeze()


def test_layout_sizes_and_views():
    n = 3
    L = small_layout(n)
    assert L.size == 2 + 2 * n + 2 * n + n * n + 2 * n + n * n + 4 + 1
    # "nobody" blocks are not observed; "owner" blocks contribute one row
    assert L.observation_size == 2 + 2 * n + 2 * n + n * n + 2 + n + 1
    buf = L.new_buffer()
    assert buf.dtype == np.int16 and buf.shape == (L.size,) and not buf.any()
    views = L.views(buf)
    views["rows"][1, 0] = 7
    assert buf[L.blocks["rows"].offset + 2] == 7, "views must write through to the buffer"
    slices = L.observation_slices()
    assert list(slices) == ["pub", "rows", "cols", "pairs", "secret", "secret_about", "scaled"]
    assert slices["secret"][2] == (2,) and slices["rows"][2] == (n, 2)
    assert slices["scaled"][1] == L.observation_size


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_layout_gather_rotates_every_seat_axis(seat):
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
    np.testing.assert_array_equal(part("cols"), v["cols"][:, rot])
    np.testing.assert_array_equal(part("pairs"), v["pairs"][np.ix_(rot, rot)])  # both axes
    assert part("pairs")[0, 1] == v["pairs"][seat, (seat + 1) % n]
    np.testing.assert_array_equal(part("secret"), v["secret"][seat])          # own row only
    np.testing.assert_array_equal(part("secret_about"), v["secret_about"][seat][rot])
    np.testing.assert_array_equal(part("scaled"), v["scaled"] * 0.5)          # scale applied
    hidden = set(v["bookkeeping"].tolist())
    others = {int(x) for o in range(n) if o != seat for x in v["secret"][o]}
    assert not hidden & set(obs.tolist()), "a 'nobody' block leaked into an observation"
    assert not others & set(obs.tolist()), "another seat's own row leaked"
    assert L.scale.shape == (L.observation_size,)


def test_layout_bounds_come_from_the_declared_ranges():
    L = small_layout(3)
    s = L.observation_slices()
    lo, hi, _ = s["scaled"]
    assert L.obs_low[lo:hi].tolist() == [-1.0] and L.obs_high[lo:hi].tolist() == [2.0]
    lo, hi, _ = s["secret"]
    assert L.obs_high[lo:hi].tolist() == [99.0, 99.0]
    assert L.state_high.shape == (L.size,) and L.state_high.max() == 999
    buf = L.new_buffer()
    assert L.out_of_range(buf) == []
    L.views(buf)["pub"][1] = 10
    L.views(buf)["scaled"][0] = -3
    assert [x.split(" ")[0] for x in L.out_of_range(buf)] == ["pub", "scaled"]


def test_layout_unit_scale_and_rejections():
    L = Layout(2)
    L.add("a", 3, high=5)
    L.freeze()
    assert L.unit_scale
    np.testing.assert_array_equal(L.observe(np.array([1, 2, 3], np.int16), 1), [1, 2, 3])
    with pytest.raises(RuntimeError, match="frozen"):
        L.add("b", 1, high=1)
    M = Layout(3)
    with pytest.raises(ValueError, match="unknown visibility 'secretive'"):
        M.add("x", 3, high=1, see="secretive")
    with pytest.raises(ValueError, match="axis 0 must be the 3 owning seats"):
        M.add("x", (4,), high=1, see="owner")
    with pytest.raises(ValueError, match="seat axis 1 must have 3 entries"):
        M.add("x", (3, 2), high=1, seats=(0, 1))
    with pytest.raises(ValueError, match="owner axis 0 is not rotated"):
        M.add("x", (3, 3), high=1, see="owner", seats=(0,))
    with pytest.raises(ValueError, match="does not fit int16"):
        M.add("x", 1, high=40_000)
    M.add("x", 1, high=1)
    with pytest.raises(ValueError, match="declared twice"):
        M.add("x", 1, high=1)


# --- the action-space builder ------------------------------------------------------------------
def test_action_space_blocks_encode_decode_and_names():
    space = ActionSpace()
    play = space.add("play", (3, 2), lambda k, c: f"play {k} at {c}")
    stop = space.add("stop", (), lambda: "stop")
    pick = space.add("pick", 4, lambda i: f"pick {i}")
    space.freeze()
    assert space.size == 11 and (play.start, stop.start, pick.start) == (0, 6, 7)
    assert play.id(2, 1) == 5 and play.index(5) == (2, 1) and 5 in play and 6 not in play
    assert stop.id() == 6 and stop.index(6) == ()
    assert space.decode(9) == ("pick", (2,)) and space.encode("pick", 2) == 9
    assert space.names[5] == "play 2 at 1" and space.names[6] == "stop"
    assert space.id_of("pick 3") == 10 and space.id_of("nothing") is None
    for a in range(space.size):
        block, index = space.decode(a)
        assert space.encode(block, *index) == a
    assert [r["block"] for r in space.table()] == ["play", "stop", "pick"]
    with pytest.raises(IndexError, match="shape \\(3, 2\\)"):
        play.id(3, 0)
    with pytest.raises(RuntimeError, match="frozen"):
        space.add("more", 1, str)
    dup = ActionSpace()
    dup.add("a", 2, lambda i: "same")
    with pytest.raises(ValueError, match="unique"):
        dup.freeze()


# --- plain nested state data ----------------------------------------------------------------------
NESTED = {"lists": [[1, 2], [3, [4, 5]]], "tuples": ((1, (2, 3)), ()), 3: {"x": [(-1, 2)]},
          (1, 2): None, "array": np.arange(6, dtype=np.int8).reshape(2, 3), "f": 2.5, "b": True}


def test_plain_json_round_trip_keeps_nested_types():
    back = from_json(json.loads(json.dumps(to_json(NESTED))))
    assert set(back) == set(NESTED)
    for k, v in NESTED.items():
        if isinstance(v, np.ndarray):
            assert back[k].dtype == v.dtype and back[k].shape == v.shape
            np.testing.assert_array_equal(back[k], v)
        else:
            assert back[k] == v and type(back[k]) is type(v)
    assert isinstance(back["tuples"][0][1], tuple) and isinstance(back["lists"][1][1], list)


@record
class _Offer:
    """A record for the tests below: typed fields, one of them nested plain data."""

    ambush: int
    asked: list
    note: str = ""


def test_records_round_trip_through_json_and_copy_deeply():
    offer = _Offer(2, [(1, 0, 3)], "x")
    data = json.loads(json.dumps(to_json({"offer": offer, "none": None})))
    back = from_json(data)["offer"]
    assert back == offer and type(back) is _Offer and back.asked[0] == (1, 0, 3)
    twin = deep_copy(offer)
    twin.asked.append((2, 1, 0))
    twin.ambush = 5
    assert offer.asked == [(1, 0, 3)] and offer.ambush == 2
    with pytest.raises(AttributeError):
        offer.not_a_field = 1        # slots: a misspelt field name is an error, not a new key
    data["dict"][0][1]["fields"].pop("note")
    with pytest.raises(ValueError, match="has fields"):
        from_json(data)
    with pytest.raises(ValueError, match="not a known record class: 'nowhere.Thing'"):
        from_json({"record": "nowhere.Thing", "fields": {}})


@record(formerly=("old.place.Offer",))
class _MovedOffer:
    """A record whose class moved: it was ``old.place.Offer``."""

    ambush: int


def test_a_moved_record_loads_under_its_former_name_and_is_written_under_its_new():
    name = f"{__name__}._MovedOffer"
    assert to_json(_MovedOffer(3)) == {"record": name, "fields": {"ambush": 3}}
    back = from_json({"record": "old.place.Offer", "fields": {"ambush": 3}})
    assert type(back) is _MovedOffer and back.ambush == 3
    with pytest.raises(TypeError, match="two record classes are named old.place.Offer"):
        record(formerly=("old.place.Offer",))(type("Other", (), {"__annotations__": {"x": int}}))


def test_deep_copy_shares_nothing_mutable():
    copy = deep_copy(NESTED)
    copy["lists"][1][1].append(6)
    copy[3]["x"].append(0)
    copy["array"][0, 0] = 99
    assert NESTED["lists"][1][1] == [4, 5] and NESTED[3]["x"] == [(-1, 2)]
    assert NESTED["array"][0, 0] == 0
    assert deep_copy(NESTED["tuples"]) is NESTED["tuples"]  # immutable: reused
    with pytest.raises(TypeError, match="plain data only, not object"):
        deep_copy(object())


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


# --- results: ranks and returns -------------------------------------------------------------------
def test_competition_ranks_with_tuple_keys():
    assert competition_ranks([10, 30, 20]) == [3, 1, 2]
    assert competition_ranks([5, 9, 9, 1]) == [3, 1, 1, 4]
    assert competition_ranks([7, 7]) == [1, 1]
    assert competition_ranks([(1, 0), (1, 2), (0, 9)]) == [2, 1, 3]  # a tie-break decides


def test_returns_win():
    assert scores_to_ranks_and_returns([10, 30, 20], "win") == [0.0, 1.0, 0.0]
    assert scores_to_ranks_and_returns([9, 9, 1], "win") == [0.5, 0.5, 0.0]
    assert returns_from_ranks([1, 1, 1, 1], "win") == [0.25] * 4


def test_returns_rank():
    assert returns_from_ranks([3, 1, 2], "rank") == [0.0, 1.0, 0.5]
    assert returns_from_ranks([3, 1, 1, 4], "rank") == pytest.approx([1 / 3, 1.0, 1.0, 0.0])


def test_returns_score_needs_points():
    assert scores_to_ranks_and_returns([10, 30, 20], "score") == pytest.approx([-1.5, 1.5, 0.0])
    assert returns_from_ranks([2, 1], "score", [10, 30], 1) == [-20.0, 20.0]
    with pytest.raises(ValueError, match="needs a game with points"):
        returns_from_ranks([1, 2], "score")


def test_returns_unknown_mode():
    with pytest.raises(ValueError, match="unknown reward mode 'best'.*win.*rank.*score"):
        returns_from_ranks([1, 2], "best")


@settings(max_examples=60, deadline=None, database=None)
@given(st.lists(st.integers(-20, 120), min_size=2, max_size=5))
def test_returns_properties(scores):
    n = len(scores)
    win = scores_to_ranks_and_returns(scores, "win")
    assert sum(win) == pytest.approx(1.0)
    assert all((w > 0) == (s == max(scores)) for w, s in zip(win, scores))
    rank = scores_to_ranks_and_returns(scores, "rank")
    assert all(0.0 <= r <= 1.0 for r in rank) and max(rank) == 1.0
    assert sum(scores_to_ranks_and_returns(scores, "score")) == pytest.approx(0.0, abs=1e-9)
    ranks = competition_ranks(scores)
    assert min(ranks) == 1 and max(ranks) <= n
    for i in range(n):  # higher score -> better (smaller) rank, in every mode
        for j in range(n):
            if scores[i] > scores[j]:
                assert ranks[i] < ranks[j]
                for mode in REWARD_MODES:
                    r = scores_to_ranks_and_returns(scores, mode)
                    assert r[i] >= r[j]


def test_a_game_without_points_has_no_score_mode_and_its_own_tie_break():
    state = new_game({"num_players": 3, "pile": 5}, seed=0)
    assert ToyGame.traits.reward_modes == ("win", "rank")
    assert state.scores() is None and state.totals() is None
    with pytest.raises(ValueError, match="no reward mode 'score'"):
        state.returns("score")
    # take 2 (P0), agree (P1), take 2 (P1), agree (P2), take 1 (P2): P2 took the last stick.
    for name in ("take 2", "agree", "take 2", "agree", "take 1"):
        state.apply(state.game.string_to_action(name))
    assert state.is_terminal
    assert state.ranks() == [2, 2, 1]       # the last taker first; 2 sticks each share 2nd
    assert state.returns("win") == [0.0, 0.0, 1.0]
    assert state.returns("rank") == [0.5, 0.5, 1.0]


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


# --- the engine base class and its decision stack (through the toy game) ------------------------------
def test_action_names_round_trip_and_errors():
    game = ChickwoodGame(num_players=3)
    for a in range(game.num_actions):
        assert game.string_to_action(game.action_to_string(a)) == a
    assert len(set(game.action_names)) == game.num_actions
    with pytest.raises(IllegalActionError, match="out of range"):
        game.action_to_string(game.num_actions)
    with pytest.raises(IllegalActionError, match="no action is named 'fly away'"):
        game.string_to_action("fly away")


def test_decision_stack_out_of_turn_answer():
    state = new_game({"num_players": 3, "pile": 7}, seed=0)
    assert state.decision_name() == "take" and state.current_player == 0 == state.turn_player
    state.apply(TAKE.id(1))                          # P0 takes 2
    assert [d.kind for d in state.decisions] == [0, Kind.ANSWER]
    assert state.decision_name() == "answer"
    assert state.current_player == 1 and state.turn_player == 0   # P1 answers on P0's turn
    assert state.decision.data == (2, 0)
    assert state.DECISIONS[Kind.ANSWER].names == ("amount", "taker")
    # the standard blocks show the pending decision and what it carries, rotated per seat
    obs = state.observation(1)
    sl = state.game.layout.observation_slices()
    part = {k: obs[a:b].reshape(shape) for k, (a, b, shape) in sl.items()}
    assert part["decision_kind"].tolist() == [0, 1]
    assert part["decision_player"].tolist() == [1, 0, 0]   # the observer decides
    assert part["turn_seat"].tolist() == [0, 0, 1]         # seat 0 is "+2" from seat 1
    assert part["decision_data"].tolist() == [2]
    assert part["decision_seat"].tolist() == [[0, 0, 1]]   # the taker, rotated
    with pytest.raises(IllegalActionError, match="the answer is agree or double"):
        state.apply(TAKE.id(0))
    state.apply(DOUBLE.id())                         # P0 must take one more
    assert state.taken.tolist() == [3, 0, 0] and state.takes[0] == [2, 1]
    assert (state.last.taker, state.last.amount, state.last.doubled) == (0, 1, True)
    assert state.decision_name() == "take" and state.current_player == 1 == state.turn_player
    assert len(state.decisions) == 1


def test_apply_validates_action_type_and_range():
    state = new_game({"num_players": 2, "pile": 7}, seed=0)
    legal = state.legal_actions()[0]
    for bad in (float(legal), np.float32(legal), True, np.bool_(True), "3", None, [legal]):
        with pytest.raises(IllegalActionError, match="action must be an int"):
            state.apply(bad)
    for bad in (-1, state.game.num_actions):
        with pytest.raises(IllegalActionError, match="out of range"):
            state.apply(bad)
    with pytest.raises(IllegalActionError, match="illegal for player 0: the pending decision is 'take'"):
        state.apply(AGREE.id())
    state.apply(np.int64(legal))  # numpy integers are fine


def test_apply_after_the_end_is_refused():
    state = new_game({"num_players": 2, "pile": 5}, seed=1)
    rng = np.random.default_rng(0)
    while not state.is_terminal:
        legal = state.legal_actions()
        state.apply(legal[rng.integers(len(legal))])
    assert state.returns() != [0.0, 0.0] and state.current_player == -1
    assert not state.legal_action_mask().any()
    with pytest.raises(IllegalActionError, match="the game is over"):
        state.apply(0)


def test_returns_before_the_end_are_zero():
    state = new_game({"num_players": 3, "pile": 7}, seed=2)
    assert state.returns("rank") == [0.0] * 3


def test_clone_is_deep_and_from_dict_round_trips_nested_fields():
    state = new_game({"num_players": 3, "pile": 7}, seed=3)
    state.apply(TAKE.id(0))
    twin = state.clone()
    before = state.to_dict()
    twin.apply(AGREE.id())
    twin.apply(TAKE.id(1))
    assert twin.takes[1] == [2] and state.takes[1] == [], "a clone shares a nested list"
    assert state.to_dict() == before and twin.to_dict() != before
    back = state.game.state_from_dict(json.loads(json.dumps(before)))
    assert back.to_dict() == before
    assert back.takes == {0: [1], 1: [], 2: []} and isinstance(back.decisions[-1].data, tuple)
    assert back.decision == state.decision and back.decision is state.decision  # shared
    assert back.last == state.last and type(back.last) is type(state.last)
    assert twin.last is not state.last and twin.last.taker == 1 and state.last.taker == 0
    bad = json.loads(json.dumps(before))
    bad["decisions"][-1]["tuple"][2]["tuple"].append(5)
    with pytest.raises(ValueError, match=r"decision 1 \(answer\) carries 3 values; the kind carries 2 "
                                         r"\(amount, taker\)"):
        state.game.state_from_dict(bad)
    other = ToyGame(num_players=2)
    with pytest.raises(ValueError, match="another game or configuration"):
        other.state_from_dict(before)


def test_edited_state_recomputes_its_mask():
    state = new_game({"num_players": 2, "pile": 7}, seed=0)
    assert state.legal_action_mask()[TAKE.id(1)]
    state.pile[0] = 1
    state.edited()
    assert not state.legal_action_mask()[TAKE.id(1)]


def test_same_seed_same_game_different_seed_different_game():
    a, b = (new_game({"num_players": 3, "pile": 7}, seed=9) for _ in range(2))
    assert a.to_dict() == b.to_dict()
    assert any(new_game({"num_players": 3, "pile": 7}, seed=s).to_dict() != a.to_dict()
               for s in range(10, 20))


# --- registry and agents ----------------------------------------------------------------------
def test_registry_unknown_ids_and_agents():
    assert "chickwood_v0" in forest_envs.ENV_IDS and "toy_v0" in env_ids()
    with pytest.raises(ConfigError, match="unknown env id 'nope_v0'.*chickwood_v0"):
        forest_envs.make("nope_v0")
    with pytest.raises(ConfigError, match="unknown agent 'genius'.*random.*heuristic"):
        make_agent("chickwood_v0", "genius")
    with pytest.raises(ConfigError, match="toy_v0 has no heuristic agent"):
        make_agent("toy_v0", "heuristic")
    assert isinstance(make_agent("toy_v0", "random", seed=1), RandomAgent)
    for bad in ({}, {"env_id": "chickwood_v0"}, None):
        with pytest.raises(ValueError, match="needs 'env_id', 'seed' and 'actions'"):
            forest_envs.replay(bad)


def test_register_checks_the_id_and_refuses_a_second_game():
    spec = game_spec("toy_v0")
    with pytest.raises(ValueError, match="env_id is 'toy_v0', not 'other_v0'"):
        register("other_v0", ToyGame, spec.env_class)
    with pytest.raises(ValueError, match="already registered by another game"):
        register("chickwood_v0", type("Fake", (ToyGame,), {"env_id": "chickwood_v0"}), spec.env_class)
    register("toy_v0", ToyGame, spec.env_class)  # the same game again is fine
    unregister("nothing_v0")


def test_core_and_shared_layers_name_no_game():
    """Every sub-package but the games' (core, envs, agents, evaluation, train, the CLI, the
    benchmark...) finds games only in the registry: none names one. The package facade
    (``forest_envs/__init__.py``) imports the games that ship, by name."""
    from pathlib import Path

    root = Path(forest_envs.__file__).parent
    games = {game_spec(e).game_class.__module__.split(".")[1] for e in forest_envs.ENV_IDS}
    shared = [p for p in root.rglob("*.py")
              if len(p.relative_to(root).parts) > 1 and p.relative_to(root).parts[0] not in games]
    assert len(shared) > 50
    for path in shared:
        text = path.read_text().lower()
        assert not [g for g in games if g in text], f"{path.relative_to(root)} names a game"
    for path in (root / "core").glob("*.py"):
        assert "from ..train" not in path.read_text() and "import train" not in path.read_text()


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


def test_shared_games_are_one_per_configuration_and_keep_types_apart():
    a = ToyGame.shared({"num_players": 3, "pile": 5})
    assert ToyGame.shared({"pile": 5, "num_players": 3}) is a
    assert ToyGame.shared({"num_players": 2}) is not a
    chickwood = ChickwoodGame.shared({"legendary": True})
    with pytest.raises(ConfigError, match="legendary=1 is invalid"):
        ChickwoodGame.shared({"legendary": 1})  # 1 == True, but not the same option value
    assert ChickwoodGame.shared({"legendary": True}) is chickwood


def _expected_decision_blocks(state) -> list[int]:
    """The decision blocks worked out from the pending decision, block by block."""
    game, n = state.game, state.num_players
    kinds, width = len(state.DECISIONS), state.decision_data.size
    out = [0] * (kinds + n + width + state.decision_seat.size)
    if state.decisions:
        kind, player, data = state.decisions[-1]
        ints = len(state.DECISIONS[kind].ints)
        out[kind] = 1
        out[kinds + player] = 1
        out[kinds + n:kinds + n + ints] = data[:ints]
        for slot, seat in enumerate(data[ints:]):
            if seat >= 0:
                out[kinds + n + width + slot * n + seat] = 1
    lo, hi = game._decision_region
    assert hi - lo == len(out)
    return out


def test_decision_blocks_follow_every_change_of_the_stack():
    state = new_game({"num_players": 3}, seed=1)
    other = state.game.new_initial_state(2)  # shares the game and its cache of patterns
    lo, hi = state.game._decision_region
    seen = 0
    rng = np.random.default_rng(0)
    while not state.is_terminal:
        assert state.buf[lo:hi].tolist() == _expected_decision_blocks(state)
        legal = np.flatnonzero(state.legal_action_mask())
        state.apply(int(rng.choice(legal)))
        seen += 1
    assert state.buf[lo:hi].tolist() == _expected_decision_blocks(state) == [0] * (hi - lo)
    assert seen > 3 and other.buf[lo:hi].tolist() == _expected_decision_blocks(other)
    # a pushed decision with a seat, then popped: the blocks come back exactly
    other.push(Kind.ANSWER, 2, 1, 0)
    assert other.buf[lo:hi].tolist() == _expected_decision_blocks(other)
    other.buf[lo:hi] = 5  # scribbling on one state's buffer never reaches the shared patterns
    other.pop()
    assert other.buf[lo:hi].tolist() == _expected_decision_blocks(other)
    assert not other.game.decision_pattern(other.decisions[-1]).flags.writeable


def test_order_enforced_env_keeps_pettingzoo_checks():
    from toy_game import ToyEnv

    from forest_envs.envs.order_enforcing import OrderEnforcedEnv

    env = OrderEnforcedEnv(ToyEnv(num_players=2))
    with pytest.raises(AssertionError, match="before step"):
        env.step(0)
    with pytest.raises(AssertionError, match="before agent_iter"):
        env.agent_iter()
    env.reset(seed=3)
    it = iter(env.agent_iter())
    assert next(it) == env.agent_selection
    with pytest.raises(AssertionError, match="need to call step"):
        next(it)
    env.reset(seed=3)
    steps = 0
    for agent in env.agent_iter(max_iter=1000):
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            assert not obs["action_mask"].any()
            assert not any(env.observe(a)["action_mask"].any() for a in env.possible_agents)
            env.step(None)
        else:
            others = [a for a in env.possible_agents if a != agent]
            assert not any(env.observe(a)["action_mask"].any() for a in others)
            env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        steps += 1
    assert not env.agents and steps == env.unwrapped.num_steps + 2


def test_a_kind_namespace_must_name_every_decision_in_order():
    from enum import IntEnum

    from forest_envs.core.decisions import check_kind_ids

    kinds = (DecisionKind("take"), DecisionKind("answer"))

    class Right(IntEnum):
        TAKE, ANSWER = 0, 1

    class Swapped(IntEnum):
        TAKE, ANSWER = 1, 0

    class Missing(IntEnum):
        TAKE = 0

    class Plain:
        TAKE, ANSWER = 0, 1

    check_kind_ids(Right, kinds)
    for wrong in (Swapped, Missing):
        with pytest.raises(TypeError, match=r"must be exactly \{'TAKE': 0, 'ANSWER': 1\}"):
            check_kind_ids(wrong, kinds)
    with pytest.raises(TypeError, match="must be an IntEnum"):
        check_kind_ids(Plain, kinds)


def test_prompt_and_narrate_have_generic_defaults():
    """A game without words of its own still tells a person who decides what, and logs the
    move by its name; once the game is over nothing is asked."""
    state = ToyGame.shared({"num_players": 2}).new_initial_state(seed=0)
    assert state.prompt(None) == "P0 to decide: take"
    before = state.clone()
    state.apply(TAKE.id(1))
    assert state.narrate(before, TAKE.id(1), 1) == "take 2"
    assert state.prompt(1) == "P1 to decide: answer"
    while not state.is_terminal:
        state.apply(state.legal_actions()[0])
    assert state.prompt(None) is None
