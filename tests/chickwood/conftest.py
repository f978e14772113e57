"""Helpers for building Chickwood Forest positions in the rules tests.

Positions are built by writing the state's named buffer views (hands, castle cards,
collections, the village grid, alms) and then playing actions by their names, so each test
reads like the rulebook: ``act(state, "play gold chest to castle 3", "raid castle 2")``.
"""

from __future__ import annotations

import numpy as np
import pytest
from engine_helpers import act, legal_names, phase  # noqa: F401  (re-exported to the tests)

from forest_envs.chickwood import actions as A
from forest_envs.chickwood.components import (
    CASTLE_CARDS,
    FOREST,
    KIND_NAMES,
    MAX_CASTLE,
    NO_CARD,
    NUM_KINDS,
    VILLAGES,
)
from forest_envs.chickwood.rules import ChickwoodGame
from forest_envs.core import engines

VILLAGE = {v.name: i for i, v in enumerate(VILLAGES)}
F = FOREST      # a forest card in a grid given to set_grid
X = NO_CARD     # no card (the third row of a 2-player grid)


def kind(name: str) -> int:
    return KIND_NAMES.index(name)


def counts(spec: dict[str, int] | None) -> np.ndarray:
    """{"gold chest": 2, ...} -> per-kind counts."""
    out = np.zeros(NUM_KINDS, np.int16)
    for name, n in (spec or {}).items():
        out[kind(name)] += n
    return out


# Every test here runs on each engine this machine has (the Python reference and, where it is
# built, the native one): a rule's test is the native engine's test too. A module that needs
# one engine overrides the ``engine`` fixture.
_ENGINE = [None]


@pytest.fixture(params=engines.available(ChickwoodGame), autouse=True)
def engine(request):
    _ENGINE[0] = request.param
    yield request.param
    _ENGINE[0] = None


def new_state(num_players: int = 3, legendary: bool = False, seed: int = 0):
    """A new game on the engine of the running test."""
    game = ChickwoodGame.shared({"num_players": num_players, "legendary": legendary})
    return game.new_initial_state(seed, _ENGINE[0])




def cell(name: str) -> int:
    """"r2c3" -> grid cell index."""
    return (int(name[1]) - 1) * 3 + int(name[3]) - 1


# --- building positions ------------------------------------------------------------------
def set_castles(state, values: list[int]) -> None:
    """Restart the current (first, untouched) round as if player p held castle values[p].

    The dealt hands go back on top of the deck and are dealt again to the same players, so
    turn order and banners are recomputed from the new castles exactly as at a round start."""
    n, h = state.num_players, state.game.hand_size
    assert phase(state) == "scout" and state.step == 0
    state.player_castle[:] = 0
    state.castles_held[:] = 0
    for p, v in enumerate(values):
        state.player_castle[p, v - 1] = 1
        state.castles_held[p, v - 1] = 1
    for v in state.game.castle_values:
        state.pile_left[v - 1] = CASTLE_CARDS[v] - values.count(v)
    dealt = [np.repeat(np.arange(NUM_KINDS, dtype=np.int8), state.hand[p]) for p in range(n)]
    assert all(len(cards) == h for cards in dealt)
    state.deck = np.concatenate(dealt + [state.deck])
    state.hand[:] = 0
    state._start_round()
    state.edited()


def set_hands(state, hands: dict[int, dict[str, int]]) -> None:
    """Replace players' hands (the cards are conjured; use only for local rule checks)."""
    for p, spec in hands.items():
        state.hand[p] = counts(spec)
        state.hand_count[p] = state.hand[p].sum()
    state.edited()


def set_castle_cards(state, value: int, face_up: dict[str, int] | None = None,
                     face_down: dict[int, dict[str, int]] | None = None) -> None:
    """Lay loot before castle ``value``: face-up cards, and face-down cards by owner."""
    c = value - 1
    state.castle_faceup[c] = counts(face_up)
    if hasattr(state, "castle_faceup_by"):
        state.castle_faceup_by[c] = 0
    state.fd_own[:, c] = 0
    state.castle_fd_count[c] = 0
    for p, spec in (face_down or {}).items():
        state.fd_own[p, c] = counts(spec)
        state.castle_fd_count[c, p] = state.fd_own[p, c].sum()
    state.castle_cards[c] = state.castle_faceup[c].sum() + state.fd_own[:, c].sum()
    state.edited()


def set_collection(state, p: int, spec: dict[str, int]) -> None:
    state.collection[p] = counts(spec)
    state.edited()


def set_grid(state, cards: list) -> None:
    """cards: 9 entries, row by row: village name, F (forest) or X (no card)."""
    state.lay_grid(tuple(VILLAGE[c] if isinstance(c, str) else c for c in cards))
    state.cell_filled[:] = 0
    state.alms_owner[:] = 0
    state.alms_count[:] = 0
    state.edited()


def place_alms(state, cell_index: int, owners: list[int]) -> None:
    """Append alms of the given owners, in this order, to a cell's next free spaces."""
    for p in owners:
        assert state.cell_filled[cell_index] < state.cell_spaces[cell_index]
        state.put_alms(cell_index, p)
    state.edited()


def fill_cell(state, cell_index: int, owner: int) -> None:
    place_alms(state, cell_index, [owner] * int(state.cell_spaces[cell_index]
                                                - state.cell_filled[cell_index]))


def clear_castles(state) -> None:
    for v in range(1, MAX_CASTLE + 1):
        set_castle_cards(state, v)


# --- playing ----------------------------------------------------------------------------
def first_legal(state) -> int:
    return state.legal_actions()[0]


def scout_all(state, castle: int | None = None) -> None:
    """Finish the scouting phase; each play goes to ``castle`` (default: the last castle,
    which has no limit), the first card in hand."""
    n_castles = state.game.castle_values[-1]
    target = castle or n_castles
    while phase(state) == "scout":
        p = state.current_player
        k = int(np.flatnonzero(state.hand[p])[0])
        state.apply(A.PLAY.id(k, target - 1))


def play_random(state, rng: np.random.Generator, until=None, max_steps: int = 10_000) -> list[int]:
    """Random legal actions until the game ends (or ``until(state)`` is true)."""
    done = []
    for _ in range(max_steps):
        if state.is_terminal or (until is not None and until(state)):
            break
        a = int(rng.choice(state.legal_actions()))
        state.apply(a)
        done.append(a)
    return done


def obs_block(state, seat: int, name: str) -> np.ndarray:
    """One block of seat's observation, unscaled back to counts, in the observer's shape."""
    start, stop, shape = state.game.layout.observation_slices()[name]
    scale = state.game.layout.scale[start:stop]
    return np.rint(state.observation(seat)[start:stop] / scale).astype(int).reshape(shape)

