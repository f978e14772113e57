"""The PettingZoo AEC env class of Roundforest."""

from __future__ import annotations

from ..envs.aec import ForestAECEnv
from .rules import RoundforestGame


class raw_env(ForestAECEnv):
    """Roundforest as a PettingZoo AEC env. Game options: ``num_players`` (2-4, default 3),
    ``no_silver`` (bool), ``blockade`` (bool). Env options: see ``ForestAECEnv``."""

    game_class = RoundforestGame
    metadata = dict(ForestAECEnv.metadata, name="roundforest_v0")
