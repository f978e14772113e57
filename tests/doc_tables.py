"""Reading the checked tables of the docs: each follows a ``<!-- table:NAME -->`` marker
line (``doc_table``), or is the table whose header starts with given columns
(``table_with_header``). Used by tests/test_docs.py and the games' own doc tests."""

from __future__ import annotations

import re
from pathlib import Path

from forest_envs.testing.coverage_docs import table_after

DASHES = "–—-"


def _cells(line: str) -> list[str]:
    return [c.strip().replace("`", "") for c in line.strip().strip("|").split("|")]


def _rows(block: list[str], name: str, path: Path) -> list[dict[str, str]]:
    assert len(block) >= 3, f"table {name} in {path.name} is empty"
    header = _cells(block[0])
    assert set(block[1].replace("|", "").replace(" ", "")) <= set("-:"), block[1]
    rows = []
    for line in block[2:]:
        row = _cells(line)
        assert len(row) == len(header), f"table {name}: {line!r} has {len(row)} cells"
        rows.append(dict(zip(header, row)))
    return rows


def has_table(path: Path, name: str) -> bool:
    return f"<!-- table:{name} -->" in [ln.strip() for ln in path.read_text(encoding="utf-8").splitlines()]


def doc_table(path: Path, name: str) -> list[dict[str, str]]:
    """Rows (header -> cell text, backticks stripped) of the table after the marker."""
    lines = [ln.strip() for ln in path.read_text(encoding="utf-8").splitlines()]
    marker = f"<!-- table:{name} -->"
    assert marker in lines, f"{path.name} has no {marker} marker"
    return _rows(table_after(lines, marker), name, path)


def table_with_header(path: Path, *columns: str) -> list[dict[str, str]]:
    """Rows of the first table whose header starts with ``columns``."""
    lines = [ln.strip() for ln in path.read_text(encoding="utf-8").splitlines()]
    for i, ln in enumerate(lines):
        if ln.startswith("|") and _cells(ln)[:len(columns)] == list(columns):
            block = []
            for row in lines[i:]:
                if not row.startswith("|"):
                    break
                block.append(row)
            return _rows(block, " | ".join(columns), path)
    raise AssertionError(f"{path.name} has no table with the columns {columns}")


def id_range(text: str) -> tuple[int, int]:
    """'0–131' -> (0, 131); '144' -> (144, 144)."""
    parts = re.split(f"[{DASHES}]", text)
    return int(parts[0]), int(parts[-1])


def backticked(text: str) -> list[str]:
    return re.findall(r"`([^`]+)`", text)
