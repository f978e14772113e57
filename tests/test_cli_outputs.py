"""What the CLI prints besides the game: seeds and how to replay a game, truncated games,
results and ratings tables, help texts, and output piped into a reader that stops early."""

from __future__ import annotations

import argparse
import builtins
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import forest_envs
from forest_envs.cli import main as cli
from forest_envs.cli import train as cli_train
from forest_envs.evaluation import GameResult, format_game, format_table, ratings_notes, summarize
from forest_envs.evaluation import run as evaluation

ROOT = Path(forest_envs.__file__).parent.parent


def quit_at_once(monkeypatch):
    replies = iter(["q"])
    monkeypatch.setattr(builtins, "input", lambda prompt="": next(replies))


# --- play: a drawn seed, printed with the command that replays the game ----------------------------
def test_play_draws_a_seed_and_says_how_to_play_the_same_game(monkeypatch, capsys):
    quit_at_once(monkeypatch)
    monkeypatch.setattr("secrets.randbelow", lambda n: 271828)
    assert cli.main(["play", "--env", "chickwood_v0", "--opponents", "random,heuristic", "--seat", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[:5] == [   # the command in lines of 80 columns that a shell reads as one
        "Chickwood Forest (chickwood_v0), seed 271828 (drawn at random)",
        "Players: P0 random, P1 you, P2 heuristic",
        "To play this game again:",
        "  forest-envs play --env chickwood_v0 --opponents random,heuristic --seat 1 \\",
        "      --seed 271828"]
    assert lines[-4:] == lines[2:5] + ["bye"]


def test_the_printed_command_plays_the_same_game(monkeypatch, capsys):
    """Two draws of the seed differ; the printed command, run again, shows the same board."""
    seeds = iter([11, 12])
    monkeypatch.setattr("secrets.randbelow", lambda n: next(seeds))
    boards = []
    for _ in range(2):
        quit_at_once(monkeypatch)
        cli.main(["play", "--env", "roundforest_v0", "--set", "num_players=2"])
        out = capsys.readouterr().out
        again = re.search(r"To play this game again:\n((.*\\\n)*.*)", out).group(1)
        boards.append((" ".join(again.replace("\\\n", " ").split()),
                       out[out.index("\n\n"):out.index("Your moves")]))
    assert boards[0][1] != boards[1][1]
    command, board = boards[0]
    assert command == "forest-envs play --env roundforest_v0 --opponents heuristic --seed 11 --set num_players=2"
    quit_at_once(monkeypatch)
    assert cli.main(command.split()[1:]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == "Roundforest (roundforest_v0), seed 11"
    assert out[out.index("\n\n"):out.index("Your moves")] == board


def test_one_opponent_name_fills_every_other_seat(monkeypatch, capsys):
    quit_at_once(monkeypatch)
    assert cli.main(["play", "--env", "sherwood_v0", "--opponents", "heuristic", "--seed", "1"]) == 0
    assert "Players: P0 you, P1 heuristic, P2 heuristic, P3 heuristic\n" in capsys.readouterr().out


# --- rollout and evaluate: truncated games --------------------------------------------------------
def test_rollout_says_a_truncated_game_has_no_winner(capsys):
    assert cli.main(["rollout", "--env", "roundforest_v0", "--agents", "heuristic,random", "--games", "2",
                     "--set", "max_steps=40"]) == 0
    lines = capsys.readouterr().out.splitlines()
    results = evaluation.run_games("roundforest_v0", ["heuristic", "random"], 2, config={"max_steps": 40})
    assert all(r.truncated for r in results)
    assert lines[1] == "2 players, one per agent given (the game's default is 3: give 3 agents for it)"
    assert lines[2] == "game 0: 40 steps, truncated at max_steps: nobody wins"
    assert lines[3].split() == ["seat", "agent", "standing"]  # no "place", no "won"
    assert [line.split() for line in lines[4:6]] == [
        ["P0", "0:heuristic", str(results[0].ranks[0])], ["P1", "1:random", str(results[0].ranks[1])]]
    assert "won" not in "\n".join(lines) and "winner" not in "\n".join(lines)


def result(index, seats, win_shares, ranks, scores=None, truncated=False):
    return GameResult(index, seats, scores, win_shares, ranks, 10, truncated)


def test_a_game_nobody_won_by_an_illegal_action():
    text = format_game(result(3, [1, 0], [0.0, 0.0], [1, 2], scores=[5, 4]), ["random", "heuristic"])
    assert text.splitlines() == [
        "game 3: 10 steps, ended by an illegal action: nobody wins",
        "  seat agent        score  standing",
        "  P0   1:heuristic      5         1",
        "  P1   0:random         4         2"]


def test_a_shared_win():
    text = format_game(result(0, [0, 1, 2], [0.5, 0.5, 0.0], [1, 1, 3]), ["a", "b", "c"])
    assert text.splitlines()[0] == "game 0: 10 steps, winners (shared) P0, P1"
    assert [line.split()[-1] for line in text.splitlines()[2:]] == ["won", "won", "3"]


def test_win_rate_lost_and_no_winner_sum_to_one_in_every_row():
    games = [result(0, [0, 1], [1.0, 0.0], [1, 2]), result(1, [1, 0], [0.0, 1.0], [2, 1]),
             result(2, [0, 1], [0.0, 0.0], [2, 1], truncated=True),
             result(3, [1, 0], [0.0, 0.0], [1, 2], truncated=True), result(4, [0, 1], [0.0, 1.0], [2, 1])]
    rows = summarize(["a", "b"], games)
    assert [(r["win_rate"], r["lost"], r["no_winner"], r["truncated"]) for r in rows] == [
        (0.4, pytest.approx(0.2), 0.4, 2), (0.2, pytest.approx(0.4), 0.4, 2)]
    table = format_table(rows).splitlines()
    assert table[0].split()[:8] == ["agent", "games", "win", "rate", "95%", "CI", "lost", "no"]
    # agent, games, win rate, [CI low, CI high], lost, no winner
    assert [table[2].split()[i] for i in (0, 1, 2, 5, 6)] == ["0:a", "5", "0.400", "0.200", "0.400"]
    assert [table[3].split()[i] for i in (0, 1, 2, 5, 6)] == ["1:b", "5", "0.200", "0.400", "0.400"]
    assert table[4:6] == ["no winner: the share of games nobody won (2 truncated at max_steps; an "
                          "illegal action also ends a", "  game without winner)"]


def test_evaluate_prints_the_no_winner_column(capsys, tmp_path):
    path = tmp_path / "e.json"
    assert cli.main(["evaluate", "--env", "roundforest_v0", "--agents", "heuristic,random", "--games", "4",
                     "--quiet", "--set", "max_steps=40", "--json", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1] == "2 players, one per agent given (the game's default is 3: give 3 agents for it)"
    assert [out[4].split()[i] for i in (0, 1, 2, 5, 6)] == ["0:heuristic", "4", "0.000", "0.000", "1.000"]
    assert out[6].startswith("no winner: the share of games nobody won (4 truncated at max_steps")
    rows = json.loads(path.read_text())["rows"]
    assert [(r["win_rate"], r["lost"], r["no_winner"]) for r in rows] == [(0.0, 0.0, 1.0)] * 2
    assert [r["skill_games"] for r in rows] == [0, 0]  # a game nobody won is not rated


# --- ratings ------------------------------------------------------------------------------------------
def rated_row(agent, win_rate, mean_rank, mu, sigma):
    return {"agent": agent, "games": 50, "win_rate": win_rate, "win_ci95": (0.0, 1.0), "lost": 0.0,
            "no_winner": 0.0, "mean_score": None, "mean_rank": mean_rank, "skill_mu": mu,
            "skill_sigma": sigma, "skill_games": 50}


def test_settled_ratings_say_what_they_are():
    rows = [rated_row("0:heuristic", 0.9, 1.1, 40.0, 2.0), rated_row("1:random", 0.1, 1.9, 10.0, 2.0)]
    assert "\n".join(ratings_notes(rows)).splitlines() == [
        "skill: OpenSkill (Plackett-Luce) mu ± sigma among these agents only, updated game by game in game",
        "  order over the 50 games with a winner; not comparable with forest-envs benchmark's ratings, which",
        "  are on a fixed scale"]


def test_ratings_with_a_large_sigma_are_not_settled():
    rows = [rated_row("0:heuristic", 0.9, 1.1, 40.0, 6.0), rated_row("1:random", 0.1, 1.9, 10.0, 2.0)]
    notes = " ".join(ratings_notes(rows)).replace("\n", " ")
    assert "skills not yet settled (play more games): sigma above 5.56 (2/3 of the starting 8.33) for " \
           "0:heuristic (6.00)" in re.sub(r"\s+", " ", notes)


def test_ratings_against_win_rates_are_not_settled():
    rows = [rated_row("0:a", 0.3, 1.8, 30.0, 1.0), rated_row("1:b", 0.7, 1.2, 20.0, 1.0)]
    notes = re.sub(r"\s+", " ", " ".join(ratings_notes(rows)))
    assert notes.endswith("skills not yet settled (play more games): 0:a has a higher skill than 1:b, "
                          "whose win rate and mean rank are better")


def test_a_small_evaluate_run_says_its_ratings_are_not_settled(capsys):
    assert cli.main(["evaluate", "--env", "chickwood_v0", "--agents", "heuristic,random", "--games", "4",
                     "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "skill: OpenSkill (Plackett-Luce) mu ± sigma among these agents only" in out
    assert "skills not yet settled (play more games): sigma above 5.56" in out
    assert max(len(line) for line in out.splitlines()) <= 100


# --- help -----------------------------------------------------------------------------------------------
def options_of(parser: argparse.ArgumentParser, path=()):
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from options_of(sub, path + (name,))
        elif action.option_strings and not isinstance(action, (argparse._HelpAction,
                                                                argparse._VersionAction)):
            yield path, action


def test_every_option_has_a_help_text_with_its_default():
    found = list(options_of(cli.build_parser()))
    assert len(found) > 40
    for path, action in found:
        where = (path, action.option_strings)
        assert action.help, where
        assert "default" in action.help or action.required, where


def test_help_has_no_restructuredtext_marks(capsys):
    for command in ([], ["play"], ["evaluate"], ["rollout"], ["replay"], ["fuzz"], ["playthrough"],
                    ["train"], ["bench"], ["plot"], ["list"]):
        with pytest.raises(SystemExit):
            cli.main(command + ["--help"])
        out = capsys.readouterr().out
        assert "``" not in out and "`" not in out, command


def test_help_says_defaults_and_warns_about_zip_files(capsys):
    with pytest.raises(SystemExit):
        cli.main(["play", "--help"])
    out = re.sub(r"\s+", " ", capsys.readouterr().out)
    assert "--seed SEED the game's seed (default: drawn at random and printed" in out
    assert "--seat SEAT your seat: 0 is P0 on the board, 1 is P1, ...; not always the first to move (default: 0)" in out
    assert "one name for every other seat" in out
    assert "an SB3 .zip, which is unpickled and can run code: load only .zip files you trust" in out
    with pytest.raises(SystemExit):
        cli.main(["evaluate", "--help"])
    out = re.sub(r"\s+", " ", capsys.readouterr().out)
    assert "--games GAMES games to play (default: 100)" in out
    assert "a .npz (plain arrays, safe to load) or an SB3 .zip, which is unpickled" in out


def test_train_tells_the_user_to_evaluate_the_npz():
    cfg = {"env": "sherwood_v0", "env_config": {"additions": True}}
    assert cli_train._evaluate_command(cfg, "runs/x/final.npz") == (
        "forest-envs evaluate --env sherwood_v0 --agents "
        "runs/x/final.npz,heuristic,heuristic,heuristic --games 100 --set additions=true")


# --- a reader that stops early -----------------------------------------------------------------------
@pytest.mark.parametrize("argv", [["replay", "RECORDS"], ["list"],
                                  ["rollout", "--env", "chickwood_v0", "--agents", "random,random",
                                   "--games", "40"]])
def test_output_into_a_closed_pipe_ends_quietly(tmp_path, argv):
    records = tmp_path / "games.jsonl"
    assert cli.main(["rollout", "--env", "chickwood_v0", "--agents", "random,random", "--games", "1",
                     "--records", str(records)]) == 0
    argv = [str(records) if a == "RECORDS" else a for a in argv]
    proc = subprocess.Popen([sys.executable, "-m", "forest_envs.cli", *argv], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    first = proc.stdout.readline()  # what `| head -1` reads, then it closes the pipe
    proc.stdout.close()
    err = proc.stderr.read().decode()
    code = proc.wait(timeout=60)
    assert first
    assert err == ""  # no BrokenPipeError traceback, no "Exception ignored"
    assert code in (0, 141)  # 141: stopped by the closed pipe, as the shell reports it


def test_rollout_moves_narrates_every_move_as_the_referee_reads_it(capsys):
    assert cli.main(["rollout", "--env", "chickwood_v0", "--agents", "heuristic,random", "--games", "1",
                     "--seed", "2", "--moves"]) == 0
    lines = capsys.readouterr().out.splitlines()
    (game,) = evaluation.run_games("chickwood_v0", ["heuristic", "random"], 1, seed=2)
    env = forest_envs.make_raw("chickwood_v0", num_players=2)
    env.reset(seed=game.record["seed"])
    state = env.engine_state
    expected = []
    for step, action in enumerate(game.record["actions"], 1):
        actor, before = state.current_player, state.clone()
        env.step(action)
        expected.append(f"{step:4d}. P{actor}: {state.narrate(before, action, None)}")
    expected = "\n".join(expected).splitlines()  # a long narration keeps its own line breaks
    assert lines[1] == "2 players, one per agent given (the game's default is 3: give 3 agents for it)"
    assert lines[2:2 + len(expected)] == expected
    assert lines[2 + len(expected)].startswith(f"game 0: {game.steps} steps, winner P")
    assert "(you)" not in "\n".join(lines)  # nobody plays in person here


def test_a_replay_without_a_person_marks_nobody_you(tmp_path, capsys):
    records = tmp_path / "games.jsonl"
    assert cli.main(["rollout", "--env", "sherwood_v0", "--agents", "random,random,random", "--games", "1",
                     "--records", str(records)]) == 0
    for views in ("referee", "1"):
        capsys.readouterr()
        assert cli.main(["replay", str(records), "--views", views]) == 0
        out = capsys.readouterr().out
        assert "(you)" not in out and re.search(r"\n   1\. P0: ", out)


def test_play_draws_the_colour_board_on_a_wide_colour_terminal_and_text_otherwise(capsys):
    """Roundforest draws a rich board (exits as arrows, chips in colour); play shows it on a
    colour terminal wide enough for it, the plain text board on a narrow one or without one."""
    from rich.console import Console

    from forest_envs.cli.play import show_board

    env = forest_envs.make_raw("roundforest_v0")
    env.reset(seed=5)
    state = env.engine_state
    wide = Console(width=200, force_terminal=True, color_system="standard", record=True,
                   soft_wrap=True)
    show_board(state, 0, wide)
    coloured = wide.export_text()
    assert "↻" in coloured or "↺" in coloured          # the turning direction as an arrow
    assert "\x1b[" in capsys.readouterr().out           # in colour
    narrow = Console(width=60, force_terminal=True, color_system="standard")
    show_board(state, 0, narrow)
    assert capsys.readouterr().out == state.render(0) + "\n"
    show_board(state, 0, None)                           # a pipe, or --plain
    assert capsys.readouterr().out == state.render(0) + "\n"
