"""What a seat may know as plain Python data (``view``).

The view is indexed as the game's data is: cells by id (``components.cell_id``), items by
kind (``components.ITEM_NAMES``), characters by index (``components.CHARACTERS``), players
by seat. Another seat's face-down card and the Prince's draws appear only in that seat's
own view (and the referee's, ``seat=None``).
"""

from __future__ import annotations

from .components import CHARACTER_NAMES
from .observation import APPLES, COPPER, SILVER


def view(state, seat: int | None) -> dict:
    referee = seat is None
    game = state.game
    cells = {}
    for cell in game.tile_cells:
        cells[cell] = {
            "tile": int(state.cell_tile[cell]),
            "well": bool(state.cell_well[cell]),
            "turn": int(state.cell_turn[cell]),
            "orientation": int(state.cell_orient[cell]),
            "inner": state.cell_open[cell, :, 0].astype(bool).tolist(),
            "outer": state.cell_open[cell, :, 1].astype(bool).tolist(),
            "blocked": int(state.cell_blocked[cell]),
            "chip": state.chip(cell),
            "item": int(state.cell_item[cell]),
            "character": int(state.cell_char[cell]),
        }
    players = []
    for p in range(state.num_players):
        entry = {
            "cell": state.pos[p],
            "in_backpack": state.pos[p] == game.corner[p],
            "backpack": state.backpack[p].tolist(),
            "copper": int(state.copper[p]),
            "silver": int(state.silver[p]),
            "apples": int(state.apples[p]),
            "compasses": int(state.compasses[p]),
            "debts": [c for c in range(len(CHARACTER_NAMES)) if state.debts[p, c]],
            "winner": bool(state.winner[p]),
        }
        if referee or p == seat:
            drawn = state.drawn_card[p]
            entry["drawn_card"] = int(drawn.argmax()) if drawn.any() else None
            entry["prince_items"] = state.prince_items[p].tolist()
        players.append(entry)
    out = {
        "seat": seat,
        "num_players": state.num_players,
        "grid": game.grid,
        "round": int(state.round_no[0]),
        "turn": state.turn_player,
        "decision": state.decision_view(),
        "cells": cells,
        "gaps": {g: int(k) for g, k in enumerate(state.gap_item.tolist()) if k >= 0},
        "fairy": state.fairy.tolist(),
        "bag_items": state.bag_items.tolist(),
        "drawn_item": int(state.drawn_item[0]),
        "black_bag": state.black_bag.tolist(),
        "used_chips": state.used_chips.tolist(),
        "supply": {"copper": int(state.supply[COPPER]), "silver": int(state.supply[SILVER]),
                   "apples": int(state.supply[APPLES])},
        "pile_size": int(state.pile_size[0]),
        "laid_out": [c for c in range(len(CHARACTER_NAMES)) if state.laid_out[c]],
        "players": players,
        "progress": state.breakdown(),
    }
    if not state.is_terminal and (referee or seat == state.current_player):
        out["legal_actions"] = state.legal_actions()
    return out


# Two-letter codes of the items and characters for the picture's small tokens
# (``picture.py``; the text board uses ``board_text``'s longer labels).
