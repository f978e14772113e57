"""A flat state buffer whose named blocks are numpy views, plus per-seat gather indices.

A game keeps every observable number of its state in one small integer buffer. Each block
declares who may see it and how seats rotate through it, so that a seat's observation is a
single fancy-index of the buffer (``buf[gather[seat]]``): the hot path builds no Python-level
structures, and what a seat can see is decided in one declarative place.

Roles:
  ``public``       seen by every seat as is;
  ``by_player``    first axis is the player; rotated so the observer comes first;
  ``player_last``  last axis is the player; rotated the same way;
  ``private``      first axis is the player; a seat sees only its own row;
  ``hidden``       never observed (bookkeeping only; still part of ``global_state``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

ROLES = ("public", "by_player", "player_last", "private", "hidden")


@dataclass(frozen=True)
class Block:
    name: str
    shape: tuple
    role: str
    offset: int
    scale: float

    size: int


class Layout:
    def __init__(self, num_players: int, dtype=np.int16):
        self.num_players = num_players
        self.dtype = np.dtype(dtype)
        self.blocks: dict[str, Block] = {}
        self.size = 0
        self._frozen = False

    def add(self, name: str, shape, role: str = "public", scale: float = 1.0) -> None:
        if self._frozen:
            raise RuntimeError("layout is frozen")
        if role not in ROLES:
            raise ValueError(f"unknown role {role!r}; expected one of {ROLES}")
        shape = (shape,) if isinstance(shape, int) else tuple(shape)
        if role in ("by_player", "private") and shape[0] != self.num_players:
            raise ValueError(f"block {name}: first axis must be the {self.num_players} players")
        if role == "player_last" and shape[-1] != self.num_players:
            raise ValueError(f"block {name}: last axis must be the {self.num_players} players")
        block = Block(name, shape, role, self.size, float(scale), int(np.prod(shape, dtype=np.int64)))
        self.blocks[name] = block
        self.size += block.size

    def freeze(self) -> Layout:
        self._frozen = True
        n = self.num_players
        self._gather = [self._build_gather(seat) for seat in range(n)]
        self._scale = np.concatenate(
            [np.full(b.size if b.role != "private" else b.size // n, b.scale, np.float32)
             for b in self.blocks.values() if b.role != "hidden"] or [np.zeros(0, np.float32)]
        )
        self.observation_size = int(self._scale.size)
        self.unit_scale = bool(np.all(self._scale == 1.0))
        return self

    def new_buffer(self) -> np.ndarray:
        return np.zeros(self.size, self.dtype)

    def views(self, buf: np.ndarray) -> dict[str, np.ndarray]:
        return {b.name: buf[b.offset:b.offset + b.size].reshape(b.shape) for b in self.blocks.values()}

    def gather(self, seat: int) -> np.ndarray:
        return self._gather[seat]

    @property
    def scale(self) -> np.ndarray:
        return self._scale

    def observe(self, buf: np.ndarray, seat: int) -> np.ndarray:
        if self.unit_scale:
            return buf[self._gather[seat]].astype(np.float32)
        return buf[self._gather[seat]] * self._scale

    def observation_slices(self) -> dict[str, tuple[int, int, tuple]]:
        """name -> (start, stop, shape as the observer sees it) within an observation."""
        out, pos = {}, 0
        for b in self.blocks.values():
            if b.role == "hidden":
                continue
            shape = b.shape[1:] if b.role == "private" else b.shape
            size = int(np.prod(shape, dtype=np.int64))
            out[b.name] = (pos, pos + size, shape)
            pos += size
        return out

    def _build_gather(self, seat: int) -> np.ndarray:
        n = self.num_players
        rot = (np.arange(n) + seat) % n
        parts = []
        for b in self.blocks.values():
            idx = np.arange(b.offset, b.offset + b.size).reshape(b.shape)
            if b.role == "hidden":
                continue
            if b.role == "by_player":
                idx = idx[rot]
            elif b.role == "player_last":
                idx = idx[..., rot]
            elif b.role == "private":
                idx = idx[seat]
            parts.append(idx.ravel())
        return np.concatenate(parts).astype(np.intp) if parts else np.zeros(0, np.intp)
