"""The agents every registered game has by name: ``random``, ``heuristic`` (the game's
scripted agent, from the registry) and ``ismcts[:options]`` (agents/search/ismcts.py).

They live in core so that ``SingleAgentEnv`` (and with it ``gymnasium.make``) takes
opponents by name; ``forest_envs.agents.make_agent`` builds on this and adds policy files,
which the agents layer loads."""

from __future__ import annotations

from ..core.errors import ConfigError
from ..core.registry import game_spec
from .base import RandomAgent

BUILTIN_AGENT_KINDS = ("random", "heuristic", "ismcts[:options]")


def is_builtin_agent_name(spec: str) -> bool:
    return spec in ("random", "heuristic", "ismcts") or spec.startswith("ismcts:")


def builtin_agent(env_id: str, spec: str, seed: int | None = None, policy=None):
    """The agent ``spec`` names (one of ``BUILTIN_AGENT_KINDS``) for ``env_id``; ``policy``: the
    loader of a search's policy by name (the agents layer's; core reads no policy file)."""
    game = game_spec(env_id)
    if spec == "random":
        return RandomAgent(seed)
    if spec == "heuristic":
        if game.heuristic is None:
            raise ConfigError(f"{env_id} has no heuristic agent; use random or a policy file")
        return game.heuristic(seed=seed)
    if spec == "ismcts" or spec.startswith("ismcts:"):
        from .search.ismcts import ISMCTSAgent

        return ISMCTSAgent.from_options(spec[len("ismcts:"):], seed=seed, heuristic=game.heuristic,
                                        policy=policy)
    raise ConfigError(f"unknown agent {spec!r}; expected one of {', '.join(BUILTIN_AGENT_KINDS)}")
