"""Roundforest positions, one for every decision kind (and a few more), built with the
rules tests' helpers: ``at_<kind>()`` is a state whose pending decision is that kind. Used
by ``test_words.py``."""

from __future__ import annotations

from forest_envs.roundforest.components import RED, YELLOW

from .conftest import (
    act,
    add_to_pile,
    cell,
    give_coins,
    item,
    place,
    set_backpack,
    set_bag,
    set_chip,
    set_tile,
)
from .test_rulebook import blockade_board
from .test_rules import board, fairy_state, on_turn, red_state, well_state
from .test_treasure_chest import chest_and_key_state


def at_turn():
    s = board()
    place(s, 0, "C3")
    set_tile(s, "C3", "hook-1", 0)
    return s


def at_start():
    return board()


def at_blockade_start():
    return blockade_board()


def at_blockade_end():
    s = blockade_board()
    act(s, "done", "pause")
    return s


def at_drawn():
    s = fairy_state()
    act(s, "move to D3")
    return s


def at_token_item():
    s = at_turn()
    s.cell_item[cell("D3")] = item("anvil")
    s.edited()
    act(s, "move to D3")
    return s


def at_yellow():
    s = at_turn()
    set_chip(s, "D3", YELLOW)
    set_chip(s, "F2", YELLOW)
    set_bag(s, {"hat": 1})
    act(s, "move to D3")
    return s


def at_character():
    s = red_state("Witch", "cross")
    act(s, "move to D3")
    return s


def at_helper_card():
    s = red_state("Prince")
    act(s, "move to D3")
    return s


def at_beggar_card():
    s = at_beggar()
    act(s, "beggar: lead me to the Bandit")
    return s


def at_meet():
    s = red_state("Witch")
    act(s, "move to D3", "take the debt")     # P0 owes the Witch, whose token lies on D3
    place(s, 0, "A2")
    place(s, 2, "C3")
    set_backpack(s, 2, "cross", "magic potion")
    on_turn(s, 2)
    act(s, "move to D3")
    return s


def at_well():
    s = well_state(copper=3, silver=1)
    set_backpack(s, 0, "jug", "boot")
    act(s, "move to B3")
    return s


def at_well_give():
    s = at_well()
    act(s, "well: 2 items for 2 copper")
    return s


def at_merchant():
    s = red_state("Merchant", "jug", "boot", silver=1)
    act(s, "move to D3", "use the ability")
    return s


def at_merchant_sold():
    s = at_merchant()
    act(s, "give jug from the backpack")
    return s


def at_prince():
    s = red_state("Prince")
    set_bag(s, {"hat": 1, "key": 1, "anvil": 1})
    act(s, "move to D3", "use the ability")
    return s


def at_goblin_give():
    s = red_state("Goblin", "jug", "boot")
    set_bag(s, {"hat": 1, "key": 1})
    act(s, "move to D3", "use the ability")
    return s


def at_goblin_take():
    s = at_goblin_give()
    act(s, "give jug from the backpack")
    return s


def at_beggar():
    s = red_state("Beggar", copper=1)
    act(s, "move to D3")
    add_to_pile(s, "Bandit", "Goblin")
    act(s, "use the ability")
    return s


def at_unicorn():
    s = red_state("Unicorn", "saddle")
    act(s, "move to D3", "use the ability")
    return s


def at_saddle():
    s = at_unicorn()
    s.cell_item[cell("F4")] = item("key")
    s.edited()
    act(s, "choose tile F4")
    return s


def at_spirit_place():
    s = red_state("Witch")
    act(s, "move to D3", "take the debt")
    give_coins(s, 0, apples=3)
    place(s, 0, "A2")
    place(s, 2, "C3")
    set_backpack(s, 2, "cross")
    set_chip(s, "F4", RED)
    on_turn(s, 2)
    act(s, "move to D3", "fulfil the upper task")
    return s


def at_coin_token():
    s = fairy_state()
    s.fairy[2, 1] = item("copper coin")
    act(s, "move to D3", "trade with the fairy: bottom row item 2")
    return s


def at_chest():
    s = chest_and_key_state()
    act(s, "move to D3", "keep the item")
    return s
