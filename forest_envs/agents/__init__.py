"""Agents by name, for every registered game: ``random``, ``heuristic`` (the game's scripted
agent), ``ismcts`` /
``ismcts:sims=400,time=0.5,rollout=heuristic,c=0.7,depth=20,reward=rank,prior=none``
(information-set MCTS; options separated by commas or colons, see docs/search.md) or the path
of a trained policy (``.npz`` exported by the trainer, or an SB3 ``.zip``).

This package is the agents layer: above core/ (a game's heuristic comes through the registry),
below evaluation and training, which play the agents made here and are never imported from
here. Playing a policy file needs only numpy (``policy.py``); training writes those files.
"""

from __future__ import annotations

from ..core.errors import ConfigError
from ..core.named_agents import CORE_AGENT_KINDS, core_agent, is_core_agent_name
from ..core.registry import game_spec
from .policy import PolicyAgent

AGENT_KINDS = (*CORE_AGENT_KINDS, "a policy file (.npz / .zip)")


def make_agent(env_id: str, spec: str, seed: int | None = None):
    game_spec(env_id)  # an unknown env id is named before the agent
    if is_core_agent_name(spec):
        return core_agent(env_id, spec, seed)
    if spec.endswith((".npz", ".zip")):
        try:
            return PolicyAgent(spec, seed=seed)
        except ConfigError:
            raise
        except FileNotFoundError as err:
            raise ConfigError(str(err)) from None
        except ImportError as err:
            raise ConfigError(f"policy file {spec!r} needs {err.name or 'a missing package'} "
                              f"to load ({err})") from None
        except Exception as err:
            # Whatever the loader did not foresee (a truncated, foreign or corrupt file) is
            # still a bad agent given by the user: one line naming the file, no traceback.
            raise ConfigError(f"policy file {spec!r} cannot be loaded: "
                              f"{type(err).__name__}: {err}") from None
    raise ConfigError(f"unknown agent {spec!r}; expected one of {', '.join(AGENT_KINDS)}")
