"""The engine contract shared by every game (OpenSpiel's Game/State split).

A ``Game`` holds what one configuration fixes (player count, variant, component data,
observation layout, action names); a ``State`` holds one play of it. Engines never import
an RL library. ``BufferState`` supplies the parts every engine would otherwise rewrite:
buffer views, cloning, JSON round trip, observation gather, returns and validation.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from .config import Option, validate_options
from .errors import IllegalActionError
from .layout import Layout
from .rng import make_rng, rng_from_json, rng_to_json

REWARD_MODES = ("win", "rank", "score")


def ranks_from_scores(scores) -> list[int]:
    """Competition ranking: 1 + number of players with a strictly higher score."""
    return [1 + sum(1 for other in scores if other > s) for s in scores]


def returns_from_scores(scores, mode: str = "win", score_scale: float = 10.0) -> list[float]:
    """Terminal rewards.

    ``win``: the top scorers share +1 (each gets 1/k), everybody else 0.
    ``rank``: 1 for first place down to 0 for last, linear in the competition rank.
    ``score``: (own score - mean of the opponents' scores) / ``score_scale``.
    """
    n = len(scores)
    if mode == "win":
        best = max(scores)
        k = sum(1 for s in scores if s == best)
        return [1.0 / k if s == best else 0.0 for s in scores]
    if mode == "rank":
        return [(n - r) / (n - 1) for r in ranks_from_scores(scores)]
    if mode == "score":
        total = sum(scores)
        return [(s - (total - s) / (n - 1)) / score_scale for s in scores]
    raise ValueError(f"unknown reward mode {mode!r}; expected one of {REWARD_MODES}")


class Game:
    """One configuration of a game. Subclasses set the class attributes and ``_build``."""

    env_id: ClassVar[str]
    name: ClassVar[str]
    options: ClassVar[dict[str, Option]]
    state_class: ClassVar[type]

    def __init__(self, **config: Any):
        self.config = validate_options(self.options, config, f"{self.env_id} game")
        self.num_players: int = self.config["num_players"]
        self.layout: Layout = self._build_layout().freeze()
        self.action_names: list[str] = self._build_action_names()
        self.num_actions = len(self.action_names)
        self._action_ids = {name: i for i, name in enumerate(self.action_names)}
        self.observation_size = self.layout.observation_size
        self.state_size = self.layout.size

    def _build_layout(self) -> Layout:
        raise NotImplementedError

    def _build_action_names(self) -> list[str]:
        raise NotImplementedError

    def new_initial_state(self, seed: int | None = None):
        return self.state_class.new(self, make_rng(seed))

    def state_from_dict(self, data: dict):
        return self.state_class.from_dict(self, data)

    def action_to_string(self, action: int) -> str:
        if not 0 <= int(action) < self.num_actions:
            raise IllegalActionError(f"action {action!r} is out of range 0..{self.num_actions - 1}")
        return self.action_names[int(action)]

    def string_to_action(self, text: str) -> int:
        try:
            return self._action_ids[text.strip()]
        except KeyError:
            raise IllegalActionError(f"no action is named {text!r} in {self.env_id}") from None


class BufferState:
    """Base of every engine state: numbers live in ``buf`` (see ``Layout``), the rest in
    the plain fields a subclass lists in ``FIELDS`` (ints, bools, tuples, lists of ints or
    tuples, small numpy arrays)."""

    __slots__ = ("_mask", "buf", "game", "rng")
    FIELDS: ClassVar[tuple[str, ...]] = ()
    # How a field comes back from JSON when it is not a plain int: ``tuple``, ``list`` (of
    # tuples) or a numpy dtype.
    FIELD_KINDS: ClassVar[dict[str, Any]] = {}

    # --- construction -------------------------------------------------------------------
    @classmethod
    def _blank(cls, game: Game):
        self = object.__new__(cls)
        self.game = game
        self.buf = game.layout.new_buffer()
        self._bind()
        self._mask = None
        return self

    def _bind(self) -> None:
        for name, view in self.game.layout.views(self.buf).items():
            object.__setattr__(self, name, view)

    def clone(self):
        new = object.__new__(type(self))
        new.game = self.game
        new.buf = self.buf.copy()
        new._bind()
        new.rng = rng_from_json(rng_to_json(self.rng))
        new._mask = self._mask
        for f in self.FIELDS:
            v = getattr(self, f)
            if isinstance(v, (list, np.ndarray)):
                v = v.copy()
            object.__setattr__(new, f, v)
        return new

    def to_dict(self) -> dict:
        out = {"env_id": self.game.env_id, "config": dict(self.game.config),
               "buf": self.buf.tolist(), "rng": rng_to_json(self.rng)}
        for f in self.FIELDS:
            v = getattr(self, f)
            if isinstance(v, np.ndarray):
                v = v.tolist()
            elif isinstance(v, list):
                v = [list(x) if isinstance(x, tuple) else x for x in v]
            elif isinstance(v, tuple):
                v = list(v)
            out[f] = v
        return out

    @classmethod
    def from_dict(cls, game: Game, data: dict):
        if data.get("env_id") != game.env_id or data.get("config") != game.config:
            raise ValueError("state dict belongs to another game or configuration")
        self = cls._blank(game)
        self.buf[:] = np.asarray(data["buf"], dtype=game.layout.dtype)
        self.rng = rng_from_json(data["rng"])
        for f in cls.FIELDS:
            v, kind = data[f], cls.FIELD_KINDS.get(f)
            if kind is tuple:
                v = tuple(v)
            elif kind is list:
                v = [tuple(x) if isinstance(x, list) else x for x in v]
            elif kind is not None:
                v = np.asarray(v, dtype=kind)
            object.__setattr__(self, f, v)
        return self

    # --- the common contract ------------------------------------------------------------
    @property
    def num_players(self) -> int:
        return self.game.num_players

    def observation(self, seat: int) -> np.ndarray:
        return self.game.layout.observe(self.buf, seat)

    def global_state(self) -> np.ndarray:
        return self.buf.astype(np.float32)

    def legal_action_mask(self) -> np.ndarray:
        """int8 mask over the flat action ids; cached until the next ``apply``."""
        if self._mask is None:
            self._mask = self._compute_mask()
        return self._mask

    def legal_actions(self) -> list[int]:
        return np.flatnonzero(self.legal_action_mask()).tolist()

    def apply(self, action) -> None:
        """Validate and apply one action; IllegalActionError names the action and why."""
        if type(action) is not int:
            action = self._coerce_action(action)
        if self.is_terminal:
            raise IllegalActionError("the game is over; no action can be applied")
        if not 0 <= action < self.game.num_actions:
            raise IllegalActionError(
                f"action {action!r} is out of range 0..{self.game.num_actions - 1}")
        mask = self._mask if self._mask is not None else self.legal_action_mask()
        if not mask[action]:
            raise IllegalActionError(
                f"action {action} ({self.game.action_names[action]}) is illegal for player "
                f"{self.current_player}: {self._why_illegal(action)}")
        self._mask = None
        self._apply(action)

    @staticmethod
    def _coerce_action(action) -> int:
        try:
            a = int(action)
        except (TypeError, ValueError):
            raise IllegalActionError(f"action must be an int, got {action!r}") from None
        if a != action or isinstance(action, (bool, float)):
            raise IllegalActionError(f"action must be an int, got {action!r}")
        return a

    def returns(self, mode: str = "win") -> list[float]:
        if not self.is_terminal:
            return [0.0] * self.num_players
        return returns_from_scores([s["total"] for s in self.scores()], mode)

    def ranks(self) -> list[int]:
        return ranks_from_scores([s["total"] for s in self.scores()])

    # --- what a subclass provides ---------------------------------------------------------
    @property
    def current_player(self) -> int:
        raise NotImplementedError

    @property
    def is_terminal(self) -> bool:
        raise NotImplementedError

    def _compute_mask(self) -> np.ndarray:
        raise NotImplementedError

    def _apply(self, action: int) -> None:
        raise NotImplementedError

    def _why_illegal(self, action: int) -> str:
        return "not legal now"

    def scores(self) -> list[dict]:
        raise NotImplementedError
