"""Keep the documentation honest: the tables in docs/chickwood.md that users rely on (action
ids, observation layout, component data) must match the code, and README.md must name every
environment.

Each checked table in a doc follows a ``<!-- table:NAME -->`` marker line. When a test here
fails after an intended code change, regenerate the table (the failure message prints the
expected rows where practical) rather than loosening the test.
"""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

import pytest

import forest_envs
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
from forest_envs.core.registry import game_spec

ROOT = Path(__file__).resolve().parents[1]
CHICKWOOD_MD = ROOT / "docs" / "chickwood.md"
ARCHITECTURE_MD = ROOT / "docs" / "architecture.md"
README = ROOT / "README.md"
DASHES = "–—-"


def doc_table(path: Path, name: str) -> list[dict[str, str]]:
    """Rows (header -> cell text, backticks stripped) of the table after the marker."""
    lines = path.read_text(encoding="utf-8").splitlines()
    marker = f"<!-- table:{name} -->"
    assert marker in [ln.strip() for ln in lines], f"{path.name} has no {marker} marker"
    start = [ln.strip() for ln in lines].index(marker) + 1
    block = []
    for ln in lines[start:]:
        if not ln.strip().startswith("|"):
            if block:
                break
            continue
        block.append(ln.strip())
    assert len(block) >= 3, f"table {name} in {path.name} is empty"

    def cells(line: str) -> list[str]:
        return [c.strip().replace("`", "") for c in line.strip().strip("|").split("|")]

    header = cells(block[0])
    assert set(block[1].replace("|", "").replace(" ", "")) <= set("-:"), block[1]
    rows = []
    for line in block[2:]:
        row = cells(line)
        assert len(row) == len(header), f"table {name}: {line!r} has {len(row)} cells"
        rows.append(dict(zip(header, row)))
    return rows


def id_range(text: str) -> tuple[int, int]:
    """'0–131' -> (0, 131); '144' -> (144, 144)."""
    parts = re.split(f"[{DASHES}]", text)
    lo, hi = int(parts[0]), int(parts[-1])
    return lo, hi


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


def test_action_table_lists_the_action_space_blocks_in_order():
    rows = doc_table(CHICKWOOD_MD, "actions")
    blocks = list(A.SPACE.blocks.values())
    assert [r["block"] for r in rows] == [b.name for b in blocks], (
        "the action table must have one row per ActionSpace block, in order:\n"
        + "\n".join(f"| {b.start}–{b.stop - 1} | {b.name} | ... |" for b in blocks))
    names = A.SPACE.names
    for row, block in zip(rows, blocks):
        const = row["constant"]
        assert getattr(A, const) is block, f"actions.{const} is not the {block.name!r} block"
        assert id_range(row["ids"]) == (block.start, block.stop - 1), (
            f"{block.name}: ids are {block.start}–{block.stop - 1}, doc says {row['ids']}")
        assert names[block.start] == row["first name"], f"id {block.start} is named {names[block.start]!r}"
    assert blocks[0].start == 0 and all(a.stop == b.start for a, b in zip(blocks, blocks[1:]))
    assert blocks[-1].stop == A.NUM_ACTIONS == A.SPACE.size == len(names)


def test_action_table_decisions_are_the_engine_decisions():
    """The decision column names the decision kinds (observation.DECISIONS) whose mask can
    hold the block's ids."""
    from forest_envs.chickwood.observation import DECISIONS

    kinds = {k.name for k in DECISIONS}
    for row in doc_table(CHICKWOOD_MD, "actions"):
        documented = {d.strip() for d in row["decision"].split("/")}
        assert documented <= kinds, f"{row['block']}: unknown decision in {row['decision']!r}"


def test_action_table_formulas_give_every_id_of_their_block():
    """Evaluate each documented formula on every index of its block."""
    rows = {r["constant"]: r["formula"] for r in doc_table(CHICKWOOD_MD, "actions")}
    for const, formula in rows.items():
        block = getattr(A, const)
        variables = FORMULA_VARIABLES.get(const, lambda: {})
        for a in range(block.start, block.stop):
            kw = variables(*block.index(a))
            got = int(eval(formula, {"__builtins__": {}}, kw))  # formulas are tiny arithmetic
            assert got == a, f"{const}: {formula} with {kw} gives {got}, the id is {a}"


def test_action_table_index_column_gives_every_id_through_the_block():
    """The index column is what ``block.id(*index)`` takes, in the formula's variables."""
    rows = {r["constant"]: r["index"] for r in doc_table(CHICKWOOD_MD, "actions")}
    for const, index_text in rows.items():
        block = getattr(A, const)
        variables = FORMULA_VARIABLES.get(const, lambda: {})
        for a in range(block.start, block.stop):
            index = tuple(eval(index_text, {"__builtins__": {}}, variables(*block.index(a))))
            assert block.id(*index) == a, f"{const}: index {index_text} gives {index}, not id {a}"


def test_action_table_formulas_give_the_named_actions():
    """Evaluate each documented formula on sample arguments and compare with the names."""
    rows = {r["constant"]: r["formula"] for r in doc_table(CHICKWOOD_MD, "actions")}
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
    rows = doc_table(CHICKWOOD_MD, "kinds")
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
    rows = doc_table(CHICKWOOD_MD, "observation")
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
    rows = doc_table(CHICKWOOD_MD, "observation")
    assert [r["block"] for r in rows[:5]] == ["turn_seat", "decision_kind", "decision_player",
                                              "decision_data", "decision_seat"]


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_observation_shapes_and_ranges_in_n_hold_for_every_player_count(n):
    rows = doc_table(CHICKWOOD_MD, "observation")
    layout = ChickwoodGame(num_players=n).layout
    slices = layout.observation_slices()
    for r in rows:
        assert _shape(r["shape"], n) == tuple(slices[r["block"]][2]), r["block"]
        parts = re.split(f"[{DASHES}]", r["range"], maxsplit=1)
        lo, hi = (int(eval(p, {"__builtins__": {}}, {"n": n})) for p in parts)
        block = layout.blocks[r["block"]]
        assert (lo, hi) == (block.low, block.high), (r["block"], n)


def test_observation_and_state_sizes_per_player_count():
    rows = doc_table(CHICKWOOD_MD, "sizes")
    assert [int(r["players"]) for r in rows] == [2, 3, 4, 5]
    for r in rows:
        game = ChickwoodGame(num_players=int(r["players"]))
        assert int(r["observation"]) == game.observation_size, r
        assert int(r["state"]) == game.state_size, r


# --- docs/chickwood.md: component data --------------------------------------------------------

def test_loot_table_matches_components():
    rows = doc_table(CHICKWOOD_MD, "loot")
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
    rows = doc_table(CHICKWOOD_MD, "rounds")
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

    for r in doc_table(CHICKWOOD_MD, "rounds"):
        state = new_game({"num_players": int(r["players"]), "legendary": r["legendary"] == "yes"}, 0)
        rng = np.random.default_rng(0)
        while not state.is_terminal:
            state.apply(int(rng.choice(state.legal_actions())))
        assert int(state.round_no[0]) == int(r["rounds"]), r


def test_castle_table_matches_components():
    rows = doc_table(CHICKWOOD_MD, "castles")
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
    rows = doc_table(CHICKWOOD_MD, "villages")
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


# --- README.md and architecture.md ------------------------------------------------------------

def test_readme_names_every_env_id():
    text = README.read_text(encoding="utf-8")
    for env_id in forest_envs.ENV_IDS:
        assert f"`{env_id}`" in text, f"README.md does not mention {env_id}"


@pytest.mark.parametrize("env_id", forest_envs.ENV_IDS)
def test_readme_env_row_states_the_real_sizes(env_id):
    """Each game's row in README's env table gives its action count and the observation
    sizes at its smallest and largest player count, as the code builds them."""
    row = next((ln for ln in README.read_text(encoding="utf-8").splitlines()
                if ln.startswith(f"| `{env_id}`")), None)
    assert row is not None, f"README.md has no env table row for {env_id}"
    game_class = game_spec(env_id).game_class
    counts = sorted({cfg["num_players"] for cfg in game_class.all_configs()})
    small, large = game_class(num_players=counts[0]), game_class(num_players=counts[-1])
    assert f"| {small.num_actions} |" in row, f"README: {env_id} has {small.num_actions} actions"
    m = re.search(rf"(\d+) \({counts[0]}p\) to (\d+) \({counts[-1]}p\)", row)
    assert m, (f"README: {env_id}'s observation column should read "
               f"'N ({counts[0]}p) to M ({counts[-1]}p) floats'")
    assert (int(m.group(1)), int(m.group(2))) == (small.observation_size, large.observation_size), (
        f"README: {env_id}'s observation sizes are {small.observation_size} ({counts[0]}p) "
        f"to {large.observation_size} ({counts[-1]}p)")


@pytest.mark.parametrize("path", [CHICKWOOD_MD, ARCHITECTURE_MD], ids=lambda p: p.name)
def test_source_paths_named_in_docs_exist(path):
    text = path.read_text(encoding="utf-8")
    named = set(re.findall(r"(?<![\w/])((?:forest_envs|tests)/[\w/]+\.py)", text))
    assert named, f"{path.name} names no source file"
    missing = sorted(p for p in named if not (ROOT / p).exists())
    assert not missing, f"{path.name} names files that do not exist: {missing}"


@pytest.mark.parametrize("path", sorted((ROOT / "docs").glob("*.md")) + [README, ROOT / "CHANGELOG.md"],
                         ids=lambda p: p.name)
def test_docs_cite_rulebooks_by_title_never_by_a_path_users_do_not_have(path):
    """Users have the package and its docs, not the folder the rulebook texts came in: a
    rulebook is cited by its title and section."""
    text = path.read_text(encoding="utf-8")
    found = re.findall(r"/work/\S*|\b\w+_(?:en|de)\.txt\b|\brules README\b", text)
    assert not found, f"{path.name} cites files users do not have: {found}"
