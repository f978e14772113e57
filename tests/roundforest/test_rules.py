"""Roundforest rules: setup, moving, pausing, rotation, refilling, the three chips, the
fairy, backpack limits, item and character tokens, wells, every character, the treasure
chest, the Forest Spirit, blockades, results, determinism and hidden information. Each test
asserts the values the rulebook (or rules/README.md's readings) fixes."""

from __future__ import annotations

import json

import numpy as np
import pytest

from forest_envs.core.errors import IllegalActionError
from forest_envs.roundforest.components import (
    BLUE,
    ITEM_NAMES,
    RED,
    YELLOW,
    corners,
    item_counts,
    tile_cells,
    well_cells,
)
from forest_envs.roundforest.rules import RoundforestGame, RoundforestState

from .conftest import (
    act,
    add_to_pile,
    cell,
    char,
    clear_board,
    give_coins,
    item,
    legal_names,
    move_names,
    new_state,
    phase,
    place,
    set_backpack,
    set_bag,
    set_chip,
    set_pile,
    set_tile,
)


def board(players=3, seed=0, **cfg):
    """A state with an empty forest (no chips, no tokens) and the pieces in their backpacks."""
    s = new_state(players, seed, **cfg)
    clear_board(s)
    return s


def on_turn(s, p):
    s.set_turn(p)
    s.replace(0, p)  # TURN
    s.edited()


# --- setup -------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("players", "tiles"), [(2, 21), (3, 32), (4, 32)])
def test_setup(players, tiles):
    s = new_state(players, seed=3)
    assert int((s.cell_tile >= 0).sum()) == tiles
    assert sorted(np.flatnonzero(s.cell_well).tolist()) == sorted(well_cells(players))
    chips = s.cell_chip[:, 1:].sum()
    assert chips == tiles - 4                                  # one chip per tile, wells free
    assert all(s.chip(c) == 0 for c in well_cells(players))
    assert s.black_bag.sum() == 52 - chips and s.used_chips.sum() == 0
    assert (s.fairy >= 0).all()                                # three rows of three items
    assert s.bag_items.sum() == 39 - 9
    assert s.pos == [corners(players)[0 if players > 2 else 0]] + s.pos[1:]
    assert all(not s.game.is_tile[c] for c in s.pos)           # every piece on its backpack
    assert s.compasses.tolist() == [2] * players
    assert s.supply.tolist() == [24, 12, 12]
    assert s.pile_size[0] == 12 and sorted(s.pile) == list(range(12))
    assert phase(s) == "turn" and s.current_player == 0
    # the tile set: the four well tiles on the wells, the rest distinct
    assert len(set(s.cell_tile[list(tile_cells(players))].tolist())) == tiles


def test_no_silver_variant():
    s = new_state(3, seed=1, no_silver=True)
    assert (s.item_totals() == item_counts(True)).all()
    assert s.item_totals()[item("silver coin")] == 0


def test_same_seed_same_game_and_draws_only_from_the_state():
    a, b = new_state(3, seed=9), new_state(3, seed=9)
    rng = np.random.default_rng(0)
    for _ in range(300):
        if a.is_terminal:
            break
        x = int(rng.choice(a.legal_actions()))
        a.apply(x)
        b.apply(x)
    assert a.to_dict() == b.to_dict()
    c = RoundforestState.from_dict(a.game, json.loads(json.dumps(a.to_dict())))
    assert c.to_dict() == a.to_dict()
    assert new_state(3, seed=10).to_dict() != new_state(3, seed=9).to_dict()


# --- moving --------------------------------------------------------------------------------------------
def test_first_move_from_the_backpack_onto_an_adjacent_tile():
    s = board()
    assert move_names(s) == {"move to A2", "move to B1"}
    place(s, 1, "A2")
    assert move_names(s) == {"move to B1"}      # only one piece per tile


def test_octagons_inner_outer_and_jump():
    s = board()
    place(s, 0, "C3")
    set_tile(s, "C3", "hook-1", 0)              # N 11, E 01 (jump), S 10, W 00
    assert move_names(s) - {n for n in move_names(s) if n.startswith("compass")} == {
        "move to B3", "move to A3", "move to C5", "move to D3"}
    # the compass opens the empty octagons
    assert {n for n in move_names(s) if n.startswith("compass")} == {
        "compass: move to C4", "compass: move to E3", "compass: move to C2", "compass: move to C1"}


def test_a_two_tile_move_passes_over_an_occupied_tile_but_not_onto_one():
    s = board()
    place(s, 0, "C3")
    set_tile(s, "C3", "hook-1", 0)
    place(s, 1, "B3")
    place(s, 2, "D3")
    assert "move to A3" in move_names(s)        # over player 1
    assert "move to B3" not in move_names(s) and "move to D3" not in move_names(s)
    with pytest.raises(IllegalActionError, match="another piece stands on B3"):
        act(s, "move to B3")


def test_backpacks_are_never_entered_again():
    s = board()
    place(s, 0, "A2")
    set_tile(s, "A2", "well-1", 3)              # inner octagons on all four sides
    assert "move to A1" not in {s.game.action_names[a] for a in s.legal_actions()}
    assert s.game.string_to_action("move to A1") not in s.legal_actions()


def test_compass_is_spent_and_limited_to_two():
    s = board()
    place(s, 0, "C3")
    set_tile(s, "C3", "hook-1", 0)
    act(s, "compass: move to C4")
    assert s.compasses[0] == 1 and s.pos[0] == cell("C4")
    s.compasses[0] = 0
    place(s, 0, "C3")
    on_turn(s, 0)
    assert not any(n.startswith("compass") for n in legal_names(s))


def test_a_player_who_cannot_move_must_pause():
    s = board()
    place(s, 0, "C3")
    set_tile(s, "C3", "hook-1", 0)
    s.compasses[0] = 0
    for p, where in ((1, "B3"), (2, "D3")):
        place(s, p, where)
    s.cell_item[cell("A3")] = item("hat")
    s.cell_item[cell("C5")] = item("hat")
    set_backpack(s, 0, "jug", "boot", "spoon")   # full: item tiles barred
    on_turn(s, 0)
    assert legal_names(s) == {"pause"}


# --- rotating and refilling -------------------------------------------------------------------------------
def test_the_new_tile_turns_and_the_vacated_tile_is_refilled():
    s = board()
    place(s, 0, "C3")
    set_tile(s, "C3", "hook-1", 0)
    set_tile(s, "D3", "hook-2", 1)               # hook-2 turns counter-clockwise
    chips_before = int(s.black_bag.sum())
    act(s, "move to D3")
    assert s.cell_orient[cell("D3")] == 0        # one quarter turn counter-clockwise
    assert s.cell_orient[cell("C3")] == 0        # the tile left behind does not turn
    assert s.chip(cell("C3")) in (BLUE, YELLOW, RED)
    assert s.black_bag.sum() == chips_before - 1


def test_pausing_turns_the_tile_and_ends_the_turn():
    s = board()
    place(s, 0, "C3")
    set_tile(s, "C3", "hook-1", 0)
    act(s, "pause")
    assert s.cell_orient[cell("C3")] == 1
    assert s.current_player == 1 and phase(s) == "turn"


def test_a_well_is_never_refilled_nor_a_tile_where_an_item_was_left():
    s = board()
    place(s, 0, "B3")                            # a well
    set_tile(s, "B3", "well-1", 0)               # N, E, S, W inner octagons
    act(s, "move to C3")
    assert s.chip(cell("B3")) == 0
    s = board()
    place(s, 0, "C3")
    set_tile(s, "C3", "hook-1", 0)
    set_chip(s, "D3", BLUE)
    set_bag(s, {"hat": 1})
    act(s, "move to D3", "leave the item on the tile")
    assert s.cell_item[cell("D3")] == item("hat")
    on_turn(s, 0)
    set_tile(s, "D3", "hook-1", 0)
    act(s, "move to C3")
    assert s.chip(cell("D3")) == 0 and s.cell_item[cell("D3")] == item("hat")


def test_the_black_bag_is_refilled_from_the_used_chips_only_when_empty():
    s = board()
    s.used_chips[:] = (5, 0, 0)
    s.black_bag[:] = 0
    place(s, 0, "C3")
    set_tile(s, "C3", "hook-1", 0)
    act(s, "move to D3")
    assert s.chip(cell("C3")) == BLUE
    assert s.black_bag.tolist() == [4, 0, 0] and s.used_chips.tolist() == [0, 0, 0]


# --- blue chip: keep, drop or trade -------------------------------------------------------------------
def test_blue_chip_keep():
    s = board()
    place(s, 0, "C3")
    set_tile(s, "C3", "hook-1", 0)
    set_chip(s, "D3", BLUE)
    set_bag(s, {"sword": 1})
    used = s.used_chips.copy()
    act(s, "move to D3")
    assert phase(s) == "drawn" and s.decision.data == (item("sword"),)
    assert s.used_chips[0] == used[0] + 1 and s.chip(cell("D3")) == 0
    act(s, "keep the item")
    assert s.backpack[0, item("sword")] == 1 and s.current_player == 1


def test_a_drawn_coin_token_may_be_exchanged_for_a_coin():
    """"If a drawn or traded token shows a coin, it may immediately be exchanged for the
    corresponding coin from the supply. The token then goes back into the blue bag." """
    s = board()
    place(s, 0, "C3")
    set_tile(s, "C3", "hook-1", 0)
    set_chip(s, "D3", BLUE)
    set_bag(s, {"copper coin": 1})
    act(s, "move to D3")
    assert phase(s) == "drawn"
    assert {"keep the item", "exchange the coin token for a coin from the supply",
            "leave the item on the tile"} <= legal_names(s)
    act(s, "exchange the coin token for a coin from the supply")
    assert s.copper[0] == 1 and s.supply[0] == 23 and s.backpack[0].sum() == 0
    assert s.bag_items[item("copper coin")] == 1 and s.current_player == 1


def fairy_state(copper=0, silver=0):
    s = board()
    place(s, 0, "C3")
    set_tile(s, "C3", "hook-1", 0)
    set_chip(s, "D3", BLUE)
    set_bag(s, {"hat": 1})
    s.fairy[:] = [[item("anvil"), item("barrel"), item("stone")],
                  [item("cross"), item("key"), item("sword")],
                  [item("jug"), item("spoon"), item("boot")]]
    give_coins(s, 0, copper=copper, silver=silver)
    return s


def test_fairy_bottom_row_is_free_rows_slide_down_and_the_top_refills():
    s = fairy_state()
    act(s, "move to D3")
    assert {n for n in legal_names(s) if n.startswith("trade")} == {
        "trade with the fairy: bottom row item 1", "trade with the fairy: bottom row item 2",
        "trade with the fairy: bottom row item 3"}
    set_bag(s, {"mushroom": 3})     # the bag after the hat went back: refill draws mushrooms
    s.bag_items[item("hat")] = 0
    act(s, "trade with the fairy: bottom row item 2")
    assert s.backpack[0, item("spoon")] == 1
    assert s.fairy[2].tolist() == [item("cross"), item("key"), item("sword")]
    assert s.fairy[1].tolist() == [item("anvil"), item("barrel"), item("stone")]
    # the drawn hat went back before the refill; the row's two other tokens only after it
    assert set(s.fairy[0].tolist()) <= {item("mushroom"), item("hat")}
    assert s.bag_items[item("hat")] + s.bag_items[item("mushroom")] == 1
    assert s.bag_items[item("jug")] == 1 and s.bag_items[item("boot")] == 1


def test_fairy_costs_two_and_one_copper():
    s = fairy_state(copper=2)
    act(s, "move to D3", "trade with the fairy: top row item 1")
    assert s.copper[0] == 0 and s.supply[0] == 24 and s.backpack[0, item("anvil")] == 1
    s = fairy_state(copper=1)
    act(s, "move to D3")
    trades = {n for n in legal_names(s) if n.startswith("trade")}
    assert "trade with the fairy: middle row item 1" in trades
    assert "trade with the fairy: top row item 1" not in trades


def test_fairy_takes_silver_without_change_only_from_a_player_without_copper():
    s = fairy_state(silver=1)
    act(s, "move to D3", "trade with the fairy: top row item 2")
    assert s.silver[0] == 0 and s.copper[0] == 0 and s.supply[1] == 12
    s = fairy_state(copper=1, silver=1)
    act(s, "move to D3")
    assert "trade with the fairy: top row item 2" not in legal_names(s)


# --- yellow chip ----------------------------------------------------------------------------------------
def test_yellow_item_goes_to_another_yellow_tile_else_a_blue_one():
    s = board()
    place(s, 0, "C3")
    set_tile(s, "C3", "hook-1", 0)
    set_chip(s, "D3", YELLOW)
    set_chip(s, "F4", YELLOW)
    set_chip(s, "E2", BLUE)
    set_bag(s, {"cheese": 1})
    act(s, "move to D3")
    assert phase(s) == "yellow"
    assert {n for n in legal_names(s)} == {"choose tile F4"}
    act(s, "choose tile F4")
    assert s.cell_item[cell("F4")] == item("cheese") and s.chip(cell("F4")) == 0
    assert s.backpack[0].sum() == 0
    s = board()
    place(s, 0, "C3")
    set_tile(s, "C3", "hook-1", 0)
    set_chip(s, "D3", YELLOW)
    set_chip(s, "E2", BLUE)
    set_bag(s, {"cheese": 1})
    act(s, "move to D3")
    assert legal_names(s) == {"choose tile E2"}


# --- backpack limits and item tokens ---------------------------------------------------------------------
def test_backpack_holds_three_items_at_most_one_heavy():
    s = fairy_state()
    set_bag(s, {"stone": 1})
    set_backpack(s, 0, "anvil")
    act(s, "move to D3")
    assert "keep the item" not in legal_names(s)          # a second heavy item
    assert "leave the item on the tile" in legal_names(s)
    s = fairy_state()
    set_backpack(s, 0, "jug", "boot", "spoon")
    act(s, "move to D3")
    assert "keep the item" not in legal_names(s)
    assert not any(n.startswith("trade") for n in legal_names(s))


def test_item_token_tile_barred_only_by_a_full_backpack():
    s = board()
    place(s, 0, "C3")
    set_tile(s, "C3", "hook-1", 0)
    s.cell_item[cell("D3")] = item("stone")
    set_backpack(s, 0, "anvil")
    on_turn(s, 0)
    assert "move to D3" in move_names(s)                  # heavy token reachable with a heavy item
    act(s, "move to D3")
    assert phase(s) == "token_item" and "keep the item" not in legal_names(s)
    act(s, "leave the item on the tile")
    assert s.cell_item[cell("D3")] == item("stone")
    set_backpack(s, 0, "anvil", "jug", "boot")
    place(s, 0, "C3")
    on_turn(s, 0)
    assert "move to D3" not in move_names(s)


def test_item_token_taken_into_the_backpack():
    s = board()
    place(s, 0, "C3")
    set_tile(s, "C3", "hook-1", 0)
    s.cell_item[cell("D3")] = item("key")
    act(s, "move to D3", "keep the item")
    assert s.backpack[0, item("key")] == 1 and s.cell_item[cell("D3")] == -1


# --- wells --------------------------------------------------------------------------------------------
def well_state(**coins):
    s = board()
    place(s, 0, "C3")
    set_tile(s, "C3", "hook-1", 0)                        # B3 is a well
    give_coins(s, 0, **coins)
    return s


def test_well_two_items_for_two_copper():
    s = well_state()
    set_backpack(s, 0, "jug", "boot", "anvil")
    act(s, "move to B3")
    assert phase(s) == "well"
    act(s, "well: 2 items for 2 copper", "give jug from the backpack", "give anvil from the backpack")
    assert s.copper[0] == 2 and s.backpack[0].sum() == 1 and s.bag_items[item("anvil")] >= 1


def test_well_three_copper_for_silver_and_silver_for_apple_once():
    s = well_state(copper=3, silver=1)
    act(s, "move to B3")
    assert legal_names(s) == {"well: 3 copper for 1 silver", "well: 1 silver for 1 golden apple",
                              "well: no exchange"}
    act(s, "well: 3 copper for 1 silver")
    assert s.copper[0] == 0 and s.silver[0] == 2 and s.current_player == 1  # only one exchange
    s = well_state(silver=1)
    act(s, "move to B3", "well: 1 silver for 1 golden apple")
    assert s.apples[0] == 1 and s.silver[0] == 0 and s.supply.tolist() == [24, 12, 11]


def test_no_exchange_when_pausing_on_a_well():
    s = well_state(silver=1)
    place(s, 0, "B3")
    on_turn(s, 0)
    act(s, "pause")
    assert s.silver[0] == 1 and s.current_player == 1


def test_no_single_copper_or_arbitrary_exchange():
    s = well_state(copper=2)
    set_backpack(s, 0, "jug")
    act(s, "move to B3")          # 2 copper and 1 item: no exchange is possible
    assert phase(s) == "turn" and s.current_player == 1
    assert s.copper[0] == 2 and s.backpack[0].sum() == 1


# --- red chip: characters with tasks -------------------------------------------------------------------
def red_state(character, *items, seat=0, **coins):
    s = board()
    place(s, seat, "C3")
    set_tile(s, "C3", "hook-1", 0)
    on_turn(s, seat)
    set_chip(s, "D3", RED)
    set_pile(s, character)
    set_backpack(s, seat, *items)
    give_coins(s, seat, **coins)
    return s


@pytest.mark.parametrize(("name", "gift", "reward"), [
    ("Blacksmith", "anvil", "sword"), ("Innkeeper", "barrel", "magic potion"),
    ("Sculptor", "stone", "cross")])
def test_friendly_upper_task_gives_the_reward_item(name, gift, reward):
    s = red_state(name, gift)
    act(s, "move to D3")
    assert phase(s) == "character" and s.drawn_card[0, char(name)] == 1
    assert legal_names(s) == {"fulfil the upper task", "take the debt"}
    act(s, "fulfil the upper task")
    assert s.backpack[0, item(reward)] == 1 and s.backpack[0, item(gift)] == 0
    assert s.apples[0] == 0 and char(name) in s.pile and not s.debts[0].any()


@pytest.mark.parametrize(("name", "gift", "reward"), [
    ("Blacksmith", "anvil", "sword"), ("Innkeeper", "barrel", "magic potion"),
    ("Sculptor", "stone", "cross")])
def test_friendly_gives_an_apple_instead_when_the_reward_is_already_held(name, gift, reward):
    s = red_state(name, gift, reward)
    act(s, "move to D3")
    assert legal_names(s) == {"fulfil the lower task", "take the debt"}
    act(s, "fulfil the lower task")
    assert s.apples[0] == 1 and s.backpack[0, item(reward)] == 1 and s.backpack[0, item(gift)] == 0


def test_friendly_reward_missing_from_the_bag_gives_nothing():
    s = red_state("Blacksmith", "anvil")
    set_bag(s, {})
    act(s, "move to D3", "fulfil the upper task")
    assert s.backpack[0].sum() == 0 and s.apples[0] == 0 and s.bag_items[item("anvil")] == 1


@pytest.mark.parametrize(("name", "upper", "lower", "coins"), [
    ("Witch", ["cross"], ["cross", "magic potion"], {}),
    ("Bandit", [], ["sword"], {"copper": 2}),
    ("Devil", [], ["cross"], {"silver": 1}),
])
def test_hostile_tasks(name, upper, lower, coins):
    s = red_state(name, *upper, **coins)
    act(s, "move to D3")
    assert "fulfil the upper task" in legal_names(s) and "fulfil the lower task" not in legal_names(s)
    act(s, "fulfil the upper task")
    assert s.apples[0] == 0 and s.backpack[0].sum() == 0 and s.copper[0] == 0 and s.silver[0] == 0
    s = red_state(name, *lower, **coins)
    act(s, "move to D3", "fulfil the lower task")
    assert s.apples[0] == 1 and s.backpack[0].sum() == 0 and s.copper[0] == 0 and s.silver[0] == 0
    assert s.supply[2] == 11


def test_debt_places_card_and_token_and_blocks_the_spirit():
    s = red_state("Bandit")
    act(s, "move to D3", "take the debt")
    assert s.debts[0, char("Bandit")] == 1 and s.cell_char[cell("D3")] == char("Bandit")
    assert char("Bandit") not in s.pile
    give_coins(s, 0, apples=3)
    assert not s.qualified(0)


def test_settle_a_debt_with_an_apple_at_once_or_at_the_token():
    s = red_state("Devil", apples=1)
    act(s, "move to D3")
    assert legal_names(s) == {"settle the debt with a golden apple", "take the debt"}
    act(s, "settle the debt with a golden apple")
    assert s.apples[0] == 0 and s.supply[2] == 12 and not s.debts[0].any()
    # later, on the token's tile
    s = red_state("Devil", apples=1)
    act(s, "move to D3", "take the debt")
    place(s, 0, "C3")
    on_turn(s, 0)
    act(s, "move to D3")
    assert phase(s) == "meet" and legal_names(s) == {"settle the debt with a golden apple"}
    act(s, "settle the debt with a golden apple")
    assert not s.debts[0].any() and s.cell_char[cell("D3")] == -1 and char("Devil") in s.pile


def test_another_player_fulfils_the_debt_and_takes_the_reward():
    s = red_state("Witch")
    act(s, "move to D3", "take the debt")
    place(s, 0, "A2")
    place(s, 1, "C3")
    set_backpack(s, 1, "cross", "magic potion")
    on_turn(s, 1)
    act(s, "move to D3", "fulfil the lower task")
    assert s.apples[1] == 1 and s.apples[0] == 0
    assert not s.debts[0].any() and s.cell_char[cell("D3")] == -1 and char("Witch") in s.pile


def test_a_character_token_bars_a_player_who_cannot_meet_it():
    s = red_state("Bandit")
    act(s, "move to D3", "take the debt")
    place(s, 0, "A2")
    place(s, 1, "C3")
    on_turn(s, 1)
    assert "move to D3" not in move_names(s)
    give_coins(s, 1, copper=2)
    assert "move to D3" in move_names(s)


def test_the_drawn_card_is_hidden_from_the_others():
    s = red_state("Devil")
    act(s, "move to D3")
    other = s.clone()
    other.drawn_card[0] = 0
    other.drawn_card[0, char("Bandit")] = 1
    assert (s.observation(1) == other.observation(1)).all()
    assert (s.observation(0) != other.observation(0)).any()
    assert "Devil" not in s.describe_action(s.game.string_to_action("fulfil the upper task"), 1)


# --- helpful characters ------------------------------------------------------------------------------
def test_helper_deferred_is_laid_out_with_its_token():
    s = red_state("Prince")
    act(s, "move to D3", "lay the character out")
    assert s.laid_out[char("Prince")] == 1 and s.cell_char[cell("D3")] == char("Prince")


def test_prince_draws_three_and_keeps_one():
    s = red_state("Prince")
    set_bag(s, {"hat": 1, "anvil": 1, "key": 1, "jug": 2})
    act(s, "move to D3", "use the ability")
    assert phase(s) == "prince" and s.prince_items[0].sum() == 3
    assert s.bag_items.sum() == 5                       # the three still count as in the bag
    drawn = np.flatnonzero(s.prince_items[0]).tolist()
    act(s, f"take {ITEM_NAMES[drawn[0]]}")
    assert s.backpack[0, drawn[0]] == 1 and s.bag_items.sum() == 4 and not s.prince_items.any()


def test_prince_needs_room():
    s = red_state("Prince", "jug", "boot", "spoon")
    act(s, "move to D3")
    assert legal_names(s) == {"lay the character out"}


def test_merchant_buys_up_to_three_items_or_sells_an_apple_never_both():
    s = red_state("Merchant", "jug", "boot", "spoon", silver=1)
    act(s, "move to D3", "use the ability")
    assert "merchant: buy a golden apple for 1 silver" in legal_names(s)
    act(s, "give jug from the backpack")
    assert "merchant: buy a golden apple for 1 silver" not in legal_names(s)
    act(s, "give boot from the backpack", "give spoon from the backpack")
    assert s.copper[0] == 3 and s.backpack[0].sum() == 0 and s.current_player == 1
    s = red_state("Merchant", "jug", silver=1)
    act(s, "move to D3", "use the ability", "merchant: buy a golden apple for 1 silver")
    assert s.apples[0] == 1 and s.silver[0] == 0 and s.backpack[0, item("jug")] == 1


def test_goblin_swaps_an_item_for_one_chosen_from_the_bag_but_no_coin_token():
    s = red_state("Goblin", "jug")
    set_bag(s, {"sword": 1, "copper coin": 2})
    act(s, "move to D3", "use the ability", "give jug from the backpack")
    assert "take sword" in legal_names(s) and "take copper coin" not in legal_names(s)
    act(s, "take sword")
    assert s.backpack[0].tolist() == [0] * 7 + [1] + [0] * 14
    assert s.bag_items[item("jug")] == 1


def test_goblin_keeps_one_heavy_item_at_most():
    s = red_state("Goblin", "anvil", "jug")
    set_bag(s, {"stone": 1})
    act(s, "move to D3", "use the ability")
    assert legal_names(s) == {"give anvil from the backpack"}


def test_beggar_leads_to_a_chosen_character_for_one_copper():
    s = red_state("Beggar", "cross", copper=1)
    act(s, "move to D3")
    add_to_pile(s, "Witch", "Unicorn")
    act(s, "use the ability")
    assert s.copper[0] == 0 and s.supply[0] == 24
    assert legal_names(s) == {"beggar: lead me to the Witch", "beggar: lead me to the Unicorn"}
    assert s.describe_action(s.game.string_to_action("beggar: lead me to the Witch"), 1) == \
        "beggar: lead me to a character"
    act(s, "beggar: lead me to the Witch", "fulfil the upper task")
    assert s.backpack[0].sum() == 0 and char("Witch") in s.pile and char("Beggar") in s.pile


def test_unicorn_moves_to_any_free_tile_and_turns_it():
    s = red_state("Unicorn")
    set_tile(s, "F4", "hook-1", 0)
    set_chip(s, "F4", BLUE)
    act(s, "move to D3", "use the ability", "choose tile F4")
    assert s.pos[0] == cell("F4") and s.cell_orient[cell("F4")] == 1
    assert s.chip(cell("F4")) == BLUE                   # no saddle: no action
    assert s.chip(cell("D3")) != 0                      # the vacated tile is refilled
    assert s.current_player == 1


def test_unicorn_with_a_saddle_carries_out_the_tile_action():
    s = red_state("Unicorn", "saddle")
    set_chip(s, "F4", BLUE)
    set_bag(s, {"hat": 1})
    act(s, "move to D3", "use the ability", "choose tile F4", "use the ability")
    # the saddle went back into the bag before the blue chip's draw
    assert s.backpack[0, item("saddle")] == 0 and phase(s) == "drawn"
    assert s.decision_view()["data"]["item"] in (item("hat"), item("saddle"))
    assert s.bag_items[item("hat")] + s.bag_items[item("saddle")] == 1


def test_helper_token_met_by_another_player():
    s = red_state("Merchant")
    act(s, "move to D3", "lay the character out")
    place(s, 0, "A2")
    place(s, 1, "C3")
    on_turn(s, 1)
    assert "move to D3" not in move_names(s)            # nothing to sell: may not enter
    set_backpack(s, 1, "jug")
    assert "move to D3" in move_names(s)
    act(s, "move to D3", "give jug from the backpack")
    assert s.copper[1] == 1 and s.laid_out[char("Merchant")] == 0
    assert s.cell_char[cell("D3")] == -1 and char("Merchant") in s.pile


# --- treasure chest, the Forest Spirit, the end ---------------------------------------------------------
def test_treasure_chest_and_key_give_a_golden_apple():
    s = board()
    place(s, 0, "C3")
    set_tile(s, "C3", "hook-1", 0)
    set_backpack(s, 0, "treasure chest")
    s.cell_item[cell("D3")] = item("key")
    act(s, "move to D3", "keep the item")
    assert phase(s) == "chest" and s.apples[0] == 0
    act(s, "open the treasure chest with the key")
    assert s.apples[0] == 1 and s.backpack[0].sum() == 0
    assert s.bag_items[item("treasure chest")] >= 1 and s.bag_items[item("key")] >= 1


def test_forest_spirit_appears_placed_by_the_left_neighbour_on_a_red_chip():
    s = board()
    place(s, 0, "C3")
    set_tile(s, "C3", "hook-1", 0)
    set_chip(s, "F4", RED)
    set_chip(s, "E2", BLUE)
    give_coins(s, 0, apples=3)
    act(s, "pause")
    assert phase(s) == "spirit_place" and s.current_player == 1
    assert legal_names(s) == {"choose tile F4"}
    act(s, "choose tile F4")
    assert s.cell_char[cell("F4")] == char("Forest Spirit") and s.chip(cell("F4")) == 0
    assert s.current_player == 1 and phase(s) == "turn"   # player 1's own turn follows


def test_forest_spirit_on_a_blue_chip_when_no_red_chip_lies_out():
    s = board()
    place(s, 0, "C3")
    set_tile(s, "C3", "hook-1", 0)
    set_chip(s, "E2", BLUE)
    give_coins(s, 0, apples=3)
    act(s, "pause")
    assert legal_names(s) == {"choose tile E2"}


def spirit_with_only_yellow_chips():
    """The built case: 3 players, only yellow chips on the forest (A3 and D4), seat 1 on E5
    with 3 golden apples and no debts; his pause qualifies him, so seat 2 (his left
    neighbour) places the Forest Spirit."""
    s = board(3)
    set_chip(s, "A3", YELLOW)
    set_chip(s, "D4", YELLOW)
    place(s, 1, "E5")
    give_coins(s, 1, apples=3)
    on_turn(s, 1)
    return s


def test_forest_spirit_with_no_red_or_blue_chip_goes_on_a_tile_with_a_chip():
    """With neither a red nor a blue chip on the forest, the reading: "any tile with a chip,
    else any tile without a piece or token, as the placer chooses" (rules README). Only the
    two yellow chips' tiles are offered, not the 25 empty tiles."""
    s = spirit_with_only_yellow_chips()
    act(s, "pause")
    assert (phase(s), s.current_player) == ("spirit_place", 2)
    assert legal_names(s) == {"choose tile A3", "choose tile D4"}
    used = s.used_chips.tolist()
    act(s, "choose tile D4")
    # "That colour chip is placed on the side beside the playing area"
    assert s.cell_char[cell("D4")] == char("Forest Spirit") and s.chip(cell("D4")) == 0
    assert s.chip(cell("A3")) == YELLOW
    assert s.used_chips.sum() == sum(used) + 1


def test_forest_spirit_on_a_yellow_chip_under_a_piece_but_a_blue_chip_comes_first():
    # A piece the Unicorn left on a yellow chip does not take the tile out (as for red and
    # blue chips: the reading asks only for the chip) ...
    s = spirit_with_only_yellow_chips()
    place(s, 0, "A3")
    act(s, "pause")
    assert legal_names(s) == {"choose tile A3", "choose tile D4"}
    # ... but a blue chip anywhere puts the yellow ones out of reach.
    s = spirit_with_only_yellow_chips()
    set_chip(s, "F2", BLUE)
    act(s, "pause")
    assert legal_names(s) == {"choose tile F2"}
    # With no chip at all the empty tiles are offered (wells, pieces and tokens excluded:
    # test_rule_edges.py); a tile that lost its chip is one of them.
    s = spirit_with_only_yellow_chips()
    set_chip(s, "A3", 0)
    set_chip(s, "D4", 0)
    act(s, "pause")
    targets = {n.removeprefix("choose tile ") for n in legal_names(s)}
    assert {"A3", "D4"} <= targets and "E5" not in targets and len(targets) == 27


def test_reaching_the_forest_spirit_wins():
    s = board()
    place(s, 0, "C3")
    set_tile(s, "C3", "hook-1", 0)
    s.cell_char[cell("D3")] = char("Forest Spirit")
    give_coins(s, 0, apples=2)
    on_turn(s, 0)
    assert "move to D3" not in move_names(s)             # not yet qualified
    give_coins(s, 0, apples=1)
    assert s.winner_seat == -1
    act(s, "move to D3")
    # The winner's seat is kept (it is part of the state's JSON and of the returns).
    assert s.is_terminal and s.winner[0] == 1 and s.winner_seat == 0
    assert s.ranks()[0] == 1 and sorted(s.ranks())[1:] == [2, 2]
    assert s.returns("win") == [1.0, 0.0, 0.0]


def test_drawing_the_spirit_card_qualified_wins_at_once():
    s = red_state("Forest Spirit", apples=3)
    act(s, "move to D3")
    assert s.is_terminal and s.winner[0] == 1


def test_drawing_the_spirit_card_unqualified_lays_it_out_without_moving_a_token():
    s = red_state("Forest Spirit")
    s.cell_char[cell("F4")] = char("Forest Spirit")
    act(s, "move to D3")
    assert s.laid_out[char("Forest Spirit")] == 1
    assert s.cell_char[cell("D3")] == -1 and s.cell_char[cell("F4")] == char("Forest Spirit")


def test_ranks_by_progress_apples_then_debts_then_coins():
    s = board()
    give_coins(s, 0, apples=1)
    give_coins(s, 1, apples=1, copper=3)
    s.debts[1, char("Witch")] = 1
    give_coins(s, 2, apples=1, silver=1)
    assert s.ranks() == [2, 3, 1]     # equal apples; player 1 has a debt; player 2 more coins


# --- blockade ----------------------------------------------------------------------------------------
def test_blockade_stops_rotation_and_can_be_removed():
    s = board(blockade=True)
    place(s, 0, "C3")
    set_tile(s, "C3", "hook-1", 0)
    set_backpack(s, 0, "anvil")
    s.blockade_used[0] = 0
    s.set_turn(0)
    s.replace(1, 0)  # BLOCKADE_START
    s.edited()
    act(s, "blockade: set the heavy item at gap C3/D4")
    assert s.gap_item[2 * 5 + 2] == item("anvil") and s.backpack[0].sum() == 0
    assert [s.cell_blocked[cell(x)] for x in ("C3", "C4", "D3", "D4")] == [1, 1, 1, 1]
    act(s, "pause")
    assert s.cell_orient[cell("C3")] == 0                 # blockaded: no turn
    assert s.current_player == 1                          # one blockade action per turn
    # player 1 removes it at the start of the turn
    assert phase(s) == "blockade_start"
    act(s, "blockade: remove the heavy item at gap C3/D4")
    assert s.backpack[1, item("anvil")] == 1 and s.cell_blocked.sum() == 0


# --- configuration, the round limit, copies ------------------------------------------------------------
def test_bad_config_is_refused_with_the_choices():
    from forest_envs.core.errors import ConfigError
    with pytest.raises(ConfigError, match="num_players"):
        new_state(5)
    with pytest.raises(ConfigError, match="no_silver"):
        new_state(3, no_silver=1)
    with pytest.raises(ConfigError, match="valid options"):
        new_state(3, colour="red")


def test_illegal_action_names_the_reason():
    s = board()
    with pytest.raises(IllegalActionError, match="do not lead to C3"):
        act(s, "move to C3")
    with pytest.raises(IllegalActionError, match="not a forest tile"):
        act(s, "move to A1")


def test_a_stalled_game_is_truncated_with_no_winner_and_ranked_by_progress():
    """The engine never ends a game by itself without a winner; an env truncates it at the
    game's default_max_steps (or its max_steps option): nobody wins, rewards are 0, and the
    infos rank the players by progress."""
    from forest_envs.roundforest import raw_env
    from forest_envs.roundforest.components import DEFAULT_MAX_STEPS

    assert RoundforestGame.default_max_steps == DEFAULT_MAX_STEPS
    s = board()
    for p, where in enumerate(("B2", "B5", "E5")):   # on tiles: pausing is remaining there
        place(s, p, where)
    give_coins(s, 2, apples=1)
    env = raw_env(max_steps=6)
    env.reset(options={"state": s})
    for _ in range(6):
        env.step(env.unwrapped.string_to_action("pause"))
    assert not env.engine_state.is_terminal and all(env.truncations.values())
    assert [env.infos[a]["rank"] for a in env.possible_agents] == [2, 2, 1]
    assert not any(env.infos[a]["winner"] for a in env.possible_agents)
    assert all(r == 0 for r in env.rewards.values())


def test_clone_is_independent():
    s = new_state(3, seed=4)
    c = s.clone()
    rng = np.random.default_rng(1)
    before = s.to_dict()
    for _ in range(200):
        if c.is_terminal:
            break
        c.apply(int(rng.choice(c.legal_actions())))
    assert s.to_dict() == before


def test_render_shows_the_forest_and_the_players():
    s = new_state(2, seed=0)
    text = s.render(0)
    assert "P0 in the backpack" in text and "Fairy top row (2 copper):" in text
    assert "P0 backpack" in text and "P1 backpack" in text and "P2 backpack" not in text


def test_the_merchant_is_not_a_bank():
    s = red_state("Merchant", copper=3)
    act(s, "move to D3")
    assert legal_names(s) == {"lay the character out"}   # nothing to sell, no silver


def test_resampled_hidden_card_is_a_possible_one():
    s = red_state("Devil")
    act(s, "move to D3")
    add_to_pile(s, "Forest Spirit", "Witch", "Prince")
    seen = set()
    for i in range(40):
        other = s.resample_hidden(1, np.random.default_rng(i))
        seen.add(other.drawn_of(0))
        assert sorted(other.pile + [other.drawn_of(0)]) == sorted(s.pile + [s.drawn_of(0)])
        assert other.legal_action_mask().any()
    assert seen == {char("Devil"), char("Witch"), char("Prince")}
    mine = s.resample_hidden(0, np.random.default_rng(0))
    assert mine.drawn_of(0) == char("Devil")


def test_beggar_leads_a_qualified_player_to_the_forest_spirit():
    s = red_state("Beggar", copper=1, apples=3)
    act(s, "move to D3")
    add_to_pile(s, "Forest Spirit")
    act(s, "use the ability", "beggar: lead me to the Forest Spirit")
    assert s.is_terminal and s.winner[0] == 1


def test_an_empty_blue_bag_uses_the_chip_and_gives_nothing():
    s = board()
    place(s, 0, "C3")
    set_tile(s, "C3", "hook-1", 0)
    set_chip(s, "D3", BLUE)
    set_bag(s, {})
    act(s, "move to D3")
    assert s.chip(cell("D3")) == 0 and s.used_chips[0] == 1
    assert s.backpack[0].sum() == 0 and s.current_player == 1


def test_the_prince_draws_what_is_left():
    s = red_state("Prince")
    set_bag(s, {"hat": 1})
    act(s, "move to D3", "use the ability")
    assert s.prince_items[0].sum() == 1
    act(s, "take hat")
    assert s.backpack[0, item("hat")] == 1 and s.bag_items.sum() == 0
