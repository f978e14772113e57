"""Expert iteration (Anthony, Tian and Barber 2017; the loop of AlphaZero without its value
search): the search plays, the policy learns what the search found, and the search of the
next iteration plays with the better policy as its prior.

Each iteration plays ``games_per_iteration`` self-play games in which every seat is an
``ismcts`` agent (forest_envs/agents/search/, the native search where the engine has one)
whose prior is the current policy (``prior: none``: a plain search). Every searched decision
is recorded: the deciding seat's observation and action mask, the root's visit counts as a
distribution over the legal actions (the target), and that seat's final return (the value
head's target). The policy (a MaskablePPO actor-critic network, fitted by
``forest_envs.train.pretrain.behaviour_clone``) is then trained by masked cross-entropy to
the targets of the last ``window`` iterations, and exported as the next iteration's prior.

**A learner step is one recorded decision**: a searched move of any seat (forced moves, a
single legal action, are neither searched nor recorded). A run may pass its budget by the
rest of its last iteration. A policy file ``policies/step_<steps>.npz`` (the agent the study
evaluates) is written after the iteration that passes each multiple of ``checkpoint_every``
and at the budget. After every iteration the run's state (``state/latest.json``: the
iteration, steps, training time; ``state/latest.pt``: the network) is saved beside the
iteration's samples (``samples/iteration_<k>.npz``), so a stopped run continues from the
last whole iteration. Games, searches and training are seeded from the run's seed and the
iteration: the same seed gives the same policies, stopped and continued or not.

Settings (defaults in ``DEFAULTS``): ``games_per_iteration``, ``window`` (iterations of
samples trained on), ``sims``, ``c``, ``depth`` and ``widen`` of the search, ``prior``
(``policy`` or ``none``), ``epochs``, ``batch_size``, ``learning_rate`` of each iteration's
training (a fresh Adam), ``net_arch`` and ``activation`` (``tanh`` or ``relu``) of the
network.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

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
    "games_per_iteration": 8, "window": 4, "sims": 100, "c": 0.7, "depth": 20, "widen": "all",
    "prior": "policy", "epochs": 4, "batch_size": 256, "learning_rate": 1.0e-3,
    "net_arch": [256, 256], "activation": "tanh",
}
_POSITIVE_INTS = ("games_per_iteration", "window", "sims", "epochs", "batch_size")
_CHOICES = {"widen": ("sqrt", "all"), "prior": ("policy", "none"), "activation": ("tanh", "relu")}
RETURNS = "win"  # the value head's target: the study scores winning


@dataclass(frozen=True)
class Settings:
    games_per_iteration: int
    window: int
    sims: int
    c: float
    depth: int | None
    widen: str
    prior: str
    epochs: int
    batch_size: int
    learning_rate: float
    net_arch: list
    activation: str


def parse_settings(given: dict, where: str = "settings") -> Settings:
    """The study file's settings over ``DEFAULTS``; an unknown key or a bad value is a
    ConfigError naming it."""
    merged = settings_over_defaults(given, DEFAULTS, "expert_iteration", where, _POSITIVE_INTS)
    for key, choices in _CHOICES.items():
        if merged[key] not in choices:
            raise ConfigError(f"{where}.{key}: {merged[key]!r} must be one of {', '.join(choices)}")
    for key in ("c", "learning_rate"):
        if not is_number(merged[key]) or not merged[key] > 0:
            raise ConfigError(f"{where}.{key}: {merged[key]!r} must be a number > 0")
    depth = merged["depth"]
    if depth is not None and (not isinstance(depth, int) or isinstance(depth, bool) or depth < 0):
        raise ConfigError(f"{where}.depth: {depth!r} must be an int >= 0 or null (play rollouts to the end)")
    arch = merged["net_arch"]
    if not isinstance(arch, list) or not all(isinstance(w, int) and not isinstance(w, bool) and w > 0
                                             for w in arch):
        raise ConfigError(f"{where}.net_arch: {arch!r} must be a list of positive layer widths")
    return Settings(**merged)


def visit_targets(visits: dict[int, int], mask: np.ndarray) -> np.ndarray:
    """The root's visit counts as a distribution over the actions (zero where ``mask`` is not
    legal). A visited action the mask calls illegal is an error: the search and the game
    disagree, and the target must not hide it."""
    target = np.zeros(len(mask), np.float32)
    for action, count in visits.items():
        if not mask[action]:
            raise RuntimeError(f"ismcts visited action {action}, which is not legal here")
        target[action] = count
    total = target.sum()
    if total <= 0:
        raise RuntimeError("ismcts recorded no root visits for a searched decision")
    return target / total


def _policy_arrays(network) -> dict:
    from ...agents.policy import sb3_policy_arrays

    return sb3_policy_arrays(network)


def play_iteration(env_id: str, config: dict, settings: Settings, prior, seed: int) -> dict[str, np.ndarray]:
    """Every searched decision of one iteration's self-play games: obs, masks, targets,
    returns. ``prior``: a ``NumpyPolicy`` (or None: a plain search)."""
    from ...agents.search.ismcts import ISMCTSAgent
    from ...envs.registration import make_raw
    from ...train.pretrain import game_returns

    env = make_raw(env_id, **config)
    obs, masks, targets, seats, games, returns = [], [], [], [], [], {}
    for g in range(settings.games_per_iteration):
        agents = [ISMCTSAgent(seed=seed * 100_003 + g * 10 + i, sims=settings.sims, c=settings.c,
                              depth=settings.depth, prior=prior if prior is not None else "none",
                              widen=settings.widen)
                  for i in range(len(env.possible_agents))]
        env.reset(seed=seed * 1_000_003 + g)
        while env.agents:  # to the game's end or the env's step limit (a truncation)
            name = env.agent_selection
            if env.terminations[name] or env.truncations[name]:
                break
            seat = env.possible_agents.index(name)
            seen = env.observe(name)
            action = agents[seat].act(env, name)
            if agents[seat].last_visits:  # a searched decision (a forced move is not)
                mask = np.asarray(seen["action_mask"], bool)
                obs.append(np.asarray(seen["observation"], np.float32))
                masks.append(mask)
                targets.append(visit_targets(agents[seat].last_visits, mask))
                seats.append(seat)
                games.append(g)
            env.step(action)
        returns[g] = game_returns(env.engine_state, RETURNS, len(env.possible_agents))
    n_actions = env.game.num_actions
    return {"obs": np.asarray(obs, np.float32).reshape(len(obs), -1),
            "masks": np.asarray(masks, bool).reshape(len(masks), n_actions),
            "targets": np.asarray(targets, np.float32).reshape(len(targets), n_actions),
            "returns": np.array([returns[g][s] for g, s in zip(games, seats)], np.float32)}


def new_network(env_id: str, config: dict, settings: Settings, seed: int):
    """A MaskablePPO actor-critic network (the trainer's, ``forest_envs/train/sb3.py``) for
    the game, its weights drawn from ``seed``."""
    import gymnasium
    import torch
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

    from ...envs.registration import make_raw

    game = make_raw(env_id, **config).game
    torch.manual_seed(seed)
    space = gymnasium.spaces.Box(-np.inf, np.inf, (game.observation_size,), np.float32)
    activation = {"tanh": torch.nn.Tanh, "relu": torch.nn.ReLU}[settings.activation]
    return MaskableActorCriticPolicy(space, gymnasium.spaces.Discrete(game.num_actions),
                                     lambda _: settings.learning_rate, net_arch=list(settings.net_arch),
                                     activation_fn=activation)


@dataclass
class RunState:
    iteration: int = 0        # iterations done
    learner_steps: int = 0
    wall_seconds: float = 0.0

    @classmethod
    def read(cls, folder: Path) -> RunState | None:
        record = read_record(folder)
        return cls(**record) if record is not None else None

    def write(self, folder: Path, network) -> None:
        write_state(folder, network.state_dict(), self.__dict__)


def _window(folder: Path, iteration: int, window: int) -> dict[str, np.ndarray]:
    parts = []
    for k in range(max(1, iteration - window + 1), iteration + 1):
        with np.load(folder / "samples" / f"iteration_{k:06d}.npz") as data:
            parts.append({key: data[key] for key in data.files})
    return {key: np.concatenate([p[key] for p in parts]) for key in parts[0]}


def _iteration_seed(seed: int, iteration: int) -> int:
    return seed * 1_000_033 + iteration


class ExpertIteration:
    name = "expert_iteration"

    def check(self, settings: dict, env: str, config: dict, where: str) -> None:
        parse_settings(settings, where)

    def train(self, job: TrainingJob) -> TrainingOutcome:
        import torch

        from ...agents.policy import NumpyPolicy
        from ...train.export import save_policy_arrays
        from ...train.pretrain import behaviour_clone

        settings = parse_settings(job.settings)
        torch.set_num_threads(1)  # the runs of a study share the machine; and reproducible sums
        state = RunState.read(job.folder)
        network = new_network(job.env, job.config, settings, job.seed)
        if state is None:
            state = RunState()
        else:
            network.load_state_dict(torch.load(tensors_path(job.folder)))
        started = time.time()
        session_start = state.wall_seconds
        try:
            while state.learner_steps < job.learner_steps:
                k = state.iteration + 1
                prior = (NumpyPolicy(_policy_arrays(network))
                         if settings.prior == "policy" else None)
                samples = play_iteration(job.env, job.config, settings, prior, _iteration_seed(job.seed, k))
                path = job.folder / "samples" / f"iteration_{k:06d}.npz"
                path.parent.mkdir(parents=True, exist_ok=True)
                arrays: dict[str, Any] = samples  # (numpy's stubs read ** as allow_pickle too)
                np.savez(path, **arrays)
                behaviour_clone(network, _window(job.folder, k, settings.window), settings.epochs,
                                settings.batch_size, settings.learning_rate, seed=_iteration_seed(job.seed, k))
                before, state.learner_steps = state.learner_steps, state.learner_steps + len(samples["targets"])
                state.iteration = k
                state.wall_seconds = session_start + time.time() - started
                if (state.learner_steps // job.checkpoint_every > before // job.checkpoint_every
                        or state.learner_steps >= job.learner_steps):
                    save_policy_arrays(_policy_arrays(network),
                                       job.folder / "policies" / f"step_{state.learner_steps:012d}.npz")
                state.write(job.folder, network)
                stale = job.folder / "samples" / f"iteration_{k - settings.window:06d}.npz"
                stale.unlink(missing_ok=True)
                if job.progress:
                    print(f"expert_iteration: iteration {k}, {state.learner_steps:,}/{job.learner_steps:,} "
                          f"learner steps, {state.wall_seconds:.0f} s", flush=True)
        except KeyboardInterrupt:
            return TrainingOutcome(False, state.learner_steps, state.wall_seconds)
        return TrainingOutcome(True, state.learner_steps, state.wall_seconds)

    def learner_steps_done(self, job: TrainingJob) -> int:
        return saved_learner_steps(job.folder)

    def published(self, env: str, config: dict) -> PublishedPolicy | None:
        return None

    def checkpoints(self, job: TrainingJob) -> list[PolicyCheckpoint]:
        return [PolicyCheckpoint(int(path.stem.removeprefix("step_")), str(path))
                for path in sorted((job.folder / "policies").glob("step_*.npz"))]
