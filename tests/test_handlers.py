"""Each game's table of contents: ``HANDLERS`` maps every decision kind (its ``Kind``
member) to its mask, apply and why handlers, and the engine's dispatch is built from it,
never from method names."""

from __future__ import annotations

from enum import IntEnum

import numpy as np
import pytest
from toy_game import Kind as ToyKind
from toy_game import ToyGame, ToyState

from forest_envs.core.decisions import DecisionKind, Handlers, dispatch_tables
from forest_envs.core.registry import env_ids, game_spec
from forest_envs.core.state import BufferState

STATES = [game_spec(e).game_class.state_class for e in env_ids()] + [ToyState]


@pytest.mark.parametrize("state_class", STATES, ids=lambda c: c.__name__)
def test_the_dispatch_is_the_table_in_kind_order(state_class):
    table = state_class.HANDLERS
    kinds = sorted(table, key=int)
    assert [k.name for k in kinds] == [d.name.upper() for d in state_class.DECISIONS]
    assert all(isinstance(k, IntEnum) for k in kinds)
    assert state_class._MASKERS == tuple(table[k].mask for k in kinds)
    assert state_class._APPLIERS == tuple(table[k].apply for k in kinds)
    assert state_class._EXPLAINERS == tuple(table[k].why for k in kinds)


@pytest.mark.parametrize("state_class", STATES, ids=lambda c: c.__name__)
def test_the_table_names_what_the_state_would_run(state_class):
    """No handler of the table is shadowed by another definition of the same method in the
    state's classes (an override the table would silently ignore)."""
    for kind, handlers in state_class.HANDLERS.items():
        for fn in handlers:
            if fn is not None:
                assert getattr(state_class, fn.__name__) is fn, (kind, fn.__qualname__)


def test_a_wrong_table_is_refused_when_the_class_is_made():
    kinds = (DecisionKind("take"), DecisionKind("answer"))

    class Other(IntEnum):
        TAKE = 0
        ASK = 1

    def mask(state, d, m):
        pass

    def apply(state, d, a):
        pass

    ok = Handlers(mask, apply)
    assert dispatch_tables("S", kinds, {ToyKind.TAKE: ok, ToyKind.ANSWER: ok})[0] == (mask, mask)
    for wrong, words in (({ToyKind.TAKE: ok}, r"missing \['ANSWER'\]"),
                         ({0: ok, 1: ok}, "not a decision kind"),
                         ({ToyKind.TAKE: ok, Other.ASK: ok}, "missing"),
                         ({ToyKind.TAKE: ok, ToyKind.ANSWER: (mask, apply)}, "must be Handlers")):
        with pytest.raises(TypeError, match=words):
            dispatch_tables("S", kinds, wrong)
    with pytest.raises(TypeError, match="declares DECISIONS but no HANDLERS"):
        type("NoTable", (BufferState,), {"DECISIONS": kinds, "__slots__": ()})


def test_a_pending_decision_holds_its_kind_as_a_plain_int():
    state = ToyGame.shared({"num_players": 2}).new_initial_state(seed=0)
    assert type(state.decision.kind) is int and state.decision.kind == ToyKind.TAKE
    state.apply(int(np.flatnonzero(state.legal_action_mask())[0]))
    assert type(state.decision.kind) is int and state.decision.kind == ToyKind.ANSWER
