"""Coin tokens (rulebook, "Trade with the Fairy", note: "If a drawn or traded token shows a
coin, it may immediately be exchanged for the corresponding coin from the supply. The token
then goes back into the blue bag."; "Light items are: ... Coin ..."). Exchanging is a choice
offered when the token is drawn from the blue bag (blue chip), received in a trade with the
fairy, chosen from the Prince's draw, or found lying on a tile ("as described above"); a token kept
is an ordinary light item from then on and can never be exchanged later ("immediately"). A
yellow chip's token must be placed."""

from __future__ import annotations

from forest_envs.roundforest.components import BLUE, YELLOW

from .conftest import (
    act,
    cell,
    give_coins,
    item,
    legal_names,
    phase,
    place,
    set_backpack,
    set_bag,
    set_chip,
    set_tile,
)
from .test_rules import board, fairy_state, on_turn, red_state, well_state

EXCHANGE = "exchange the coin token for a coin from the supply"


def blue_state(*items, bag=None):
    s = board()
    place(s, 0, "C3")
    set_tile(s, "C3", "hook-1", 0)
    set_chip(s, "D3", BLUE)
    set_bag(s, bag or {"copper coin": 1})
    set_backpack(s, 0, *items)
    return s


def test_a_drawn_coin_token_offers_keep_exchange_leave_and_trade():
    s = fairy_state()
    set_bag(s, {"silver coin": 1})
    act(s, "move to D3")
    assert phase(s) == "drawn" and s.drawn_item[0] == item("silver coin")
    names = legal_names(s)
    assert {"keep the item", EXCHANGE, "leave the item on the tile",
            "trade with the fairy: bottom row item 1"} <= names


def test_a_kept_coin_token_is_an_item_and_is_never_exchanged_later():
    s = blue_state()
    act(s, "move to D3", "keep the item")
    assert s.backpack[0, item("copper coin")] == 1 and s.copper[0] == 0 and s.supply[0] == 24
    assert s.items_of(0) == 1
    on_turn(s, 0)
    assert EXCHANGE not in legal_names(s)
    # it takes a place in the backpack: with two more items the backpack is full
    set_backpack(s, 0, "copper coin", "jug", "boot")
    s.cell_item[cell("B3")] = -1
    s.cell_item[cell("A3")] = item("hat")
    s.edited()
    assert "move to A3" not in legal_names(s)


def test_a_kept_coin_token_counts_at_the_well_the_merchant_and_the_goblin():
    s = well_state()
    set_backpack(s, 0, "copper coin", "jug")
    act(s, "move to B3", "well: 2 items for 2 copper", "give copper coin from the backpack",
        "give jug from the backpack")
    assert s.copper[0] == 2 and s.backpack[0].sum() == 0
    assert s.bag_items[item("copper coin")] >= 1
    m = red_state("Merchant", "silver coin")
    act(m, "move to D3", "use the ability", "give silver coin from the backpack")
    assert m.copper[0] == 1 and m.silver[0] == 0 and m.backpack[0].sum() == 0
    g = red_state("Goblin", "copper coin")
    set_bag(g, {"sword": 1, "silver coin": 1})
    act(g, "move to D3", "use the ability", "give copper coin from the backpack")
    assert legal_names(g) == {"take sword"}          # the goblin hands over no coin token
    act(g, "take sword")
    assert g.backpack[0, item("sword")] == 1 and g.bag_items[item("copper coin")] == 1


def test_a_drawn_coin_token_without_room_may_still_be_exchanged_or_left():
    s = blue_state("anvil", "jug", "boot")
    act(s, "move to D3")
    assert "keep the item" not in legal_names(s)
    assert {EXCHANGE, "leave the item on the tile"} <= legal_names(s)
    act(s, "leave the item on the tile")
    assert s.cell_item[cell("D3")] == item("copper coin") and s.copper[0] == 0


def test_no_exchange_when_the_supply_lacks_that_coin():
    s = blue_state()
    give_coins(s, 1, copper=24)                       # the supply has no copper left
    act(s, "move to D3")
    assert EXCHANGE not in legal_names(s) and "keep the item" in legal_names(s)
    act(s, "keep the item")
    assert s.backpack[0, item("copper coin")] == 1


def test_a_coin_token_found_on_a_tile_may_be_taken_exchanged_traded_or_left():
    """"Item tokens": the player "may take it and either place it in their backpack, or
    exchange it for an item from the fairy board as described above" - the description
    above includes the coin note, so a found coin token may be exchanged at once too."""
    s = blue_state()
    s.cell_item[cell("D3")] = item("copper coin")
    s.edited()
    before = s.clone()
    act(s, "move to D3")
    assert phase(s) == "token_item"
    assert {"keep the item", EXCHANGE, "leave the item on the tile"} <= legal_names(s)
    act(s, "keep the item")
    assert s.backpack[0, item("copper coin")] == 1 and s.copper[0] == 0
    act(before, "move to D3", EXCHANGE)
    assert before.copper[0] == 1 and before.cell_item[cell("D3")] == -1
    assert before.backpack[0].sum() == 0 and before.current_player == 1


def test_a_traded_coin_token_may_be_kept():
    s = fairy_state()
    s.fairy[2, 1] = item("copper coin")
    act(s, "move to D3")
    totals = s.item_totals()
    act(s, "trade with the fairy: bottom row item 2")
    assert phase(s) == "coin_token" and s.current_player == 0
    assert legal_names(s) == {"keep the item", EXCHANGE}
    assert (s.item_totals() == totals).all()          # the token in hand is counted
    act(s, "keep the item")
    assert s.backpack[0, item("copper coin")] == 1 and s.copper[0] == 0 and s.drawn_item[0] == -1
    assert s.current_player == 1


def test_a_traded_coin_token_with_a_full_backpack_is_exchanged_at_once():
    """No room: the token can only be exchanged, so no choice is asked; the trade is
    offered only because the exchange is possible."""
    s = fairy_state()
    s.fairy[2, 1] = item("copper coin")
    set_backpack(s, 0, "jug", "boot", "spoon")
    act(s, "move to D3")
    assert legal_names(s) == {"leave the item on the tile", "trade with the fairy: bottom row item 2"}
    act(s, "trade with the fairy: bottom row item 2")
    assert s.copper[0] == 1 and s.backpack[0].sum() == 3 and s.current_player == 1
    t = fairy_state()
    t.fairy[2, 1] = item("copper coin")
    set_backpack(t, 0, "jug", "boot", "spoon")
    give_coins(t, 1, copper=24)                       # and no copper in the supply: no trade
    act(t, "move to D3")
    assert legal_names(t) == {"leave the item on the tile"}


def test_the_princes_coin_token_may_be_exchanged():
    s = red_state("Prince")
    set_bag(s, {"silver coin": 3})
    act(s, "move to D3", "use the ability", "take silver coin")
    assert phase(s) == "coin_token" and legal_names(s) == {"keep the item", EXCHANGE}
    assert not s.prince_items.any() and s.drawn_item[0] == item("silver coin")
    act(s, EXCHANGE)
    assert s.silver[0] == 1 and s.bag_items[item("silver coin")] == 3 and s.backpack[0].sum() == 0


def test_a_yellow_chips_coin_token_must_be_placed():
    s = blue_state(bag={"silver coin": 1})
    set_chip(s, "D3", YELLOW)
    set_chip(s, "F2", YELLOW)
    act(s, "move to D3")
    assert phase(s) == "yellow" and legal_names(s) == {"choose tile F2"}
    act(s, "choose tile F2")
    assert s.cell_item[cell("F2")] == item("silver coin") and s.silver[0] == 0


def test_describe_and_views_show_the_token_in_hand_to_everybody():
    s = fairy_state()
    s.fairy[2, 1] = item("copper coin")
    act(s, "move to D3", "trade with the fairy: bottom row item 2")
    a = s.game.string_to_action(EXCHANGE)
    assert s.describe_action(a, 1) == EXCHANGE
    assert s.view(1)["drawn_item"] == item("copper coin")
    assert "in hand: copper coin" in s.render(1)
