"""Roundforest rule edges the mutation check (tools/mutate.py, docs/testing.md) found
untested: each test pins one rule sentence (or reading) at a boundary that a deliberate bug
slipped past. Positions are built with the conftest helpers; every test asserts values."""

from __future__ import annotations

import numpy as np
import pytest

from forest_envs.roundforest.components import RED
from forest_envs.roundforest.observation import BLOCK_START

from .conftest import (
    act,
    cell,
    char,
    clear_board,
    counts,
    give_coins,
    legal_names,
    new_state,
    phase,
    place,
    set_backpack,
    set_bag,
    set_chip,
    set_tile,
)


def board(players=3, seed=0, **cfg):
    s = new_state(players, seed, **cfg)
    clear_board(s)
    return s


def at_blockade_start(s, p: int) -> None:
    s.blockade_used[0] = 0
    s.set_turn(p)
    s.replace(BLOCK_START, p)
    s.edited()


# --- blockades (variant): "a heavy item between four tiles" --------------------------------------
@pytest.mark.parametrize(("players", "grid"), [(2, 5), (3, 6), (4, 6)])
def test_blockade_can_lie_in_every_gap_of_the_forest(players, grid):
    """Every gap between tiles takes a blockade, the last row and column of gaps too."""
    s = board(players, blockade=True)
    set_backpack(s, 0, "anvil")
    at_blockade_start(s, 0)
    sets = {n for n in legal_names(s) if n.startswith("blockade: set")}
    assert len(sets) == (grid - 1) ** 2
    last = f"{'ABCDEF'[grid - 2]}{grid - 1}/{'ABCDEF'[grid - 1]}{grid}"   # e.g. E5/F6
    assert f"blockade: set the heavy item at gap {last}" in sets
    assert phase(s) == "blockade_start"


# --- rounds: the counter the observation shows -----------------------------------------------------
def test_the_game_starts_in_round_one_and_a_round_ends_after_the_last_seat():
    s = board(3)
    assert s.round_no[0] == 1
    for p, where in enumerate(("C3", "C4", "D3")):   # on tiles: a pause there turns the tile
        place(s, p, where)
    for p in range(3):
        assert s.current_player == p and s.round_no[0] == 1
        act(s, "pause")
    assert s.current_player == 0 and s.round_no[0] == 2


# --- moving: where the observation shows a piece ----------------------------------------------------
def test_a_moved_piece_is_shown_on_its_new_tile_only():
    s = board(3)
    act(s, "move to A2")
    assert s.pos[0] == cell("A2")
    assert np.flatnonzero(s.piece_at[0]).tolist() == [cell("A2")]


# --- the Prince: "draws three item tokens from the blue bag" ----------------------------------------
@pytest.mark.parametrize("seed", range(6))
def test_the_prince_draws_without_putting_a_token_back(seed):
    """Three different tokens drawn from a bag of one hat, one boot and one spoon: each
    once (a draw takes the token out of the bag until the choice is made)."""
    s = board(3, seed=seed)
    place(s, 0, "C3")
    set_tile(s, "C3", "hook-1", 0)
    set_chip(s, "D3", RED)
    s.pile = [char("Prince")]
    s.pile_size[0] = 1
    set_bag(s, {"hat": 1, "boot": 1, "spoon": 1})
    act(s, "move to D3", "use the ability")
    assert phase(s) == "prince"
    assert s.prince_items[0].tolist() == counts(["hat", "boot", "spoon"]).tolist()


# --- the red chip: "draw a character card" ----------------------------------------------------------
def test_a_red_chip_with_no_character_card_left_is_used_and_ends_the_turn():
    s = board(3)
    place(s, 0, "C3")
    set_tile(s, "C3", "hook-1", 0)
    set_chip(s, "D3", RED)
    s.pile = []
    s.pile_size[0] = 0
    act(s, "move to D3")
    assert s.chip(cell("D3")) == 0 and s.used_chips.tolist() == [0, 0, 1]
    assert s.drawn_card.sum() == 0
    assert phase(s) == "turn" and s.current_player == 1


# --- wells: an exchange needs the supply to hold what it gives ---------------------------------------
WELL_EXCHANGES = {"well: 2 items for 2 copper", "well: 3 copper for 1 silver",
                  "well: 1 silver for 1 golden apple"}


@pytest.mark.parametrize(("supply", "missing"), [
    ((2, 1, 1), None),
    ((1, 1, 1), "well: 2 items for 2 copper"),
    ((2, 0, 1), "well: 3 copper for 1 silver"),
    ((2, 1, 0), "well: 1 silver for 1 golden apple")])
def test_a_well_offers_no_exchange_the_supply_cannot_pay(supply, missing):
    """Items for two copper, copper for a silver coin, silver for a golden apple: each only
    while the supply holds what the well gives."""
    s = board(3)
    place(s, 0, "C3")
    set_tile(s, "C3", "hook-1", 0)                 # B3 is a well
    give_coins(s, 0, copper=3, silver=1)
    set_backpack(s, 0, "jug", "boot")
    s.supply[:] = supply                           # (copper, silver, golden apples) left
    s.edited()
    act(s, "move to B3")
    assert phase(s) == "well"
    assert legal_names(s) == (WELL_EXCHANGES - {missing}) | {"well: no exchange"}


# --- the Forest Spirit card drawn by a player who is not qualified ------------------------------------
def test_the_spirit_card_drawn_unqualified_puts_the_spirit_on_the_drawers_tile():
    s = board(3)
    place(s, 0, "C3")
    set_tile(s, "C3", "hook-1", 0)
    set_chip(s, "D3", RED)
    s.pile = [char("Forest Spirit")]
    s.pile_size[0] = 1
    act(s, "move to D3")
    assert s.laid_out[char("Forest Spirit")] == 1
    assert s.cell_char[cell("D3")] == char("Forest Spirit")
    assert s.current_player == 1
