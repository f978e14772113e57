"""An SB3 ``VecEnv`` that trains a learner seat against batched opponents on the batched API
(``forest_envs.envs.vector.BatchedEnv``: every env's game stepped in C++, one call per round).

Each env seats the learner at ``learner_seat`` (None: a seat drawn uniformly for every game,
so the learner plays every position). A step applies the learner's action in every env, then
plays the opponents in rounds: each round the envs whose seat to move is not the learner's get
their actions from ``opponents`` evaluated on the batch of those envs' observations and masks
at once (``"random"``: uniform legal actions drawn in C++; a policy file or ``NumpyPolicy``:
its masked distribution sampled with numpy; any callable ``(observations [K, D], masks [K, A])
-> actions [K]``, such as ``model_opponent(model)`` for self-play against the learner's current
policy), until the learner is to move everywhere again.

The learner's reward stream: 0 on every step but the one its game ends on, which gets its
seat's return in the reward mode (``win``: 1/k when it shares first place with k-1 others,
else 0; ``rank``; ``score``), however the game ended (its own action or an opponent's); a game
cut at ``max_steps`` ends the episode with reward 0 and ``TimeLimit.truncated`` (SB3 then
bootstraps from ``terminal_observation``). A game the opponents end before the learner has
acted in it is no episode of the learner's: it is skipped, as ``SingleAgentEnv`` skips it.
The opponents' rewards are not part of the stream. ``action_masks()`` (what MaskablePPO asks
through ``env_method``) are the learner's legal actions, answered locally.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import numpy as np
from stable_baselines3.common.vec_env import VecEnv

from ..agents.policy import NumpyPolicy, check_policy_fits
from ..core.errors import ConfigError
from ..envs.gym_env import MAX_GAMES_WITHOUT_A_TURN
from ..envs.vector import BatchedEnv

__all__ = ["NativeBatchVecEnv", "model_opponent", "policy_opponent"]

# (observations [K, D] float32, masks [K, A] int8) -> actions [K]
BatchPolicy = Callable[[np.ndarray, np.ndarray], Any]


def policy_opponent(policy: NumpyPolicy | str | Path, rng: np.random.Generator,
                    deterministic: bool = False) -> BatchPolicy:
    """A trained policy (``.npz`` or MaskablePPO ``.zip``, or a loaded ``NumpyPolicy``) as a
    batch opponent: each row's action sampled from the policy's distribution over its legal
    actions (Gumbel-max: the same distribution as ``PolicyAgent`` samples), with numpy."""
    from threadpoolctl import ThreadpoolController

    net = policy if isinstance(policy, NumpyPolicy) else NumpyPolicy.load(policy)
    blas = ThreadpoolController()

    def act(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        # numpy's BLAS on one thread, as in the training workers (evaluation/workers.py's
        # one_blas_thread): OpenBLAS's pool spinning beside the batch's threads made a forward
        # pass of a few rows take 78 ms instead of 0.6 ms on the loaded 2-core machine.
        with blas.limit(limits=1, user_api="blas"):
            logits = net.logits(observations)
        logits = np.where(masks.astype(bool), logits.astype(np.float64), -np.inf)
        if not deterministic:
            logits += rng.gumbel(size=logits.shape)
        return np.argmax(logits, axis=1)

    act.policy = net  # type: ignore[attr-defined]  # (checked against the game's sizes)
    return act


def model_opponent(model, deterministic: bool = False) -> BatchPolicy:
    """A MaskablePPO model (the learner itself, for self-play) as a batch opponent."""
    def act(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        actions, _ = model.predict(observations, action_masks=masks.astype(bool), deterministic=deterministic)
        return actions

    return act


class NativeBatchVecEnv(VecEnv):
    """``NativeBatchVecEnv(env_id, num_envs, opponents="random", learner_seat=None, seed=None,
    threads=None, reward="win", max_steps=None, **game_options)`` (see the module docstring).
    ``opponents`` can be replaced between steps (``venv.opponents = model_opponent(model)``)."""

    def __init__(self, env_id: str, num_envs: int, *, opponents: str | Path | NumpyPolicy | BatchPolicy = "random",
                 learner_seat: int | None = None, seed: int | None = None, threads: int | None = None,
                 **config: Any):
        self.batch = BatchedEnv(env_id, num_envs, seed=seed, threads=threads, final_observation=True, **config)
        b = self.batch
        if learner_seat is not None and (isinstance(learner_seat, bool) or not isinstance(learner_seat, int)
                                         or not 0 <= learner_seat < b.num_players):
            raise ConfigError(f"learner_seat={learner_seat!r} is invalid; expected None or 0..{b.num_players - 1}")
        self.learner_seat = learner_seat
        self._rng = np.random.default_rng(seed)
        self.opponents = opponents
        self.render_mode = None  # VecEnv.__init__ reads it through get_attr
        super().__init__(b.num_envs, b.observation_space, b.action_space)
        self._learner = np.zeros(b.num_envs, np.int32)        # the learner's seat in each env's game
        self._in_episode = np.zeros(b.num_envs, bool)         # the learner has acted in this game
        self._games_without_turn = np.zeros(b.num_envs, np.int64)
        self._actions: np.ndarray | None = None
        self._started = False

    # --- opponents ----------------------------------------------------------------------------
    @property
    def opponents(self) -> BatchPolicy:
        return self._opponents

    @opponents.setter
    def opponents(self, spec) -> None:
        b = self.batch
        if isinstance(spec, str) and spec == "random":
            def random_actions(observations: np.ndarray, masks: np.ndarray, _b=b) -> np.ndarray:
                return _b.sample_actions()[self._waiting]

            self._opponents = random_actions
            return
        if isinstance(spec, (str, Path, NumpyPolicy)):
            spec = policy_opponent(spec, self._rng)
        if not callable(spec):
            raise ConfigError(f"opponents must be 'random', a policy file, a NumpyPolicy or a callable "
                              f"(observations, masks) -> actions; got {spec!r}")
        net = getattr(spec, "policy", None)
        if isinstance(net, NumpyPolicy):
            check_policy_fits(net, b.observation_size, b.num_actions, "the opponents' policy", b.env_id)
        self._opponents = spec

    # --- VecEnv -------------------------------------------------------------------------------
    def reset(self):
        """New games in every env (seeded with ``seed() + i`` when ``seed()`` was called, else
        each env's next game); the opponents play until the learner is to move everywhere."""
        seed = self._seeds[0]
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        b = self.batch
        b.reset(seed)
        self._learner[:] = self._draw_seats(b.num_envs)
        self._in_episode[:] = False
        self._games_without_turn[:] = 0
        self._play_opponents(None, None, None)
        self._reset_seeds()
        self._reset_options()
        self.reset_infos = [{"seat": int(s)} for s in self._learner]
        self._started = True
        return b.observation.copy()

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = actions

    def step_wait(self):
        if not self._started:
            raise RuntimeError("step() called before reset()")
        if self._actions is None:
            raise RuntimeError("step_wait() called without step_async()")
        b, n = self.batch, self.batch.num_envs
        actions, self._actions = self._actions, None
        rewards = np.zeros(n, np.float32)
        dones = np.zeros(n, bool)
        infos: list[dict] = [{} for _ in range(n)]
        out = b.step(actions)  # the learner is to move in every env
        self._in_episode[:] = True
        self._games_without_turn[:] = 0
        self._take_ends(np.flatnonzero(out.terminated | out.truncated), rewards, dones, infos)
        self._play_opponents(rewards, dones, infos)
        return b.observation.copy(), rewards, dones, infos

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions in every env [N, A] (bool)."""
        return self.batch.action_mask.astype(bool)

    def close(self) -> None:
        self.batch.close()

    def get_attr(self, attr_name: str, indices=None) -> list[Any]:
        if not hasattr(self, attr_name):
            raise AttributeError(f"{type(self).__name__} has no attribute {attr_name!r}")
        return [getattr(self, attr_name) for _ in self._get_indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices=None) -> None:
        raise AttributeError(f"{type(self).__name__}: the envs share one batch; set {attr_name!r} on the VecEnv itself")

    def env_method(self, method_name: str, *method_args, indices=None, **method_kwargs) -> list[Any]:
        if method_name != "action_masks":
            raise AttributeError(f"{type(self).__name__} answers env_method('action_masks') only, not {method_name!r}")
        masks = self.action_masks()
        return [masks[i] for i in self._get_indices(indices)]

    def env_is_wrapped(self, wrapper_class, indices=None) -> list[bool]:
        return [False for _ in self._get_indices(indices)]

    # --- internals ------------------------------------------------------------------------------
    def _draw_seats(self, count: int) -> np.ndarray:
        if self.learner_seat is not None:
            return np.full(count, self.learner_seat, np.int32)
        return self._rng.integers(self.batch.num_players, size=count).astype(np.int32)

    def _play_opponents(self, rewards, dones, infos) -> None:
        """Opponent rounds until the learner is to move in every env; games that end on the
        way end the learner's episode (if it had acted in them) and are replaced."""
        b = self.batch
        actions = np.full(b.num_envs, -1, np.int64)
        while True:
            self._waiting = np.flatnonzero(b.seat != self._learner)
            if self._waiting.size == 0:
                return
            chosen = np.asarray(self._opponents(b.observation[self._waiting], b.action_mask[self._waiting]))
            if chosen.shape != self._waiting.shape or not np.issubdtype(chosen.dtype, np.integer):
                raise ValueError(f"the opponents returned {chosen.dtype} actions of shape {chosen.shape}; expected "
                                 f"integers of shape {self._waiting.shape}, one per observation")
            actions[:] = -1
            actions[self._waiting] = chosen
            out = b.step_some(actions)
            ended = np.flatnonzero(out.terminated | out.truncated)
            if ended.size:
                self._take_ends(ended, rewards, dones, infos)

    def _take_ends(self, ended: Iterable[int], rewards, dones, infos) -> None:
        """Envs whose game just ended: the learner's episode ends there if it had acted in the
        game; the env's next game gets a learner seat."""
        b = self.batch
        for i in ended:
            seat = int(self._learner[i])
            if self._in_episode[i]:
                truncated = bool(b.truncated[i])
                rank = int(b.final_ranks[i, seat])
                assert b.final_observation is not None  # (this batch writes them)
                info = {"terminal_observation": b.final_observation[i, seat].copy(),
                        "TimeLimit.truncated": truncated, "seat": seat, "rank": rank,
                        "winner": not truncated and rank == 1}
                if b.final_scores is not None:
                    info["score"] = int(b.final_scores[i, seat])
                rewards[i] = b.rewards[i, seat]
                dones[i] = True
                infos[i] = info
            else:
                self._games_without_turn[i] += 1
                if self._games_without_turn[i] >= MAX_GAMES_WITHOUT_A_TURN:
                    raise RuntimeError(f"in {MAX_GAMES_WITHOUT_A_TURN} games in a row env {i}'s opponents ended "
                                       f"the game before the learner had a decision")
            self._in_episode[i] = False
            self._learner[i] = self._draw_seats(1)[0]
