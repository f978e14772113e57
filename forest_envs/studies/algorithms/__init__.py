"""The algorithms a study file names, one adapter module each (base.py says what an adapter
does). A new algorithm: its module here, one line in ``ALGORITHMS``, one line in a study file."""

from __future__ import annotations

from ...core.errors import ConfigError
from .base import Algorithm, PolicyCheckpoint, PublishedPolicy, TrainingJob, TrainingOutcome
from .dqn import TianshouDQN
from .expert_iteration import ExpertIteration
from .maskable_ppo import MaskablePPO
from .rllib_ppo import RLlibPPO
from .shipped_recipe import ShippedRecipe

ALGORITHMS: dict[str, Algorithm] = {
    "maskable_ppo": MaskablePPO(),
    "rllib_ppo": RLlibPPO(),
    "expert_iteration": ExpertIteration(),
    "dqn": TianshouDQN(),
    "shipped_recipe": ShippedRecipe(),
}


def algorithm(name: object, where: str = "algorithm") -> Algorithm:
    """The adapter named ``name``; anything else is a ConfigError naming the algorithms."""
    if not isinstance(name, str) or name not in ALGORITHMS:
        raise ConfigError(f"{where}: {name!r} is not an algorithm; the algorithms are "
                          f"{', '.join(ALGORITHMS)}")
    return ALGORITHMS[name]


__all__ = ["ALGORITHMS", "Algorithm", "PolicyCheckpoint", "PublishedPolicy", "TrainingJob", "TrainingOutcome", "algorithm"]
