"""What a seat may know as a text picture (``render``, keyed by ``legend``), and the hooks
that put the pending decision and what a move did into words (``prompt`` and
``consequences``: core's ``State.prompt`` and ``State.narrate``), all from the observer's
reading only (``view.reading``; ``words.py``, ``narration.py``).
"""

from __future__ import annotations

import textwrap

from ...drawing.lines import phrase_lines
from ...drawing.seats import seat_name
from ..actions import cell_name
from ..components import FOREST, GRID_COLS, MAX_CELLS, NO_CARD, VILLAGES, num_rounds
from .narration import happened
from .view import VillageReading, reading
from .words import WIDTH, ask, cards


def render(state, seat: int | None = None) -> str:
    """The table as ``seat`` may see it, in lines of at most ``words.WIDTH`` columns."""
    v = reading(state, seat)
    d = v.decision
    glory = state.totals()
    rounds = num_rounds(v.num_players, v.legendary)
    lines = [f"Chickwood Forest{' (Legendary)' if v.legendary else ''}: round {v.round} of "
             f"{rounds}, deck {v.deck_left}, " + ("game over" if d is None else f"P{d.player} to move")]
    lines.append("Castles:")
    for c in v.castles:
        cap = "" if c.capacity is None else f", holds {c.capacity}"
        raided = "" if c.raided_by is None else f", raided by P{c.raided_by}"
        blocked = ", blocked by the key" if c.key_blocked else ""
        down = ", ".join(f"P{p} x{x}" for p, x in enumerate(c.face_down_by) if x) or "-"
        _wrapped(lines, f"  castle {c.value}: pile {c.pile_left}{cap}{raided}{blocked} | "
                        f"face up: {cards(c.face_up)} | face down: {down}")
        for p, known in enumerate(c.face_down or ()):
            if any(known):
                _wrapped(lines, f"      P{p}'s face down: {cards(known)}")
        if c.my_face_down and any(c.my_face_down):
            _wrapped(lines, f"      your face down: {cards(c.my_face_down)}")
        if c.spied_face_down and any(c.spied_face_down):
            _wrapped(lines, f"      the others' face down, seen with the spy glass: "
                            f"{cards(c.spied_face_down)}")
    lines.append("Players:")
    for p, pl in enumerate(v.players):
        banner = "".join("D" if x else "U" for x in pl.banner)
        held = " ".join(str(value + 1) for value, x in enumerate(pl.castles_held) for _ in range(x))
        raids = " ".join(map(str, pl.raids)) or "-"
        _wrapped(lines, f"  {seat_name(p, seat)}: castle {pl.castle}, banner {banner}, alms {pl.alms_left}, "
                        f"hand {pl.hand_count}, castle cards {held}, raided {raids}, glory {glory[p]}")
        _wrapped(lines, f"      loot: {cards(pl.collection)}")
    _wrapped(lines, "Villages: each card row as glory:spaces; - no glory, . free, a digit: that "
                    "seat's alms", indent=4)
    for row in range(0, MAX_CELLS, GRID_COLS):
        parts = [_village_text(cell, v.villages[cell]) for cell in range(row, row + GRID_COLS)
                 if v.villages[cell].village != NO_CARD]
        for i in range(2 if parts else 0):  # the names, then the alms under them
            lines.append(("  " + "  ".join(part[i].ljust(_VILLAGE_WIDTH) for part in parts)).rstrip())
    if v.hand is not None:
        _wrapped(lines, f"Your hand: {cards(v.hand)}")
    for p, hand in enumerate(v.hands or ()):
        _wrapped(lines, f"Hand P{p}: {cards(hand)}")
    if v.scores is not None:
        lines.append("Final scores:")
        for p, s in enumerate(v.scores):
            _wrapped(lines, f"  P{p}: {_score_text(s)}")
    if d is not None:  # last: the question above a list of moves
        lines += textwrap.wrap(f"Now: {ask(v)}", WIDTH, subsequent_indent="    ", break_on_hyphens=False)
    return "\n".join(lines)


def _wrapped(lines: list[str], text: str, indent: int = 8) -> None:
    """``text`` appended to ``lines`` in lines of at most ``WIDTH`` columns, further lines
    indented, broken after a phrase where it can (``drawing.lines``)."""
    lines.extend(phrase_lines(text, WIDTH, indent))


def _score_text(s: dict) -> str:
    parts = [f"{k} {x}" for k, x in s.items() if k not in ("busts", "village_glory", "total")]
    villages = ", ".join(f"{cell} {x}" for cell, x in s["village_glory"].items() if x)
    if villages:
        parts[-1] += f" ({villages})"
    busts = f"; {s['busts']} chest{'s' if s['busts'] != 1 else ''} lost to busts" if s["busts"] else ""
    return f"total {s['total']} = " + ", ".join(parts) + busts


# The key to the board, one code and its meaning a row (the meaning wrapped beside its code).
LEGEND_ROWS = (
    ("round r of n", "a game of this player count lasts n rounds; deck: loot cards left to deal"),
    ("P0, P1, ...", "the players by seat; (you): the seat whose view this is"),
    ("castle v", "the castle pile of value v; pile: castle cards left in it; holds n: at most n "
                 "loot cards may lie before it (castles 1 and 2)"),
    ("face up / down", "the loot before a castle: face up by name, face down as a count by "
                       "owner (P1 x2)"),
    ("banner UDD", "a player's castle banner, one letter per scouting play: U face up, "
                   "D face down"),
    ("alms, hand", "alms left in the player's store; cards in hand"),
    ("castle cards", "the castle cards the player holds (the first one included), each worth "
                     "its value"),
    ("raided", "the castles the player raided, one per round; glory: the glory if the game "
               "ended now (loot, castle cards, villages as they stand)"),
    ("loot", "the cards the player took, face up for all; x2: two cards of that kind"),
    ("r1c2 Dunmere", "the village card in grid row 1, column 2 (the alms moves name it so); "
                     "the grid is drawn as it lies, a cell on two lines"),
    ("-:... 10:.. 5:..", "under a village's name: one group per row of the card, top row "
                         "first: the row's glory (- none), then its alms spaces, filled left "
                         "to right: . free, a digit the seat whose alms it holds; a row's "
                         "glory counts once it holds an alms"),
    ("~forest~", "a forest card: no alms, and a snake of alms cannot pass it"),
)
_KEY_W = 17  # the codes' column


def legend() -> str:
    """The key to ``render``'s text: every code the board uses, within ``WIDTH`` - 2
    columns (the play command indents it by two)."""
    lines = []
    for code, meaning in LEGEND_ROWS:
        lines += textwrap.wrap(meaning, WIDTH - 2, initial_indent=f"{code:<{_KEY_W}}",
                               subsequent_indent=" " * _KEY_W, break_on_hyphens=False)
    return "\n".join(lines)


def _village_text(cell: int, vil: VillageReading) -> tuple[str, str]:
    """A grid cell on two lines: its name and card ("r1c2 Dunmere"), then the card's rows
    ("-:.1. 10:.. 5:..") or "~forest~"."""
    if vil.village == FOREST:
        return f"{cell_name(cell)} forest", "~forest~"
    village = VILLAGES[vil.village]
    alms = "".join("." if o < 0 else str(o) for o in vil.alms)
    rows, start = [], 0
    for spaces, glory in village.rows:
        rows.append(f"{'-' if glory is None else glory}:{alms[start:start + spaces]}")
        start += spaces
    return f"{cell_name(cell)} {village.name}", " ".join(rows)


_VILLAGE_WIDTH = max(len(part) for i, v in enumerate(VILLAGES)
                     for part in _village_text(0, VillageReading(i, (-1,) * v.spaces)))
assert 2 + GRID_COLS * (_VILLAGE_WIDTH + 2) <= WIDTH  # the grid's row fits the terminal


# --- words for people (core's State.prompt and State.narrate) ----------------------------------
def prompt(state, observer: int | None) -> str:
    """The pending decision as a sentence, as ``observer`` may know it (``words.ask``), in
    lines of at most ``WIDTH`` columns."""
    return textwrap.fill(ask(reading(state, observer)), WIDTH, subsequent_indent="    ",
                         break_on_hyphens=False)


def consequences(before, action: int, after, observer: int | None) -> list[str]:
    """What ``action``, the move from ``before`` to ``after``, did, as ``observer`` may know
    it (``words.happened``; glory is public: it counts only public cards and alms). The
    records alone say it: the action is not read."""
    return happened(reading(before, observer), reading(after, observer), before.totals(),
                    after.totals(), after.ranks() if after.is_terminal else None)
