"""Our PPO RLModule for RLlib's new API stack: legal-action masking, exportable to ``.npz``.

Observations are ``{"observations": vector, "action_mask": 0/1 floats}`` dicts (see
``TurnBasedMultiAgentEnv``). ``MaskedActorCritic`` holds two plain MLPs on the vector, a
policy net and a value net (no shared layers), and pushes the logits of illegal actions
down to ``ILLEGAL_LOGIT`` in every forward pass, so sampling, the PPO ratio and the entropy
only ever see legal actions.

Because the policy net is a plain ``Linear -> activation -> ... -> Linear`` stack, it exports
to the ``.npz`` format of ``forest_envs.agents.policy.NumpyPolicy`` (``w0, b0, ..., w_out,
b_out, activation``): a trained RLlib policy then plays in ``forest-envs evaluate`` like any
policy of the SB3 trainer (``export_npz``, ``export_checkpoint``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import torch
from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.apis.value_function_api import ValueFunctionAPI
from ray.rllib.core.rl_module.torch.torch_rl_module import TorchRLModule
from torch import nn

# exp(-1e9 - max) is exactly 0 in float32: an illegal action gets probability 0, and the
# value stays finite, so 0 * logit terms (entropy, KL) are 0 rather than NaN.
ILLEGAL_LOGIT = -1e9
_ACTIVATIONS = {"tanh": (nn.Tanh, "Tanh"), "relu": (nn.ReLU, "ReLU")}


def _mlp(n_in: int, hidden: list[int], n_out: int, activation: str) -> nn.Sequential:
    layers: list[nn.Module] = []
    for width in hidden:
        layers += [nn.Linear(n_in, width), _ACTIVATIONS[activation][0]()]
        n_in = width
    layers.append(nn.Linear(n_in, n_out))
    return nn.Sequential(*layers)


class MaskedActorCritic(TorchRLModule, ValueFunctionAPI):
    """model_config: ``hidden`` (layer widths, default [256, 256]), ``activation``
    (``tanh`` or ``relu``)."""

    def setup(self):
        spaces = getattr(self.observation_space, "spaces", None)
        if not spaces or set(spaces) != {"observations", "action_mask"}:
            raise ValueError("MaskedActorCritic needs a Dict observation space with the keys "
                             f"'observations' and 'action_mask', got {self.observation_space}")
        cfg = dict(self.model_config or {})
        hidden = [int(w) for w in cfg.get("hidden", [256, 256])]
        activation = cfg.get("activation", "tanh")
        if activation not in _ACTIVATIONS:
            raise ValueError(f"activation {activation!r}: expected one of {sorted(_ACTIVATIONS)}")
        n_obs = int(np.prod(spaces["observations"].shape))
        n_actions = int(self.action_space.n)
        if spaces["action_mask"].shape != (n_actions,):
            raise ValueError(f"action_mask has shape {spaces['action_mask'].shape}, "
                             f"the action space {n_actions} actions")
        self.activation = activation
        self.policy_net = _mlp(n_obs, hidden, n_actions, activation)
        self.value_net = _mlp(n_obs, hidden, 1, activation)

    def _masked_logits(self, obs: dict) -> torch.Tensor:
        logits = self.policy_net(obs["observations"])
        return torch.where(obs["action_mask"] > 0.5, logits, torch.full_like(logits, ILLEGAL_LOGIT))

    def _forward(self, batch: dict[str, Any], **kwargs) -> dict[str, Any]:
        # One pass serves inference, exploration and training (the sampling distribution
        # comes from the action space: Categorical over the masked logits).
        return {Columns.ACTION_DIST_INPUTS: self._masked_logits(batch[Columns.OBS])}

    def compute_values(self, batch: dict[str, Any], embeddings: Any = None) -> torch.Tensor:
        return self.value_net(batch[Columns.OBS]["observations"]).squeeze(-1)


# --- export to the numpy policy format -----------------------------------------------------

def policy_arrays(module: MaskedActorCritic) -> dict[str, np.ndarray]:
    """The policy net as ``NumpyPolicy`` arrays (``w`` are (in, out) matrices)."""
    linears = [m for m in module.policy_net if isinstance(m, nn.Linear)]
    arrays: dict[str, np.ndarray] = {}
    for i, layer in enumerate(linears[:-1]):
        arrays[f"w{i}"] = layer.weight.detach().cpu().numpy().T.copy()
        arrays[f"b{i}"] = layer.bias.detach().cpu().numpy().copy()
    arrays["w_out"] = linears[-1].weight.detach().cpu().numpy().T.copy()
    arrays["b_out"] = linears[-1].bias.detach().cpu().numpy().copy()
    arrays["activation"] = np.array(_ACTIVATIONS[module.activation][1])
    return arrays


def export_npz(module: MaskedActorCritic, path: str | Path) -> Path:
    """Write ``module``'s policy as an ``.npz`` that ``PolicyAgent`` / ``forest-envs evaluate``
    play (checked by loading it back)."""
    from ..agents.policy import NumpyPolicy
    from .export import save_policy_arrays

    arrays = policy_arrays(module)
    NumpyPolicy(arrays)  # the shapes chain: refuse to write a file that would not load
    return save_policy_arrays(arrays, path)


def module_dirs(checkpoint: str | Path) -> dict[str, Path]:
    """The RLModule folders of an RLlib algorithm checkpoint, by module (policy) id."""
    root = Path(checkpoint) / "learner_group" / "learner" / "rl_module"
    if not root.is_dir():
        raise FileNotFoundError(f"{str(checkpoint)!r} is not an RLlib algorithm checkpoint "
                                f"(no {root.relative_to(checkpoint)})")
    return {p.name: p for p in sorted(root.iterdir()) if p.is_dir()}


def export_checkpoint(checkpoint: str | Path, out_dir: str | Path) -> dict[str, Path]:
    """Export every policy of an algorithm checkpoint to ``<out_dir>/<policy id>.npz``."""
    from ray.rllib.core.rl_module.rl_module import RLModule

    written = {}
    for pid, folder in module_dirs(checkpoint).items():
        module = RLModule.from_checkpoint(folder)
        if not isinstance(module, MaskedActorCritic):
            raise TypeError(f"policy {pid!r} is a {type(module).__name__}, not MaskedActorCritic")
        written[pid] = export_npz(module, Path(out_dir) / f"{pid}.npz")
    return written
