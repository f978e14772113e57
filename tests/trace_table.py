"""Reading a game's rules trace: the table in docs/<game>.md that maps every rule sentence of
the rulebook to the code that enforces it and the test that fails when it breaks.

The table is the first Markdown table under its ``## <section>`` heading, with the columns
``| sentence (section) | kind | enforced by | test |``. The test cell names tests as node ids,
``tests/<dir>/<file>.py::<test>`` (``::<Class>::<test>`` for a method; a parameter suffix
``[...]`` is allowed and ignored), the enforced-by cell names code in backticks as
``module.name[.attr]`` relative to the game's package (``rules.ChickwoodState._raid``).

Use from a test::

    from trace_table import missing_code, missing_tests, trace_rows
    rows = trace_rows(DOC, "Rules trace")
    assert not missing_tests(rows, ROOT)
    assert not missing_code(rows, "forest_envs.chickwood")

Each ``missing_*`` returns readable problems ("line 812: ..."), empty when the table is sound.
"""

from __future__ import annotations

import ast
import importlib
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

TRACE_COLUMNS = ("sentence (section)", "kind", "enforced by", "test")

TEST_ID = re.compile(r"(tests/[\w/]+\.py)::(\w+(?:::\w+)?)(\[[^\]\s]*\])?")
CODE_NAME = re.compile(r"`([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+)(?:\(\))?`")


@dataclass(frozen=True)
class TraceRow:
    line: int                  # 1-based line of the row in the doc
    sentence: str
    kind: str
    enforced_by: str           # the raw cell, backticks kept
    tests: tuple[str, ...]     # node ids named in the test cell, parameter suffix dropped

    @property
    def code(self) -> tuple[str, ...]:
        """The code names (``module.name...``) in backticks in the enforced-by cell."""
        return tuple(CODE_NAME.findall(self.enforced_by))


def split_cells(line: str) -> list[str]:
    """Cells of one table line; ``\\|`` is a pipe inside a cell."""
    cells = re.split(r"(?<!\\)\|", line.strip().strip("|"))
    return [c.strip().replace("\\|", "|") for c in cells]


def named_tests(cell: str) -> tuple[str, ...]:
    """The node ids (``tests/x/test_y.py::test_z``) named in a cell, in order."""
    return tuple(f"{path}::{name}" for path, name, _ in TEST_ID.findall(cell))


def section_lines(doc: Path, section: str) -> list[tuple[int, str]]:
    """(line number, text) of the lines under ``## <section>`` up to the next heading of
    level 1 or 2. Raises if the heading is missing or appears twice."""
    lines = doc.read_text(encoding="utf-8").splitlines()
    heading = f"## {section}"
    found = [i for i, ln in enumerate(lines) if ln.strip() == heading]
    if len(found) != 1:
        raise ValueError(f"{doc.name}: expected one '{heading}' heading, found {len(found)}")
    out = []
    for i in range(found[0] + 1, len(lines)):
        if re.match(r"#{1,2} ", lines[i]):
            break
        out.append((i + 1, lines[i]))
    return out


def trace_rows(doc: Path, section: str, columns: tuple[str, ...] = TRACE_COLUMNS) -> list[TraceRow]:
    """The rows of the first table in the section; its header must be ``columns``."""
    block: list[tuple[int, str]] = []
    for number, text in section_lines(doc, section):
        if text.strip().startswith("|"):
            block.append((number, text))
        elif block:
            break
    if len(block) < 3:
        raise ValueError(f"{doc.name}, '{section}': no table with at least one row")
    header = tuple(split_cells(block[0][1]))
    if header != tuple(columns):
        raise ValueError(f"{doc.name}, '{section}': columns are {header}, expected {tuple(columns)}")
    if set(block[1][1].replace("|", "").replace(" ", "")) - set("-:"):
        raise ValueError(f"{doc.name}, line {block[1][0]}: not a table separator line")
    rows = []
    for number, text in block[2:]:
        cells = split_cells(text)
        if len(cells) != len(columns):
            raise ValueError(f"{doc.name}, line {number}: {len(cells)} cells, expected {len(columns)}")
        sentence, kind, enforced, tests = cells
        rows.append(TraceRow(number, sentence, kind, enforced, named_tests(tests)))
    return rows


@cache
def defined_tests(path: Path) -> frozenset[str]:
    """Test names a file defines at its top level: ``test_x`` and ``TestY::test_x``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test"):
            names.add(node.name)
        elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
            names |= {f"{node.name}::{item.name}" for item in node.body
                      if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef))
                      and item.name.startswith("test")}
    return frozenset(names)


def missing_tests(rows: list[TraceRow], root: Path) -> list[str]:
    """Problems with the test cells: a row naming no test, a file that does not exist or
    is not a test module, a test the file does not define."""
    problems = []
    for row in rows:
        if not row.tests:
            problems.append(f"line {row.line}: names no test ({row.sentence[:60]!r})")
        for node in row.tests:
            file, name = node.split("::", 1)
            path = root / file
            if not path.name.startswith("test_") or not path.is_file():
                problems.append(f"line {row.line}: {file} is not a test file")
            elif name not in defined_tests(path):
                problems.append(f"line {row.line}: {node} does not exist")
    return problems


def missing_code(rows: list[TraceRow], package: str) -> list[str]:
    """Problems with the enforced-by cells: a row naming no code in backticks, a module of
    ``package`` that does not exist, a name the module (or class) does not have."""
    problems = []
    for row in rows:
        if not row.code:
            problems.append(f"line {row.line}: names no code in backticks ({row.sentence[:60]!r})")
        for dotted in row.code:
            module_name, *attrs = dotted.split(".")
            try:
                obj = importlib.import_module(f"{package}.{module_name}")
            except ModuleNotFoundError:
                problems.append(f"line {row.line}: no module {package}.{module_name}")
                continue
            for attr in attrs:
                if not hasattr(obj, attr):
                    problems.append(f"line {row.line}: {package}.{dotted} does not exist")
                    break
                obj = getattr(obj, attr)
    return problems


def rows_citing_files(rows: list[TraceRow]) -> list[str]:
    """Rows whose sentence cell cites a file (users have the rulebooks, not our copies of
    them): cite the rulebook's title and section instead."""
    return [f"line {row.line}: {row.sentence[:60]!r}" for row in rows
            if re.search(r"\.(txt|md|py|pdf)\b", row.sentence)]
