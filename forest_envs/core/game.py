"""A game's configuration (OpenSpiel's Game): its traits, validated options, the frozen
observation layout and action space, and the tables every state of it shares.

A ``Game`` holds what one configuration fixes (player count, variant, component data,
observation layout, action space) and declares the game's traits; a state (``state.py``)
holds one play of it. ``Game.shared(config)`` is the one Game object of a configuration.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from . import engines
from .actions import ActionSpace
from .cells import CellSpec, CellStructure, cell_structure
from .config import Option, validate_options
from .decisions import Decision, _decision, add_decision_blocks
from .errors import IllegalActionError
from .layout import Layout
from .results import REWARD_MODES
from .rng import make_rng

if TYPE_CHECKING:
    from .state import GameState


@dataclass(frozen=True)
class GameTraits:
    """What kind of game this is, as OpenSpiel's GameType says it (``forest-envs list``)."""

    name: str
    min_players: int
    max_players: int
    chance: bool                # shuffles or draws happen (inside the state's own generator)
    hidden_information: bool    # some seat cannot see part of the state
    has_scores: bool            # the game counts points (else only its ranking exists)
    tie_break: str              # how the game orders players, in words
    score_scale: float = 1.0    # the "score" reward divides score differences by this

    @property
    def reward_modes(self) -> tuple[str, ...]:
        return REWARD_MODES if self.has_scores else ("win", "rank")

    def describe(self) -> dict[str, Any]:
        return {"players": f"{self.min_players}-{self.max_players}", "chance": self.chance,
                "hidden information": self.hidden_information, "scores": self.has_scores,
                "reward modes": list(self.reward_modes), "tie-break": self.tie_break}


class Game:
    """One configuration of a game. A subclass sets ``env_id``, ``traits``, ``options``,
    ``state_class``, ``build_layout`` and ``action_space``."""

    env_id: ClassVar[str]
    traits: ClassVar[GameTraits]
    options: ClassVar[dict[str, Option]]
    state_class: ClassVar[type[GameState]]
    # build_layout(layout) adds the game's own observation blocks after the standard decision
    # blocks (the layout knows its num_players); one frozen action space serves every
    # configuration (ids a configuration cannot use are never legal).
    build_layout: ClassVar[Callable[[Layout], None]]
    action_space: ClassVar[ActionSpace]
    # Actions after which an env truncates a game when its ``max_steps`` option is not given
    # (None: never). A game whose positions can stall for ever sets it.
    default_max_steps: ClassVar[int | None] = None
    # The cells a policy network may share weights across (core/cells.py); None: the game
    # declares none.
    cell_spec: ClassVar[CellSpec | None] = None
    # The state class of the game's native (C++) engine, set by the game package when its
    # extension module is built; None otherwise, and native_unavailable says why.
    native_state_class: ClassVar[type[GameState] | None] = None
    native_unavailable: ClassVar[str] = "no native engine is written for this game"

    def __init__(self, **config: Any):
        self.config = validate_options(self.options, config, f"{self.env_id} game")
        self.num_players: int = self.config["num_players"]
        layout = Layout(self.num_players)
        add_decision_blocks(layout, self.state_class.DECISIONS)
        type(self).build_layout(layout)
        self.layout: Layout = layout.freeze()
        blocks = layout.blocks
        # decision_kind .. decision_seat are adjacent: one region, rewritten as a whole
        self._decision_region = (blocks["decision_kind"].offset,
                                 blocks["decision_seat"].offset + blocks["decision_seat"].size)
        self._decision_offsets = tuple(blocks[b].offset for b in (
            "decision_kind", "decision_player", "decision_data", "decision_seat"))
        # Decision -> the contents of that region (see BufferState._show); None: no decision.
        self._decision_patterns: dict = {None: self._blank_decision_pattern()}
        # (kind, player, data as plain ints) -> (the Decision, with its data as the kind's
        # named tuple, and its pattern): rules push and replace decisions on almost every
        # action, and a hit costs one dict lookup and no allocation.
        self._decision_entries: dict = {}
        self._data_lengths = tuple(len(k.names) for k in self.state_class.DECISIONS)
        self.actions: ActionSpace = self.action_space
        self.action_names: list[str] = self.actions.names
        self.num_actions = self.actions.size
        self.observation_size = self.layout.observation_size
        self.state_size = self.layout.size
        self._cells: CellStructure | None = None

    @property
    def name(self) -> str:
        return self.traits.name

    def cells(self) -> CellStructure | None:
        """Where each cell's entries lie in an observation and which action ids name it
        (``core/cells.py``), or None for a game that declares no cells."""
        if self.cell_spec is None:
            return None
        if self._cells is None:
            self._cells = cell_structure(self.layout, self.cell_spec)
        return self._cells

    def _blank_decision_pattern(self) -> np.ndarray:
        lo, hi = self._decision_region
        pattern = np.zeros(hi - lo, self.layout.dtype)
        pattern.flags.writeable = False  # shared by every state of this configuration
        return pattern

    def decision_pattern(self, decision: Decision | None) -> np.ndarray:
        """What the decision blocks hold while ``decision`` is pending (read-only, cached):
        its kind and player one-hot, its ints, and its seats one-hot (-1: no seat)."""
        pattern = self._decision_patterns.get(decision)
        if pattern is not None:
            return pattern
        lo, hi = self._decision_region
        pattern = np.zeros(hi - lo, self.layout.dtype)
        assert decision is not None  # (the game over's pattern is made in __init__)
        kind, player, data = decision
        kind_at, player_at, data_at, seat_at = (at - lo for at in self._decision_offsets)
        pattern[kind_at + kind] = 1
        pattern[player_at + player] = 1
        if data:
            ints = len(self.state_class.DECISIONS[kind].ints)
            if ints:
                pattern[data_at:data_at + ints] = data[:ints]
            n = self.num_players
            for slot, seat in enumerate(data[ints:]):
                if seat >= 0:
                    pattern[seat_at + slot * n + seat] = 1
        pattern.flags.writeable = False
        if len(self._decision_patterns) >= _MAX_DECISION_PATTERNS:  # bounds memory
            self._decision_patterns = {None: self._decision_patterns[None]}
        self._decision_patterns[decision] = pattern
        return pattern

    def decision_entry(self, kind: int, player: int, data: tuple) -> tuple[Decision, np.ndarray]:
        """The shared Decision for (kind, player, data) and its pattern; the data's length is
        checked against the kind's names when a new one is first seen."""
        key = (kind, player, data)
        entry = self._decision_entries.get(key)
        if entry is None:
            if len(data) != self._data_lengths[kind]:
                spec = self.state_class.DECISIONS[kind]
                raise ValueError(f"the {spec.name!r} decision carries {len(spec.names)} values "
                                 f"({', '.join(spec.names) or 'none'}), not {len(data)}")
            decision = _decision((int(kind), player, data))  # a plain int, not the game's Kind
            if len(self._decision_entries) >= _MAX_DECISION_PATTERNS:  # bounds memory
                self._decision_entries = {}
            entry = self._decision_entries[key] = (decision, self.decision_pattern(decision))
        return entry

    @classmethod
    def all_configs(cls) -> list[dict]:
        """Every combination of the options that have a list of choices (the others at
        their defaults): each player count and variant, for tests and benchmarks."""
        chosen = {k: o.choices for k, o in cls.options.items() if o.choices is not None}
        return [dict(zip(chosen, values)) for values in itertools.product(*chosen.values())]

    @classmethod
    def shared(cls, config: dict | None = None) -> Game:
        """The one Game object of this configuration (layouts, gather indices and tables are
        built once and shared by every state of it)."""
        # The key holds each value's type: 1 == True, so without it legendary=1 would get
        # the game built for legendary=True instead of the error it deserves.
        key = tuple(sorted((k, type(v).__name__, v) for k, v in (config or {}).items()))
        return _shared_game(cls, key)  # type: ignore[arg-type]  # (a class is hashable)

    def new_initial_state(self, seed: int | None = None, engine: str | None = None):
        """A new game from ``seed`` on ``engine`` ("python" or "native"; None: the default,
        core/engines.py). The same seed gives the same game on either engine."""
        cls = engines.state_class(type(self), engine)
        if cls is self.state_class:
            return cls.new(self, make_rng(seed))
        native: Any = cls  # a native state seeds its own generator (core/native_state.py)
        return native.new_from_seed(self, seed)

    def state_from_dict(self, data: dict, engine: str | None = None):
        """The state ``State.to_dict`` wrote, on ``engine`` (None: the default); the dict is
        checked before anything reads it, and refused with a ValueError naming the problem."""
        return engines.state_class(type(self), engine).from_dict(self, data)

    def action_to_string(self, action: int) -> str:
        """The action's name, as its actor knows it."""
        if not 0 <= int(action) < self.num_actions:
            raise IllegalActionError(f"action {action!r} is out of range 0..{self.num_actions - 1}")
        return self.action_names[int(action)]

    def string_to_action(self, text: str) -> int:
        action = self.actions.id_of(text.strip())
        if action is None:
            raise IllegalActionError(f"no action is named {text!r} in {self.env_id}")
        return action


# Distinct decisions whose decision-block contents a Game keeps (a few kB at most).
_MAX_DECISION_PATTERNS = 4096


@functools.cache
def _shared_game(cls: type, key: tuple) -> Game:
    return cls(**{k: v for k, _, v in key})
