"""A flat state buffer whose named blocks are numpy views, plus per-seat gather indices.

A game keeps every observable number of its state in one small integer buffer. Each block
declares who may see it, which of its axes are seats (rotated so the observer comes first)
and its range, so that a seat's observation is a single fancy-index of the buffer
(``buf[gather[seat]]``): the hot path builds no Python-level structures, what a seat can
see is decided in one declarative place, and the observation space's bounds come from the
declared ranges.

Who sees a block (``see``):
  ``"all"``     every seat, as is (seat axes rotated);
  ``"owner"``   axis 0 is the owning seat; a seat sees only its own row;
  ``"nobody"``  never observed (bookkeeping; still part of ``global_state``).
``seats``: the axes (of the full shape) that index seats. Each is rotated to the observer:
entry 0 is the observer, entry 1 the next seat, and so on. Several axes may be seats (a
seat x seat block); for an ``owner`` block, axis 0 is the owner and is never rotated.

A block of ids (``onehot``) is stored as one int per entry, as the rules read it, -1 for
"none"; the observation shows each entry one-hot over its classes (all zeros for "none"),
so a network never reads an id as a magnitude. ``onehot=True``: each id 0..high is its own
class; a tuple: ``onehot[v]`` is the class of id v (ids the observer need not tell apart
share a class). An observation lists the blocks of numbers first, then the one-hot blocks,
each group as declared (``observed_blocks``; ``observation_slices`` gives every block's
place): the numbers are then one scaled gather, and the ids' ones one indexed write.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NewType

import numpy as np

VISIBILITY = ("all", "owner", "nobody")

# How a state class declares a block attribute (``hand: BlockView  # [n, K]``): a numpy view
# into the state's buffer (int16), shaped as the layout's ``Block`` of that name. A type of
# its own, so a declaration tells a block from a plain field that holds an array.
BlockView = NewType("BlockView", np.ndarray)


@dataclass(frozen=True)
class Block:
    name: str
    shape: tuple
    see: str
    seats: tuple
    low: int
    high: int
    scale: float
    offset: int
    size: int
    # id -> class of a one-hot block (``Layout.add``'s ``onehot``); () for a block of numbers
    classes: tuple = ()

    @property
    def num_classes(self) -> int:
        return max(self.classes) + 1 if self.classes else 0

    def observed_shape(self) -> tuple:
        """The block's shape in an observation: an owner's own row, each id as its one-hot."""
        shape = self.shape[1:] if self.see == "owner" else self.shape
        return shape + (self.num_classes,) if self.classes else shape

    def observed_entries(self) -> int:
        """Stored entries a seat observes: an owner block's own row, else the whole block."""
        return self.size // self.shape[0] if self.see == "owner" and self.shape[0] else self.size


class Layout:
    def __init__(self, num_players: int, dtype=np.int16):
        self.num_players = num_players
        self.dtype = np.dtype(dtype)
        self.blocks: dict[str, Block] = {}
        self.size = 0
        self._frozen = False

    def add(self, name: str, shape, *, high: int, low: int = 0, see: str = "all",
            seats: int | tuple[int, ...] = (), scale: float = 1.0, onehot: bool | tuple = False) -> Block:
        """Declare a block; ``high`` (and ``low``) bound every value it may ever hold;
        ``onehot`` (True or an id -> class tuple) observes each id one-hot (module doc)."""
        if self._frozen:
            raise RuntimeError("layout is frozen")
        if name in self.blocks:
            raise ValueError(f"block {name!r} is declared twice")
        if see not in VISIBILITY:
            raise ValueError(f"block {name}: unknown visibility {see!r}; expected one of {VISIBILITY}")
        shape = (shape,) if isinstance(shape, (int, np.integer)) else tuple(int(s) for s in shape)
        seats = (seats,) if isinstance(seats, int) else tuple(seats)
        n = self.num_players
        if see == "owner" and (not shape or shape[0] != n):
            raise ValueError(f"block {name}: axis 0 must be the {n} owning seats")
        if see == "owner" and 0 in seats:
            raise ValueError(f"block {name}: the owner axis 0 is not rotated; list only other seat axes")
        for ax in seats:
            if not 0 <= ax < len(shape) or shape[ax] != n:
                raise ValueError(f"block {name}: seat axis {ax} must have {n} entries, shape is {shape}")
        info = np.iinfo(self.dtype)
        if not info.min <= low <= high <= info.max:
            raise ValueError(f"block {name}: range {low}..{high} does not fit {self.dtype}")
        classes = self._classes(name, onehot, low, high, scale)
        block = Block(name, shape, see, seats, int(low), int(high), float(scale), self.size,
                      int(np.prod(shape, dtype=np.int64)), classes)
        self.blocks[name] = block
        self.size += block.size
        return block

    @staticmethod
    def _classes(name: str, onehot, low: int, high: int, scale: float) -> tuple:
        if onehot is False:
            return ()
        if low < -1 or high < 0 or scale != 1.0:
            raise ValueError(f"block {name}: a one-hot block holds ids 0..high or -1 (none), "
                             f"unscaled; got range {low}..{high}, scale {scale}")
        classes = tuple(range(high + 1)) if onehot is True else tuple(int(c) for c in onehot)
        if len(classes) != high + 1 or min(classes) < 0 or set(classes) != set(range(max(classes) + 1)):
            raise ValueError(f"block {name}: onehot must give a class 0..K-1 to each id 0..{high}, "
                             f"every class used; got {onehot!r}")
        return classes

    def freeze(self) -> Layout:
        self._frozen = True
        observed = self.observed_blocks()
        self._gather = [self._build_gather(seat, observed) for seat in range(self.num_players)]
        per = [int(np.prod(b.observed_shape(), dtype=np.int64)) for b in observed]
        self._scale = self._per_entry(observed, per, lambda b: b.scale)
        # Bounds are computed exactly as observations are (float32 value x float32 scale), so
        # a value at its declared bound never lands a rounding error outside the Box.
        self.obs_low = self._per_entry(observed, per, lambda b: 0 if b.classes else b.low) * self._scale
        self.obs_high = self._per_entry(observed, per, lambda b: 1 if b.classes else b.high) * self._scale
        self.observation_size = int(self._scale.size)
        self.unit_scale = bool(np.all(self._scale == 1.0))
        self.has_onehot = any(b.classes for b in observed)
        if self.has_onehot:
            self._build_onehot(observed)
        everything = list(self.blocks.values())
        sizes = [b.size for b in everything]
        self.state_low = self._per_entry(everything, sizes, lambda b: b.low)
        self.state_high = self._per_entry(everything, sizes, lambda b: b.high)
        # (name, slice, shape or None for a one-axis block): every state binds its views from
        # this at each new game and clone, so a one-axis block skips the reshape.
        self._view_specs = tuple((b.name, slice(b.offset, b.offset + b.size),
                                  None if len(b.shape) == 1 else b.shape)
                                 for b in self.blocks.values())
        self._view_by_name = {name: (part, shape) for name, part, shape in self._view_specs}
        return self

    def native_tables(self) -> dict:
        """What a native engine needs of this frozen layout (core/native/layout.hpp): the
        blocks by name ([offset, *shape]), the gathers, scales and one-hot tables, and every
        entry's declared range. The native engines compute observations from these, so the
        layout stays declared once, here and in each game's observation module."""
        onehot = self.has_onehot
        return {
            "size": int(self.size), "num_players": int(self.num_players),
            "blocks": {b.name: [int(b.offset), *map(int, b.shape)] for b in self.blocks.values()},
            "gather": [g.astype(np.int64).tolist() for g in self._gather],
            "scale": self._scale.astype(np.float32).tolist(),
            "observation_size": int(self.observation_size), "unit_scale": bool(self.unit_scale),
            "has_onehot": bool(onehot), "numbers": int(self._numbers) if onehot else 0,
            "spare": int(self._spare) if onehot else 0,
            "onehot_base": self._onehot_base.astype(np.int64).tolist() if onehot else [],
            "onehot_at": self._onehot_at.astype(np.int64).tolist() if onehot else [],
            "state_low": self.state_low.astype(np.int16).tolist(),
            "state_high": self.state_high.astype(np.int16).tolist(),
        }

    def observed_blocks(self) -> list[Block]:
        """The blocks a seat observes, in observation order: the blocks of numbers as
        declared, then the one-hot blocks as declared (so the numbers are one scaled gather
        and the ids' ones fill the rest)."""
        seen = [b for b in self.blocks.values() if b.see != "nobody"]
        return [b for b in seen if not b.classes] + [b for b in seen if b.classes]

    @staticmethod
    def _per_entry(blocks, sizes, value) -> np.ndarray:
        parts = [np.full(size, value(b), np.float32) for b, size in zip(blocks, sizes)]
        return np.concatenate(parts) if parts else np.zeros(0, np.float32)

    def new_buffer(self) -> np.ndarray:
        return np.zeros(self.size, self.dtype)

    def views(self, buf: np.ndarray) -> dict[str, np.ndarray]:
        return {b.name: buf[b.offset:b.offset + b.size].reshape(b.shape) for b in self.blocks.values()}

    def gather(self, seat: int) -> np.ndarray:
        return self._gather[seat]

    @property
    def scale(self) -> np.ndarray:
        return self._scale

    def _build_onehot(self, observed: list[Block]) -> None:
        """Tables for the ids' ones: the id entry i (in gather order after the numbers)
        holding value v has its 1 at ``_onehot_at[_onehot_base[i] + v]``; a "none" puts its
        1 on the first number, which the scaled numbers then overwrite (or, in a layout of
        ids only, on a spare last float that is cut off)."""
        self._numbers = sum(b.observed_entries() for b in observed if not b.classes)
        self._spare = int(self._numbers == 0)
        none_at = self.observation_size if self._spare else 0
        at: list[int] = []
        bases: list[int] = []
        pos = sum(int(np.prod(b.observed_shape())) for b in observed if not b.classes)
        for b in (b for b in observed if b.classes):
            for _ in range(b.observed_entries()):
                bases.append(len(at) - b.low)
                at += [pos + b.classes[v] if v >= 0 else none_at for v in range(b.low, b.high + 1)]
                pos += b.num_classes
        self._number_scale = self._scale[:self._numbers]
        self._onehot_base = np.array(bases, np.intp)
        self._onehot_at = np.array(at, np.intp)

    def _observe_onehot(self, buf: np.ndarray, seat: int) -> np.ndarray:
        stored = buf.take(self._gather[seat])
        numbers = self._numbers
        out = np.empty(self.observation_size + self._spare, np.float32)
        out[numbers:] = 0
        # A stored id outside its declared range would land on a neighbour's entry:
        # ``out_of_range`` (checked after every action by the fuzz tests) names it.
        out[self._onehot_at.take(stored[numbers:] + self._onehot_base)] = 1
        np.multiply(stored[:numbers], self._number_scale, out=out[:numbers])
        return out[:-1] if self._spare else out

    def observe(self, buf: np.ndarray, seat: int) -> np.ndarray:
        # ``take`` is the same gather as ``buf[index]`` with less indexing machinery.
        if self.has_onehot:
            return self._observe_onehot(buf, seat)
        if self.unit_scale:
            return buf.take(self._gather[seat]).astype(np.float32)
        return buf.take(self._gather[seat]) * self._scale

    def out_of_range(self, buf: np.ndarray) -> list[str]:
        """Names of the blocks holding a value outside their declared range (for tests)."""
        # Fuzzing calls this after every action: one whole-buffer comparison answers the
        # usual case, and only a buffer out of range is walked block by block for the names.
        if self._frozen and bool(np.all(buf >= self.state_low)) and bool(np.all(buf <= self.state_high)):
            return []
        bad = []
        for b in self.blocks.values():
            part = buf[b.offset:b.offset + b.size]
            if part.size and (part.min() < b.low or part.max() > b.high):
                bad.append(f"{b.name} (values {part.min()}..{part.max()}, declared {b.low}..{b.high})")
        return bad

    def observation_slices(self) -> dict[str, tuple[int, int, tuple]]:
        """name -> (start, stop, shape as the observer sees it) within an observation, in
        observation order (``observed_blocks``)."""
        out, pos = {}, 0
        for b in self.observed_blocks():
            shape = b.observed_shape()
            size = int(np.prod(shape, dtype=np.int64))
            out[b.name] = (pos, pos + size, shape)
            pos += size
        return out

    def _build_gather(self, seat: int, observed: list[Block]) -> np.ndarray:
        """The buffer index of each observed stored entry, in observation order (an id's
        entry once: its one-hot is written from it)."""
        n = self.num_players
        rot = (np.arange(n) + seat) % n
        parts = []
        for b in observed:
            idx = np.arange(b.offset, b.offset + b.size).reshape(b.shape)
            axes = b.seats
            if b.see == "owner":
                idx = idx[seat]
                axes = tuple(ax - 1 for ax in axes)
            for ax in axes:
                idx = np.take(idx, rot, axis=ax)
            parts.append(idx.ravel())
        return np.concatenate(parts).astype(np.intp) if parts else np.zeros(0, np.intp)
