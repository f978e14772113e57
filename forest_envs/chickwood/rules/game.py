"""Chickwood Forest's configuration: options, traits and the tables every state of one
configuration shares (Chickwood Forest Rulebook, "Setup"), and ``new_game``."""

from __future__ import annotations

from typing import ClassVar

import numpy as np

from ...core.config import Option
from ...core.game import Game, GameTraits
from .. import actions as A
from ..components import (
    CASTLE_CAPACITY,
    GRID_COLS,
    MAX_CASTLE,
    MAX_CELLS,
    banners,
    castle_values,
    deck_composition,
    grid_rows,
    hand_size,
)
from ..observation import build_layout
from .raiding import NO_LAST_CELL


class ChickwoodGame(Game):
    env_id = "chickwood_v0"
    traits = GameTraits(
        name="Chickwood Forest", min_players=2, max_players=5, chance=True,
        hidden_information=True, has_scores=True, score_scale=10.0,
        tie_break="none: players with the most glory share first place (and the win)")
    state_class: ClassVar[type]
    options = {
        "num_players": Option(3, choices=(2, 3, 4, 5)),
        "legendary": Option(False, choices=(False, True), doc="play with the Legendary cards"),
    }
    build_layout = build_layout
    action_space = A.SPACE

    def __init__(self, **config):
        super().__init__(**config)
        n = self.num_players
        self.legendary = self.config["legendary"]
        self.hand_size = hand_size(n)
        self.composition = np.array(deck_composition(n, self.legendary), dtype=np.int16)
        self.castle_values = castle_values(n)
        self.rows = grid_rows(n)
        self.in_play = np.zeros(MAX_CASTLE, bool)
        self.in_play[[v - 1 for v in self.castle_values]] = True
        caps = np.full(MAX_CASTLE, 10_000, np.int16)
        for v, cap in CASTLE_CAPACITY.items():
            caps[v - 1] = cap
        self.capacity = caps
        self.banner = {v: tuple(int(ch == "D") for ch in b) for v, b in banners(n).items()}
        self.adjacent = np.zeros((MAX_CELLS + 1, MAX_CELLS), bool)  # row MAX_CELLS: "no last"
        self.adjacent[NO_LAST_CELL, :] = True
        for cell in range(MAX_CELLS):
            r, c = divmod(cell, GRID_COLS)
            for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                rr, cc = r + dr, c + dc
                if 0 <= rr < 3 and 0 <= cc < GRID_COLS:
                    self.adjacent[cell, rr * GRID_COLS + cc] = True


def new_game(config: dict | None = None, seed: int | None = None):
    """A new game (a ``ChickwoodState``); Game objects (layouts, names) are shared between
    games of one config."""
    return ChickwoodGame.shared(config).new_initial_state(seed)
