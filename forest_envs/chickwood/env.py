"""PettingZoo entry points for Chickwood Forest."""

from __future__ import annotations

from ..core.aec import ForestAECEnv, OrderEnforcedEnv
from .rules import ChickwoodGame


class raw_env(ForestAECEnv):
    """Chickwood Forest as a PettingZoo AEC env. Game options: ``num_players`` (2-5, default
    3), ``legendary`` (bool). Env options: see ``ForestAECEnv``."""

    game_class = ChickwoodGame
    metadata = dict(ForestAECEnv.metadata, name="chickwood_v0")


def env(**config):
    return OrderEnforcedEnv(raw_env(**config))
