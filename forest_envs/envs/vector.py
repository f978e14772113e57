"""The batched API: N games of one configuration stepped together in C++, and a gymnasium
``VectorEnv`` for self-play on top of it.

``BatchedEnv`` (``forest_envs.make_vec``) holds N envs of a game's native engine
(``core/native/batch.hpp``); ``reset`` and ``step`` move all of them in one call, the GIL
released and the envs split over a pool of worker threads, and write into arrays the batch
owns (a step allocates nothing):

- ``observation`` float32 [N, D]: the observation of the seat to move, rotated to that seat
  (what the AEC env's ``observe`` gives it), ``action_mask`` int8 [N, A], ``seat`` int32 [N];
- ``rewards`` float32 [N, P]: every seat's reward this step: 0 until a game ends, then the
  game's returns in the reward mode (``win``, ``rank``, ``score``), 0 for a truncated game;
- ``terminated`` / ``truncated`` bool [N]: the game ended by its rules, or reached
  ``max_steps`` actions this step.

A game that ends is replaced at once by the env's next game (same-step auto-reset): the
observation, mask and seat are the new game's; the finished game's last observation of every
seat is in ``final_observation`` [N, P, D], its ranks in ``final_ranks`` [N, P] and, in games
with points, its totals in ``final_scores`` [N, P] (rows of envs that ended this step).

Env i plays exactly the games of an AEC env after ``reset(seed=seed + i)`` and then unseeded
resets (``tests/test_vector_env.py`` checks it action for action), whatever the number of
threads. An illegal action in any env raises ``IllegalActionError`` naming the env, the action,
the player and why, before any env has moved.

``SelfPlayVectorEnv`` is a gymnasium ``VectorEnv`` over a ``BatchedEnv``: one policy acts for
whichever seat is to move. The SB3 ``VecEnv`` that trains a learner seat against batched
opponents is ``forest_envs.train.native_vec.NativeBatchVecEnv`` (it needs the train extra).
"""

from __future__ import annotations

import os
from typing import Any, NamedTuple

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from ..core.config import Option, validate_options
from ..core.errors import ConfigError
from ..core.game import Game
from ..core.registry import game_spec
from ..core.rng import fresh_seed
from .aec import ENV_OPTIONS

__all__ = ["BatchStep", "BatchedEnv", "SelfPlayVectorEnv", "make_vec"]

# The batched API's own options; the other keywords are game options.
VECTOR_OPTIONS = {
    "reward": ENV_OPTIONS["reward"],
    "max_steps": ENV_OPTIONS["max_steps"],
    "engine": Option(None, choices=(None, "native"),
                     doc="None or 'native': the batched API steps native engines only"),
}
# AEC env options that have no meaning here, and why.
_NOT_BATCHED = {
    "render_mode": "a batch draws nothing; copy an env's state with state(i) and render that",
    "illegal_action": "an illegal action always raises IllegalActionError (nothing moves)",
    "illegal_penalty": "an illegal action always raises IllegalActionError (nothing moves)",
}
# seed + env index is each env's first game seed: numpy takes seeds below 2**64 here.
_SEED_LIMIT = 2**64
# What the C++ batch takes (core/native/batch_binding.hpp checks them again).
MAX_ENVS = 2**24
MAX_THREADS = 1024
_MAX_STEPS_LIMIT = 2**62


class BatchStep(NamedTuple):
    """What ``reset`` and ``step`` return: the batch's own arrays (not copies), overwritten by
    the next call; copy what you keep."""

    observation: np.ndarray  # float32 [N, D]: the seat to move's observation
    action_mask: np.ndarray  # int8 [N, A]: its legal actions
    seat: np.ndarray         # int32 [N]: the seat to move
    rewards: np.ndarray      # float32 [N, P]: every seat's reward this step
    terminated: np.ndarray   # bool [N]: the game ended by its rules this step
    truncated: np.ndarray    # bool [N]: the game reached max_steps this step


def default_threads() -> int:
    """The cores this process may run on (its affinity where the OS has one)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


def _check_count(name: str, value: Any, high: int) -> int:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)) or not 1 <= value <= high:
        raise ConfigError(f"{name} must be an int in 1..{high}, got {value!r}")
    return int(value)


class BatchedEnv:
    """``num_envs`` games of ``env_id`` in one configuration, stepped together in C++ (see the
    module docstring). ``seed``: env i's first game is seeded with ``seed + i`` (None: a seed
    drawn from the OS at the first reset); ``threads``: worker threads (None: one per core;
    the results are the same for any number); ``reward``, ``max_steps``: as the AEC env's;
    ``final_observation=False`` skips writing ended games' last observations. Every other
    keyword is a game option."""

    def __init__(self, env_id: str, num_envs: int, *, seed: int | None = None, threads: int | None = None,
                 final_observation: bool = True, **config: Any):
        spec = game_spec(env_id)
        game_class = spec.game_class
        self.num_envs = _check_count("num_envs", num_envs, high=MAX_ENVS)
        self.threads_asked = default_threads() if threads is None else _check_count("threads", threads,
                                                                                    high=MAX_THREADS)
        self._seed = None if seed is None else _check_seed(seed, self.num_envs)
        if config.get("engine") == "python":
            raise ConfigError(f"engine='python' cannot be batched: the batched API steps {env_id}'s native engine "
                              f"in C++; use make({env_id!r}, engine='python') envs for the Python engine")
        for key, why in _NOT_BATCHED.items():
            if key in config:
                raise ConfigError(f"{key} is not an option of the batched API: {why}")
        unknown = sorted(set(config) - set(VECTOR_OPTIONS) - set(game_class.options))
        if unknown:
            raise ConfigError(f"unknown option(s) {unknown} for {env_id}'s batched API; valid game options "
                              f"are {sorted(game_class.options)}, valid batch options are "
                              f"{sorted(VECTOR_OPTIONS)} (and seed, threads, final_observation)")
        env_opts = validate_options(VECTOR_OPTIONS, {k: v for k, v in config.items() if k in VECTOR_OPTIONS},
                                    "batched API")
        game_opts = {k: v for k, v in config.items() if k not in VECTOR_OPTIONS}
        state_class = _native_state_class(env_id, game_class)
        self.env_id = env_id
        self.game = game_class(**game_opts)
        modes = self.game.traits.reward_modes
        if env_opts["reward"] not in modes:
            raise ConfigError(f"reward={env_opts['reward']!r} is invalid for {env_id}; expected one of {list(modes)}")
        self.reward_mode: str = env_opts["reward"]
        self.max_steps: int | None = env_opts["max_steps"] or self.game.default_max_steps
        if self.max_steps is not None and self.max_steps > _MAX_STEPS_LIMIT:
            raise ConfigError(f"max_steps={self.max_steps} is too large for the batched API; expected at most 2**62")
        self._state_class = state_class
        has_scores = self.game.traits.has_scores
        self._batch = state_class.BATCH(
            state_class.native_tables(self.game), self.num_envs, self.threads_asked, self.reward_mode,
            float(self.game.traits.score_scale), int(self.max_steps or 0), bool(final_observation), has_scores)
        self.num_players: int = self.game.num_players
        self.num_actions: int = self.game.num_actions
        self.observation_size: int = self.game.layout.observation_size
        layout = self.game.layout
        self.observation_space = spaces.Box(layout.obs_low, layout.obs_high, dtype=np.float32)
        self.action_space: spaces.Discrete = spaces.Discrete(self.num_actions)
        b = self._batch
        # The batch's own arrays, the same objects for its whole life (see BatchStep).
        self.observation: np.ndarray = b.observation
        self.action_mask: np.ndarray = b.action_mask
        self.seat: np.ndarray = b.seat
        self.rewards: np.ndarray = b.rewards
        self.terminated: np.ndarray = b.terminated
        self.truncated: np.ndarray = b.truncated
        self.final_observation: np.ndarray | None = b.final_observation
        self.final_ranks: np.ndarray = b.final_ranks
        self.final_scores: np.ndarray | None = b.final_totals
        self._out = BatchStep(b.observation, b.action_mask, b.seat, b.rewards, b.terminated, b.truncated)
        self._started = False
        self._closed = False

    @property
    def threads(self) -> int:
        """The threads stepping the envs (the caller's and the pool's: at most one per env)."""
        return self._batch.threads

    def reset(self, seed: int | None = None) -> BatchStep:
        """Every env starts a new game: with ``seed``, env i's is seeded with ``seed + i`` (the
        AEC env's ``reset(seed=seed + i)``); without, each env's next game comes from its own
        seeder (the AEC env's unseeded reset), or, at a batch's first reset, from the seed
        given to the constructor (None: one drawn from the OS)."""
        self._check_open()
        if seed is not None:
            seed = _check_seed(seed, self.num_envs)
        elif not self._started:
            seed = self._seed if self._seed is not None else fresh_seed()
        self._batch.reset(seed)
        self._started = True
        return self._out

    def step(self, actions) -> BatchStep:
        """One action per env (an integer array of shape [N]); every env moves."""
        self._check_open()
        self._batch.step(actions, False)
        return self._out

    def step_some(self, actions) -> BatchStep:
        """As ``step``, but an env whose action is -1 does not move: its rewards are 0, its
        flags False, its observation, mask and seat stay as they were (opponents acting
        between a learner's turns, in the envs where it is their turn)."""
        self._check_open()
        self._batch.step(actions, True)
        return self._out

    def sample_actions(self) -> np.ndarray:
        """A uniformly random legal action for every env, drawn in C++ from each env's own
        generator (seeded by ``reset(seed)``: env i's is numpy's ``default_rng([seed + i,
        0x5A3B1E])``); the batch's own int64 array, overwritten by the next call."""
        self._check_open()
        return self._batch.sample_actions()

    def state(self, env: int):
        """A copy of env ``env``'s game in progress, a full engine state (view, render,
        to_dict, ...): changing it changes nothing in the batch."""
        self._check_open()
        if isinstance(env, (bool, np.bool_)) or not isinstance(env, (int, np.integer)) \
                or not 0 <= env < self.num_envs:
            raise IndexError(f"env {env!r} is not in this batch of {self.num_envs}")
        target = self._state_class._blank(self.game)
        self._batch.copy_state(int(env), target)
        return target

    def close(self) -> None:
        """Stop the worker threads (they also stop when the batch is garbage-collected)."""
        if not self._closed:
            self._closed = True
            self._batch = None

    def _check_open(self) -> None:
        if self._closed:
            raise RuntimeError("this batch is closed")

    def __repr__(self) -> str:
        return (f"BatchedEnv({self.env_id!r}, num_envs={self.num_envs}, config={self.game.config}, "
                f"reward={self.reward_mode!r}, max_steps={self.max_steps}, threads={self.threads_asked})")


def make_vec(env_id: str, num_envs: int, **kwargs: Any) -> BatchedEnv:
    """``BatchedEnv(env_id, num_envs, seed=None, threads=None, reward="win", max_steps=None,
    engine=None, final_observation=True, **game_options)``: the batched API of a game with a
    native engine (see the module docstring)."""
    return BatchedEnv(env_id, num_envs, **kwargs)


def _native_state_class(env_id: str, game_class: type[Game]) -> Any:
    """The native state class whose module binds the batch (a ``NativeState``: ``BATCH``,
    ``native_tables``), or a ConfigError saying why not."""
    state_class = game_class.native_state_class
    if state_class is None:
        raise ConfigError(f"{env_id} has no native engine here ({game_class.native_unavailable}); the batched "
                          f"API steps native engines only: use make({env_id!r}) envs instead")
    if getattr(state_class, "BATCH", None) is None:
        raise ConfigError(f"{env_id}'s native engine binds no batched stepping (its module.cpp does not "
                          f"call bind_batch)")
    return state_class


def _check_seed(seed: Any, num_envs: int) -> int:
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ConfigError(f"seed must be None or a non-negative int, got {seed!r}")
    if seed + num_envs > _SEED_LIMIT:
        raise ConfigError(f"seed + num_envs must be at most 2**64 (env i's first game is seeded with seed + i), "
                          f"got seed={seed} for {num_envs} envs")
    return int(seed)


class SelfPlayVectorEnv(VectorEnv):
    """A gymnasium ``VectorEnv`` over a ``BatchedEnv`` for self-play: one policy acts in every
    env for whichever seat is to move.

    Observations are the AEC env's: a dict of the mover's ``observation`` (rotated to its seat)
    and its ``action_mask``, batched (``[N, D]`` and ``[N, A]``). The reward of env i is the
    reward of the seat that acted in it (0 until a game ends, then its return in the reward
    mode); ``infos["rewards"]`` holds every seat's [N, P], ``infos["actor"]`` the seat that
    acted and ``infos["seat"]`` the seat to move now. Auto-reset is same-step
    (``AutoresetMode.SAME_STEP``): an ended env's observation is its next game's, and
    ``infos["final_obs"]`` / ``infos["final_info"]`` (masked by ``"_final_obs"`` /
    ``"_final_info"``) hold the acting seat's last observation and the finished game's
    ``rank``, ``winner`` and ``score`` of that seat. ``copy=False`` returns the batch's own
    arrays, overwritten by the next step. Other keywords: as ``BatchedEnv``."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(self, env_id: str, num_envs: int, *, copy: bool = True, **kwargs: Any):
        if not kwargs.pop("final_observation", True):
            raise ConfigError("SelfPlayVectorEnv hands out every ended game's final observation: "
                              "final_observation=False is not an option here")
        self.batch = BatchedEnv(env_id, num_envs, final_observation=True, **kwargs)
        b = self.batch
        self.num_envs = b.num_envs
        self.copy = copy
        self.single_observation_space = spaces.Dict({
            "observation": b.observation_space,
            "action_mask": spaces.Box(0, 1, (b.num_actions,), dtype=np.int8)})
        self.single_action_space = b.action_space
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self.render_mode = None
        self.spec = None
        self._envs = np.arange(self.num_envs)
        self._actor = np.zeros(self.num_envs, np.int32)
        self._has_scores = b.final_scores is not None

    def reset(self, *, seed: int | list[int] | None = None, options: dict | None = None):
        """``seed``: env i's game is seeded with ``seed + i`` (a list must be exactly that);
        None: each env's next game (the first reset without one draws a seed from the OS)."""
        if isinstance(seed, (list, tuple, np.ndarray)):
            seeds = [int(s) for s in seed]
            if len(seeds) != self.num_envs or seeds != list(range(seeds[0], seeds[0] + self.num_envs)):
                raise ConfigError(f"seed as a list must be [s, s + 1, ..., s + {self.num_envs - 1}]: "
                                  f"env i plays seed + i; got {seed!r}")
            seed = seeds[0]
        if options:
            raise ConfigError(f"{type(self).__name__}.reset takes no options, got {options!r}")
        if seed is not None:
            self._np_random_seed = int(seed)
        out = self.batch.reset(seed)
        return self._obs(out), {"seat": self._copy(out.seat)}

    def step(self, actions):
        np.copyto(self._actor, self.batch.seat)
        out = self.batch.step(actions)
        rewards = out.rewards[self._envs, self._actor]  # the actors' (a new array)
        infos: dict[str, Any] = {"seat": self._copy(out.seat), "actor": self._actor.copy(),
                                 "rewards": self._copy(out.rewards)}
        ended = np.flatnonzero(out.terminated | out.truncated)
        for i in ended:
            infos = self._add_info(infos, {"final_obs": self._final_obs(int(i)),
                                           "final_info": self._final_info(int(i))}, int(i))
        return (self._obs(out), rewards, self._copy(out.terminated), self._copy(out.truncated), infos)

    def close_extras(self, **kwargs: Any) -> None:
        self.batch.close()

    def _copy(self, array: np.ndarray) -> np.ndarray:
        return array.copy() if self.copy else array

    def _obs(self, out: BatchStep) -> dict[str, np.ndarray]:
        return {"observation": self._copy(out.observation), "action_mask": self._copy(out.action_mask)}

    def _final_obs(self, i: int) -> dict[str, np.ndarray]:
        b = self.batch
        assert b.final_observation is not None  # (asked for only when the batch writes them)
        return {"observation": b.final_observation[i, self._actor[i]].copy(),
                "action_mask": np.zeros(b.num_actions, np.int8)}

    def _final_info(self, i: int) -> dict[str, Any]:
        b, seat = self.batch, int(self._actor[i])
        truncated = bool(b.truncated[i])
        rank = int(b.final_ranks[i, seat])
        info: dict[str, Any] = {"seat": seat, "rank": rank, "winner": not truncated and rank == 1,
                                "truncated": truncated}
        if self._has_scores:
            assert b.final_scores is not None  # (_has_scores: the batch writes them)
            info["score"] = int(b.final_scores[i, seat])
        return info

