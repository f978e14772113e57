"""What a seat may know as plain Python data (``view``).

The view is indexed as the game's data is: cells by id (``components.cell_id``), items by
kind (``components.ITEM_NAMES``), characters by index (``components.CHARACTERS``), players
by seat. Another seat's face-down card and the Prince's draws appear only in that seat's
own view (and the referee's, ``seat=None``).
"""

from __future__ import annotations

from ..observation import APPLES, COPPER, SILVER


def view(state, seat: int | None) -> dict:
    referee = seat is None
    game = state.game
    # Each block read once as Python lists, with as few numpy calls as can be: a scripted
    # agent reads the view at every decision. On these small blocks a numpy reduction that
    # goes through numpy's Python wrappers (sum, any) costs more than the Python work on a
    # short list; a reduction over many rows (the chips' argmax) does not.
    tile, well, turn = state.cell_tile.tolist(), state.cell_well.tolist(), state.cell_turn.tolist()
    orient, blocked = state.cell_orient.tolist(), state.cell_blocked.tolist()
    inner, outer = state.cell_open.astype(bool).transpose(2, 0, 1).tolist()
    chip, item = state.chips(), state.cell_item.tolist()
    char = state.cell_char.tolist()
    cells = {cell: {"tile": tile[cell], "well": bool(well[cell]), "turn": turn[cell],
                    "orientation": orient[cell], "inner": inner[cell], "outer": outer[cell],
                    "blocked": blocked[cell], "chip": chip[cell], "item": item[cell],
                    "character": char[cell]}
             for cell in game.tile_cells}
    backpack, copper, silver = state.backpack.tolist(), state.copper.tolist(), state.silver.tolist()
    apples, compasses = state.apples.tolist(), state.compasses.tolist()
    debts, winner = state.debts.tolist(), state.winner.tolist()
    players = []
    for p in range(state.num_players):
        entry = {
            "cell": state.pos[p],
            "in_backpack": state.pos[p] == game.corner[p],
            "backpack": backpack[p],
            "copper": copper[p],
            "silver": silver[p],
            "apples": apples[p],
            "compasses": compasses[p],
            "debts": [c for c, owed in enumerate(debts[p]) if owed],
            "winner": bool(winner[p]),
        }
        if referee or p == seat:
            drawn = state.drawn_card[p].tolist()
            entry["drawn_card"] = drawn.index(max(drawn)) if any(drawn) else None
            entry["prince_items"] = state.prince_items[p].tolist()
        players.append(entry)
    supply = state.supply.tolist()
    out = {
        "seat": seat,
        "num_players": state.num_players,
        "grid": game.grid,
        "round": int(state.round_no[0]),
        "turn": state.turn_player,
        "decision": state.decision_view(),
        "cells": cells,
        "gaps": {g: k for g, k in enumerate(state.gap_item.tolist()) if k >= 0},
        "fairy": state.fairy.tolist(),
        "bag_items": state.bag_items.tolist(),
        "drawn_item": int(state.drawn_item[0]),
        "black_bag": state.black_bag.tolist(),
        "used_chips": state.used_chips.tolist(),
        "supply": {"copper": supply[COPPER], "silver": supply[SILVER], "apples": supply[APPLES]},
        "pile_size": int(state.pile_size[0]),
        "laid_out": [c for c, shown in enumerate(state.laid_out.tolist()) if shown],
        "players": players,
        "progress": state.breakdown(),
    }
    if not state.is_terminal and (referee or seat == state.current_player):
        out["legal_actions"] = state.legal_actions()
    return out
