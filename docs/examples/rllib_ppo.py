"""RLlib: PPO (new API stack) with forest_envs' turn-based MultiAgentEnv and its action-masking
RLModule, one shared policy for every seat, exported as a numpy policy for evaluation."""

import ray
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
from ray.rllib.core.rl_module.rl_module import RLModuleSpec

from forest_envs.evaluation import run_games
from forest_envs.train.rllib import TurnBasedMultiAgentEnv
from forest_envs.train.rllib_masking import MaskedActorCritic, export_npz

module = RLModuleSpec(module_class=MaskedActorCritic, model_config={"hidden": [32], "activation": "tanh"})
config = (
    PPOConfig()
    # RLlib's env pre-check steps unmasked random actions, which the game refuses
    .environment(TurnBasedMultiAgentEnv, env_config={"env": "chickwood_v0", "num_players": 3},
                 disable_env_checking=True)
    .multi_agent(policies={"shared"}, policy_mapping_fn=lambda agent_id, episode, **kw: "shared")
    .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={"shared": module}))
    .env_runners(num_env_runners=0)
    .learners(num_learners=0)
    .training(train_batch_size_per_learner=256, minibatch_size=128, num_epochs=1)
)
ray.init(num_cpus=1, include_dashboard=False)
algo = config.build_algo()
result = algo.train()
policy = export_npz(algo.get_module("shared"), "rllib_shared.npz")
algo.stop()
ray.shutdown()
games = run_games("chickwood_v0", [str(policy), "random", "random"], games=2, config={"num_players": 3})
print("sampled", result["env_runners"]["num_env_steps_sampled_lifetime"], "steps;",
      "ranks of the exported policy:", [g.ranks[g.seats.index(0)] for g in games])
