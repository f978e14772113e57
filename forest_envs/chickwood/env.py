"""The PettingZoo AEC env class of Chickwood Forest."""

from __future__ import annotations

from ..envs.aec import ForestAECEnv
from .rules import ChickwoodGame


class raw_env(ForestAECEnv):
    """Chickwood Forest as a PettingZoo AEC env. Game options: ``num_players`` (2-5, default
    3), ``legendary`` (bool). Env options: see ``ForestAECEnv``."""

    game_class = ChickwoodGame
    metadata = dict(ForestAECEnv.metadata, name="chickwood_v0")
