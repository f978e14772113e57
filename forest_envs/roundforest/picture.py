"""Roundforest as an image (``render_mode="rgb_array"``), drawn from ``text.view`` only.

Left: the forest. Each tile shows its octagon pairs on every side (a filled octagon is open:
the inner one lets a piece onto the next tile, the outer one onto the tile two away), its
turning direction (an arrow; a red frame when it is blockaded), a notch on the side its
printed top faces, and in its centre the colour chip, well, item token or character on it;
players' pieces stand in the tile's corners, backpacks lie in the forest's corners and
blockade tokens in the gaps between tiles. Right: the players (coins, apples, compasses,
backpack, debts; a drawn character card only in its owner's and the referee's view), the
fairy, the laid-out characters, the supply and a legend.
"""

from __future__ import annotations

import math

from ..drawing.canvas import (
    BACKGROUND,
    HIGHLIGHT,
    INK,
    LINE,
    MUTED,
    WHITE,
    Canvas,
    mix,
    seat_colour,
    symbol_chip,
    symbol_disc,
)
from ..drawing.seats import seat_name
from . import actions as A
from .actions import ROW_NAMES
from .components import (
    CHARACTER_NAMES,
    CHARACTERS,
    FAIRY_COST,
    IS_HEAVY,
    ITEM_NAMES,
    MAX_GRID,
    backpack_corner,
    cell_rc,
    grid_size,
)
from .text.view import CellReading, SeatReading
from .text.words import prompt_text

# Two-letter codes of the items and characters for the picture's small tokens (the text
# board uses text/render.py's longer labels).
ITEM_CODES = ("an", "ba", "sa", "tc", "st", "cr", "ke", "sw", "mp", "he", "hs", "ha", "ch",
              "ca", "ju", "sp", "mo", "mu", "pf", "bo", "cc", "sc")
CHAR_CODES = ("BS", "IK", "SC", "WI", "BA", "DE", "PR", "ME", "GO", "BE", "UN", "FS")

WIDTH, HEIGHT = 1100, 660
TILE = 96
BOARD_X, BOARD_Y = 30, 58
PANEL_X = BOARD_X + MAX_GRID * TILE + 14

GRASS = (205, 228, 180)
WELL_TINT = (190, 220, 235)
OPEN = (45, 95, 45)
CHIP_COLOURS = (None, (60, 110, 200), (235, 200, 40), (210, 50, 40))
COPPER, SILVER, APPLE = (190, 110, 50), (185, 190, 200), (225, 180, 30)
KIND_COLOURS = {"friendly": (80, 160, 90), "hostile": (200, 60, 60), "helpful": (70, 120, 200)}
ITEM_FILL, HEAVY_EDGE = (245, 238, 220), (230, 120, 30)
BAG = (150, 110, 70)


_OCTAGON = tuple((7 * math.cos(math.radians(22.5 + 45 * k)), 7 * math.sin(math.radians(22.5 + 45 * k)))
                 for k in range(8))


def size(num_players: int) -> tuple[int, int]:
    """(width, height) of every picture, whatever the player count."""
    return WIDTH, HEIGHT


def picture(view: dict):
    c = Canvas(WIDTH, HEIGHT)
    v = SeatReading.from_json(view)
    _title(c, v)
    _forest(c, v)
    _side(c, v, PANEL_X, BOARD_Y - 18, WIDTH - 10, HEIGHT - 10)
    return c.array()


def move_places(view: dict, actions: list[int]) -> dict[int, tuple[int, int, int, int]]:
    """Where on the picture of ``view`` each of ``actions`` that has a place is made: a move,
    a compass move or a chosen tile is its tile's square (x0, y0, x1, y1 in pixels)."""
    out = {}
    for a in actions:
        for block in (A.MOVE, A.COMPASS, A.TILE):
            if a in block:
                r, col = cell_rc(a - block.start)
                x, y = BOARD_X + col * TILE, BOARD_Y + r * TILE
                out[a] = (x, y, x + TILE, y + TILE)
    return out


def _title(c: Canvas, v: SeatReading) -> None:
    d = v.decision
    status = f"round {v.round}  ·  turn of P{v.turn}" if d is not None else "game over"
    label_x = c.title_bar("Roundforest", status, 145, 160, v.seat)
    # the pending decision as a sentence (words.prompt_text: only what this view shows)
    c.paragraph(310, 5, prompt_text(v), label_x - 320, size=10, fill=HIGHLIGHT, line_height=13,
                max_lines=3)


def _forest(c: Canvas, v: SeatReading) -> None:
    g = v.grid
    n = v.num_players
    for i in range(g):
        c.text(BOARD_X + i * TILE + TILE / 2, BOARD_Y - 10, str(i + 1), size=11, fill=MUTED, anchor="mm")
        c.text(BOARD_X - 14, BOARD_Y + i * TILE + TILE / 2, "ABCDEF"[i], size=11, fill=MUTED, anchor="mm")
    pieces: dict[int, list[int]] = {}
    for p, pl in enumerate(v.players):
        pieces.setdefault(pl.cell, []).append(p)
    for p in range(n):
        corner = backpack_corner(n, p)
        r, col = cell_rc(corner)
        _backpack(c, BOARD_X + col * TILE, BOARD_Y + r * TILE, p, pieces.get(corner, ()))
    for cell, info in v.cells().items():
        r, col = cell_rc(cell)
        _tile(c, BOARD_X + col * TILE, BOARD_Y + r * TILE, info, pieces.get(cell, ()))
    for gap, item in v.gaps:
        r, col = divmod(gap, MAX_GRID - 1)
        cx, cy = BOARD_X + (col + 1) * TILE, BOARD_Y + (r + 1) * TILE
        _item(c, cx, cy, item, 13, edge=(200, 30, 30))
    # the frame of the forest
    size_px = g * TILE
    c.box(BOARD_X - 3, BOARD_Y - 3, BOARD_X + size_px + 3, BOARD_Y + size_px + 3, fill=None,
          outline=(120, 100, 70), radius=6, width=2)
    assert grid_size(n) == g


def _tile(c: Canvas, x, y, info: CellReading, here) -> None:
    """A tile and what stands on it, inside its square: drawn once for each look and place,
    then pasted (``Canvas.group``)."""
    key = ("tile", tuple(info), tuple(here))
    c.group(key, (x - 4, y - 4, x + TILE + 4, y + TILE + 4), lambda cv: _draw_tile(cv, x, y, info, here))


def _draw_tile(c: Canvas, x, y, info: CellReading, here) -> None:
    cx, cy = x + TILE / 2, y + TILE / 2
    fill = WELL_TINT if info.well else GRASS
    blocked = info.blocked
    c.box(x + 2, y + 2, x + TILE - 2, y + TILE - 2, fill=fill,
          outline=(200, 30, 30) if blocked else mix(OPEN, fill, 0.4), radius=6, width=3 if blocked else 1)
    for d, (dx, dy) in enumerate(((0, -1), (1, 0), (0, 1), (-1, 0))):
        for dist, opened in ((0.21, info.inner[d]), (0.39, info.outer[d])):
            ox, oy = cx + dx * dist * TILE, cy + dy * dist * TILE
            c.draw.polygon([(ox + px, oy + py) for px, py in _OCTAGON],
                           fill=OPEN if opened else WHITE, outline=OPEN if opened else MUTED)
    # the notch on the side the printed top faces
    o = info.orientation % 4
    nx, ny = ((0.2, -0.47), (0.47, 0.2), (-0.2, 0.47), (-0.47, -0.2))[o]
    c.circle(cx + nx * TILE, cy + ny * TILE, 3, fill=(120, 100, 70), outline=None)
    _turn_arrow(c, x + 15, y + 15, info.turn, blocked)
    c.text(x + 25, y + 15, "cw" if info.turn > 0 else "ccw", size=8, fill=MUTED, anchor="lm")
    # what lies in the centre
    if info.character >= 0:
        k = info.character
        colour = KIND_COLOURS[CHARACTERS[k].kind]
        c.polygon(cx, cy, 14, 5, fill=colour, outline=INK)
        c.text(cx, cy + 1, CHAR_CODES[k], size=10, bold=True, fill=WHITE, anchor="mm")
    elif info.item >= 0:
        _item(c, cx, cy, info.item, 12)
    elif info.well:
        c.disc(cx, cy, 12, (60, 120, 190), "~", size=14)
    elif info.chip:
        c.circle(cx, cy, 9, fill=CHIP_COLOURS[info.chip], outline=INK)
    for p in here:
        px, py = ((0.32, -0.32), (0.32, 0.32), (-0.32, 0.32), (-0.32, -0.32))[p % 4]
        _pawn(c, cx + px * TILE, cy + py * TILE, p)


def _turn_arrow(c: Canvas, cx, cy, turn: int, blocked: int) -> None:
    r = 7
    colour = (200, 30, 30) if blocked else INK
    c.draw.arc((cx - r, cy - r, cx + r, cy + r), 300, 210, fill=colour, width=2)
    a = math.radians(210 if turn > 0 else 300)
    px, py = cx + r * math.cos(a), cy + r * math.sin(a)
    tx, ty = (-math.sin(a), math.cos(a)) if turn > 0 else (math.sin(a), -math.cos(a))
    nx, ny = -ty, tx
    c.draw.polygon(((px + tx * 5, py + ty * 5), (px + nx * 4, py + ny * 4), (px - nx * 4, py - ny * 4)),
                   fill=colour)
    if blocked:
        c.line((cx - r, cy - r, cx + r, cy + r), fill=colour, width=2)


def _pawn(c: Canvas, cx, cy, p: int) -> None:
    c.circle(cx, cy + 2, 10, fill=mix(INK, WHITE, 0.6), outline=None)  # a shadow
    c.seat_disc(cx, cy, 10, p)


def _item(c: Canvas, cx, cy, item: int, r, edge=None) -> None:
    heavy = IS_HEAVY[item]
    c.box(cx - r, cy - r * 0.8, cx + r, cy + r * 0.8, fill=ITEM_FILL,
          outline=edge or (HEAVY_EDGE if heavy else INK), radius=3, width=2 if (edge or heavy) else 1)
    c.text(cx, cy, ITEM_CODES[item], size=10, bold=True, anchor="mm")


def _backpack(c: Canvas, x, y, seat: int, here) -> None:
    colour = seat_colour(seat)
    cx, cy = x + TILE / 2, y + TILE / 2
    c.box(cx - 26, cy - 20, cx + 26, cy + 28, fill=mix(BAG, WHITE, 0.25), outline=colour, radius=10, width=3)
    c.draw.arc((cx - 12, cy - 34, cx + 12, cy - 10), 180, 360, fill=colour, width=3)
    c.text(cx, cy - 8, f"P{seat}", size=11, bold=True, fill=WHITE, anchor="mm")
    c.text(cx, cy + 6, "pack", size=9, fill=WHITE, anchor="mm")
    for p in here:
        _pawn(c, cx + (p - 1.5) * 12, cy + 20, p)


def _side(c: Canvas, v: SeatReading, x0, y0, x1, y1) -> None:
    n = v.num_players
    row_h = 74
    c.panel(x0, y0, x1, y0 + 24 + n * row_h, "Players")
    for p, pl in enumerate(v.players):
        top = y0 + 24 + p * row_h
        colour = seat_colour(p)
        c.box(x0 + 6, top, x1 - 6, top + row_h - 4, fill=mix(colour, WHITE, 0.86), outline=colour, radius=5)
        c.seat_disc(x0 + 20, top + 13, 9, p)
        name = seat_name(p, v.seat) + ("  WINNER" if pl.winner else "")
        c.text(x0 + 34, top + 5, name, size=12, bold=True)
        x = x0 + 150
        for colour_, count, label in ((COPPER, pl.copper, "c"), (SILVER, pl.silver, "s"),
                                      (APPLE, pl.apples, "a")):
            c.disc(x, top + 12, 8, colour_, label, size=9)
            c.text(x + 11, top + 12, str(count), size=11, bold=True, anchor="lm")
            x += 38
        c.text(x, top + 12, f"compass {pl.compasses}", size=10, anchor="lm")
        where = "in backpack" if pl.in_backpack else "ABCDEF"[pl.cell // MAX_GRID] + str(
            pl.cell % MAX_GRID + 1)
        c.text(x1 - 12, top + 12, where, size=10, fill=MUTED, anchor="rm")
        c.text(x0 + 12, top + 28, "pack", size=9, fill=MUTED)
        ix = x0 + 50
        for k, count in enumerate(pl.backpack):
            for _ in range(count):
                if ix < x1 - 40:
                    _item(c, ix + 11, top + 33, k, 11)
                ix += 26
        debts = [CHAR_CODES[k] for k in pl.debts]
        if debts:
            c.text(x1 - 12, top + 33, "owes " + " ".join(debts), size=10, fill=(170, 40, 40), anchor="rm")
        extra = []
        if v.drawn_item >= 0 and v.decision and v.decision.player == p:
            extra.append(f"in hand: {ITEM_NAMES[v.drawn_item]}")  # public, like the token
        if pl.drawn_card is not None:
            extra.append(f"drawn card: {CHARACTER_NAMES[pl.drawn_card]}")
        prince = [ITEM_CODES[k] for k, count in enumerate(pl.prince_items or ()) for _ in range(count)]
        if prince:
            extra.append("prince's draw: " + " ".join(prince))
        if extra:
            c.text(x0 + 12, top + 52, "  ·  ".join(extra), size=10, fill=HIGHLIGHT, width=x1 - x0 - 24)
    y = y0 + 24 + n * row_h + 8
    # the fairy: three rows of items, their price in copper
    c.panel(x0, y, x0 + 200, y + 120, "Fairy")
    for r, row in enumerate(v.fairy):
        ry = y + 38 + r * 28
        c.text(x0 + 6, ry, ROW_NAMES[r], size=9, fill=MUTED, anchor="lm")
        price = f"{FAIRY_COST[r]} copper" if FAIRY_COST[r] else "free"
        c.text(x0 + 194, ry, price, size=9, fill=MUTED, anchor="rm")
        for s, k in enumerate(row):
            if k >= 0:
                _item(c, x0 + 55 + s * 38, ry, k, 13)
            else:
                c.box(x0 + 42 + s * 38, ry - 10, x0 + 68 + s * 38, ry + 10, fill=None, outline=LINE)
    c.panel(x0 + 208, y, x1, y + 120, "Characters laid out")
    for i, k in enumerate(v.laid_out[:8]):
        px, py = x0 + 228 + (i % 4) * 66, y + 44 + (i // 4) * 40
        c.polygon(px, py, 13, 5, fill=KIND_COLOURS[CHARACTERS[k].kind], outline=INK)
        c.text(px, py + 1, CHAR_CODES[k], size=9, bold=True, fill=WHITE, anchor="mm")
        c.text(px + 16, py, CHARACTER_NAMES[k], size=9, anchor="lm", width=46)
    sup = v.supply
    c.text(x0 + 218, y + 86, f"supply: {sup.copper} copper, {sup.silver} silver, "
           f"{sup.apples} apples", size=10, fill=MUTED, width=x1 - x0 - 226)
    c.text(x0 + 218, y + 101, f"character pile {v.pile_size}  ·  bag {sum(v.bag_items)} items",
           size=10, fill=MUTED, width=x1 - x0 - 226)
    y += 128
    c.group(("legend and codes", x0, y, x1, y1), (x0 - 4, y - 6, x1 + 4, y1 + 4),
            lambda cv: _legend(cv, x0, y, x1, y1), on=BACKGROUND)


def _legend(c: Canvas, x0, y, x1, y1) -> None:
    """The legend and the codes of the items and characters (the same in every picture)."""
    c.legend(x0, y, [
        (lambda cv, a, b: cv.polygon(a, b, 6, 8, rotation=22.5, fill=OPEN, outline=OPEN), "open octagon"),
        (lambda cv, a, b: cv.polygon(a, b, 6, 8, rotation=22.5, fill=WHITE, outline=MUTED), "closed"),
        (lambda cv, a, b: _turn_arrow(cv, a, b, 1, 0), "turns clockwise"),
        (lambda cv, a, b: _turn_arrow(cv, a, b, -1, 0), "anticlockwise"),
        (lambda cv, a, b: _turn_arrow(cv, a, b, 1, 1), "blockaded"),
        (lambda cv, a, b: cv.circle(a, b, 3, fill=(120, 100, 70), outline=None), "printed top"),
        (symbol_disc(CHIP_COLOURS[1]), "blue"), (symbol_disc(CHIP_COLOURS[2]), "yellow"),
        (symbol_disc(CHIP_COLOURS[3]), "red chip"), (symbol_disc((60, 120, 190), "~"), "well"),
        (symbol_chip(ITEM_FILL, "it"), "item (orange: heavy, red: blockade)"),
        (lambda cv, a, b: cv.polygon(a, b, 8, 5, fill=KIND_COLOURS["friendly"], outline=INK), "friendly"),
        (lambda cv, a, b: cv.polygon(a, b, 8, 5, fill=KIND_COLOURS["hostile"], outline=INK), "hostile"),
        (lambda cv, a, b: cv.polygon(a, b, 8, 5, fill=KIND_COLOURS["helpful"], outline=INK), "helpful"),
        (symbol_disc(seat_colour(0), "0"), "a player's piece"),
    ], size=10, row_height=17, max_width=x1 - x0)
    items = "   ".join(f"{code} {name}" for code, name in zip(ITEM_CODES, ITEM_NAMES))
    chars = "   ".join(f"{code} {name}" for code, name in zip(CHAR_CODES, CHARACTER_NAMES))
    y = c.paragraph(x0, y1 - 98, "Items: " + items, x1 - x0, size=9, fill=MUTED, line_height=12,
                    max_lines=4, sep="   ")
    c.paragraph(x0, y + 2, "Characters: " + chars, x1 - x0, size=9, fill=MUTED, line_height=12,
                max_lines=3, sep="   ")

