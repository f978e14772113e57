"""Helpers for building Sherwood Forest positions in the rules tests.

Positions are built by writing the state's named buffer views and fields (camps, gold,
ambushes, laid-out travellers) and then playing actions by their names, so each test reads
like the rulebook: ``act(state, "ambush at York Gate with 3")``. A native state's fields are
copies (its lists and records live in C++), so the helpers set a field whole.
"""

from __future__ import annotations

import numpy as np
import pytest
from engine_helpers import act, legal_names, phase  # noqa: F401  (re-exported to the tests)

from forest_envs.core import engines
from forest_envs.sherwood.components import AMBUSHES, EQUIPMENT, GOLD_BAGS
from forest_envs.sherwood.observation import Kind
from forest_envs.sherwood.rules import SherwoodGame, card_features, new_game


# Every test here runs on each engine this machine has (the Python reference and, where it is
# built, the native one): a rule's test is the native engine's test too. The engine is the
# default of every game the test makes ($FOREST_ENVS_ENGINE), so ``new_game`` plays on it. A
# test that needs one engine says so (``pytest.mark.python_only`` with its reason).
@pytest.fixture(params=engines.available(SherwoodGame), autouse=True)
def engine(request, monkeypatch):
    marker = request.node.get_closest_marker("python_only")
    if marker is not None and request.param != "python":
        pytest.skip(f"python engine only: {marker.args[0]}")
    monkeypatch.setenv(engines.ENGINE_VARIABLE, request.param)
    return request.param


def amb(name: str) -> int:
    return AMBUSHES.index(name)


def new_state(num_players: int = 3, seed: int = 0, figure: int = 0, additions: bool = False):
    """A new game whose starting player figure is ``figure`` (seat order from there)."""
    state = new_game({"num_players": num_players, "additions": additions}, seed=seed)
    state.figure[:] = 0
    state.figure[figure] = 1
    state.next_turn(Kind.PREP, figure, 0)
    state.edited()
    return state




def set_player(state, p: int, *, camp=None, oak=None, gold=None, fame=None, hand=None) -> None:
    """Set a player's numbers; the pit takes up the gold difference (42 bags in all)."""
    if camp is not None:
        state.camp[p] = camp
    if oak is not None:
        state.oak[p] = oak
    if gold is not None:
        state.gold[p] = gold
        state.pit[0] = GOLD_BAGS - int(state.gold.sum())
    if fame is not None:
        state.fame[p] = fame
    if hand is not None:
        deck = list(state.equip_deck)
        for name, k in hand.items():
            kind = EQUIPMENT.index(name)
            taken = min(k, deck.count(kind))
            for _ in range(taken):
                deck.remove(kind)
            state.hand[p, kind] = k
        state.equip_deck = deck
        state.hand_count[p] = int(state.hand[p].sum())
        state.equip_left[0] = len(state.equip_deck)
    state.edited()


def set_slots(state, ids: list[int], face_up: tuple = (0,)) -> None:
    """Lay out the traveller cards ``ids`` (the cards laid out before go back on the pile)."""
    pile, box, slots = list(state.pile), list(state.box), list(state.slots)
    for s, c in enumerate(slots):
        if c >= 0:
            pile.insert(0, c)
            slots[s] = -1
            for block in (state.slot_present, state.slot_face_up, state.slot_card, state.slot_told,
                          state.slot_marked):
                block[s] = 0
            state.peek[:, s] = 0
    for s, c in enumerate(ids):
        for where in (pile, box):
            if c in where:
                where.remove(c)
        slots[s] = c
        state.slot_present[s] = 1
        if s in face_up:
            state.slot_face_up[s] = 1
            state.slot_card[s] = card_features(c)
    state.pile, state.box, state.slots = pile, box, slots
    state.pile_left[0] = len(pile)
    state.edited()


def set_ambush(state, name: str, outlaws: dict[int, int], promised: dict[int, dict] | None = None) -> None:
    """Put outlaws (seat -> count; the first seat leads) in an ambush, out of their camps."""
    a = amb(name)
    for q, k in outlaws.items():
        state.ambush_outlaws[a, q] = k
    state.ambush_leader[a, next(iter(outlaws))] = 1
    deck, tokens = list(state.equip_deck), dict(state.tokens)
    for q, spec in (promised or {}).items():
        for cname, k in spec.items():
            kind = EQUIPMENT.index(cname)
            deck.remove(kind)
            state.promised[a, q, kind] = k
        tokens[(a, q)] = len(tokens)
    state.equip_deck, state.tokens = deck, tokens
    state.equip_left[0] = len(deck)
    state.edited()


def start_attacks(state, leads: list[int]) -> None:
    """Jump to the attack phase: ``leads`` are the seats to lead, in order."""
    state.attack_phase[0] = 1
    state.leads = list(leads)
    state.leads_left[:] = 0
    for p in leads:
        state.leads_left[p] += 1
    state.next_turn(Kind.LEAD, leads[0])
    state.edited()


def attack_setup(card: int, ambushes: dict, *, n: int = 3, hands=None, promised=None, gold=None,
                 additions: bool = False, leads=(0,), more_cards=()):
    """A position in the attack phase: traveller ``card`` laid out as traveller 1 (then
    ``more_cards``), the given ambushes (name -> {seat: outlaws}, the first seat leads)
    manned from the camps (a band above four takes figures from the oak), ``leads`` to lead."""
    s = new_state(n, additions=additions)
    s.equip_deck = s.equip_deck + [k for q in range(n) for k in np.repeat(np.arange(6), s.hand[q]).tolist()]
    s.hand[:] = 0
    s.hand_count[:] = 0
    set_slots(s, [card, *more_cards])
    used = {q: 0 for q in range(n)}
    for name, outlaws in ambushes.items():
        set_ambush(s, name, outlaws, (promised or {}).get(name))
        for q, k in outlaws.items():
            used[q] += k
    for q in range(n):
        extra = max(0, used[q] - 4)
        set_player(s, q, camp=4 + extra - used[q], oak=4 - extra)
    for q, h in (hands or {}).items():
        set_player(s, q, hand=h)
    for q, g in (gold or {}).items():
        set_player(s, q, gold=g)
    start_attacks(s, list(leads))
    return s


def play_random(state, rng: np.random.Generator, check=None, max_steps: int = 100_000) -> int:
    for step in range(max_steps):
        if state.is_terminal:
            return step
        legal = np.flatnonzero(state.legal_action_mask())
        assert legal.size, state.decision_name()
        state.apply(int(legal[rng.integers(legal.size)]))
        if check is not None:
            check(state)
    raise AssertionError("game did not end")


def obs_block(state, seat: int, name: str) -> np.ndarray:
    start, stop, shape = state.game.layout.observation_slices()[name]
    scale = state.game.layout.scale[start:stop]
    return np.rint(state.observation(seat)[start:stop] / scale).astype(int).reshape(shape)
