"""Every bad input gets one clear line (issue 7).

The CLI answers bad input with one line ``forest-envs: ...`` on stderr and exit status 2,
never a traceback, and checks what it can before any game is played. The Python API refuses
bad values with an error that says what is wrong, and takes numpy scalars where it takes
Python ones.
"""

from __future__ import annotations

import builtins
import json
import re
import zipfile

import numpy as np
import pytest

import forest_envs
from forest_envs.cli import main as cli
from forest_envs.core.errors import ConfigError, IllegalActionError
from forest_envs.envs.gym_env import SingleAgentEnv
from forest_envs.evaluation import run as evaluation

GAME = "toy_v0"  # registered by tests/conftest.py; small and fast


def bad(capsys, argv, *fragments):
    """Run the CLI in-process and check the one-line refusal; returns the line."""
    code = cli.main(argv)
    out, err = capsys.readouterr()
    assert code == 2, (out, err)
    assert "Traceback" not in err and "Traceback" not in out
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("forest-envs: "), err
    for fragment in fragments:
        assert fragment in lines[0], lines[0]
    return lines[0]


def no_games(monkeypatch):
    """Make playing any game fail the test: the refusal must come before the work."""
    def refuse(*args, **kwargs):
        raise AssertionError("a game was played before the bad input was refused")

    # run_games checks the options and agents first, then plays chunks of games.
    monkeypatch.setattr(evaluation, "_play_chunk", refuse)
    monkeypatch.setattr(evaluation, "play_game", refuse)


def answers(monkeypatch, replies):
    it = iter(replies)

    def fake_input(prompt=""):
        reply = next(it, EOFError)
        if isinstance(reply, type) and issubclass(reply, BaseException):
            raise reply
        return reply

    monkeypatch.setattr(builtins, "input", fake_input)


EVAL = ["evaluate", "--env", GAME, "--agents", "random,random", "--quiet"]
ROLL = ["rollout", "--env", GAME, "--agents", "random,random"]
PLAY = ["play", "--env", GAME, "--opponents", "random", "--set", "num_players=2"]


# --- counts and numbers ------------------------------------------------------------------------
@pytest.mark.parametrize(("argv", "fragment"), [
    (EVAL + ["--games", "0"], "--games must be at least 1, got 0"),
    (ROLL + ["--games", "-3"], "--games must be at least 1, got -3"),
    (EVAL + ["--seed", "-1"], "--seed must be non-negative, got -1"),
    (ROLL + ["--seed", "-5"], "--seed must be non-negative"),
    (PLAY + ["--seed", "-1"], "--seed must be non-negative"),
    (PLAY + ["--seat", "-1"], "--seat must be non-negative"),
    (PLAY + ["--seat", "2"], "--seat must be 0..1, got 2"),
    (EVAL + ["--workers", "0"], "--workers must be at least 1, got 0"),
    (["bench", "--seconds", "0"], "--seconds must be a positive number"),
    (["bench", "--seconds", "-2"], "--seconds must be a positive number"),
    (["bench", "--seconds", "nan"], "--seconds must be a positive number"),
    (["bench", "--batch-envs", "0"], "--batch-envs must be at least 1, got 0"),
    (["evaluate", "--env", GAME, "--agents", " , ", "--quiet"], "--agents lists no agent"),
    (["play", "--env", GAME, "--opponents", ","], "--opponents lists no agent"),
    (["play", "--env", GAME, "--opponents", "random", "--set", "num_players=3", "--opponents", "random,random,random"],
     "3 players need 2 opponents (one agent per other seat, or one name for all), got 3"),
])
def test_bad_counts_are_one_line_before_any_game(capsys, monkeypatch, argv, fragment):
    no_games(monkeypatch)
    answers(monkeypatch, [])  # play must not get as far as asking
    bad(capsys, argv, fragment)


@pytest.mark.parametrize(("setting", "fragment"), [
    ("legendary", "--set expects key=value, got 'legendary'"),
    ("=3", "--set expects key=value"),
    ("nonexistent=1", "nonexistent"),
    ("pile=6", "pile=6"),
    ("max_steps=0", "max_steps=0"),
])
def test_bad_set_is_one_line(capsys, monkeypatch, setting, fragment):
    no_games(monkeypatch)
    bad(capsys, ROLL + ["--set", setting], fragment)


def test_unknown_env_and_agent(capsys):
    bad(capsys, ["rollout", "--env", "nope_v0", "--agents", "random,random"], "unknown env id 'nope_v0'")
    bad(capsys, ["rollout", "--env", GAME, "--agents", "random,genius"], "unknown agent 'genius'")
    bad(capsys, ["evaluate", "--env", GAME, "--agents", "heuristic,random", "--quiet"], "no heuristic agent")


def test_argparse_usage_errors_still_exit_2(capsys):
    for argv in (["evaluate", "--env", GAME, "--agents", "random,random", "--games", "many"],
                 ["play"], ["frobnicate"]):
        with pytest.raises(SystemExit) as err:
            cli.main(argv)
        assert err.value.code == 2
        assert "Traceback" not in capsys.readouterr().err


# --- output paths: refused before any game --------------------------------------------------------
@pytest.mark.parametrize(("flag", "where", "fragment"), [
    ("--json", "missing/out.json", "does not exist"),
    ("--csv", "missing/out.csv", "does not exist"),
    ("--plot", "missing/out.png", "does not exist"),
    ("--json", ".", "is a folder"),
    ("--csv", ".", "is a folder"),
    ("--plot", "ratings.xyz", "cannot write a .xyz image"),
])
def test_unwritable_evaluate_outputs_are_refused_first(capsys, monkeypatch, tmp_path, flag, where, fragment):
    no_games(monkeypatch)
    path = str(tmp_path / where)
    bad(capsys, EVAL + ["--games", "2", flag, path], flag, fragment)


def test_unwritable_records_are_refused_first(capsys, monkeypatch, tmp_path):
    no_games(monkeypatch)
    bad(capsys, ROLL + ["--records", str(tmp_path / "no" / "such" / "games.jsonl")], "--records", "does not exist")
    bad(capsys, ROLL + ["--records", str(tmp_path)], "--records", "is a folder")


# --- plot ---------------------------------------------------------------------------------------
EVAL_CSV = ("timesteps,wall_s,opponent,games,win_rate,ci_low,ci_high\n"
            "100,1,random,10,0.4,0.2,0.6\n200,2,random,10,0.6,0.4,0.8\n")


@pytest.mark.parametrize(("name", "content", "fragment"), [
    ("nothing.csv", None, "does not exist"),
    ("image.png", b"\x89PNG\r\n\x1a\n\x00\x00\xff\xfe\xfa binary", "is not a CSV text file"),
    ("config.yaml", b"env: chickwood_v0\nppo:\n  n_steps: 3\n", "no column(s)"),
    ("other.csv", b"a,b,c\n1,2,3\n", "no column(s) opponent, timesteps, win_rate, ci_low, ci_high"),
    ("header.csv", EVAL_CSV.splitlines()[0].encode() + b"\n", "holds no evaluation rows"),
    ("values.csv", (EVAL_CSV + "300,3,random,10,lots,0,1\n").encode(), "line 4: expected numbers"),
])
def test_plot_refuses_missing_and_foreign_files(capsys, tmp_path, name, content, fragment):
    path = tmp_path / name
    if content is not None:
        path.write_bytes(content)
    out = tmp_path / "curve.png"
    bad(capsys, ["plot", str(path), "--out", str(out)], fragment)
    assert not out.exists()


def test_plot_refuses_a_folder_and_an_unwritable_out(capsys, tmp_path):
    bad(capsys, ["plot", str(tmp_path), "--out", str(tmp_path / "c.png")], "is not a file")
    log = tmp_path / "eval.csv"
    log.write_text(EVAL_CSV)
    bad(capsys, ["plot", str(log), "--out", str(tmp_path / "no" / "c.png")], "--out", "does not exist")
    bad(capsys, ["plot", str(log), "--out", str(tmp_path / "c.txt")], "--out", "cannot write a .txt image")
    assert cli.main(["plot", str(log), "--out", str(tmp_path / "c.png")]) == 0
    assert (tmp_path / "c.png").read_bytes()[:4] == b"\x89PNG"


# --- policy files given as agents -----------------------------------------------------------------
def _policy_arrays(obs: int, actions: int, activation: str = "Tanh") -> dict:
    rng = np.random.default_rng(0)
    return {"w0": rng.normal(size=(obs, 4)).astype(np.float32), "b0": np.zeros(4, np.float32),
            "w_out": rng.normal(size=(4, actions)).astype(np.float32),
            "b_out": np.zeros(actions, np.float32), "activation": np.array(activation)}


def _bad_policy_files(tmp_path) -> dict[str, str]:
    files = {}
    p = tmp_path / "corrupt.npz"
    p.write_bytes(b"PK\x03\x04 this is not really a zip archive")
    files["corrupt.npz"] = str(p)
    p = tmp_path / "text.npz"
    p.write_text("hello")
    files["text.npz"] = str(p)
    p = tmp_path / "foreign.npz"
    np.savez(p, x=np.arange(3))
    files["foreign.npz"] = str(p)
    p = tmp_path / "activation.npz"
    game = forest_envs.make_raw(GAME).game
    np.savez(p, **_policy_arrays(game.observation_size, game.num_actions, "Sigmoid"))
    files["activation.npz"] = str(p)
    p = tmp_path / "other_game.npz"
    np.savez(p, **_policy_arrays(game.observation_size + 5, game.num_actions))
    files["other_game.npz"] = str(p)
    p = tmp_path / "truncated.npz"
    np.savez(p, **_policy_arrays(game.observation_size, game.num_actions))
    p.write_bytes(p.read_bytes()[:200])
    files["truncated.npz"] = str(p)
    p = tmp_path / "foreign.zip"
    with zipfile.ZipFile(p, "w") as z:
        z.writestr("readme.txt", "not a model")
    files["foreign.zip"] = str(p)
    files["missing.npz"] = str(tmp_path / "missing.npz")
    return files


def test_bad_policy_files_are_one_line(capsys, monkeypatch, tmp_path):
    for name, path in _bad_policy_files(tmp_path).items():
        for argv in (["evaluate", "--env", GAME, "--agents", f"{path},random", "--quiet", "--games", "2"],
                     ["rollout", "--env", GAME, "--agents", f"random,{path}", "--games", "2"]):
            line = bad(capsys, argv, path)
            assert name in line
        answers(monkeypatch, [])
        bad(capsys, ["play", "--env", GAME, "--opponents", path], path)


# --- train: config file and --set -----------------------------------------------------------------
def _write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_train_config_errors_are_one_line(capsys, tmp_path):
    broken = _write(tmp_path, "broken.yaml", "env: toy_v0\nppo:\n  n_steps: [1, 2\n  gamma: 1\n")
    line = bad(capsys, ["train", broken], "broken.yaml", "not valid YAML", "line ")
    good = _write(tmp_path, "good.yaml", f"env: toy_v0\noutput_dir: {tmp_path / 'run'}\n")
    bad(capsys, ["train", good, "--set", "ppo.nonexistent=1"], "ppo.nonexistent")
    bad(capsys, ["train", good, "--set", "env_config=3"], "env_config=3")
    bad(capsys, ["train", good, "--set", "seed=-1"], "seed=-1")
    bad(capsys, ["train", str(tmp_path / "nope.yaml")], "does not exist")
    bad(capsys, ["train", _write(tmp_path, "list.yaml", "- 1\n- 2\n")], "must hold a mapping")
    assert "Traceback" not in line
    assert not (tmp_path / "run").exists()


def test_yaml_exponents_are_floats(tmp_path):
    from forest_envs.train.config import load_config

    path = _write(tmp_path, "c.yaml", "env: toy_v0\nppo:\n  learning_rate: 1e-4\n  clip_range: 2E-1\n"
                                      "pretrain:\n  learning_rate: 5.0e-3\n")
    cfg = load_config(path)
    assert cfg["ppo"]["learning_rate"] == pytest.approx(1e-4)
    assert cfg["ppo"]["clip_range"] == pytest.approx(0.2)
    assert cfg["pretrain"]["learning_rate"] == pytest.approx(5e-3)
    # --set values: parsed by the CLI (JSON takes 1e-4; .5 and 1. too), or given as text
    overrides = cli.parse_config(["ppo.learning_rate=1e-4", "ppo.clip_range=.5", "pretrain.learning_rate=1."])
    assert overrides == {"ppo.learning_rate": 1e-4, "ppo.clip_range": 0.5, "pretrain.learning_rate": 1.0}
    cfg = load_config(path, dict(overrides, **{"ppo.vf_coef": "3e-1"}))
    assert cfg["ppo"]["learning_rate"] == pytest.approx(1e-4) and cfg["ppo"]["vf_coef"] == pytest.approx(0.3)
    with pytest.raises(ConfigError, match="ppo.learning_rate is a value, not a section"):
        load_config(path, {"ppo.learning_rate.x": 1})


# --- play ---------------------------------------------------------------------------------------
def test_play_ctrl_c_is_a_short_line(capsys, monkeypatch):
    answers(monkeypatch, [KeyboardInterrupt])
    assert cli.main(PLAY) == 130
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    # the command's lines: each but the last ends with a backslash
    again = re.search(r"To play this game again:\n(.*\\\n)*.*", out).group(0)
    assert out.rstrip().endswith(f"interrupted (Ctrl-C)\n{again}\nbye")
    assert again.splitlines()[1].startswith(f"  forest-envs play --env {GAME} --opponents random --seed ")


def test_play_end_of_input_quits(capsys, monkeypatch):
    answers(monkeypatch, [])
    assert cli.main(PLAY) == 0
    out, err = capsys.readouterr()
    assert out.rstrip().endswith("bye") and err == ""


def test_play_help_lists_commands_and_a_legend(capsys, monkeypatch):
    answers(monkeypatch, ["help", "?", "q"])
    assert cli.main(PLAY + ["--seat", "1"]) == 0
    out = capsys.readouterr().out
    assert out.count("Commands:") == 2 and out.count("Board legend:") == 2
    for command in ("<number>", "<move name>", "help, ?", "q, quit, exit"):
        assert command in out
    assert "you are P1" in out and "gives no legend of its own" in out


def test_play_help_shows_the_game_legend_hook(capsys, monkeypatch):
    from toy_game import ToyGame

    monkeypatch.setattr(ToyGame, "render_legend", lambda self: "pile: sticks left\ntaken: by seat",
                        raising=False)
    answers(monkeypatch, ["?", "q"])
    assert cli.main(PLAY) == 0
    out = capsys.readouterr().out
    assert "  pile: sticks left\n  taken: by seat" in out and "gives no legend" not in out


def test_play_end_screen_names_the_winner(capsys, monkeypatch):
    answers(monkeypatch, iter(lambda: "0", None))
    assert cli.main(PLAY + ["--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "\nP1: " in out and "\nP0 (you): " in out and "player_1" not in out
    verdict = out[out.rindex("Winner"):]
    assert verdict.startswith(("Winner: P0 (you)\n", "Winner: P1\n"))
    assert "Places:\n  1. " in verdict and "  2. " in verdict


def test_play_truncated_game_has_no_winner(capsys, monkeypatch):
    answers(monkeypatch, iter(lambda: "0", None))
    assert cli.main(PLAY + ["--set", "max_steps=2"]) == 0
    out = capsys.readouterr().out
    assert "after 2 moves (max_steps): truncated, nobody wins" in out


def test_version(capsys):
    with pytest.raises(SystemExit) as err:
        cli.main(["--version"])
    assert err.value.code == 0
    assert capsys.readouterr().out.strip() == f"forest-envs {forest_envs.__version__}"


# --- evaluation: tables, plots, truncation ------------------------------------------------------
LONG = "runs/a_very_long_experiment_name_2024/checkpoints/snapshot_000123456.npz"


def test_table_fits_long_policy_paths():
    rows = [{"agent": f"0:{LONG}", "games": 10, "win_rate": 0.5, "win_ci95": (0.2, 0.8),
             "mean_score": None, "mean_rank": 1.5, "skill_mu": 25.0, "skill_sigma": 1.0},
            {"agent": "1:random", "games": 10, "win_rate": 0.5, "win_ci95": (0.2, 0.8),
             "mean_score": 3.0, "mean_rank": 1.5, "skill_mu": 24.0, "skill_sigma": 1.0}]
    head, rule, *lines = evaluation.format_table(rows).splitlines()
    lines, notes = lines[:len(rows)], lines[len(rows):]
    assert notes[0].startswith("skill: OpenSkill")
    assert len(rule) == len(head)
    assert all(len(line) == len(head) for line in lines)
    column = head.index("games")
    assert all(line[column - 1] == " " for line in lines)  # the name never runs into the numbers
    assert lines[0].startswith(f"0:{LONG} ")


def test_ratings_plot_labels_are_short_and_do_not_overlap(tmp_path):
    agents = [f"{i}:runs/{'abcdefghij' * 3}_{i}/final.npz" for i in range(3)] + [
        f"3:{LONG}", "4:heuristic", "5:random"]
    labels = evaluation.short_labels(agents)
    assert len(set(labels)) == len(labels)
    assert all(len(line) <= 16 for label in labels for line in label.splitlines())
    assert labels[-2:] == ["4:heuristic", "5:random"]
    rows = [{"agent": a, "mu": 25.0 - i, "sigma": 1.0} for i, a in enumerate(agents)]
    fig = evaluation.ratings_figure(rows)
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    boxes = [t.get_window_extent(renderer) for t in fig.axes[0].get_xticklabels()]
    assert len(boxes) == len(rows)
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            assert not a.overlaps(b)
        assert a.x0 >= 0 and a.y0 >= 0  # inside the figure
    evaluation.plot_ratings(rows, tmp_path / "r.png")
    assert (tmp_path / "r.png").read_bytes()[:4] == b"\x89PNG"


def test_truncated_games_have_no_winner(capsys, tmp_path):
    results = evaluation.run_games(GAME, ["random", "random"], 6, config={"max_steps": 1})
    assert all(r.truncated and r.steps == 1 for r in results)
    assert [row["win_rate"] for row in evaluation.summarize(["random", "random"], results)] == [0.0, 0.0]
    path = tmp_path / "e.json"
    assert cli.main(["evaluate", "--env", "chickwood_v0", "--agents", "random,random,random", "--games", "4",
                     "--quiet", "--set", "max_steps=5", "--json", str(path)]) == 0
    rows = json.loads(path.read_text())["rows"]
    assert [r["win_rate"] for r in rows] == [0.0, 0.0, 0.0]


# --- Python API -----------------------------------------------------------------------------------
@pytest.mark.parametrize("env_id", ["chickwood_v0", GAME])
def test_numpy_integers_and_bools_are_accepted(env_id):
    game = forest_envs.make_raw(env_id).game
    n = game.traits.max_players
    env = forest_envs.make(env_id, num_players=np.int64(n), max_steps=np.int32(500))
    assert len(env.possible_agents) == n
    env.reset(seed=np.int64(7))
    assert type(env.unwrapped.game.config["num_players"]) is int
    json.dumps(env.unwrapped.record())  # numpy values do not leak into the record
    first = env.unwrapped.record()["seed"]
    env.reset(seed=7)
    assert env.unwrapped.record()["seed"] == first


def test_numpy_bools_are_bools():
    env = forest_envs.make("chickwood_v0", num_players=np.int8(2), legendary=np.True_)
    assert env.unwrapped.game.config["legendary"] is True
    with pytest.raises(ConfigError):
        forest_envs.make("chickwood_v0", legendary=np.int64(1))  # an int is still not a bool


@pytest.mark.parametrize("seed", [-1, 1.5, "3", True])
def test_bad_seeds_are_refused(seed):
    env = forest_envs.make(GAME)
    with pytest.raises(ConfigError, match="seed must be None or a non-negative int"):
        env.reset(seed=seed)


@pytest.mark.parametrize("action", [0.0, np.float64(0.0), np.float32(1.0), True, np.True_, "0", None])
def test_non_integer_actions_are_refused(action):
    env = forest_envs.make_raw(GAME)
    env.reset(seed=0)
    with pytest.raises(IllegalActionError, match="action must be an int"):
        env.step(action)
    env.step(np.int64(env.engine_state.legal_actions()[0]))  # numpy ints are actions


def test_single_agent_env_refuses_floats_and_calls_before_reset():
    env = SingleAgentEnv(GAME, learner_seat=0)
    with pytest.raises(RuntimeError, match=r"step\(\) called before reset\(\)"):
        env.step(0)
    with pytest.raises(RuntimeError, match=r"action_masks\(\) called before reset\(\)"):
        env.action_masks()
    env.reset(seed=1)
    with pytest.raises(IllegalActionError, match="action must be an int, got 0.9"):
        env.step(0.9)
    legal = int(np.flatnonzero(env.action_masks())[0])
    env.step(np.array([legal]))  # a vectorized trainer's one-element slice is fine


def test_aec_calls_before_reset_say_so():
    raw = forest_envs.make_raw(GAME)
    for call in (lambda: raw.step(0), lambda: raw.last(), lambda: raw.observe("player_0"),
                 lambda: raw.view("player_0"), lambda: raw.action_mask("player_0"),
                 lambda: raw.render_text(), lambda: raw.state()):
        with pytest.raises(RuntimeError, match=r"called before reset\(\)"):
            call()
    env = forest_envs.make(GAME)
    for call in (lambda: env.step(0), lambda: env.last(), lambda: env.observe("player_0"),
                 lambda: env.unwrapped.view("player_0")):
        with pytest.raises((RuntimeError, AttributeError, AssertionError), match="reset"):
            call()
