"""The agent protocol and the uniform random agent."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import numpy as np


@runtime_checkable
class Agent(Protocol):
    """Anything with ``act(env, agent) -> int`` that uses only what ``agent`` may know:
    ``env.observe(agent)`` and/or ``env.unwrapped.view(agent)``. An optional
    ``reset(seed=None)`` is called before each game; a seed restarts its randomness."""

    def act(self, env, agent: str) -> int: ...


class SeededAgent:
    """Base of agents that draw from their own seeded generator."""

    def __init__(self, seed: int | None = None):
        self.rng = np.random.default_rng(seed)

    def reset(self, seed: int | None = None) -> None:
        # A seed restarts the generator, so an env reset with a seed replays the same game
        # even when the same agent object is reused across episodes (SingleAgentEnv).
        if seed is not None:
            self.rng = np.random.default_rng(seed)


class RandomAgent(SeededAgent):
    """Uniform over the legal actions, from its own seeded generator."""

    name = "random"

    def act(self, env, agent: str) -> int:
        legal = np.flatnonzero(env.unwrapped.action_mask(agent))
        if legal.size == 0:
            raise ValueError(f"{agent} has no legal action: it is not its turn")
        return int(legal[self.rng.integers(legal.size)])
