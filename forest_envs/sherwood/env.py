"""The PettingZoo AEC env class of Sherwood Forest."""

from __future__ import annotations

from ..envs.aec import ForestAECEnv
from .rules import SherwoodGame


class raw_env(ForestAECEnv):
    """Sherwood Forest as a PettingZoo AEC env. Game options: ``num_players`` (3-6,
    default 4), ``additions`` (bool). Env options: see ``ForestAECEnv``."""

    game_class = SherwoodGame
    metadata = dict(ForestAECEnv.metadata, name="sherwood_v0")
