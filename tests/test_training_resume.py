"""Training that a person can stop and restart: Ctrl-C saves and prints the resume command,
an output folder holding another run is refused, a resume keeps counting steps and wall time
and refuses what it cannot continue, progress follows the limit that ends the run, and a
policy that does not fit the game is a ConfigError naming both sizes."""

from __future__ import annotations

import csv
import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import numpy as np
import pytest

from forest_envs.core.errors import ConfigError
from forest_envs.envs.registration import make_raw
from forest_envs.train.config import load_config

pytest.importorskip("sb3_contrib")

ROOT = Path(__file__).resolve().parents[1]
SMOKE = ROOT / "forest_envs" / "configs" / "smoke.yaml"
FOREST_ENVS = Path(sys.executable).with_name("forest-envs")

# In-process runs: 2 players, 2 envs in this process, a few hundred steps.
TINY = {"total_timesteps": 256, "vec_env": "dummy", "checkpoint_every": 128, "ppo.n_steps": 64,
        "ppo.batch_size": 64, "opponents.snapshot_every": 128, "eval.every": 128, "eval.games": 2,
        "eval.final_games": 0, "eval.opponents": ["random"], "env_config": {"num_players": 2}}


def tiny(out: Path, **overrides) -> dict:
    """The tiny config writing to ``out``; overrides use dotted keys with "__" for ".":
    ``tiny(out, policy__net_arch=[8])``."""
    dotted = {k.replace("__", "."): v for k, v in overrides.items()}
    return load_config(SMOKE, {**TINY, "output_dir": str(out), **dotted})


def train(cfg, **kwargs):
    from forest_envs.train.sb3 import train as run

    return run(cfg, progress=False, **kwargs)


def read_csv(path: Path) -> list[dict]:
    with path.open() as f:
        return list(csv.DictReader(f))


@pytest.fixture(scope="module")
def finished_run(tmp_path_factory):
    """A tiny run trained to its step budget: (output folder, summary)."""
    out = tmp_path_factory.mktemp("finished") / "run"
    return out, train(tiny(out))


def game_sizes(num_players: int) -> tuple[int, int]:
    game = make_raw("chickwood_v0", num_players=num_players).game
    return game.observation_size, game.num_actions


# --- Ctrl-C ------------------------------------------------------------------------------------

def start_cli(args: list[str]) -> subprocess.Popen:
    # A session of its own, so killpg reaches the workers too, as a terminal's Ctrl-C does.
    return subprocess.Popen([str(FOREST_ENVS), "train", str(SMOKE), *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True, cwd=ROOT)


def ctrl_c_when(proc: subprocess.Popen, ready, timeout: float = 60) -> tuple[str, str]:
    deadline = time.time() + timeout
    while not ready():
        assert proc.poll() is None, f"training ended before Ctrl-C: {proc.communicate()}"
        assert time.time() < deadline, "training did not start in time"
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGINT)
    return proc.communicate(timeout=timeout)


@pytest.mark.slow  # a whole-process run: make test-all
def test_ctrl_c_saves_a_checkpoint_and_prints_the_command_that_resumes(tmp_path):
    out = tmp_path / "run"
    sets = ["--set", f"output_dir={out}", "--set", "total_timesteps=1024", "--set", "checkpoint_every=256",
            "--set", "opponents.snapshot_every=256", "--set", "eval.games=0", "--set", "eval.final_games=0"]
    proc = start_cli(sets)  # smoke.yaml: 2 worker processes (SubprocVecEnv)
    stdout, stderr = ctrl_c_when(proc, (out / "checkpoints" / "model_000000000256.zip").is_file)
    assert proc.returncode == 130, stderr
    assert "Traceback" not in stderr, stderr
    assert "stopped: interrupted (Ctrl-C)" in stdout
    summary = json.loads((out / "summary.json").read_text())
    assert summary["stopped"] == "interrupted" and 256 <= summary["timesteps"] < 1024
    state = json.loads((out / "checkpoints" / "latest.json").read_text())
    assert state["timesteps"] == summary["timesteps"] and state["wall_seconds"] > 0
    assert not (out / "final.zip").exists()  # the run is not finished

    command = shlex.split(stdout.split("continue with:")[1].strip().splitlines()[0])
    # the script's own path when the shell would not find forest-envs on its PATH (a venv not activated)
    found = shutil.which("forest-envs")
    word = "forest-envs" if found and Path(found).resolve() == FOREST_ENVS.resolve() else str(FOREST_ENVS)
    assert command[:2] == [word, "train"] and command[-2:] == ["--resume", str(out / "checkpoints" / "latest.zip")]
    resumed = subprocess.run([str(FOREST_ENVS), *command[1:]], capture_output=True, text=True, cwd=ROOT,
                             timeout=120)
    assert resumed.returncode == 0, resumed.stderr
    assert "Traceback" not in resumed.stderr
    final = json.loads((out / "summary.json").read_text())
    assert final["stopped"] == "step_budget" and final["timesteps"] >= 1024
    assert final["session"]["timesteps"] == final["timesteps"] - summary["timesteps"]
    assert final["wall_seconds"] > state["wall_seconds"]
    assert f"the run in all: {final['timesteps']} steps" in resumed.stdout


def test_ctrl_c_during_the_warm_start_stops_cleanly(tmp_path):
    from forest_envs.train.runs import earlier_run

    out = tmp_path / "run"
    # Game workers in this process (vec_env=dummy): the warm start's own workers are the test.
    proc = start_cli(["--set", f"output_dir={out}", "--set", "vec_env=dummy", "--set", "pretrain.games=400",
                      "--set", "pretrain.workers=2"])
    lines = []

    def warm_start_running() -> bool:
        lines.append(proc.stdout.readline())
        return lines[-1].startswith("pretrain: playing")

    stdout, stderr = ctrl_c_when(proc, warm_start_running)
    assert proc.returncode == 130, stderr
    assert "Traceback" not in stderr, stderr  # neither the main process nor a game worker
    assert "training interrupted; work since the last checkpoint is not saved" in stderr
    assert "no checkpoint was saved: run the same command again" in stdout
    assert not (out / "checkpoints" / "latest.zip").exists()
    assert earlier_run(out) == []  # the same command may simply be run again


# --- one run per output folder ------------------------------------------------------------------

def test_an_output_folder_with_an_earlier_run_is_refused_unless_overwrite(tmp_path, capsys):
    from forest_envs.cli.main import build_parser, main

    out = tmp_path / "run"
    train(tiny(out, total_timesteps=128))
    # A snapshot of another network would become an opponent if the runs mixed.
    np.savez(out / "snapshots" / "snapshot_999999999999.npz", w_out=np.zeros((3, 280)))
    with pytest.raises(ConfigError, match=r"holds an earlier run .*--resume .*latest.zip.*--overwrite"):
        train(tiny(out))
    assert main(["train", str(SMOKE), "--set", f"output_dir={out}", "--quiet"]) == 2
    assert capsys.readouterr().err.startswith(f"forest-envs: output folder {out} holds an earlier run")

    assert build_parser().parse_args(["train", str(SMOKE), "--overwrite"]).overwrite
    summary = train(tiny(out), overwrite=True)
    assert summary["timesteps"] == 256
    assert not (out / "snapshots" / "snapshot_999999999999.npz").exists()
    rows = read_csv(out / "eval.csv")
    assert [int(r["timesteps"]) for r in rows] == [128, 256]  # this run's rows only
    with pytest.raises(ConfigError, match="exclude each other"):
        train(tiny(out), resume=str(out / "checkpoints" / "latest.zip"), overwrite=True)


# --- resume -------------------------------------------------------------------------------------

def test_resume_counts_this_session_and_the_whole_run(tmp_path):
    out = tmp_path / "run"
    first = train(tiny(out))
    before = json.loads((out / "checkpoints" / "latest.json").read_text())["wall_seconds"]
    second = train(tiny(out, total_timesteps=512), resume=str(out / "checkpoints" / "latest.zip"))
    assert second["stopped"] == "step_budget"
    assert second["timesteps"] == 512 and second["session"]["timesteps"] == 512 - first["timesteps"]
    assert second["wall_seconds"] == pytest.approx(before + second["session"]["wall_seconds"], abs=0.2)
    rows = read_csv(out / "eval.csv")
    assert [int(r["timesteps"]) for r in rows] == [128, 256, 384, 512]
    walls = [float(r["wall_s"]) for r in rows]
    assert walls == sorted(walls) and walls[2] >= before  # the wall clock carries on


@pytest.mark.parametrize("change, setting", [
    ({"policy__net_arch": [16]}, "policy.net_arch"),
    ({"policy__activation": "relu"}, "policy.activation"),
    ({"env_config": {"num_players": 3}}, "env_config.num_players"),
    ({"env_config": {"num_players": 2, "legendary": True}}, "env_config.legendary"),
])
def test_resume_refuses_a_setting_that_cannot_change(finished_run, tmp_path, change, setting):
    run, _ = finished_run
    out = tmp_path / "elsewhere"
    cfg = tiny(out, total_timesteps=512, **change)
    with pytest.raises(ConfigError, match=rf"^{setting} cannot change on resume: checkpoint "):
        train(cfg, resume=str(run / "checkpoints" / "latest.zip"))
    assert not out.exists()  # refused before anything was written


def test_resume_refuses_a_run_already_at_its_step_budget(finished_run, tmp_path):
    run, summary = finished_run
    with pytest.raises(ConfigError, match="already at total_timesteps=256.*--set total_timesteps"):
        train(tiny(tmp_path / "x"), resume=str(run / "checkpoints" / "latest.zip"))


def text_file(path: Path) -> Path:
    path.write_text("not a zip")
    return path


def foreign_zip(path: Path) -> Path:
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("notes.txt", "not a model")
    return path


def ppo_model(path: Path) -> Path:
    from stable_baselines3 import PPO

    from forest_envs.envs.gym_env import SingleAgentEnv

    PPO("MlpPolicy", SingleAgentEnv("chickwood_v0", num_players=2), n_steps=64, batch_size=64,
        policy_kwargs={"net_arch": [32]}, device="cpu").save(path)
    return path


def model_of_another_game(path: Path) -> Path:
    """A MaskablePPO model for 3 players, saved without a run state beside it."""
    from sb3_contrib import MaskablePPO

    from forest_envs.envs.gym_env import SingleAgentEnv

    MaskablePPO("MlpPolicy", SingleAgentEnv("chickwood_v0", num_players=3), n_steps=64, batch_size=64,
                policy_kwargs={"net_arch": [32]}, device="cpu").save(path)
    return path


@pytest.mark.parametrize("make, message", [
    (lambda p: p, r"checkpoint .*missing.zip does not exist"),
    (text_file, r"checkpoint .* is not a MaskablePPO model .*not a zip file"),
    (foreign_zip, r"checkpoint .* is not a MaskablePPO model saved by forest-envs train"),
    (ppo_model, r"is not a MaskablePPO model .*it holds ActorCriticPolicy"),
    (model_of_another_game, r"expects observations of {3p} floats and 280 actions; chickwood_v0 with "
                            r"num_players=2, legendary=False gives {2p} and 280"),
])
def test_a_checkpoint_that_cannot_resume_is_one_clear_error(tmp_path, make, message):
    checkpoint = make(tmp_path / "missing.zip")
    message = message.format(**{f"{n}p": game_sizes(n)[0] for n in (2, 3)})
    out = tmp_path / "run"
    with pytest.raises(ConfigError, match=message):
        train(tiny(out, total_timesteps=512), resume=str(checkpoint))
    assert not out.exists()


# --- progress and why a run stopped ----------------------------------------------------------------

def test_progress_counts_the_limit_that_ends_the_run_first(tmp_path, capsys):
    from forest_envs.train.progress import LimitProgress, Progress
    from forest_envs.train.runs import Run, RunClock

    # The shipped config: 20 M steps or 28 minutes; at ~900 steps/s the time limit binds.
    cfg = tiny(tmp_path, total_timesteps=20_000_000, time_limit_minutes=28)
    shown = LimitProgress(Progress(enabled=True), Run(cfg, tmp_path, RunClock(before=280.0)), 0)
    why, done, left = shown.status(250_000, rate=900.0)
    assert why == "time limit 28 min" and done == pytest.approx(280 / 1680, abs=0.01)
    assert left == pytest.approx(1400, abs=5)  # not 20 M / 900 s = 6 hours
    shown.update(250_000)
    assert "ppo: 17% of the time limit 28 min: 250,000 steps" in capsys.readouterr().out
    # With a generous time limit the step budget binds and the ETA follows the step rate.
    cfg = tiny(tmp_path, total_timesteps=1_000_000, time_limit_minutes=600)
    shown = LimitProgress(Progress(enabled=False), Run(cfg, tmp_path, RunClock(before=60.0)), 0)
    why, done, left = shown.status(500_000, rate=1000.0)
    assert why == "step budget 1,000,000" and done == 0.5 and left == pytest.approx(500)


def test_the_time_limit_stops_the_run_and_says_so(tmp_path):
    from forest_envs.train.runs import stop_reason

    cfg = tiny(tmp_path / "run", total_timesteps=1_000_000, time_limit_minutes=0.02)
    summary = train(cfg)
    assert summary["stopped"] == "time_limit" and summary["timesteps"] < 1_000_000
    assert (tmp_path / "run" / "final.npz").is_file()
    assert stop_reason(summary, cfg).startswith("time limit of 0.02 min reached at ")


def test_warm_start_reports_each_stage_in_a_log(tmp_path, capsys):
    from sb3_contrib import MaskablePPO

    from forest_envs.envs.gym_env import SingleAgentEnv
    from forest_envs.train.pretrain import warm_start
    from forest_envs.train.progress import Progress

    cfg = tiny(tmp_path, pretrain__games=3, pretrain__epochs=2, pretrain__workers=1)
    model = MaskablePPO("MlpPolicy", SingleAgentEnv("chickwood_v0", num_players=2), n_steps=64,
                        batch_size=64, policy_kwargs={"net_arch": [16]}, device="cpu")
    report = warm_start(model, cfg, Progress(enabled=True))  # pytest's stdout is not a terminal
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "pretrain: playing 3 heuristic games on 1 worker(s)"
    assert lines[1].startswith(f"pretrain: collected {report['samples']} samples from 3 games in ")
    assert lines[2].startswith("pretrain: epoch 1/2 loss ") and lines[3].startswith("pretrain: epoch 2/2 loss ")
    assert lines[4].startswith("pretrain: done in ") and len(lines) == 5


# --- policies that do not fit the game, files that hold no policy --------------------------------

def save_policy(path: Path, observation_size: int, hidden: int = 4, actions: int = 280) -> Path:
    np.savez(path, w0=np.zeros((observation_size, hidden), np.float32), b0=np.zeros(hidden, np.float32),
             w_out=np.zeros((hidden, actions), np.float32), b_out=np.zeros(actions, np.float32),
             activation=np.array("Tanh"))
    return path


def test_a_policy_for_another_player_count_names_both_sizes(tmp_path):
    from forest_envs.agents.policy import NumpyPolicy, PolicyAgent, check_policy_fits
    from forest_envs.evaluation import run_games

    two, three = game_sizes(2), game_sizes(3)
    path = save_policy(tmp_path / "final.npz", two[0])
    expected = (f"policy {path} expects observations of {two[0]} floats and 280 actions; "
                f"chickwood_v0 with num_players=3, legendary=False gives {three[0]} and 280")
    env = make_raw("chickwood_v0", num_players=3)
    with pytest.raises(ConfigError) as err:
        PolicyAgent(path, env=env)
    assert str(err.value) == expected
    agent = PolicyAgent(path)  # without the env: the first act() checks
    env.reset(seed=0)
    with pytest.raises(ConfigError, match="expects observations of"):
        agent.act(env, env.agent_selection)
    with pytest.raises(ConfigError, match=f"policy {path} expects"):
        run_games("chickwood_v0", [str(path), "random", "random"], 2)
    policy = NumpyPolicy.load(path)
    assert (policy.observation_size, policy.num_actions) == (two[0], 280)
    check_policy_fits(policy, *two, "policy x")  # fits: no error
    with pytest.raises(ConfigError, match="^policy x expects .* 280 actions; a smaller game gives .* and 279$"):
        check_policy_fits(policy, two[0], 279, "policy x", "a smaller game")


@pytest.mark.parametrize("write, reason", [
    (lambda p: p.write_text("hello"), "not a zip archive"),
    (lambda p: p.write_bytes(save_policy(p, 10).read_bytes()[:200]), "not a zip archive"),
    (lambda p: np.savez(p, weights=np.zeros(3)), "KeyError"),
    (lambda p: save_policy(p, 10).write_bytes(_mismatched_layers()), "do not chain"),
])
def test_a_file_that_holds_no_policy_is_a_config_error_naming_it(tmp_path, write, reason):
    from forest_envs.agents.policy import NumpyPolicy

    path = tmp_path / "bad.npz"
    write(path)
    with pytest.raises(ConfigError, match=rf"policy file '{path}' is not a policy .*{reason}"):
        NumpyPolicy.load(path)


def _mismatched_layers() -> bytes:
    import io

    buf = io.BytesIO()
    np.savez(buf, w0=np.zeros((10, 4)), b0=np.zeros(4), w_out=np.zeros((5, 280)), b_out=np.zeros(280),
             activation=np.array("Tanh"))
    return buf.getvalue()


def test_a_zip_that_holds_no_model_is_a_config_error_naming_it(tmp_path):
    from forest_envs.agents.policy import NumpyPolicy

    path = foreign_zip(tmp_path / "notes.zip")
    with pytest.raises(ConfigError, match=rf"policy file '{path}' is not a policy forest_envs can play"):
        NumpyPolicy.load(path)
