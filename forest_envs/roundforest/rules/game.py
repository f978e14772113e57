"""One configuration of Roundforest: the player count, the variants and the forest's shape.

Roundforest rulebook, "Setup" (the forest for 3-4 players and for 2, the wells' fixed
places, each backpack in a corner) and "Setup"'s note on the harder game without silver-coin
tokens; the blockade is "Setting and removing a blockade (optional!)".
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np

from ...core.config import Option
from ...core.game import Game, GameTraits
from .. import actions as A
from ..components import (
    DEFAULT_MAX_STEPS,
    MAX_GRID,
    NUM_CELLS,
    backpack_corner,
    grid_size,
    item_counts,
    start_targets,
    tile_cells,
    well_cells,
)
from ..observation import CELLS, build_layout
from .distances import near_sources, near_span


class RoundforestGame(Game):
    env_id = "roundforest_v0"
    traits = GameTraits(
        name="Roundforest", min_players=2, max_players=4, chance=True,
        hidden_information=True, has_scores=False, random_play_ends=False,
        tie_break="the winner (who brings 3 golden apples and no debts to the Forest Spirit) "
                  "ranks first; the others, and everybody in an unfinished game, by progress: "
                  "more golden apples, then fewer debts, then more coins (a silver coin "
                  "counts 3 copper), then more items; equal progress shares the place")
    state_class: ClassVar[type]
    options = {
        "num_players": Option(3, choices=(2, 3, 4)),
        "no_silver": Option(False, choices=(False, True),
                            doc="remove the silver-coin item tokens (harder game)"),
        "blockade": Option(False, choices=(False, True),
                           doc="the optional blockade rule with heavy items"),
    }
    default_max_steps = DEFAULT_MAX_STEPS  # stalled positions exist (docs/roundforest.md)
    build_layout = build_layout
    action_space = A.SPACE
    cell_spec = CELLS

    def __init__(self, **config):
        super().__init__(**config)
        n = self.num_players
        self.no_silver = self.config["no_silver"]
        self.blockade = self.config["blockade"]
        self.grid = grid_size(n)
        self.tile_cells = tile_cells(n)
        self.well_cells = well_cells(n)
        self.plain_cells = tuple(c for c in self.tile_cells if c not in self.well_cells)
        self.items = item_counts(self.no_silver)
        self.is_tile = np.zeros(NUM_CELLS, bool)
        self.is_tile[list(self.tile_cells)] = True
        self.corner = tuple(backpack_corner(n, p) for p in range(n))
        self.starts = tuple(tuple(start_targets(n, p)) for p in range(n))
        # gap (r, c) lies between cells (r, c), (r, c+1), (r+1, c), (r+1, c+1)
        self.gap_cells: dict[int, tuple[int, ...]] = {}
        for r in range(self.grid - 1):
            for c in range(self.grid - 1):
                cells = tuple(rr * MAX_GRID + cc for rr in (r, r + 1) for cc in (c, c + 1)
                              if self.is_tile[rr * MAX_GRID + cc])
                self.gap_cells[r * (MAX_GRID - 1) + c] = cells
        # gaps next to at least one tile, where a blockade can lie (one mask write per turn)
        self.gap_usable = np.zeros((MAX_GRID - 1) ** 2, bool)
        self.gap_usable[[g for g, cells in self.gap_cells.items() if cells]] = True
        self.near_span = near_span(self.layout)
        self.near_sources = near_sources(self.layout)
        self.near_memo: list = [None, None]  # [the sources' bytes, their near_* values]


def new_game(config: dict | None = None, seed: int | None = None):
    """A new game of this configuration (defaults: 3 players, no variant), set up from
    ``seed``."""
    return RoundforestGame.shared(config).new_initial_state(seed)
