"""Roundforest rules the issue lists that test_rules.py does not pin on its own: the
setup's exact contents, fairy rows sliding from every row, refilling around tokens, the
saddle's token action with the Unicorn, the Forest Spirit's left neighbour for a player
who qualifies on another's turn, blockades at the end of a turn, the rulebook's "not
possible" examples, configuration errors and hidden information in views and action
texts. Each test asserts the values the rulebook (or rules/README.md's readings) fixes."""

from __future__ import annotations

import numpy as np
import pytest

from forest_envs.core.errors import ConfigError, IllegalActionError
from forest_envs.roundforest import raw_env
from forest_envs.roundforest.components import (
    BLUE,
    ITEM_NAMES,
    RED,
    YELLOW,
    backpack_corner,
    item_counts,
)
from forest_envs.roundforest.rules import NO_CHAR, NO_ITEM

from .conftest import (
    act,
    add_to_pile,
    cell,
    char,
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
    set_tile,
)
from .test_rules import board, fairy_state, on_turn, red_state, well_state


# --- setup ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("no_silver", [False, True])
def test_setup_contents(players, no_silver):
    s = new_state(players, seed=11, no_silver=no_silver)
    # pieces on their own backpacks at the corners, two compasses each
    assert s.pos == [backpack_corner(players, p) for p in range(players)]
    assert s.compasses.tolist() == [2] * players
    # every chip is somewhere: 24 blue, 16 yellow, 12 red; one per non-well tile
    assert s.chip_totals().tolist() == [24, 16, 12]
    tiles = 21 if players == 2 else 32
    assert int(s.cell_chip[:, 1:].sum()) == tiles - 4 and s.used_chips.tolist() == [0, 0, 0]
    # no tokens on the forest; the fairy's 3 x 3 items come from the blue bag
    assert (s.cell_item == NO_ITEM).all() and (s.cell_char == NO_CHAR).all()
    assert s.fairy.shape == (3, 3) and (s.fairy >= 0).all()
    assert (s.item_totals() == item_counts(no_silver)).all()
    assert int(s.bag_items.sum()) == (35 if no_silver else 39) - 9
    assert (s.bag_items >= 0).all() and not s.backpack.any()
    if no_silver:
        assert s.item_totals()[item("silver coin")] == 0
    # shuffled character deck, tokens beside it, full supply, no debts
    assert sorted(s.pile) == list(range(12)) and not s.laid_out.any() and not s.debts.any()
    assert s.supply.tolist() == [24, 12, 12]
    assert s.copper.sum() == s.silver.sum() == s.apples.sum() == 0


def test_setup_is_random_but_seeded():
    layouts = {tuple(new_state(3, seed=k).cell_tile.tolist()) for k in range(6)}
    chips = {tuple(new_state(3, seed=k).cell_chip.argmax(axis=1).tolist()) for k in range(6)}
    assert len(layouts) == 6 and len(chips) == 6
    assert new_state(3, seed=4).to_dict() == new_state(3, seed=4).to_dict()


# --- moving -------------------------------------------------------------------------------------------
def test_moves_never_leave_the_forest():
    s = board()
    place(s, 0, "A3")
    set_tile(s, "A3", "cross-1", 0)      # N 11 (off the forest), E 10, S 11, W 10
    assert move_names(s) == {"move to A4", "move to B3", "move to C3", "move to A2",
                             "compass: move to A5"}   # the compass opens E outer; W outer is a backpack


def test_a_compass_is_only_spent_on_a_target_the_octagons_do_not_open():
    s = board()
    place(s, 0, "C3")
    set_tile(s, "C3", "hook-1", 0)
    assert "compass: move to B3" not in legal_names(s)
    act(s, "move to B3")
    assert s.compasses[0] == 2


def test_no_compass_from_the_backpack():
    s = board()
    assert not any(n.startswith("compass") for n in legal_names(s))


# --- turning and refilling --------------------------------------------------------------------------
def test_counter_clockwise_tile_turns_back_when_paused_on():
    s = board()
    place(s, 0, "C3")
    set_tile(s, "C3", "hook-2", 0)       # counter-clockwise
    act(s, "pause")
    assert s.cell_orient[cell("C3")] == 3
    assert s.cell_open[cell("C3")].tolist() == [[0, 1], [1, 0], [0, 0], [1, 1]]


def test_a_tile_where_a_character_token_was_left_is_not_refilled():
    s = red_state("Witch")
    act(s, "move to D3", "take the debt")
    place(s, 0, "D3")
    set_tile(s, "D3", "hook-1", 0)
    on_turn(s, 0)
    act(s, "move to E3")
    assert s.chip(cell("D3")) == 0 and s.cell_char[cell("D3")] == char("Witch")


def test_a_tile_left_with_its_item_taken_is_refilled():
    s = board()
    place(s, 0, "C3")
    set_tile(s, "C3", "hook-1", 0)
    s.cell_item[cell("D3")] = item("hat")
    act(s, "move to D3", "keep the item")
    on_turn(s, 0)
    set_tile(s, "D3", "hook-1", 0)
    act(s, "move to E3")
    assert s.chip(cell("D3")) in (BLUE, YELLOW, RED)


# --- the fairy --------------------------------------------------------------------------------------
def test_fairy_top_row_trade_refills_only_the_top_row():
    s = fairy_state(copper=2)
    act(s, "move to D3")
    set_bag(s, {"mushroom": 3})
    act(s, "trade with the fairy: top row item 3")
    assert s.backpack[0, item("stone")] == 1 and s.copper[0] == 0 and s.supply[0] == 24
    # the refill draws from the bag with the drawn hat already back in it
    assert set(s.fairy[0].tolist()) <= {item("mushroom"), item("hat")}
    assert s.bag_items[item("hat")] + s.bag_items[item("mushroom")] == 1
    assert s.fairy[1].tolist() == [item("cross"), item("key"), item("sword")]
    assert s.fairy[2].tolist() == [item("jug"), item("spoon"), item("boot")]
    assert s.bag_items[item("anvil")] == 1 and s.bag_items[item("barrel")] == 1


def test_fairy_middle_row_trade_slides_the_top_row_down():
    s = fairy_state(copper=1)
    act(s, "move to D3")
    set_bag(s, {"mushroom": 3})
    act(s, "trade with the fairy: middle row item 2")
    assert s.backpack[0, item("key")] == 1 and s.copper[0] == 0 and s.supply[0] == 24
    assert s.fairy[1].tolist() == [item("anvil"), item("barrel"), item("stone")]
    assert s.fairy[2].tolist() == [item("jug"), item("spoon"), item("boot")]
    # the refill draws from the bag with the drawn hat already back in it
    assert set(s.fairy[0].tolist()) <= {item("mushroom"), item("hat")}
    assert s.bag_items[item("hat")] + s.bag_items[item("mushroom")] == 1
    assert s.bag_items[item("cross")] == 1 and s.bag_items[item("sword")] == 1


def test_a_traded_coin_token_may_become_a_coin_and_goes_back_to_the_bag():
    s = fairy_state()
    s.fairy[2, 0] = item("silver coin")
    act(s, "move to D3", "trade with the fairy: bottom row item 1")
    assert phase(s) == "coin_token" and s.drawn_item[0] == item("silver coin")
    assert legal_names(s) == {"keep the item", "exchange the coin token for a coin from the supply"}
    act(s, "exchange the coin token for a coin from the supply")
    assert s.silver[0] == 1 and s.supply[1] == 11 and s.backpack[0].sum() == 0
    assert s.bag_items[item("silver coin")] >= 1


def test_fairy_silver_pays_the_middle_row_too_without_change():
    s = fairy_state(silver=2)
    act(s, "move to D3", "trade with the fairy: middle row item 1")
    assert s.silver[0] == 1 and s.copper[0] == 0 and s.supply.tolist() == [24, 11, 12]


def test_fairy_top_row_refills_short_from_an_almost_empty_bag():
    s = fairy_state()
    act(s, "move to D3")                              # the bag held only the hat, now drawn
    act(s, "trade with the fairy: bottom row item 1")
    assert s.backpack[0, item("jug")] == 1
    assert s.fairy[0].tolist().count(item("hat")) == 1 and s.fairy[0].tolist().count(NO_ITEM) == 2
    assert s.bag_items.tolist().count(0) == len(ITEM_NAMES) - 2      # spoon and boot came back
    assert s.bag_items[item("spoon")] == 1 and s.bag_items[item("boot")] == 1


def test_coins_and_apples_need_no_room_in_the_backpack():
    s = board()
    place(s, 0, "C3")
    set_tile(s, "C3", "hook-1", 0)
    set_chip(s, "D3", BLUE)
    set_backpack(s, 0, "anvil", "jug", "boot")       # full, with its one heavy item
    give_coins(s, 0, copper=7, silver=3, apples=2)
    set_bag(s, {"copper coin": 1})
    act(s, "move to D3")
    assert "keep the item" not in legal_names(s)     # as an item it needs room
    act(s, "exchange the coin token for a coin from the supply")
    assert s.copper[0] == 8 and s.backpack[0].sum() == 3 and s.current_player == 1


def test_trade_of_an_item_token_lying_on_the_tile():
    s = board()
    place(s, 0, "C3")
    set_tile(s, "C3", "hook-1", 0)
    s.cell_item[cell("D3")] = item("hat")
    s.fairy[2] = [item("jug"), item("spoon"), item("boot")]
    act(s, "move to D3", "trade with the fairy: bottom row item 3")
    assert s.backpack[0, item("boot")] == 1 and s.cell_item[cell("D3")] == NO_ITEM
    assert s.bag_items[item("hat")] >= 1


# --- yellow chip --------------------------------------------------------------------------------------
def test_yellow_item_with_nowhere_to_go_returns_to_the_bag():
    s = board()
    place(s, 0, "C3")
    set_tile(s, "C3", "hook-1", 0)
    set_chip(s, "D3", YELLOW)
    set_bag(s, {"cheese": 1})
    act(s, "move to D3")
    assert s.bag_items[item("cheese")] == 1 and (s.cell_item == NO_ITEM).all()
    assert s.used_chips[1] == 1 and s.current_player == 1


# --- wells: the rulebook's "not possible" examples ------------------------------------------------
def test_well_never_changes_apples_back_nor_a_single_copper_for_an_item():
    s = well_state(apples=2)
    act(s, "move to B3")             # two golden apples cannot become two silver coins
    assert s.current_player == 1 and s.apples[0] == 2 and s.silver[0] == 0
    s = well_state(copper=1)
    set_backpack(s, 0, "jug")
    act(s, "move to B3")             # one copper and one item: nothing to exchange
    assert s.current_player == 1 and s.copper[0] == 1 and s.backpack[0, item("jug")] == 1


def test_well_offers_only_one_exchange_and_only_on_arrival():
    s = well_state(copper=3, silver=1)
    set_backpack(s, 0, "jug", "boot")
    act(s, "move to B3")
    assert legal_names(s) == {"well: 2 items for 2 copper", "well: 3 copper for 1 silver",
                              "well: 1 silver for 1 golden apple", "well: no exchange"}
    act(s, "well: no exchange")
    assert (s.copper[0], s.silver[0], s.apples[0], int(s.backpack[0].sum())) == (3, 1, 0, 2)
    assert s.current_player == 1


# --- characters ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(("name", "gift", "reward"), [
    ("Blacksmith", "anvil", "sword"), ("Innkeeper", "barrel", "magic potion"),
    ("Sculptor", "stone", "cross")])
def test_friendly_reward_missing_from_the_bag_gives_nothing(name, gift, reward):
    s = red_state(name, gift)
    set_bag(s, {"hat": 1})
    act(s, "move to D3", "fulfil the upper task")
    assert s.backpack[0].sum() == 0 and s.apples[0] == 0
    assert s.bag_items[item(gift)] == 1 and s.bag_items[item(reward)] == 0


def test_the_witch_driven_away_with_both_items_keeps_the_choice():
    s = red_state("Witch", "cross", "magic potion")
    act(s, "move to D3")
    assert {"fulfil the upper task", "fulfil the lower task"} <= legal_names(s)
    act(s, "fulfil the upper task")
    assert s.backpack[0, item("magic potion")] == 1 and s.backpack[0, item("cross")] == 0


def test_debtor_fulfils_the_own_task_later_at_the_token():
    s = red_state("Bandit")
    act(s, "move to D3", "take the debt")
    place(s, 0, "C3")
    give_coins(s, 0, copper=2)
    set_backpack(s, 0, "sword")
    on_turn(s, 0)
    act(s, "move to D3")
    assert phase(s) == "meet"
    assert legal_names(s) == {"fulfil the upper task", "fulfil the lower task"}
    act(s, "fulfil the lower task")
    assert s.apples[0] == 1 and s.copper[0] == 0 and s.supply.tolist() == [24, 12, 11]
    assert not s.debts.any() and char("Bandit") in s.pile and s.cell_char[cell("D3")] == NO_CHAR


def test_only_the_debtor_may_settle_a_debt_with_an_apple():
    s = red_state("Bandit")
    act(s, "move to D3", "take the debt")
    place(s, 0, "A2")
    place(s, 1, "C3")
    give_coins(s, 1, apples=2)
    on_turn(s, 1)
    assert "move to D3" not in move_names(s)


def test_beggar_leads_to_a_helper_whose_ability_is_used_at_once():
    s = red_state("Beggar", "jug", copper=1)
    act(s, "move to D3")
    add_to_pile(s, "Merchant")
    act(s, "use the ability", "beggar: lead me to the Merchant", "use the ability",
        "give jug from the backpack")
    assert s.copper[0] == 1 and s.backpack[0].sum() == 0
    assert char("Merchant") in s.pile and char("Beggar") in s.pile


def test_beggar_chosen_character_may_be_laid_out_as_a_debt():
    s = red_state("Beggar", copper=1)
    act(s, "move to D3")
    add_to_pile(s, "Devil")
    act(s, "use the ability", "beggar: lead me to the Devil", "take the debt")
    assert s.debts[0, char("Devil")] == 1 and s.cell_char[cell("D3")] == char("Devil")


def test_unicorn_with_a_saddle_onto_an_item_token_takes_it():
    s = red_state("Unicorn", "saddle", "jug", "boot")   # full until the saddle goes back
    s.cell_item[cell("F4")] = item("key")
    act(s, "move to D3", "use the ability")
    assert "choose tile F4" in legal_names(s)
    before = s.clone()
    act(s, "choose tile F4")
    assert phase(s) == "saddle"
    assert legal_names(s) == {"use the ability"}      # keeping the saddle leaves no room
    act(s, "use the ability", "keep the item")
    assert s.backpack[0, item("key")] == 1 and s.backpack[0, item("saddle")] == 0
    assert s.bag_items[item("saddle")] >= 1 and s.cell_item[cell("F4")] == NO_ITEM
    set_backpack(before, 0, "saddle", "jug")          # with room the saddle may be kept
    act(before, "choose tile F4")
    assert legal_names(before) == {"use the ability", "done"}
    act(before, "done")
    assert before.pos[0] == cell("F4") and before.cell_item[cell("F4")] == item("key")
    assert before.backpack[0, item("saddle")] == 1 and before.current_player == 1


def test_unicorn_with_a_saddle_onto_a_character_token_must_meet_it():
    s = red_state("Unicorn", "saddle", copper=2)
    s.cell_char[cell("F4")] = char("Bandit")
    s.debts[1, char("Bandit")] = 1                     # player 1's debt, fulfilled by player 0
    act(s, "move to D3", "use the ability", "choose tile F4")
    assert legal_names(s) == {"use the ability"}
    act(s, "use the ability", "fulfil the upper task")
    assert not s.debts.any() and s.copper[0] == 0 and s.cell_char[cell("F4")] == NO_CHAR


def test_unicorn_without_a_saddle_avoids_character_tiles_not_item_tiles():
    """"The player may set their playing piece on any free forest tile": free = no piece.
    An item token's tile a move could enter (room in the backpack) is one; no action
    follows without a saddle, so the token stays. A character token's tile is entered only
    to meet the character."""
    s = red_state("Unicorn", copper=2)
    s.cell_char[cell("F4")] = char("Bandit")
    s.cell_item[cell("F3")] = item("key")
    full = s.clone()
    act(s, "move to D3", "use the ability")
    names = legal_names(s)
    assert "choose tile F4" not in names and "choose tile F3" in names and "choose tile F2" in names
    assert "choose tile D3" not in names                   # the player's own piece stands there
    with pytest.raises(IllegalActionError):
        act(s, "choose tile F4")
    act(s, "choose tile F3")
    assert s.pos[0] == cell("F3") and s.cell_item[cell("F3")] == item("key")
    assert s.backpack[0].sum() == 0 and s.current_player == 1
    set_backpack(full, 0, "jug", "boot", "hat")          # a full backpack bars the item tile
    act(full, "move to D3", "use the ability")
    assert "choose tile F3" not in legal_names(full) and "choose tile F2" in legal_names(full)


def test_unicorn_with_a_saddle_onto_a_well_makes_no_exchange():
    s = red_state("Unicorn", "saddle", silver=1)
    act(s, "move to D3", "use the ability", "choose tile B3")
    assert s.pos[0] == cell("B3") and s.silver[0] == 1 and s.current_player == 1


# --- the Forest Spirit and the result ---------------------------------------------------------------
def test_spirit_placed_by_the_left_neighbour_of_a_player_qualified_on_another_turn():
    s = red_state("Witch")
    act(s, "move to D3", "take the debt")    # player 0 now owes the Witch
    give_coins(s, 0, apples=3)
    place(s, 0, "A2")
    place(s, 2, "C3")
    set_backpack(s, 2, "cross")
    set_chip(s, "F4", RED)
    on_turn(s, 2)
    act(s, "move to D3", "fulfil the upper task")   # player 2 frees player 0
    assert s.qualified(0)
    assert phase(s) == "spirit_place" and s.current_player == 1   # player 0's left neighbour
    assert "choose tile F4" in legal_names(s)         # (C3, left by player 2, got a chip too)
    assert all(s.chip(a - s.game.string_to_action("choose tile A1")) == RED
               for a in s.legal_actions())
    act(s, "choose tile F4")
    assert s.cell_char[cell("F4")] == char("Forest Spirit") and s.current_player == 0


def test_spirit_may_be_placed_on_a_red_chip_under_a_piece():
    """"places it on any forest tile with a red colour chip": a piece set there by the
    Unicorn (which leaves the chip) does not take the tile out."""
    s = board()
    place(s, 0, "C3")
    set_tile(s, "C3", "hook-1", 0)
    set_chip(s, "F4", RED)
    set_chip(s, "B5", RED)
    place(s, 1, "B5")
    give_coins(s, 0, apples=3)
    on_turn(s, 0)
    act(s, "pause")
    assert phase(s) == "spirit_place" and legal_names(s) == {"choose tile F4", "choose tile B5"}
    act(s, "choose tile B5")
    assert s.cell_char[cell("B5")] == char("Forest Spirit") and s.chip(cell("B5")) == 0
    assert s.pos[1] == cell("B5")


def test_spirit_with_no_chip_left_goes_to_a_free_tile_without_token_or_well():
    s = board()
    place(s, 0, "C3")
    set_tile(s, "C3", "hook-1", 0)
    s.cell_item[cell("F4")] = item("hat")
    give_coins(s, 0, apples=3)
    act(s, "pause")
    options = {n.removeprefix("choose tile ") for n in legal_names(s)}
    assert "F4" not in options and "C3" not in options and "B3" not in options
    assert "F3" in options


def test_a_debt_withholds_the_ring():
    s = board()
    place(s, 0, "C3")
    set_tile(s, "C3", "hook-1", 0)
    s.cell_char[cell("D3")] = char("Forest Spirit")
    give_coins(s, 0, apples=3)
    s.debts[0, char("Devil")] = 1
    on_turn(s, 0)
    assert "move to D3" not in move_names(s)
    s.debts[0, char("Devil")] = 0
    on_turn(s, 0)
    act(s, "move to D3")
    assert s.is_terminal and s.winner.tolist() == [1, 0, 0]
    assert s.apples[0] == 0 and s.supply[2] == 12      # three apples for the ring


def test_the_others_rank_by_progress_behind_the_winner():
    s = board()
    place(s, 0, "C3")
    set_tile(s, "C3", "hook-1", 0)
    s.cell_char[cell("D3")] = char("Forest Spirit")
    give_coins(s, 0, apples=3)
    give_coins(s, 2, apples=1)
    on_turn(s, 0)
    act(s, "move to D3")
    assert s.ranks() == [1, 3, 2] and s.returns("win") == [1.0, 0.0, 0.0]
    assert s.returns("rank") == [1.0, 0.0, 0.5]


# --- blockades ---------------------------------------------------------------------------------------
def blockade_board():
    s = board(blockade=True)
    place(s, 0, "C3")
    set_tile(s, "C3", "hook-1", 0)
    set_backpack(s, 0, "anvil")
    s.blockade_used[0] = 0
    on_turn(s, 0)
    s.replace(1, 0)  # blockade_start
    s.edited()
    return s


def test_blockade_set_at_the_end_of_the_turn_instead():
    s = blockade_board()
    act(s, "done", "pause")
    assert s.cell_orient[cell("C3")] == 1            # no blockade yet: it turned
    assert phase(s) == "blockade_end" and s.current_player == 0
    act(s, "blockade: set the heavy item at gap B2/C3")
    assert s.gap_item[1 * 5 + 1] == item("anvil")
    assert [s.cell_blocked[cell(x)] for x in ("B2", "B3", "C2", "C3")] == [1, 1, 1, 1]
    assert s.current_player == 1


def test_no_second_blockade_action_in_one_turn():
    s = blockade_board()
    act(s, "blockade: set the heavy item at gap C3/D4")
    set_backpack(s, 0, "stone")                       # another heavy item now
    act(s, "pause")
    assert s.current_player == 1                      # no blockade_end for player 0


def test_heavy_item_lying_on_a_tile_does_not_blockade():
    s = board(blockade=True)
    place(s, 0, "C3")
    set_tile(s, "C3", "hook-1", 0)
    s.cell_item[cell("C3")] = item("anvil")
    on_turn(s, 0)
    act(s, "pause")
    assert s.cell_orient[cell("C3")] == 1 and not s.cell_blocked.any()


def test_blockade_rule_is_off_without_the_variant():
    s = board()
    place(s, 0, "C3")
    set_tile(s, "C3", "hook-1", 0)
    set_backpack(s, 0, "anvil")
    on_turn(s, 0)
    assert not any(n.startswith("blockade") for n in legal_names(s))
    act(s, "pause")
    assert s.current_player == 1 and phase(s) == "turn"


def test_removing_needs_room_for_the_heavy_item():
    s = blockade_board()
    act(s, "blockade: set the heavy item at gap C3/D4")
    full, heavy = s.clone(), s.clone()
    act(s, "pause")                                   # player 1 has room: may remove it
    assert phase(s) == "blockade_start" and s.current_player == 1
    assert legal_names(s) == {"blockade: remove the heavy item at gap C3/D4", "done"}
    set_backpack(full, 1, "jug", "boot", "hat")
    act(full, "pause")                                # a full backpack: nothing to do
    assert phase(full) == "turn" and full.current_player == 1
    set_backpack(heavy, 1, "stone")
    act(heavy, "pause")                               # a heavy item: may set, not remove
    assert phase(heavy) == "blockade_start"
    assert not any(n.startswith("blockade: remove") for n in legal_names(heavy))
    assert any(n.startswith("blockade: set") for n in legal_names(heavy))


# --- configuration and errors ------------------------------------------------------------------------
@pytest.mark.parametrize(("cfg", "match"), [
    ({"num_players": 5}, "num_players"), ({"num_players": 1}, "num_players"),
    ({"blockade": "yes"}, "blockade"), ({"no_silver": "no"}, "no_silver"),
    ({"colour": "red"}, "colour")])
def test_bad_config_names_the_option(cfg, match):
    with pytest.raises(ConfigError, match=match):
        raw_env(**cfg)
    with pytest.raises(ValueError):
        new_state(**{"num_players": 3, **cfg})


def test_illegal_actions_raise_with_the_reason_and_leave_the_state_untouched():
    s = red_state("Bandit")
    act(s, "move to D3", "take the debt")
    place(s, 0, "A2")
    place(s, 1, "C3")
    on_turn(s, 1)
    before = s.to_dict()
    with pytest.raises(IllegalActionError, match="Bandit on D3 can be met only"):
        act(s, "move to D3")
    with pytest.raises(IllegalActionError):
        act(s, "keep the item")
    assert s.to_dict() == before


# --- hidden information ------------------------------------------------------------------------------
def test_the_prince_draws_stay_out_of_other_views_renders_and_texts():
    s = red_state("Prince")
    set_bag(s, {"hat": 1, "anvil": 1, "key": 1, "jug": 2})
    act(s, "move to D3", "use the ability")
    other = s.clone()
    other.prince_items[0] = 0
    other.prince_items[0, item("jug")] = 2
    other.prince_items[0, item("boot")] = 1
    for seat in (1, 2):
        assert (s.observation(seat) == other.observation(seat)).all()
        assert s.view(seat) == other.view(seat) and s.render(seat) == other.render(seat)
        for a in s.legal_actions():
            text = s.describe_action(a, seat)
            assert text == "prince: keep one of the items drawn"
            assert not any(name in text for name in ITEM_NAMES)
    assert s.view(0)["players"][0]["prince_items"] == s.prince_items[0].tolist()


def test_the_drawn_card_stays_out_of_other_views_and_texts():
    s = red_state("Devil", silver=1)
    act(s, "move to D3")
    other = s.clone()
    other.drawn_card[0] = 0
    other.drawn_card[0, char("Witch")] = 1
    for seat in (1, 2):
        assert s.view(seat) == other.view(seat) and s.render(seat) == other.render(seat)
        for a in s.legal_actions():
            if s.game.action_names[a] != "take the debt":
                assert "Devil" not in s.describe_action(a, seat)
    assert "legal_actions" not in s.view(1)
    assert s.view(0)["players"][0]["drawn_card"] == char("Devil")


def test_the_observation_holds_no_bag_order():
    s = new_state(3, seed=2)
    other = s.clone()
    other.rng = np.random.default_rng(12345)          # other future draws, same present
    for seat in range(3):
        assert (s.observation(seat) == other.observation(seat)).all()
        assert s.view(seat) == other.view(seat)
