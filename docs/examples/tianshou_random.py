"""Tianshou: whole Roundforest episodes through Tianshou's PettingZooEnv and Collector,
every seat played by Tianshou's masked random policy."""

from tianshou.algorithm import MARLRandomDiscreteMaskedOffPolicyAlgorithm
from tianshou.algorithm.multiagent.marl import MultiAgentOffPolicyAlgorithm
from tianshou.data import Collector
from tianshou.env import DummyVectorEnv, PettingZooEnv

import forest_envs


def make_env():
    # max_steps bounds a random game (Roundforest has no points and random play rarely ends it)
    return PettingZooEnv(forest_envs.make("roundforest_v0", num_players=3, max_steps=500))


env = make_env()
algorithm = MultiAgentOffPolicyAlgorithm(
    algorithms=[MARLRandomDiscreteMaskedOffPolicyAlgorithm(env.action_space) for _ in env.agents],
    env=env,
)
collector = Collector(algorithm, DummyVectorEnv([make_env, make_env]))
collector.reset()
stats = collector.collect(n_episode=2)
print("episodes:", stats.n_collected_episodes, "steps:", stats.n_collected_steps)
