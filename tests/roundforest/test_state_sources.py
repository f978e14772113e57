"""One source for each fact: the observation blocks that show a plain field (``piece_at``
shows ``pos``, ``pile_size`` shows ``pile``) are written from it, whatever the buffer held;
the winner is the ``winner`` block alone; decision kinds are named once (``Kind``)."""

from __future__ import annotations

import numpy as np

from forest_envs.roundforest.components import BLUE, TILES, open_sides
from forest_envs.roundforest.observation import DECISIONS, Kind
from forest_envs.roundforest.rules import NO_ITEM, RoundforestGame, RoundforestState

from .conftest import (
    act,
    cell,
    char,
    item,
    new_state,
    phase,
    place,
    set_bag,
    set_chip,
    set_pile,
    set_tile,
    tile_named,
)
from .test_rules import board


def test_an_edited_position_shows_its_pieces_and_pile_from_the_plain_fields():
    s = new_state(3)
    place(s, 1, "C3")
    set_pile(s, "Witch", "Prince")
    assert np.flatnonzero(s.piece_at[1]).tolist() == [cell("C3")]
    assert s.piece_at.sum() == 3 and s.pile_size[0] == 2


def test_a_state_read_back_takes_pieces_and_pile_from_the_plain_fields():
    s = new_state(3)
    data = s.to_dict()
    data["pos"][0] = cell("B1")
    data["pile"] = [char("Witch")]
    back = RoundforestState.from_dict(RoundforestGame.shared({"num_players": 3}), data)
    assert np.flatnonzero(back.piece_at[0]).tolist() == [cell("B1")]
    assert back.pile_size[0] == 1


def test_the_winner_seat_is_read_from_the_winner_block():
    s = new_state(3)
    assert s.winner_seat == -1
    s.winner[2] = 1
    assert s.winner_seat == 2


def test_every_decision_kind_has_its_name_in_kind():
    assert [getattr(Kind, k.name.upper()) for k in DECISIONS] == list(range(len(DECISIONS)))


def test_the_item_in_hand_is_the_decisions_item_and_the_drawn_item_block_shows_it():
    s = board()
    place(s, 0, "C3")
    set_tile(s, "C3", "hook-1", 0)
    set_chip(s, "D3", BLUE)
    set_bag(s, {"hat": 1})
    act(s, "move to D3")
    assert phase(s) == "drawn" and s.decision_view()["data"]["item"] == item("hat") == s.drawn_item[0]
    act(s, "keep the item")
    assert s.drawn_item[0] == NO_ITEM and s.backpack[0, item("hat")] == 1


def test_an_edited_tile_shows_its_openings_and_turning_from_the_tile_and_orientation():
    s = new_state(3)
    c = cell("C3")
    s.cell_tile[c] = tile_named("hook-2")
    s.cell_orient[c] = 1
    s.edited()
    inner, outer = open_sides(tile_named("hook-2"), 1)
    assert s.cell_open[c, :, 0].astype(bool).tolist() == list(inner)
    assert s.cell_open[c, :, 1].astype(bool).tolist() == list(outer)
    assert s.cell_turn[c] == TILES[tile_named("hook-2")].turn == -1
