"""RLlib PPO with action masking on any forest_envs game (RLlib's new API stack).

``TurnBasedMultiAgentEnv`` presents the AEC game the way RLlib's turn-based examples do:
each step returns the observation of the one agent to move; when the game ends every agent
gets its final observation and its own terminal reward. Observations are
``{"observations", "action_mask"}`` dicts for RLlib's action-masking PPO module.
"""

from __future__ import annotations

import time
from pathlib import Path

import gymnasium as gym
import numpy as np
from ray.rllib.env.multi_agent_env import MultiAgentEnv

from ..core.errors import ConfigError
from ..core.registry import make_raw


class TurnBasedMultiAgentEnv(MultiAgentEnv):
    def __init__(self, config: dict | None = None):
        super().__init__()
        config = dict(config or {})
        if "env" not in config:
            raise ConfigError("the RLlib env config needs 'env': a registered env id")
        env_id = config.pop("env")
        self.aec = make_raw(env_id, **config)
        self.agents = self.possible_agents = list(self.aec.possible_agents)
        first = self.possible_agents[0]
        box = self.aec.observation_spaces[first]["observation"]
        n_actions = self.aec.action_spaces[first].n
        space = gym.spaces.Dict({"observations": box,
                                 "action_mask": gym.spaces.Box(0.0, 1.0, (n_actions,), np.float32)})
        self.observation_spaces = {a: space for a in self.possible_agents}
        self.action_spaces = {a: self.aec.action_spaces[a] for a in self.possible_agents}

    def reset(self, *, seed=None, options=None):
        self.aec.reset(seed=seed)
        agent = self.aec.agent_selection
        return {agent: self._obs(agent)}, {}

    def step(self, action_dict):
        aec = self.aec
        agent = aec.agent_selection
        aec.step(int(action_dict[agent]))
        terminated, truncated = aec.terminations[agent], aec.truncations[agent]
        if not (terminated or truncated):
            nxt = aec.agent_selection
            # RLlib wants a reward with every observation of an agent that has acted before;
            # rewards in these games come only at the end.
            return ({nxt: self._obs(nxt)}, {nxt: 0.0}, {"__all__": False}, {"__all__": False}, {})
        obs = {a: self._obs(a) for a in self.possible_agents}
        rewards = {a: float(aec._cumulative_rewards[a]) for a in self.possible_agents}
        infos = {a: {k: v for k, v in aec.infos[a].items() if k != "breakdown"}
                 for a in self.possible_agents}
        return obs, rewards, {"__all__": terminated}, {"__all__": truncated}, infos

    def _obs(self, agent: str) -> dict:
        o = self.aec.observe(agent)
        return {"observations": o["observation"], "action_mask": o["action_mask"].astype(np.float32)}


def build_algorithm_config(cfg: dict):
    """A PPOConfig for ``cfg`` (see train/config.py: the ``rllib`` section)."""
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule
    from ray.tune.registry import register_env

    r = cfg["rllib"]
    env_config = dict(cfg["env_config"], env=cfg["env"], reward=cfg["reward"])
    register_env("forest_envs_turn_based", lambda c: TurnBasedMultiAgentEnv(c))
    agents = TurnBasedMultiAgentEnv(env_config).possible_agents
    if r["policies"] == "shared":
        policies = {"shared"}
        mapping = _shared_policy
    else:
        policies = set(agents)
        mapping = _seat_policy
    model_config = {"fcnet_hiddens": list(cfg["policy"]["net_arch"]),
                    "fcnet_activation": cfg["policy"]["activation"], "head_fcnet_hiddens": []}
    spec = MultiRLModuleSpec(rl_module_specs={
        pid: RLModuleSpec(module_class=ActionMaskingTorchRLModule, model_config=model_config)
        for pid in policies})
    ppo = cfg["ppo"]
    return (
        PPOConfig()
        # RLlib's env pre-check steps with unmasked random actions, which the game rejects.
        .environment("forest_envs_turn_based", env_config=env_config, disable_env_checking=True)
        .multi_agent(policies=policies, policy_mapping_fn=mapping)
        .rl_module(rl_module_spec=spec)
        .env_runners(num_env_runners=r["num_env_runners"], num_envs_per_env_runner=1)
        .training(lr=ppo["learning_rate"], gamma=ppo["gamma"], lambda_=ppo["gae_lambda"],
                  clip_param=ppo["clip_range"], entropy_coeff=ppo["ent_coef"],
                  vf_loss_coeff=ppo["vf_coef"], grad_clip=ppo["max_grad_norm"],
                  train_batch_size_per_learner=r["train_batch_size"],
                  minibatch_size=r["minibatch_size"], num_epochs=ppo["n_epochs"])
        .debugging(seed=cfg["seed"])
    )


def _shared_policy(agent_id, episode, **kwargs):
    return "shared"


def _seat_policy(agent_id, episode, **kwargs):
    return agent_id


def train_rllib(cfg: dict, address: str | None = None, iterations: int | None = None) -> dict:
    """Run PPO iterations on a local Ray instance (or the cluster at ``address``)."""
    import ray

    r = cfg["rllib"]
    iterations = iterations or r["iterations"]
    out = Path(cfg["output_dir"]) / "rllib"
    out.mkdir(parents=True, exist_ok=True)
    if address:
        ray.init(address=address, ignore_reinit_error=True)
    else:
        ray.init(num_cpus=r["num_cpus"], include_dashboard=False, ignore_reinit_error=True,
                 log_to_driver=False)
    algo = build_algorithm_config(cfg).build_algo()
    history = []
    started = time.time()
    try:
        for i in range(iterations):
            result = algo.train()
            runners = result.get("env_runners", {})
            history.append({
                "iteration": i + 1,
                "env_steps": int(runners.get("num_env_steps_sampled_lifetime", 0)),
                "episodes": int(runners.get("num_episodes_lifetime", 0)),
                "episode_len_mean": float(runners.get("episode_len_mean", float("nan"))),
                "wall_s": round(time.time() - started, 1),
            })
        checkpoint = algo.save_to_path(str((out / "checkpoint").resolve()))
    finally:
        algo.stop()
        if not address:
            ray.shutdown()
    return {"iterations": history, "checkpoint": str(checkpoint)}
