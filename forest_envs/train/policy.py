"""Trained policies as plain numpy MLPs: cheap to load in any process, no torch needed to act.

A MaskablePPO policy (``MlpPolicy``) is exported to ``.npz`` (its policy MLP and action head);
``PolicyAgent`` plays from an ``.npz`` or straight from an SB3 ``.zip``.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

_ACTIVATIONS = {"Tanh": np.tanh, "ReLU": lambda x: np.maximum(x, 0.0)}


def export_policy(policy, path: str | Path) -> Path:
    """Write a MaskableActorCriticPolicy's actor (features are the flat observation) as .npz."""
    from torch import nn

    weights, acts = [], []
    for layer in policy.mlp_extractor.policy_net:
        if isinstance(layer, nn.Linear):
            weights.append((layer.weight.detach().cpu().numpy().T.copy(),
                            layer.bias.detach().cpu().numpy().copy()))
        elif type(layer).__name__ in _ACTIVATIONS:
            acts.append(type(layer).__name__)
        else:
            raise ValueError(f"cannot export policy layer {layer!r}")
    if len(set(acts)) > 1 or len(acts) != len(weights):
        raise ValueError("expected one activation after every hidden layer")
    head = policy.action_net
    arrays = {f"w{i}": w for i, (w, _) in enumerate(weights)}
    arrays.update({f"b{i}": b for i, (_, b) in enumerate(weights)})
    arrays["w_out"] = head.weight.detach().cpu().numpy().T.copy()
    arrays["b_out"] = head.bias.detach().cpu().numpy().copy()
    arrays["activation"] = np.array(acts[0] if acts else "Tanh")
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp.npz")
    np.savez(tmp, **arrays)
    tmp.replace(path)  # atomic: workers may be listing the snapshot folder right now
    return path


class NumpyPolicy:
    def __init__(self, arrays: dict[str, np.ndarray]):
        n_hidden = sum(1 for k in arrays if k.startswith("w") and k != "w_out")
        self.layers = [(arrays[f"w{i}"].astype(np.float32), arrays[f"b{i}"].astype(np.float32))
                       for i in range(n_hidden)]
        self.out = (arrays["w_out"].astype(np.float32), arrays["b_out"].astype(np.float32))
        self.act = _ACTIVATIONS[str(arrays["activation"])]

    @classmethod
    def load(cls, path: str | Path) -> NumpyPolicy:
        path = Path(path)
        if not path.is_file():
            raise FileNotFoundError(f"policy file {str(path)!r} does not exist")
        if path.suffix == ".zip":
            return cls.from_sb3(path)
        with np.load(path) as data:
            return cls({k: data[k] for k in data.files})

    @classmethod
    def from_sb3(cls, path: str | Path) -> NumpyPolicy:
        import tempfile

        from sb3_contrib import MaskablePPO

        model = MaskablePPO.load(str(path), device="cpu")
        with tempfile.TemporaryDirectory() as tmp:
            return cls.load(export_policy(model.policy, Path(tmp) / "p.npz"))

    def logits(self, obs: np.ndarray) -> np.ndarray:
        x = obs
        for w, b in self.layers:
            x = self.act(x @ w + b)
        w, b = self.out
        return x @ w + b

    def probabilities(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        logits = np.where(mask.astype(bool), self.logits(obs).astype(np.float64), -np.inf)
        logits -= logits.max()
        p = np.exp(logits)
        return p / p.sum()


class PolicyAgent:
    """Plays a trained policy: samples from its masked distribution with its own seeded
    generator (or takes the most likely action when ``deterministic``)."""

    def __init__(self, path: str | Path, seed: int | None = None, deterministic: bool = False,
                 policy: NumpyPolicy | None = None):
        self.path = str(path)
        self.name = Path(path).stem
        self.policy = policy or NumpyPolicy.load(path)
        self.rng = np.random.default_rng(seed)
        self.deterministic = deterministic

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.rng = np.random.default_rng(seed)

    def act(self, env, agent: str) -> int:
        obs = env.observe(agent)
        mask = obs["action_mask"]
        if not mask.any():
            raise ValueError(f"{agent} has no legal action: it is not its turn")
        p = self.policy.probabilities(obs["observation"], mask)
        if self.deterministic:
            return int(np.argmax(p))
        return int(min(np.searchsorted(np.cumsum(p), self.rng.random() * p.sum()), p.size - 1))
