"""Where a state class's presentation lives: its RENDER module (view, reading, render,
prompt, consequences) names it, and its picture module is ``PICTURE`` or the module
``picture`` beside RENDER, found without importing it (Pillow loads only when a picture is
drawn)."""

from __future__ import annotations

import functools
import importlib
import importlib.util


@functools.cache
def picture_module_name(cls: type) -> str | None:
    """The name of the module ``picture`` beside the state class's RENDER module, if there is
    one (found without importing it: Pillow loads only when a picture is drawn)."""
    name = getattr(cls.RENDER, "__name__", "")
    if "." not in name:
        return None
    name = name.rsplit(".", 1)[0] + ".picture"
    return name if importlib.util.find_spec(name) is not None else None


@functools.cache
def picture_module(cls: type):
    """The state class's picture module: its PICTURE, else the one named above, else None."""
    if cls.PICTURE is not None:
        return cls.PICTURE
    name = picture_module_name(cls)
    return None if name is None else importlib.import_module(name)
