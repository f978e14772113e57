"""What a policy costs the ismcts agent: CPU time per simulation with a policy prior and/or
policy rollouts, against the plain search, and the policy forwards each simulation makes.

The policy is an MLP of the shipped configs' shape (``--hidden 256,256``, tanh) with random
weights: inference costs the same whatever the weights. Each game (its first benchmark
config) is played from ``--seed`` by its heuristic; at each of the first ``--decisions``
decisions with two or more legal actions every variant searches ``--sims`` simulations
(agent seed 0) and its process CPU time is summed (``time.process_time``: less disturbed by
other jobs on the machine than wall time, though not immune to them).

    python tools/ismcts_policy_cost.py
    python tools/ismcts_policy_cost.py --env sherwood_v0 --sims 200 --decisions 6
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from forest_envs.agents import make_agent  # noqa: E402
from forest_envs.agents.policy import NumpyPolicy  # noqa: E402
from forest_envs.agents.search.ismcts import ISMCTSAgent  # noqa: E402
from forest_envs.core.registry import env_ids, game_spec
from forest_envs.envs.registration import make_raw  # noqa: E402

VARIANTS = {  # name -> ISMCTSAgent options (the policy goes where "P" is)
    "plain": {},
    "prior": {"prior": "P"},
    "prior, root only": {"prior": "P", "prior_at": "root"},
    "rollout (sample)": {"rollout": "P"},
    "rollout (greedy)": {"rollout": "P", "pick": "greedy"},
    "prior + rollout": {"prior": "P", "rollout": "P"},
}


class Counted:
    """A policy that counts its forwards."""

    def __init__(self, policy):
        self.policy, self.calls = policy, 0

    def logits(self, observation):
        self.calls += 1
        return self.policy.logits(observation)


def random_policy(game, hidden: list[int], seed: int = 0) -> NumpyPolicy:
    rng = np.random.default_rng(seed)
    sizes = [game.observation_size, *hidden]
    arrays = {}
    for i, (a, b) in enumerate(zip(sizes, sizes[1:])):
        arrays[f"w{i}"] = rng.normal(0, 1 / np.sqrt(a), (a, b)).astype(np.float32)
        arrays[f"b{i}"] = np.zeros(b, np.float32)
    arrays["w_out"] = rng.normal(0, 0.01, (sizes[-1], game.num_actions)).astype(np.float32)
    arrays["b_out"] = np.zeros(game.num_actions, np.float32)
    arrays["activation"] = np.array("Tanh")
    return NumpyPolicy(arrays)


def forward_seconds(policy: NumpyPolicy, observation: np.ndarray, n: int = 2000) -> float:
    start = time.process_time()
    for _ in range(n):
        policy.logits(observation)
    return (time.process_time() - start) / n


def measure(env_id: str, sims: int, decisions: int, seed: int, hidden: list[int], depth: int) -> None:
    config = game_spec(env_id).bench_configs[0]
    env = make_raw(env_id, **config)
    env.reset(seed=seed)
    policy = random_policy(env.game, hidden)
    counted = {name: Counted(policy) for name in VARIANTS}
    agents = {name: ISMCTSAgent(0, sims=sims, depth=depth,
                                **{k: (counted[name] if v == "P" else v) for k, v in opts.items()})
              for name, opts in VARIANTS.items()}
    cpu = dict.fromkeys(VARIANTS, 0.0)
    done = dict.fromkeys(VARIANTS, 0)
    mover = make_agent(env_id, "heuristic", seed=0)
    searched = 0
    observation = None
    while searched < decisions and not env.engine_state.is_terminal:
        agent = env.agent_selection
        if env.action_mask(agent).sum() > 1:
            observation = env.observe(agent)["observation"]
            for name, searcher in agents.items():
                start = time.process_time()
                searcher.act(env, agent)
                cpu[name] += time.process_time() - start
                done[name] += searcher.last_sims
            searched += 1
        env.step(mover.act(env, agent))
    fwd = forward_seconds(policy, observation)
    print(f"{env_id} {config}: {searched} decisions x {sims} simulations, depth {depth}, policy "
          f"{env.game.observation_size}-{'-'.join(map(str, hidden))}-{env.game.num_actions} tanh, "
          f"one forward {fwd * 1e6:.0f} us CPU")
    base = cpu["plain"] / done["plain"]
    print(f"  {'variant':<18} {'ms CPU / simulation':>20} {'x plain':>8} {'forwards / simulation':>22}")
    for name in VARIANTS:
        per = cpu[name] / done[name]
        print(f"  {name:<18} {per * 1e3:>20.3f} {per / base:>8.2f} "
              f"{counted[name].calls / done[name]:>22.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--env", action="append", help="env id (repeatable; default: every game)")
    parser.add_argument("--sims", type=int, default=200)
    parser.add_argument("--decisions", type=int, default=8)
    parser.add_argument("--depth", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--hidden", default="256,256")
    args = parser.parse_args()
    hidden = [int(h) for h in args.hidden.split(",")]
    print(f"load average {os.getloadavg()[0]:.1f} at the start")
    for env_id in args.env or [e for e in env_ids() if e != "toy_v0"]:
        measure(env_id, args.sims, args.decisions, args.seed, hidden, args.depth)
    print(f"load average {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
