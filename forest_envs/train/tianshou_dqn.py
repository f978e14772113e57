"""Tianshou's DQN on any forest_envs game, the action mask applied to the Q-values: the pieces
the study's ``dqn`` adapter (forest_envs/studies/algorithms/dqn.py) trains with.

- ``MaskedObservation``: the single-agent view (``SingleAgentEnv``: one learner seat, the
  opponents play between its turns) as Tianshou reads a masked game: the observation is
  ``{"obs": the learner's vector, "mask": its legal actions}``. Tianshou's DQN policy adds a
  large negative number to the Q-value of every action ``obs.mask`` calls illegal before
  its argmax, in play and in the ε-greedy exploration (which draws among legal actions only).
- ``MaskedDQN``: Tianshou's DQN whose bootstrap target is the best *legal* action's value in
  the next state. (Tianshou 2.0.1's double-Q target takes the online network's masked argmax
  already; its plain target took the max over every action, legal or not.)
- ``QNetwork``: an MLP from the observation to one Q-value per action, in the form Tianshou
  calls (``forward(obs, state, info) -> (q, state)``); ``q_network_arrays`` writes it as the
  ``.npz`` arrays ``forest_envs.agents.policy.NumpyPolicy`` plays, the Q-values in the place
  of logits: played ``:greedy`` (argmax over the legal actions) it is the greedy policy.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import torch
from tianshou.algorithm.modelfree.dqn import DQN
from tianshou.data import Batch
from torch import nn

from ..agents.policy import linear_arrays
from ..envs.gym_env import SingleAgentEnv

ACTIVATIONS: dict[str, type[nn.Module]] = {"relu": nn.ReLU, "tanh": nn.Tanh}

# Tianshou's numba kernels that DQN's replay buffer and n-step return call, and the ones every
# Tianshou policy compiles when it is made (``Policy._compile`` warms up ``_gae`` and
# ``_nstep_return``), by module. numba compiles them afresh in every process (Tianshou does not
# cache them): 18.6 s of CPU (92 s of wall time at load 14 on the shared 2-core machine, 5
# December 2026). The plain Python functions numba wraps cost instead about 2.6 ms of CPU per
# gradient step (``_next_index`` 0.61 ms a call, four calls a step; ``_nstep_return`` 0.16 ms),
# so they are the cheaper for a run of fewer than about 7,000 gradient steps: the tests, the
# tiny tier.
PLAIN_KERNELS: dict[str, tuple[str, ...]] = {
    "tianshou.data.buffer.manager": ("_prev_index", "_next_index"),
    "tianshou.algorithm.algorithm_base": ("_nstep_return", "_gae"),
}


PLAIN_KERNELS_BELOW = 8_000  # gradient steps: a shorter session plays the kernels uncompiled


def use_plain_kernels() -> None:
    """Replace ``PLAIN_KERNELS`` by the Python functions they compile (numba keeps them as
    ``py_func``); a kernel already replaced stays as it is."""
    import importlib

    for module_name, names in PLAIN_KERNELS.items():
        module = importlib.import_module(module_name)
        for name in names:
            kernel = getattr(module, name)
            setattr(module, name, getattr(kernel, "py_func", kernel))


class MaskedObservation(gymnasium.Wrapper):
    """A ``SingleAgentEnv`` whose observation carries its mask: ``{"obs", "mask"}``.

    The info is empty (Tianshou stores every info in its replay buffer; the game's end
    records are not needed to learn). A game the env's step limit truncates is over, worth 0
    to every seat, with no decision after it to bootstrap from: it is returned terminated, so
    the target does not take a value from the final observation (whose mask is all False)."""

    def __init__(self, env: gymnasium.Env):
        super().__init__(env)
        learner = env.unwrapped
        if not isinstance(learner, SingleAgentEnv):
            raise TypeError(f"MaskedObservation wraps forest_envs' single-agent view, got {type(learner).__name__}")
        self.learner = learner
        actions = learner.action_space
        assert isinstance(actions, gymnasium.spaces.Discrete)  # every game's action space
        self.observation_space = gymnasium.spaces.Dict({
            "obs": env.observation_space,
            "mask": gymnasium.spaces.MultiBinary(int(actions.n)),
        })

    def _masked(self, obs: np.ndarray) -> dict[str, np.ndarray]:
        return {"obs": np.asarray(obs, np.float32), "mask": self.learner.action_masks()}

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        obs, _ = self.env.reset(seed=seed, options=options)
        return self._masked(obs), {}

    def step(self, action):
        obs, reward, terminated, truncated, _ = self.env.step(action)
        return self._masked(obs), reward, terminated or truncated, False, {}


class QNetwork(nn.Module):
    """Observation -> Q-value of every action: hidden layers of ``net_arch`` widths, each
    followed by ``activation``, then a linear output layer."""

    def __init__(self, observation_size: int, num_actions: int, net_arch: list[int], activation: str):
        super().__init__()
        layers: list[nn.Module] = []
        width = observation_size
        for hidden in net_arch:
            layers += [nn.Linear(width, hidden), ACTIVATIONS[activation]()]
            width = hidden
        layers.append(nn.Linear(width, num_actions))
        self.net = nn.Sequential(*layers)

    def forward(self, obs: Any, state: Any = None, info: Any = None) -> tuple[torch.Tensor, Any]:
        return self.net(torch.as_tensor(obs, dtype=torch.float32)), state


def q_network_arrays(network: QNetwork) -> dict[str, np.ndarray]:
    """The network as ``NumpyPolicy``'s arrays (``w0, b0, ..., w_out, b_out, activation``)."""
    *hidden, out = [layer for layer in network.net if isinstance(layer, nn.Linear)]
    activations = {type(layer).__name__ for layer in network.net if not isinstance(layer, nn.Linear)}
    arrays: dict[str, np.ndarray] = {}
    for i, layer in enumerate(hidden):
        arrays[f"w{i}"], arrays[f"b{i}"] = linear_arrays(layer)
    arrays["w_out"], arrays["b_out"] = linear_arrays(out)
    # (NumpyPolicy names its activations by the torch class: Tanh or ReLU)
    arrays["activation"] = np.array(activations.pop() if activations else "ReLU")
    return arrays


class MaskedDQN(DQN):
    """DQN whose target values the next state by its legal actions only."""

    def _target_q(self, buffer, indices: np.ndarray) -> torch.Tensor:
        after = Batch(obs=buffer[indices].obs_next, info=[None] * len(indices))
        online = self.policy(after)  # its act: the online network's argmax over legal actions
        target = (self.policy(after, model=self.model_old).logits if self.use_target_network
                  else online.logits)
        if self.is_double:
            # double Q-learning: the online network picks among the legal actions, the target
            # network values the pick
            return target[np.arange(len(online.act)), online.act]
        return self.policy.compute_q_value(target, after.obs.mask).max(dim=1)[0]
