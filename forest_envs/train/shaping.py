"""Potential-based reward shaping for the learner's seat (train config ``shaping``).

Each step's reward gets ``weight * (gamma * potential(after) - potential(before))``, the
potential being the game's own ``state.potential(seat)`` of the learner's seat, and 0 once the
learner's episode is over (terminated or truncated). Ng, Harada and Russell (1999) show that
such a term leaves the optimal policies of the game's reward unchanged; it only tells the
learner sooner which positions lead toward a win. The shaped reward is the trainer's alone:
evaluation and every reported win rate use the game's own result.
"""

from __future__ import annotations

import gymnasium
import numpy as np

from ..envs.gym_env import SingleAgentEnv


class PotentialShaping(gymnasium.Wrapper):
    """``PotentialShaping(single_agent_env, weight, gamma)``; ``gamma`` is PPO's discount, so
    the shaping terms telescope in the learner's return as the theorem needs."""

    env: SingleAgentEnv  # the learner's own env, not wrapped (so it is its own ``unwrapped``)

    def __init__(self, env: SingleAgentEnv, weight: float, gamma: float):
        super().__init__(env)
        self.weight = float(weight)
        self.gamma = float(gamma)
        self._before = 0.0

    def _potential(self) -> float:
        return float(self.env.aec.engine_state.potential(self.env.seat))

    def reset(self, **kwargs):
        obs, info = self.env.reset(**kwargs)
        self._before = self._potential()
        return obs, info

    def step(self, action):
        obs, reward, done, truncated, info = self.env.step(action)
        after = 0.0 if (done or truncated) else self._potential()
        reward = float(reward) + self.weight * (self.gamma * after - self._before)
        self._before = after
        return obs, reward, done, truncated, info

    def action_masks(self) -> np.ndarray:
        return self.env.action_masks()
