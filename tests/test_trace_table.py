"""tests/trace_table.py, the reader of the games' rules-trace tables, on small documents:
what it accepts, and that each kind of stale or broken table is reported."""

from __future__ import annotations

from pathlib import Path

import pytest
from trace_table import (
    TRACE_COLUMNS,
    missing_code,
    missing_tests,
    named_tests,
    rows_citing_files,
    trace_rows,
)

ROOT = Path(__file__).resolve().parents[1]
HEADER = "| sentence (section) | kind | enforced by | test |\n| --- | --- | --- | --- |\n"
HERE = "tests/test_trace_table.py"


def doc(tmp_path: Path, rows: str, header: str = HEADER, after: str = "") -> Path:
    path = tmp_path / "game.md"
    path.write_text(f"# Game\n\n## Rules trace\n\nIntro.\n\n{header}{rows}\nText.\n\n"
                    f"| other | table |\n| --- | --- |\n| a | b |\n\n## Next\n{after}",
                    encoding="utf-8")
    return path


def test_reads_the_rows_of_the_sections_first_table(tmp_path):
    path = doc(tmp_path, f'| "You may x \\| y." (EN \'A\') | may | `core.game.Game` | '
                         f"{HERE}::test_reads_the_rows_of_the_sections_first_table; "
                         f"{HERE}::test_named_tests_finds_node_ids[2] |\n")
    (row,) = trace_rows(path, "Rules trace")
    assert TRACE_COLUMNS == ("sentence (section)", "kind", "enforced by", "test")
    assert row.line == 9 and row.sentence == "\"You may x | y.\" (EN 'A')" and row.kind == "may"
    assert row.code == ("core.game.Game",)
    assert row.tests == (f"{HERE}::test_reads_the_rows_of_the_sections_first_table",
                         f"{HERE}::test_named_tests_finds_node_ids")
    assert missing_tests([row], ROOT) == []
    assert missing_code([row], "forest_envs") == []


@pytest.mark.parametrize("n", [2])
def test_named_tests_finds_node_ids(n):
    cell = "tests/a/test_b.py::test_c[x-1]; see tests/test_d.py::TestE::test_f and prose"
    assert named_tests(cell) == ("tests/a/test_b.py::test_c", "tests/test_d.py::TestE::test_f")
    assert named_tests("no test here") == ()


def test_reports_missing_and_misnamed_tests(tmp_path):
    path = doc(tmp_path, f"| a (EN 'A') | must | `core.game.Game` | {HERE}::test_gone |\n"
                         f"| b | must | `core.game.Game` | none yet |\n"
                         f"| c (EN 'C') | must | `core.game.Game` | tests/engine_helpers.py::act |\n"
                         f"| d (EN 'D') | must | `core.game.Game` | tests/test_nothing.py::test_x |\n")
    problems = missing_tests(trace_rows(path, "Rules trace"), ROOT)
    assert problems == [f"line 9: {HERE}::test_gone does not exist",
                        "line 10: names no test ('b')",
                        "line 11: tests/engine_helpers.py is not a test file",
                        "line 12: tests/test_nothing.py is not a test file"]


def test_reports_missing_code(tmp_path):
    path = doc(tmp_path, f"| a (EN 'A') | must | `core.game.Game.no_such` | {HERE}::test_x |\n"
                         f"| b (EN 'B') | must | `nomodule.f` | {HERE}::test_x |\n"
                         f"| c | must | prose only | {HERE}::test_x |\n")
    assert missing_code(trace_rows(path, "Rules trace"), "forest_envs") == [
        "line 9: forest_envs.core.game.Game.no_such does not exist",
        "line 10: no module forest_envs.nomodule",
        "line 11: names no code in backticks ('c')"]


def test_reports_rows_citing_a_file(tmp_path):
    path = doc(tmp_path, f"| a (rules/game_en.txt) | must | `core.game.Game` | {HERE}::test_x |\n"
                         f"| b (EN 'Day/Night') | must | `core.game.Game` | {HERE}::test_x |\n")
    assert rows_citing_files(trace_rows(path, "Rules trace")) == ["line 9: 'a (rules/game_en.txt)'"]


@pytest.mark.parametrize("header, rows, message", [
    ("| sentence | kind | code | test |\n| --- | --- | --- | --- |\n", "| a | b | c | d |\n", "columns are"),
    (HEADER, "| a | b | c |\n", "3 cells, expected 4"),
    (HEADER, "", "no table with at least one row"),
])
def test_refuses_a_malformed_table(tmp_path, header, rows, message):
    with pytest.raises(ValueError, match=message):
        trace_rows(doc(tmp_path, rows, header=header), "Rules trace")


def test_refuses_a_missing_or_repeated_section(tmp_path):
    path = doc(tmp_path, f"| a | b | c | {HERE}::test_x |\n")
    with pytest.raises(ValueError, match="expected one '## Rules trail' heading, found 0"):
        trace_rows(path, "Rules trail")
    twice = doc(tmp_path, f"| a | b | c | {HERE}::test_x |\n", after="## Rules trace\n")
    with pytest.raises(ValueError, match="found 2"):
        trace_rows(twice, "Rules trace")
