"""``forest-envs replay RECORD --html OUT``: a recorded game as one self-contained HTML page.

Fast tests read the page's embedded data back (decoding its picture tiles in Python) and
check it against the replayed game; the slow test opens the page in a real headless
Chromium (Debian's ``chromium`` package), driven over the DevTools protocol on a pipe, and
checks what the canvas shows after key presses."""

from __future__ import annotations

import base64
import io
import json
import os

import numpy as np
import pytest
from chromium import CHROMIUM, Chromium
from PIL import Image

import forest_envs
from forest_envs.cli import main as cli
from forest_envs.drawing.seats import watched
from forest_envs.evaluation import run_games
from forest_envs.replays.html import build_data, load_record, read_records, replay_html, replay_positions

PICTURED = "chickwood_v0"   # a game with pictures and cards played face down
TOY = "toy_v0"              # no pictures: the page shows the text render


@pytest.fixture(scope="module")
def short_record():
    """The first 12 moves of a 3-player Chickwood game (drawing every picture of a whole game
    takes ~20 s; a record may end before its game does)."""
    rec = run_games(PICTURED, ["heuristic", "random", "random"], 1, seed=5)[0].record
    return dict(rec, actions=rec["actions"][:12], agents=["heuristic", "random", "random"])


def bad(capsys, argv, *fragments):
    """The CLI's refusal of bad input: exit 2 and one line ``forest-envs: ...`` (as in
    tests/test_bad_input.py)."""
    code = cli.main(argv)
    out, err = capsys.readouterr()
    assert code == 2, (out, err)
    assert "Traceback" not in err and "Traceback" not in out
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("forest-envs: "), err
    for fragment in fragments:
        assert fragment in lines[0], lines[0]
    return lines[0]


def page_data(page: str) -> dict:
    start = page.index('<script id="replay-data" type="application/json">') + len(
        '<script id="replay-data" type="application/json">')
    return json.loads(page[start: page.index("</script>", start)].replace("<\\/", "</"))


def decode_pictures(data: dict) -> list[np.ndarray]:
    """Every frame of a picture page, rebuilt from its sheets and tile lists as the page's
    script does it."""
    t, cols, rows = data["tile"], data["cols"], data["rows"]
    sheets = [np.asarray(Image.open(io.BytesIO(base64.b64decode(url.split(",", 1)[1]))).convert("RGB"))
              for url in data["sheets"]]
    maps, out = [], []
    for base, diff in data["frames"]:
        m = maps[base].copy() if base >= 0 else np.full(rows * cols, -1)
        m[diff[0::2]] = diff[1::2]
        maps.append(m)
        image = np.zeros((rows * t, cols * t, 3), np.uint8)
        for cell, tid in enumerate(m):
            sheet = sheets[tid // data["sheet_tiles"]]
            k = tid % data["sheet_tiles"]
            sy, sx = (k // data["sheet_columns"]) * t, (k % data["sheet_columns"]) * t
            r, c = divmod(cell, cols)
            image[r * t:(r + 1) * t, c * t:(c + 1) * t] = sheet[sy:sy + t, sx:sx + t]
        out.append(image[: data["height"], : data["width"]])
    return out


def positions(record):
    """The engine state at every position of a record, by stepping the registry's replay."""
    env = forest_envs.replay(dict(record, actions=[]))
    states = [env.unwrapped.engine_state.clone()]
    for a in record["actions"]:
        env.step(a)
        states.append(env.unwrapped.engine_state.clone())
    return states


# --- the page's content ----------------------------------------------------------------------------
def test_page_holds_every_position_and_view_exactly(short_record):
    page = replay_html(short_record, colors=0)  # lossless: pixels compare exactly
    assert page.startswith("<!DOCTYPE html>")
    assert "http://" not in page and "https://" not in page  # self-contained: nothing fetched
    for control in ('id="first"', 'id="prev"', 'id="next"', 'id="last"', 'id="slider"', 'id="view"',
                    "ArrowRight", "ArrowLeft", "Home", "End"):
        assert control in page
    data = page_data(page)
    steps = len(short_record["actions"])
    assert data["mode"] == "picture" and data["steps"] == steps
    assert [v["id"] for v in data["views"]] == ["referee", "0", "1", "2"]
    assert data["views"][1]["label"] == "P0 (heuristic)"
    assert len(data["frame"]) == steps + 1 and all(len(row) == 4 for row in data["frame"])
    frames = decode_pictures(data)
    states = positions(short_record)
    for k, state in enumerate(states):
        for i, view in enumerate([None, 0, 1, 2]):
            with watched():  # a replay is watched: no seat is "(you)"
                assert np.array_equal(frames[data["frame"][k][i]], state.picture(view)), (k, view)
            if k:
                before = states[k - 1]
                text = data["strings"][data["text"][k][i]]
                assert text == state.narrate(before, short_record["actions"][k - 1], view)
                assert data["actor"][k] == before.current_player


def test_seat_views_hide_what_the_seat_may_not_know(short_record):
    """A seat's frames are the pictures of a state differing in everything that seat cannot
    know (resample_hidden), and a card another seat plays face down is not named to it."""
    data = page_data(replay_html(short_record, views="0,1", colors=0))
    assert [v["id"] for v in data["views"]] == ["0", "1"]
    frames = decode_pictures(data)
    states = positions(short_record)
    rng = np.random.default_rng(0)
    hidden_moves = 0
    for k, state in enumerate(states):
        for i, seat in enumerate([0, 1]):
            other = state.resample_hidden(seat, rng)
            with watched():
                assert np.array_equal(frames[data["frame"][k][i]], other.picture(seat)), (k, seat)
        if k < len(short_record["actions"]):
            a = short_record["actions"][k]
            for i, seat in enumerate([0, 1]):
                if state.describe_action(a, seat) != state.game.action_to_string(a):
                    hidden_moves += 1
                    assert data["strings"][data["text"][k + 1][i]] != state.game.action_to_string(a)
    assert hidden_moves, "the record should have a card played face down"
    # The referee's view is not in this page at all.
    assert "referee" not in {v["id"] for v in data["views"]}


def test_identical_tiles_are_stored_once(short_record):
    """Most of a picture is the same from view to view and move to move: each distinct tile
    is stored once, and a frame lists only the tiles that changed."""
    data = page_data(replay_html(short_record, colors=0))
    cells = len(data["frames"]) * data["rows"] * data["cols"]
    assert data["tiles"] < cells / 10
    assert sum(len(diff) // 2 for _, diff in data["frames"]) < cells / 4
    assert [base for base, _ in data["frames"][:4]] == [-1] * 4  # one full frame per view


def test_quantised_page_is_smaller_and_close(short_record):
    lossless = replay_html(short_record, views="referee", colors=0)
    small = replay_html(short_record, views="referee", colors=32)
    assert len(small) < len(lossless) / 2
    data = page_data(small)
    state = positions(short_record)[0]
    assert (data["height"], data["width"], 3) == state.picture_shape()
    frame = decode_pictures(data)[0].astype(int)
    assert np.abs(frame - state.picture(None)).mean() < 4  # a palette of 32 colours: close


def test_game_without_pictures_shows_its_text():
    rec = run_games(TOY, ["random", "random"], 1, seed=2)[0].record
    data = page_data(replay_html(rec))
    assert data["mode"] == "text" and 'id="textboard"' in replay_html(rec)
    states = positions(rec)
    for k, state in enumerate(states):
        for i, view in enumerate([None, 0, 1]):
            assert data["pages"][data["frame"][k][i]] == state.render(view)
    assert data["result"].startswith("Game over:")


def test_illegal_and_truncated_endings():
    env = forest_envs.make(TOY, illegal_action="penalize")
    env.reset(seed=1)
    state = env.unwrapped.engine_state
    env.step(state.legal_actions()[0])
    env.step(next(a for a in range(env.unwrapped.game.num_actions) if a not in state.legal_actions()))
    data = page_data(replay_html(env.unwrapped.record()))
    assert data["steps"] == 2
    assert data["strings"][data["text"][2][0]].startswith("illegal action")
    assert data["result"].startswith("Game over: P1 made an illegal move")
    env = forest_envs.make(TOY, max_steps=2)
    env.reset(seed=1)
    for _ in range(2):
        env.step(env.unwrapped.engine_state.legal_actions()[0])
    assert "truncated" in page_data(replay_html(env.unwrapped.record()))["result"]


# --- the command -------------------------------------------------------------------------------------
def test_rollout_and_evaluate_records_open_as_pages(tmp_path, capsys):
    roll, ev = tmp_path / "roll.jsonl", tmp_path / "eval.jsonl"
    assert cli.main(["rollout", "--env", TOY, "--agents", "random,random", "--games", "3",
                     "--records", str(roll)]) == 0
    assert cli.main(["evaluate", "--env", TOY, "--agents", "random,random", "--games", "4",
                     "--quiet", "--workers", "2", "--records", str(ev)]) == 0
    records = read_records(str(ev))
    assert len(records) == 4
    assert records == [dict(r.record, agents=[["random", "random"][i] for i in r.seats])
                       for r in run_games(TOY, ["random", "random"], 4)]
    capsys.readouterr()
    out = tmp_path / "game.html"
    assert cli.main(["replay", str(roll), "--game", "2", "--html", str(out)]) == 0
    assert f"wrote {out}" in capsys.readouterr().out
    assert page_data(out.read_text())["seed"] == read_records(str(roll))[2]["seed"]
    # One JSON record (as env.record() gives it), pretty-printed, works too.
    single = tmp_path / "one.json"
    single.write_text(json.dumps(records[1], indent=2))
    assert load_record(str(single)) == records[1]
    assert cli.main(["replay", str(single), "--html", str(out), "--views", "1"]) == 0
    # Without --html: the moves as the first view reads them.
    capsys.readouterr()
    assert cli.main(["replay", str(single), "--views", "0"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(f"{TOY}, seed ") and "as P0" in lines[0]
    assert len(lines) == len(records[1]["actions"]) + 2
    assert lines[-1].startswith("Game over")


@pytest.fixture
def record_file(tmp_path):
    path = tmp_path / "games.jsonl"
    recs = [r.record for r in run_games(TOY, ["random", "random"], 2, seed=1)]
    path.write_text("".join(json.dumps(r) + "\n" for r in recs))
    return path, recs


def test_bad_input_is_one_line(tmp_path, capsys, record_file):
    path, recs = record_file
    out = str(tmp_path / "g.html")
    bad(capsys, ["replay", str(tmp_path / "missing.jsonl"), "--html", out], "does not exist")
    bad(capsys, ["replay", str(tmp_path), "--html", out], "is a folder")
    (tmp_path / "notes.txt").write_text("hello\n")
    bad(capsys, ["replay", str(tmp_path / "notes.txt"), "--html", out], "not a game record", "line 1")
    (tmp_path / "other.json").write_text(json.dumps({"rows": [1, 2]}))
    bad(capsys, ["replay", str(tmp_path / "other.json"), "--html", out], "not a game record")
    (tmp_path / "empty.json").write_text("")
    bad(capsys, ["replay", str(tmp_path / "empty.json"), "--html", out], "empty")
    (tmp_path / "alien.json").write_text(json.dumps(dict(recs[0], env_id="nope_v0")))
    bad(capsys, ["replay", str(tmp_path / "alien.json"), "--html", out], "unknown env id 'nope_v0'")
    (tmp_path / "long.json").write_text(json.dumps(dict(recs[0], actions=recs[0]["actions"] + [0, 0])))
    bad(capsys, ["replay", str(tmp_path / "long.json"), "--html", out], "does not replay",
        "after the game ended")
    (tmp_path / "illegal.json").write_text(json.dumps(dict(recs[0], actions=[10**6])))
    bad(capsys, ["replay", str(tmp_path / "illegal.json"), "--html", out], "does not replay")
    bad(capsys, ["replay", str(path), "--game", "2", "--html", out], "--game 2", "2 game(s)", "0..1")
    bad(capsys, ["replay", str(path), "--game", "-1", "--html", out], "--game must be non-negative")
    bad(capsys, ["replay", str(path), "--html", str(tmp_path / "nowhere" / "g.html")], "does not exist")
    bad(capsys, ["replay", str(path), "--html", str(tmp_path)], "is a folder")
    bad(capsys, ["replay", str(path), "--html", out, "--views", "referee,7"], "--views", "'7'", "0..1")
    bad(capsys, ["replay", str(path), "--html", out, "--views", ","], "--views lists no view")
    bad(capsys, ["replay", str(path), "--html", out, "--colors", "1"], "--colors must be 2..256")
    bad(capsys, ["evaluate", "--env", TOY, "--agents", "random,random", "--quiet",
                 "--records", str(tmp_path / "nowhere" / "r.jsonl")], "--records", "does not exist")
    assert not os.path.exists(out)


def test_unwritable_output_is_refused(tmp_path, capsys, monkeypatch, record_file):
    path, _ = record_file
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    if os.geteuid() == 0:  # root writes anywhere: the permission check is what is tested
        real = os.access
        monkeypatch.setattr(os, "access", lambda p, mode: False if str(p) == str(locked) else real(p, mode))
    try:
        bad(capsys, ["replay", str(path), "--html", str(locked / "g.html")], "not writable")
    finally:
        locked.chmod(0o700)


def test_build_data_is_json(short_record):
    rep = replay_positions(dict(short_record, actions=short_record["actions"][:2]), "referee")
    json.dumps(build_data(rep, colors=16))


# --- in a real browser ----------------------------------------------------------------------------
@pytest.mark.slow
def test_page_in_headless_chromium(tmp_path, short_record):
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"{CHROMIUM} is missing: install Debian's chromium (apt-get install chromium)")
    path = tmp_path / "game.html"
    path.write_text(replay_html(short_record, colors=0))  # lossless: the canvas equals the picture
    states = positions(short_record)
    last = len(short_record["actions"])
    browser = Chromium()
    try:
        browser.open(path.as_uri())
        browser.wait_for("document.body && document.body.dataset.ready === '1'")

        def shown() -> tuple[int, str, np.ndarray]:
            url = browser.js("document.getElementById('board').toDataURL('image/png')")
            canvas = np.asarray(Image.open(io.BytesIO(base64.b64decode(url.split(",", 1)[1]))).convert("RGB"))
            return int(browser.js("document.body.dataset.step")), browser.js("document.body.dataset.view"), canvas

        step, view, canvas = shown()
        assert (step, view) == (0, "referee")
        assert np.array_equal(canvas, states[0].picture(None))
        assert browser.js("document.getElementById('step').textContent") == f"step 0 / {last}"

        browser.press("ArrowRight", 39)
        step, view, canvas = shown()
        assert step == 1 and np.array_equal(canvas, states[1].picture(None))
        action = browser.js("document.getElementById('action').textContent")
        assert action == f"P{states[0].current_player}: " + states[0].describe_action(
            short_record["actions"][0], None)

        browser.press("End", 35)
        step, view, canvas = shown()
        assert step == last and np.array_equal(canvas, states[-1].picture(None))
        assert browser.js("document.getElementById('slider').value") == str(last)

        browser.press("ArrowLeft", 37)
        assert shown()[0] == last - 1
        browser.press("Home", 36)
        assert shown()[0] == 0

        # The view chooser: seat 1 sees its own picture (what it may know, nothing more).
        browser.js("const s = document.getElementById('view'); s.value = '2';"
                   "s.dispatchEvent(new Event('change'))")
        step, view, canvas = shown()
        with watched():   # a replay names no seat "you"
            assert (step, view) == (0, "1") and np.array_equal(canvas, states[0].picture(1))
        # The buttons and the slider.
        browser.js("document.getElementById('last').click()")
        assert shown()[0] == last
        browser.js("const r = document.getElementById('slider'); r.value = '3';"
                   "r.dispatchEvent(new Event('input'))")
        step, view, canvas = shown()
        with watched():
            assert step == 3 and np.array_equal(canvas, states[3].picture(1))
    finally:
        browser.close()
