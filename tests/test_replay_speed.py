"""The replay page is built fast without changing a pixel, and its move lines narrate each move.

Speed: the pictures keep what they draw again and again (``drawing/cache.py``: FreeType's
text masks and widths, rounded boxes as stamps, one line of text without Pillow's per-call
set-up) and the page draws a picture only for a (view, view data) it has not drawn. The guards
count what is done (FreeType renders, Pillow boxes, pictures, views), which a loaded machine
does not change; a CPU-time ratio against plain Pillow drawing is marked slow.

Pixels: every picture equals the one plain Pillow drawing gives (``plain_pillow()``: the code
the pictures had before the caches), on whole stretches of seeded games of every game, and the
stamps and the text painter equal Pillow on random boxes and texts (half pixels, odd and even
positions, boxes off the edge)."""

from __future__ import annotations

import time

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from forest_envs.core.registry import env_ids, game_spec
from forest_envs.drawing import cache as picture_cache
from forest_envs.drawing import seats
from forest_envs.drawing.cache import paint_text, plain_pillow, rounded_box
from forest_envs.drawing.canvas import Canvas, font
from forest_envs.drawing.seats import watched
from forest_envs.evaluation import run_games
from forest_envs.replays.html import build_data, replay_positions

GAMES = [g for g in env_ids() if game_spec(g).game_class.state_class.has_picture()]


def states_of(env_id: str, moves: int, seed: int):
    """The start and the positions after the first ``moves`` moves of a seeded 3-player game
    of the game's heuristic against random players (chickwood's: a card played face down)."""
    rec = run_games(env_id, ["heuristic", "random", "random"], 1, seed=seed)[0].record
    state = game_spec(env_id).game_class(**rec["config"]).new_initial_state(rec["seed"])
    out = [state.clone()]
    for a in rec["actions"][:moves]:
        state.apply(a)
        out.append(state.clone())
    return rec, out


# --- the same pixels ------------------------------------------------------------------------------
@pytest.mark.parametrize("env_id", GAMES)
def test_pictures_equal_plain_pillow_drawing(env_id):
    _, states = states_of(env_id, 14, seed=4)
    views = [None] + list(range(states[0].num_players))
    for k, state in enumerate(states[::3]):
        for view in views:
            kept = state.picture(view)
            with plain_pillow():
                plain = state.picture(view)
            assert np.array_equal(kept, plain), (env_id, k, view)
    with watched():  # the replay's pictures (no "(you)") too
        kept = states[-1].picture(0)
        with plain_pillow():
            assert np.array_equal(kept, states[-1].picture(0))


def test_box_stamps_equal_pillow_boxes():
    rng = np.random.default_rng(7)
    colours = [None, (200, 30, 30), (255, 252, 244), (40, 36, 30)]
    for case in range(400):
        x0, y0 = (float(v) for v in rng.choice([rng.uniform(-20, 300), rng.integers(-5, 300) + 0.5,
                                                  rng.integers(-5, 300)], 2))
        w, h = rng.choice([rng.uniform(0, 90), rng.integers(0, 90) + 0.5], 2)
        fill, outline = colours[rng.integers(4)], colours[rng.integers(4)]
        radius, width = int(rng.integers(0, 12)), int(rng.integers(1, 4))
        xy = (x0, y0, x0 + w, y0 + h)
        a, b = Image.new("RGB", (320, 240), (246, 241, 228)), Image.new("RGB", (320, 240), (246, 241, 228))
        ImageDraw.Draw(a).rounded_rectangle(xy, radius=radius, fill=fill, outline=outline, width=width)
        rounded_box(b, ImageDraw.Draw(b), xy, radius, fill, outline, width)
        rounded_box(b, ImageDraw.Draw(b), xy, radius, fill, outline, width)  # the stamp again
        ImageDraw.Draw(a).rounded_rectangle(xy, radius=radius, fill=fill, outline=outline, width=width)
        assert np.array_equal(np.asarray(a), np.asarray(b)), (case, xy, radius, fill, outline, width)


def test_painted_text_equals_pillow_text():
    rng = np.random.default_rng(3)
    texts = ["P0", "view of P2", "Bishop of Lincoln …", "12", "cudgel", "ÄÖ →", ""]
    for case in range(300):
        f = font(int(rng.choice([8, 10, 13, 17])), bool(rng.integers(2)))
        s = texts[rng.integers(len(texts))]
        anchor = str(rng.choice(["la", "mm", "ra", "lm", "ms"]))
        xy = (float(rng.choice([rng.uniform(-10, 200), rng.integers(0, 200) + 0.5])),
              float(rng.uniform(-5, 60)))
        fill = tuple(int(v) for v in rng.integers(0, 256, 3))
        a, b = Image.new("RGB", (220, 70), (246, 241, 228)), Image.new("RGB", (220, 70), (246, 241, 228))
        ImageDraw.Draw(a).text(xy, s, fill=fill, font=f, anchor=anchor)
        paint_text(ImageDraw.Draw(b), xy, s, f, fill, anchor)
        assert np.array_equal(np.asarray(a), np.asarray(b)), (case, s, xy, anchor)


# --- the work done ---------------------------------------------------------------------------------
def test_a_picture_drawn_again_renders_no_text_and_stamps_its_boxes(monkeypatch):
    """Drawing a picture a second time asks FreeType for nothing and Pillow for no box but the
    few large panels (drawn each time, as cheap as a stamp)."""
    counts = {"render": 0, "measure": 0, "box": 0}
    render, measure = ImageFont.FreeTypeFont.getmask2, ImageFont.FreeTypeFont.getlength
    box = ImageDraw.ImageDraw.rounded_rectangle

    def counting(name, real):
        def call(*args, **kwargs):
            counts[name] += 1
            return real(*args, **kwargs)
        return call

    monkeypatch.setattr(ImageFont.FreeTypeFont, "getmask2", counting("render", render))
    monkeypatch.setattr(ImageFont.FreeTypeFont, "getlength", counting("measure", measure))
    monkeypatch.setattr(ImageDraw.ImageDraw, "rounded_rectangle", counting("box", box))
    for env_id in GAMES:
        _, states = states_of(env_id, 3, seed=1)
        states[-1].picture(None)
        counts.update(render=0, measure=0, box=0)
        calls = _canvas_calls(monkeypatch, lambda last=states[-1]: last.picture(None))
        assert counts["render"] == 0 and counts["measure"] == 0, (env_id, counts)
        assert counts["box"] <= max(8, calls["box"] // 10), (env_id, counts, calls)


def _canvas_calls(monkeypatch, draw) -> dict:
    seen = {"box": 0}
    real = Canvas.box

    def box(self, *args, **kwargs):
        seen["box"] += 1
        return real(self, *args, **kwargs)

    with monkeypatch.context() as m:
        m.setattr(Canvas, "box", box)
        draw()
    return seen


def test_the_page_draws_each_view_once_per_position_and_no_picture_twice(monkeypatch):
    env_id = GAMES[0]
    rec, states = states_of(env_id, 12, seed=5)
    rep = replay_positions(dict(rec, actions=rec["actions"][:12]))
    cls = type(rep.states[0])
    module = cls.picture_module()
    counts = {"view": 0, "picture": 0}
    real_view, real_picture = cls.view, module.picture

    def view(self, seat):
        counts["view"] += 1
        return real_view(self, seat)

    def picture(data):
        counts["picture"] += 1
        return real_picture(data)

    monkeypatch.setattr(cls, "view", view)
    monkeypatch.setattr(module, "picture", picture)
    data = build_data(rep, colors=0, workers=1)  # counted in this process
    cells = len(rep.states) * len(rep.views)
    assert counts["view"] == cells
    assert counts["picture"] == len(data["frames"]) <= cells


@pytest.mark.slow
@pytest.mark.parametrize("env_id", GAMES)
def test_kept_drawing_takes_well_under_plain_pillows_cpu_time(env_id):
    """CPU time (not wall time) of 30 pictures each way, measured alternately, so a loaded
    machine slows both alike (measured under load: 2-4x less)."""
    _, states = states_of(env_id, 30, seed=2)
    states[0].picture(0)

    def cpu(plain: bool) -> float:
        start = time.process_time()
        for state in states[1:]:
            if plain:
                with plain_pillow():
                    state.picture(0)
            else:
                state.picture(0)
        return time.process_time() - start

    kept, plain = cpu(False), cpu(True)
    kept, plain = min(kept, cpu(False)), min(plain, cpu(True))
    assert kept < plain / 1.5, (kept, plain)


# --- the move lines ---------------------------------------------------------------------------------
def test_move_lines_are_each_views_narration(monkeypatch):
    """Each view's line is ``after.narrate(before, action, view)``: the move as the view may read
    it, then the game's consequences as that view may know them (here a stand-in that names its
    observer)."""
    env_id = GAMES[0]
    rec, _ = states_of(env_id, 6, seed=5)
    rec = dict(rec, actions=rec["actions"][:6])
    render = game_spec(env_id).game_class.state_class.RENDER
    monkeypatch.setattr(render, "consequences",
                        lambda before, action, after, observer: [f"as seen by {observer}"], raising=False)
    rep = replay_positions(rec)
    data = build_data(rep, colors=16)
    for k in range(1, len(rep.states)):
        before = rep.states[k - 1]
        for i, view in enumerate(rep.views):
            line = data["strings"][data["text"][k][i]]
            assert line == f"{before.describe_action(rec['actions'][k - 1], view)}: as seen by {view}"


def test_a_replay_names_no_seat_you(monkeypatch):
    """A replay is watched: the seats' pictures say "P0", not "P0 (you)", and no line says
    "(you)"; outside a replay the seat's own picture still does."""
    names = []
    real = seats.seat_name
    monkeypatch.setattr(seats, "seat_name", lambda s, v: names.append(real(s, v)) or real(s, v))
    for env_id in GAMES:
        module = game_spec(env_id).game_class.state_class.picture_module()
        if getattr(module, "seat_name", None) is real:
            monkeypatch.setattr(module, "seat_name", seats.seat_name)
    rec, states = states_of(GAMES[0], 4, seed=5)
    data = build_data(replay_positions(dict(rec, actions=rec["actions"][:4])), colors=16)
    assert not any("(you)" in n for n in names)
    assert not any("(you)" in s for s in data["strings"])
    names.clear()
    states[0].picture(0)
    assert "P0 (you)" in names  # outside a replay, the board names its player's seat so


def test_progress_bar_on_request_and_silent_otherwise(capsys):
    rec, _ = states_of(GAMES[0], 2, seed=5)
    rep = replay_positions(dict(rec, actions=rec["actions"][:2]), "referee")
    build_data(rep, colors=16, progress=True)
    assert "drawing" in capsys.readouterr().err
    build_data(rep, colors=16)
    assert capsys.readouterr().err == ""


def test_caches_start_afresh_past_their_limit(monkeypatch):
    monkeypatch.setattr(picture_cache, "FORGET_AT", 3)
    f = font(11)
    image = Image.new("RGB", (60, 20))
    for s in ("a", "b", "c", "d", "e"):
        paint_text(ImageDraw.Draw(image), (1, 1), s, f, (255, 255, 255), "la")
    assert len(f._masks) <= 3


def test_box_stamps_start_afresh_past_their_area(monkeypatch):
    monkeypatch.setattr(picture_cache, "STAMPS_AREA", 2_000)
    monkeypatch.setattr(picture_cache, "_stamps", {})
    monkeypatch.setattr(picture_cache, "_stamped_area", [0])
    image = Image.new("RGB", (200, 100))
    for w in range(10, 60, 5):
        rounded_box(image, ImageDraw.Draw(image), (3, 3, 3 + w, 40), 4, (1, 2, 3), (9, 9, 9), 1)
    assert sum(p.width * p.height for p, _ in picture_cache._stamps.values()) < 2_000 + 70 * 50
