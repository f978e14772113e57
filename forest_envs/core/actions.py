"""Flat Discrete action spaces built from named blocks, as ``Layout`` is for observations.

A game declares its actions once, block by block (``space.add("play", (22, 6), label)``);
every id, offset, name and the docs' action table then come from that declaration:

    space = ActionSpace()
    PLAY = space.add("play", (NUM_KINDS, MAX_CASTLE), lambda k, c: f"play {KIND[k]} to castle {c + 1}")
    PASS = space.add("pass", (), lambda: "pass")
    space.freeze()
    PLAY.id(3, 2), PLAY.start, PLAY.stop, space.decode(a) -> ("play", (3, 2))
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np


class ActionBlock:
    """A named rectangle of action ids: ``start <= id < stop`` in row-major order of ``shape``."""

    __slots__ = ("label", "name", "shape", "size", "start", "stop", "_strides", "index")

    def __init__(self, name: str, shape: tuple, start: int, label: Callable[..., str]):
        self.name = name
        self.shape = shape
        self.size = int(np.prod(shape, dtype=np.int64)) if shape else 1
        self.start = start
        self.stop = start + self.size
        self.label = label
        strides, step = [], 1
        for dim in reversed(shape):
            strides.append(step)
            step *= dim
        self._strides = tuple(reversed(strides))
        # ``index`` sits on the hot path of every apply: the common one- and two-axis
        # shapes get a direct form instead of the general loop.
        self.index: Callable[[int], tuple[int, ...]]
        if len(shape) == 1:
            self.index = lambda action: (action - start,)
        elif len(shape) == 2:
            cols = shape[1]
            self.index = lambda action: divmod(action - start, cols)
        else:
            self.index = self._general_index

    def id(self, *index: int) -> int:
        """The flat action id of ``index`` inside this block."""
        if len(index) != len(self.shape) or any(not 0 <= i < d for i, d in zip(index, self.shape)):
            raise IndexError(f"action block {self.name!r} has shape {self.shape}, not index {index}")
        return self.start + sum(i * s for i, s in zip(index, self._strides))

    def _general_index(self, action: int) -> tuple[int, ...]:
        """The block index of a flat action id that lies in this block (``index``)."""
        rest = action - self.start
        out = []
        for s in self._strides:
            i, rest = divmod(rest, s)
            out.append(i)
        return tuple(out)

    def __contains__(self, action: int) -> bool:
        return self.start <= action < self.stop

    def names(self) -> list[str]:
        return [self.label(*self.index(a)) for a in range(self.start, self.stop)]

    def __repr__(self) -> str:
        return f"ActionBlock({self.name!r}, shape={self.shape}, ids {self.start}..{self.stop - 1})"


class ActionSpace:
    def __init__(self):
        self.blocks: dict[str, ActionBlock] = {}
        self.size = 0
        self._frozen = False

    def add(self, name: str, shape, label: Callable[..., str]) -> ActionBlock:
        if self._frozen:
            raise RuntimeError("action space is frozen")
        if name in self.blocks:
            raise ValueError(f"action block {name!r} is declared twice")
        shape = (shape,) if isinstance(shape, int) else tuple(shape)
        block = ActionBlock(name, shape, self.size, label)
        self.blocks[name] = block
        self.size = block.stop
        return block

    def freeze(self) -> ActionSpace:
        self._frozen = True
        self.names = [name for b in self.blocks.values() for name in b.names()]
        self._ids = {name: i for i, name in enumerate(self.names)}
        if len(self._ids) != len(self.names):
            dup = sorted({x for x in self.names if self.names.count(x) > 1})
            raise ValueError(f"action names must be unique; repeated: {dup[:5]}")
        self._owner = np.concatenate([np.full(b.size, i, np.int16)
                                      for i, b in enumerate(self.blocks.values())])
        self._block_list = list(self.blocks.values())
        return self

    def block_of(self, action: int) -> ActionBlock:
        return self._block_list[self._owner[action]]

    def decode(self, action: int) -> tuple[str, tuple[int, ...]]:
        block = self.block_of(action)
        return block.name, block.index(action)

    def encode(self, block: str, *index: int) -> int:
        return self.blocks[block].id(*index)

    def id_of(self, name: str) -> int | None:
        return self._ids.get(name)

    def table(self) -> list[dict]:
        """One row per block: name, first and last id, shape (for docs)."""
        return [{"block": b.name, "first": b.start, "last": b.stop - 1, "shape": b.shape}
                for b in self.blocks.values()]
