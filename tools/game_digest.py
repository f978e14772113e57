"""One digest per game configuration over many seeded random games: proof that a refactor
left the games identical.

Plays ``--games`` games of every configuration of every registered game (seed g for game g;
a seeded uniform choice among the legal actions) through the AEC env and hashes, at every
step, each seat's observation, the mask, the rewards, the terminations and truncations and
the infos. Run it on two checkouts and compare the lines: equal digests mean the same games,
observations, masks, rewards and infos, step for step.

    python tools/game_digest.py --games 30
    python tools/game_digest.py --games 30 --ignore-info action_mask   # a key added on purpose
    python tools/game_digest.py --games 30 --agents heuristic,random   # an agent's speed-up

``--agents`` plays named agents instead of the uniform choice (the list repeated over the
seats, rotated by one seat per game; agent a of game g seeded ``1000 * g + a``): equal digests
then also mean the agents made the same decisions.

``--ignore-info`` leaves an info key out of the hash (a key one side adds by design), and
``--rename-info old=new`` reads a renamed key under its old name, so the rest still compares.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys

import numpy as np

# The checkout this file is in, not whatever copy of the package is installed.
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _plain(value, ignore: set[str], rename: dict[str, str]):
    """Infos as JSON-able data with the ignored keys dropped and renamed keys mapped back."""
    if isinstance(value, dict):
        return {rename.get(k, k): _plain(v, ignore, rename) for k, v in sorted(value.items())
                if k not in ignore}
    if isinstance(value, (list, tuple)):
        return [_plain(v, ignore, rename) for v in value]
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    return value


def digest(env_id: str, config: dict, games: int, max_steps: int, ignore: set[str],
           rename: dict[str, str], agents: list[str] | None = None) -> tuple[str, int]:
    import forest_envs
    from forest_envs.agents import make_agent

    h = hashlib.blake2b(digest_size=8)
    steps = 0
    env = forest_envs.make(env_id, max_steps=max_steps, **config)
    for g in range(games):
        env.reset(seed=g)
        rng = np.random.default_rng(g)
        players = {}
        if agents:
            n = len(env.possible_agents)
            players = {seat: make_agent(env_id, agents[(i + g) % len(agents)], seed=1000 * g + i)
                       for i, seat in enumerate(env.possible_agents[:n])}
        for agent in env.agent_iter():
            obs, reward, term, trunc, info = env.last()
            h.update(np.ascontiguousarray(obs["observation"], np.float32).tobytes())
            h.update(np.ascontiguousarray(obs["action_mask"], np.int8).tobytes())
            h.update(json.dumps([agent, float(reward), bool(term), bool(trunc),
                                 _plain(info, ignore, rename)], sort_keys=True).encode())
            if term or trunc:
                env.step(None)
                continue
            if players:
                env.step(int(players[agent].act(env, agent)))
            else:
                legal = np.flatnonzero(obs["action_mask"])
                env.step(int(legal[rng.integers(len(legal))]))
            steps += 1
    return h.hexdigest(), steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30, help="games per configuration (30)")
    parser.add_argument("--max-steps", type=int, default=1500,
                        help="steps after which a game is cut (1500; random Roundforest rarely ends)")
    parser.add_argument("--env", action="append", help="env id (repeatable; default: every game)")
    parser.add_argument("--ignore-info", action="append", default=[], metavar="KEY")
    parser.add_argument("--rename-info", action="append", default=[], metavar="OLD=NEW")
    parser.add_argument("--agents", help="comma-separated agent names to play instead of the "
                        "uniform choice (e.g. heuristic,random)")
    args = parser.parse_args()
    import forest_envs
    from forest_envs.core.registry import env_ids, game_spec

    rename = {}
    for pair in args.rename_info:
        old, sep, new = pair.partition("=")
        if not sep:
            parser.error(f"--rename-info wants OLD=NEW, not {pair!r}")
        rename[new] = old
    del forest_envs
    for env_id in args.env or env_ids():
        for config in game_spec(env_id).game_class.all_configs():
            d, steps = digest(env_id, config, args.games, args.max_steps, set(args.ignore_info),
                              rename, args.agents.split(",") if args.agents else None)
            print(f"{env_id} {json.dumps(config, sort_keys=True)} {d} ({steps} steps)", flush=True)


if __name__ == "__main__":
    main()
