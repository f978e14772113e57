"""SuperSuit: reward and action-space wrappers on the AEC env; observation wrappers on the
single-agent view (its observation is a plain Box there)."""

import gymnasium
import numpy as np
import supersuit as ss

import forest_envs

aec = ss.clip_reward_v0(forest_envs.make("chickwood_v0", num_players=3, reward="score"), -1, 1)
aec.reset(seed=0)
rng = np.random.default_rng(0)
for agent in aec.agent_iter():
    obs, reward, terminated, truncated, info = aec.last()
    legal = np.flatnonzero(obs["action_mask"])
    aec.step(None if terminated or truncated else int(rng.choice(legal)))
print("clipped final reward of", agent, reward)

single = ss.frame_stack_v1(gymnasium.make("forest_envs:forest_envs/chickwood_v0"), 2)
obs, info = single.reset(seed=0)
print("two stacked observations:", obs.shape, "legal actions:", int(info["action_mask"].sum()))
