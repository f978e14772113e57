"""``evaluate`` and ``rollout`` as a user meets them: Ctrl-C stops at once and keeps the games
that finished, records are written before anything is printed and never over a file by
accident, and a table of another size than the game's default says so."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from forest_envs.cli.main import main

ROOT = Path(__file__).resolve().parents[1]


def start(argv: list[str], cwd: Path) -> tuple[subprocess.Popen, list[str]]:
    """``forest-envs ARGV`` in a session of its own (so that a Ctrl-C goes to its whole process
    group, as a terminal sends it); its stderr is read as it comes."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    # pytest-xdist's workers ignore SIGINT, and a child inherits that: give it the default
    # back, as a shell gives a command it starts, so Python turns a Ctrl-C into KeyboardInterrupt
    proc = subprocess.Popen([sys.executable, "-m", "forest_envs.cli", *argv], cwd=cwd, env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    err: list[str] = []

    def read():
        while chunk := proc.stderr.read(1):
            err.append(chunk)

    threading.Thread(target=read, daemon=True).start()
    return proc, err


def ctrl_c(proc: subprocess.Popen) -> tuple[str, int, float]:
    """Ctrl-C to the process group; what it printed, its status and how long it took to end."""
    os.killpg(proc.pid, signal.SIGINT)
    sent = time.monotonic()
    out = proc.stdout.read()
    code = proc.wait(timeout=60)
    return out, code, time.monotonic() - sent


def test_ctrl_c_in_evaluate_stops_at_once_and_keeps_the_finished_games(tmp_path):
    # ismcts games take seconds each: a Ctrl-C used to wait for every running job to end
    proc, err = start(["evaluate", "--env", "chickwood_v0", "--agents", "ismcts:sims=200,random,random",
                       "--games", "40", "--workers", "2", "--records", "r.jsonl", "--json", "r.json"], tmp_path)
    deadline = time.monotonic() + 300
    while not re.search(r"\b([2-9]|\d\d)/40\b", "".join(err)):  # the bar: two games finished
        assert time.monotonic() < deadline and proc.poll() is None, "".join(err)
        time.sleep(0.1)
    out, code, took = ctrl_c(proc)
    assert code == 130
    assert took < 1.5  # within a second (and a half, on a loaded machine)
    finished = int(re.search(r"^chickwood_v0: (\d+) of 40 seat-rotated games, seed 0$", out, re.M).group(1))
    assert finished >= 2
    assert f"PARTIAL: interrupted (Ctrl-C) after {finished} of 40 games; the seats are not rotated evenly " \
           "over the games that finished" in out
    assert re.search(rf"^0:ismcts:sims=200 +{finished} ", out, re.M)
    records = [json.loads(line) for line in (tmp_path / "r.jsonl").read_text().splitlines()]
    assert len(records) == finished
    table = json.loads((tmp_path / "r.json").read_text())
    assert (table["games"], table["games_asked"], table["partial"]) == (finished, 40, True)
    assert [row["games"] for row in table["rows"]] == [finished] * 3
    assert "Traceback" not in "".join(err)


def test_ctrl_c_in_rollout_prints_the_finished_games_and_writes_their_records(tmp_path):
    proc, err = start(["rollout", "--env", "chickwood_v0", "--agents", "random,random,random",
                       "--games", "5000", "--records", "r.jsonl"], tmp_path)
    time.sleep(8)  # imports, then some of the games (tens of milliseconds each)
    assert proc.poll() is None
    out, code, took = ctrl_c(proc)
    assert code == 130 and took < 1.5
    finished = int(re.search(r"^chickwood_v0: (\d+) of 5000 game\(s\), seed 0;", out, re.M).group(1))
    assert finished >= 1
    assert out.splitlines()[1].startswith(f"PARTIAL: interrupted (Ctrl-C) after {finished} of 5000 games")
    assert len(re.findall(r"^game \d+: ", out, re.M)) == finished
    assert len((tmp_path / "r.jsonl").read_text().splitlines()) == finished
    assert "Traceback" not in "".join(err)


def test_rollout_writes_its_records_before_printing(tmp_path):
    # `forest-envs rollout ... --records f | head -1`: the reader is gone after one line
    proc = subprocess.Popen([sys.executable, "-m", "forest_envs.cli", "rollout", "--env", "chickwood_v0",
                             "--agents", "random,random", "--games", "30", "--records", "f.jsonl"],
                            cwd=tmp_path, env=dict(os.environ, PYTHONPATH=str(ROOT)),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    first = proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) in (0, 141)
    assert first.decode().startswith("chickwood_v0: 30 game(s), seed 0;")
    assert err == ""
    assert len((tmp_path / "f.jsonl").read_text().splitlines()) == 30


@pytest.mark.parametrize("command", ["rollout", "evaluate"])
def test_records_never_replace_a_file_unless_told(command, tmp_path, capsys):
    path = tmp_path / "games.jsonl"
    path.write_text("mine\n")
    argv = [command, "--env", "chickwood_v0", "--agents", "random,random", "--games", "2", "--quiet",
            "--records", str(path)]
    assert main(argv) == 2
    assert capsys.readouterr().err == f"forest-envs: --records {str(path)!r} already exists; --overwrite replaces it\n"
    assert path.read_text() == "mine\n"
    assert main(argv + ["--overwrite"]) == 0
    assert len(path.read_text().splitlines()) == 2


def test_a_table_smaller_than_the_default_says_so(capsys):
    assert main(["evaluate", "--env", "chickwood_v0", "--agents", "heuristic,random", "--games", "2",
                 "--quiet"]) == 0
    assert capsys.readouterr().out.splitlines()[:2] == [
        "chickwood_v0: 2 seat-rotated games, seed 0",
        "2 players, one per agent given (the game's default is 3: give 3 agents for it)"]
    # the default table, or a size given with --set, needs no word
    assert main(["evaluate", "--env", "chickwood_v0", "--agents", "heuristic,random,random", "--games", "2",
                 "--quiet"]) == 0
    assert capsys.readouterr().out.splitlines()[1].startswith("agent ")
    assert main(["rollout", "--env", "chickwood_v0", "--agents", "heuristic,random", "--games", "1",
                 "--set", "num_players=2"]) == 0
    assert capsys.readouterr().out.splitlines()[1].startswith("game 0: ")


def test_evaluate_and_benchmark_name_their_scales_differently(capsys):
    assert main(["evaluate", "--env", "chickwood_v0", "--agents", "heuristic,random,random", "--games", "2",
                 "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "skill (mu ± sigma)" in out and "rating" not in out.replace("forest-envs benchmark's ratings", "")
