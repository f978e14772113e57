"""docs/sherwood.md's generated tables (actions, observation, sizes, travellers, routes)
must match the code; regenerate them rather than loosening these tests."""

from __future__ import annotations

import re
from pathlib import Path

from forest_envs.sherwood import actions as A
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


def test_action_table():
    rows = table("actions")
    blocks = list(A.SPACE.blocks.values())
    assert [r["block"] for r in rows] == [b.name for b in blocks]
    for r, b in zip(rows, blocks):
        ids = [int(x) for x in re.split("[–-]", r["ids"])]
        assert (ids[0], ids[-1]) == (b.start, b.stop - 1), b.name
        assert r["first name"] == A.SPACE.names[b.start]


def test_observation_table_and_sizes():
    layout = SherwoodGame(num_players=3).layout
    rows = table("observation")
    assert [r["block"] for r in rows] == list(layout.blocks)
    for r in rows:
        b = layout.blocks[r["block"]]
        assert r["see"] == b.see, b.name
        lo, hi = re.split("–", r["range"])
        assert int(lo) == b.low and (hi == "n" or int(hi) == b.high), b.name
    for r in table("sizes"):
        g = SherwoodGame(num_players=int(r["players"]))
        assert (int(r["observation"]), int(r["state"]), int(r["actions"])) == (
            g.observation_size, g.state_size, g.num_actions)


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
