"""The ``near_*`` observation blocks (docs/roundforest.md, "Observation"): moves over the
octagons, each tile turned once when a piece arrives on it (Roundforest rulebook, "a.
Moving the playing piece", "1. Rotate the forest tile"), to the wells, the Forest Spirit,
the characters each seat owes, and from each piece, observed as 1 / (1 + moves).

A distance field is pinned by its Bellman equation: 0 on a goal, else one more than the
least of the tiles one move on (capped at 12, which also means "no route"). The tests check
that equation, written again here from the docs' sentence, on every tile of positions
reached by play (blockades included), and a few positions built by hand."""

from __future__ import annotations

import numpy as np
import pytest

from forest_envs.roundforest.components import (
    MOVES_CAP,
    NEAR_SCALE,
    NUM_CELLS,
    SPIRIT,
    pattern_targets,
)
from forest_envs.roundforest.rules import RoundforestGame
from forest_envs.roundforest.rules.distances import NEAR

from .conftest import cell, char, clear_board, new_state, place

_MOVES = {near: d for d, near in enumerate(NEAR)} | {0: MOVES_CAP}


def _moves(block) -> np.ndarray:
    """A near_* block read back as moves (MOVES_CAP: that many or more, or no route)."""
    return np.vectorize(_MOVES.__getitem__)(np.asarray(block))


def test_a_route_is_stored_as_one_over_one_plus_its_moves_and_none_as_zero():
    assert NEAR[:4] == (NEAR_SCALE, NEAR_SCALE // 2, NEAR_SCALE // 3, NEAR_SCALE // 4)
    assert len(set(NEAR)) == MOVES_CAP and min(NEAR) > 0


def _leaves(s, c: int, turned: bool) -> list[int]:
    """Where a piece on tile c may go: the tile as it lies, or after its one turn."""
    o = int(s.cell_orient[c])
    if turned and not s.cell_blocked[c]:
        o = (o + int(s.cell_turn[c])) % 4
    return pattern_targets(s.num_players, c, int(s.cell_tile[c]), o)


def _goal_field_holds(s, field: np.ndarray, goals: set[int]) -> None:
    for c in range(NUM_CELLS):
        if not s.game.is_tile[c]:
            assert field[c] == MOVES_CAP, f"cell {c} is no tile"
        elif c in goals:
            assert field[c] == 0
        else:
            on = [field[t] for t in _leaves(s, c, turned=True)]
            assert field[c] == min(MOVES_CAP, 1 + min(on, default=MOVES_CAP)), f"cell {c}"


def _piece_field_holds(s, p: int) -> None:
    """As a goal field, run forwards from the piece; its own tile is 0, and a route may come
    back to it (turning it then) and leave it again as it lies after that turn."""
    field, own = _moves(s.near_piece[p]), s.pos[p]
    on_tile = bool(s.game.is_tile[own])
    first = set(_leaves(s, own, turned=False)) if on_tile else set(s.game.starts[p])
    into = {c: [t for t in s.game.tile_cells if t != own and c in _leaves(s, t, turned=True)]
            for c in s.game.tile_cells}
    back_home = 1 + min([field[t] for t in into[own]], default=MOVES_CAP) if on_tile else MOVES_CAP
    for c in range(NUM_CELLS):
        if not s.game.is_tile[c]:
            assert field[c] == MOVES_CAP
        elif c == own:
            assert field[c] == 0
        else:
            before = [field[t] for t in into[c]]
            if on_tile and c in _leaves(s, own, turned=True):
                before.append(back_home)
            best = 1 if c in first else 1 + min(before, default=MOVES_CAP)
            assert field[c] == min(MOVES_CAP, best), f"seat {p}, cell {c}"


def _check_all(s) -> None:
    s.show_near()
    chars = s.cell_char.tolist()
    _goal_field_holds(s, _moves(s.near_well), set(s.game.well_cells))
    _goal_field_holds(s, _moves(s.near_spirit), {c for c in range(NUM_CELLS) if chars[c] == SPIRIT})
    for p in range(s.num_players):
        owed = {c for c in range(NUM_CELLS) if chars[c] >= 0 and s.debts[p, chars[c]]}
        _goal_field_holds(s, _moves(s.near_debt[p]), owed)
        _piece_field_holds(s, p)


def _positions(config: dict, games: int, every: int = 7):
    """Positions of random play, every ``every``-th action."""
    game = RoundforestGame.shared(config)
    for g in range(games):
        s = game.new_initial_state(seed=g)
        rng = np.random.default_rng(g)
        for step in range(600):
            if s.is_terminal:
                break
            if step % every == 0:
                yield s
            s.apply(int(rng.choice(s.legal_actions())))


@pytest.mark.parametrize("config", [{"num_players": 3}, {"num_players": 2},
                                    {"num_players": 4, "blockade": True}])
@pytest.mark.whole_games
def test_every_distance_is_one_move_more_than_the_best_tile_one_move_on(config):
    seen_spirit = seen_debt = seen_blocked = differs = 0
    for s in _positions(config, games=2, every=40):
        _check_all(s)
        seen_spirit += bool(s.spirit_on_forest())
        seen_debt += bool(s.debts.any())
        seen_blocked += bool(s.cell_blocked.any())
        # the turn on arrival matters: read over the tiles as they lie, a field differs
        well = _moves(s.near_well)
        now = [min([well[t] for t in _leaves(s, c, turned=False)], default=MOVES_CAP)
               for c in s.game.plain_cells]
        turned = [min([well[t] for t in _leaves(s, c, turned=True)], default=MOVES_CAP)
                  for c in s.game.plain_cells]
        differs += now != turned
    assert seen_debt and differs
    if config.get("blockade"):
        assert seen_blocked
    del seen_spirit  # random play rarely brings the Spirit out: the built test below does


def test_at_the_start_wells_are_goals_and_there_is_no_spirit_and_no_debt():
    s = new_state(3, seed=4)
    s.show_near()
    assert [int(s.near_well[c]) for c in s.game.well_cells] == [NEAR_SCALE] * 4
    assert not s.near_spirit.any() and not s.near_debt.any()
    for p in range(3):  # every piece in its backpack: the two tiles beside it are one move
        assert s.near_piece[p, s.game.corner[p]] == 0
        assert [int(s.near_piece[p, c]) for c in s.game.starts[p]] == [NEAR_SCALE // 2] * 2
    _check_all(s)


def test_the_spirit_and_a_debt_become_goals_where_their_tokens_lie():
    s = new_state(3, seed=4)
    clear_board(s)
    s.cell_char[cell("C3")] = SPIRIT
    s.cell_char[cell("B2")] = char("Witch")
    s.debts[1, char("Witch")] = 1
    place(s, 0, "D4")
    s.edited()
    _check_all(s)
    assert s.near_spirit[cell("C3")] == NEAR_SCALE and s.near_debt[1, cell("B2")] == NEAR_SCALE
    assert not s.near_debt[0].any() and not s.near_debt[2].any()
    assert s.near_piece[0, cell("D4")] == NEAR_SCALE


def test_a_tile_held_by_a_blockade_is_left_as_it_lies():
    s = new_state(4, seed=1, blockade=True)
    c = next(c for c in s.game.plain_cells
             if set(_leaves(s, c, turned=True)) != set(_leaves(s, c, turned=False)))
    s.cell_blocked[c] = 1
    s.edited()
    s.show_near()
    well = _moves(s.near_well)
    on = [well[t] for t in _leaves(s, c, turned=False)]
    assert well[c] == (0 if c in s.game.well_cells else min(MOVES_CAP, 1 + min(on)))
    _check_all(s)


def test_the_observation_shows_the_blocks_rotated_and_scaled_after_any_change():
    s = new_state(3, seed=2)
    rng = np.random.default_rng(0)
    for _ in range(30):
        s.apply(int(rng.choice(s.legal_actions())))
    s.debts[:] = 0
    s.near_debt[:] = 7          # stale on purpose: an observation writes them again
    obs = s.observation(1)
    lo, hi, shape = s.game.layout.observation_slices()["near_piece"]
    seen = obs[lo:hi].reshape(shape)
    np.testing.assert_allclose(seen, s.near_piece[[1, 2, 0]] / NEAR_SCALE, rtol=1e-6)
    assert seen[0, s.pos[1]] == 1.0   # the observer's own tile: 0 moves
    lo, hi, _ = s.game.layout.observation_slices()["near_debt"]
    assert not obs[lo:hi].any()       # no debts: all zeros
    _check_all(s)
