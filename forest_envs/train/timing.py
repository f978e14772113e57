"""Where a training run's wall time goes: the network (acting forward passes; PPO's
optimisation), the env (engine steps and observations), the opponents (their ``act`` calls)
and everything else, as shares that sum to 1, and steps per second.

Low overhead: ``time.perf_counter`` accumulators around a few calls per step, no profiler.
In the trainer's process, ``policy.forward`` (acting: MaskablePPO's rollout calls it; its
optimisation calls ``evaluate_actions``), the optimisation (from a rollout's end to the
next one's start, marked by the trainer's callback) and the wait for the vectorized envs
(from the first action sent to the last answer: a worker starts stepping as soon as its
action arrives, so the sends are part of the wait) are timed. Each env, in whatever
process steps it, times its own ``step``/``reset`` and
its opponents' work (``TimedOpponent``'s ``act`` and ``reset``, and drawing them from the pool:
``timed_pool``) and reports its running totals in every step's
info (``TIMING_KEY``). With worker processes the envs run beside the trainer; the wait for
them is split between env and opponents in the proportion of their own totals, and their
raw totals are reported too (``worker_seconds``). With pipelined rollouts (``pipeline.py``)
the wait is only the trainer's sends and the receives it blocks on, group by group
(``waited_group``): the workers step meanwhile while it acts for the other group.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING

import gymnasium as gym
import numpy as np

if TYPE_CHECKING:
    from ..envs.gym_env import SingleAgentEnv
    from .shaping import PotentialShaping

TIMING_KEY = "forest_timing"


class OpponentClock:
    """Seconds spent in opponents' ``act``, ``reset`` and drawing in this process (one per env)."""

    def __init__(self):
        self.seconds = 0.0

    def timed(self, call: Callable, *args, **kwargs):
        """``call``'s result, its time (even if it raises) counted as the opponents'."""
        start = time.perf_counter()
        try:
            return call(*args, **kwargs)
        finally:
            self.seconds += time.perf_counter() - start


class TimedOpponent:
    """An opponent whose ``act`` calls are timed into ``clock``; everything else is the
    wrapped agent's."""

    def __init__(self, agent, clock: OpponentClock):
        self._agent, self._clock = agent, clock

    def act(self, env, agent: str) -> int:
        # OpponentClock.timed written out: a call less on the hot path (every opponent move)
        start = time.perf_counter()
        try:
            return self._agent.act(env, agent)
        finally:
            self._clock.seconds += time.perf_counter() - start

    def reset(self, seed: int | None = None) -> None:
        """The agent's own ``reset`` (if it has one) before each game, timed as its ``act``:
        reseeding its generator is the opponent's work, not the env's."""
        reset = getattr(self._agent, "reset", None)
        if reset is not None:
            self._clock.timed(reset, seed=seed)

    def __getattr__(self, name):
        return getattr(self._agent, name)


def timed_pool(pool: Callable[[np.random.Generator], list], clock: OpponentClock):
    """An opponent pool (``rng -> agents``, drawn at every reset) whose call is timed as the
    opponents' work, like their ``act``: choosing and making a game's opponents (a numpy
    policy, a heuristic and their generators) is not the engine's; its agents are
    TimedOpponents."""
    def draw(rng: np.random.Generator) -> list[TimedOpponent]:
        return [TimedOpponent(agent, clock) for agent in clock.timed(pool, rng)]

    return draw


class TimedEnv(gym.Wrapper):
    """Times ``step`` and ``reset`` (engine, observation and opponents) and reports the
    running (env seconds, opponent seconds) in each info under ``TIMING_KEY``."""

    env: SingleAgentEnv | PotentialShaping  # the learner's env, maybe shaped (vec.py)

    def __init__(self, env: SingleAgentEnv | PotentialShaping, clock: OpponentClock):
        super().__init__(env)
        self.clock = clock
        self.total = 0.0

    def _report(self, start: float, info: dict) -> dict:
        self.total += time.perf_counter() - start
        info[TIMING_KEY] = (self.total - self.clock.seconds, self.clock.seconds)
        return info

    def reset(self, **kwargs):
        start = time.perf_counter()
        obs, info = self.env.reset(**kwargs)
        return obs, self._report(start, info)

    def step(self, action):
        start = time.perf_counter()
        obs, reward, done, truncated, info = self.env.step(action)
        return obs, reward, done, truncated, self._report(start, info)

    def action_masks(self) -> np.ndarray:
        return self.env.action_masks()


class TrainingClock:
    """The trainer process's accumulators; ``attach`` wraps the model's calls."""

    def __init__(self, in_process: bool):
        self.in_process = in_process          # envs stepped in this process (DummyVecEnv)
        self.groups: list[slice] | None = None  # the envs of each worker process (set by the
                                                # vec env; None: one group of every env)
        self.restart()

    def restart(self) -> None:
        """Counts from now (after the model is built and warm-started)."""
        self.forward = self.train = self.wait = 0.0
        self.overlapped = False  # the wait was for one group of envs at a time (waited_group)
        self.env_totals: dict[int, tuple[float, float]] = {}
        # Per step, each worker's own work (env + opponents of its envs): the mean over the
        # workers and the busiest one, summed over the steps. The first step after a restart
        # only sets each env's baseline (its running totals began before the restart).
        self.work_mean = self.work_busiest = 0.0
        self._last_total: list[float] = []  # each env's running total at the last step
        self._optimising: float | None = None
        self.start = time.perf_counter()

    def attach(self, model) -> None:
        policy = model.policy
        forward = policy.forward

        def timed_forward(*args, **kwargs):
            start = time.perf_counter()
            try:
                return forward(*args, **kwargs)
            finally:
                self.forward += time.perf_counter() - start

        policy.forward = timed_forward  # (the policy is saved by its parameters only)

    # PPO optimises between the end of one rollout and the start of the next (and once
    # more after the last): the trainer's callback calls these.
    def rollout_end(self) -> None:
        self._optimising = time.perf_counter()

    def rollout_start(self) -> None:
        if self._optimising is not None:
            self.train += time.perf_counter() - self._optimising
            self._optimising = None

    def waited(self, seconds: float, infos, reset_infos) -> None:
        self.wait += seconds
        self._take_totals(0, infos, reset_infos)
        self._count_work(len(infos))

    def waited_group(self, seconds: float, first: int, infos, reset_infos) -> None:
        """The trainer waited ``seconds`` for one group of envs (``first``, ``first + 1``,
        ...) while the other group's overlapped its acting: no split into work, imbalance and
        messages (``wait_shares``) is made then."""
        self.overlapped = True
        self.wait += seconds
        self._take_totals(first, infos, reset_infos)

    def _take_totals(self, first: int, infos, reset_infos) -> None:
        for j, info in enumerate(infos):
            for source in (info, reset_infos[j] if reset_infos else None):
                if source and TIMING_KEY in source:
                    i = first + j
                    old = self.env_totals.get(i, (0.0, 0.0))
                    new = source[TIMING_KEY]
                    self.env_totals[i] = (max(old[0], new[0]), max(old[1], new[1]))

    def _count_work(self, n: int) -> None:
        """Add this step's work per worker (what each env's running totals grew by)."""
        totals = [sum(self.env_totals.get(i, (0.0, 0.0))) for i in range(n)]
        last = self._last_total
        if len(last) == n:
            work = [sum(totals[i] - last[i] for i in range(n)[group])
                    for group in self.groups or [slice(0, n)]]
            self.work_mean += sum(work) / len(work)
            self.work_busiest += max(work)
        self._last_total = totals

    def summary(self, steps: int) -> dict:
        """{"time_shares": network_forward, network_train, env, opponents, other (sum 1),
        "steps_per_second", "worker_seconds", and with worker processes "wait_shares"
        (``wait_shares``)} of the time since this clock started."""
        self.rollout_start()   # the optimisation after the last rollout
        wall = max(time.perf_counter() - self.start, 1e-9)
        env = sum(e for e, _ in self.env_totals.values())
        opp = sum(o for _, o in self.env_totals.values())
        if self.in_process:
            env_part, opp_part = env, opp
        else:   # the wait for the workers, split as their own totals are
            share = opp / (env + opp) if env + opp > 0 else 0.0
            env_part, opp_part = self.wait * (1 - share), self.wait * share
        parts = {"network_forward": self.forward, "network_train": self.train,
                 "env": env_part, "opponents": opp_part}
        scale = min(1.0, wall / max(sum(parts.values()), 1e-9))  # clock jitter never exceeds 1
        shares = {k: round(v * scale / wall, 4) for k, v in parts.items()}
        shares["other"] = round(max(0.0, 1.0 - sum(shares.values())), 4)
        out = {"time_shares": shares, "steps_per_second": round(steps / wall, 1),
               "wall_seconds": round(wall, 1),
               "worker_seconds": {"env": round(env, 2), "opponents": round(opp, 2)}}
        if self.overlapped:
            out["overlapped"] = True
        elif not self.in_process:
            out["wait_shares"] = self.wait_shares(wall)
        return out

    def wait_shares(self, wall: float) -> dict:
        """The wait for the workers (env + opponents), as shares of the wall time: ``work``,
        the mean worker's own work; ``imbalance``, what the busiest worker of each step
        worked beyond the mean (the others had finished and waited); ``messages``, the rest
        (sending actions and answers between the processes, and the workers' own loop)."""
        wait, busiest, mean = self.wait, min(self.work_busiest, self.wait), self.work_mean
        return {"work": round(mean / wall, 4), "imbalance": round((busiest - mean) / wall, 4),
                "messages": round((wait - busiest) / wall, 4)}


def describe(timing: dict) -> str:
    s = timing["time_shares"]
    text = ("time: " + ", ".join(f"{k} {100 * v:.1f}%" for k, v in s.items())
            + f"; {timing['steps_per_second']} steps/s")
    if "wait_shares" in timing:
        text += "; the wait for the workers: " + ", ".join(
            f"{k} {100 * v:.1f}%" for k, v in timing["wait_shares"].items())
    return text
