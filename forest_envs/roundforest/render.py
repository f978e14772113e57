"""What a seat may know as plain Python data (``view``) and as a text picture (``render``).

The view is indexed as the game's data is: cells by id (``components.cell_id``), items by
kind (``components.ITEM_NAMES``), characters by index (``components.CHARACTERS``), players
by seat. Another seat's face-down card and the Prince's draws appear only in that seat's
own view (and the referee's, ``seat=None``).
"""

from __future__ import annotations

from .components import (
    CHARACTER_NAMES,
    ITEM_NAMES,
    cell_id,
    cell_name,
)
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


# What each pending decision asks, for the text picture and the image's title bar.
DECISION_TEXTS = {
    "turn": "move or pause", "blockade_start": "set or remove a blockade (turn start)",
    "blockade_end": "set or remove a blockade (turn end)",
    "drawn": "keep, exchange, leave or trade the item drawn",
    "token_item": "take, trade or leave the item token", "yellow": "place the yellow chip's item",
    "character": "deal with the character card drawn", "meet": "fulfil a task",
    "well": "choose a well exchange", "well_give": "give an item to the well",
    "merchant": "deal with the Merchant", "prince": "choose one of the Prince's items",
    "goblin_give": "give the Goblin an item", "goblin_take": "take an item from the bag",
    "beggar": "choose a character", "unicorn": "choose the Unicorn's tile",
    "saddle": "use the saddle or not", "spirit_place": "place the Forest Spirit",
    "coin_token": "keep the coin token or exchange it for a coin",
    "chest": "open the treasure chest or keep it closed",
}


def decision_text(decision: dict) -> str:
    return DECISION_TEXTS[decision["kind"]]


ITEM_CODES = ("an", "ba", "sa", "tc", "st", "cr", "ke", "sw", "mp", "he", "hs", "ha", "ch",
              "ca", "ju", "sp", "mo", "mu", "pf", "bo", "cc", "sc")
CHAR_CODES = ("BS", "IK", "SC", "WI", "BA", "DE", "PR", "ME", "GO", "BE", "UN", "FS")
CHIP_CODES = ("  ", "*b", "*y", "*r")
TILE_WIDTH = 13


def _tile_text(info: dict, piece: str) -> list[str]:
    """A 5-line picture of one tile: its octagon pairs on each side (``O``/``o`` filled
    outer/inner octagon, ``.`` empty), its turning direction (``cw``/``ccw``, ``##`` when
    blockaded) and in the centre the piece (seat digit) and what lies on it."""
    inner, outer = info["inner"], info["outer"]

    def sym(d: int, which: str) -> str:
        return (which if (outer if which == "O" else inner)[d] else ".")

    turn = "##" if info["blocked"] else ("cw" if info["turn"] > 0 else "ccw")
    if info["character"] >= 0:
        centre = CHAR_CODES[info["character"]]
    elif info["item"] >= 0:
        centre = ITEM_CODES[info["item"]]
    elif info["well"]:
        centre = "~~"
    else:
        centre = CHIP_CODES[info["chip"]]
    mid = f"{sym(3, 'O')} {sym(3, 'o')} {piece}{centre} {sym(1, 'o')} {sym(1, 'O')}"
    return [f"      {sym(0, 'O')} {turn:<4}",
            f"      {sym(0, 'o')}      ",
            f" {mid} ",
            f"      {sym(2, 'o')}      ",
            f"      {sym(2, 'O')}      "]


def legend() -> str:
    items = ", ".join(f"{c} {n}" for c, n in zip(ITEM_CODES, ITEM_NAMES))
    chars = ", ".join(f"{c} {n}" for c, n in zip(CHAR_CODES, CHARACTER_NAMES))
    return ("Each tile: O/o = the outer/inner octagon on that side is filled (the tile two away / "
            "next to it may be entered), . = empty; cw/ccw = its turning direction, ## = "
            "blockaded; centre: a digit = that player's piece, *b *y *r = a blue/yellow/red "
            "chip, ~~ = a well.\nItems: " + items + "\nCharacters: " + chars)


def render(state, seat: int | None = None) -> str:
    v = view(state, seat)
    g = v["grid"]
    pieces = {p["cell"]: str(i) for i, p in enumerate(v["players"])}
    lines = [f"Roundforest - round {v['round']}, turn of player {v['turn']}"]
    lines.append("   " + "".join(f"{c + 1:^{TILE_WIDTH}}" for c in range(g)))
    for r in range(g):
        rows = [[] for _ in range(5)]
        for c in range(g):
            cell = cell_id(r, c)
            if cell in v["cells"]:
                parts = _tile_text(v["cells"][cell], pieces.get(cell, " "))
            else:
                bp = pieces.get(cell, " ")
                parts = [" " * TILE_WIDTH, " " * TILE_WIDTH, f"  [pack {bp}]   ",
                         " " * TILE_WIDTH, " " * TILE_WIDTH]
            for i in range(5):
                rows[i].append(parts[i])
        for i in range(5):
            lines.append((f"{'ABCDEF'[r]}  " if i == 2 else "   ") + "".join(rows[i]).rstrip())
    gaps = v["gaps"]
    if gaps:
        lines.append("Blockades: " + ", ".join(f"gap {g_}: {ITEM_NAMES[k]}" for g_, k in gaps.items()))
    fairy = ["/".join(ITEM_NAMES[k] if k >= 0 else "-" for k in row) for row in v["fairy"]]
    lines.append("Fairy: " + " | ".join(fairy))
    for i, p in enumerate(v["players"]):
        items = [ITEM_NAMES[k] for k, n in enumerate(p["backpack"]) for _ in range(n)]
        where = "backpack" if p["in_backpack"] else cell_name(p["cell"])
        debts = ", ".join(CHARACTER_NAMES[c] for c in p["debts"]) or "none"
        lines.append(f"Player {i} at {where}: {p['copper']} copper, {p['silver']} silver, "
                     f"{p['apples']} apples, {p['compasses']} compasses; items: "
                     f"{', '.join(items) or 'none'}; debts: {debts}"
                     + (" - WINNER" if p["winner"] else ""))
        if p.get("drawn_card") is not None:
            lines.append(f"  drawn card: {CHARACTER_NAMES[p['drawn_card']]}")
    if v["laid_out"]:
        lines.append("Laid out: " + ", ".join(CHARACTER_NAMES[c] for c in v["laid_out"]))
    if v["decision"]:
        d = v["decision"]
        hand = (f" (in hand: {ITEM_NAMES[v['drawn_item']]})" if v["drawn_item"] >= 0 else "")
        lines.append(f"Pending: player {d['player']} to {decision_text(d)} [{d['kind']}]{hand}")
    return "\n".join(lines)

