"""Cells: the places of a board that a game treats alike, as a policy network can read them.

A board game's rules are the same on every tile: moving to a tile is judged by what lies on
it and how far it is, whichever tile it is. A flat network over the whole observation must
learn that rule once per tile, from that tile's share of the data. A game that declares its
cells lets a network share weights across them instead (``forest_envs.train.cellpolicy``):

- ``features[c]``: the positions, within an observation, of the entries about cell ``c``
  (the same kinds of entries in the same order for every cell);
- ``actions[c]``: the action ids that name cell ``c`` (one per action block, in order).

Both come from declarations beside the game's own layout and action space
(``CellSpec``), so a block added or moved never leaves a stale table behind.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .actions import ActionBlock
from .layout import Layout


@dataclass(frozen=True)
class CellSpec:
    """Which observation blocks and action blocks have a cell axis. ``blocks``: (block name,
    its cell axis in the observed shape); ``actions``: action blocks of one id per cell."""

    num_cells: int
    blocks: tuple[tuple[str, int], ...]
    actions: tuple[ActionBlock, ...]


@dataclass(frozen=True)
class CellStructure:
    features: np.ndarray   # (cells, features per cell): positions in an observation
    actions: np.ndarray    # (cells, actions per cell): action ids

    @property
    def num_cells(self) -> int:
        return int(self.features.shape[0])


def cell_structure(layout: Layout, spec: CellSpec) -> CellStructure:
    """The observation positions and action ids of every cell, from ``spec`` over ``layout``
    (a frozen layout; its ``observation_slices`` place every block)."""
    slices = layout.observation_slices()
    parts = []
    for name, axis in spec.blocks:
        if name not in slices:
            raise ValueError(f"cell block {name!r} is not an observed block of the layout")
        start, stop, shape = slices[name]
        if not 0 <= axis < len(shape) or shape[axis] != spec.num_cells:
            raise ValueError(f"cell block {name!r}: axis {axis} of its observed shape {shape} "
                             f"does not have {spec.num_cells} cells")
        where = np.arange(start, stop).reshape(shape)
        parts.append(np.moveaxis(where, axis, 0).reshape(spec.num_cells, -1))
    actions = []
    for block in spec.actions:
        if block.size != spec.num_cells:
            raise ValueError(f"cell action block {block.name!r} has {block.size} ids, not one "
                             f"per cell ({spec.num_cells})")
        actions.append(np.arange(block.start, block.stop))
    return CellStructure(np.concatenate(parts, axis=1).astype(np.int64),
                         np.stack(actions, axis=1).astype(np.int64))
