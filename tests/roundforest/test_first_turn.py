"""The first turn from the backpack (rulebook, "a. Moving the playing piece": "In the first
round, all players start with their playing pieces from their backpack and may move onto one
of the two adjacent forest tiles"; "b. Pausing": the player "remain[s] on the forest tile"
and turns it). A piece in its backpack stands on no tile, so it cannot pause there; only
when both adjacent tiles are barred does it wait in the backpack, turning nothing."""

from __future__ import annotations

import pytest

from forest_envs.core.errors import IllegalActionError

from .conftest import act, cell, char, legal_names, phase, place
from .test_rules import board, on_turn


def test_the_first_turn_is_a_move_onto_an_adjacent_tile_never_a_pause():
    s = board()
    assert legal_names(s) == {"move to A2", "move to B1"}      # no pause, no compass
    with pytest.raises(IllegalActionError, match="stands on no forest tile"):
        act(s, "pause")
    act(s, "move to B1")
    assert s.pos[0] == cell("B1") and s.current_player == 1


def test_one_barred_tile_leaves_the_other_as_the_only_move():
    s = board()
    place(s, 1, "A2")                                 # only one piece per tile
    assert legal_names(s) == {"move to B1"}


def test_a_piece_with_both_adjacent_tiles_barred_waits_in_the_backpack():
    """"A player must also pause if ... they cannot move their piece off its forest tile":
    in the backpack there is no tile to turn, so waiting changes nothing on the forest."""
    s = board()
    place(s, 1, "A2")
    s.cell_char[cell("B1")] = char("Witch")           # no cross: the Witch cannot be met
    s.edited()
    assert legal_names(s) == {"pause"}
    forest = (s.cell_orient.copy(), s.cell_chip.copy(), s.cell_item.copy())
    act(s, "pause")
    assert s.pos[0] == s.game.corner[0] and s.current_player == 1
    assert (s.cell_orient == forest[0]).all() and (s.cell_chip == forest[1]).all()
    assert (s.cell_item == forest[2]).all()
    # once a tile is free again, the piece leaves the backpack as in a first turn
    place(s, 1, "C3")
    on_turn(s, 0)
    assert legal_names(s) == {"move to A2"} and phase(s) == "turn"


def test_on_a_tile_pausing_is_always_allowed():
    s = board()
    place(s, 0, "C3")
    on_turn(s, 0)
    assert "pause" in legal_names(s)
