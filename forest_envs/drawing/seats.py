"""How text and pictures name seats: ``P1``, and ``P1 (you)`` for the seat that plays it,
except in a replay (``watched``), which nobody plays.

Apart from the Canvas (``canvas.py``) because text rendering names seats too, and should not
load Pillow to do it.
"""

from __future__ import annotations

import contextlib
import contextvars

_WATCHED = contextvars.ContextVar("forest_envs_picture_watched", default=False)


@contextlib.contextmanager
def watched():
    """Pictures drawn inside are watched (a replay), not played: no seat is "(you)"; and they
    are only read, so ``Canvas.array`` gives a read-only array without copying it."""
    token = _WATCHED.set(True)
    try:
        yield
    finally:
        _WATCHED.reset(token)


def is_watched() -> bool:
    """Whether what is drawn now is watched (inside ``watched()``)."""
    return _WATCHED.get()


def seat_name(seat: int, viewer: int | None) -> str:
    """How the board names a seat: ``P1``, and ``P1 (you)`` in the view of the seat that plays
    it (not in a replay, see ``watched``)."""
    return f"P{seat} (you)" if seat == viewer and not _WATCHED.get() else f"P{seat}"
