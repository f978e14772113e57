"""Keep the documentation honest, for every registered game with a doc (``docs/<game>.md``):
its options table gives each option's values and default, its action table (after
``<!-- table:actions -->``) lists the action space's blocks in id order with their ids,
constants and first names (and, where it has a decision column, real decision kinds), its
observation table names the layout's blocks in order with who sees each, and its sizes
table (where it has one) the real sizes. README.md names every environment with its sizes;
no doc names a source file that does not exist or cites a file users do not have.

A game's own tables (component data, formulas, rules trace) are checked in
tests/<game>/test_docs.py. When a test fails after an intended code change, regenerate the
table rather than loosening the test.
"""

from __future__ import annotations

import fnmatch
import importlib
import re
from pathlib import Path

import pytest
from doc_tables import doc_table, has_table, id_range, table_with_header
from fuzz_invariants import game_name

import forest_envs
from forest_envs.core.registry import env_ids, game_spec

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
# every registered game with a doc (the toy game of the tests has none)
DOCUMENTED = [e for e in env_ids() if (ROOT / "docs" / f"{game_name(e)}.md").is_file()]


def doc_of(env_id: str) -> Path:
    return ROOT / "docs" / f"{game_name(env_id)}.md"


def game_class(env_id: str):
    return game_spec(env_id).game_class


# --- every game's doc --------------------------------------------------------------------------
@pytest.mark.parametrize("env_id", DOCUMENTED)
def test_options_table_gives_every_option_its_values_and_default(env_id):
    rows = {r["option"]: r for r in table_with_header(doc_of(env_id), "option", "values", "default")}
    options = game_class(env_id).options
    assert set(options) <= set(rows), f"options not documented: {sorted(set(options) - set(rows))}"
    for name, option in options.items():
        if option.choices is not None:
            assert rows[name]["values"] == ", ".join(map(str, option.choices)), name
        assert rows[name]["default"] == str(option.default), name


@pytest.mark.parametrize("env_id", DOCUMENTED)
def test_action_table_lists_the_action_space_blocks_in_order(env_id):
    space = game_class(env_id).action_space
    actions = importlib.import_module(f"forest_envs.{game_name(env_id)}.actions")
    rows = doc_table(doc_of(env_id), "actions")
    blocks = list(space.blocks.values())
    assert [r["block"] for r in rows] == [b.name for b in blocks], (
        "the action table must have one row per ActionSpace block, in order:\n"
        + "\n".join(f"| {b.start}–{b.stop - 1} | {b.name} | ... |" for b in blocks))
    for row, block in zip(rows, blocks):
        assert id_range(row["ids"]) == (block.start, block.stop - 1), (
            f"{block.name}: ids are {block.start}–{block.stop - 1}, the doc says {row['ids']}")
        assert getattr(actions, row["constant"], None) is block, (
            f"actions.{row['constant']} is not the {block.name!r} block")
        first = space.names[block.start]
        assert row["first name"] == first, f"id {block.start} is named {first!r}"


@pytest.mark.parametrize("env_id", DOCUMENTED)
def test_action_table_decisions_are_the_engine_decisions(env_id):
    """A decision column names decision kinds whose mask can hold the block's ids."""
    rows = doc_table(doc_of(env_id), "actions")
    if "decision" not in rows[0]:
        pytest.skip("the action table has no decision column")
    kinds = {k.name for k in game_class(env_id).state_class.DECISIONS}
    for row in rows:
        documented = {d.strip() for d in re.split(r"[/,]", row["decision"]) if d.strip()}
        assert documented and documented <= kinds, f"{row['block']}: {row['decision']!r}"


@pytest.mark.parametrize("env_id", DOCUMENTED)
def test_observation_table_names_the_layout_blocks_in_order_and_who_sees_them(env_id):
    """Each row names one block or several (``a``, ``b``; ``decision_*``), in layout order;
    its see column starts with the blocks' visibility (all / owner)."""
    layout = game_class(env_id)(num_players=game_class(env_id).options["num_players"].default).layout
    names = list(layout.blocks)
    documented = []
    for row in doc_table(doc_of(env_id), "observation"):
        for pattern in (p.strip() for p in row["block"].split(",")):
            found = [b for b in names if fnmatch.fnmatchcase(b, pattern)]
            assert found, f"{pattern!r} names no block of the layout"
            for b in found:
                assert row["see"].split(",")[0].strip() == layout.blocks[b].see, b
            documented += found
    assert documented == names, ("observation blocks differ from the layout's, in order:\n"
                                 + "\n".join(names))


@pytest.mark.parametrize("env_id", DOCUMENTED)
def test_sizes_table_states_the_real_sizes(env_id):
    if not has_table(doc_of(env_id), "sizes"):
        pytest.skip("the doc has no sizes table")
    counts = game_class(env_id).options["num_players"].choices
    rows = doc_table(doc_of(env_id), "sizes")
    assert [int(r["players"]) for r in rows] == list(counts)
    for r in rows:
        game = game_class(env_id)(num_players=int(r["players"]))
        real = {"observation": game.observation_size, "state": game.state_size,
                "actions": game.num_actions}
        assert {k: int(v) for k, v in r.items() if k in real} == {k: real[k] for k in r if k in real}, r


# --- README.md and every doc -------------------------------------------------------------------
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


DOCS = sorted((ROOT / "docs").glob("*.md")) + [README, ROOT / "CHANGELOG.md"]


@pytest.mark.parametrize("path", DOCS, ids=lambda p: p.name)
def test_source_paths_named_in_docs_exist(path):
    text = path.read_text(encoding="utf-8")
    named = set(re.findall(r"(?<![\w/])((?:forest_envs|tests)/[\w/]+\.py)", text))
    missing = sorted(p for p in named if not (ROOT / p).exists())
    assert not missing, f"{path.name} names files that do not exist: {missing}"


@pytest.mark.parametrize("path", DOCS, ids=lambda p: p.name)
def test_docs_cite_rulebooks_by_title_never_by_a_path_users_do_not_have(path):
    """Users have the package and its docs, not the folder the rulebook texts came in: a
    rulebook is cited by its title and section."""
    text = path.read_text(encoding="utf-8")
    found = re.findall(r"/work/\S*|\b\w+_(?:en|de)\.txt\b|\brules README\b", text)
    assert not found, f"{path.name} cites files users do not have: {found}"
