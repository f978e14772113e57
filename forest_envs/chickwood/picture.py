"""Chickwood Forest as an image (``render_mode="rgb_array"``), drawn from a seat's view only:
its JSON form (``text.view.view``, what a replay page stores), read as the typed record
(``SeatReading.from_json``).

Top: the game, the round and whose view it is; below it, apart, a badge naming who is to
move and the pending decision in words (``words.ask``, the text's prompt). Then the castles
in play, each with its pile, its raider, the loot lying face up before it and the face-down
cards (backs in the owner's colour; a card's name only where the view knows it: your own, a
spied one, or everything for the referee). Left: the villages with their rows of alms
spaces (a disc in the owner's colour, empty rings where free) and each row's glory. Right:
the players (banner, alms, hand, castles held, loot). Bottom: your hand (every hand for the
referee), the known discards and a legend.
"""

from __future__ import annotations

from ..core.presentation import SPECTATOR
from ..drawing.canvas import (
    CARD_BACK,
    HIGHLIGHT,
    INK,
    LINE,
    MUTED,
    PANEL,
    Canvas,
    mix,
    seat_colour,
    symbol_back,
    symbol_chip,
    symbol_disc,
)
from ..drawing.seats import seat_name
from . import actions as A
from .actions import cell_name
from .components import KIND_NAMES, VILLAGES, num_rounds
from .observation import Kind
from .text.view import CastleReading, SeatReading, VillageReading
from .text.words import ask

WIDTH, HEIGHT = 1080, 720

SHORT = ("Gold", "Silver", "Emerald", "Ruby", "Armor", "Jerkin", "Gown", "Cloak", "Bracelet",
         "Pendant", "Ring", "Bust", "Maid", "Hench", "Benef 1", "Benef 2", "Benef 3", "Spy",
         "Key", "Entert", "Arrow", "Beard")
CHEST, GARMENT, JEWEL = (222, 178, 60), (90, 160, 170), (160, 110, 190)
KIND_COLOURS = ((CHEST,) * 4 + (GARMENT,) * 4 + (JEWEL,) * 3
                + ((170, 170, 170), (235, 150, 170), (150, 110, 80))
                + ((150, 200, 120),) * 3 + ((240, 140, 60),) * 5)
FOREST_GREEN = (70, 120, 60)
assert len(SHORT) == len(KIND_NAMES) == len(KIND_COLOURS)


def size(num_players: int) -> tuple[int, int]:
    """(width, height) of every picture, whatever the player count."""
    return WIDTH, HEIGHT


def picture(view: dict):
    c = Canvas(WIDTH, HEIGHT)
    v = SeatReading.from_json(view)
    _title(c, v)
    _castles(c, v, *CASTLES_BOX)
    _villages(c, v, *VILLAGES_BOX)
    _players(c, v, 570, 258, WIDTH - 10, 600)
    _hands(c, v, 10, 608, WIDTH - 10, 686)
    c.legend(10, 692, [
        (symbol_chip(CHEST), "chest"), (symbol_chip(GARMENT), "garment"), (symbol_chip(JEWEL), "jewel"),
        (symbol_chip(KIND_COLOURS[11]), "bust"), (symbol_chip(KIND_COLOURS[12]), "maid"),
        (symbol_chip(KIND_COLOURS[13]), "henchman"), (symbol_chip(KIND_COLOURS[14]), "benefactor"),
        (symbol_chip(KIND_COLOURS[17]), "legendary"), (symbol_back(), "face down (owner)"),
        (symbol_disc(seat_colour(0)), "alms"),
        (lambda cv, x, y: cv.circle(x, y, 6, outline=MUTED), "free space"),
        (lambda cv, x, y: cv.box(x - 7, y - 6, x + 7, y + 6, fill=None, outline=HIGHLIGHT, width=2),
         "snake visited"),
    ], size=10, row_height=16, key="chickwood")
    return c.array()


# The moves made at a place: the action blocks made at a castle, then at a grid cell, each
# with the axis of its index that names the castle (0-based) or the cell.
AT_CASTLE = ((A.PLAY, 1), (A.SPY, 0), (A.RAID, 0))
AT_CELL = ((A.ALMS, 0), (A.ENT_PICK, 0))


def move_places(view: dict, actions: list[int]) -> dict[int, tuple[int, int, int, int]]:
    """Where on the picture of ``view`` each of ``actions`` that has a place is made: a card
    played to a castle, a spy glass or a raid is that castle's column, an alms or the
    entertainers' pick its village's square (x0, y0, x1, y1 in pixels)."""
    v = SeatReading.from_json(view)
    columns = {ca.value: col for ca, col in zip(v.castles, _castle_columns(v))}
    _, top, _, bottom = CASTLES_BOX
    out = {}
    for a in actions:
        box: tuple[float, float, float, float] | None = None
        for block, axis in AT_CASTLE:
            if a in block and block.index(a)[axis] + 1 in columns:
                left, right = columns[block.index(a)[axis] + 1]
                box = (left, top, right, bottom)
        for block, axis in AT_CELL:
            if a in block:
                box = _cell_box(v, block.index(a)[axis])
        if box is not None:
            out[a] = (round(box[0]), round(box[1]), round(box[2]), round(box[3]))
    return out


def _title(c: Canvas, v: SeatReading) -> None:
    """Line 1: the game, the round and whose view this is; line 2, apart from it: a badge
    naming who is to move and the pending decision in words (``words.ask``)."""
    rounds = num_rounds(v.num_players, v.legendary)
    c.title_bar("Chickwood Forest", f"round {v.round} of {rounds}  ·  deck {v.deck_left}"
                + ("  ·  Legendary" if v.legendary else ""), 190, 600, v.seat)
    d = v.decision
    if d is None:
        badge, colour = "game over", INK
        what = "final glory: " + ",  ".join(f"P{p} {s['total']}" for p, s in enumerate(v.scores or ()))
    else:
        badge, colour, what = f"P{d.player} to move", seat_colour(d.player), ask(v)
    width = c.text_width(badge, 12, True) + 16
    c.box(10, 33, 10 + width, 51, fill=colour, outline=INK, radius=4)
    c.text(10 + width / 2, 42, badge, size=12, bold=True, fill=(255, 255, 255), anchor="mm")
    c.text(width + 22, 35, what, size=12, width=WIDTH - width - 32)


def _cards(c: Canvas, counts, x, y, right, bottom, cw=62, ch=18, size=10) -> None:
    """Chips for the kinds in ``counts`` (one chip per kind with its count), row by row."""
    cx, cy = x, y
    kinds = [k for k, n in enumerate(counts) if n]
    for i, k in enumerate(kinds):
        if cx + cw > right:
            cx, cy = x, cy + ch + 3
        if cy + ch > bottom:
            c.text(cx, cy - ch - 3, f"+{len(kinds) - i}", size=size, fill=MUTED)
            return
        c.chip(cx, cy, cw, ch, SHORT[k], KIND_COLOURS[k], counts[k], size=size)
        cx += cw + 3


CASTLES_BOX = (10, 58, WIDTH - 10, 250)     # where the castles in play stand, side by side
VILLAGES_BOX = (10, 258, 560, 600)


def _castle_columns(v: SeatReading) -> list[tuple[float, float]]:
    """Each castle in play's (left, right), in ``v.castles``' order."""
    x0, _, x1, _ = CASTLES_BOX
    n = max(len(v.castles), 1)
    gap = 8
    w = (x1 - x0 - gap * (n - 1)) / n
    return [(x0 + i * (w + gap), x0 + i * (w + gap) + w) for i in range(len(v.castles))]


def _cell_box(v: SeatReading, cell: int) -> tuple[float, float, float, float] | None:
    """A grid cell's square in the villages panel (None: the grid has no such cell)."""
    x0, y0, x1, y1 = VILLAGES_BOX
    rows = 3 if any(entry.village != -2 for entry in v.villages[6:]) else 2
    cw, ch = (x1 - x0 - 16) / 3, (y1 - y0 - 30) / 3
    r, col = divmod(cell, 3)
    if r >= rows or v.villages[cell].village == -2:
        return None
    left, top = x0 + 8 + col * cw, y0 + 26 + r * ch
    return left, top, left + cw - 6, top + ch - 6


def _castles(c: Canvas, v: SeatReading, x0, y0, x1, y1) -> None:
    for (left, right), ca in zip(_castle_columns(v), v.castles):
        w = right - left
        raider = ca.raided_by
        c.box(left, y0, right, y1, fill=PANEL, outline=seat_colour(raider) if raider is not None else LINE,
              radius=6, width=3 if raider is not None else 1)
        _tower(c, left + 18, y0 + 20, ca.value)
        c.text(left + 36, y0 + 6, f"Castle {ca.value}", size=13, bold=True)
        cap = "" if ca.capacity is None else f", holds {ca.capacity}"
        c.text(left + 36, y0 + 23, f"pile {ca.pile_left}{cap}", size=10, fill=MUTED)
        if raider is not None:
            c.box(right - 70, y0 + 6, right - 6, y0 + 22, fill=seat_colour(raider), outline=INK, radius=3)
            c.text(right - 38, y0 + 14, f"raid P{raider}", size=10, bold=True, fill=(255, 255, 255),
                   anchor="mm")
        tags = [t for t, on in (("key blocked", ca.key_blocked), ("spied", ca.spied)) if on]
        if tags:
            c.text(right - 6, y0 + 26, ", ".join(tags), size=9, fill=HIGHLIGHT, anchor="ra")
        c.text(left + 8, y0 + 42, "face up", size=10, fill=MUTED)
        cw = max(48, min(70, (w - 19) / 2))
        _cards(c, ca.face_up, left + 8, y0 + 56, right - 6, y0 + 118, cw=cw)
        c.line((left + 8, y0 + 122, right - 8, y0 + 122), fill=LINE)
        c.text(left + 8, y0 + 126, "face down", size=10, fill=MUTED)
        _face_down(c, v, ca, left + 8, y0 + 140, right - 6, y1 - 4)


def _face_down(c: Canvas, v: SeatReading, ca: CastleReading, x, y, right, bottom) -> None:
    """One back per face-down card in its owner's colour; its name under it when known."""
    cx = x
    seat = v.seat
    spied = ca.spied_face_down or ()
    for owner, count in enumerate(ca.face_down_by):
        known: tuple[int, ...] | None = ()
        if ca.face_down is not None:
            known = ca.face_down[owner]
        elif owner == seat:
            known = ca.my_face_down
        elif any(spied):
            known = None  # the spied cards of the others, drawn once below
        names = [k for k, n in enumerate(known or ()) for _ in range(n)]
        for i in range(count):
            if cx + 16 > right:
                break
            c.card_back(cx, y, 16, 24, seat_colour(owner))
            if i < len(names):
                c.chip(cx - 1, y + 27, 18, 12, SHORT[names[i]][:2], KIND_COLOURS[names[i]], size=8)
            cx += 20
    if seat is not None and any(spied):
        c.text(x, bottom - 36, "spied:", size=9, fill=MUTED)
        _cards(c, spied, x + 34, bottom - 40, right, bottom, cw=52, ch=15, size=9)


def _tower(c: Canvas, cx, cy, value: int) -> None:
    stone = (150, 140, 125)
    c.draw.rectangle((cx - 10, cy - 6, cx + 10, cy + 12), fill=stone, outline=INK)
    for k in (-10, -2, 6):
        c.draw.rectangle((cx + k, cy - 11, cx + k + 4, cy - 6), fill=stone, outline=INK)
    c.text(cx, cy + 3, str(value), size=11, bold=True, fill=(255, 255, 255), anchor="mm")


def _villages(c: Canvas, v: SeatReading, x0, y0, x1, y1) -> None:
    c.panel(x0, y0, x1, y1, "Villages")
    visited = set(v.snake_visited)
    d = v.decision
    last = d.data.last_cell if d is not None and d.kind == Kind.ALMS else None
    for cell, entry in enumerate(v.villages):
        box = _cell_box(v, cell)
        if box is None:
            continue
        left, top, right, bottom = box
        if entry.village == -1:
            c.box(left, top, right, bottom, fill=mix(FOREST_GREEN, (255, 255, 255), 0.45),
                  outline=FOREST_GREEN, radius=5)
            for k, (dx, dy) in enumerate(((-30, 8), (0, -4), (30, 8))):
                _tree(c, (left + right) / 2 + dx, (top + bottom) / 2 + dy, 14 + 2 * (k % 2))
            c.text(left + 6, top + 4, "forest", size=10, fill=INK)
        else:
            _village(c, entry, left, top, right, bottom)
        c.text(right - 5, top + 5, cell_name(cell), size=9, fill=MUTED, anchor="ra")  # as the texts name it
        if cell in visited:
            c.box(left - 2, top - 2, right + 2, bottom + 2, fill=None, outline=HIGHLIGHT, width=3)
        if cell == last:
            c.text(right - 4, bottom - 14, "last alms", size=9, bold=True, fill=HIGHLIGHT, anchor="ra")


def _tree(c: Canvas, cx, cy, r) -> None:
    c.draw.rectangle((cx - 2, cy + r * 0.4, cx + 2, cy + r), fill=(110, 80, 50))
    c.draw.polygon(((cx, cy - r), (cx - r * 0.7, cy + r * 0.5), (cx + r * 0.7, cy + r * 0.5)),
                   fill=FOREST_GREEN, outline=INK)


def _village(c: Canvas, entry: VillageReading, left, top, right, bottom) -> None:
    village = VILLAGES[entry.village]
    c.box(left, top, right, bottom, fill=(250, 244, 225), outline=(170, 140, 90), radius=5)
    c.text(left + 6, top + 4, village.name, size=11, bold=True, width=right - left - 60)
    alms = entry.alms
    space = 0
    row_h = min(22, (bottom - top - 22) / len(village.rows))
    for r, (n, glory) in enumerate(village.rows):
        y = top + 22 + r * row_h + row_h / 2
        # the glory of the row in a small shield
        c.box(left + 6, y - 8, left + 30, y + 8, fill=(200, 170, 90) if glory else (225, 220, 210),
              outline=INK, radius=3)
        c.text(left + 18, y, "-" if glory is None else str(glory), size=10, bold=True, anchor="mm")
        for i in range(n):
            cx = left + 44 + i * 20
            owner = alms[space] if space < len(alms) else -1
            if owner >= 0:
                c.seat_disc(cx, y, 8, owner)
            else:
                c.circle(cx, y, 7, fill=(255, 255, 255), outline=MUTED)
            space += 1


def _players(c: Canvas, v: SeatReading, x0, y0, x1, y1) -> None:
    c.panel(x0, y0, x1, y1, "Players")
    n = v.num_players
    h = min(80, (y1 - y0 - 28) / n)
    d = v.decision
    for p, pl in enumerate(v.players):
        top = y0 + 26 + p * h
        colour = seat_colour(p)
        c.box(x0 + 6, top, x1 - 6, top + h - 4, fill=mix(colour, (255, 255, 255), 0.86),
              outline=colour, radius=5, width=2 if d is not None and d.player == p else 1)
        c.seat_disc(x0 + 20, top + 13, 9, p)
        c.text(x0 + 34, top + 5, seat_name(p, v.seat), size=12, bold=True)
        x = x0 + 104
        c.text(x, top + 6, f"castle {pl.castle}", size=10)
        x += 52
        for face_down in pl.banner:  # the banner, one square per scouting play
            fill = CARD_BACK if face_down else (255, 255, 255)
            c.box(x, top + 5, x + 12, top + 19, fill=fill, outline=INK, radius=2)
            c.text(x + 6, top + 12, "D" if face_down else "U", size=8, bold=True,
                   fill=(255, 255, 255) if face_down else INK, anchor="mm")
            x += 14
        x += 8
        c.text(x, top + 6, f"alms {pl.alms_left}  hand {pl.hand_count}  turn #{pl.order + 1}",
               size=10)
        held = [value + 1 for value, k in enumerate(pl.castles_held) for _ in range(k)]
        c.text(x0 + 12, top + 26, "castles", size=9, fill=MUTED)
        cx = x0 + 56
        for value in held:
            c.box(cx, top + 24, cx + 14, top + 38, fill=(150, 140, 125), outline=INK, radius=2)
            c.text(cx + 7, top + 31, str(value), size=9, bold=True, fill=(255, 255, 255), anchor="mm")
            cx += 16
        if pl.raids:
            c.text(cx + 8, top + 26, "raids " + " ".join(map(str, pl.raids)), size=9, fill=MUTED)
        c.text(x0 + 12, top + 44, "loot", size=9, fill=MUTED)
        _cards(c, pl.collection, x0 + 56, top + 42, x1 - 10, top + h - 6, cw=54, ch=14, size=9)


def _hands(c: Canvas, v: SeatReading, x0, y0, x1, y1) -> None:
    seat = v.seat
    if seat == SPECTATOR:   # no hand of its own, no secret discard
        c.panel(x0, y0, x1, y1, "Hands (hidden from spectators)")
        c.text(x0 + 8, y0 + 28, "each player's hand count is beside the player", size=11, fill=MUTED)
        known = list(v.discard_public)
        label = "Discards shown"
    elif seat is not None:
        c.panel(x0, y0, x1, y1, f"Your hand (P{seat})")
        _cards(c, v.hand or (), x0 + 8, y0 + 24, x0 + 520, y1 - 4, cw=74, ch=20)
        known = [k + m for k, m in zip(v.discard_public, v.discard_known or ())]
        label = "Discards you know"
    else:
        c.panel(x0, y0, x1, y1, "Hands (referee)")
        hands = v.hands or ()
        n = len(hands)
        w = 520 / max(n, 1)
        for p, hand in enumerate(hands):
            left = x0 + 8 + p * w
            c.seat_disc(left + 8, y0 + 32, 7, p)
            _cards(c, hand, left + 20, y0 + 24, left + w - 4, y1 - 4, cw=min(60, w - 26), ch=16, size=9)
        known = [k + m for k, m in zip(v.discard_public, v.discard_face_down or ())]
        label = "Discards"
    c.text(x0 + 540, y0 + 5, label, size=13, bold=True)
    _cards(c, known, x0 + 540, y0 + 24, x1 - 6, y1 - 4, cw=62, ch=16, size=9)
