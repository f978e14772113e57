"""Agents by name, for every registered game: ``random``, ``heuristic`` (the game's scripted
agent), ``ppo`` (the trained policy shipped for the game's default configuration, see
``baselines.py``), ``ismcts`` /
``ismcts:sims=400,time=0.5,rollout=heuristic,c=0.7,depth=20,reward=rank,prior=none``
(information-set MCTS; options separated by commas or colons, see docs/search.md; its
``prior`` and ``rollout`` may be ``ppo`` or a policy file) or the path of a trained policy
(``.npz`` exported by the trainer, or an SB3 ``.zip``). A policy samples its move from its
masked distribution; with ``:greedy`` after its name (``ppo:greedy``, ``a.npz:greedy``) it plays
its most likely move instead.

This package is the agents layer: above core/ (a game's heuristic comes through the registry),
below evaluation and training, which play the agents made here and are never imported from
here. Playing a policy file needs only numpy (``policy.py``); training writes those files.
"""

from __future__ import annotations

from ..core.errors import ConfigError
from ..core.registry import game_spec
from .baselines import BASELINE, baseline_agent
from .named import BUILTIN_AGENT_KINDS, builtin_agent, is_builtin_agent_name
from .policy import PolicyAgent

AGENT_KINDS = (*BUILTIN_AGENT_KINDS, BASELINE, "a policy file (.npz / .zip)",
               "either with :greedy")
POLICY_FILES = (".npz", ".zip")
GREEDY = ":greedy"  # after a policy's name: it plays its most likely move instead of sampling


def make_agent(env_id: str, spec: str, seed: int | None = None):
    game_spec(env_id)  # an unknown env id is named before the agent
    if is_builtin_agent_name(spec):
        # ismcts may search with a policy (prior=ppo, rollout=a.npz): loaded here, above core
        return builtin_agent(env_id, spec, seed, policy=lambda name: make_policy(env_id, name))
    name, greedy = (spec[:-len(GREEDY)], True) if spec.endswith(GREEDY) else (spec, False)
    if name == BASELINE or name.endswith(POLICY_FILES):
        return make_policy(env_id, name, seed, deterministic=greedy)
    raise ConfigError(f"unknown agent {spec!r}; expected one of {', '.join(AGENT_KINDS)}")


def make_policy(env_id: str, spec: str, seed: int | None = None,
                deterministic: bool = False) -> PolicyAgent:
    """A policy by name: ``ppo`` (the shipped baseline of ``env_id``) or a policy file; it plays
    its most likely move when ``deterministic``, else samples."""
    if spec == BASELINE:
        return baseline_agent(env_id, seed=seed, deterministic=deterministic)
    if spec.endswith(POLICY_FILES):
        return policy_file_agent(spec, seed, deterministic=deterministic)
    raise ConfigError(f"{spec!r} is not a policy: expected {BASELINE} or a policy file "
                      f"({' / '.join(POLICY_FILES)})")


def policy_file_agent(path: str, seed: int | None = None, deterministic: bool = False) -> PolicyAgent:
    """The agent playing the policy file ``path`` (its most likely move when ``deterministic``);
    any failure to load it is a ConfigError."""
    try:
        return PolicyAgent(path, seed=seed, deterministic=deterministic)
    except ConfigError:
        raise
    except FileNotFoundError as err:
        raise ConfigError(str(err)) from None
    except ImportError as err:
        raise ConfigError(f"policy file {path!r} needs {err.name or 'a missing package'} "
                          f"to load ({err})") from None
    except Exception as err:
        # Whatever the loader did not foresee (a truncated, foreign or corrupt file) is
        # still a bad agent given by the user: one line naming the file, no traceback.
        raise ConfigError(f"policy file {path!r} cannot be loaded: "
                          f"{type(err).__name__}: {err}") from None
