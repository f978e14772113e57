"""Playing a trained policy: a plain numpy MLP, cheap to load in any process, no torch needed
to act.

``PolicyAgent`` plays from an ``.npz`` exported by the trainer (``w0, b0, ..., w_out, b_out,
activation``: a MaskablePPO ``MlpPolicy``'s policy MLP and action head, and for a policy that
reads the board's cells with shared weights, ``train/cellpolicy.py``, its cell network:
``cell_features, cell_actions, cell_context, cell_w0, cell_b0, ..., cell_w_out, cell_b_out``)
or straight from an SB3 ``.zip``. A policy that does not fit the game (observation size, number of actions) or a file
that holds no policy is a ConfigError naming the file, never a numpy or zipfile traceback.

This is the agents layer, below evaluation and training: both play policies through it, and
the trainer writes them (``forest_envs.train.export.export_policy``) in the format read here.
"""

from __future__ import annotations

import zipfile
from collections.abc import Callable
from pathlib import Path

import numpy as np

from ..core.errors import ConfigError

_ACTIVATIONS: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "Tanh": np.tanh, "ReLU": lambda x: np.maximum(x, 0.0)}


def linear_arrays(layer) -> tuple[np.ndarray, np.ndarray]:
    """A torch ``nn.Linear`` as the (inputs x outputs weight, bias) arrays numpy plays."""
    return layer.weight.detach().cpu().numpy().T.copy(), layer.bias.detach().cpu().numpy().copy()


def sb3_policy_arrays(policy) -> dict[str, np.ndarray]:
    """A MaskableActorCriticPolicy's actor (features are the flat observation) as the arrays
    ``NumpyPolicy`` plays: ``w0, b0, ..., w_out, b_out, activation``."""
    from torch import nn

    weights, acts = [], []
    for layer in policy.mlp_extractor.policy_net:
        if isinstance(layer, nn.Linear):
            weights.append(linear_arrays(layer))
        elif type(layer).__name__ in _ACTIVATIONS:
            acts.append(type(layer).__name__)
        else:
            raise ValueError(f"cannot export policy layer {layer!r}")
    if len(set(acts)) > 1 or len(acts) != len(weights):
        raise ValueError("expected one activation after every hidden layer")
    head = policy.action_net
    arrays = {f"w{i}": w for i, (w, _) in enumerate(weights)}
    arrays.update({f"b{i}": b for i, (_, b) in enumerate(weights)})
    if isinstance(head, nn.Linear):
        arrays["w_out"], arrays["b_out"] = linear_arrays(head)
    elif hasattr(head, "numpy_arrays"):  # a cell head (train/cellpolicy.py)
        arrays.update(head.numpy_arrays())
    else:
        raise ValueError(f"cannot export action head {head!r}")
    arrays["activation"] = np.array(acts[0] if acts else "Tanh")
    return arrays


def check_sizes(expects: tuple[int, int], gives: tuple[int, int], where: str,
                game: str = "the game") -> None:
    """Raise ConfigError unless a policy's (observation floats, actions) equal the game's."""
    if tuple(expects) != tuple(gives):
        raise ConfigError(f"{where} expects observations of {expects[0]} floats and {expects[1]} "
                          f"actions; {game} gives {gives[0]} and {gives[1]}")


def check_policy_fits(policy: NumpyPolicy, observation_size: int, num_actions: int, where: str,
                      game: str = "the game") -> None:
    """Raise ConfigError (naming both sizes) unless ``policy`` plays a game with these sizes."""
    check_sizes((policy.observation_size, policy.num_actions), (observation_size, num_actions),
                where, game)


def describe_game(env) -> str:
    """'<env id> with <option>=<value>, ...' for an env (raw or wrapped), as errors name a game."""
    game = getattr(getattr(env, "unwrapped", env), "game", None)
    if game is None:
        return "the game"
    return describe_config(game.env_id, game.config)


def describe_config(env_id: str, config: dict) -> str:
    """'<env id> with <option>=<value>, ...'."""
    options = ", ".join(f"{k}={v}" for k, v in config.items())
    return f"{env_id} with {options}" if options else env_id


def check_agent_fits(agent, env) -> None:
    """Raise ConfigError if ``agent`` cannot play ``env``'s game: a policy (or a search that
    plays one) for other sizes or, for a shipped baseline, another configuration. Agents
    without a ``check_fits(env)`` (random, heuristic) fit every game. For evaluation and play,
    before games start."""
    check = getattr(agent, "check_fits", None)
    if check is not None:
        check(env)


def dense_layers(arrays: dict[str, np.ndarray], prefix: str = "") -> tuple[list, tuple]:
    """The float32 (weight, bias) pairs of ``<prefix>w0, <prefix>b0, ...`` and the output pair
    ``<prefix>w_out, <prefix>b_out``."""
    def pair(name: str) -> tuple[np.ndarray, np.ndarray]:
        return (arrays[f"{prefix}w{name}"].astype(np.float32),
                arrays[f"{prefix}b{name}"].astype(np.float32))

    hidden = sum(1 for k in arrays if k.startswith(f"{prefix}w") and k != f"{prefix}w_out")
    return [pair(str(i)) for i in range(hidden)], pair("_out")


def unchained(widths: list[tuple]) -> bool:
    """Whether some layer's outputs are not the next layer's inputs (shapes (in, out))."""
    return any(a[1] != b[0] for a, b in zip(widths, widths[1:]))


class CellNetwork:
    """The cell network of a policy that reads every cell with the same weights
    (``train/cellpolicy.py``): its outputs for cell c are added to the logits of the
    actions ``actions[c]``."""

    def __init__(self, arrays: dict[str, np.ndarray], trunk_width: int, num_actions: int,
                 observation_size: int):
        self.features = arrays["cell_features"].astype(np.intp)
        self.actions = arrays["cell_actions"].astype(np.intp)
        self.context = arrays["cell_context"].astype(np.float32)
        self.layers, self.out = dense_layers(arrays, "cell_")
        cells, per_cell = self.features.shape
        widths = [w.shape for w, _ in self.layers] + [self.out[0].shape]
        problems = []
        if self.actions.shape != (cells, self.out[0].shape[1]):
            problems.append(f"cell_actions {self.actions.shape} for {cells} cells and "
                            f"{self.out[0].shape[1]} outputs")
        if widths[0][0] != per_cell or self.context.shape != (trunk_width, widths[0][1]):
            problems.append(f"first layer {widths[0]} and context {self.context.shape} for "
                            f"{per_cell} entries per cell and a trunk of {trunk_width}")
        if unchained(widths):
            problems.append(f"layer shapes {widths} do not chain")
        if self.features.size and not (0 <= self.features.min() and self.features.max() < observation_size):
            problems.append(f"cell_features outside an observation of {observation_size} floats")
        if self.actions.size and not (0 <= self.actions.min() and self.actions.max() < num_actions):
            problems.append(f"cell_actions outside {num_actions} actions")
        if problems:
            raise ValueError("cell network: " + "; ".join(problems))

    def add_logits(self, obs: np.ndarray, trunk: np.ndarray, logits: np.ndarray, act) -> None:
        """Add the cell outputs to ``logits`` (one observation or a batch)."""
        w, b = self.layers[0]
        z = act(obs[..., self.features] @ w + np.expand_dims(trunk @ self.context + b, -2))
        for w, b in self.layers[1:]:
            z = act(z @ w + b)
        w, b = self.out
        logits[..., self.actions] += z @ w + b


class NumpyPolicy:
    def __init__(self, arrays: dict[str, np.ndarray]):
        self.layers, self.out = dense_layers(arrays)
        self.activation = str(arrays["activation"])  # Tanh or ReLU (the native search reads it)
        self.act = _ACTIVATIONS[self.activation]
        widths = [w.shape for w, _ in self.layers] + [self.out[0].shape]
        if unchained(widths):
            raise ValueError(f"layer shapes {widths} do not chain")
        self.cells = (CellNetwork(arrays, self.out[0].shape[0], self.num_actions, self.observation_size)
                      if "cell_features" in arrays else None)

    @property
    def observation_size(self) -> int:
        return int((self.layers[0][0] if self.layers else self.out[0]).shape[0])

    @property
    def num_actions(self) -> int:
        return int(self.out[0].shape[1])

    @classmethod
    def load(cls, path: str | Path) -> NumpyPolicy:
        path = Path(path)
        if not path.is_file():
            raise FileNotFoundError(f"policy file {str(path)!r} does not exist")
        what = (f"policy file {str(path)!r} is not a policy forest_envs can play (expected an .npz "
                "exported by the trainer or a MaskablePPO .zip)")
        if not zipfile.is_zipfile(path):  # both kinds are zip archives
            raise ConfigError(f"{what}: it is not a zip archive")
        try:
            if path.suffix == ".zip":
                return cls.from_sb3(path)
            with np.load(path, allow_pickle=False) as data:
                return cls({k: data[k] for k in data.files})
        except (ImportError, ConfigError):
            raise
        except Exception as err:
            # numpy, zipfile, pickle, torch and SB3 each raise their own types for a truncated,
            # foreign or corrupt file; the user needs the file's name and what it should be.
            raise ConfigError(f"{what}: {type(err).__name__}: {err}") from err

    @classmethod
    def from_sb3(cls, path: str | Path) -> NumpyPolicy:
        from sb3_contrib import MaskablePPO

        return cls(sb3_policy_arrays(MaskablePPO.load(str(path), device="cpu").policy))

    def logits(self, obs: np.ndarray) -> np.ndarray:
        x = obs
        for w, b in self.layers:
            x = self.act(x @ w + b)
        w, b = self.out
        logits = x @ w + b
        if self.cells is not None:
            self.cells.add_logits(obs, x, logits, self.act)
        return logits

    def probabilities(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        logits = np.where(mask.astype(bool), self.logits(obs).astype(np.float64), -np.inf)
        logits -= logits.max()
        p = np.exp(logits)
        return p / p.sum()


class PolicyAgent:
    """Plays a trained policy: samples from its masked distribution with its own seeded
    generator (or takes the most likely action when ``deterministic``).

    ``env`` (any env of the game it will play) checks at construction that the policy fits the
    game; without it the check runs at the first ``act``. ``trained_for`` (env id, full game
    config), known for a shipped baseline, makes any other configuration an error, even one
    of the same sizes; ``otherwise`` then says what to do instead."""

    def __init__(self, path: str | Path, seed: int | None = None, deterministic: bool = False,
                 policy: NumpyPolicy | None = None, env=None,
                 trained_for: tuple[str, dict] | None = None, name: str | None = None,
                 otherwise: str = ""):
        self.path = str(path)
        self.name = name or Path(path).stem
        self.policy = policy or NumpyPolicy.load(path)
        self.rng = np.random.default_rng(seed)
        self.deterministic = deterministic
        self.trained_for = trained_for
        self.otherwise = otherwise
        self._fits = False
        if env is not None:
            self.check_fits(env)

    def check_fits(self, env) -> None:
        """Raise ConfigError unless the policy plays the game of ``env`` (a forest_envs env)."""
        game = env.unwrapped.game
        if self.trained_for is not None and (game.env_id, dict(game.config)) != (
                self.trained_for[0], dict(self.trained_for[1])):
            trained = describe_config(*self.trained_for)
            raise ConfigError(f"policy {self.name} ({self.path}) was trained for {trained}; this "
                              f"game is {describe_game(env)}, and no {self.name} ships for it yet"
                              + (f": {self.otherwise}" if self.otherwise else ""))
        self._check(game.observation_size, game.num_actions, env)

    def _check(self, observation_size: int, num_actions: int, env) -> None:
        check_policy_fits(self.policy, observation_size, num_actions, f"policy {self.path}",
                          describe_game(env))
        self._fits = True

    def logits(self, observation: np.ndarray) -> np.ndarray:
        """The policy's unmasked action logits for one observation (search reads these)."""
        return self.policy.logits(observation)

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.rng = np.random.default_rng(seed)

    def act(self, env, agent: str) -> int:
        obs = env.observe(agent)
        mask = obs["action_mask"]
        if not self._fits:
            # Checked here rather than left to the matrix product, whose "shapes (1599,) and
            # (1327,256) not aligned" names neither the policy file nor the game.
            self._check(obs["observation"].shape[0], mask.shape[0], env)
        if not mask.any():
            raise ValueError(f"{agent} has no legal action: it is not its turn")
        p = self.policy.probabilities(obs["observation"], mask)
        if self.deterministic:
            return int(np.argmax(p))
        return int(min(np.searchsorted(np.cumsum(p), self.rng.random() * p.sum()), p.size - 1))
