"""The Sherwood Forest picture's labels (issue 18): no text drawn is cut to fit its box (the
referee's "cudgel" was drawn "cudge"), and the equipment panel's heading is clear of the
seat discs and card chips drawn under it."""

from __future__ import annotations

import numpy as np
import pytest

from forest_envs.drawing import canvas as core_picture
from forest_envs.sherwood.components import EQUIPMENT
from forest_envs.sherwood.rules import new_game


def full_hands(state, kinds_per_seat: int = 3) -> None:
    """Every seat holds ``kinds_per_seat`` kinds, two of each, the longest names first."""
    by_length = sorted(range(len(EQUIPMENT)), key=lambda k: -len(EQUIPMENT[k]))
    for q in range(state.num_players):
        state.hand[q] = 0
        for i in range(kinds_per_seat):
            state.hand[q, by_length[(q + i) % len(by_length)]] = 2
    state.hand_count[:] = state.hand.sum(axis=1)
    state.edited()


def positions():
    """Random positions of the smallest and largest tables, with and without the additions,
    and tables where every seat holds long-named cards."""
    for n, additions in ((3, False), (6, True), (4, True)):
        s = new_game({"num_players": n, "additions": additions}, seed=n)
        rng = np.random.default_rng(n)
        for step in range(120):
            if s.is_terminal:
                break
            if step % 50 == 20:
                yield s
            s.apply(int(rng.choice(s.legal_actions())))
        full_hands(s)
        yield s


@pytest.fixture
def cuts(monkeypatch):
    """Every text ``Canvas.fit`` had to cut while the test ran."""
    found = []
    fit = core_picture.Canvas.fit

    def recording_fit(self, s, width, size=12, bold=False):
        out = fit(self, s, width, size, bold)
        if out != s:
            found.append(s)
        return out

    monkeypatch.setattr(core_picture.Canvas, "fit", recording_fit)
    return found


@pytest.mark.whole_games
def test_no_label_of_any_picture_is_cut(cuts):
    for s in positions():
        for seat in (None, 0):
            s.picture(seat)
    assert cuts == []


def test_the_equipment_heading_is_clear_of_the_seat_discs_and_the_cards(monkeypatch):
    texts, boxes, labels = [], [], []
    canvas = core_picture.Canvas
    text, disc, chip = canvas.text, canvas.seat_disc, canvas.chip

    def recording_text(self, x, y, s, size=12, fill=core_picture.INK, bold=False, anchor="la", width=None):
        texts.append((s, x, y, self.text_width(s, size, bold), size))
        return text(self, x, y, s, size, fill, bold, anchor, width)

    def recording_disc(self, cx, cy, r, seat, label=None):
        boxes.append((cx - r, cy - r, cx + r, cy + r))
        return disc(self, cx, cy, r, seat, label)

    def recording_chip(self, x, y, w, h, label, colour, count=1, size=10):
        boxes.append((x, y, x + w, y + h))
        labels.append(label)
        return chip(self, x, y, w, h, label, colour, count, size)

    monkeypatch.setattr(canvas, "text", recording_text)
    monkeypatch.setattr(canvas, "seat_disc", recording_disc)
    monkeypatch.setattr(canvas, "chip", recording_chip)
    s = new_game({"num_players": 6, "additions": True}, seed=1)
    full_hands(s)
    for seat, title in ((None, "Equipment in hand (referee)"), (0, "Your equipment")):
        texts.clear()
        boxes.clear()
        s.picture(seat)
        (x, y, w, size), = [(x, y, w, size) for t, x, y, w, size in texts if t == title]
        heading = (x, y, x + w, y + size + 3)
        cards = [b for b in boxes if b[1] >= y - 2]       # drawn from the heading down
        assert cards, title
        for b in cards:
            overlap = b[0] < heading[2] and heading[0] < b[2] and b[1] < heading[3] and heading[1] < b[3]
            assert not overlap, (title, b)
        right = max(b[2] for b in cards)
        assert right <= 1090, (title, right)                 # inside the panel
    # every card by its full name (the referee's chips once read "cudge", "fores", "messe")
    assert labels and set(labels) <= set(EQUIPMENT), set(labels) - set(EQUIPMENT)
