"""``BatchedSubprocVecEnv``: a few worker processes, each stepping several envs in turn.

SB3's ``SubprocVecEnv`` runs one process per env. With eight envs on a 2-core machine the
trainer's fan-out of eight actions is serialised with the workers' own work: each ``send``
wakes a worker that takes the trainer's core, and the trainer waits to send the next
(profiled with py-spy on a shipped baseline config: a quarter of the trainer's samples sat
in ``step_async``'s sends, the cores far from both busy). Here each worker process holds a
``DummyVecEnv`` (``_WorkerVecEnv``: one without its copies) of its share of the envs
(contiguous: worker k holds envs ``k*m .. k*m+m-1``) and steps them one after another, so a
step is one message per worker, not per env.

What an env sees does not depend on the layout: env ``i`` is built by the ``i``-th factory,
seeded with ``seed + i`` at its first reset and auto-reset by ``DummyVecEnv`` exactly as in
the trainer's own process, so a run is the same with one worker, with ``n_envs`` workers or
with ``vec_env: dummy`` (``tests/test_batched_vec.py``).

With ``groups=2`` the envs are split into two contiguous halves and a half can be stepped
alone (``step_group_async`` / ``step_group_wait``): the pipelined trainer (``pipeline.py``)
acts for one half while the other half steps. With as many workers as groups or more, each
half has workers of its own; with fewer (the default on two cores: one worker), a worker
holds envs of both halves and steps each half's envs when sent its actions, answering in
the order sent, so it steps one half while the trainer acts for the other.

With ``in_trainer=k`` the last ``k`` envs are stepped by the calling process itself, behind
the same messages as a worker (``_TrainerEnvs``, the last of ``self.remotes``): sent last,
a step is taken at once, while the workers step theirs, and its answer is read back in
order. The pipelined trainer thus steps some envs on the core its forward passes leave idle.

A worker that raises sends the traceback back and the trainer raises ``RuntimeError`` with
it (``AttributeError`` for a missing attribute); SB3's worker dies and leaves an ``EOFError``.
"""

from __future__ import annotations

import multiprocessing as mp
import traceback
from collections import deque
from collections.abc import Callable, Sequence
from multiprocessing.process import BaseProcess
from typing import Any, Protocol

import numpy as np
from stable_baselines3.common.vec_env import DummyVecEnv, VecEnv
from stable_baselines3.common.vec_env.base_vec_env import CloudpickleWrapper
from stable_baselines3.common.vec_env.util import dict_to_obs

from .ctrl_c import start_forkserver


class _WorkerVecEnv(DummyVecEnv):
    """A worker's envs: ``DummyVecEnv`` without its copies. DummyVecEnv hands out deep copies
    of its observation buffers and of the step's infos, for callers that keep them while it
    steps again; a worker pickles each answer to the trainer before its next step, so here
    the buffers themselves go (the copies were about 5% of a worker's time under cProfile in
    one game; docs/training.md). A step is otherwise DummyVecEnv's: auto-reset,
    ``terminal_observation`` and ``TimeLimit.truncated`` in the info
    (tests/test_batched_vec.py and tests/test_pipeline.py compare the two)."""

    def step_part(self, lo: int, hi: int, actions: np.ndarray) -> tuple:
        """Step envs ``lo .. hi - 1`` with ``actions``: (obs, rewards, dones, infos, reset
        infos) of those envs, the buffers themselves."""
        for i in range(lo, hi):
            env = self.envs[i]
            obs, self.buf_rews[i], terminated, truncated, info = env.step(actions[i - lo])
            self.buf_dones[i] = done = terminated or truncated
            info["TimeLimit.truncated"] = truncated and not terminated
            if done:
                info["terminal_observation"] = obs
                obs, self.reset_infos[i] = env.reset()
            self.buf_infos[i] = info
            self._save_obs(i, obs)
        return (dict_to_obs(self.observation_space, self.buf_obs)[lo:hi], self.buf_rews[lo:hi],
                self.buf_dones[lo:hi], self.buf_infos[lo:hi], self.reset_infos[lo:hi])


def _answer(venv: _WorkerVecEnv, command: str, data) -> tuple:
    """A worker's answer to one command: ("ok", value) or ("error", (kind, traceback))."""
    out: object  # each command's own kind of answer
    try:
        if command == "step":
            out = venv.step_part(*data)
        elif command == "reset":
            # the trainer's VecEnv.seed() drew every env's seed; DummyVecEnv.reset reads
            # (then clears) these two lists, as SB3's own SubprocVecEnv worker passes them
            venv._seeds, venv._options = data
            out = (venv.reset(), venv.reset_infos)
        elif command == "env_method":
            name, args, kwargs = data
            out = venv.env_method(name, *args, **kwargs)
        elif command == "get_attr":
            out = venv.get_attr(*data)
        elif command == "set_attr":
            venv.set_attr(*data)
            out = [None] * len(data[2])
        elif command == "is_wrapped":
            out = venv.env_is_wrapped(*data)
        else:
            raise ValueError(f"unknown command {command!r}")
    except Exception as e:
        return "error", (type(e).__name__, traceback.format_exc())
    return "ok", out


def _build(fns: list[Callable]) -> tuple:
    """A worker's envs, and its first answer: their spaces, or the factories' own error."""
    try:
        venv = _WorkerVecEnv(fns)
    except Exception as e:  # the factories' own errors, said in the trainer
        return None, ("error", (type(e).__name__, traceback.format_exc()))
    return venv, ("ok", (venv.observation_space, venv.action_space))


def _worker(remote, parent_remote, fns: CloudpickleWrapper) -> None:
    parent_remote.close()
    venv, first = _build(fns.var)
    remote.send(first)
    if venv is None:
        remote.close()
        return
    while True:
        command, data = remote.recv()
        if command == "close":
            venv.close()
            remote.close()
            return
        remote.send(_answer(venv, command, data))


class _Remote(Protocol):
    """What the trainer sends its commands to: a worker's end of a pipe, or _TrainerEnvs."""

    def send(self, obj: Any, /) -> None: ...

    def recv(self) -> Any: ...

    def close(self) -> None: ...


class _TrainerEnvs:
    """The envs the trainer's own process steps, behind a worker's pipe: a command is
    carried out when it is sent, so they step on the trainer's core while the workers step
    theirs (sent first), and ``recv`` returns the answers in the order sent. Their numpy
    BLAS runs on one thread while they step (an opponent's policy network), as in a worker;
    the trainer's torch threads are left as they are."""

    def __init__(self, fns: list[Callable]):
        from threadpoolctl import ThreadpoolController

        self._blas = ThreadpoolController()
        self.venv, first = _build(fns)
        self._answers = deque([first])

    def send(self, message: tuple) -> None:
        command, data = message
        if command == "close":
            if self.venv is not None:
                self.venv.close()
            return
        with self._blas.limit(limits=1, user_api="blas"):
            self._answers.append(_answer(self.venv, command, data))

    def recv(self):
        return self._answers.popleft()

    def close(self) -> None:
        pass


def _split(part: slice, pieces: int) -> list[slice]:
    """``part`` cut into ``pieces`` contiguous slices whose sizes differ by at most one."""
    size, extra = divmod(part.stop - part.start, pieces)
    out, start = [], part.start
    for k in range(pieces):
        stop = start + size + (k < extra)
        out.append(slice(start, stop))
        start = stop
    return out


class BatchedSubprocVecEnv(VecEnv):
    """``len(env_fns)`` envs stepped in ``workers`` processes (at most one per env).

    ``groups``: the envs are cut into this many contiguous groups (``self.groups``) that can
    be stepped apart. With ``workers >= groups`` each group has workers of its own
    (``workers`` shared out among them); with fewer, the workers hold contiguous envs across
    the groups, and a worker sent the steps of two groups answers them in that order.
    ``in_trainer``: the last envs, stepped by this process (at least one env is left to the
    workers)."""

    def __init__(self, env_fns: list[Callable], workers: int, groups: int = 1,
                 in_trainer: int = 0):
        if not 1 <= workers:
            raise ValueError(f"workers must be at least 1, not {workers}")
        n = len(env_fns)
        if not 1 <= groups <= n:
            raise ValueError(f"groups must be between 1 and the number of envs ({n}), not {groups}")
        if not 0 <= in_trainer < n:
            raise ValueError(f"in_trainer must be between 0 and the number of envs less one "
                             f"({n - 1}): at least one env steps in a worker, not {in_trainer}")
        self.groups: list[slice] = _split(slice(0, n), groups)
        # the workers' envs: the first n - in_trainer, cut along the groups
        remote = n - in_trainer
        remote_groups = [slice(g.start, min(g.stop, remote)) for g in self.groups if g.start < remote]
        self.slices: list[slice] = []            # each worker's envs (the trainer's last)
        if workers < len(remote_groups):
            # fewer workers than groups: the workers are shared, each stepping the parts of
            # its envs it is sent, in the order sent
            self.slices = _split(slice(0, remote), workers)
        else:
            for group, share in zip(remote_groups, _split(slice(0, workers), len(remote_groups))):
                self.slices.extend(_split(group, min(share.stop - share.start,
                                                     group.stop - group.start)))
        workers = len(self.slices)
        if in_trainer:
            self.slices.append(slice(remote, n))
        self.group_workers: list[range] = [  # each group's workers
            range(self._worker_of(g.start), self._worker_of(g.stop - 1) + 1) for g in self.groups]
        start_forkserver()
        # each branch its own literal: typeshed gives the contexts' Process to those alone
        ctx = (mp.get_context("forkserver") if "forkserver" in mp.get_all_start_methods()
               else mp.get_context("spawn"))
        self.remotes: list[_Remote] = []
        self.processes: list[BaseProcess] = []
        for part in self.slices[:workers]:
            remote_end, work_remote = ctx.Pipe()
            process: BaseProcess = ctx.Process(
                target=_worker, daemon=True,
                args=(work_remote, remote_end, CloudpickleWrapper(env_fns[part])))
            process.start()
            work_remote.close()
            self.remotes.append(remote_end)
            self.processes.append(process)
        # each worker's steps sent and not yet answered: (first, last + 1) of its own envs
        self.pending: dict[int, list[tuple[int, int]]] = {}
        self.closed = False
        try:
            if in_trainer:  # built after the workers were started: they build theirs meanwhile
                self.remotes.append(_TrainerEnvs(env_fns[remote:]))
            spaces = self._gather(range(len(self.remotes)))
        except Exception:
            for process in self.processes:  # the others built their envs: stop them too
                process.terminate()
            raise
        super().__init__(n, *spaces[0])

    # --- messages ------------------------------------------------------------------------------
    def _gather(self, workers) -> list:
        """Each named worker's answer, in order; a worker's error raised here."""
        out = []
        for k in workers:
            steps = self.pending.get(k)
            if steps:
                steps.pop(0)
                if not steps:
                    del self.pending[k]
            try:
                status, value = self.remotes[k].recv()
            except EOFError:
                raise RuntimeError(f"{self._holder(k)} exited") from None
            if status == "error":
                kind, text = value
                # a missing attribute stays an AttributeError (VecEnv asks for render_mode)
                error = AttributeError if kind == "AttributeError" else RuntimeError
                raise error(f"{self._holder(k)} failed:\n{text}")
            out.append(value)
        return out

    def _holder(self, k: int, lo: int = 0, hi: int | None = None) -> str:
        """Who steps worker ``k``'s envs (those ``lo .. hi - 1`` of its own), in words."""
        part = self.slices[k]
        last = part.stop if hi is None else part.start + hi
        return f"{self._who(k)} (envs {part.start + lo}..{last - 1})"

    def _who(self, k: int) -> str:
        return "the trainer's own envs" if k >= len(self.processes) else f"env worker {k}"

    def _worker_of(self, i: int) -> int:
        """The worker holding env ``i``."""
        return next(k for k, part in enumerate(self.slices) if part.start <= i < part.stop)

    def _targets(self, indices) -> list[tuple[int, list[int]]]:
        """(worker, the local indices of its envs among ``indices``), each worker once."""
        out: dict[int, list[int]] = {}
        for i in self._get_indices(indices):
            k = self._worker_of(i)
            out.setdefault(k, []).append(i - self.slices[k].start)
        return list(out.items())

    # --- VecEnv ----------------------------------------------------------------------------------
    def _parts(self, workers, envs: slice) -> list[tuple[int, int, int]]:
        """(worker, first, last + 1) of the envs of ``envs`` each named worker holds, counted
        among its own."""
        out = []
        for k in workers:
            part = self.slices[k]
            out.append((k, max(part.start, envs.start) - part.start,
                        min(part.stop, envs.stop) - part.start))
        return out

    def _send_steps(self, workers, actions: np.ndarray, envs: slice) -> None:
        """Each named worker the actions of its envs among ``envs`` (``actions[i -
        envs.start]`` for env ``i``)."""
        parts = self._parts(workers, envs)
        for k, lo, hi in parts:
            if (lo, hi) in self.pending.get(k, ()):
                verb = "is" if k < len(self.processes) else "are"
                raise RuntimeError(f"{self._holder(k, lo, hi)} {verb} still stepping: wait for "
                                   "the answer before sending another step")
        for k, lo, hi in parts:
            start = self.slices[k].start + lo - envs.start
            self.remotes[k].send(("step", (lo, hi, actions[start:start + hi - lo])))
            self.pending.setdefault(k, []).append((lo, hi))

    def _receive_steps(self, workers, envs: slice):
        """The named workers' step answers for their envs among ``envs`` (sent in this
        order), joined; their reset infos are written into ``self.reset_infos``."""
        parts = self._parts(workers, envs)
        for k, lo, hi in parts:
            if self.pending.get(k, [None])[0] != (lo, hi):
                raise RuntimeError(f"{self._who(k)} has no step of envs {envs.start}.."
                                   f"{envs.stop - 1} to answer first")
        obs, rewards, dones, infos, reset_infos = zip(*self._gather(workers))
        for (k, lo, hi), part in zip(parts, reset_infos):
            start = self.slices[k].start
            self.reset_infos[start + lo:start + hi] = part
        return (np.concatenate(obs), np.concatenate(rewards), np.concatenate(dones),
                [info for part in infos for info in part])

    def step_async(self, actions: np.ndarray) -> None:
        self._send_steps(range(len(self.remotes)), actions, slice(0, self.num_envs))

    def step_wait(self):
        return self._receive_steps(range(len(self.remotes)), slice(0, self.num_envs))

    def step_group_async(self, group: int, actions: np.ndarray) -> None:
        """Step group ``group``'s envs alone with ``actions`` (one per env of the group)."""
        self._send_steps(self.group_workers[group], actions, self.groups[group])

    def step_group_wait(self, group: int):
        """(obs, rewards, dones, infos) of group ``group``'s envs after its step."""
        return self._receive_steps(self.group_workers[group], self.groups[group])

    def wait_pending(self) -> None:
        """Read and drop the answers of every step sent and not yet waited for."""
        for k in sorted(self.pending):
            self._gather([k] * len(self.pending[k]))

    def _refuse_while_stepping(self, command: str, workers) -> None:
        """A worker with a step out would answer ``command`` with that step's answer."""
        busy = sorted(k for k in workers if self.pending.get(k))
        if busy:
            raise RuntimeError(f"{command} while env workers {busy} still have a step out: "
                               "wait for their answers (step_group_wait or wait_pending) first")

    def reset(self):
        self._refuse_while_stepping("reset", range(len(self.remotes)))
        for remote, part in zip(self.remotes, self.slices):
            remote.send(("reset", (self._seeds[part], self._options[part])))
        results = self._gather(range(len(self.remotes)))
        self._reset_seeds()
        self._reset_options()
        self.reset_infos = [info for _, part in results for info in part]
        return np.concatenate([obs for obs, _ in results])

    def close(self) -> None:
        if self.closed:
            return
        self.wait_pending()
        for remote in self.remotes:
            remote.send(("close", None))
        for process in self.processes:
            process.join()
        for remote in self.remotes:
            remote.close()
        self.closed = True

    def _per_env(self, command: str, indices, data) -> list:
        """One answer per env of ``indices``, in their order: each worker holding some is
        sent ``(command, data(its local indices))`` and answers a list over those."""
        targets = self._targets(indices)
        self._refuse_while_stepping(command, [k for k, _ in targets])
        for k, local in targets:
            self.remotes[k].send((command, data(local)))
        found: dict[int, Any] = {}
        for (k, local), answer in zip(targets, self._gather([k for k, _ in targets])):
            found.update(zip((self.slices[k].start + i for i in local), answer))
        return [found[i] for i in self._get_indices(indices)]

    def env_method(self, method_name: str, *args, indices=None, **kwargs) -> list:
        return self._per_env("env_method", indices,
                             lambda local: (method_name, args, {**kwargs, "indices": local}))

    def get_attr(self, attr_name: str, indices=None) -> list:
        return self._per_env("get_attr", indices, lambda local: (attr_name, local))

    def set_attr(self, attr_name: str, value, indices=None) -> None:
        self._per_env("set_attr", indices, lambda local: (attr_name, value, local))

    def env_is_wrapped(self, wrapper_class, indices=None) -> list[bool]:
        return self._per_env("is_wrapped", indices, lambda local: (wrapper_class, local))

    def get_images(self) -> Sequence[np.ndarray | None]:
        raise NotImplementedError("the training envs do not render")
