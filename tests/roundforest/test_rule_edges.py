"""Roundforest rule edges the mutation check (tools/mutate.py, docs/testing.md) found
untested: each test pins one rule sentence (or reading) at a boundary that a deliberate bug
slipped past. Positions are built with the conftest helpers; every test asserts values."""

from __future__ import annotations

import numpy as np
import pytest

from forest_envs.roundforest.components import RED, cell_name, tile_cells, well_cells
from forest_envs.roundforest.observation import Kind

from .conftest import (
    act,
    add_to_pile,
    cell,
    char,
    counts,
    give_coins,
    item,
    legal_names,
    phase,
    place,
    set_backpack,
    set_bag,
    set_chip,
    set_pile,
    set_tile,
)
from .test_rules import board, red_state


def at_blockade_start(s, p: int) -> None:
    s.blockade_used[0] = 0
    s.set_turn(p)
    s.replace(Kind.BLOCKADE_START, p)
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
    set_pile(s, "Prince")
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
    set_pile(s)
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
    s = red_state("Forest Spirit")
    act(s, "move to D3")
    assert s.laid_out[char("Forest Spirit")] == 1
    assert s.cell_char[cell("D3")] == char("Forest Spirit")
    assert s.current_player == 1


# --- the Merchant: "sells a golden apple for a silver coin" --------------------------------------------
def test_the_merchant_cannot_be_used_for_an_apple_the_supply_does_not_hold():
    s = red_state("Merchant")
    give_coins(s, 0, silver=1)                  # no item to sell: only the apple would do
    s.supply[2] = 0
    s.edited()
    act(s, "move to D3")
    assert legal_names(s) == {"lay the character out"}
    s.supply[2] = 1
    s.edited()
    assert legal_names(s) == {"use the ability", "lay the character out"}


@pytest.mark.parametrize(("silver", "apples_left", "apple_offered"), [(1, 1, True), (1, 0, False), (0, 1, False)])
def test_the_merchant_offers_the_apple_only_for_silver_and_while_the_supply_holds_one(
        silver, apples_left, apple_offered):
    s = red_state("Merchant")
    set_backpack(s, 0, "jug")
    give_coins(s, 0, silver=silver)
    s.supply[2] = apples_left
    s.edited()
    act(s, "move to D3", "use the ability")
    expected = {"give jug from the backpack"} | ({"merchant: buy a golden apple for 1 silver"}
                                                 if apple_offered else set())
    assert legal_names(s) == expected


def merchant_state(*items, copper_left=24):
    s = red_state("Merchant")
    set_backpack(s, 0, *items)
    s.supply[0] = copper_left
    s.edited()
    act(s, "move to D3", "use the ability")
    return s


def test_the_merchant_sale_needs_no_done_before_the_first_item():
    s = merchant_state("jug", "boot")
    assert legal_names(s) == {"give jug from the backpack", "give boot from the backpack"}
    act(s, "give jug from the backpack")
    assert legal_names(s) == {"give boot from the backpack", "done"}


def test_selling_the_last_item_to_the_merchant_ends_the_turn():
    s = merchant_state("jug")
    act(s, "give jug from the backpack")
    assert s.copper[0] == 1 and s.backpack[0].sum() == 0
    assert phase(s) == "turn" and s.current_player == 1


def test_the_merchant_stops_buying_when_the_copper_supply_is_empty():
    s = merchant_state("jug", "boot", copper_left=1)
    act(s, "give jug from the backpack")
    assert s.copper[0] == 1 and s.supply[0] == 0 and s.backpack[0, item("boot")] == 1
    assert phase(s) == "turn" and s.current_player == 1


def test_the_merchant_buys_again_while_one_copper_coin_is_left_in_the_supply():
    """He pays "one copper coin each" from the supply: with two coins there, the first sale
    leaves one, and the second item may still be sold (the last coin pays for it)."""
    s = merchant_state("jug", "boot", copper_left=2)
    act(s, "give jug from the backpack")
    assert s.supply[0] == 1 and legal_names(s) == {"give boot from the backpack", "done"}
    act(s, "give boot from the backpack")
    assert s.copper[0] == 2 and s.supply[0] == 0 and s.backpack[0].sum() == 0
    assert phase(s) == "turn" and s.current_player == 1


# --- the Forest Spirit appears: with no red or blue chip, an empty tile -------------------------------
def test_the_forest_spirit_with_no_red_or_blue_chip_goes_on_a_tile_without_any_token():
    s = board(3)
    place(s, 0, "C3")
    set_tile(s, "C3", "hook-1", 0)
    s.cell_char[cell("E2")] = char("Blacksmith")     # character number 0
    s.cell_item[cell("E3")] = item("anvil")          # item number 0
    give_coins(s, 0, apples=3)
    act(s, "pause")
    assert phase(s) == "spirit_place"
    targets = {n.removeprefix("choose tile ") for n in legal_names(s)}
    wells = {cell_name(c) for c in well_cells(3)}
    expected = {cell_name(c) for c in tile_cells(3)} - wells - {"C3", "E2", "E3"}
    assert targets == expected


# --- hidden information: what another seat's face-down card could be ---------------------------------
def beggar_choice_state():
    """Seat 0 drew the Beggar, paid him and chose the Witch face down (pile: the Prince, the
    Beggar)."""
    s = red_state("Beggar")
    give_coins(s, 0, copper=1)
    act(s, "move to D3")
    add_to_pile(s, "Witch", "Prince")
    act(s, "use the ability", "beggar: lead me to the Witch")
    assert phase(s) == "character" and s.drawn_of(0) == char("Witch")
    return s


def test_a_card_chosen_with_the_beggar_is_never_resampled_as_the_beggar():
    s = beggar_choice_state()
    seen = {s.resample_hidden(1, np.random.default_rng(i)).drawn_of(0) for i in range(40)}
    assert seen == {char("Witch"), char("Prince")}


def test_a_resampled_pile_does_not_depend_on_the_pile_order_the_seat_cannot_see():
    s = beggar_choice_state()
    t = s.clone()
    t.pile.reverse()
    for i in range(10):
        a = s.resample_hidden(1, np.random.default_rng(i))
        b = t.resample_hidden(1, np.random.default_rng(i))
        assert a.pile == b.pile and a.drawn_of(0) == b.drawn_of(0)


# --- the Unicorn with a saddle: "a chip or a token" on the chosen tile --------------------------
def test_unicorn_with_a_saddle_onto_the_first_item_kind_offers_the_saddle():
    """An item token numbered 0 (the anvil) is a token: the saddle's use is offered."""
    s = red_state("Unicorn", "saddle")
    s.cell_item[cell("F4")] = item("anvil")
    s.bag_items[item("anvil")] -= 1
    s.edited()
    act(s, "move to D3", "use the ability", "choose tile F4")
    assert phase(s) == "saddle" and s.pos[0] == cell("F4")


def test_unicorn_with_a_saddle_onto_the_first_character_offers_the_saddle():
    """A character token numbered 0 (the Blacksmith) is a token: the saddle's use is offered."""
    s = red_state("Unicorn", "saddle", "anvil")
    s.cell_char[cell("F4")] = char("Blacksmith")
    s.laid_out[char("Blacksmith")] = 1
    s.edited()
    act(s, "move to D3", "use the ability", "choose tile F4")
    assert phase(s) == "saddle" and s.pos[0] == cell("F4")
    assert legal_names(s) == {"use the ability"}         # on a character token: use it


# --- hidden information: what another seat may not see is redrawn, counts are kept -------------
def test_every_other_seat_s_face_down_card_is_resampled_not_only_those_before_the_seat():
    s = red_state("Devil", seat=1)
    act(s, "move to D3")
    add_to_pile(s, "Witch", "Prince")
    seen = set()
    for i in range(30):
        other = s.resample_hidden(0, np.random.default_rng(i))
        seen.add(other.drawn_of(1))
        assert sorted(other.pile + [other.drawn_of(1)]) == sorted(s.pile + [s.drawn_of(1)])
    assert seen == {char("Devil"), char("Witch"), char("Prince")}


def test_the_prince_s_secret_draws_are_redrawn_with_a_fitting_token_and_as_many():
    """Another seat does not see the Prince's draws: they are redrawn from the bag, as many,
    and always with one the player has room for (else the choice would not be pending)."""
    s = red_state("Prince", "anvil")
    set_bag(s, {"barrel": 2, "jug": 1})                  # the real draw: all three
    act(s, "move to D3", "use the ability")
    assert phase(s) == "prince" and s.prince_items[0].sum() == 3
    s.bag_items[item("stone")] += 3                       # more heavy items it may not take
    s.edited()
    seen = set()
    for i in range(40):
        other = s.resample_hidden(1, np.random.default_rng(i))
        draw = other.prince_items[0]
        assert draw.sum() == 3 and (draw <= other.bag_items).all()
        assert draw[item("jug")] == 1                      # the only token that fits
        assert (other.bag_items == s.bag_items).all()
        seen.add(tuple(draw.tolist()))
    assert len(seen) > 1
