"""Where a state class's presentation lives: its RENDER module, the game's ``text`` package,
which gives the hooks ``Presentation`` declares (mypy checks each game's module against it
where its state class names it), and its picture module, ``PICTURE`` or the module
``picture`` beside RENDER, found without importing it (Pillow loads only when a picture is
drawn)."""

from __future__ import annotations

import functools
import importlib
import importlib.util
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, TypeGuard

import numpy as np

if TYPE_CHECKING:
    from .game import Game
    from .state import GameState


# The observer who holds no seat (a spectator): every reader that takes an observer (``view``,
# ``reading``, ``render``, ``prompt``, ``narrate``, ``picture``) shows it what every seat may
# see and nothing any seat keeps to itself. ``None`` is the referee, 0..n-1 the seats.
SPECTATOR = -1


def holds_seat(observer: int | None) -> TypeGuard[int]:
    """Whether ``observer`` is a seat (not the referee, ``None``, nor ``SPECTATOR``): the
    only observer that has a hand, face-down cards and secrets of its own."""
    return observer is not None and observer >= 0


def check_observer(observer: int | None, num_players: int) -> None:
    """Refuse an observer that is neither the referee (None), a seat nor ``SPECTATOR``: a
    negative number would otherwise index the last seat's secrets."""
    if observer is not None and not (observer == SPECTATOR or 0 <= observer < num_players):
        raise ValueError(f"observer {observer!r} is no seat of {num_players}: give 0..{num_players - 1}, "
                         f"None (the referee) or {SPECTATOR} (a spectator)")


def move_line(before: GameState, after: GameState, action) -> str:
    """A move as the human render mode prints it: the mover as the board names it, then the
    move and what it did as the referee reads them (``after.narrate``)."""
    return f"P{before.current_player}: {after.narrate(before, int(action), None)}"


class Presentation(Protocol):
    """The hooks of a game's presentation module (its ``text`` package, the state class's
    ``RENDER``): what a seat may know and the words people read, all from what the seat may
    know. Every game gives the functions; the two properties are hooks a game may leave out
    by setting them to None in its module (core's readers then do without: the plain text,
    the list of moves). ``SeatPresentation``'s and ``GameState``'s readers call them (``view``,
    ``reading``, ``render``, ``render_legend``, ``prompt``, ``narrate``, ``move_label``,
    ``rules_summary``, ``render_rich``, ``move_table``)."""

    def view(self, state: Any, seat: int | None, /) -> dict:
        """What ``seat`` may know as plain JSON data (None: the referee)."""
        ...

    def reading(self, state: Any, seat: int | None, /) -> Any:
        """The same facts as the game's typed record."""
        ...

    def render(self, state: Any, seat: int | None, /) -> str:
        """The table as text for ``seat``."""
        ...

    def legend(self) -> str:
        """The key to ``render``'s text."""
        ...

    def prompt(self, state: Any, observer: int | None, /) -> str:
        """The pending decision as a sentence for ``observer``."""
        ...

    def consequences(self, before: Any, action: int, after: Any, observer: int | None, /) -> list[str]:
        """Phrases for what ``action``, the move from ``before`` to ``after``, did, as
        ``observer`` may know it."""
        ...

    def move_label(self, state: Any, action: int, seat: int | None, /) -> str:
        """A legal move as a person at ``seat`` reads it in a list."""
        ...

    def rules_summary(self, game: Any, /) -> str:
        """The rules in a screen or two for the game's configuration."""
        ...

    @property
    def render_rich(self) -> Callable[[Any, int | None], Any] | None:
        """The table as a ``rich`` renderable, or None: the text is the board."""
        ...

    @property
    def move_table(self) -> Callable[[Any, list[int], int | None], list[str] | None] | None:
        """The legal moves as a table, or None: every decision's moves are a list."""
        ...


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
    RENDER: ClassVar[Presentation | None]
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
        return self._render_module().reading(self, seat)

    def render(self, seat: int | None = None) -> str:
        """A text picture of ``view(seat)``."""
        return self._render_module().render(self, seat)

    def render_rich(self, seat: int | None = None):
        """The text picture of ``view(seat)`` as a ``rich`` renderable (colour and Unicode,
        for a terminal that has them), when the game draws one (``render_rich(state, seat)``
        in its RENDER module); None otherwise, and ``render`` is the text."""
        draw = None if self.RENDER is None else self.RENDER.render_rich
        return None if draw is None else draw(self, seat)

    def render_legend(self) -> str | None:
        """What the abbreviations and symbols of ``render``'s text mean (None: no legend)."""
        return None if self.RENDER is None else self.RENDER.legend()

    def move_label(self, action: int, seat: int | None = None) -> str:
        """A legal move's name as a person at ``seat`` reads it in a list of moves: the action's
        name (``game.action_to_string``) with what this position adds to it, when the game says
        more (``move_label(state, action, seat)`` in its RENDER module: the village at a grid
        cell, ...); the name alone otherwise. The name alone is what ``string_to_action`` reads."""
        if self.RENDER is None:
            return self.game.action_to_string(action)
        return self.RENDER.move_label(self, action, seat)

    def move_table(self, legal: list[int], seat: int | None = None) -> list[str] | None:
        """The legal moves as a table a person reads at a glance, when the game lays this
        decision out so (``move_table(state, legal, seat)`` in its RENDER module: a choice of
        several counts at once, each cell a move's number in ``legal``); None otherwise, and
        the list of moves names them."""
        table = None if self.RENDER is None else self.RENDER.move_table
        return None if table is None else table(self, legal, seat)

    def rules_summary(self) -> str | None:
        """The rules in a screen or two for a person about to play this game's configuration
        (``rules_summary(game)`` in the RENDER module; None when the game gives none)."""
        return None if self.RENDER is None else self.RENDER.rules_summary(self.game)

    def picture(self, seat: int | None = None) -> np.ndarray:
        """An H x W x 3 uint8 image of ``view(seat)`` (``seat=None``: the referee's), drawn
        from the view alone, so it shows exactly what the text does not hide."""
        return self.picture_module().picture(self.view(seat))

    def move_places(self, actions: list[int], seat: int | None = None) -> dict[int, tuple[int, int, int, int]]:
        """Where on ``picture(seat)`` each of ``actions`` that has a place is made (a tile
        moved to, a castle played to, an ambush laid): (x0, y0, x1, y1) in the picture's
        pixels, from the picture module's ``move_places(view, actions)``; actions without a
        place are left out."""
        return self.picture_module().move_places(self.view(seat), actions)

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
