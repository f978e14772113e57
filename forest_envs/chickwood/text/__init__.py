"""What a Chickwood Forest seat may know, for people and scripted agents: the state's RENDER.

``view.py``: what a seat may know, once, as a typed record (``reading``) and as plain JSON
data derived from it (``view``); ``render.py``: the text board and its legend, and the hooks
``prompt`` and ``consequences``; ``words.py``: the pending decision as a sentence;
``narration.py``: what a move did; ``labels.py``: a move as the play list names it;
``rules_summary.py``: the rules in a screen or two. The state's ``view``, ``reading``,
``render``, ``render_legend``, ``prompt`` and ``narrate`` call the functions named here; the
picture (``../picture.py``) is drawn from the view's JSON form.
"""

from .labels import move_label
from .render import consequences, legend, prompt, render
from .rules_summary import rules_summary
from .view import reading, view

render_rich = None  # no colour board: ``render``'s text is the board (core.presentation.Presentation)
move_table = None  # every decision's moves read as a list (core.presentation.Presentation)

__all__ = ["consequences", "legend", "move_label", "move_table", "prompt",
           "reading", "render", "render_rich", "rules_summary", "view"]
