"""Random-play throughput of every game on each of its engines, beside its peers, in one run.

The peers: PettingZoo's connect_four_v3 (the ratio every row gives), OpenSpiel's C++
connect_four through pyspiel with an observation and a mask every step (when open_spiel is
installed), and a do-nothing AEC env through the same loop (the API's ceiling: what the loop
alone costs).

Loops:
- ``AEC``: ``agent_iter`` / ``last()`` (observation and mask every step) / a uniform legal
  action / ``step``, through each env's standard wrappers; one row per benchmark config and
  engine.
- ``engine``: the bare engine driven from Python (mask, a uniform legal action, apply; no
  observation), on the first benchmark config, per engine.
- ``C++``: the native engine's own random playout, a loop in C++ (mask and apply, no
  observation), as OpenSpiel's C++ benchmarks measure an engine.
- ``batched``: the batched API (``forest_envs.make_vec``, ``BATCH_ENVS`` envs, one worker
  thread per core) stepped from Python, every env moving at every call with a uniform legal
  action the batch draws in C++ (``sample_actions``), every env's observation and mask written
  (and, for a game that ends, every seat's final observation); env-steps per second, one row
  per benchmark config of a game whose native engine binds the batch.
- ``ismcts``: the search agent's simulations per second (its default options: random
  rollouts, depth 20) on the first decision of a game of the first benchmark config: the
  Python search on a Python state, the native search (C++) on a native one; ``ismcts-py``:
  the Python search on a native state (``search=python``), the native search's reference.
"""

from __future__ import annotations

import time

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ..core import engines
from ..core.registry import env_ids, game_spec
from ..envs.registration import make
from ..envs.vector import BatchedEnv

# The batched row's envs: enough that a call's fixed cost (Python, waking the threads) is
# small beside the envs' work, few enough that the observations stay in the caches.
BATCH_ENVS = 256


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


class IdleAEC(AECEnv):
    """The do-nothing AEC env: two agents, a fixed observation and mask, a game of 40 steps;
    what the benchmark's loop costs with an env that costs nothing (the API's ceiling)."""

    metadata = {"name": "idle_v0", "is_parallelizable": False, "render_modes": []}

    def __init__(self, obs_size: int = 100, num_actions: int = 10):
        super().__init__()
        self.possible_agents = ["player_0", "player_1"]
        box = spaces.Box(0, 1, (obs_size,), np.float32)
        mask_box = spaces.Box(0, 1, (num_actions,), np.int8)
        self.observation_spaces = {a: spaces.Dict({"observation": box, "action_mask": mask_box})
                                   for a in self.possible_agents}
        self.action_spaces: dict[str, spaces.Space] = {a: spaces.Discrete(num_actions)
                                                       for a in self.possible_agents}
        self._obs = {"observation": np.zeros(obs_size, np.float32),
                     "action_mask": np.ones(num_actions, np.int8)}

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed=None, options=None):
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict] = {a: {} for a in self.agents}
        self.agent_selection = self.agents[0]
        self._steps = 0

    def observe(self, agent):
        return self._obs

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent]:
            self._was_dead_step(action)
            return
        self._steps += 1
        if self._steps >= 40:
            for a in self.agents:
                self.terminations[a] = True
        self.agent_selection = self.agents[self._steps % 2]


def _openspiel_rate(seconds: float, seed: int = 0) -> float:
    """OpenSpiel's C++ connect_four through pyspiel, with an observation and a mask every step."""
    import pyspiel

    game = pyspiel.load_game("connect_four")
    rng = np.random.default_rng(seed)
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            player = state.current_player()
            state.observation_tensor(player)
            mask = state.legal_actions_mask(player)
            legal = [a for a, ok in enumerate(mask) if ok]
            state.apply_action(legal[int(rng.random() * len(legal))])
            steps += 1
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


def _native_loop_rate(game, seconds: float, max_steps: int | None, seed: int = 0) -> float:
    """The native engine's random playout, a loop in C++ (mask + apply), new games made from
    Python between games."""
    native = game.native_state_class
    rng = np.random.default_rng(seed)
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = native.new_from_seed(game, int(rng.integers(2**31)))
        steps += state._random_playout(int(rng.integers(2**62)), max_steps or 10**9)
    return steps / (time.perf_counter() - start)


def batched_play(batch: BatchedEnv, seed: int = 0, steps: int | None = None,
                 seconds: float | None = None) -> int:
    """The benchmark's batched loop: ``batch.reset(seed)``, then steps of every env with the
    uniform legal actions the batch draws, until ``steps`` env-steps or ``seconds`` have
    passed (checked after every call); returns the env-steps played."""
    n, start = 0, time.perf_counter()
    batch.reset(seed)
    while (steps is None or n < steps) and (seconds is None or time.perf_counter() - start < seconds):
        batch.step(batch.sample_actions())
        n += batch.num_envs
    return n


def _batched_rate(batch: BatchedEnv, seconds: float, seed: int = 0) -> float:
    start = time.perf_counter()
    steps = batched_play(batch, seed, seconds=seconds)
    return steps / (time.perf_counter() - start)


def _ismcts_rate(new_state, seconds: float, max_steps: int | None, seed: int = 0,
                 search: str = "auto") -> float:
    """Simulations per second of the default ``ismcts`` agent (``search``: which search it
    runs) searching the first decision of a seeded game for ``seconds`` (at least one
    simulation)."""
    from ..agents.search.ismcts import ISMCTSAgent

    state = new_state(seed)
    agent = ISMCTSAgent(seed, sims=None, time=seconds, search=search)
    agent.search(state, state.current_player, max_steps)
    return agent.last_sims / agent.last_seconds


def _peers() -> list[tuple]:
    from pettingzoo.classic import connect_four_v3

    rows = [("connect_four_v3 (PettingZoo)", "-", "AEC", lambda t: _aec_rate(connect_four_v3.env(), t)),
            ("idle AEC env (the API's ceiling)", "-", "AEC", lambda t: _aec_rate(IdleAEC(), t))]
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        pass
    else:
        rows.append(("connect_four (OpenSpiel C++ via pyspiel)", "-", "pyspiel", _openspiel_rate))
    return rows


def run(seconds: float = 3.0, games: list[str] | None = None, rounds: int = 3,
        engine_choice: tuple[str, ...] | None = None, batch_envs: int = BATCH_ENVS) -> list[dict]:
    """Every registered game's benchmark configs through the AEC loop on each engine it has
    (or those of ``engine_choice``), then its first config's bare engine and ismcts rates,
    each beside connect_four_v3 and the other peers.

    A shared machine's speed drifts (other load, clock changes), so the time is split into
    ``rounds``: each round times connect_four_v3 and then every row for ``seconds / rounds``;
    a row's figures are the medians over rounds of its rate and of its ratio to that
    round's connect_four_v3 rate. The batched rows step ``batch_envs`` envs per call."""
    if seconds <= 0:
        raise ValueError(f"seconds must be positive, got {seconds!r}")
    if batch_envs < 1:
        raise ValueError(f"batch_envs must be at least 1, got {batch_envs!r}")
    rows = _peers()
    for env_id in games or env_ids():
        spec = game_spec(env_id)
        here = [e for e in engines.available(spec.game_class)
                if engine_choice is None or e in engine_choice]
        for engine in here:
            for cfg in spec.bench_configs:
                env = make(env_id, engine=engine, **cfg)
                rows.append((_label(env_id, cfg), engine, "AEC", lambda t, env=env: _aec_rate(env, t)))
        if "native" in here and getattr(spec.game_class.native_state_class, "BATCH", None) is not None:
            for cfg in spec.bench_configs:
                batch = BatchedEnv(env_id, batch_envs, **cfg)
                rows.append((_label(env_id, cfg), "native", "batched",
                             lambda t, batch=batch: _batched_rate(batch, t)))
        game = spec.game_class(**spec.bench_configs[0])
        label, cap = _label(env_id, spec.bench_configs[0]), game.default_max_steps
        for engine in here:
            rows.append((label, engine, "engine",
                         lambda t, game=game, engine=engine, cap=cap:
                         _engine_rate(lambda seed: game.new_initial_state(seed, engine), t, cap)))
            if engine == "native":
                rows.append((label, engine, "C++", lambda t, game=game, cap=cap: _native_loop_rate(game, t, cap)))
        for engine in here:
            rows.append((label, engine, "ismcts",
                         lambda t, game=game, engine=engine, cap=cap:
                         _ismcts_rate(lambda seed: game.new_initial_state(seed, engine), t, cap)))
            if engine == "native":
                rows.append((label, engine, "ismcts-py",
                             lambda t, game=game, cap=cap:
                             _ismcts_rate(lambda seed: game.new_initial_state(seed, "native"), t, cap,
                                          search="python")))
    rows[0][3](min(seconds, 0.5))  # warm-up: the CPU's clock ramps up first
    rates = [[measure(seconds / rounds) for *_, measure in rows] for _ in range(rounds)]
    out = []
    for i, (label, engine, loop, _) in enumerate(rows):
        out.append({"env": label, "engine": engine, "loop": loop,
                    "steps_per_s": float(np.median([r[i] for r in rates])),
                    "vs_connect_four": float(np.median([r[i] / r[0] for r in rates]))}
                   | ({"batch_envs": batch_envs} if loop == "batched" else {}))
    return out


def _label(env_id: str, cfg: dict) -> str:
    return " ".join([env_id] + [f"{k}={v}" for k, v in cfg.items()])


def format_rows(rows: list[dict]) -> str:
    w = max([len("environment")] + [len(r["env"]) for r in rows])
    head = f"{'environment':<{w}} {'engine':<7} {'loop':<9} {'steps/s':>11} {'x connect_four':>15}"
    lines = [head, "-" * len(head)]
    for r in rows:
        lines.append(f"{r['env']:<{w}} {r.get('engine', '-'):<7} {r['loop']:<9} {r['steps_per_s']:>11.0f} "
                     f"{r['vs_connect_four']:>15.2f}")
    batch_envs = next((r["batch_envs"] for r in rows if "batch_envs" in r), BATCH_ENVS)
    lines.append("loops: AEC = agent_iter/last/step with an observation and mask every step; engine = "
                 "mask + apply driven from Python; C++ = the native engine's own random playout; "
                 f"batched = make_vec's {batch_envs} envs stepped per call on every core, random legal "
                 "actions drawn in C++, every env's observation and mask written (env-steps/s); "
                 "pyspiel = observation + mask + apply through pyspiel")
    if any(r["loop"] == "ismcts" for r in rows):
        lines.append("ismcts rows: ismcts simulations/s (default options: random rollouts, "
                     "depth 20) on a game's first decision, not steps/s; on a native engine "
                     "ismcts is the native search, ismcts-py the Python search")
    return "\n".join(lines)
