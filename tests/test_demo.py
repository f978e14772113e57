"""``forest-envs demo`` (``make demo``): captioned tables, a training line that says when the
time limit stopped it, and two closing summary lines; the hints' command word."""

from __future__ import annotations

import os
import re
import sys

import pytest

from forest_envs.cli import args as cli_args
from forest_envs.cli.demo import line_ups, summary_lines, training_line
from forest_envs.cli.main import main


def test_training_line_says_the_time_limit_stopped_it_short_of_its_steps():
    cfg = {"total_timesteps": 400_000, "time_limit_minutes": 4}
    line = training_line({"stopped": "time_limit", "timesteps": 67_582, "wall_seconds": 240.0}, cfg)
    assert line == ("training stopped at its 4-minute time limit after 67,582 of 400,000 steps "
                    "(a busy machine gets fewer steps in that time, so a weaker agent)")
    done = training_line({"stopped": "step_budget", "timesteps": 400_000, "wall_seconds": 231.4}, cfg)
    assert done == "training ran its 400,000 steps in 231 s"


def test_summary_lines_name_both_agents_and_the_idle_figures():
    rows = [[{"win_rate": w}] for w in (0.8, 0.057, 0.977, 0.419)]
    first, second = summary_lines(313_636, line_ups("final.npz", 3), rows)
    assert first == ("The new agent (313,636 steps) won 0.800 of its games against two random players "
                     "and 0.057 against two heuristics (a fair share is 0.333).")
    assert second == ("The shipped baseline won 0.419 against two heuristics; the figures on an idle "
                      "machine are in docs/training.md, \"The demo\" (and README.md, \"Training\").")


def test_line_ups_are_the_four_tables_in_order():
    four = line_ups("p.npz", 4)
    assert four[0].caption == "the new agent against three random players"
    assert four[3].agents == ("ppo", "heuristic", "heuristic", "heuristic")
    assert [u.agents for u in line_ups("runs/demo/final.npz", 3)] == [
        ("runs/demo/final.npz", "random", "random"), ("runs/demo/final.npz", "heuristic", "heuristic"),
        ("heuristic", "random", "random"), ("ppo", "heuristic", "heuristic")]


@pytest.mark.slow  # a whole-process run: make test-all
def test_demo_prints_captions_tables_and_the_summary(tmp_path, capsys):
    code = main(["demo", "--config", "smoke", "--games", "2", "--workers", "1", "--quiet",
                 "--set", f"output_dir={tmp_path / 'demo'}", "--set", "time_limit_minutes=0.0001"])
    out = capsys.readouterr().out
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == f"1. Training a small agent into {tmp_path / 'demo'}: at most 512 steps or 0.0001 minutes"
    assert re.search(r"^training stopped at its 0\.0001-minute time limit after \d+ of 512 steps", out, re.M)
    captions = [line for line in lines if re.match(r"^[2-5]\. ", line)]
    assert captions == [
        "2. The new agent against two random players: 2 seat-rotated games",
        "3. The new agent against two heuristics: 2 seat-rotated games",
        "4. For scale: the heuristic against two random players: 2 seat-rotated games",
        "5. The shipped baseline (the agent ppo, in forest_envs/baselines/) against two heuristics: "
        "2 seat-rotated games"]
    assert lines[-2].startswith("The new agent (")
    assert lines[-1].startswith("The shipped baseline won ")


def test_hints_name_the_script_path_when_the_shell_would_not_find_it(monkeypatch, tmp_path):
    script = tmp_path / "venv" / "bin" / "forest-envs"
    script.parent.mkdir(parents=True)
    script.write_text("#!/bin/sh\n")
    script.chmod(0o755)
    monkeypatch.setattr(sys, "argv", [str(script), "train"])
    monkeypatch.setenv("PATH", "/nonexistent")
    assert cli_args.program_words() == [str(script)]
    monkeypatch.setenv("PATH", str(script.parent) + os.pathsep + "/usr/bin")
    assert cli_args.program_words() == ["forest-envs"]
    monkeypatch.setattr(sys, "argv", ["/x/forest_envs/cli/__main__.py"])
    assert cli_args.program_words() == ["forest-envs"]
