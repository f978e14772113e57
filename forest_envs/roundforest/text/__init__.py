"""What a seat may know as a text picture (``render``, ``render_rich``), with the game's RENDER
hooks gathered: ``view`` (in ``view.py``), ``prompt`` (``words.py``), ``consequences``
(``narration.py``) and ``legend`` (``board_text.py``); and ``reading`` (``reading.py``): the
facts of the view the heuristic reads, as one typed record without the view's nested dicts."""

from __future__ import annotations

from .board_text import board_lines, board_rich, legend, table_lines  # noqa: F401 (legend: the API)
from .narration import consequences  # noqa: F401  (the API: RENDER.consequences)
from .reading import reading  # noqa: F401  (State.reading finds it here, in RENDER)
from .view import view  # noqa: F401  (the API: RENDER.view)
from .words import prompt, prompt_text, wrap  # noqa: F401  (the API: RENDER.prompt)

ITEM_CODES = ("an", "ba", "sa", "tc", "st", "cr", "ke", "sw", "mp", "he", "hs", "ha", "ch",
              "ca", "ju", "sp", "mo", "mu", "pf", "bo", "cc", "sc")
CHAR_CODES = ("BS", "IK", "SC", "WI", "BA", "DE", "PR", "ME", "GO", "BE", "UN", "FS")


def render(state, seat: int | None = None) -> str:
    """The table as plain ASCII text for ``seat`` (None: the referee): the forest
    (``board_text``), the fairy, the players, then the pending decision as a sentence."""
    return render_view(view(state, seat))


def render_view(v: dict) -> str:
    head = f"Roundforest - round {v['round']}, turn of P{v['turn']}"
    lines = [head] + board_lines(v) + table_lines(v)
    lines.append(wrap(("Now: " if v["decision"] else "") + prompt_text(v)))
    return "\n".join(lines)


def render_rich(state, seat: int | None = None):
    """The same table as a ``rich`` renderable (colour and Unicode: exits as arrows, chips
    in their colours, pieces in their seat's), for a terminal that has them; print it with
    ``rich.console.Console().print(render_rich(state, seat))``."""
    from rich.console import Group
    from rich.text import Text

    v = view(state, seat)
    head = Text(f"Roundforest - round {v['round']}, turn of P{v['turn']}", style="bold")
    now = wrap(("Now: " if v["decision"] else "") + prompt_text(v))
    return Group(head, board_rich(v), Text("\n".join(table_lines(v))), Text(now, style="bold"))
