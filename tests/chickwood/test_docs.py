"""docs/chickwood.md's rules trace stays honest: every test and every piece of code it names
exists, so renaming or deleting one fails here until the table follows.

(The other checked tables of docs/chickwood.md are in tests/test_docs.py.)"""

from __future__ import annotations

from pathlib import Path

from trace_table import missing_code, missing_tests, rows_citing_files, section_lines, trace_rows

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "chickwood.md"
SECTION = "Rules trace"


def test_rules_trace_names_only_tests_that_exist():
    rows = trace_rows(DOC, SECTION)
    assert len(rows) >= 40
    assert missing_tests(rows, ROOT) == []


def test_rules_trace_names_only_code_that_exists():
    assert missing_code(trace_rows(DOC, SECTION), "forest_envs.chickwood") == []


def test_rules_trace_cites_rulebooks_by_section_not_by_file():
    rows = trace_rows(DOC, SECTION)
    assert rows_citing_files(rows) == []
    assert all("(EN '" in row.sentence or "(DE" in row.sentence for row in rows), [
        row.line for row in rows if "(EN '" not in row.sentence and "(DE" not in row.sentence]


def test_rules_trace_names_every_new_trace_test():
    """Each test of test_rules_trace.py was written for a sentence of the table."""
    from trace_table import defined_tests

    named = {node.split("::", 1)[1] for row in trace_rows(DOC, SECTION) for node in row.tests
             if node.startswith("tests/chickwood/test_rules_trace.py::")}
    assert named == set(defined_tests(ROOT / "tests" / "chickwood" / "test_rules_trace.py"))


def test_rules_trace_comes_just_before_the_assumptions():
    headings = [ln for ln in DOC.read_text(encoding="utf-8").splitlines() if ln.startswith("## ")]
    at = headings.index(f"## {SECTION}")
    assert headings[at + 1] == "## Assumptions and interpretations"
    assert section_lines(DOC, SECTION)[0][0] > 1
