"""Vectorized envs whose action masks ride along with every step, and the one the trainer steps.

sb3-contrib's MaskablePPO asks a VecEnv for masks with ``env_method("action_masks")``: with
worker processes that is one extra round trip to every worker per step. ``SingleAgentEnv``
puts its mask in each step's (and reset's) info, and ``MaskInfoVecEnv`` answers
``action_masks`` from those, locally.

``make_vec_env`` builds the trainer's: one learner seat per game, opponents drawn from a
self-play pool at every reset, in worker processes (``batched.py``: a few, each stepping
several envs) or in this one.
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
from stable_baselines3.common.vec_env import VecEnvWrapper

from ..envs.gym_env import SingleAgentEnv
from ..evaluation.workers import cpu_cores, start_worker
from .config import num_players
from .selfplay import OpponentPool
from .shaping import PotentialShaping
from .timing import OpponentClock, TimedEnv, timed_pool

MASK_KEY = "action_mask"


class MaskInfoVecEnv(VecEnvWrapper):
    def __init__(self, venv, clock=None):
        super().__init__(venv)
        self._masks: np.ndarray | None = None
        self.clock = clock  # a timing.TrainingClock: the wait for the envs and their totals
        if clock is not None:
            clock.groups = getattr(venv, "slices", None)  # each worker's envs
        self._sent = 0.0
        # the envs' groups that can be stepped alone (BatchedSubprocVecEnv(groups=...))
        self.groups: list[slice] = getattr(venv, "groups", [slice(0, venv.num_envs)])
        self._group_send = [0.0] * len(self.groups)  # how long each group's last send took

    def reset(self):
        obs = self.venv.reset()
        self._masks = np.stack([info[MASK_KEY] for info in self.venv.reset_infos]).astype(bool)
        return obs

    def step_async(self, actions) -> None:
        # The envs' time starts with the sends: a worker steps as soon as its action arrives,
        # so with worker processes the trainer's sends already wait on the envs' work.
        self._sent = time.perf_counter()
        self.venv.step_async(actions)

    def step_wait(self):
        obs, rewards, dones, infos = self.venv.step_wait()
        if self.clock is not None:
            self.clock.waited(time.perf_counter() - self._sent, infos, self.venv.reset_infos)
        self._take_masks(0, dones, infos)
        return obs, rewards, dones, infos

    def _current_masks(self) -> np.ndarray:
        """Every env's current action mask (set by ``reset``, updated by each step)."""
        if self._masks is None:
            raise RuntimeError("MaskInfoVecEnv has no action masks before its first reset()")
        return self._masks

    def _take_masks(self, first: int, dones, infos) -> None:
        """The masks of envs ``first, first + 1, ...`` after their step."""
        masks, reset_infos = self._current_masks(), self.venv.reset_infos
        for j, done in enumerate(dones):
            # After an auto-reset the new episode's first mask is in the reset info.
            source = reset_infos[first + j] if done else infos[j]
            masks[first + j] = source[MASK_KEY]

    # --- one group of envs at a time (the pipelined trainer) ------------------------------
    def step_group_async(self, group: int, actions) -> None:
        start = time.perf_counter()
        self.venv.step_group_async(group, actions)
        self._group_send[group] = time.perf_counter() - start

    def step_group_wait(self, group: int):
        """(obs, rewards, dones, infos) of the group's envs after their step; their masks
        are updated. The trainer's wait for the group is its send and this receive only:
        between the two it acted for the other group while this one stepped."""
        start = time.perf_counter()
        obs, rewards, dones, infos = self.venv.step_group_wait(group)
        first = self.groups[group].start
        if self.clock is not None:
            waited = self._group_send[group] + time.perf_counter() - start
            self.clock.waited_group(waited, first, infos,
                                    self.venv.reset_infos[self.groups[group]])
        self._take_masks(first, dones, infos)
        return obs, rewards, dones, infos

    def group_masks(self, group: int) -> np.ndarray:
        """A copy of the group's current action masks."""
        return self._current_masks()[self.groups[group]].copy()

    def wait_pending(self) -> None:
        self.venv.wait_pending()

    def env_method(self, method_name, *args, indices=None, **kwargs):
        if method_name == "action_masks":
            idx = range(self.num_envs) if indices is None else np.atleast_1d(indices)
            masks = self._current_masks()
            return [masks[i] for i in idx]
        return self.venv.env_method(method_name, *args, indices=indices, **kwargs)

    def has_attr(self, attr_name: str) -> bool:
        return attr_name == "action_masks" or self.venv.has_attr(attr_name)


def _env_factory(cfg: dict, snapshot_dir: Path, n: int, in_worker: bool, in_trainer: bool = False):
    """One training env's factory: in a worker process (``in_worker``), stepped by the
    trainer's own process beside its workers (``in_trainer``: the trainer's threads are its
    own), or in the trainer's process alone (vec_env dummy)."""
    def build():
        import torch

        if in_worker:
            # Ctrl-C is the main process's (it saves, then stops the workers); the opponents'
            # policy networks use one BLAS thread (no pools spinning against each other)
            start_worker()
        if not in_trainer:
            torch.set_num_threads(1)
        pool = OpponentPool(cfg["env"], cfg["opponents"]["pool"], n - 1, snapshot_dir,
                            cfg["opponents"]["max_snapshots"])
        clock = OpponentClock()
        learner = SingleAgentEnv(cfg["env"], opponents=timed_pool(pool, clock), reward=cfg["reward"],
                                 **cfg["env_config"])
        env = (PotentialShaping(learner, cfg["shaping"], cfg["ppo"]["gamma"]) if cfg["shaping"]
               else learner)
        return TimedEnv(env, clock)

    return build


def default_workers(pipelined: bool) -> int:
    """Worker processes for ``env_workers: null``: one per core, but a pipelined trainer
    keeps a core busy with its forward passes while the workers step, so it gets all but
    one (at least one). On the 2-core machine one worker stepping both halves in turn, while
    the trainer acts for the other, beat two workers taking the trainer's core in turns
    (more steps per second in every game, and a smaller share of env and opponents: the
    figures are in docs/training.md, "One worker for both halves")."""
    cores = cpu_cores()
    return max(1, cores - 1) if pipelined else cores


def make_vec_env(cfg: dict, snapshot_dir: Path, seed: int | None = None, clock=None) -> MaskInfoVecEnv:
    """The trainer's vectorized env; with ``pipeline`` its envs in two halves that step
    apart (``pipeline.py``)."""
    from stable_baselines3.common.vec_env import DummyVecEnv

    from .batched import BatchedSubprocVecEnv

    n = num_players(cfg)
    subproc = cfg["vec_env"] == "subproc" and cfg["n_envs"] > 1
    in_trainer = cfg["trainer_envs"] if subproc else 0
    fns = [_env_factory(cfg, snapshot_dir, n, subproc and i < cfg["n_envs"] - in_trainer,
                        in_trainer=subproc and i >= cfg["n_envs"] - in_trainer)
           for i in range(cfg["n_envs"])]
    if subproc:  # (BatchedSubprocVecEnv starts the forkserver its workers fork from)
        venv = BatchedSubprocVecEnv(fns, cfg["env_workers"] or default_workers(cfg["pipeline"]),
                                    groups=2 if cfg["pipeline"] else 1, in_trainer=in_trainer)
    else:
        venv = DummyVecEnv(fns)
    venv.seed(cfg["seed"] if seed is None else seed)
    return MaskInfoVecEnv(venv, clock)
