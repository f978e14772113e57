"""docs/roundforest.md stays honest: its item split matches the component data, and its
rules trace names only code and tests that exist. (tests/test_docs.py checks the action,
option and observation tables of every game's doc.)"""

from __future__ import annotations

import re
from pathlib import Path

from forest_envs.roundforest.components import ITEM_COUNTS, ITEM_NAMES

DOC = Path(__file__).resolve().parents[2] / "docs" / "roundforest.md"


def table(marker: str) -> list[list[str]]:
    lines = DOC.read_text(encoding="utf-8").splitlines()
    start = [ln.strip() for ln in lines].index(f"<!-- table:{marker} -->") + 1
    rows = []
    for ln in lines[start:]:
        if not ln.strip().startswith("|"):
            if rows:
                break
            continue
        rows.append([c.strip().replace("`", "") for c in ln.strip().strip("|").split("|")])
    return rows[2:]


def test_item_kind_indices_and_counts_are_documented():
    text = " ".join(DOC.read_text(encoding="utf-8").split())
    for k, name in enumerate(ITEM_NAMES):
        assert f"{k} {name}" in text
    assert sum(ITEM_COUNTS) == 39 and "(39; split reconstructed)" in text


def test_rules_trace_names_only_code_and_tests_that_exist():
    """Each row of the rules trace names the code that enforces a rulebook sentence and a
    test that fails when it breaks; a renamed or deleted one makes this fail, so the table
    cannot go stale."""
    from forest_envs.roundforest import components, rules

    rows = table("trace")
    assert len(rows) >= 60
    here = Path(__file__).resolve().parent
    for section, sentence, code, test in rows:
        assert section and sentence, (section, sentence)
        names = re.findall(r"\b(rules|components)\.(\w+)", code)
        assert names, code
        for module, name in names:
            owner = (rules.RoundforestState, rules) if module == "rules" else (components,)
            assert any(hasattr(o, name) for o in owner), f"{module}.{name} does not exist"
        path, _, func = test.partition("::")
        assert re.search(rf"^def {func}\(", (here / path).read_text(encoding="utf-8"), re.M), test
