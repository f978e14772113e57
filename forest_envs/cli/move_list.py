"""The legal moves of a turn as a person reads them in a terminal: numbered one per line when
they are few, grouped compactly when they are many (a game's first turn may offer a hundred).

Grouping uses only what every game declares, its action blocks (core/actions.py) and move
names, so it never names a game:

- moves next to each other in the list that lie in the same block, differ only in the
  block's last axis and whose names differ in one word, a number one above the one before,
  become one entry, ``9-12 ambush at Derby Gate with 1-4`` (number 9 is "... with 1", 10 is
  "... with 2"); other words are not merged (a person would have to count them);
- a block with several entries gets one header with the words its entries share
  (``ambush at ... with 1-4:``), and each entry keeps only its own words (``9-12 Derby Gate``);
- entries are laid out in columns, every line within ``width`` columns.

The numbers are positions in the list of legal moves, which the prompt takes; a move's full
name is taken too, and ``numbered`` gives the full list (the prompt's ``help``). ``game`` is
anything with the game's ``actions`` and an ``action_to_string``: the game itself, or
``SeatMoves``, the moves named as a person at a seat reads them (``state.move_label``)."""

from __future__ import annotations

import textwrap
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..core.actions import ActionSpace
    from ..core.state import GameState

WIDTH = 80         # no line of the list is longer: an 80-column terminal
GROUP_ABOVE = 8    # more legal moves than this are grouped


@dataclass(frozen=True)
class SeatMoves:
    """The game's action blocks with each move named as ``seat`` reads it at ``state``'s
    position (``state.move_label``: "alms r1c2 Dunmere" where the game's name is "alms r1c2")."""

    state: GameState
    seat: int | None

    @property
    def actions(self) -> ActionSpace:
        return self.state.game.actions

    def action_to_string(self, action: int) -> str:
        return self.state.move_label(action, self.seat)


@dataclass
class _Run:
    """Consecutive legal moves merged into one entry."""

    block: object
    lead: tuple
    first: int                      # position in the legal list
    words: list[str]                # the first move's name, split
    prefix: int = 0                 # words shared at the start by every move of the run
    suffix: int = 0                 # ... and at the end
    values: list[int] = field(default_factory=list)  # each move's own number
    last: int = -1

    def text(self) -> str:
        if self.last == self.first:
            return " ".join(self.words)
        head = self.words[:self.prefix]
        tail = self.words[len(self.words) - self.suffix:] if self.suffix else []
        return " ".join(head + [_span(self.values)] + tail)


def _span(values: list[int]) -> str:
    """The numbers of a run, consecutive by construction: ``1-4``."""
    return f"{values[0]}-{values[-1]}"


def _shared(a: list[str], b: list[str]) -> tuple[int, int]:
    """Words ``a`` and ``b`` share at the start and at the end, leaving both a middle."""
    room = min(len(a), len(b)) - 1
    p = 0
    while p < room and a[p] == b[p]:
        p += 1
    s = 0
    while s < room - p and a[-1 - s] == b[-1 - s]:
        s += 1
    return p, s


def _middle(words: list[str], prefix: int, suffix: int) -> list[str]:
    return words[prefix:len(words) - suffix]


def _next_number(a: list[str], b: list[str]) -> bool:
    """``b`` is one word, the number one above the one word ``a``."""
    return (len(a) == len(b) == 1 and a[0].isdigit() and b[0].isdigit()
            and int(b[0]) == int(a[0]) + 1)


def _runs(game, legal: list[int]) -> list[_Run]:
    space = game.actions
    runs: list[_Run] = []
    for i, action in enumerate(legal):
        block = space.block_of(action)
        index = block.index(action)
        words = game.action_to_string(action).split()
        run = runs[-1] if runs else None
        if run is not None and run.block is block and run.lead == index[:-1]:
            if run.last == run.first:
                p, s = _shared(run.words, words)
                mid_a, mid_b = _middle(run.words, p, s), _middle(words, p, s)
                if p + s and _next_number(mid_a, mid_b):
                    run.prefix, run.suffix = p, s
                    run.values = [int(mid_a[0]), int(mid_b[0])]
                    run.last = i
                    continue
            elif (len(words) == len(run.words) and words[:run.prefix] == run.words[:run.prefix]
                  and (not run.suffix or words[-run.suffix:] == run.words[-run.suffix:])
                  and _next_number([str(run.values[-1])], _middle(words, run.prefix, run.suffix))):
                run.values.append(run.values[-1] + 1)
                run.last = i
                continue
        runs.append(_Run(block, index[:-1], i, words, last=i))
    return runs


def _label(run: _Run) -> str:
    return str(run.first) if run.last == run.first else f"{run.first}-{run.last}"


def _columns(cells: list[str], indent: int, width: int) -> list[str]:
    """``cells`` left to right in as many equal columns as fit in ``width``; a cell too long
    for a line is wrapped on its own."""
    if not cells:
        return []
    cell = max(len(c) for c in cells) + 3
    per_line = max(1, (width - indent) // cell)
    lines = []
    for start in range(0, len(cells), per_line):
        row = cells[start:start + per_line]
        if len(row) == 1 and indent + len(row[0]) > width:
            lines += textwrap.wrap(row[0], width, initial_indent=" " * indent,
                                   subsequent_indent=" " * (indent + 4), break_on_hyphens=False)
            continue
        lines.append((" " * indent + "".join(c.ljust(cell) for c in row)).rstrip())
    return lines


def _groups(runs: list[_Run]) -> list[tuple[str | None, list[_Run]]]:
    """Runs by block; blocks of a single entry go together, without a header."""
    by_block: list[list[_Run]] = []
    for run in runs:
        if by_block and by_block[-1][0].block is run.block:
            by_block[-1].append(run)
        else:
            by_block.append([run])
    out: list[tuple[str | None, list[_Run]]] = []
    for block_runs in by_block:
        if len(block_runs) == 1:
            if out and out[-1][0] is None:
                out[-1][1].append(block_runs[0])
            else:
                out.append((None, list(block_runs)))
        else:
            out.append(("block", block_runs))
    return out


def grouped(game, legal: list[int], width: int = WIDTH) -> list[str]:
    """The lines of the grouped list (see the module's docstring)."""
    lines: list[str] = []
    for kind, runs in _groups(_runs(game, legal)):
        labels = [_label(r) for r in runs]
        label_width = max(len(x) for x in labels)
        texts = [r.text().split() for r in runs]
        if kind is None:
            lines += _columns([f"{lab:>{label_width}} {' '.join(t)}" for lab, t in zip(labels, texts)],
                              2, width)
            continue
        p, s = _shared_all(texts)
        if not p + s:  # nothing shared to say once: the entries in full
            lines += _columns([f"{lab:>{label_width}} {' '.join(t)}" for lab, t in zip(labels, texts)],
                              2, width)
            continue
        # "ambush at ... with 1-4:" when the entries differ inside, "choose tile:" at the end
        head = texts[0][:p] + (["..."] + texts[0][len(texts[0]) - s:] if s else [])
        lines += textwrap.wrap(" ".join(head) + ":", width, initial_indent="  ",
                               subsequent_indent="    ")
        cells = [f"{lab:>{label_width}} {' '.join(_middle(t, p, s))}" for lab, t in zip(labels, texts)]
        lines += _columns(cells, 4, width)
    return lines


def _shared_all(texts: list[list[str]]) -> tuple[int, int]:
    """Words every text shares at its start and end, leaving each a middle."""
    p, s = _shared(texts[0], texts[1])
    for t in texts[2:]:
        p2, s2 = _shared(texts[0], t)
        p, s = min(p, p2), min(s, s2)
    return p, s


def range_key(game, legal: list[int]) -> str | None:
    """One line reading a merged entry aloud (how ``a-b`` counts), or None: the first entry
    under a header, else the first merged one."""
    merged = [(kind, r) for kind, runs in _groups(_runs(game, legal)) for r in runs if r.last > r.first]
    if not merged:
        return None
    run = next((r for kind, r in merged if kind is not None), merged[0][1])
    said = [f'{i} is "{game.action_to_string(legal[i])}"' for i in range(run.first, run.last + 1)]
    if len(said) > 3:
        said = said[:2] + ["...", said[-1]]
    return "ranges count in order: " + ", ".join(said)


def numbered(game, legal: list[int], width: int = WIDTH) -> list[str]:
    """Every legal move on its own line with its number (names longer than a line wrap)."""
    digits = len(str(len(legal) - 1))
    out = []
    for i, action in enumerate(legal):
        out += textwrap.wrap(f"{i:>{digits + 2}}: {game.action_to_string(action)}", width,
                             subsequent_indent=" " * (digits + 4), break_on_hyphens=False) or [""]
    return out


def move_lines(game, legal: list[int], width: int = WIDTH) -> list[str]:
    """What the prompt shows: ``numbered`` for a few moves, ``grouped`` for many."""
    if len(legal) <= GROUP_ABOVE:
        return numbered(game, legal, width)
    lines = grouped(game, legal, width)
    key = range_key(game, legal)
    return lines + (textwrap.wrap(key, width, subsequent_indent="  ") if key else [])
