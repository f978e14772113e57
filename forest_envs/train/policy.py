"""The earlier home of writing and playing trained policies, kept so that older scripts'
imports work: writing is ``forest_envs.train.export``, playing ``forest_envs.agents.policy``."""

from ..agents.policy import (
    NumpyPolicy,
    PolicyAgent,
    check_agent_fits,
    check_policy_fits,
    check_sizes,
    describe_game,
)
from .export import export_policy, save_policy_arrays

__all__ = ["NumpyPolicy", "PolicyAgent", "check_agent_fits", "check_policy_fits", "check_sizes",
           "describe_game", "export_policy", "save_policy_arrays"]
