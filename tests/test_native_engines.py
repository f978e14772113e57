"""The native (C++) engines against the Python reference, for every registered game that has
one: the differential fuzz (forest_envs/testing/differential.py) on every configuration, the
seed's first state, hostile state dicts and actions that must be refused, never crash.

Where the extension is not built the tests skip, saying why, except under
``FOREST_ENVS_REQUIRE_NATIVE=1`` (set by ``make test``), where a missing engine fails: a
broken build must not pass as a skipped suite.
"""

from __future__ import annotations

import copy
import os

import numpy as np
import pytest

import forest_envs
from forest_envs.core import engines
from forest_envs.core.errors import IllegalActionError
from forest_envs.core.registry import env_ids, game_spec
from forest_envs.testing.differential import DiffOptions, compare_states, differential_fuzz

REQUIRE = os.environ.get("FOREST_ENVS_REQUIRE_NATIVE") == "1"
# Games whose native engine is written (the others come in later; this list only grows).
WRITTEN = ("chickwood_v0", "roundforest_v0", "sherwood_v0")


def native_or_skip(env_id: str):
    game_class = game_spec(env_id).game_class
    if game_class.native_state_class is None:
        if REQUIRE and env_id in WRITTEN:
            pytest.fail(f"{env_id}: the native engine is required but missing: {game_class.native_unavailable}")
        pytest.skip(f"{env_id}: no native engine ({game_class.native_unavailable})")
    return game_class.native_state_class


NATIVE_GAMES = [e for e in env_ids() if e in WRITTEN]


def test_every_written_engine_is_registered():
    assert set(WRITTEN) <= set(env_ids())
    assert forest_envs  # the package registers its games on import


@pytest.mark.parametrize("env_id", NATIVE_GAMES)
def test_first_states_agree_for_many_seeds(env_id):
    native = native_or_skip(env_id)
    game_class = game_spec(env_id).game_class
    for config in game_class.all_configs():
        game = game_class.shared(config)
        for seed in [0, 1, 2, 99, 2**31 - 1, 2**32, 2**63 + 11, 2**64 - 1, 2**64 + 5, 2**100]:
            compare_states(game.new_initial_state(seed), native.new_from_seed(game, seed),
                           f"{env_id} {config} seed {seed}")


@pytest.mark.parametrize("env_id", NATIVE_GAMES)
def test_differential_fuzz(env_id):
    """A few thousand actions over every configuration, every fuzz role, both readers; each
    game cut at 200 actions (a Roundforest game played whole took 27,000 actions and most of
    the fast suite's time: whole games are the million-action run's)."""
    native_or_skip(env_id)
    configs = game_spec(env_id).game_class.all_configs()
    run, compared = differential_fuzz(env_id, games=2 * len(configs), seed=11, max_steps=200,
                                      options=DiffOptions(illegal=0.1, resample=0.05, clone=0.03,
                                                          round_trip=0.03, views=0.02))
    assert run.games == 2 * len(configs)
    assert compared == run.actions >= 1000


@pytest.mark.slow
@pytest.mark.parametrize("env_id", NATIVE_GAMES)
def test_differential_fuzz_a_million_actions(env_id):
    native_or_skip(env_id)
    run, compared = differential_fuzz(env_id, games=10**6, seed=12, action_budget=1_000_000,
                                      options=DiffOptions(illegal=0.02, resample=0.01, clone=0.01,
                                                          round_trip=0.005, views=0.002))
    assert compared >= 1_000_000


@pytest.mark.parametrize("env_id", NATIVE_GAMES)
def test_refused_actions_name_the_problem(env_id):
    native = native_or_skip(env_id)
    game = game_spec(env_id).game_class.shared({})
    py, nt = game.new_initial_state(5), native.new_from_seed(game, 5)
    for bad in (True, np.bool_(False), 1.0, "3", None, -1, game.num_actions, 10**30, -(10**30)):
        errors = []
        for state in (py, nt):
            with pytest.raises(IllegalActionError) as err:
                state.apply(bad)
            errors.append(str(err.value))
        assert errors[0] == errors[1], bad
    legal = int(np.flatnonzero(nt.legal_action_mask())[0])
    nt.apply(np.int64(legal))  # numpy integers are actions
    py.apply(np.int16(legal))
    compare_states(py, nt)


@pytest.mark.parametrize("env_id", NATIVE_GAMES)
def test_a_finished_game_refuses_every_action(env_id):
    native = native_or_skip(env_id)
    game = game_spec(env_id).game_class.shared({})
    # random play may never end a game (Roundforest's deadlocks): the first seed whose does
    for seed in range(3, 40):
        state = native.new_from_seed(game, seed)
        state._random_playout(seed + 1, 10**5)
        if state.is_terminal:
            break
    assert state.is_terminal and state.current_player == -1
    assert not state.legal_action_mask().any()
    with pytest.raises(IllegalActionError, match="the game is over"):
        state.apply(0)


def _hostile_dicts(good: dict, layout_size: int):
    """(what is wrong, a state dict with it)."""
    def edit(change):
        d = copy.deepcopy(good)
        change(d)
        return d

    yield "a short buffer", edit(lambda d: d.update(buf=d["buf"][:-1]))
    yield "a float buffer", edit(lambda d: d.update(buf=[0.5] * layout_size))
    yield "a negative count", edit(lambda d: d["buf"].__setitem__(len(d["buf"]) - 1, -3))
    yield "a count past its range", edit(lambda d: d["buf"].__setitem__(len(d["buf"]) - 1, 30000))
    yield "another game's dict", edit(lambda d: d.update(env_id="nothing_v0"))
    yield "a decision of an unknown kind", edit(lambda d: d.update(decisions={"tuple": []})
                                               or d.update(decisions=[{"tuple": [99, 0, {"tuple": []}]}]))
    yield "a decision of no seat", edit(lambda d: d.update(decisions=[{"tuple": [0, 9, {"tuple": []}]}]))
    yield "a decision carrying too much", edit(
        lambda d: d.update(decisions=[{"tuple": [0, 0, {"tuple": [1, 2, 3, 4, 5, 6, 7, 8]}]}]))
    yield "a turn of no seat", edit(lambda d: d.update(turn=7))
    yield "a generator state that is no PCG64", edit(lambda d: d["rng"].update(bit_generator="MT19937"))


def _refusals(game, data) -> list[str]:
    """What each engine says of a state dict it must refuse (a ValueError, the same words)."""
    out = []
    for engine in engines.available(type(game)):
        with pytest.raises(ValueError) as err:
            game.state_from_dict(data, engine)
        out.append(str(err.value))
    return out


@pytest.mark.parametrize("env_id", NATIVE_GAMES)
def test_hostile_state_dicts_are_refused_with_the_same_clear_error(env_id):
    native_or_skip(env_id)
    game = game_spec(env_id).game_class.shared({})
    good = game.new_initial_state(1).to_dict()
    compare_states(game.new_initial_state(1, "python"), game.state_from_dict(good, "native"))
    for what, data in _hostile_dicts(good, game.layout.size):
        said = _refusals(game, data)
        assert len(set(said)) == 1, (what, said)
        assert said[0].startswith("state dict"), (what, said)


def test_chickwood_hostile_fields_are_refused_with_the_same_words():
    native_or_skip("chickwood_v0")
    from forest_envs.chickwood.rules import ChickwoodGame

    game = ChickwoodGame.shared({"num_players": 3})
    good = game.new_initial_state(2).to_dict()
    deck = good["deck"]["array"]
    cases = {
        "deck": [{"array": [30, 1], "dtype": "|i1", "shape": [2]}, [1, 2],
                 {"array": deck[:1] + deck[:-1], "dtype": "|i1", "shape": [len(deck)]}],  # a duplicate
        "order": [{"tuple": [0, 0, 1]}, [0, 1, 2]],
        "grid": [{"tuple": [0, 1, 2]}, {"tuple": [0] * 9}],
        "step": [99, -1, True],
        "end_stages": [{"tuple": [0]}, {"tuple": [7, 5]}],
        "raids": [[[7], [], []], [[]]],
        "discard_fd": [[{"tuple": [1, 2]}]],
    }
    for field, values in cases.items():
        for value in values:
            bad = copy.deepcopy(good)
            bad[field] = value
            said = _refusals(game, bad)
            assert len(set(said)) == 1, (field, value, said)
            assert "deck" in said[0] or field in said[0] or "cards do not add up" in said[0], said


def test_chickwood_native_constants_match_the_python_tables():
    native_or_skip("chickwood_v0")
    from forest_envs.chickwood import actions as A
    from forest_envs.chickwood import components as C
    from forest_envs.chickwood import observation as O
    from forest_envs.chickwood.native import _engine
    from forest_envs.chickwood.rules.raiding import BENEFACTOR_VALUE, NO_LAST_CELL

    got = _engine.constants()
    kinds = got.pop("Kind")
    assert kinds == {k.name.upper(): i for i, k in enumerate(O.DECISIONS)}
    want = {name: getattr(C, name) for name in got if hasattr(C, name)}
    want.update(JEWELRY_VALUE=tuple(C.JEWELRY_VALUE), BENEFACTOR_VALUE=tuple(BENEFACTOR_VALUE.tolist()),
                NO_LAST_CELL=NO_LAST_CELL, MAX_OPPONENTS=A.MAX_OPPONENTS)
    assert got == want


def test_roundforest_native_constants_match_the_python_tables():
    native_or_skip("roundforest_v0")
    from forest_envs.roundforest import components as C
    from forest_envs.roundforest import observation as O
    from forest_envs.roundforest.native import _engine
    from forest_envs.roundforest.rules import bags, facts, state

    got = _engine.constants()
    kinds = got.pop("Kind")
    assert kinds == {k.name.upper(): i for i, k in enumerate(O.DECISIONS)}
    sources = (C, O, bags, facts, state)
    want = {name: next(getattr(m, name) for m in sources if hasattr(m, name)) for name in got
            if any(hasattr(m, name) for m in sources)}
    want["FAIRY_COST"] = tuple(C.FAIRY_COST)
    assert set(want) == set(got), set(got) - set(want)
    assert got == want
    # the heavy kinds come first, the coin tokens last, as the C++ rules read them
    assert C.HEAVY_KINDS == slice(0, 5) and C.COIN_TOKENS == {C.COPPER_TOKEN, C.SILVER_TOKEN}
    assert C.CHIPS.keys() == {C.BLUE, C.YELLOW, C.RED} and bags.CHIP_ORDER == (C.BLUE, C.YELLOW, C.RED)


def test_sherwood_native_constants_match_the_python_tables():
    native_or_skip("sherwood_v0")
    from forest_envs.sherwood import actions as A
    from forest_envs.sherwood import components as C
    from forest_envs.sherwood import observation as O
    from forest_envs.sherwood.native import _engine
    from forest_envs.sherwood.rules import agreements, attacks, negotiate, rounds

    got = _engine.constants()
    kinds = got.pop("Kind")
    assert kinds == {k.name.upper(): i for i, k in enumerate(O.DECISIONS)}
    assert kinds == {k.name: k.value for k in O.Kind}
    sources = (C, A, O, agreements, attacks, negotiate, rounds)
    want = {name: next(getattr(m, name) for m in sources if hasattr(m, name)) for name in got
            if any(hasattr(m, name) for m in sources)}
    want.update(NUM_LETTERS=len(C.ALLIANCE_LETTERS), NUM_TOWNS=len(C.TOWNS), RED_FORKS=tuple(C.RED_FORKS),
                WEAPON_STRENGTH=tuple(C.WEAPON_STRENGTH), EQUIPMENT_COUNTS=tuple(C.EQUIPMENT_COUNTS))
    assert set(want) == set(got), set(got) - set(want)
    assert got == want
    # the places' order, the weapons first, as the C++ rules read them
    assert C.PLACES == ("church", "inn", "merchant", "market")
    assert C.EQUIPMENT[:C.NUM_WEAPON_KINDS] == ("cudgel", "bow", "sword")


def test_sherwood_hostile_fields_are_refused_by_both_engines_alike():
    native_or_skip("sherwood_v0")
    from forest_envs.sherwood import SherwoodGame

    game = SherwoodGame.shared({"num_players": 4, "additions": True})
    good = game.new_initial_state(2).to_dict()
    coach = {"record": "forest_envs.sherwood.rules.records.Coach", "fields": {"card": 0, "step": 0, "destination": 0}}
    cases = {
        "pile": [[99], [-1], [True], {"tuple": [1]}, good["pile"] + good["pile"][:1]],
        "slots": [good["slots"][:5], good["slots"][:5] + [99], good["slots"][:5] + [good["pile"][0]]],
        "equip_deck": [[6], [-2], [0.5]],
        "leads": [[4], [-1]],
        "window": [[9]],
        "round_index": [7, -1, True],
        "tokens": [{"dict": [[{"tuple": [12, 0]}, 0]]}, {"dict": [[{"tuple": [0, 4]}, 0]]},
                   {"dict": [[{"tuple": [0, 0]}, 6]]}, {"dict": [[{"tuple": [0, 0]}, 1], [{"tuple": [1, 0]}, 1]]}],
        "targets": [{"dict": [[12, 0]]}, {"dict": [[0, 55]]}],
        "coach": [coach, 5, {"record": coach["record"], "fields": {**coach["fields"], "destination": 2}}],
    }
    for field, values in cases.items():
        for value in values:
            bad = copy.deepcopy(good)
            bad[field] = value
            said = _refusals(game, bad)
            assert len(set(said)) == 1, (field, value, said)
            assert said[0].startswith("state dict: "), said
            assert f"'{field}'" in said[0] or "do not add up" in said[0], said


def test_sherwood_hostile_decision_stacks_are_refused_never_crash():
    """A native state whose top decision was set from Python to any kind, player and data
    (no ``edited()``): the mask and every action it allows raise a clear error or play on,
    never read or write outside an array (a crash would kill the test process)."""
    native_or_skip("sherwood_v0")
    from forest_envs.sherwood import SherwoodGame
    from forest_envs.sherwood.observation import DECISIONS

    rng = np.random.default_rng(3)
    tried = 0
    for config in ({"num_players": 3}, {"num_players": 5, "additions": True}):
        state = SherwoodGame.shared(config).new_initial_state(4, "native")
        while not state.is_terminal and tried < 400:
            hostile = state.clone()
            kind = int(rng.integers(len(DECISIONS)))
            spec = DECISIONS[kind]
            data = [int(rng.integers(high + 1)) for _, high in spec.ints] + [int(rng.integers(-1, 7)) for _ in spec.seats]
            try:
                hostile.decisions = [*hostile.decisions[:-1], (kind, int(rng.integers(-1, 7)), tuple(data))]
                for action in np.flatnonzero(hostile.legal_action_mask())[:3]:
                    played = hostile.clone()
                    played.apply(int(action))
                    played.observation(0)
                    played.to_dict()
            except (ValueError, IllegalActionError, RuntimeError):
                pass
            tried += 1
            state.apply(int(rng.choice(np.flatnonzero(state.legal_action_mask()))))
    assert tried >= 400


def test_roundforest_hostile_fields_are_refused_by_both_engines_alike():
    native_or_skip("roundforest_v0")
    from forest_envs.roundforest import RoundforestGame

    game = RoundforestGame.shared({"num_players": 3})
    good = game.new_initial_state(2).to_dict()
    tile = game.tile_cells[0]
    cases = {
        "pos": [[99, 5, 30], [0, 5], [tile, tile, 30], [game.corner[1], 5, 30], [True, 5, 30], {"tuple": [0, 5, 30]}],
        "pile": [[1, 1, 2], [12], [-1], [True]],
    }
    for field, values in cases.items():
        for value in values:
            bad = copy.deepcopy(good)
            bad[field] = value
            said = _refusals(game, bad)
            assert len(set(said)) == 1, (field, value, said)
            assert field in said[0], said


def test_roundforest_board_is_checked_by_both_engines_alike():
    """A tile cell without its tile, and a pending token decision on a cell with no token,
    are refused with the same words by every engine (rules/checks.py)."""
    from forest_envs.roundforest import RoundforestGame
    from forest_envs.roundforest.observation import Kind

    game = RoundforestGame.shared({"num_players": 3})
    good = game.new_initial_state(2).to_dict()
    block = game.layout.blocks
    empty = next(c for c in game.tile_cells
                 if good["buf"][block["cell_item"].offset + c] < 0)

    def poke(name: str, index: int, value: int):
        def edit(d):
            d["buf"][block[name].offset + index] = value
        return edit

    def token_decision(d):  # the decision and its blocks, as the Python engine writes them
        s = game.new_initial_state(2, "python")
        s.replace(Kind.TOKEN_ITEM, s.current_player, empty)
        d.update(buf=s.to_dict()["buf"], decisions=s.to_dict()["decisions"])

    cases = {
        "has no tile": poke("cell_tile", game.tile_cells[3], -1),
        "which holds no item token": token_decision,
    }
    for words, edit in cases.items():
        bad = copy.deepcopy(good)
        edit(bad)
        said = _refusals(game, bad)
        assert len(set(said)) == 1, (words, said)
        assert words in said[0], (words, said)
    # the untouched dict loads on every engine
    for engine in engines.available(RoundforestGame):
        game.state_from_dict(copy.deepcopy(good), engine)
