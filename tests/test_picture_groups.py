"""Groups of shapes pasted from stamps (``Canvas.group``) give Pillow's pixels exactly, and a
group that a stamp would change (it blends with what lies under it, paints outside its region,
or, drawn on a colour, finds something else there) is drawn as it comes."""

from __future__ import annotations

import numpy as np

from forest_envs.drawing import cache as picture_cache
from forest_envs.drawing.cache import plain_pillow
from forest_envs.drawing.canvas import BACKGROUND, INK, Canvas


def both(draw):
    """The picture ``draw(canvas)`` makes with the stamps, twice (made, then pasted), and as
    plain Pillow draws it."""
    out = []
    for _ in range(2):
        c = Canvas(200, 120)
        draw(c)
        out.append(np.asarray(c.image).copy())
    with plain_pillow():
        c = Canvas(200, 120)
        draw(c)
        out.append(np.asarray(c.image).copy())
    return out


def stamp_of(key):
    return next((v for k, v in picture_cache.group_stamps._stamps.items() if k[3] == key), None)


def under(c: Canvas) -> None:
    c.box(0, 0, 199, 60, fill=(200, 40, 40), outline=INK)   # something the groups lie over


def test_an_opaque_group_is_stamped_and_pasted_over_anything():
    def group(cv):
        cv.box(20.5, 10, 60, 50, fill=(10, 200, 10), outline=INK, radius=5)
        cv.text(40, 30, "ab", size=12, anchor="mm")          # on the group's own box
        cv.circle(75, 30, 9, fill=(0, 0, 0), outline=None)   # black: seen on white only

    def draw(c):
        under(c)
        c.group(("opaque test",), (18, 8, 88, 52), group)

    kept, again, plain = both(draw)
    assert np.array_equal(kept, plain) and np.array_equal(again, plain)
    assert stamp_of(("opaque test",)) not in (None, picture_cache._DRAW_EACH_TIME)


def test_a_group_blending_with_what_lies_under_it_or_painting_outside_is_drawn_each_time():
    def blends(c):
        under(c)
        c.group(("blends test",), (10, 20, 120, 60), lambda cv: cv.text(20, 30, "blend", size=14))

    def spills(c):
        c.group(("spills test",), (10, 10, 40, 40), lambda cv: cv.circle(40, 40, 10, fill=INK))

    for draw, key in ((blends, ("blends test",)), (spills, ("spills test",))):
        kept, again, plain = both(draw)
        assert np.array_equal(kept, plain) and np.array_equal(again, plain)
        assert stamp_of(key) is picture_cache._DRAW_EACH_TIME


def test_a_group_on_a_colour_is_pasted_only_where_that_colour_lies_alone():
    def group(cv):
        cv.text(30, 80, "legend text", size=12)

    def clear(c):
        c.group(("on test",), (20, 70, 150, 100), group, on=BACKGROUND)

    def covered(c):
        c.box(100, 85, 140, 110, fill=(40, 40, 200), outline=INK)
        c.group(("on test",), (20, 70, 150, 100), group, on=BACKGROUND)

    for draw in (clear, covered):
        kept, again, plain = both(draw)
        assert np.array_equal(kept, plain) and np.array_equal(again, plain)
    assert stamp_of(("on test",)) not in (None, picture_cache._DRAW_EACH_TIME)
