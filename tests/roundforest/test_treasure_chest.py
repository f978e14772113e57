"""The treasure chest (rulebook, "Meeting the Forest Spirit": "a player who has collected the
item tokens Treasure Chest and Key in their backpack may open the chest with the key, in
which there is a golden apple. The player takes it from the supply. Both item tokens go back
into the blue bag"). Opening is the holder's choice, offered at the end of the action in
which the pair is complete and at the start and end of every later turn of theirs while
they hold both (and the supply has an apple). A closed chest stays a heavy item."""

from __future__ import annotations

from .conftest import act, cell, item, legal_names, phase, place, set_backpack, set_bag, set_tile
from .test_rules import board, fairy_state, on_turn

OPEN, CLOSED = "open the treasure chest with the key", "done"


def chest_and_key_state(players=3, **cfg):
    """Player 0 on C3 holding the chest; a key token lies on D3; the others on tiles."""
    s = board(players, **cfg)
    for p, where in ((0, "C3"), (1, "B5"), (2, "E5"))[:players]:
        place(s, p, where)
    set_tile(s, "C3", "hook-1", 0)
    set_backpack(s, 0, "treasure chest")
    s.cell_item[cell("D3")] = item("key")
    s.edited()
    return s


def test_opening_is_offered_when_the_key_arrives():
    s = chest_and_key_state()
    act(s, "move to D3", "keep the item")
    assert phase(s) == "chest" and s.current_player == 0 and s.decision.data == (1,)
    assert legal_names(s) == {OPEN, CLOSED}
    act(s, OPEN)
    assert s.apples[0] == 1 and s.supply[2] == 11 and s.backpack[0].sum() == 0
    assert s.bag_items[item("treasure chest")] >= 1 and s.bag_items[item("key")] >= 1
    assert s.current_player == 1 and phase(s) == "turn"


def test_a_closed_chest_stays_and_is_offered_again_at_the_next_turn():
    s = chest_and_key_state()
    act(s, "move to D3", "keep the item", CLOSED)
    assert s.backpack[0, item("treasure chest")] == 1 and s.apples[0] == 0
    assert s.current_player == 1
    act(s, "pause", "pause")                          # players 1 and 2
    assert phase(s) == "chest" and s.current_player == 0 and s.decision.data == (0,)
    act(s, OPEN)
    assert s.apples[0] == 1 and phase(s) == "turn" and s.current_player == 0
    act(s, "pause")
    assert s.current_player == 1                      # nothing left to open at the end


def test_a_closed_chest_is_a_heavy_item():
    s = fairy_state()
    set_backpack(s, 0, "treasure chest", "key")
    set_bag(s, {"stone": 1})
    on_turn(s, 0)
    act(s, "move to D3")
    assert phase(s) == "drawn" and "keep the item" not in legal_names(s)   # one heavy item only


def test_a_closed_chest_can_be_set_as_a_blockade_and_then_cannot_be_opened():
    s = chest_and_key_state(blockade=True)
    act(s, "move to D3", "keep the item", CLOSED)
    assert phase(s) == "blockade_end"                 # the chest before the blockade chance
    act(s, "done", "pause", "pause")
    assert phase(s) == "chest"
    act(s, CLOSED)
    assert phase(s) == "blockade_start"
    act(s, "blockade: set the heavy item at gap C3/D4")
    assert s.gap_item[2 * 5 + 2] == item("treasure chest") and phase(s) == "turn"
    act(s, "pause")
    assert s.current_player == 1                      # no chest decision without the chest


def test_no_opening_without_an_apple_in_the_supply():
    s = chest_and_key_state()
    s.supply[2] = 0                                   # every golden apple is given out
    s.edited()
    act(s, "move to D3", "keep the item")
    assert s.current_player == 1 and s.backpack[0, item("treasure chest")] == 1
