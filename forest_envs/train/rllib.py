"""RLlib PPO with action masking on any forest_envs game (RLlib's new API stack).

``TurnBasedMultiAgentEnv`` presents the AEC game the way RLlib's turn-based examples do:
each step returns the observation of the one agent to move; when the game ends every agent
gets its final observation and its own terminal reward. Observations are
``{"observations", "action_mask"}`` dicts for our action-masking module
(``forest_envs.train.rllib_masking.MaskedActorCritic``), whose policy exports to the
``.npz`` format that ``forest-envs evaluate`` plays.

The game comes from the config's ``env`` (a registered env id): nothing here names a game.
"""

from __future__ import annotations

import json
import math
import os
import time
from pathlib import Path

import gymnasium as gym
import numpy as np
from ray.rllib.env.multi_agent_env import MultiAgentEnv

from ..core.errors import ConfigError
from ..envs.registration import make_raw


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


def env_config_of(cfg: dict) -> dict:
    return dict(cfg["env_config"], env=cfg["env"], reward=cfg["reward"])


def build_algorithm_config(cfg: dict):
    """A PPOConfig for ``cfg`` (see train/config.py: the ``rllib`` section)."""
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec

    from .rllib_masking import MaskedActorCritic

    if cfg["policy"]["cells"]:
        raise ConfigError(f"policy.cells={cfg['policy']['cells']}: the cell network is a "
                          "MaskablePPO policy (forest-envs train); RLlib trains an MLP, use cells: null")
    r = cfg["rllib"]
    env_config = env_config_of(cfg)
    agents = TurnBasedMultiAgentEnv(env_config).possible_agents
    if r["policies"] == "shared":
        policies = {"shared"}
        mapping = _shared_policy
    else:
        policies = set(agents)
        mapping = _seat_policy
    model_config = {"hidden": list(cfg["policy"]["net_arch"]), "activation": cfg["policy"]["activation"]}
    spec = MultiRLModuleSpec(rl_module_specs={
        pid: RLModuleSpec(module_class=MaskedActorCritic, model_config=model_config)
        for pid in sorted(policies)})
    ppo = cfg["ppo"]
    return (
        PPOConfig()
        .api_stack(enable_rl_module_and_learner=True, enable_env_runner_and_connector_v2=True)
        # RLlib's env pre-check steps with unmasked random actions, which the game rejects.
        .environment(TurnBasedMultiAgentEnv, env_config=env_config, disable_env_checking=True)
        .multi_agent(policies=policies, policy_mapping_fn=mapping)
        .rl_module(rl_module_spec=spec)
        .env_runners(num_env_runners=r["num_env_runners"], num_envs_per_env_runner=1)
        .learners(num_learners=0)
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


def _row(i: int, result: dict, started: float) -> dict:
    runners = result.get("env_runners", {})
    row = {
        "iteration": i,
        "env_steps": int(runners.get("num_env_steps_sampled_lifetime", 0)),
        "episodes": int(runners.get("num_episodes_lifetime", 0)),
        "episode_len_mean": float(runners.get("episode_len_mean", float("nan"))),
        "wall_s": round(time.time() - started, 1),
    }
    for pid, stats in sorted(result.get("learners", {}).items()):
        if isinstance(stats, dict) and "entropy" in stats:
            row[f"{pid}/entropy"] = round(float(stats["entropy"]), 4)
    return row


def _cluster_info(ray, algo) -> dict:
    """Alive nodes and CPUs of the Ray cluster, and on how many nodes the env runners run."""
    nodes = [n for n in ray.nodes() if n.get("Alive")]
    runner_nodes = algo.env_runner_group.foreach_env_runner(
        lambda runner: ray.get_runtime_context().get_node_id(), local_env_runner=False)
    return {"nodes": len(nodes), "cpus": int(ray.cluster_resources().get("CPU", 0)),
            "env_runner_nodes": len(set(runner_nodes))}


def fixed_hash_seed() -> str | None:
    """This process's ``PYTHONHASHSEED`` when it fixes the string-hash seed, else None. RLlib's
    training follows the hash seed of the process its learner runs in (this one), so a run
    repeats for its ``seed`` only under a fixed one (docs/training.md, "Repeatable runs")."""
    value = os.environ.get("PYTHONHASHSEED", "")
    return value if value.isdigit() else None


def train_rllib(cfg: dict, address: str | None = None, iterations: int | None = None,
                progress=None) -> dict:
    """Run PPO iterations on a local Ray instance (or the cluster at ``address``).

    Stops after ``rllib.iterations`` (or ``iterations``) or, with ``time_limit_minutes``,
    before an iteration that would end past the limit. Writes ``<output_dir>/checkpoint``
    (RLlib), one ``<policy id>.npz`` per policy (numpy, for ``forest-envs evaluate``),
    ``progress.jsonl`` (one row per iteration) and ``summary.json``. ``progress(row)`` is
    called after every iteration."""
    import ray

    from .rllib_masking import export_checkpoint

    r = cfg["rllib"]
    iterations = iterations or r["iterations"]
    limit_s = cfg["time_limit_minutes"] * 60 if cfg.get("time_limit_minutes") else math.inf
    out = Path(cfg["output_dir"])
    out.mkdir(parents=True, exist_ok=True)
    started = time.time()
    if address:
        ray.init(address=address, log_to_driver=False)
    else:
        # "local": a new instance even if this machine runs a cluster (ray.init() would join it).
        ray.init(address="local", num_cpus=r["num_cpus"], include_dashboard=False, log_to_driver=False)
    history: list[dict] = []
    stopped = "iterations"
    try:
        import torch

        torch.set_num_threads(cfg["torch_threads"])  # the (local) learner runs in this process
        algo = build_algorithm_config(cfg).build_algo()
        try:
            cluster = _cluster_info(ray, algo)
            with (out / "progress.jsonl").open("w") as log:
                for i in range(1, iterations + 1):
                    t0 = time.time()
                    row = _row(i, algo.train(), started)
                    history.append(row)
                    log.write(json.dumps(row) + "\n")
                    log.flush()
                    if progress:
                        progress(row)
                    if i < iterations and time.time() - started + (time.time() - t0) > limit_s:
                        stopped = "time limit"
                        break
            checkpoint = Path(algo.save_to_path(str((out / "checkpoint").resolve())))
        finally:
            algo.stop()
    finally:
        ray.shutdown()
    policies = {pid: str(p) for pid, p in export_checkpoint(checkpoint, out).items()}
    last = history[-1]
    summary = {
        "env": cfg["env"], "env_config": cfg["env_config"], "reward": cfg["reward"],
        "iterations": len(history), "env_steps": last["env_steps"], "episodes": last["episodes"],
        "wall_s": round(time.time() - started, 1), "train_s": last["wall_s"],
        "env_steps_per_s": round(last["env_steps"] / max(last["wall_s"], 1e-9), 1),
        "stopped": stopped, "cluster": cluster, "address": address,
        "python_hash_seed": fixed_hash_seed(),  # None: this run cannot be repeated exactly
        "checkpoint": str(checkpoint), "policies": policies,
    }
    (out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    return {**summary, "iterations": history}  # summary.json holds the count; this the rows
