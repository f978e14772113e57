"""A doc's decision-coverage table (``docs/<game>.md``, after ``TABLE_MARKER``): which
action blocks each decision kind may offer, as the docs declare it, read for the coverage
fuzz (``fuzzing.py``) to compare with what it reached, and written from what it reached."""

from __future__ import annotations

import re

import numpy as np

TABLE_MARKER = "<!-- table:decision-coverage -->"


def table_after(lines: list[str], marker: str) -> list[str]:
    """The lines of the markdown table that follows the line ``marker`` in ``lines``
    (stripped lines; blank or other lines between the marker and the table are skipped)."""
    block: list[str] = []
    for ln in lines[lines.index(marker) + 1:]:
        if not ln.startswith("|"):
            if block:
                break
            continue
        block.append(ln)
    return block


def declared_pairs(markdown: str) -> dict[str, set[str]]:
    """decision kind -> the action blocks a doc declares reachable from it: the table after
    ``TABLE_MARKER`` with the columns ``decision kind`` and ``action blocks`` (names in
    backticks, comma-separated)."""
    lines = [ln.strip() for ln in markdown.splitlines()]
    if TABLE_MARKER not in lines:
        raise ValueError(f"no {TABLE_MARKER} marker")
    rows = [[c.strip() for c in ln.strip("|").split("|")] for ln in table_after(lines, TABLE_MARKER)]
    if len(rows) < 3 or [c.lower() for c in rows[0][:2]] != ["decision kind", "action blocks"]:
        raise ValueError("the decision-coverage table needs the columns 'decision kind' and "
                         "'action blocks' and at least one row")
    out: dict[str, set[str]] = {}
    for row in rows[2:]:
        kind = row[0].strip("`")
        if kind in out:
            raise ValueError(f"decision kind {kind!r} is listed twice")
        out[kind] = set(re.findall(r"`([^`]+)`", row[1]))
    return out


def check_declared_names(game, declared: dict[str, set[str]]) -> list[str]:
    """Names in ``declared`` that are no decision kind or action block of ``game``."""
    kinds = {k.name for k in game.state_class.DECISIONS}
    blocks = set(game.action_space.blocks)
    bad = [f"decision kind {k!r}" for k in declared if k not in kinds]
    bad += [f"action block {b!r} (under {k!r})" for k, bs in declared.items() for b in sorted(bs)
            if b not in blocks]
    return bad


def markdown_table(coverage) -> str:
    """The decision-coverage table of what ``coverage`` (a ``fuzzing.Coverage``) reached (to
    start a doc's section)."""
    lines = [TABLE_MARKER, "| decision kind | action blocks |", "| --- | --- |"]
    for k, kind in enumerate(coverage.kind_names):
        blocks = [coverage.block_names[b] for b in np.flatnonzero(coverage.pairs[k])]
        lines.append(f"| `{kind}` | {', '.join(f'`{b}`' for b in blocks) or '(none)'} |")
    return "\n".join(lines)
