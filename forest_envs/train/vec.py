"""Vectorized envs whose action masks ride along with every step.

sb3-contrib's MaskablePPO asks a VecEnv for masks with ``env_method("action_masks")``: with
worker processes that is one extra round trip to every worker per step. ``SingleAgentEnv``
puts its mask in each step's (and reset's) info, and ``MaskInfoVecEnv`` answers
``action_masks`` from those, locally.
"""

from __future__ import annotations

import numpy as np
from stable_baselines3.common.vec_env import VecEnvWrapper

MASK_KEY = "action_mask"


class MaskInfoVecEnv(VecEnvWrapper):
    def __init__(self, venv):
        super().__init__(venv)
        self._masks: np.ndarray | None = None

    def reset(self):
        obs = self.venv.reset()
        self._masks = np.stack([info[MASK_KEY] for info in self.venv.reset_infos]).astype(bool)
        return obs

    def step_wait(self):
        obs, rewards, dones, infos = self.venv.step_wait()
        masks = self._masks
        for i, done in enumerate(dones):
            # After an auto-reset the new episode's first mask is in the reset info.
            source = self.venv.reset_infos[i] if done else infos[i]
            masks[i] = source[MASK_KEY]
        return obs, rewards, dones, infos

    def env_method(self, method_name, *args, indices=None, **kwargs):
        if method_name == "action_masks":
            idx = range(self.num_envs) if indices is None else np.atleast_1d(indices)
            return [self._masks[i] for i in idx]
        return self.venv.env_method(method_name, *args, indices=indices, **kwargs)

    def has_attr(self, attr_name: str) -> bool:
        return attr_name == "action_masks" or self.venv.has_attr(attr_name)
