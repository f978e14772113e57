"""How a game's text for a terminal breaks a line that is too long: after a phrase (",", ";"
or "|") where it can, so that "glory 12" or "P4 x1" stays on one line, between words only
when a phrase is longer than a line. Beside the seat names (``seats.py``) because every
game's board text uses it and none should load Pillow for it.
"""

from __future__ import annotations

import re
import textwrap

_GLUE = "\x00"  # a space textwrap may not break at (not whitespace to it)
_WITHIN_PHRASE = re.compile(r"(?<![,;|]) ")


def phrase_lines(text: str, width: int, indent: int) -> list[str]:
    """``text`` in lines of at most ``width`` columns, the further ones indented by ``indent``
    spaces, broken after a phrase where it can (module doc); ``[""]`` for an empty text."""
    glued = _WITHIN_PHRASE.sub(_GLUE, text)
    out = textwrap.wrap(glued, width, subsequent_indent=" " * indent, break_long_words=False,
                        break_on_hyphens=False)
    if any(len(line) > width for line in out):  # a phrase longer than a line: between words
        out = textwrap.wrap(text, width, subsequent_indent=" " * indent, break_on_hyphens=False)
    return [line.replace(_GLUE, " ") for line in out] or [""]
