"""A MaskablePPO policy that reads every cell of the board with the same weights.

A flat MLP learns "move to the cell nearest the goal" once per cell, from that cell's share of
the data; here one small network (the cell network) reads each cell's own entries of the
observation (``core/cells.py``: what lies on the cell, how far it is from each piece ...)
together with the trunk's reading of the whole position, and its outputs are added to the
logits of the actions that name that cell (move there, choose it, ...). The trunk
(the MLP over the whole observation), its action head and the value network are those of
SB3's ``MlpPolicy``.

For the cell network, the actor's latent (what the action head is given) is the trunk's
output followed by the observation itself (``CellExtractor``); ``CellHead`` splits it again.
Exported to ``.npz`` by ``CellHead.numpy_arrays`` and played by ``agents.policy.NumpyPolicy``.
"""

from __future__ import annotations

import numpy as np
import torch as th
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from stable_baselines3.common.torch_layers import MlpExtractor
from torch import nn

from ..agents.policy import linear_arrays


class CellExtractor(MlpExtractor):
    """SB3's MlpExtractor whose actor latent is the policy MLP's output followed by the
    (flat) features, so that the action head can read each cell's entries."""

    latent_dim_pi: int  # set by MlpExtractor (read as Any here), widened below
    trunk_dim: int

    def __init__(self, feature_dim: int, **kwargs):
        super().__init__(feature_dim, **kwargs)
        self.trunk_dim = self.latent_dim_pi
        self.latent_dim_pi = self.trunk_dim + feature_dim

    def forward_actor(self, features: th.Tensor) -> th.Tensor:
        return th.cat([self.policy_net(features), features], dim=1)


class CellHead(nn.Module):
    """Logits = the trunk's linear head + each cell network output at its cell's actions.

    The cell network's first layer reads the cell's entries and the trunk's output
    (``context``: the same for every cell), its later layers only the layer before."""

    def __init__(self, trunk_dim: int, num_actions: int, cell_features: np.ndarray,
                 cell_actions: np.ndarray, widths: list[int], activation: type[nn.Module]):
        super().__init__()
        self.trunk_dim = trunk_dim
        self.register_buffer("features_at", th.as_tensor(cell_features, dtype=th.long), persistent=False)
        self.register_buffer("actions_at", th.as_tensor(cell_actions, dtype=th.long).flatten(),
                             persistent=False)
        self.flat = nn.Linear(trunk_dim, num_actions)
        self.context = nn.Linear(trunk_dim, widths[0])
        self.first = nn.Linear(cell_features.shape[1], widths[0], bias=False)
        self.hidden = nn.ModuleList(nn.Linear(a, b) for a, b in zip(widths, widths[1:]))
        self.out = nn.Linear(widths[-1], cell_actions.shape[1])
        self.act = activation()

    def forward(self, latent: th.Tensor) -> th.Tensor:
        trunk, obs = latent[:, :self.trunk_dim], latent[:, self.trunk_dim:]
        cells = obs[:, self.features_at]                        # (batch, cells, features)
        z = self.act(self.first(cells) + self.context(trunk).unsqueeze(1))
        for layer in self.hidden:
            z = self.act(layer(z))
        per_cell = self.out(z).flatten(1)                       # (batch, cells x actions per cell)
        return self.flat(trunk).index_add(1, self.actions_at, per_cell)

    def init_weights(self) -> None:
        """SB3's initialisation: orthogonal, gain sqrt(2) inside, 0.01 for what makes logits."""
        for layer, gain in ([(self.context, np.sqrt(2)), (self.first, np.sqrt(2))]
                            + [(h, np.sqrt(2)) for h in self.hidden]
                            + [(self.flat, 0.01), (self.out, 0.01)]):
            nn.init.orthogonal_(layer.weight, gain=gain)
            if layer.bias is not None:
                layer.bias.data.fill_(0.0)

    def numpy_arrays(self) -> dict[str, np.ndarray]:
        """The head as ``NumpyPolicy`` reads it (``agents/policy.py``)."""
        arrays = {"cell_features": self.features_at.cpu().numpy().copy(),
                  "cell_actions": self.actions_at.cpu().numpy().reshape(
                      self.features_at.shape[0], -1).copy()}
        arrays["w_out"], arrays["b_out"] = linear_arrays(self.flat)
        # The first layer has no bias of its own: the context's is added to it.
        arrays["cell_context"], arrays["cell_b0"] = linear_arrays(self.context)
        arrays["cell_w0"] = self.first.weight.detach().cpu().numpy().T.copy()
        arrays["cell_w_out"], arrays["cell_b_out"] = linear_arrays(self.out)
        for i, layer in enumerate(self.hidden, start=1):
            arrays[f"cell_w{i}"], arrays[f"cell_b{i}"] = linear_arrays(layer)
        return arrays


class CellPolicy(MaskableActorCriticPolicy):
    """MaskablePPO's MlpPolicy with a cell network in its action head (module doc).
    ``cell_features``, ``cell_actions``: the game's ``cells()`` tables, as lists (they are
    saved with the model); ``cell_arch``: the cell network's layer widths."""

    def __init__(self, *args, cell_features: list, cell_actions: list, cell_arch: list[int],
                 **kwargs):
        self.cell_features = cell_features
        self.cell_actions = cell_actions
        self.cell_arch = list(cell_arch)
        super().__init__(*args, **kwargs)

    def _build_mlp_extractor(self) -> None:
        self.mlp_extractor = CellExtractor(self.features_dim, net_arch=self.net_arch,
                                           activation_fn=self.activation_fn, device=self.device)

    def _build(self, lr_schedule) -> None:
        super()._build(lr_schedule)
        # SB3 built a Linear over the whole latent; the cell head replaces it, and the
        # optimizer is built again over the parameters the policy now has.
        self.action_net = CellHead(self.mlp_extractor.trunk_dim, int(self.action_space.n),
                                   np.asarray(self.cell_features), np.asarray(self.cell_actions),
                                   self.cell_arch, self.activation_fn)
        self.action_net.init_weights()
        self.optimizer = self.optimizer_class(self.parameters(), lr=lr_schedule(1),
                                              **self.optimizer_kwargs)

    def _get_constructor_parameters(self) -> dict:
        data = super()._get_constructor_parameters()
        data.update(cell_features=self.cell_features, cell_actions=self.cell_actions,
                    cell_arch=self.cell_arch)
        return data


def cell_policy_kwargs(game, widths: list[int]) -> dict:
    """``CellPolicy``'s own keyword arguments for ``game``, a game that declares cells
    (``validate_config`` refuses ``policy.cells`` for one that does not)."""
    cells = game.cells()
    return {"cell_features": cells.features.tolist(), "cell_actions": cells.actions.tolist(),
            "cell_arch": list(widths)}
