"""A CleanRL-style PPO loop (one file, plain torch) on a gymnasium vector env of the
single-agent view, with the legal-action mask from each step's info."""

import gymnasium
import numpy as np
import torch
from gymnasium.vector import AutoresetMode, SyncVectorEnv
from torch import nn

NUM_ENVS, NUM_STEPS, ITERATIONS, EPOCHS = 4, 64, 3, 2
GAMMA, LAMBDA, CLIP, LR = 0.99, 0.95, 0.2, 3e-4

# SAME_STEP autoreset: the step that ends an episode returns the next episode's first
# observation and mask. With gymnasium's default (NEXT_STEP) the mask after the last step is
# all zero, and masking every logit with -inf gives NaN: see docs/ecosystem.md.
envs = SyncVectorEnv([lambda: gymnasium.make("forest_envs:forest_envs/chickwood_v0", num_players=3)] * NUM_ENVS,
                     autoreset_mode=AutoresetMode.SAME_STEP)
obs_size, n_actions = envs.single_observation_space.shape[0], envs.single_action_space.n
actor = nn.Sequential(nn.Linear(obs_size, 64), nn.Tanh(), nn.Linear(64, n_actions))
critic = nn.Sequential(nn.Linear(obs_size, 64), nn.Tanh(), nn.Linear(64, 1))
optimizer = torch.optim.Adam([*actor.parameters(), *critic.parameters()], lr=LR)


def policy(obs, mask, action=None):
    logits = actor(obs).masked_fill(~mask, -torch.inf)  # illegal actions: probability 0
    dist = torch.distributions.Categorical(logits=logits)
    action = dist.sample() if action is None else action
    return action, dist.log_prob(action), dist.entropy(), critic(obs).squeeze(-1)


obs, info = envs.reset(seed=0)
obs, mask = torch.as_tensor(obs), torch.as_tensor(info["action_mask"])
torch.manual_seed(0)
for iteration in range(ITERATIONS):
    buf = {k: [] for k in ("obs", "mask", "action", "logp", "value", "reward", "done")}
    for _ in range(NUM_STEPS):
        with torch.no_grad():
            action, logp, _, value = policy(obs, mask)
        next_obs, reward, terminated, truncated, info = envs.step(action.numpy())
        for k, v in zip(buf, (obs, mask, action, logp, value, torch.as_tensor(reward, dtype=torch.float32),
                              torch.as_tensor(terminated | truncated, dtype=torch.float32))):
            buf[k].append(v)
        obs, mask = torch.as_tensor(next_obs), torch.as_tensor(info["action_mask"])
    b = {k: torch.stack(v) for k, v in buf.items()}
    with torch.no_grad():  # generalized advantage estimation
        next_value = policy(obs, mask)[3]
        advantages, last = torch.zeros_like(b["reward"]), 0.0
        for t in reversed(range(NUM_STEPS)):
            following = next_value if t == NUM_STEPS - 1 else b["value"][t + 1]
            delta = b["reward"][t] + GAMMA * following * (1 - b["done"][t]) - b["value"][t]
            advantages[t] = last = delta + GAMMA * LAMBDA * (1 - b["done"][t]) * last
        returns = advantages + b["value"]
    flat = {k: v.flatten(0, 1) for k, v in b.items()}
    adv, ret = advantages.flatten(), returns.flatten()
    for _ in range(EPOCHS):
        _, logp, entropy, value = policy(flat["obs"], flat["mask"], flat["action"])
        ratio = (logp - flat["logp"]).exp()
        norm_adv = (adv - adv.mean()) / (adv.std() + 1e-8)
        pg_loss = -torch.min(ratio * norm_adv, ratio.clamp(1 - CLIP, 1 + CLIP) * norm_adv).mean()
        loss = pg_loss + 0.5 * ((value - ret) ** 2).mean() - 0.01 * entropy.mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"iteration {iteration}: loss {loss.item():.4f}, episodes ended {int(b['done'].sum())}")
envs.close()
assert np.isfinite(loss.item())
