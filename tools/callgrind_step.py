"""Instructions per step, counted by callgrind: a load-independent speed figure.

Counts machine instructions (callgrind's ``Ir``) for uniform random play through the full
AEC loop (``last()``, a masked uniform choice, ``step()``) of each registered game's first
benchmark configuration (``--config``: another), or through the native engine's own random
playout in C++ (``--loop cpp``, the benchmark's "C++" row) or the batched API (``--loop
batched``, env-steps of one thread). Two runs per game, ``--short`` and ``--long`` steps, share the same
seeded start; their difference divided by the extra steps is the cost of one step without
imports and warm-up (the objects made before play are frozen out of the garbage collector,
so a full collection's place does not blur the difference). The count is repeatable for the same code, inputs and Python, whatever
else the machine is doing, so a before/after pair shows a change in the hot path that a
wall-clock benchmark on a busy 2-core machine would hide.

    python tools/callgrind_step.py                 # every game
    python tools/callgrind_step.py --env sherwood_v0 --short 300 --long 1300
    python tools/callgrind_step.py --loop bench    # make bench's own AEC loop, wrappers included
    python tools/callgrind_step.py --agents heuristic  # every seat played by the heuristic
    python tools/callgrind_step.py --loop cpp      # the native engine's own random playout (C++)
    python tools/callgrind_step.py --loop batched --config 3  # the batched API, 4th bench config
    python tools/callgrind_step.py --play ENV N    # (inner: the program callgrind runs)
"""

from __future__ import annotations

import argparse
import gc
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

# The checkout this file is in, not whatever copy of the package is installed: a before/after
# pair runs the same script from two checkouts.
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


# The batched loop's envs and threads: one thread, so no worker waits or spins while
# callgrind runs the threads one at a time (the count is the envs' work alone).
BATCH_ENVS = 64


def play(env_id: str, steps: int, seed: int = 0, loop: str = "step",
         agents: list[str] | None = None, config: int = 0) -> None:
    """``steps`` AEC steps of seeded uniform random play (new games as old ones end); loop
    ``bench`` is ``make bench``'s own loop (``forest_envs.benchmark.throughput.aec_play``). With ``agents``
    (names, repeated over the seats) those agents choose instead: the count is then the
    agents' cost per step plus the engine's. Loop ``cpp`` is the native engine's random
    playout (mask and apply in C++, no observation; new games made from Python), ``batched``
    the batched API's step of ``BATCH_ENVS`` envs (every env's observation and mask written,
    actions sampled in C++); ``steps`` counts env-steps. ``config`` indexes the game's
    benchmark configs."""
    import forest_envs
    from forest_envs.agents import make_agent
    from forest_envs.benchmark.throughput import aec_play, batched_play
    from forest_envs.core.registry import game_spec

    spec = game_spec(env_id)
    cfg = spec.bench_configs[config]
    if loop == "cpp":
        game = spec.game_class(**cfg)
        native = game.native_state_class
        cap = game.default_max_steps or 10**9
        rng = np.random.default_rng(seed)
        gc.collect()
        gc.freeze()
        done = 0
        while done < steps:
            state = native.new_from_seed(game, int(rng.integers(2**31)))
            done += state._random_playout(int(rng.integers(2**62)), min(cap, steps - done))
        return
    if loop == "batched":
        from forest_envs.envs.vector import BatchedEnv

        batch = BatchedEnv(env_id, BATCH_ENVS, threads=1, **cfg)
        gc.collect()
        gc.freeze()
        batched_play(batch, seed, steps=steps)
        return
    env = forest_envs.make(env_id, **cfg)
    # Everything imported so far is moved out of the collector's sight: a full collection
    # then walks only what play allocated, so where one happens to fall (it depends on the
    # allocation count) does not swing the difference of two runs by millions.
    gc.collect()
    gc.freeze()
    rng = np.random.default_rng(seed)
    if loop == "bench":
        aec_play(env, rng, steps=steps)
        return
    players = {}
    if agents:
        players = {seat: make_agent(env_id, agents[i % len(agents)], seed=seed + i)
                   for i, seat in enumerate(env.possible_agents)}
    game = 0
    env.reset(seed=game)
    for _ in range(steps):
        if not env.agents:
            game += 1
            env.reset(seed=game)
            for agent in players.values():
                agent.reset(seed=seed + game)
        _, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        seat = env.agent_selection
        if players:
            env.step(int(players[seat].act(env, seat)))
            continue
        legal = np.flatnonzero(env.action_mask(seat))
        env.step(int(legal[rng.integers(len(legal))]))


def instructions(env_id: str, steps: int, loop: str = "step", agents: str | None = None,
                 config: int = 0) -> int:
    """Total instructions of one run of ``play(env_id, steps, loop=loop)`` under callgrind."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "callgrind.out")
        cmd = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
               sys.executable, __file__, "--play", env_id, str(steps), "--loop", loop,
               "--config", str(config)]
        if agents:
            cmd += ["--agents", agents]
        # One BLAS thread: OpenBLAS's thread start-up and spinning otherwise varies the count
        # by several per cent between runs of the same code.
        env = dict(os.environ, PYTHONHASHSEED="0", OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
        res = subprocess.run(cmd, capture_output=True, text=True, env=env, check=False)
        if res.returncode != 0:
            raise SystemExit(f"callgrind run failed for {env_id}:\n{res.stderr[-2000:]}")
        match = re.search(r"Collected : (\d+)", res.stderr)
        if match is None:
            raise SystemExit(f"callgrind printed no instruction total:\n{res.stderr[-2000:]}")
        return int(match.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--env", action="append", help="env id (repeatable; default: every game)")
    parser.add_argument("--short", type=int, default=200, help="steps of the short run (200)")
    parser.add_argument("--long", type=int, default=1200, help="steps of the long run (1200)")
    parser.add_argument("--loop", choices=("step", "bench", "cpp", "batched"), default="step",
                        help="step: last(), action_mask(), step() on the bare env (default); "
                             "bench: make bench's agent_iter loop through the standard wrappers; "
                             "cpp: the native engine's random playout in C++ (no observation); "
                             "batched: the batched API's step (env-steps)")
    parser.add_argument("--config", type=int, default=0,
                        help="which of the game's benchmark configs (index, default 0)")
    parser.add_argument("--agents", help="comma-separated agent names that choose instead of "
                        "the uniform pick (e.g. heuristic); not with --loop bench")
    parser.add_argument("--play", nargs=2, metavar=("ENV", "STEPS"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.play:
        play(args.play[0], int(args.play[1]), loop=args.loop,
             agents=args.agents.split(",") if args.agents else None, config=args.config)
        return
    if args.long <= args.short:
        parser.error("--long must be more steps than --short")
    if args.agents and args.loop != "step":
        parser.error("--agents plays the step loop; it goes with no other --loop")
    from forest_envs.core.registry import env_ids

    for env_id in args.env or env_ids():
        short = instructions(env_id, args.short, args.loop, args.agents, args.config)
        long = instructions(env_id, args.long, args.loop, args.agents, args.config)
        per_step = (long - short) / (args.long - args.short)
        who = f", agents {args.agents}" if args.agents else ""
        cfg = f", config {args.config}" if args.config else ""
        print(f"{env_id:16s} {per_step:12,.0f} instructions per step "
              f"(loop {args.loop}{who}{cfg}, steps {args.short}..{args.long})", flush=True)


if __name__ == "__main__":
    main()
