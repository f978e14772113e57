"""Moved: the agent protocol and the random agent live in ``forest_envs/agents/base.py``.
This module keeps the old import path working (docs/architecture.md lists every such
module)."""

from ..agents.base import Agent, RandomAgent, SeededAgent

__all__ = ["Agent", "RandomAgent", "SeededAgent"]
