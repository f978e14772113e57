"""DQN (Tianshou 2.x) with the action mask applied to the Q-values, trained the way
``maskable_ppo`` is so that the study compares the two on the same footing: one learner seat
(drawn anew every game) in the single-agent view, against opponents drawn at every reset from
a pool of random, heuristic (×3) and frozen past selves (a snapshot every tenth of the budget,
the last 10 kept), reward the game's win. The Tianshou pieces are in
forest_envs/train/tianshou_dqn.py.

**The mask reaches the Q-values everywhere**: the greedy action is the argmax over the legal
actions, the ε-greedy exploration draws among the legal actions only, and the bootstrap target
values the next state by its legal actions only (double Q-learning: the online network's legal
argmax, valued by the target network). The saved policy is the Q-network as the ``.npz`` MLP a
``PolicyAgent`` plays, its Q-values in the place of logits; the study plays it ``:greedy``
(``policies/step_<steps>.npz:greedy``): the argmax of Q over the legal actions. A past self in
the opponents' pool plays greedily too.

**A learner step is one move of the learner's seat** (an env step of the single-agent view,
one transition in the replay buffer), as for ``maskable_ppo``: the opponents' moves are not
counted. ``n_envs`` games are stepped at a time, so a run may pass a checkpoint point or the
budget by up to ``n_envs - 1`` steps (none when they are multiples of ``n_envs``).

Every ``updates_per_step`` × learner steps a gradient step on a batch of ``batch_size``
transitions sampled from the replay buffer (once it holds ``learning_starts``), the n-step
return (``n_step``, ``gamma``) bootstrapped from the target network, which copies the online
network every ``target_update_every`` gradient steps. ε decays linearly from ``eps_start`` to
``eps_end`` over the first ``eps_fraction`` of the budget. A game truncated by the env's step
limit is a terminal state worth 0 (nothing to bootstrap from).

After each checkpoint point (every ``checkpoint_every`` learner steps, and at the budget) the
run writes the policy file ``policies/step_<steps>.npz`` and its state (``state/latest.pt``:
the networks and the optimizer; ``state/latest.json``: steps, gradient steps, training time).
Ctrl-C stops after the step under way and saves the state (a second Ctrl-C stops at once); the
next session continues from the saved state, a run at its budget returns at once. **The replay
buffer is not saved** (up to 1.2 GB for a shipped game: docs/studies.md): a continued run starts with
an empty buffer and makes no gradient step until it holds ``learning_starts`` transitions
again, collected by the network it had learnt, at the ε of the schedule. Each session seeds its
games, exploration and sampling from the run's seed and the steps it starts at, so the same
run gives the same policies when it is not stopped; a stopped one differs (its buffer).

Settings (``DEFAULTS``, chosen from the DQN literature's common ranges for a budget of 2·10⁵ to
2·10⁶ steps and games of 40 to 70 decisions a seat with a 0/1 final reward):
``learning_rate`` 1e-4 (Adam), ``buffer_size`` 100,000, ``batch_size`` 64, ``gamma`` 0.99,
``n_step`` 3, ``double`` true, ``target_update_every`` 500 gradient steps (2,000 learner
steps), ``updates_per_step`` 0.25 (one gradient step per four learner steps, as SB3's and
Dopamine's DQN), ``learning_starts`` 5,000, ``eps_start`` 1.0, ``eps_end`` 0.05,
``eps_fraction`` 0.1, ``n_envs`` 8, ``net_arch`` [256, 256], ``activation`` relu,
``opponents`` (a list of ``{agent: random|heuristic|snapshot, weight}``), ``max_snapshots`` 10.
Memory: the buffer holds ``buffer_size`` observations of float32 (``observation_size`` × 4
bytes each; 0.4 to 1.2 GB at 100,000 for the shipped games, docs/studies.md). A session of fewer
than ``PLAIN_KERNELS_BELOW`` gradient steps runs Tianshou's numba kernels uncompiled
(forest_envs/train/tianshou_dqn.py says why).
"""

from __future__ import annotations

import time
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from ...core.errors import ConfigError
from .base import (
    PolicyCheckpoint,
    PublishedPolicy,
    TrainingJob,
    TrainingOutcome,
    is_number,
    settings_over_defaults,
)
from .saved_state import read_record, saved_learner_steps, tensors_path, write_state

DEFAULTS: dict = {
    "learning_rate": 1.0e-4, "buffer_size": 100_000, "batch_size": 64, "gamma": 0.99,
    "n_step": 3, "double": True, "target_update_every": 500, "updates_per_step": 0.25,
    "learning_starts": 5_000, "eps_start": 1.0, "eps_end": 0.05, "eps_fraction": 0.1,
    "n_envs": 8, "net_arch": [256, 256], "activation": "relu",
    "opponents": [{"agent": "random", "weight": 1.0}, {"agent": "heuristic", "weight": 3.0},
                  {"agent": "snapshot", "weight": 1.0}],
    "max_snapshots": 10,
}
_POSITIVE_INTS = ("buffer_size", "batch_size", "n_step", "target_update_every", "n_envs", "max_snapshots")
_UNIT = ("gamma", "eps_start", "eps_end", "eps_fraction")
_CHOICES = {"activation": ("relu", "tanh"), "double": (True, False)}
SNAPSHOTS_PER_RUN = 10      # the pool's past selves are taken every tenth of the budget
GREEDY = ":greedy"          # the policy files are played greedily (make_agent's suffix)


@dataclass(frozen=True)
class Settings:
    learning_rate: float
    buffer_size: int
    batch_size: int
    gamma: float
    n_step: int
    double: bool
    target_update_every: int
    updates_per_step: float
    learning_starts: int
    eps_start: float
    eps_end: float
    eps_fraction: float
    n_envs: int
    net_arch: list
    activation: str
    opponents: list
    max_snapshots: int

    def epsilon(self, steps: int, budget: int) -> float:
        """ε after ``steps`` learner steps: linear from eps_start to eps_end over the first
        eps_fraction of the budget, then eps_end."""
        span = self.eps_fraction * budget
        done = 1.0 if span <= 0 else min(1.0, steps / span)
        return self.eps_start + done * (self.eps_end - self.eps_start)


def parse_settings(given: dict, where: str = "settings") -> Settings:
    """The study file's settings over ``DEFAULTS``; an unknown key or a bad value is a
    ConfigError naming it."""
    from ...train.config import SCHEMA

    merged = settings_over_defaults(given, DEFAULTS, "dqn", where, _POSITIVE_INTS)
    starts = merged["learning_starts"]
    if not isinstance(starts, int) or isinstance(starts, bool) or starts < 0:
        raise ConfigError(f"{where}.learning_starts: {starts!r} must be an int >= 0")
    for key in _UNIT:
        if not is_number(merged[key]) or not 0 <= merged[key] <= 1:
            raise ConfigError(f"{where}.{key}: {merged[key]!r} must be a number in [0, 1]")
    for key in ("learning_rate", "updates_per_step"):
        if not is_number(merged[key]) or not merged[key] > 0:
            raise ConfigError(f"{where}.{key}: {merged[key]!r} must be a number > 0")
    for key, choices in _CHOICES.items():
        if not any(merged[key] == c and type(merged[key]) is type(c) for c in choices):
            raise ConfigError(f"{where}.{key}: {merged[key]!r} must be one of "
                              f"{', '.join(str(c).lower() for c in choices)}")
    arch = merged["net_arch"]
    if not isinstance(arch, list) or not all(isinstance(w, int) and not isinstance(w, bool) and w > 0
                                             for w in arch):
        raise ConfigError(f"{where}.net_arch: {arch!r} must be a list of positive layer widths")
    pool = SCHEMA["opponents"]["pool"]
    if not pool.check(merged["opponents"]):
        raise ConfigError(f"{where}.opponents: {merged['opponents']!r} must be {pool.doc}")
    if merged["batch_size"] > merged["buffer_size"]:
        raise ConfigError(f"{where}.batch_size: {merged['batch_size']} exceeds buffer_size="
                          f"{merged['buffer_size']}")
    return Settings(**merged)


@dataclass
class RunState:
    learner_steps: int = 0
    gradient_steps: int = 0
    updates_due: float = 0.0    # the fraction of a gradient step owed by the steps so far
    wall_seconds: float = 0.0

    @classmethod
    def read(cls, folder: Path) -> RunState | None:
        record = read_record(folder)
        return cls(**record) if record is not None else None

    def write(self, folder: Path, algorithm) -> None:
        write_state(folder, algorithm.state_dict(), asdict(self))


def _policy_path(folder: Path, steps: int) -> Path:
    return folder / "policies" / f"step_{steps:012d}.npz"


def _snapshot_path(folder: Path, steps: int) -> Path:
    return folder / "snapshots" / f"snapshot_{steps:012d}.npz"


def _forget_after(folder: Path, steps: int) -> None:
    """Delete the snapshots and policies an earlier session wrote after the state it saved
    last (it stopped without saving): the run continues from ``steps`` as if they never were."""
    for pattern, prefix in (("snapshots/snapshot_*.npz", "snapshot_"), ("policies/step_*.npz", "step_")):
        for path in folder.glob(pattern):
            if int(path.stem.removeprefix(prefix)) > steps:
                path.unlink()


@contextmanager
def _seeded(seed_words: list[int]):
    """numpy's global generator (Tianshou's ε-greedy draws from it) and torch's seeded from
    ``seed_words``, then put back as they were."""
    import torch

    before = np.random.get_state()
    np.random.seed(np.random.SeedSequence(seed_words).generate_state(1)[0])
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(int(np.random.SeedSequence(seed_words).generate_state(2)[1]))
        try:
            yield
        finally:
            np.random.set_state(before)


class TianshouDQN:
    name = "dqn"

    def check(self, settings: dict, env: str, config: dict, where: str) -> None:
        import importlib.util

        parse_settings(settings, where)
        if importlib.util.find_spec("tianshou") is None:
            raise ConfigError(f"{where}: dqn trains with Tianshou, which is not installed: "
                              "pip install 'forest_envs[study]'")

    def train(self, job: TrainingJob) -> TrainingOutcome:
        from ...train.ctrl_c import CtrlC

        settings = parse_settings(job.settings)
        state = RunState.read(job.folder)
        if state is not None and state.learner_steps >= job.learner_steps:
            return TrainingOutcome(True, state.learner_steps, state.wall_seconds)
        _forget_after(job.folder, state.learner_steps if state else -1)
        state = state or RunState()
        with _seeded([job.seed, state.learner_steps]):
            session = _Session(job, settings, state)
            try:
                with CtrlC() as ctrl_c:
                    ctrl_c.graceful = True  # stop after the step under way, and save
                    session.run(ctrl_c)
            finally:
                session.close()
        return TrainingOutcome(state.learner_steps >= job.learner_steps, state.learner_steps,
                               state.wall_seconds)

    def learner_steps_done(self, job: TrainingJob) -> int:
        return saved_learner_steps(job.folder)

    def published(self, env: str, config: dict) -> PublishedPolicy | None:
        return None

    def checkpoints(self, job: TrainingJob) -> list[PolicyCheckpoint]:
        return [PolicyCheckpoint(int(path.stem.removeprefix("step_")), f"{path}{GREEDY}")
                for path in sorted((job.folder / "policies").glob("step_*.npz"))]


class _Session:
    """One session of a run: the envs, the network, the buffer; ``run`` trains to the budget
    or to a Ctrl-C, updating ``state`` (and saving it at every checkpoint point and at the end)."""

    def __init__(self, job: TrainingJob, settings: Settings, state: RunState):
        import torch
        from tianshou.algorithm.modelfree.dqn import DiscreteQLearningPolicy
        from tianshou.algorithm.optim import AdamOptimizerFactory
        from tianshou.data import Collector, VectorReplayBuffer
        from tianshou.env import DummyVectorEnv

        from ...envs.registration import make_raw
        from ...train.export import save_policy_arrays
        from ...train.tianshou_dqn import (
            PLAIN_KERNELS_BELOW,
            MaskedDQN,
            QNetwork,
            q_network_arrays,
            use_plain_kernels,
        )

        if (job.learner_steps - state.learner_steps) * settings.updates_per_step < PLAIN_KERNELS_BELOW:
            use_plain_kernels()  # cheaper than compiling them for a short session
        self.job, self.settings, self.state = job, settings, state
        self.started, self.wall_before = time.time(), state.wall_seconds
        torch.set_num_threads(1)  # the runs of a study share the machine
        game = make_raw(job.env, **job.config).game
        self.network = QNetwork(game.observation_size, game.num_actions, list(settings.net_arch),
                                settings.activation)
        envs = DummyVectorEnv([self._env_factory(game.num_players) for _ in range(settings.n_envs)])
        self.policy = DiscreteQLearningPolicy(model=self.network, action_space=envs.action_space[0],
                                              observation_space=envs.observation_space[0])
        self.algorithm = MaskedDQN(policy=self.policy, optim=AdamOptimizerFactory(lr=settings.learning_rate),
                                   gamma=settings.gamma, n_step_return_horizon=settings.n_step,
                                   target_update_freq=settings.target_update_every,
                                   is_double=settings.double)
        if state.learner_steps > 0:
            self.algorithm.load_state_dict(torch.load(tensors_path(job.folder)))
        self.algorithm._iter = state.gradient_steps  # the target network's update clock
        self.export = lambda path: save_policy_arrays(q_network_arrays(self.network), path)
        if not any((job.folder / "snapshots").glob("snapshot_*.npz")):  # the pool's first past self
            self.export(_snapshot_path(job.folder, state.learner_steps))
        # (obs_next is the next transition's obs: half the memory)
        buffer = VectorReplayBuffer(settings.buffer_size, settings.n_envs, ignore_obs_next=True,
                                    random_seed=int(np.random.randint(2**31)))
        self.buffer = buffer
        self.collector = Collector(self.policy, envs, buffer, exploration_noise=True)
        envs.seed([int(s) for s in np.random.SeedSequence([job.seed, state.learner_steps, 1])
                   .generate_state(settings.n_envs)])
        self.collector.reset()

    def _env_factory(self, num_players: int):
        from ...envs.gym_env import SingleAgentEnv
        from ...train.selfplay import OpponentPool
        from ...train.tianshou_dqn import MaskedObservation

        job, settings = self.job, self.settings

        def build():
            pool = OpponentPool(job.env, settings.opponents, num_players - 1, job.folder / "snapshots",
                                settings.max_snapshots, greedy=True)
            return MaskedObservation(SingleAgentEnv(job.env, opponents=pool, reward="win", **job.config))

        return build

    def run(self, ctrl_c) -> None:
        from tianshou.utils.torch_utils import policy_within_training_step

        job, settings, state = self.job, self.settings, self.state
        every, snapshot_every = job.checkpoint_every, max(1, job.learner_steps // SNAPSHOTS_PER_RUN)
        saved = state.learner_steps
        while state.learner_steps < job.learner_steps and not ctrl_c.requested:
            before = state.learner_steps
            self.policy.set_eps_training(settings.epsilon(before, job.learner_steps))
            with policy_within_training_step(self.policy):
                collected = self.collector.collect(n_step=settings.n_envs).n_collected_steps
                state.learner_steps += collected
                if len(self.buffer) >= max(settings.learning_starts, settings.batch_size):
                    state.updates_due += collected * settings.updates_per_step
                    while state.updates_due >= 1:
                        self.algorithm.update(self.buffer, settings.batch_size)
                        state.updates_due -= 1
                        state.gradient_steps += 1
            steps = state.learner_steps
            if steps // snapshot_every > before // snapshot_every:
                self.export(_snapshot_path(job.folder, steps))
            if steps // every > before // every or steps >= job.learner_steps:
                self.export(_policy_path(job.folder, steps))
                self._save()
                saved = steps
                if job.progress:
                    print(f"dqn: {steps:,} of {job.learner_steps:,} learner steps, {state.gradient_steps:,} "
                          f"gradient steps, ε {settings.epsilon(steps, job.learner_steps):.3f}, "
                          f"{state.wall_seconds:.0f} s", flush=True)
        if state.learner_steps != saved:  # stopped between two points: continue from here
            self._save()

    def _save(self) -> None:
        self.state.wall_seconds = self.wall_before + time.time() - self.started
        self.state.write(self.job.folder, self.algorithm)

    def close(self) -> None:
        self.collector.close()
