"""Moved: the AEC adapter lives in ``forest_envs/envs/aec.py`` and its order-enforcing
wrapper in ``forest_envs/envs/order_enforcing.py``. This module keeps the old import path
working (docs/architecture.md lists every such module)."""

from ..envs.aec import ENV_OPTIONS, RESET_OPTIONS, ForestAECEnv, split_options, zero_mask
from ..envs.order_enforcing import OrderEnforcedEnv

__all__ = ["ENV_OPTIONS", "RESET_OPTIONS", "ForestAECEnv", "OrderEnforcedEnv", "split_options", "zero_mask"]
