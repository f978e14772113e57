"""``forest-envs play`` as a person meets it: a real process on a pseudo-terminal (python's
``pty``), a few moves typed, ``help``, then ``q``; every screen it printed is checked."""

from __future__ import annotations

import os
import pty
import re
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

import forest_envs
from forest_envs.cli.play import PROMPT
from forest_envs.core.registry import game_spec

ROOT = Path(forest_envs.__file__).parent.parent
WIDTH = 80  # an 80-column terminal
ANSI = re.compile(r"\x1b\[[0-9;]*m")  # colours of the rich board: no columns


def drive(argv: list[str], replies: list[str], timeout: float = 120.0) -> tuple[list[str], str, int]:
    """Run ``forest-envs <argv>`` on a pseudo-terminal; each time it waits at the move prompt,
    type the next reply. Returns the screens (the output between two replies, the last one
    after the last reply), the whole output and the exit status."""
    master, slave = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "forest_envs.cli", *argv], stdin=slave,
                            stdout=slave, stderr=slave, cwd=ROOT, close_fds=True,
                            start_new_session=True)
    os.close(slave)
    screens, out, screen = [], b"", b""
    todo = list(replies)
    deadline = time.monotonic() + timeout
    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no prompt within {timeout} s; output so far:\n{out.decode()[-2000:]}")
            ready, _, _ = select.select([master], [], [], left)
            if not ready:
                continue
            try:
                chunk = os.read(master, 65536)
            except OSError:  # EIO: the program ended and closed the terminal
                break
            if not chunk:
                break
            out += chunk
            screen += chunk
            if todo and screen.endswith(PROMPT.encode()):
                screens.append(screen.decode())
                screen = b""
                os.write(master, (todo.pop(0) + "\n").encode())
        screens.append(screen.decode())
        code = proc.wait(timeout=30)
    finally:
        os.close(master)
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return [s.replace("\r\n", "\n") for s in screens], out.decode().replace("\r\n", "\n"), code


def kind_names(env_id: str) -> list[str]:
    return [k.name for k in game_spec(env_id).game_class.state_class.DECISIONS]


@pytest.fixture(scope="module", params=sorted(forest_envs.ENV_IDS))  # the games that ship
def session(request):
    env_id = request.param
    replies = ["0", "0", "help", "0", "q"]
    screens, out, code = drive(["play", "--env", env_id, "--seed", "5"], replies)
    return env_id, screens, out, code


def test_play_starts_quits_and_prints_the_replay_command(session):
    env_id, screens, out, code = session
    assert code == 0
    assert len(screens) == 6  # five replies: five prompts, then what came after "q"
    head = out.splitlines()[:4]
    assert head[0].endswith(f"({env_id}), seed 5")
    assert head[1].startswith("Players: P0 you, P1 heuristic, ")
    again = ["To play this game again:", f"  forest-envs play --env {env_id} --opponents heuristic --seed 5"]
    assert head[2:] == again
    assert screens[-1].splitlines()[-3:] == again + ["bye"]
    assert "Traceback" not in out


def test_every_screen_shows_the_decision_and_the_moves(session):
    env_id, screens, out, code = session
    for i, screen in enumerate(screens[:-1]):
        assert screen.endswith(PROMPT)
        if i == 3:  # after "help": the commands, the legend and every move numbered
            assert "Commands:" in screen and "Board legend:" in screen
            assert re.search(r"\nYour moves \(\d+\):\n +0: ", screen)
            continue
        lines = screen.splitlines()
        at = next(j for j, line in enumerate(lines) if line.startswith("Your moves ("))
        # state.prompt(seat): the pending decision as a sentence just above the moves, its
        # first line flush left, a long one continued on a few indented lines.
        first = next(j for j in range(at - 1, -1, -1) if not lines[j].startswith(" "))
        assert lines[first].strip() and at - first <= 4, (env_id, lines[first - 1:at + 1])
        assert "to decide:" not in lines[first], (env_id, lines[first])  # the game's own words
        assert re.match(r"Your moves \(\d+; type a number or a move's name", lines[at])


def test_every_line_fits_in_80_columns(session):
    env_id, screens, out, code = session
    long = [line for line in ANSI.sub("", out).splitlines() if len(line) > WIDTH]
    assert not long, (env_id, long[:3])


def test_the_log_names_players_as_the_board_does(session):
    env_id, screens, out, code = session
    moves = [line for line in out.splitlines() if re.match(r"P\d+( \(you\))?: ", line)]
    assert moves, env_id
    assert all(line.startswith("P0 (you): ") == ("(you)" in line.split(":")[0]) for line in moves)
    assert not re.search(r"P\d \((random|heuristic)\)", out)  # who plays a seat: said once, at the start
    assert "player_0" not in out and "player_1" not in out


def test_no_internal_name_with_an_underscore(session):
    """A decision kind's name with an underscore (goblin_give, well_give) never reaches the
    person, on the board or in a prompt (the generic prompt spells it with spaces)."""
    env_id, screens, out, code = session
    for name in kind_names(env_id):
        if "_" in name:
            assert name not in out, (env_id, name)


def test_no_decision_kind_reaches_the_person(session):
    """Every shipped game words its decisions itself: no screen shows a kind's raw name in
    brackets or the generic prompt's "to decide: <kind>"."""
    env_id, screens, out, code = session
    for name in kind_names(env_id):
        assert f"[{name}]" not in out, (env_id, name)
        assert f"to decide: {name.replace('_', ' ')}" not in out, (env_id, name)
