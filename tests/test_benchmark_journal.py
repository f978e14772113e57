"""A benchmark continued from its journal (benchmark/journal.py): the games written as they
finish, the same entry as a benchmark that was never stopped, a line cut short by a kill,
and the journals that are not this benchmark's."""

from __future__ import annotations

import json

import pytest

from forest_envs.benchmark import run_benchmark, run_calibration, store_entry
from forest_envs.benchmark.journal import GameJournal, journal_path
from forest_envs.benchmark.protocol import benchmark_identity
from forest_envs.cli import main as cli
from forest_envs.core.errors import ConfigError
from forest_envs.evaluation import run_games

ENV, AGENT, GAMES, SEED = "chickwood_v0", "random", 6, 4


@pytest.fixture(scope="module")
def scale(tmp_path_factory):
    path = tmp_path_factory.mktemp("ratings") / "ratings.json"
    store_entry(run_calibration(ENV, games=6, seed=1), path)
    return path


@pytest.fixture(scope="module")
def uninterrupted(scale):
    return run_benchmark(ENV, AGENT, GAMES, SEED, ratings_path=scale)


def identity(**changes):
    return {**benchmark_identity(ENV, AGENT, GAMES, SEED, {}), **changes}


class StopAfter(GameJournal):
    """A journal whose run is stopped (as by Ctrl-C) once it holds ``limit`` games."""

    limit = 3

    def write(self, lineup, result):
        super().write(lineup, result)
        if self.count() == self.limit:
            raise KeyboardInterrupt


def without_measured(entry: dict) -> dict:
    return {k: v for k, v in entry.items() if k != "measured"}


def stopped_journal(path, scale) -> None:
    with pytest.raises(KeyboardInterrupt):
        run_benchmark(ENV, AGENT, GAMES, SEED, ratings_path=scale, journal=StopAfter(path, identity()))


def test_run_games_skips_the_games_played_and_hands_over_each_new_one():
    full = run_games(ENV, ["random"] * 3, 6, seed=2)
    seen = []
    rest = run_games(ENV, ["random"] * 3, 6, seed=2, played=[0, 3, 4], on_game=seen.append)
    assert [r.index for r in rest] == [1, 2, 5] and sorted(r.index for r in seen) == [1, 2, 5]
    assert [(r.seats, r.ranks, r.win_shares) for r in rest] == \
        [(r.seats, r.ranks, r.win_shares) for r in full if r.index in (1, 2, 5)]
    assert run_games(ENV, ["random"] * 3, 6, seed=2, played=range(6)) == []


def test_a_stopped_benchmark_continues_to_the_entry_of_one_never_stopped(tmp_path, scale, uninterrupted):
    path = tmp_path / "entry.json.games.jsonl"
    stopped_journal(path, scale)
    lines = path.read_text().splitlines()
    assert len(lines) == 1 + 3 and json.loads(lines[0])["benchmark"] == identity()
    assert [json.loads(line)["lineup"] for line in lines[1:]] == ["random"] * 3
    journal = GameJournal(path, identity())
    assert journal.count() == 3 and [r.index for r in journal.games("random", GAMES)] == [0, 1, 2]
    continued = run_benchmark(ENV, AGENT, GAMES, SEED, ratings_path=scale, journal=journal)
    assert without_measured(continued) == without_measured(uninterrupted)
    assert continued["measured"]["games_from_journal"] == 3
    assert "games_from_journal" not in uninterrupted["measured"]
    assert journal.count() == GAMES * len(uninterrupted["lineups"])  # every game is now in it


def test_a_line_cut_short_by_a_kill_is_dropped_and_its_game_played_again(tmp_path, scale, uninterrupted):
    path = tmp_path / "j.jsonl"
    stopped_journal(path, scale)
    whole = path.read_text()
    path.write_text(whole + whole.splitlines()[-1][:40])  # a fourth game, cut mid-line
    journal = GameJournal(path, identity())
    assert journal.dropped_torn_line and journal.count() == 3
    assert path.read_text() == whole  # the next game starts on a line of its own
    continued = run_benchmark(ENV, AGENT, GAMES, SEED, ratings_path=scale, journal=journal)
    assert without_measured(continued) == without_measured(uninterrupted)


@pytest.mark.parametrize("change, message", [
    ({"agent": "heuristic"}, "agent 'heuristic', not 'random'"),
    ({"seed": 5}, "seed 5, not 4"),
    ({"games_per_lineup": 12}, "games_per_lineup 12, not 6"),
    ({"version": "0.0.1"}, "version '0.0.1', not"),
])
def test_the_journal_of_another_benchmark_is_refused(tmp_path, change, message):
    path = tmp_path / "j.jsonl"
    GameJournal(path, identity(**change))
    with pytest.raises(ConfigError, match="holds the games of another benchmark") as err:
        GameJournal(path, identity())
    assert message in str(err.value) and "delete it, or give another --json" in str(err.value)


@pytest.mark.parametrize("text, message", [
    ("", "it is empty"),
    ('{"rows": []}\n', "is no benchmark journal of this version"),
    ('[1, 2]\n', "line 1: expected a JSON object, got list"),
    ('{"journal": "forest_envs benchmark journal 1", "benchmark": {}}\nnot json\n', "line 2, does not read as JSON"),
    ('{"journal": "forest_envs benchmark journal 1", "benchmark": {}}\n{"lineup": "random"}\n',
     "line 2: not a game of a benchmark journal"),
])
def test_a_journal_that_does_not_read_is_a_clear_error(tmp_path, text, message):
    path = tmp_path / "j.jsonl"
    path.write_text(text)
    with pytest.raises(ConfigError, match="delete the file to start the benchmark over|delete it to start") as err:
        GameJournal(path, {})
    assert message in str(err.value)


def test_the_command_continues_from_its_journal_and_removes_it(tmp_path, scale, uninterrupted, capsys):
    entry_path = tmp_path / "entry.json"
    stopped_journal(journal_path(entry_path), scale)
    code = cli.main(["benchmark", "--env", ENV, "--agent", AGENT, "--games", str(GAMES), "--seed", str(SEED),
                     "--ratings", str(scale), "--json", str(entry_path), "--quiet"])
    assert code == 0
    assert capsys.readouterr().err == f"forest-envs: continuing from {journal_path(entry_path)}: 3 games already played\n"
    assert without_measured(json.loads(entry_path.read_text())) == without_measured(uninterrupted)
    assert not journal_path(entry_path).exists()


def test_ctrl_c_says_where_the_games_are_kept(tmp_path, scale, monkeypatch, capsys):
    from forest_envs.benchmark import journal as journal_module

    monkeypatch.setattr(journal_module, "GameJournal", StopAfter)
    entry_path = tmp_path / "entry.json"
    code = cli.main(["benchmark", "--env", ENV, "--agent", AGENT, "--games", str(GAMES), "--seed", str(SEED),
                     "--ratings", str(scale), "--json", str(entry_path), "--quiet"])
    assert code == 130 and not entry_path.exists()
    assert capsys.readouterr().err == (f"\nforest-envs: interrupted; 3 games are kept in "
                                       f"{journal_path(entry_path)}: the same command continues from them\n")
