"""Drawing helpers shared by the games' pictures (``render_mode="rgb_array"``).

A game's ``picture.py`` draws ``picture(view) -> uint8[H, W, 3]`` from its ``view(state,
seat)`` data alone (so a picture can show nothing its seat may not know) with the
``Canvas`` below. Pillow draws off screen: no display or window is needed. Text uses DejaVu
Sans when it is installed and Pillow's own default font otherwise, so a picture never fails
for want of a font (only the letters' shapes differ).
"""

from __future__ import annotations

import functools
import math
import os

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from ..core.presentation import holds_seat
from .cache import (
    RememberingFont,
    group_stamps,
    paint_text,
    plain_drawing,
    rounded_box,
    text_length,
)
from .seats import is_watched

# Seat colours, seat 0 first: distinct in hue and readable with white text on them.
SEAT_COLOURS = ((52, 101, 164), (204, 40, 40), (60, 140, 40), (190, 140, 0), (130, 80, 150),
                (230, 110, 0))
BACKGROUND = (246, 241, 228)
PANEL = (255, 252, 244)
INK = (40, 36, 30)
MUTED = (130, 122, 110)
LINE = (190, 180, 160)
WHITE = (255, 255, 255)
CARD_BACK = (120, 70, 40)
HIGHLIGHT = (240, 150, 30)

_FONT_DIRS = ("/usr/share/fonts/truetype/dejavu", "/usr/share/fonts/dejavu",
              "/usr/share/fonts/TTF", "/usr/local/share/fonts", "/Library/Fonts",
              "C:/Windows/Fonts")


@functools.cache
def font(size: int, bold: bool = False):
    """DejaVu Sans (Bold) at ``size`` pixels if installed, else Pillow's default font."""
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    for folder in _FONT_DIRS:
        path = os.path.join(folder, name)
        if os.path.exists(path):
            try:
                return RememberingFont(path, size)
            except OSError:
                break
    try:
        return ImageFont.load_default(size)  # Pillow >= 10.1: scalable when FreeType is there
    except (TypeError, OSError, ImportError):
        return ImageFont.load_default()


_LATIN1 = str.maketrans({"…": "...", "→": "->", "–": "-", "—": "-"})


def _drawable(s: str, f) -> str:
    """``s`` as ``f`` can draw it: a bitmap font (no FreeType) has only Latin-1 letters."""
    if isinstance(f, ImageFont.FreeTypeFont):
        return s
    return s.translate(_LATIN1).encode("latin-1", "replace").decode("latin-1")


@functools.lru_cache(maxsize=65536)
def _fit(f, s: str, width: float) -> str:
    """``s`` cut with an ellipsis to ``width`` pixels in font ``f`` (the same texts are fitted
    again and again, so the answers are kept)."""
    if text_length(f, _drawable(s, f)) <= width:
        return s
    while s and text_length(f, _drawable(s + "…", f)) > width:
        s = s[:-1]
    return s + "…"


def seat_colour(seat: int) -> tuple[int, int, int]:
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def mix(colour, other=WHITE, t: float = 0.5) -> tuple[int, ...]:
    """``colour`` moved ``t`` of the way towards ``other`` (a lighter tint by default)."""
    return tuple(int(round(a + (b - a) * t)) for a, b in zip(colour, other))


class Canvas:
    """A fixed-size RGB image with the few shapes the game pictures use."""

    def __init__(self, width: int, height: int, background=BACKGROUND):
        self.width, self.height = width, height
        self.background = background
        self.image = Image.new("RGB", (width, height), background)
        self.draw = ImageDraw.Draw(self.image)

    # --- text -------------------------------------------------------------------------------
    def title_bar(self, name: str, status: str, status_x: float, status_width: float,
                  seat: int | None) -> float:
        """The top line every game picture starts with: the game's name, its status line
        from ``status_x`` (cut to ``status_width``) and, right-aligned in the seat's colour,
        whose view this is. Returns the x where that label begins."""
        self.text(10, 10, name, size=17, bold=True)
        self.text(status_x, 12, status, size=13, width=status_width)
        who = "referee's view" if seat is None else "spectator's view" if seat < 0 else f"view of P{seat}"
        self.text(self.width - 10, 12, who, size=13, bold=True,
                  fill=seat_colour(seat) if holds_seat(seat) else INK, anchor="ra")
        return self.width - 10 - self.text_width(who, 13, True)

    def text(self, x: float, y: float, s: str, size: int = 12, fill=INK, bold: bool = False,
             anchor: str = "la", width: float | None = None) -> float:
        """Draw ``s`` (cut with an ellipsis to ``width`` pixels if given); returns its width."""
        f = font(size, bold)
        if width is not None:
            s = self.fit(s, width, size, bold)
        s = _drawable(s, f)
        if anchor != "la" and not isinstance(f, ImageFont.FreeTypeFont):
            # a bitmap font (Pillow without FreeType) takes no anchor: place the text by hand
            x0, y0, x1, y1 = self.draw.textbbox((0, 0), s, font=f)
            x -= {"l": x0, "m": (x0 + x1) / 2, "r": x1}.get(anchor[0], x0)
            y -= {"a": 0, "t": y0, "m": (y0 + y1) / 2, "b": y1, "d": y1}.get(anchor[1], 0)
            anchor = "la"
        paint_text(self.draw, (x, y), s, f, fill, anchor)
        return self.text_width(s, size, bold)

    def text_width(self, s: str, size: int = 12, bold: bool = False) -> float:
        f = font(size, bold)
        return text_length(f, _drawable(s, f))

    def fit(self, s: str, width: float, size: int = 12, bold: bool = False) -> str:
        f = font(size, bold)
        return _fit.__wrapped__(f, s, width) if plain_drawing() else _fit(f, s, width)

    def paragraph(self, x: float, y: float, text: str, width: float, size: int = 10, fill=INK,
                  line_height: int | None = None, max_lines: int | None = None,
                  sep: str = " ") -> float:
        """``text`` wrapped at ``sep`` to ``width`` pixels; returns the y below it."""
        line_height = line_height or size + 4
        lines, line = [], ""
        for word in text.split(sep):
            trial = line + sep + word if line else word
            if line and self.text_width(trial, size) > width:
                lines.append(line)
                line = word
            else:
                line = trial
        if line:
            lines.append(line)
        if max_lines is not None and len(lines) > max_lines:
            lines = lines[:max_lines - 1] + [self.fit(sep.join(lines[max_lines - 1:]), width, size)]
        for i, line in enumerate(lines):
            self.text(x, y + i * line_height, line, size=size, fill=fill)
        return y + len(lines) * line_height

    # --- shapes -----------------------------------------------------------------------------
    def group(self, key, region, draw, on=None) -> None:
        """``draw(self)``, a group of shapes that paints only inside the integer ``region``
        (x0, y0, x1, y1) and is the same whenever ``key`` is (``key`` holds everything it
        depends on but the region and the picture's size): pasted from a stamp made the first
        time (``picture_cache.GroupStamps``: the same pixels). ``on``: the colour the group
        is drawn on when its text blends with what lies under it (a legend on the
        background): pasted only where the region holds that colour alone."""
        if not group_stamps.paste(self.image, key, region, draw,
                                  lambda bg: Canvas(self.width, self.height, bg), on):
            draw(self)

    def box(self, x0, y0, x1, y1, fill=PANEL, outline=LINE, radius: int = 4, width: int = 1) -> None:
        rounded_box(self.image, self.draw, (x0, y0, x1, y1), radius, fill, outline, width)

    def panel(self, x0, y0, x1, y1, title: str | None = None, size: int = 13) -> None:
        """A light box with a bold title in its top left corner."""
        self.box(x0, y0, x1, y1, fill=PANEL, outline=LINE, radius=6)
        if title:
            self.text(x0 + 8, y0 + 5, title, size=size, bold=True, width=x1 - x0 - 16)

    def circle(self, cx, cy, r, fill=None, outline=INK, width: int = 1) -> None:
        self.draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill, outline=outline, width=width)

    def polygon(self, cx, cy, r, sides: int, fill=None, outline=INK, rotation: float = 0,
                width: int = 1) -> None:
        self.draw.regular_polygon((cx, cy, r), sides, rotation=rotation, fill=fill, outline=outline,
                                  width=width)

    def line(self, points, fill=INK, width: int = 1) -> None:
        self.draw.line(points, fill=fill, width=width, joint="curve")

    def disc(self, cx, cy, r, colour, label: str = "", size: int | None = None,
             outline=INK) -> None:
        """A filled disc with a centred white (or dark, on light colours) label."""
        self.circle(cx, cy, r, fill=colour, outline=outline)
        if label:
            ink = INK if sum(colour) > 600 else WHITE
            self.text(cx, cy, label, size=size or max(8, int(r * 1.2)), fill=ink, bold=True,
                      anchor="mm")

    def seat_disc(self, cx, cy, r, seat: int, label: str | None = None) -> None:
        self.disc(cx, cy, r, seat_colour(seat), str(seat) if label is None else label)

    def chip(self, x, y, w, h, label: str, colour, count: int = 1, size: int = 10) -> None:
        """A small card-like tag (a card kind, an item): ``label`` on ``colour``, ``xN`` when
        there are more than one."""
        self.box(x, y, x + w, y + h, fill=colour, outline=mix(colour, INK, 0.5), radius=3)
        ink = INK if sum(colour) > 540 else WHITE
        text = label if count <= 1 else f"{label} x{count}"
        self.text(x + w / 2, y + h / 2, self.fit(text, w - 4, size), size=size, fill=ink,
                  anchor="mm")

    def card_back(self, x, y, w, h, colour=CARD_BACK, label: str = "") -> None:
        """A face-down card: a hatched back in ``colour`` (an owner's colour when known)."""
        region = (math.floor(x) - 1, math.floor(y) - 1, math.ceil(x + w) + 2, math.ceil(y + h) + 2)
        self.group(("card_back", x, y, w, h, colour, label, is_watched()), region,
                   lambda c: c._card_back(x, y, w, h, colour, label))

    def _card_back(self, x, y, w, h, colour, label: str) -> None:
        self.box(x, y, x + w, y + h, fill=colour, outline=INK, radius=3)
        step = 6
        for k in range(-int(h), int(w), step):
            x0, y0 = x + max(k, 0), y + max(-k, 0)
            x1, y1 = x + min(k + h, w), y + min(h, w - k)
            if x1 > x0:
                self.draw.line((x0, y0, x1, y1), fill=mix(colour, WHITE, 0.35), width=1)
        if label:
            self.box(x + w / 2 - 9, y + h / 2 - 8, x + w / 2 + 9, y + h / 2 + 8, fill=WHITE,
                     outline=INK, radius=3)
            self.text(x + w / 2, y + h / 2, label, size=10, bold=True, anchor="mm")

    def legend(self, x, y, entries, size: int = 11, row_height: int = 18,
               max_width: float | None = None, key=None) -> float:
        """Entries ``(draw, text)`` left to right, wrapping at ``max_width``: ``draw(canvas,
        cx, cy)`` draws the symbol in a 14-pixel square centred at (cx, cy). Returns the y
        below the last row. ``key``: a name the entries are always the same under; the legend
        is then drawn once on the picture's background and pasted (``group``) where nothing
        else lies under it."""
        right = x + (max_width if max_width is not None else self.width - x - 10)
        places, cx, top = [], x, y
        for draw, text in entries:
            w = 20 + self.text_width(text, size) + 14
            if cx + w > right and cx > x:
                cx, y = x, y + row_height
            places.append((draw, text, cx, y))
            cx += w

        def draw_all(c: Canvas) -> None:
            for draw, text, ex, ey in places:
                draw(c, ex + 7, ey + row_height / 2)
                c.text(ex + 18, ey + row_height / 2, text, size=size, fill=INK, anchor="lm")

        if key is None:
            draw_all(self)
        else:
            region = (math.floor(x) - 4, math.floor(top) - 3, math.ceil(right) + 4,
                      math.ceil(y + row_height) + 4)
            self.group(("legend", key, x, top, size, row_height, right), region, draw_all,
                       on=self.background)
        return y + row_height

    def array(self) -> np.ndarray:
        """The picture as an H x W x 3 uint8 array (a fresh copy; read-only in ``watched()``)."""
        pixels = np.asarray(self.image, dtype=np.uint8)
        return pixels if is_watched() else pixels.copy()


def symbol_disc(colour, label: str = ""):
    """A legend symbol: a disc in ``colour``."""
    return lambda c, cx, cy: c.disc(cx, cy, 7, colour, label, size=9)


def symbol_chip(colour, label: str = ""):
    """A legend symbol: a small tag in ``colour``."""
    return lambda c, cx, cy: c.chip(cx - 8, cy - 6, 16, 12, label, colour, size=8)


def symbol_back(colour=CARD_BACK):
    """A legend symbol: a face-down card."""
    return lambda c, cx, cy: c.card_back(cx - 5, cy - 7, 10, 14, colour)
