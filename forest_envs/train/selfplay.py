"""Opponent pools for self-play: random, heuristic and frozen snapshots of the learner.

A pool is called by ``SingleAgentEnv`` at every reset to seat fresh opponents. Snapshots are
``.npz`` files the trainer drops into a folder every K steps; worker processes read that
folder, so no policy weights cross process boundaries through pipes. A snapshot samples its
moves from its policy's distribution, or with ``greedy`` plays its most likely move (a
Q-network's snapshot: its outputs are action values, not logits to sample from).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ..agents import make_agent
from ..agents.policy import NumpyPolicy, PolicyAgent


class OpponentPool:
    def __init__(self, env_id: str, entries: list[dict], num_opponents: int,
                 snapshot_dir: str | Path | None = None, max_snapshots: int = 10,
                 greedy: bool = False):
        self.env_id = env_id
        self.greedy = greedy
        self.kinds = [e["agent"] for e in entries]
        weights = np.array([float(e.get("weight", 1.0)) for e in entries])
        self.probs = weights / weights.sum()
        self.num_opponents = num_opponents
        self.snapshot_dir = Path(snapshot_dir) if snapshot_dir else None
        self.max_snapshots = max_snapshots
        self._policies: dict[str, NumpyPolicy] = {}
        if "snapshot" in self.kinds and self.snapshot_dir is None:
            raise ValueError("a pool with snapshot opponents needs a snapshot_dir")

    def snapshots(self) -> list[Path]:
        files = sorted(self.snapshot_dir.glob("snapshot_*.npz")) if self.snapshot_dir else []
        return files[-self.max_snapshots:]

    def __call__(self, rng: np.random.Generator) -> list:
        out = []
        for _ in range(self.num_opponents):
            kind = self.kinds[rng.choice(len(self.kinds), p=self.probs)]
            seed = int(rng.integers(2**62))
            if kind == "snapshot":
                out.append(self._snapshot_agent(rng, seed))
            else:
                out.append(make_agent(self.env_id, kind, seed=seed))
        return out

    def _snapshot_agent(self, rng: np.random.Generator, seed: int):
        files = self.snapshots()
        if not files:
            raise FileNotFoundError(f"no snapshot_*.npz in {self.snapshot_dir}; the trainer "
                                    "writes snapshot 0 before training starts")
        path = files[int(rng.integers(len(files)))]
        key = str(path)
        if key not in self._policies:
            self._policies[key] = NumpyPolicy.load(path)
            for old in list(self._policies)[:-self.max_snapshots]:
                del self._policies[old]
        return PolicyAgent(path, seed=seed, deterministic=self.greedy, policy=self._policies[key])
