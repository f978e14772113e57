"""docs/chickwood.md stays honest: its tables that users rely on (action ids and formulas,
kinds, the observation layout by player count, component data, rounds) match the code, and
its rules trace names only tests and code that exist. (tests/test_docs.py checks what every
game's doc has: options, action blocks, observation blocks, sizes.)

When a test here fails after an intended code change, regenerate the table (the failure
message prints the expected rows where practical) rather than loosening the test."""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

import pytest
from doc_tables import DASHES, doc_table, id_range
from trace_table import missing_code, missing_tests, rows_citing_files, section_lines, trace_rows

from forest_envs.chickwood import actions as A
from forest_envs.chickwood.components import (
    CASTLE_CAPACITY,
    CASTLE_CARDS,
    DAY_BANNERS,
    KIND_NAMES,
    LOOT_COUNTS,
    NIGHT_BANNERS,
    VILLAGES,
    deck_composition,
    hand_size,
)
from forest_envs.chickwood.rules import ChickwoodGame

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


# --- docs/chickwood.md: actions -----------------------------------------------------------

# How each block's index maps to the variables of the documented formula (castles c and
# spaces s and opponents r are counted from 1 in the docs, from 0 in the block index).
FORMULA_VARIABLES = {
    "PLAY": lambda k, c: {"k": k, "c": c + 1},
    "SPY": lambda c: {"c": c + 1},
    "RAID": lambda c: {"c": c + 1},
    "ALMS": lambda cell: {"cell": cell},
    "ENT_PICK": lambda cell, s: {"cell": cell, "s": s + 1},
    "ARROW_GIVE": lambda t: {"t": t},
    "ARROW_TAKE": lambda r, t: {"r": r + 1, "t": t},
    "BEARD_GIVE": lambda r: {"r": r + 1},
}


def test_action_table_formulas_give_every_id_of_their_block():
    """Evaluate each documented formula on every index of its block."""
    rows = {r["constant"]: r["formula"] for r in doc_table(DOC, "actions")}
    for const, formula in rows.items():
        block = getattr(A, const)
        variables = FORMULA_VARIABLES.get(const, lambda: {})
        for a in range(block.start, block.stop):
            kw = variables(*block.index(a))
            got = int(eval(formula, {"__builtins__": {}}, kw))  # formulas are tiny arithmetic
            assert got == a, f"{const}: {formula} with {kw} gives {got}, the id is {a}"


def test_action_table_index_column_gives_every_id_through_the_block():
    """The index column is what ``block.id(*index)`` takes, in the formula's variables."""
    rows = {r["constant"]: r["index"] for r in doc_table(DOC, "actions")}
    for const, index_text in rows.items():
        block = getattr(A, const)
        variables = FORMULA_VARIABLES.get(const, lambda: {})
        for a in range(block.start, block.stop):
            index = tuple(eval(index_text, {"__builtins__": {}}, variables(*block.index(a))))
            assert block.id(*index) == a, f"{const}: index {index_text} gives {index}, not id {a}"


def test_action_table_formulas_give_the_named_actions():
    """Evaluate each documented formula on sample arguments and compare with the names."""
    rows = {r["constant"]: r["formula"] for r in doc_table(DOC, "actions")}
    names = A.SPACE.names

    def ev(const: str, **kw) -> int:
        return int(eval(rows[const], {"__builtins__": {}}, kw))  # formulas are tiny arithmetic

    assert names[ev("PLAY", k=7, c=4)] == f"play {KIND_NAMES[7]} to castle 4"
    assert names[ev("PLAY", k=21, c=6)] == f"play {KIND_NAMES[21]} to castle 6"
    assert names[ev("SPY", c=5)] == "spy castle 5"
    assert names[ev("RAID", c=3)] == "raid castle 3"
    assert names[ev("ALMS", cell=(2 - 1) * 3 + (3 - 1))] == "alms r2c3"
    assert names[ev("ENT_PICK", cell=8, s=7)] == "entertainers: alms r3c3 space 7"
    assert names[ev("ARROW_GIVE", t=10)] == f"golden arrow: give {KIND_NAMES[10]}"
    assert names[ev("ARROW_TAKE", r=3, t=5)] == f"golden arrow: take {KIND_NAMES[5]} from +3"
    assert names[ev("BEARD_GIVE", r=4)] == "fake beard: give henchman to +4"


def test_kind_table_matches_kind_names():
    rows = doc_table(DOC, "kinds")
    assert [(int(r["k"]), r["kind"]) for r in rows] == list(enumerate(KIND_NAMES))


# --- docs/chickwood.md: observation ----------------------------------------------------------

def _seat_axes(block) -> tuple[int, ...]:
    """The seat axes of the block's shape as the observer sees it."""
    return tuple(ax - 1 for ax in block.seats) if block.see == "owner" else block.seats


def _axes_text(axes: tuple[int, ...]) -> str:
    return ", ".join(map(str, axes)) if axes else "–"


def _range_text(lo: int, hi_by_n: dict[int, int]) -> str:
    his = set(hi_by_n.values())
    if len(his) == 1:
        return f"{lo}–{his.pop()}"
    # the only player-count dependent bound: others' face-down cards, 4 per opponent
    assert all(hi == 4 * (n - 1) for n, hi in hi_by_n.items()), hi_by_n
    return f"{lo}–4*(n-1)"


def _expected_observation_rows(n: int = 3) -> str:
    layout = ChickwoodGame(num_players=n).layout
    layouts = {m: ChickwoodGame(num_players=m).layout for m in (2, 3, 4, 5)}
    out = []
    for name, (a, b, shape) in layout.observation_slices().items():
        block = layout.blocks[name]
        dims = ", ".join("n" if d == n else str(d) for d in shape)
        dims = f"({dims},)" if len(shape) == 1 else f"({dims})"
        rng = _range_text(block.low, {m: lay.blocks[name].high for m, lay in layouts.items()})
        out.append(f"| `{name}` | {a}–{b - 1} | {dims} | "
                   f"{Fraction(block.scale).limit_denominator(1000)} | {block.see} | "
                   f"{_axes_text(_seat_axes(block))} | {rng} | ... |")
    return "\n".join(out)


def _shape(text: str, n: int) -> tuple[int, ...]:
    dims = [d.strip() for d in text.strip().strip("()").split(",") if d.strip()]
    return tuple(n if d == "n" else int(d) for d in dims)


def test_observation_table_matches_the_three_player_layout():
    rows = doc_table(DOC, "observation")
    layout = ChickwoodGame(num_players=3).layout
    slices = layout.observation_slices()
    documented = [r["block"] for r in rows]
    assert documented == list(slices), (
        "observation blocks differ from layout.observation_slices(); expected rows:\n"
        + _expected_observation_rows())
    for r in rows:
        start, stop, _ = slices[r["block"]]
        assert id_range(r["offsets (3 players)"]) == (start, stop - 1), (
            f"{r['block']}: offsets; expected rows:\n" + _expected_observation_rows())
        block = layout.blocks[r["block"]]
        assert r["see"] == block.see, r["block"]
        assert r["seat axes"] == _axes_text(_seat_axes(block)), r["block"]
        assert float(Fraction(r["scale"])) == pytest.approx(block.scale), r["block"]


def test_the_standard_decision_blocks_come_first():
    rows = doc_table(DOC, "observation")
    assert [r["block"] for r in rows[:5]] == ["turn_seat", "decision_kind", "decision_player",
                                              "decision_data", "decision_seat"]


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_observation_shapes_and_ranges_in_n_hold_for_every_player_count(n):
    rows = doc_table(DOC, "observation")
    layout = ChickwoodGame(num_players=n).layout
    slices = layout.observation_slices()
    for r in rows:
        assert _shape(r["shape"], n) == tuple(slices[r["block"]][2]), r["block"]
        parts = re.split(f"[{DASHES}]", r["range"], maxsplit=1)
        lo, hi = (int(eval(p, {"__builtins__": {}}, {"n": n})) for p in parts)
        block = layout.blocks[r["block"]]
        assert (lo, hi) == (block.low, block.high), (r["block"], n)


# --- docs/chickwood.md: component data --------------------------------------------------------

def test_loot_table_matches_components():
    rows = doc_table(DOC, "loot")
    assert [int(r["k"]) for r in rows] == sorted(LOOT_COUNTS)
    by_n = {n: deck_composition(n, legendary=False) for n in (2, 3, 4, 5)}
    for r in rows:
        k = int(r["k"])
        c = LOOT_COUNTS[k]
        assert r["kind"] == KIND_NAMES[k]
        assert (int(r["in the box"]), int(r["5-player symbol"]), int(r["2-player symbol"])) == (
            c.total, c.five_player, c.two_player), r["kind"]
        assert int(r["2 players"]) == by_n[2][k], r["kind"]
        assert int(r["3–4 players"]) == by_n[3][k] == by_n[4][k], r["kind"]
        assert int(r["5 players"]) == by_n[5][k], r["kind"]


def test_rounds_table_matches_deck_sizes():
    rows = doc_table(DOC, "rounds")
    assert len(rows) == 8
    for r in rows:
        n, legendary = int(r["players"]), {"yes": True, "no": False}[r["legendary"]]
        deck = sum(deck_composition(n, legendary))
        per_round = n * hand_size(n)
        assert (int(r["deck"]), int(r["cards per round"]), int(r["rounds"]), int(r["never dealt"])) == (
            deck, per_round, deck // per_round, deck % per_round), r


def test_rounds_table_matches_played_games():
    """The number of rounds really played equals the documented one."""
    import numpy as np

    from forest_envs.chickwood.rules import new_game

    for r in doc_table(DOC, "rounds"):
        state = new_game({"num_players": int(r["players"]), "legendary": r["legendary"] == "yes"}, 0)
        rng = np.random.default_rng(0)
        while not state.is_terminal:
            state.apply(int(rng.choice(state.legal_actions())))
        assert int(state.round_no[0]) == int(r["rounds"]), r


def test_castle_table_matches_components():
    rows = doc_table(DOC, "castles")
    assert [int(r["value"]) for r in rows] == sorted(CASTLE_CARDS)
    for r in rows:
        v = int(r["value"])
        assert int(r["cards"]) == CASTLE_CARDS[v]
        assert r["Day banner"] == DAY_BANNERS[v]
        night = r["Night banner"]
        assert (None if night in DASHES else night) == NIGHT_BANNERS.get(v), v
        cap = r["capacity"]
        assert (None if cap == "any" else int(cap)) == CASTLE_CAPACITY.get(v), v
    assert sum(int(r["cards"]) for r in rows) == 50


def test_village_table_matches_components():
    rows = doc_table(DOC, "villages")
    assert len(rows) == len(VILLAGES)
    for r, v in zip(rows, VILLAGES):
        assert r["village"] == v.name
        documented = []
        for part in r["rows (spaces:glory, top first)"].split(","):
            spaces, glory = part.strip().split(":")
            documented.append((int(spaces), None if glory in DASHES else int(glory)))
        assert tuple(documented) == v.rows, v.name
        assert int(r["spaces"]) == v.spaces, v.name
        assert {"yes": True, "no": False}[r["2-player symbol"]] == v.two_player, v.name
