"""Seeded generators that live inside a game state and survive a JSON round trip."""

from __future__ import annotations

from typing import Any

import numpy as np


def fresh_seed() -> int:
    """A seed (62 bits) drawn from the operating system's entropy, for a play given none."""
    entropy = np.random.SeedSequence().entropy
    assert isinstance(entropy, int)  # (a SeedSequence made without entropy draws an int)
    return entropy % 2**62


def make_rng(seed: int | None) -> np.random.Generator:
    if seed is not None and (not isinstance(seed, (int, np.integer)) or isinstance(seed, bool) or seed < 0):
        from .errors import ConfigError

        raise ConfigError(f"seed must be a non-negative int or None, got {seed!r}")
    return np.random.Generator(np.random.PCG64(seed))


def rng_to_json(rng: np.random.Generator) -> dict:
    state = rng.bit_generator.state
    return {"bit_generator": state["bit_generator"], "state": dict(state["state"]),
            "has_uint32": state["has_uint32"], "uinteger": state["uinteger"]}


def rng_from_json(data: dict) -> np.random.Generator:
    bg = np.random.PCG64()
    # (numpy types the state as its own TypedDict, which a dict read from JSON is not)
    state: Any = {"bit_generator": data["bit_generator"], "state": dict(data["state"]),
                  "has_uint32": data["has_uint32"], "uinteger": data["uinteger"]}
    bg.state = state
    return np.random.Generator(bg)
