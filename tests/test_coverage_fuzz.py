"""Fuzzing that seeks the rare (``forest_envs.testing.fuzzing``), over every registered game.

* Every (decision kind, action block) pair a game's doc declares reachable (its
  ``## Decision coverage`` table) is reached by a fixed-seed coverage fuzz, and every pair
  the fuzz reaches is declared: the table stays complete and the fuzz keeps finding the
  rare corners. A failure names the pairs.
* Coverage-seeking, pass-avoiding, uniform and heuristic seats, rotated over the seats,
  play a few hundred games in all with every invariant of ``fuzz_invariants`` checked after
  every action (``-m slow``: 10,000 games per game, the JSON round trip every tenth action
  and at each end).
* The parts of the fuzzing module: the tally, the policies, the doc table's parser, the
  replayable failure record and the command line.
"""

from __future__ import annotations

import json
import zlib
from pathlib import Path

import numpy as np
import pytest
from config_cases import config_cases
from fuzz_invariants import game_module, game_name, invariant_check

import forest_envs
from forest_envs.core.registry import env_ids, game_spec
from forest_envs.testing import fuzzing
from forest_envs.testing.coverage_docs import (
    TABLE_MARKER,
    check_declared_names,
    declared_pairs,
    markdown_table,
)
from forest_envs.testing.fuzzing import (
    Coverage,
    CoveragePolicy,
    FuzzFailure,
    PassAvoidingPolicy,
    default_lineup,
    fuzz,
    pass_blocks,
)

ROOT = Path(__file__).resolve().parents[1]

# The toy game of tests/toy_game.py has no doc; its table lives here, in the docs' format.
TOY_COVERAGE = """
<!-- table:decision-coverage -->
| decision kind | action blocks |
| --- | --- |
| `take` | `take` |
| `answer` | `agree`, `double` |

Pass-like blocks: none.
"""

# The coverage fuzz of each game, from its tests/<game>/invariants.py COVERAGE_FUZZ (each
# says how its budget was measured): its line-up ("lineup"; None: every role,
# fuzzing.default_lineup), its games ("games") and the actions after which one stops
# ("max_steps"); with the seed fixed, each run is the same every time. A game that gives no
# budget gets DEFAULT_COVERAGE; the toy game's lives here, beside its table.
COVERAGE_SEED = 15
DEFAULT_COVERAGE = {"lineup": None, "games": 300, "max_steps": None, "fast_actions": 150}
TOY_BUDGET = {"games": 30}


def coverage_budget(env_id: str) -> dict:
    own = TOY_BUDGET if env_id == "toy_v0" else getattr(game_module(env_id), "COVERAGE_FUZZ", {})
    return {**DEFAULT_COVERAGE, **own}


def doc_text(env_id: str) -> str:
    """The markdown holding ``env_id``'s decision-coverage table."""
    if env_id == "toy_v0":
        return TOY_COVERAGE
    return (ROOT / "docs" / f"{game_name(env_id)}.md").read_text(encoding="utf-8")


def documented_pass_blocks(text: str) -> set[str]:
    """The names in backticks of the section's "Pass-like blocks: ..." paragraph, up to the
    parenthesis that explains them."""
    starts = [i for i, ln in enumerate(text.splitlines()) if ln.startswith("Pass-like blocks")]
    assert len(starts) == 1, "the decision-coverage section needs one 'Pass-like blocks:' paragraph"
    lines = text.splitlines()[starts[0]:]
    paragraph = " ".join(lines[:lines.index("")] if "" in lines else lines)
    return set(_backticked(paragraph.split("(")[0]))


def _backticked(text: str) -> list[str]:
    import re

    return re.findall(r"`([^`]+)`", text)


ENV_IDS = list(env_ids())
CASES = config_cases()  # the pairwise cover by default, the rest slow


# --- the docs' tables ------------------------------------------------------------------------
@pytest.mark.parametrize("env_id", ENV_IDS)
def test_coverage_table_names_every_decision_kind_and_only_real_blocks(env_id):
    game = game_spec(env_id).game_class
    declared = declared_pairs(doc_text(env_id))
    assert check_declared_names(game, declared) == []
    assert list(declared) == [k.name for k in game.state_class.DECISIONS], (
        "the table lists the decision kinds in the order of the game's DECISIONS")


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_pass_like_blocks_are_the_documented_ones(env_id):
    game = game_spec(env_id).game_class
    assert pass_blocks(game) == documented_pass_blocks(doc_text(env_id))


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_coverage_fuzz_reaches_exactly_the_declared_pairs(env_id):
    declared = declared_pairs(doc_text(env_id))
    budget = coverage_budget(env_id)
    run = fuzz(env_id, budget["games"], COVERAGE_SEED, lineup=budget["lineup"],
               max_steps=budget["max_steps"])
    missing, extra = run.coverage.compare(declared)
    assert not missing, (f"{env_id}: declared reachable but never reached in {run.games} "
                         f"coverage-fuzz games: {missing}\n{run.coverage.table(declared)}")
    assert not extra, (f"{env_id}: reached but missing from the doc's decision-coverage "
                       f"table: {extra}")


# --- invariants after every action -----------------------------------------------------------
# Whole games per configuration until the game's "fast_actions" are played (the last may run
# past), every invariant checked after every action: the JSON round trip after every other
# one, the hidden information resampled after every third, clones and futures after every 150th.
FAST_CHECKS = dict(roundtrip_every=2, hidden_every=3, deep_every=150)
FAST_MAX_STEPS = 400       # a fast-run game stops here (Roundforest's cap is 3,000)


def case_seed(env_id: str, cfg: dict) -> int:
    return zlib.crc32(json.dumps([env_id, cfg], sort_keys=True).encode())


@pytest.mark.parametrize(("env_id", "cfg"), CASES)
def test_mixed_lineups_keep_every_invariant(env_id, cfg):
    check = invariant_check(seed=1, **FAST_CHECKS)
    run = fuzz(env_id, 1000, case_seed(env_id, cfg), configs=[cfg], check=check,
               max_steps=FAST_MAX_STEPS, action_budget=coverage_budget(env_id)["fast_actions"])
    assert run.games >= 1
    assert sum(c.calls for c in check.checks.values()) == run.actions + run.games


# Per game, across its configurations: 10,000 games with every invariant after every action
# (see docs/<game>.md, "Decision coverage", for the time this takes).
SLOW_GAMES = 10_000


@pytest.mark.slow
@pytest.mark.parametrize(("env_id", "cfg"), CASES)
def test_ten_thousand_games_keep_every_invariant(env_id, cfg):
    configs = game_spec(env_id).game_class.all_configs()
    games = -(-SLOW_GAMES // len(configs))
    check = invariant_check(seed=2, roundtrip_every=10, hidden_every=3, deep_every=499)
    run = fuzz(env_id, games, case_seed(env_id, cfg) + 1, configs=[cfg], check=check)
    print(run.summary())
    _, extra = run.coverage.compare(declared_pairs(doc_text(env_id)))
    assert not extra, f"{env_id}: reached but missing from the doc's table: {extra}"


# --- the parts -----------------------------------------------------------------------------------
def toy_game():
    return game_spec("toy_v0").game_class.shared({"num_players": 2, "pile": 7})


def test_coverage_tallies_by_kind_block_and_id_and_remembers_the_first_game():
    game = toy_game()
    cov = Coverage(game)
    take1, agree = game.string_to_action("take 1"), game.string_to_action("agree")
    cov.record(0, take1)
    cov.end_game()
    cov.record(0, take1 + 1)
    cov.record(1, agree)
    cov.end_game()
    assert cov.reached() == {("take", "take"): 2, ("answer", "agree"): 1}
    assert cov.first_reached() == {("take", "take"): 0, ("answer", "agree"): 1}
    assert cov.actions[0, take1] == cov.actions[0, take1 + 1] == 1
    assert cov.games_to_reach([("take", "take"), ("answer", "agree")]) == 2
    assert cov.games_to_reach([("answer", "double")]) is None
    assert cov.compare({"take": {"take"}, "answer": {"double"}}) == (
        [("answer", "double")], [("answer", "agree")])
    other = Coverage(game)
    other.record(1, game.string_to_action("double"))
    other.end_game()
    cov.merge(other)
    assert cov.first_reached()[("answer", "double")] == 2 and cov.games == 3
    table = cov.table({"take": {"take"}, "answer": {"double"}})
    assert "answer         agree         1      2           1/1  not in the doc" in table
    with pytest.raises(ValueError, match="cannot merge"):
        cov.merge(Coverage(game_spec("sherwood_v0").game_class))


def test_coverage_policy_draws_the_least_seen_block_most_often():
    game = toy_game()
    state = game.new_initial_state(0)
    state.apply(game.string_to_action("take 1"))        # the answer: agree or double
    cov = Coverage(game)
    for _ in range(50):
        cov.record(1, game.string_to_action("agree"))
    policy = CoveragePolicy(np.random.default_rng(0), cov, explore=0.0, credit=0.0)
    picks = [game.action_to_string(policy.choose(state)) for _ in range(400)]
    # weights 1/51 and 1/1: "double" about 98% of the time, "agree" still possible
    assert 370 <= picks.count("double") < 400


def test_coverage_policy_credits_the_actions_that_lead_to_rare_decisions():
    game = toy_game()
    cov = Coverage(game)
    for _ in range(99):
        cov.record(0, game.string_to_action("take 1"))   # "take" decisions are common
    policy = CoveragePolicy(np.random.default_rng(0), cov)
    policy._last = (1, cov.block_of[game.string_to_action("agree")])
    policy.observe(1)                                    # agree led to a fresh "answer"
    policy._last = (1, cov.block_of[game.string_to_action("double")])
    policy.observe(0)                                    # double led to a "take"
    agree, double = (cov.block_of[game.string_to_action(n)] for n in ("agree", "double"))
    assert policy.lead[1, agree] == 1.0 and policy.lead[1, double] == pytest.approx(1 / 100)


def test_pass_avoiding_policy_passes_only_when_nothing_else_is_legal():
    game = game_spec("sherwood_v0").game_class
    assert {"decline", "equip_pass", "renounce", "reveal_none"} <= pass_blocks(game)
    policy = PassAvoidingPolicy(np.random.default_rng(0), game.shared({"num_players": 3}))
    passing = np.flatnonzero(policy.passing)
    state = game.shared({"num_players": 3}).new_initial_state(0)
    rng = np.random.default_rng(1)
    declined = 0
    for _ in range(3000):
        if state.is_terminal:
            state = game.shared({"num_players": 3}).new_initial_state(int(rng.integers(99)))
        legal = state.legal_actions()
        action = policy.choose(state)
        if any(a not in passing for a in legal):
            assert action not in passing
            declined += any(a in passing for a in legal)
        state.apply(action)
    assert declined > 100    # decisions where a pass was legal and refused


def test_pass_blocks_prefers_the_games_own_declaration(monkeypatch):
    game = game_spec("toy_v0").game_class
    assert pass_blocks(game) == frozenset()
    monkeypatch.setattr(game, "pass_blocks", ("agree",), raising=False)
    assert pass_blocks(game) == {"agree"}
    monkeypatch.setattr(game, "pass_blocks", ("skip",), raising=False)
    with pytest.raises(ValueError, match="skip"):
        pass_blocks(game)


def test_a_fuzz_run_is_determined_by_its_seed_and_rotates_the_roles():
    a = fuzz("sherwood_v0", 8, 3)
    b = fuzz("sherwood_v0", 8, 3)
    assert (a.coverage.actions == b.coverage.actions).all() and a.actions == b.actions
    assert set(a.roles) == set(default_lineup("sherwood_v0")) and all(a.roles.values())
    c = fuzz("sherwood_v0", 8, 4)
    assert not (a.coverage.actions == c.coverage.actions).all()


def test_a_failing_game_is_reported_with_a_record_that_replays_it():
    seen = []

    def fail_on_the_tenth_state(state):
        seen.append(state.to_dict())
        if len(seen) == 10:
            raise AssertionError("tenth state refused")

    with pytest.raises(FuzzFailure) as caught:
        fuzz("toy_v0", 50, 0, check=fail_on_the_tenth_state)
    record = caught.value.record
    assert "tenth state refused" in str(caught.value) and record["env_id"] == "toy_v0"
    env = forest_envs.replay(record)
    assert env.unwrapped.engine_state.to_dict() == seen[-1]


def test_bad_fuzz_requests_are_refused_naming_the_problem():
    with pytest.raises(forest_envs.ConfigError, match="unknown fuzz role 'greedy'"):
        fuzz("toy_v0", 1, lineup=["greedy"])
    with pytest.raises(forest_envs.ConfigError, match="toy_v0 has no heuristic"):
        fuzz("toy_v0", 1, lineup=["heuristic"])
    with pytest.raises(ValueError, match="explore"):
        CoveragePolicy(np.random.default_rng(), Coverage(toy_game()), explore=2.0)


def test_declared_pairs_parses_the_table_and_refuses_a_malformed_one():
    assert declared_pairs(TOY_COVERAGE) == {"take": {"take"}, "answer": {"agree", "double"}}
    with pytest.raises(ValueError, match="no <!-- table:decision-coverage --> marker"):
        declared_pairs("| decision kind | action blocks |")
    with pytest.raises(ValueError, match="columns"):
        declared_pairs(TABLE_MARKER + "\n| kind | blocks |\n| --- | --- |\n| a | `b` |")
    with pytest.raises(ValueError, match="listed twice"):
        declared_pairs(TOY_COVERAGE.replace("| `answer` |", "| `take` |"))
    assert check_declared_names(toy_game(), {"tak": {"take"}, "answer": {"pass"}}) == [
        "decision kind 'tak'", "action block 'pass' (under 'answer')"]


def test_markdown_table_of_a_run_is_a_table_declared_pairs_reads_back():
    run = fuzz("toy_v0", 20, 0)
    assert declared_pairs(markdown_table(run.coverage)) == {
        k: {b for (kk, b) in run.coverage.reached() if kk == k} for k in ("take", "answer")}


def test_command_line_prints_the_table_and_compares_with_a_doc(tmp_path, capsys):
    doc = tmp_path / "toy.md"
    doc.write_text(TOY_COVERAGE, encoding="utf-8")
    assert fuzzing.main(["--env", "toy_v0", "--games", "30", "--docs", str(doc)]) == 0
    out = capsys.readouterr().out
    assert "toy_v0: 30 games" in out and "declared and never reached: none" in out
    doc.write_text(TOY_COVERAGE.replace("`agree`, `double`", "`agree`"), encoding="utf-8")
    assert fuzzing.main(["--env", "toy_v0", "--games", "30", "--docs", str(doc)]) == 1
    assert "reached and not declared: [('answer', 'double')]" in capsys.readouterr().out
    assert fuzzing.main(["--env", "nope_v0", "--games", "3"]) == 2
    assert "unknown env id 'nope_v0'" in capsys.readouterr().err
    assert fuzzing.main(["--env", "toy_v0", "--games", "0"]) == 2
    assert fuzzing.main(["--env", "toy_v0", "--lineup", "random,greedy"]) == 2
    assert "unknown fuzz role 'greedy'" in capsys.readouterr().err


def test_forest_envs_fuzz_is_the_same_command(capsys):
    from forest_envs.cli.main import main

    assert main(["fuzz", "--env", "toy_v0", "--games", "5", "--lineup", "random"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("toy_v0: 5 games") and "actions by role: random" in out
    assert main(["fuzz", "--env", "toy_v0", "--docs", "/nonexistent/x.md"]) == 2
    assert "forest-envs: --docs /nonexistent/x.md" in capsys.readouterr().err


# --- what the coverage fuzz found ------------------------------------------------------------
RECORDS = ROOT / "tests" / "fuzz_records"


def replay_by_names(path: Path):
    """Replay a record whose actions are names (ids shift when a game adds actions)."""
    record = json.loads(path.read_text(encoding="utf-8"))
    game = game_spec(record["env_id"]).game_class.shared(record["config"])
    state = game.new_initial_state(record["seed"])
    for name in record["actions"]:
        state.apply(game.string_to_action(name))
    return state


# Found by the coverage fuzz (Sherwood, additions): a joint ambush with a target and allies'
# unmarked equipment promises robbed a first coach, the leader stayed by provisions and the
# allies went home, but their promises stayed on the ambush; when the target came, the planned
# attack looked for a promising participant, found none and raised IndexError. Uniform play
# never reached it in 6,000 games.
def test_sherwood_planned_attack_after_the_promising_allies_went_home():
    state = replay_by_names(RECORDS / "sherwood_pledge_after_provisions.json")
    # The robbed coach ended the agreement: no promise and no target are left on the ambush
    # where only the leader stayed.
    assert not state.pledged.any() and not state.targets
