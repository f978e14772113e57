"""Where a state class's presentation lives: its RENDER module (view, reading, render,
prompt, consequences) names it, and its picture module is ``PICTURE`` or the module
``picture`` beside RENDER, found without importing it (Pillow loads only when a picture is
drawn)."""

from __future__ import annotations

import functools
import importlib
import importlib.util
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

if TYPE_CHECKING:
    from .game import Game


# (*) mypy takes a class for unhashable when it meets functools.cache's Hashable argument.
@functools.cache
def picture_module_name(cls: type[SeatPresentation]) -> str | None:
    """The name of the module ``picture`` beside the state class's RENDER module, if there is
    one (found without importing it: Pillow loads only when a picture is drawn)."""
    name = getattr(cls.RENDER, "__name__", "")
    if "." not in name:
        return None
    name = name.rsplit(".", 1)[0] + ".picture"
    return name if importlib.util.find_spec(name) is not None else None


@functools.cache
def picture_module(cls: type[SeatPresentation]):
    """The state class's picture module: its PICTURE, else the one named above, else None."""
    if cls.PICTURE is not None:
        return cls.PICTURE
    name = picture_module_name(cls)  # type: ignore[arg-type]  # (*)
    return None if name is None else importlib.import_module(name)


class SeatPresentation:
    """What a seat may know, as people and scripted agents read it: every method reads the
    state class's RENDER module (and its picture module), never the rules. ``GameState``
    derives from it; a state gives ``RENDER``, ``PICTURE``, ``game`` and ``num_players``."""

    __slots__ = ()
    RENDER: ClassVar[Any]
    PICTURE: ClassVar[Any]
    game: Game
    num_players: int

    def view(self, seat: int | None) -> dict:
        """What ``seat`` may know as plain Python data, indexed as the game's data is (names
        are for ``render``); ``seat=None`` is the referee's view of everything."""
        return self._render_module().view(self, seat)

    def reading(self, seat: int):
        """What ``seat`` may know as the game's light typed record for scripted agents
        (``reading(state, seat)`` in its RENDER module): the facts of ``view(seat)`` without
        the nested dicts, which cost a scripted agent as much as its decision."""
        read = getattr(self._render_module(), "reading", None)
        if read is None:
            raise NotImplementedError(f"{type(self).__name__}'s RENDER module gives no reading")
        return read(self, seat)

    def render(self, seat: int | None = None) -> str:
        """A text picture of ``view(seat)``."""
        return self._render_module().render(self, seat)

    def render_rich(self, seat: int | None = None):
        """The text picture of ``view(seat)`` as a ``rich`` renderable (colour and Unicode,
        for a terminal that has them), when the game draws one (``render_rich(state, seat)``
        in its RENDER module); None otherwise, and ``render`` is the text."""
        draw = getattr(self.RENDER, "render_rich", None)
        return None if draw is None else draw(self, seat)

    def render_legend(self) -> str | None:
        """What the abbreviations and symbols of ``render``'s text mean (None: no legend)."""
        legend = getattr(self.RENDER, "legend", None)
        return legend() if legend is not None else None

    def move_label(self, action: int, seat: int | None = None) -> str:
        """A legal move's name as a person at ``seat`` reads it in a list of moves: the action's
        name (``game.action_to_string``) with what this position adds to it, when the game says
        more (``move_label(state, action, seat)`` in its RENDER module: the village at a grid
        cell, ...); the name alone otherwise. The name alone is what ``string_to_action`` reads."""
        label = getattr(self.RENDER, "move_label", None)
        return label(self, action, seat) if label is not None else self.game.action_to_string(action)

    def move_table(self, legal: list[int], seat: int | None = None) -> list[str] | None:
        """The legal moves as a table a person reads at a glance, when the game lays this
        decision out so (``move_table(state, legal, seat)`` in its RENDER module: a choice of
        several counts at once, each cell a move's number in ``legal``); None otherwise, and
        the list of moves names them."""
        table = getattr(self.RENDER, "move_table", None)
        return table(self, legal, seat) if table is not None else None

    def rules_summary(self) -> str | None:
        """The rules in a screen or two for a person about to play this game's configuration
        (``rules_summary(game)`` in the RENDER module; None when the game gives none)."""
        summary = getattr(self.RENDER, "rules_summary", None)
        return summary(self.game) if summary is not None else None

    def picture(self, seat: int | None = None) -> np.ndarray:
        """An H x W x 3 uint8 image of ``view(seat)`` (``seat=None``: the referee's), drawn
        from the view alone, so it shows exactly what the text does not hide."""
        return self.picture_module().picture(self.view(seat))

    def picture_shape(self) -> tuple[int, int, int]:
        """The shape of every ``picture`` of this game configuration."""
        width, height = self.picture_module().size(self.num_players)
        return (height, width, 3)

    @classmethod
    def has_picture(cls) -> bool:
        return cls.PICTURE is not None or picture_module_name(cls) is not None  # type: ignore[arg-type]  # (*)

    @classmethod
    def picture_module(cls):
        module = picture_module(cls)  # type: ignore[arg-type]  # (*)
        if module is None:
            raise NotImplementedError(
                f"{cls.__name__} has no picture: render_mode='rgb_array' needs a PICTURE module "
                "(or a module named 'picture' beside its RENDER module) with picture(view) and "
                "size(num_players)")
        return module

    def _render_module(self):
        if self.RENDER is None:
            raise NotImplementedError(f"{type(self).__name__} declares no RENDER module and "
                                      "does not define view/render itself")
        return self.RENDER
