"""docs/sherwood.md's generated tables (observation ranges, travellers, routes) must match
the code; regenerate them rather than loosening these tests. (tests/test_docs.py checks the
action, option, observation and sizes tables of every game's doc.)"""

from __future__ import annotations

import re
from pathlib import Path

from forest_envs.sherwood.components import AMBUSHES, CARDS, ROUTES, TOWNS
from forest_envs.sherwood.rules import SherwoodGame

DOC = Path(__file__).resolve().parents[2] / "docs" / "sherwood.md"


def table(name: str) -> list[dict[str, str]]:
    lines = DOC.read_text(encoding="utf-8").splitlines()
    start = [ln.strip() for ln in lines].index(f"<!-- table:{name} -->") + 1
    rows = []
    for ln in lines[start:]:
        if not ln.startswith("|"):
            break
        rows.append([c.strip().replace("`", "") for c in ln.strip().strip("|").split("|")])
    header = rows[0]
    return [dict(zip(header, r)) for r in rows[2:]]


def test_observation_table_ranges():
    layout = SherwoodGame(num_players=3).layout
    for r in table("observation"):
        b = layout.blocks[r["block"]]
        lo, hi = re.split("–", r["range"])
        assert int(lo) == b.low and (hi == "n" or int(hi) == b.high), b.name


def test_traveller_and_route_tables():
    rows = table("travellers")
    assert len(rows) == len(CARDS)
    for r, c in zip(rows, CARDS):
        assert (r["deck"], int(r["strength"]), int(r["fame"]), int(r["gold"]), int(r["comrades"])) == (
            c.deck, c.strength, c.fame, c.gold, c.comrades)
        assert r["route"] == f"{TOWNS[c.origin]} → {TOWNS[c.destination]}"
    routes = table("routes")
    assert len(routes) == len(ROUTES)
    for r, ((o, d), amb) in zip(routes, ROUTES.items()):
        assert r["route"] == f"{TOWNS[o]} → {TOWNS[d]}"
        assert r["ambushes passed, in order"] == ", ".join(AMBUSHES[a] for a in amb)


def test_rules_trace_names_code_and_tests_that_exist():
    """Every function in the trace's "enforced by" column exists in the module it names
    (``rules.prepare._mask_prep``: a method of a class defined in
    ``forest_envs/sherwood/rules/prepare.py``), and every test in "tested by" is defined in
    its file."""
    import importlib

    rows = table("trace")
    assert len(rows) >= 50
    here = Path(__file__).resolve().parent
    for r in rows:
        for path, name in re.findall(r"([a-z_]+(?:\.[a-z_]+)*)\.([A-Za-z_]+)", r["enforced by"]):
            module = importlib.import_module(f"forest_envs.sherwood.{path}")
            classes = [c for c in vars(module).values()
                       if isinstance(c, type) and c.__module__ == module.__name__]
            assert hasattr(module, name) or any(name in vars(c) for c in classes), (
                r["sentence"], path, name)
        tests = re.findall(r"(test_[a-z_]+\.py)::(test_[a-z0-9_]+)", r["tested by"])
        assert tests or r["tested by"] == "–" and r["enforced by"] == "–", r["sentence"]
        for file, name in tests:
            assert f"def {name}(" in (here / file).read_text(encoding="utf-8"), (file, name)
