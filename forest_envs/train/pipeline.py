"""Pipelined rollouts: the trainer acts for one half of the envs while the other half steps.

MaskablePPO's own rollout acts for every env in one forward pass, sends the actions and
waits for every env to step before it acts again, so on a 2-core machine the network and the
envs take turns: while the workers step, the trainer idles, and while it runs its forward
pass, they do. Here the envs are two groups (``BatchedSubprocVecEnv(groups=2)``, each with
its own workers). Each step the trainer receives group 0's step, acts for it and sends its
actions, then does the same for group 1: group 0's workers step while it acts for group 1,
and group 1's while it acts for group 0 at the next step.

It is still PPO: every env's action is drawn from the current policy on that env's current
observation, and the rollout buffer receives whole steps (all envs at step t) as in
MaskablePPO. The halves' forward passes even draw the same random numbers in the same order
as MaskablePPO's one pass over all envs (group 0's rows, then group 1's), so the run is the
same for the same seed but for float rounding: a product of half as many rows may round the
last bits differently (values and log-probabilities by up to about 5e-7). The halves, not the
workers, make the batches, so ``env_workers`` never changes a run.
``tests/test_pipeline.py`` checks the buffer against MaskablePPO's own on the same games.

The forward passes use one torch thread during the rollout (the workers hold the other core
meanwhile); PPO's optimisation gets the configured ``torch_threads`` back.
"""

from __future__ import annotations

import numpy as np
import torch as th
from gymnasium import spaces
from sb3_contrib import MaskablePPO
from stable_baselines3.common.utils import obs_as_tensor


class _Step:
    """What the trainer chose at one step, for every env (filled one group at a time)."""

    def __init__(self, n: int, actions: int):
        self.actions = np.zeros(n, dtype=np.int64)
        self.values = th.zeros(n)
        self.log_probs = th.zeros(n)
        self.masks = np.zeros((n, actions), dtype=bool)


class PipelinedMaskablePPO(MaskablePPO):
    """MaskablePPO whose rollouts overlap acting for one group of envs with stepping the
    other; needs a vec env with ``groups`` (two or more) and ``step_group_async`` /
    ``step_group_wait`` (``vec.MaskInfoVecEnv`` over ``BatchedSubprocVecEnv``)."""

    # set by SB3 (read as Any here); collect_rollouts refuses any but array observations
    _last_obs: np.ndarray
    _last_episode_starts: np.ndarray

    def collect_rollouts(self, env, callback, rollout_buffer, n_rollout_steps: int,
                         use_masking: bool = True) -> bool:
        groups = getattr(env, "groups", None)
        if not groups or len(groups) < 2 or not hasattr(env, "step_group_async"):
            raise ValueError("PipelinedMaskablePPO needs a vec env of two or more groups that "
                             "step apart (make_vec_env with pipeline: true)")
        if not use_masking or not isinstance(self._last_obs, np.ndarray):
            raise ValueError("PipelinedMaskablePPO acts with masks on array observations only")
        if not isinstance(self.action_space, spaces.Discrete):
            raise ValueError(f"PipelinedMaskablePPO needs a Discrete action space, "
                             f"not {self.action_space}")
        self.policy.set_training_mode(False)
        rollout_buffer.reset()
        callback.on_rollout_start()
        threads = th.get_num_threads()
        th.set_num_threads(1)
        try:
            return self._collect(env, callback, rollout_buffer, n_rollout_steps, groups)
        finally:
            th.set_num_threads(threads)

    def _act(self, env, group: int, part: slice, obs: np.ndarray, step: _Step) -> None:
        """Act for one group on its observations and send its actions."""
        masks = env.group_masks(group)
        with th.no_grad():
            actions, values, log_probs = self.policy(obs_as_tensor(obs, self.device),
                                                     action_masks=masks)
        step.actions[part] = actions.cpu().numpy()
        step.values[part] = values.flatten()
        step.log_probs[part] = log_probs
        step.masks[part] = masks
        env.step_group_async(group, step.actions[part])

    def _collect(self, env, callback, rollout_buffer, n_rollout_steps: int, groups) -> bool:
        n, width = env.num_envs, self.action_space.n
        step = _Step(n, width)
        for g, part in enumerate(groups):
            self._act(env, g, part, self._last_obs[part], step)
        for t in range(n_rollout_steps):
            last = t == n_rollout_steps - 1
            following = None if last else _Step(n, width)
            new_obs = np.empty_like(self._last_obs)
            rewards = np.empty(n, dtype=np.float32)
            dones = np.empty(n, dtype=bool)
            infos: list[dict] = [{}] * n
            for g, part in enumerate(groups):
                obs, group_rewards, group_dones, group_infos = env.step_group_wait(g)
                new_obs[part], rewards[part], dones[part], infos[part] = (
                    obs, group_rewards, group_dones, group_infos)
                if following is not None:
                    self._act(env, g, part, obs, following)
            self.num_timesteps += n
            actions, values, log_probs = step.actions, step.values, step.log_probs
            callback.update_locals(locals())
            if not callback.on_step():
                # the next step's actions are out: let the envs answer before stopping
                env.wait_pending()
                return False
            self._update_info_buffer(infos, dones)
            self._bootstrap_timeouts(rewards, dones, infos)
            rollout_buffer.add(self._last_obs, actions.reshape(-1, 1), rewards,
                               self._last_episode_starts, values, log_probs,
                               action_masks=step.masks)
            self._last_obs = new_obs
            self._last_episode_starts = dones
            if following is not None:  # None at the last step, after which step is not read
                step = following
        with th.no_grad():
            last_values = self.policy.predict_values(obs_as_tensor(new_obs, self.device))
        rollout_buffer.compute_returns_and_advantage(last_values=last_values, dones=dones)
        callback.on_rollout_end()
        return True

    def _bootstrap_timeouts(self, rewards: np.ndarray, dones: np.ndarray, infos) -> None:
        """A game cut by a time limit is valued by the critic, as MaskablePPO does."""
        for idx, done in enumerate(dones):
            if (done and infos[idx].get("terminal_observation") is not None
                    and infos[idx].get("TimeLimit.truncated", False)):
                terminal_obs = self.policy.obs_to_tensor(infos[idx]["terminal_observation"])[0]
                with th.no_grad():
                    terminal_value = self.policy.predict_values(terminal_obs)[0]
                rewards[idx] += self.gamma * terminal_value
