"""Random-play throughput of every game beside PettingZoo's connect_four_v3, in one run.

All AEC figures use the same loop: ``agent_iter`` / ``last()`` (observation and mask every
step) / a uniform legal action / ``step``, through each env's standard wrappers. The
``ismcts`` rows are the search agent's simulations per second (its default options: random
rollouts, depth 20) on the first decision of a game of each game's first benchmark config.
"""

from __future__ import annotations

import time

import numpy as np

from ..core.registry import env_ids, game_spec
from ..envs.registration import make


def aec_play(env, rng: np.random.Generator, steps: int | None = None,
             seconds: float | None = None) -> int:
    """The benchmark's AEC loop: seeded games of uniform random play through ``agent_iter`` /
    ``last()`` / ``step``, until ``steps`` steps or, checked as each game starts, ``seconds``
    have passed; returns the steps played. ``tools/callgrind_step.py --loop bench`` counts
    the instructions of this very loop."""
    n, start = 0, time.perf_counter()
    while (steps is None or n < steps) and (seconds is None or time.perf_counter() - start < seconds):
        env.reset(seed=int(rng.integers(2**31)))
        for _agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                action = None
            else:
                legal = np.flatnonzero(obs["action_mask"])
                action = int(legal[int(rng.random() * legal.size)])
            env.step(action)
            n += 1
            if steps is not None and n >= steps:
                break
    return n


def _aec_rate(env, seconds: float, seed: int = 0) -> float:
    start = time.perf_counter()
    steps = aec_play(env, np.random.default_rng(seed), seconds=seconds)
    return steps / (time.perf_counter() - start)


def _engine_rate(new_state, seconds: float, max_steps: int | None, seed: int = 0) -> float:
    """The bare engine's rate; a game stops where an env would truncate it (random play
    can wander for ever in a game without a step limit of its own)."""
    rng = np.random.default_rng(seed)
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = new_state(int(rng.integers(2**31)))
        for _ in range(max_steps or 10**9):
            if state.is_terminal:
                break
            legal = np.flatnonzero(state.legal_action_mask())
            state.apply(int(legal[int(rng.random() * legal.size)]))
            steps += 1
    return steps / (time.perf_counter() - start)


def _ismcts_rate(new_state, seconds: float, max_steps: int | None, seed: int = 0) -> float:
    """Simulations per second of the default ``ismcts`` agent searching the first decision
    of a seeded game for ``seconds`` (at least one simulation)."""
    from ..agents.search.ismcts import ISMCTSAgent

    state = new_state(seed)
    agent = ISMCTSAgent(seed, sims=None, time=seconds)
    agent.search(state, state.current_player, max_steps)
    return agent.last_sims / agent.last_seconds


def run(seconds: float = 3.0, games: list[str] | None = None, rounds: int = 3) -> list[dict]:
    """Every registered game's benchmark configs through the AEC loop, then its first
    config's bare engine and its ismcts simulations/s, each beside connect_four_v3.

    A shared machine's speed drifts (other load, clock changes), so the time is split into
    ``rounds``: each round times connect_four_v3 and then every row for ``seconds / rounds``;
    a row's figures are the medians over rounds of its rate and of its ratio to that
    round's connect_four_v3 rate."""
    from pettingzoo.classic import connect_four_v3

    if seconds <= 0:
        raise ValueError(f"seconds must be positive, got {seconds!r}")
    rows = [("connect_four_v3 (PettingZoo)", "AEC", lambda t: _aec_rate(connect_four_v3.env(), t))]
    for env_id in games or env_ids():
        spec = game_spec(env_id)
        for cfg in spec.bench_configs:
            env = make(env_id, **cfg)
            rows.append((_label(env_id, cfg), "AEC", lambda t, env=env: _aec_rate(env, t)))
        game = spec.game_class(**spec.bench_configs[0])
        rows.append((_label(env_id, spec.bench_configs[0]), "engine",
                     lambda t, new=game.new_initial_state, cap=game.default_max_steps:
                     _engine_rate(new, t, cap)))
        rows.append((_label(env_id, spec.bench_configs[0]), "ismcts",
                     lambda t, new=game.new_initial_state, cap=game.default_max_steps:
                     _ismcts_rate(new, t, cap)))
    rows[0][2](min(seconds, 0.5))  # warm-up: the CPU's clock ramps up first
    rates = [[measure(seconds / rounds) for _, _, measure in rows] for _ in range(rounds)]
    out = []
    for i, (label, loop, _) in enumerate(rows):
        out.append({"env": label, "loop": loop,
                    "steps_per_s": float(np.median([r[i] for r in rates])),
                    "vs_connect_four": float(np.median([r[i] / r[0] for r in rates]))})
    return out


def _label(env_id: str, cfg: dict) -> str:
    return " ".join([env_id] + [f"{k}={v}" for k, v in cfg.items()])


def format_rows(rows: list[dict]) -> str:
    w = max([len("environment")] + [len(r["env"]) for r in rows])
    head = f"{'environment':<{w}} {'loop':<7} {'steps/s':>10} {'x connect_four':>15}"
    lines = [head, "-" * len(head)]
    for r in rows:
        lines.append(f"{r['env']:<{w}} {r['loop']:<7} {r['steps_per_s']:>10.0f} {r['vs_connect_four']:>15.2f}")
    if any(r["loop"] == "ismcts" for r in rows):
        lines.append("ismcts rows: ismcts simulations/s (default options: random rollouts, "
                     "depth 20) on a game's first decision, not steps/s")
    return "\n".join(lines)
