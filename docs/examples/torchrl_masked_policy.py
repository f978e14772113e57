"""TorchRL: the AEC env through PettingZooWrapper(use_mask=True), all seats in one group,
one masked-categorical policy network sampling every move of a whole Sherwood game."""

import torch
from tensordict.nn import TensorDictModule
from torchrl.envs.libs.pettingzoo import PettingZooWrapper
from torchrl.envs.utils import MarlGroupMapType
from torchrl.modules import MLP, MaskedCategorical, ProbabilisticActor

import forest_envs

env = PettingZooWrapper(
    env=forest_envs.make("sherwood_v0", num_players=4),  # the AEC env, not a parallel conversion
    use_mask=True,  # compulsory for AEC: ("agents", "mask") says which seat moves
    categorical_actions=True,
    group_map=MarlGroupMapType.ALL_IN_ONE_GROUP,
    seed=0,
)
obs_key = ("agents", "observation", "observation")
obs_size = env.observation_spec[obs_key].shape[-1]
n_actions = env.full_action_spec["agents", "action"].space.n
net = TensorDictModule(MLP(in_features=obs_size, out_features=n_actions, num_cells=[64]),
                       in_keys=[obs_key], out_keys=[("agents", "logits")])
policy = ProbabilisticActor(
    net,
    in_keys={"logits": ("agents", "logits"), "mask": ("agents", "action_mask")},
    out_keys=[("agents", "action")],
    distribution_class=MaskedCategorical,  # illegal actions get probability 0
    return_log_prob=True,
)
with torch.no_grad():
    rollout = env.rollout(10_000, policy=policy, break_when_any_done=True)
final_rewards = rollout["next", "agents", "reward"][-1].squeeze(-1)
print("moves:", rollout.shape[0], "final rewards:", final_rewards.tolist())
