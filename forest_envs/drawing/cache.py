"""What the pictures draw again and again, made once (used by ``drawing.canvas``).

A game's pictures are redrawn from its view at every position and for every seat, so the same
labels, numbers and boxes are drawn thousands of times in a replay (``forest-envs replay
--html``) or an ``rgb_array`` episode. Three things are kept, each exactly what Pillow makes
for the same arguments, so every picture is the same pixel for pixel (the tests compare with
plain Pillow drawing):

- ``RememberingFont``: FreeType's mask and measures of each text (rendering text was most of
  a picture's cost);
- ``text_length``: a text's width in a font; ``paint_text`` draws one line of text with a
  kept mask, skipping ``ImageDraw.text``'s per-call set-up (now the larger cost);
- ``rounded_box``: a rounded box as a stamp (its pixels and the mask of the pixels it paints),
  pasted where the box goes;
- ``GroupStamps``: any group of shapes a picture draws again and again at the same place (a
  tile of a board, a card back) as a stamp, made by drawing the group there once; a group
  whose pixels depend on what lies under it, or that paints outside its region, is drawn
  each time instead.
"""

from __future__ import annotations

import contextlib
import functools
import math
from typing import Final, Literal

import numpy as np
from PIL import Image, ImageChops, ImageDraw, ImageFont

_plain = [False]        # True inside plain_pillow(): everything drawn by Pillow as it comes


@contextlib.contextmanager
def plain_pillow():
    """Inside, every picture is drawn by Pillow call by call, nothing kept (what the pictures
    were before this module; the tests compare both)."""
    old, _plain[0] = _plain[0], True
    try:
        yield
    finally:
        _plain[0] = old


def plain_drawing() -> bool:
    """Inside ``plain_pillow()``?"""
    return _plain[0]


FORGET_AT = 5_000       # texts kept per font and cache: past it, the cache starts afresh
STAMP_AREA = 60_000     # boxes larger than this (in pixels) are drawn each time (rare, cheap)
STAMPS_AREA = 8_000_000 # pixels of all stamps kept (~40 MB): past it, they start afresh


class RememberingFont(ImageFont.FreeTypeFont):
    """A FreeType font that keeps every text it has rendered, measured or boxed. The mask it
    keeps is the one FreeType made for exactly these arguments (text, anchor, sub-pixel
    start...); Pillow's ``ImageDraw.text`` calls these methods as on any font."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._masks: dict = {}
        self._lengths: dict = {}
        self._boxes: dict = {}

    def getmask2(self, text, mode="", direction=None, features=None, language=None,
                 stroke_width=0, anchor=None, ink=0, start=None, *args, **kwargs):
        if _plain[0]:
            return super().getmask2(text, mode, direction, features, language, stroke_width,
                                    anchor, ink, start, *args, **kwargs)
        key = (text, mode, direction, features and tuple(features), language, stroke_width,
               anchor, ink, start, args, tuple(sorted(kwargs.items())))
        found = self._masks.get(key)
        if found is None:
            if len(self._masks) >= FORGET_AT:
                self._masks.clear()
            found = self._masks[key] = super().getmask2(
                text, mode, direction, features, language, stroke_width, anchor, ink, start,
                *args, **kwargs)
        return found

    def getbbox(self, text, mode="", direction=None, features=None, language=None,
                stroke_width=0, anchor=None):
        if _plain[0]:
            return super().getbbox(text, mode, direction, features, language, stroke_width,
                                   anchor)
        key = (text, mode, direction, features and tuple(features), language, stroke_width,
               anchor)
        found = self._boxes.get(key)
        if found is None:
            if len(self._boxes) >= FORGET_AT:
                self._boxes.clear()
            found = self._boxes[key] = super().getbbox(text, mode, direction, features,
                                                        language, stroke_width, anchor)
        return found

    def getlength(self, text, mode="", direction=None, features=None, language=None):
        if _plain[0]:
            return super().getlength(text, mode, direction, features, language)
        key = (text, mode, direction, features and tuple(features), language)
        found = self._lengths.get(key)
        if found is None:
            if len(self._lengths) >= FORGET_AT:
                self._lengths.clear()
            found = self._lengths[key] = super().getlength(text, mode, direction, features,
                                                            language)
        return found


_MEASURE = ImageDraw.Draw(Image.new("RGB", (1, 1)))   # measures as on any RGB picture


def text_length(f, s: str) -> float:
    """``ImageDraw.textlength(s, font=f)`` on an RGB picture, kept."""
    return _MEASURE.textlength(s, font=f) if _plain[0] else _kept_length(f, s)


@functools.lru_cache(maxsize=65536)
def _kept_length(f, s: str) -> float:
    return _MEASURE.textlength(s, font=f)


_inks: dict = {}
_fast_text = [True]    # False once this Pillow lacks what paint_text uses


def paint_text(draw: ImageDraw.ImageDraw, xy, s: str, f, fill, anchor: str) -> None:
    """``draw.text(xy, s, fill=fill, font=f, anchor=anchor)`` for one line of text in a
    FreeType font: the steps ``ImageDraw.text`` takes for it (the ink, the sub-pixel start,
    the mask and where it goes), with the same arguments, so the same pixels."""
    if _fast_text[0] and not _plain[0] and "\n" not in s and isinstance(f, ImageFont.FreeTypeFont):
        try:
            ink = _inks.get((draw.mode, fill))
            if ink is None:
                outline_ink, fill_ink = draw._getink(fill)
                ink = fill_ink if outline_ink is None else outline_ink
                assert ink is not None  # _getink gives one of the two (ImageDraw.text asserts so)
                _inks[(draw.mode, fill)] = ink
            x, y = xy
            start = (math.modf(x)[0], math.modf(y)[0])
            mask, offset = f.getmask2(s, draw.fontmode, None, None, None, 0, anchor, ink, start,
                                      stroke_filled=True)
            draw.draw.draw_bitmap((int(x) + offset[0], int(y) + offset[1]), mask, ink)
            return
        except (AttributeError, TypeError):  # another Pillow: draw as it does
            _fast_text[0] = False
    draw.text(xy, s, fill=fill, font=f, anchor=anchor)


_stamps: dict = {}
_stamped_area = [0]


def rounded_box(image: Image.Image, draw: ImageDraw.ImageDraw, xy, radius, fill, outline,
                width: int) -> None:
    """``draw.rounded_rectangle(xy, radius, fill, outline, width)`` on ``image``, from a stamp
    made once for the box's size and position within a 2-pixel grid. Moving a box by an even
    number of pixels changes neither its rounding (half to even) nor any difference of its
    coordinates, so the stamp is the box's pixels exactly."""
    x0, y0, x1, y1 = (float(v) for v in xy)
    if _plain[0] or (fill is None and outline is None) or (x1 - x0) * (y1 - y0) > STAMP_AREA \
            or not all(map(math.isfinite, (x0, y0, x1, y1))):
        draw.rounded_rectangle(xy, radius=radius, fill=fill, outline=outline, width=width)
        return
    # origin: an even pixel 2 to 4 pixels before the box (room for what a width may add)
    ox, oy = 2 * math.floor(x0 / 2) - 2, 2 * math.floor(y0 / 2) - 2
    key = (x0 - ox, y0 - oy, x1 - ox, y1 - oy, radius, fill, outline, width)
    stamp = _stamps.get(key)
    if stamp is None:
        if _stamped_area[0] >= STAMPS_AREA:
            _stamps.clear()
            _stamped_area[0] = 0
        stamp = _stamps[key] = _make_stamp(image.mode, key)
        _stamped_area[0] += stamp[0].width * stamp[0].height
    pixels, mask = stamp
    paste_masked(image, pixels, ox, oy, mask)


_fast_paste = [True]   # False once this Pillow lacks what paste_masked uses


def paste_masked(image: Image.Image, pixels: Image.Image, x: int, y: int, mask: Image.Image) -> None:
    """``image.paste(pixels, (x, y), mask)`` without ``Image.paste``'s checks and conversions
    (the same core call: the same pixels; it was a good part of a picture's cost)."""
    if _fast_paste[0] and image.readonly == 0:
        try:
            image.im.paste(pixels.im, (x, y, x + pixels.width, y + pixels.height), mask.im)
            return
        except (AttributeError, TypeError):
            _fast_paste[0] = False
    image.paste(pixels, (x, y), mask)


def _make_stamp(mode: str, key) -> tuple[Image.Image, Image.Image]:
    """The box drawn on black and on white: a pixel it paints differs from one of the two."""
    x0, y0, x1, y1, radius, fill, outline, width = key
    size = (math.ceil(x1) + 4, math.ceil(y1) + 4)
    drawn = []
    for background in ((0, 0, 0), (255, 255, 255)):
        im = Image.new(mode, size, background)
        ImageDraw.Draw(im).rounded_rectangle((x0, y0, x1, y1), radius=radius, fill=fill,
                                             outline=outline, width=width)
        drawn.append((im, np.asarray(im) != background))
    (pixels, on_black), (_, on_white) = drawn
    painted = (on_black | on_white).any(axis=2)
    return pixels, Image.fromarray(painted)


GROUPS_AREA = 8_000_000  # pixels of all group stamps kept: past it, they start afresh
_MARGIN = 2              # pixels around a group's region that it must leave alone
_DRAW_EACH_TIME: Final = "draw each time"
# A group's stamp: its pixels and the mask of those it paints (None: drawn on a colour, ``on``),
# or _DRAW_EACH_TIME. (Compared with ==, by which a type checker tells the two apart.)
_GroupStamp = tuple[Image.Image, Image.Image | None] | Literal["draw each time"]


class GroupStamps:
    """Stamps of groups of shapes, each made by drawing the group where it goes on two scratch
    pictures (black and white, of the picture's size, kept and cleaned after use): the pixels
    painted are those that differ on either; the stamp is kept only when they are the same on
    both (nothing blended with what lies under: the stamp is then the group's pixels exactly,
    whatever the picture holds there) and the margin around the region is untouched."""

    def __init__(self):
        self._stamps: dict[tuple, _GroupStamp] = {}
        self._area = 0
        self._scratch: dict = {}

    def paste(self, image: Image.Image, key, region, draw_group, scratch_canvas,
              on=None) -> bool:
        """Paste the stamp of ``key`` (made with ``draw_group(canvas)`` on scratch canvases
        from ``scratch_canvas(background)``) at its integer ``region`` (x0, y0, x1, y1) of
        ``image``; False when the group must be drawn as it comes. ``on``: a colour the group
        is drawn on (its text blends with it); its stamp is the whole region drawn on that
        colour, pasted only where the region of ``image`` is that colour alone."""
        if _plain[0]:
            return False
        full = (image.mode, image.size, tuple(region), key, on)
        stamp = self._stamps.get(full)
        if stamp is None:
            if self._area >= GROUPS_AREA:
                self._stamps.clear()
                self._area = 0
            make = self._make if on is None else self._make_on
            stamp = self._stamps[full] = make(image, region, draw_group, scratch_canvas, on)
            if stamp != _DRAW_EACH_TIME:
                self._area += stamp[0].width * stamp[0].height
        if stamp == _DRAW_EACH_TIME:
            return False
        pixels, mask = stamp
        x0, y0 = int(region[0]), int(region[1])
        if mask is not None:
            paste_masked(image, pixels, x0, y0, mask)
            return True
        box = (x0, y0, x0 + pixels.width, y0 + pixels.height)
        if image.crop(box).getcolors(1) != [(pixels.width * pixels.height, on)]:
            return False                  # something lies under it: drawn as it comes
        image.paste(pixels, box)
        return True

    def _make_on(self, image, region, draw_group, scratch_canvas, on) -> _GroupStamp:
        w, h = image.size
        x0, y0, x1, y1 = (int(v) for v in region)
        if not (0 <= x0 < x1 <= w and 0 <= y0 < y1 <= h):
            return _DRAW_EACH_TIME
        canvas = self._scratch.get((image.mode, image.size, on))
        if canvas is None:
            canvas = self._scratch[(image.mode, image.size, on)] = scratch_canvas(on)
        draw_group(canvas)
        bbox = ImageChops.difference(canvas.image, Image.new(image.mode, image.size, on)).getbbox()
        pixels = canvas.image.crop((x0, y0, x1, y1))
        canvas.image.paste(on, (0, 0, w, h))
        if bbox is not None and not (x0 <= bbox[0] and y0 <= bbox[1] and bbox[2] <= x1
                                     and bbox[3] <= y1):
            return _DRAW_EACH_TIME
        return pixels, None

    def _make(self, image, region, draw_group, scratch_canvas, _on=None) -> _GroupStamp:
        w, h = image.size
        x0, y0, x1, y1 = (int(v) for v in region)
        if not (0 <= x0 - _MARGIN and x1 + _MARGIN <= w and 0 <= y0 - _MARGIN and y1 + _MARGIN <= h
                and x0 < x1 and y0 < y1):
            return _DRAW_EACH_TIME
        outer = (x0 - _MARGIN, y0 - _MARGIN, x1 + _MARGIN, y1 + _MARGIN)
        drawn = []
        for background in ((0, 0, 0), (255, 255, 255)):
            canvas = self._scratch.get((image.mode, image.size, background))
            if canvas is None:
                canvas = self._scratch[(image.mode, image.size, background)] = scratch_canvas(background)
            draw_group(canvas)
            pixels = np.asarray(canvas.image.crop(outer))
            # the box of every pixel painted anywhere (on white: of the inverted picture)
            bbox = (canvas.image if background == (0, 0, 0)
                    else ImageChops.invert(canvas.image)).getbbox()
            drawn.append((canvas, pixels, pixels != background, bbox))
        (black, on_black, painted_b, bbox_b), (white, on_white, painted_w, bbox_w) = drawn
        painted = (painted_b | painted_w).any(axis=2)
        inside = np.zeros_like(painted)
        inside[_MARGIN:-_MARGIN, _MARGIN:-_MARGIN] = True
        fits = all(b is None or (outer[0] <= b[0] and outer[1] <= b[1] and b[2] <= outer[2]
                                 and b[3] <= outer[3]) for b in (bbox_b, bbox_w))
        opaque = np.array_equal(on_black[painted], on_white[painted])
        for canvas, background in ((black, (0, 0, 0)), (white, (255, 255, 255))):
            canvas.image.paste(background, outer if fits else (0, 0) + image.size)
        if not (fits and opaque) or painted[~inside].any():
            return _DRAW_EACH_TIME
        m = _MARGIN
        return (Image.fromarray(np.ascontiguousarray(on_black[m:-m, m:-m])),
                Image.fromarray(np.ascontiguousarray(painted[m:-m, m:-m])))


group_stamps = GroupStamps()
