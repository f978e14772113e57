"""The ``forest-envs`` command, called in-process through ``forest_envs.cli.main``."""

from __future__ import annotations

import builtins
import json

import pytest

from forest_envs.cli import main as cli
from forest_envs.evaluation import run_games, summarize, wilson


def answers(monkeypatch, replies):
    """Feed ``input()`` from a list (or an endless generator); EOF when it runs out."""
    it = iter(replies)
    prompts = []

    def fake_input(prompt=""):
        prompts.append(prompt)
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None

    monkeypatch.setattr(builtins, "input", fake_input)
    return prompts


def always(text):
    while True:
        yield text


# --- list ---------------------------------------------------------------------------------------
def test_list(capsys):
    assert cli.main(["list"]) == 0
    out = capsys.readouterr().out
    assert "chickwood_v0" in out and "Chickwood Forest" in out and "280 actions" in out


def test_no_command_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as err:
        cli.main([])
    assert err.value.code == 2


# --- evaluate / rollout ----------------------------------------------------------------------------
def test_evaluate_prints_a_table_and_writes_json(capsys, tmp_path):
    path = tmp_path / "eval.json"
    code = cli.main(["evaluate", "--env", "chickwood_v0", "--agents", "random,random,random", "--games", "6", "--seed", "3",
                     "--quiet", "--json", str(path)])
    assert code == 0
    out = capsys.readouterr().out
    assert "chickwood_v0: 6 seat-rotated games, seed 3" in out
    for name in ("0:random", "1:random", "2:random"):
        assert name in out
    assert "win rate" in out and "95% CI" in out
    data = json.loads(path.read_text())
    assert data["games"] == 6 and data["agents"] == ["random"] * 3
    rows = data["rows"]
    assert [r["agent"] for r in rows] == ["0:random", "1:random", "2:random"]
    assert sum(r["win_rate"] for r in rows) == pytest.approx(1.0)
    for r in rows:
        lo, hi = r["win_ci95"]
        assert 0.0 <= lo <= r["win_rate"] <= hi <= 1.0
        assert 1.0 <= r["mean_rank"] <= 3.0


def test_evaluate_with_game_options(capsys):
    assert cli.main(["evaluate", "--env", "chickwood_v0", "--agents", "random,random", "--games", "2",  # with progress bar
                     "--set", "legendary=true"]) == 0
    assert "0:random" in capsys.readouterr().out


def test_evaluate_with_truncation():
    results = run_games("chickwood_v0", ["random", "random", "random"], 3, config={"max_steps": 5})
    assert [r.steps for r in results] == [5, 5, 5]


def test_evaluate_is_the_same_with_workers():
    one = run_games("chickwood_v0", ["random", "random"], 8, seed=5, workers=1)
    two = run_games("chickwood_v0", ["random", "random"], 8, seed=5, workers=2)
    assert [(r.index, r.seats, r.scores, r.steps) for r in one] == \
           [(r.index, r.seats, r.scores, r.steps) for r in two]
    assert [r.seats for r in one[:2]] == [[0, 1], [1, 0]]  # seat rotation
    rows = summarize(["random", "random"], one)
    assert sum(r["win_rate"] for r in rows) == pytest.approx(1.0)


def test_wilson_interval():
    assert wilson(0, 0) == (0.0, 1.0)
    lo, hi = wilson(50, 100)
    assert lo < 0.5 < hi and hi - lo == pytest.approx(0.19, abs=0.01)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0


@pytest.mark.parametrize(("argv", "message"), [
    (["evaluate", "--env", "chickwood_v0", "--agents", "random,random", "--set", "legendary=yes", "--games", "1", "--quiet"],
     "legendary='yes'"),
    (["evaluate", "--env", "chickwood_v0", "--agents", "random,random", "--set", "num_players=3", "--games", "1", "--quiet"],
     "2 agents given for 3 players"),
    (["evaluate", "--env", "chickwood_v0", "--agents", "random,genius", "--games", "1", "--quiet"], "unknown agent 'genius'"),
    (["rollout", "--env", "nope_v0", "--agents", "random,random", "--games", "1"], "unknown env id"),
    (["evaluate", "--env", "chickwood_v0", "--agents", "random,random", "--set", "colour=red", "--games", "1", "--quiet"],
     "colour"),
])
def test_bad_options_are_reported_not_raised(capsys, argv, message):
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("forest-envs: ") and message in err


def test_set_without_equals_is_rejected(capsys):
    assert cli.main(["rollout", "--env", "chickwood_v0", "--agents", "random,random", "--set", "legendary"]) == 2
    assert capsys.readouterr().err.startswith("forest-envs: --set expects key=value")


def test_rollout_prints_each_game(capsys):
    assert cli.main(["rollout", "--env", "chickwood_v0", "--agents", "random,random,random,random", "--games", "3",
                     "--seed", "1"]) == 0
    out = capsys.readouterr().out
    lines = out.strip().splitlines()
    assert lines[0] == "chickwood_v0: 3 game(s), seed 1; the agents change seats from game to game"
    assert lines[1] == "4 players, one per agent given (the game's default is 3: give 3 agents for it)"
    assert len(lines) == 2 + 3 * 6  # each game: its verdict, a header, one row per seat
    results = run_games("chickwood_v0", ["random"] * 4, 3, seed=1)
    for r, game in zip(results, [lines[2 + 6 * i:8 + 6 * i] for i in range(3)]):
        winner = r.win_shares.index(1.0)
        assert game[0] == f"game {r.index}: {r.steps} steps, winner P{winner}"
        assert game[1].split() == ["seat", "agent", "score", "place"]
        for seat, row in enumerate(game[2:]):
            agent = r.seats[seat]
            assert row.split() == [f"P{seat}", f"{agent}:random", str(r.scores[seat]), str(r.ranks[seat])] + (
                ["won"] if seat == winner else [])
    assert "{" not in out and "}" not in out  # a table, not Python dicts
    # Seeded: the same command prints the same games.
    cli.main(["rollout", "--env", "chickwood_v0", "--agents", "random,random,random,random", "--games", "3", "--seed", "1"])
    assert capsys.readouterr().out.strip().splitlines() == lines


def test_rollout_records_replay_the_same_games(tmp_path, capsys):
    import forest_envs

    path = tmp_path / "games.jsonl"
    assert cli.main(["rollout", "--env", "chickwood_v0", "--agents", "heuristic,random,random", "--games", "3", "--seed", "4",
                     "--records", str(path)]) == 0
    results = run_games("chickwood_v0", ["heuristic", "random", "random"], 3, seed=4)
    records = [json.loads(line) for line in path.read_text().splitlines()]
    assert len(records) == 3
    for rec, res in zip(records, results):
        assert rec["agents"] == [["heuristic", "random", "random"][i] for i in res.seats]
        state = forest_envs.replay(rec).unwrapped.engine_state
        assert state.is_terminal
        assert [s["total"] for s in state.scores()] == res.scores


def test_evaluate_writes_csv_and_ratings_plot(tmp_path, capsys):
    csv_path, png = tmp_path / "e.csv", tmp_path / "r.png"
    assert cli.main(["evaluate", "--env", "chickwood_v0", "--agents", "heuristic,random", "--games", "8", "--quiet",
                     "--csv", str(csv_path), "--plot", str(png)]) == 0
    out = capsys.readouterr().out
    assert "skill (mu ± sigma)" in out
    header, *rows = csv_path.read_text().splitlines()
    assert header.split(",")[:3] == ["agent", "games", "win_rate"] and "skill_mu" in header
    assert [r.split(",")[0] for r in rows] == ["0:heuristic", "1:random"]
    assert png.read_bytes()[:4] == b"\x89PNG"


# --- bench ---------------------------------------------------------------------------------------
def test_bench_tiny(capsys):
    assert cli.main(["bench", "--seconds", "0.02", "--env", "chickwood_v0", "--batch-envs", "8"]) == 0
    out = capsys.readouterr().out
    assert "batched = make_vec's 8 envs stepped per call" in out
    assert "connect_four_v3 (PettingZoo)" in out
    for n in (2, 3, 4, 5):
        assert f"chickwood_v0 num_players={n}" in out
    assert "legendary=True" in out and "engine" in out and "steps/s" in out


# --- play ---------------------------------------------------------------------------------------
def test_play_a_whole_game_answering_zero(monkeypatch, capsys):
    prompts = answers(monkeypatch, always("0"))
    assert cli.main(["play", "--env", "chickwood_v0", "--opponents", "random,random", "--seed", "2", "--seat", "1"]) == 0
    out = capsys.readouterr().out
    assert len(prompts) > 5
    assert "Your moves (" in out and "(you)" in out
    assert "Final scores" in out
    assert "Players: P0 random, P1 you, P2 random" in out
    # The log names players as the board does: P0, P1 (you), P2; "(you)" only for the person.
    assert "\nP0: " in out and "\nP2: " in out and "\nP1 (you): " in out
    assert "P0 (random)" not in out and "P0 (you)" not in out
    assert "player_0" not in out
    assert "Hand P" not in out  # the human sees only their own hand


def test_play_two_players_legendary(monkeypatch, capsys):
    answers(monkeypatch, always("0"))
    assert cli.main(["play", "--env", "chickwood_v0", "--opponents", "random", "--set", "legendary=true",
                     "--set", "num_players=2", "--seed", "4"]) == 0
    out = capsys.readouterr().out
    assert "Final scores" in out and "Players: P0 you, P1 random\n" in out


def test_play_quit(monkeypatch, capsys):
    prompts = answers(monkeypatch, ["q"])
    assert cli.main(["play", "--env", "chickwood_v0", "--opponents", "random,random"]) == 0
    out = capsys.readouterr().out
    assert out.rstrip().endswith("bye") and len(prompts) == 1
    assert "Final scores" not in out


def test_play_end_of_input_quits(monkeypatch, capsys):
    answers(monkeypatch, [])
    assert cli.main(["play", "--env", "chickwood_v0", "--opponents", "random,random"]) == 0
    assert capsys.readouterr().out.rstrip().endswith("bye")


def test_play_by_name_and_bad_answers(monkeypatch, capsys):
    """Unknown names and illegal names are refused with a message; a legal name is played."""
    from forest_envs.chickwood import raw_env

    env = raw_env(num_players=3)
    env.reset(seed=0)
    me = env.possible_agents[0]
    opponents_first = env.agent_selection != me
    legal_names = [env.action_to_string(a) for a in env.engine_state.legal_actions()]
    illegal = "raid castle 1"
    replies = ["fly away", illegal, "9999", legal_names[0] if not opponents_first else "0", "q"]
    answers(monkeypatch, replies)
    assert cli.main(["play", "--env", "chickwood_v0", "--opponents", "random,random", "--seed", "0"]) == 0
    out = capsys.readouterr().out
    assert "no move 'fly away'" in out
    assert f"'{illegal}' is not legal now" in out
    assert "no move '9999'" in out
    assert out.count("Your moves (") == 2  # one move made, then quit at the next prompt
    assert out.rstrip().endswith("bye")


@pytest.mark.parametrize(("argv", "message"), [
    (["play", "--env", "chickwood_v0", "--opponents", "random,random", "--seat", "3"], "--seat must be 0..2"),
    (["play", "--env", "chickwood_v0", "--opponents", "random,random,random", "--set", "num_players=3"],
     "3 players need 2 opponents (one agent per other seat, or one name for all), got 3"),
    (["play", "--env", "sherwood_v0", "--opponents", ",".join(["heuristic"] * 6)],
     "sherwood_v0 takes 2-5 opponents (3-6 players), got 6"),
])
def test_play_bad_setup(capsys, argv, message):
    assert cli.main(argv) == 2
    assert capsys.readouterr().err.startswith(f"forest-envs: {message}")


def test_play_against_heuristic_if_present(monkeypatch, capsys):
    pytest.importorskip("forest_envs.chickwood.agents")
    answers(monkeypatch, always("0"))
    assert cli.main(["play", "--env", "chickwood_v0", "--opponents", "heuristic,heuristic", "--seed", "1"]) == 0
    assert "Final scores" in capsys.readouterr().out


def test_agent_lists_keep_an_agents_options_together():
    from forest_envs.cli.args import agent_list

    assert agent_list("ismcts:sims=200,depth=10,heuristic,heuristic") == [
        "ismcts:sims=200,depth=10", "heuristic", "heuristic"]
    assert agent_list("ismcts:sims=200:depth=10,runs/a.npz, random") == [
        "ismcts:sims=200:depth=10", "runs/a.npz", "random"]
    assert agent_list("heuristic,random,") == ["heuristic", "random"]
