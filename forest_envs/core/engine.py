"""The engine contract shared by every game (OpenSpiel's Game/State split).

A ``Game`` holds what one configuration fixes (player count, variant, component data,
observation layout, action space) and declares the game's traits; a ``State`` holds one
play of it. Engines never import an RL library. ``BufferState`` supplies what every engine
would otherwise rewrite: buffer views, deep cloning, the JSON round trip, the observation
gather, the stack of pending decisions with per-kind dispatch, validation, and rewards built
from the game's own ranking.
"""

from __future__ import annotations

import functools
import importlib
import itertools
from collections import namedtuple
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar, NamedTuple

import numpy as np

from .actions import ActionSpace
from .cells import CellSpec, CellStructure, cell_structure
from .config import Option, validate_options
from .errors import IllegalActionError
from .layout import Layout
from .plain import deep_copy, from_json, to_json
from .rng import make_rng, rng_from_json, rng_to_json

REWARD_MODES = ("win", "rank", "score")


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


def competition_ranks(keys: list) -> list[int]:
    """Rank 1 + the number of players with a strictly better key (higher is better; keys
    may be tuples, compared in order, which is how a game states its tie-breaks)."""
    return [1 + sum(1 for other in keys if other > k) for k in keys]


def returns_from_ranks(ranks: list[int], mode: str, totals: list[float] | None = None,
                       score_scale: float = 1.0) -> list[float]:
    """Terminal rewards from a finished game's ranks.

    ``win``: the players ranked first share +1 (each 1/k), everybody else 0.
    ``rank``: 1 for first place down to 0 for last, linear in the competition rank.
    ``score``: (own total - mean of the opponents' totals) / ``score_scale``; games with
    points only.
    """
    n = len(ranks)
    if mode == "win":
        k = ranks.count(1)
        return [1.0 / k if r == 1 else 0.0 for r in ranks]
    if mode == "rank":
        return [(n - r) / (n - 1) for r in ranks]
    if mode == "score":
        if totals is None:
            raise ValueError("reward mode 'score' needs a game with points")
        total = sum(totals)
        return [(s - (total - s) / (n - 1)) / score_scale for s in totals]
    raise ValueError(f"unknown reward mode {mode!r}; expected one of {REWARD_MODES}")


class Result(NamedTuple):
    """A game's result by seat: ranks (1 = a winner), point totals (None in games without
    points) and what decided it (``breakdown``)."""

    ranks: list[int]
    totals: list[int] | None
    breakdown: list[dict]

    def returns(self, mode: str, score_scale: float) -> list[float]:
        return returns_from_ranks(self.ranks, mode, self.totals, score_scale)


class Decision(NamedTuple):
    """One pending decision: its kind (index into the state's ``DECISIONS``), the seat that
    decides, and small ints the kind declares (what the decision is about)."""

    kind: int
    player: int
    data: tuple = ()


# Builds a Decision from one (kind, player, data) tuple without the Python-level __new__ that
# NamedTuple generates: decisions change on almost every action.
_decision = functools.partial(tuple.__new__, Decision)


@dataclass(frozen=True)
class DecisionKind:
    """A kind of decision. ``ints``: (name, largest value) of each int it carries; ``seats``:
    names of the seats it carries (shown rotated to the observer, -1 for none). Everything a
    decision carries is public: every seat at the table knows what is being decided.

    A pending decision's ``data`` is a plain tuple of the ints, then the seats, in the order
    of ``names``. A handler reads it by unpacking it into those names
    (``ambush, own = d.data``), never by position (``d.data[0]``): as fast as an index, and
    a test checks every unpacking against the kind's declared names."""

    name: str
    ints: tuple[tuple[str, int], ...] = ()
    seats: tuple[str, ...] = ()

    @property
    def names(self) -> tuple[str, ...]:
        """The names of what this kind's decisions carry, in their order in ``data``."""
        return tuple(n for n, _ in self.ints) + tuple(self.seats)

    @functools.cached_property
    def record(self) -> type:
        """The typed record of what this kind's decisions carry: a NamedTuple with a field
        per name (``State.decision_record``), for code outside the rules that reads a
        decision's data by name (agents, readings)."""
        typename = "".join(part.title() for part in self.name.split("_")) + "Data"
        return namedtuple(typename, self.names)


def check_kind_ids(kind_class: type, kinds: tuple[DecisionKind, ...]) -> None:
    """A game's ``Kind`` namespace (``Kind.X``: the index in ``DECISIONS`` of the kind named
    ``x``, the one naming every game uses) must list every kind, in ``DECISIONS``' order."""
    ids = {n: v for n, v in vars(kind_class).items() if n.isupper()}
    want = {k.name.upper(): i for i, k in enumerate(kinds)}
    if ids != want:
        raise TypeError(f"{kind_class.__qualname__} must be exactly {want}, not {ids}")


def add_decision_blocks(layout: Layout, kinds: tuple[DecisionKind, ...]) -> None:
    """The standard observation blocks every game has: which decision is pending, whose
    decision and whose turn it is, and what the decision carries."""
    n = layout.num_players
    width = max((len(k.ints) for k in kinds), default=0)
    high = max((h for k in kinds for _, h in k.ints), default=0)
    layout.add("turn_seat", n, high=1, seats=0)
    layout.add("decision_kind", len(kinds), high=1)
    layout.add("decision_player", n, high=1, seats=0)
    layout.add("decision_data", width, high=max(high, 1))
    layout.add("decision_seat", (max((len(k.seats) for k in kinds), default=0), n), high=1, seats=1)


class Game:
    """One configuration of a game. A subclass sets ``env_id``, ``traits``, ``options``,
    ``state_class``, ``build_layout`` and ``action_space``."""

    env_id: ClassVar[str]
    traits: ClassVar[GameTraits]
    options: ClassVar[dict[str, Option]]
    state_class: ClassVar[type]
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
    native_state_class: ClassVar[type | None] = None
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
            decision = _decision((kind, player, data))
            if len(self._decision_entries) >= _MAX_DECISION_PATTERNS:  # bounds memory
                self._decision_entries = {}
            entry = self._decision_entries[key] = (decision, self.decision_pattern(decision))
        return entry

    @classmethod
    def all_configs(cls) -> list[dict]:
        """Every combination of the options that have a list of choices (the others at
        their defaults): each player count and variant, for tests and benchmarks."""
        keys = [k for k, o in cls.options.items() if o.choices is not None]
        return [dict(zip(keys, values))
                for values in itertools.product(*(cls.options[k].choices for k in keys))]

    @classmethod
    def shared(cls, config: dict | None = None) -> Game:
        """The one Game object of this configuration (layouts, gather indices and tables are
        built once and shared by every state of it)."""
        # The key holds each value's type: 1 == True, so without it legendary=1 would get
        # the game built for legendary=True instead of the error it deserves.
        key = tuple(sorted((k, type(v).__name__, v) for k, v in (config or {}).items()))
        return _shared_game(cls, key)

    def new_initial_state(self, seed: int | None = None):
        return self.state_class.new(self, make_rng(seed))

    def state_from_dict(self, data: dict):
        return self.state_class.from_dict(self, data)

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
def _picture_module(cls: type):
    """The state class's picture module: its PICTURE, else ``<RENDER's package>.picture``
    (imported on first use, so Pillow loads only when a picture is drawn), else None."""
    if cls.PICTURE is not None:
        return cls.PICTURE
    render = cls.RENDER
    name = getattr(render, "__name__", "")
    if "." not in name:
        return None
    try:
        return importlib.import_module(name.rsplit(".", 1)[0] + ".picture")
    except ModuleNotFoundError as err:
        if err.name and err.name.endswith(".picture"):
            return None
        raise


@functools.cache
def _shared_game(cls: type, key: tuple) -> Game:
    return cls(**{k: v for k, _, v in key})


class BufferState:
    """Base of every engine state.

    Numbers a seat may observe live in ``buf`` (see ``Layout``), exposed as one numpy view
    attribute per block; everything else lives in the plain-data fields a subclass lists in
    ``FIELDS`` (nested lists, tuples, dicts, small numpy arrays: see ``plain.py``). Play is
    driven by a stack of pending ``Decision``s: the top one says who decides what, and the
    subclass supplies, for each kind ``k`` in ``DECISIONS``, ``_mask_k(d, mask)`` (mark the
    legal ids in a zeroed mask), ``_apply_k(d, action)`` and optionally ``_why_k(d, action)``
    (why an id is illegal, for the error message).
    """

    __slots__ = ("_decision_blocks", "_mask", "buf", "decisions", "game", "num_players", "rng",
                 "turn", "decision_kind", "decision_player", "turn_seat", "decision_data",
                 "decision_seat")
    FIELDS: ClassVar[tuple[str, ...]] = ()
    DECISIONS: ClassVar[tuple[DecisionKind, ...]] = ()
    # The game's render module: view(state, seat), render(state, seat) and legend().
    RENDER: ClassVar[Any] = None
    # The game's picture module (render_mode="rgb_array"): picture(view) -> uint8[H, W, 3] and
    # size(num_players) -> (width, height). None: the module ``picture`` beside RENDER, if any.
    PICTURE: ClassVar[Any] = None
    _BASE_FIELDS = ("decisions", "turn")

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if not cls.DECISIONS:
            return
        handlers = {}
        for prefix in ("_mask_", "_apply_", "_why_"):
            found = []
            for kind in cls.DECISIONS:
                fn = getattr(cls, prefix + kind.name, None)
                if fn is None and prefix != "_why_":
                    raise TypeError(f"{cls.__name__} declares decision {kind.name!r} but has no "
                                    f"{prefix}{kind.name} method")
                found.append(fn)
            handlers[prefix] = tuple(found)
        cls._MASKERS, cls._APPLIERS, cls._EXPLAINERS = (handlers["_mask_"], handlers["_apply_"],
                                                        handlers["_why_"])

    # --- construction -------------------------------------------------------------------
    @classmethod
    def new(cls, game: Game, rng: np.random.Generator):
        """Set up a new game (every shuffle drawn from ``rng``, which the state keeps)."""
        raise NotImplementedError

    @classmethod
    def _blank(cls, game: Game):
        self = object.__new__(cls)
        self.game = game
        self.num_players = game.num_players  # read everywhere in rules: a plain attribute
        self.buf = game.layout.new_buffer()
        self._bind()
        self._mask = None
        self.decisions = []
        self.turn = 0
        return self

    def _bind(self) -> None:
        buf, setattr_ = self.buf, object.__setattr__
        for name, part, shape in self.game.layout._view_specs:
            setattr_(self, name, buf[part] if shape is None else buf[part].reshape(shape))
        lo, hi = self.game._decision_region
        self._decision_blocks = self.buf[lo:hi]

    def clone(self):
        """A deep copy: playing on either never changes the other."""
        new = object.__new__(type(self))
        new.game = self.game
        new.num_players = self.num_players
        new.buf = self.buf.copy()
        new._bind()
        new.rng = rng_from_json(rng_to_json(self.rng))
        new._mask = None if self._mask is None else self._mask.copy()
        for f in self._BASE_FIELDS + self.FIELDS:
            object.__setattr__(new, f, deep_copy(getattr(self, f)))
        return new

    def edited(self) -> None:
        """Call after changing a state other than by ``apply`` (test positions, puzzles):
        drops what was cached and shows the pending decision again."""
        self._mask = None
        self._show_decision()

    def to_dict(self) -> dict:
        out = {"env_id": self.game.env_id, "config": dict(self.game.config),
               "buf": self.buf.tolist(), "rng": rng_to_json(self.rng)}
        for f in self._BASE_FIELDS + self.FIELDS:
            out[f] = to_json(getattr(self, f))
        return out

    @classmethod
    def from_dict(cls, game: Game, data: dict):
        if data.get("env_id") != game.env_id or data.get("config") != game.config:
            raise ValueError("state dict belongs to another game or configuration")
        self = cls._blank(game)
        self.buf[:] = np.asarray(data["buf"], dtype=game.layout.dtype)
        self.rng = rng_from_json(data["rng"])
        for f in self._BASE_FIELDS + cls.FIELDS:
            object.__setattr__(self, f, from_json(data[f]))
        self.decisions = [game.decision_entry(k, p, tuple(d))[0] for k, p, d in self.decisions]
        return self

    # --- the pending decisions ----------------------------------------------------------
    @property
    def current_player(self) -> int:
        """The seat that decides now (the top decision's), -1 when the game is over."""
        return self.decisions[-1].player if self.decisions else -1

    @property
    def turn_player(self) -> int:
        """Whose turn it is; another seat may be deciding (an interrupt, an answer)."""
        return self.turn

    @property
    def is_terminal(self) -> bool:
        return not self.decisions

    @property
    def decision(self) -> Decision | None:
        return self.decisions[-1] if self.decisions else None

    def decision_view(self) -> dict | None:
        """The pending decision as plain data: its kind's name, its player and what it
        carries, by the names its kind declares (None when the game is over)."""
        if not self.decisions:
            return None
        kind, player, data = self.decisions[-1]
        spec = self.DECISIONS[kind]
        return {"kind": spec.name, "player": player, "data": dict(zip(spec.names, data))}

    def decision_record(self) -> tuple | None:
        """The pending decision's data as its kind's ``record`` (fields by the names the
        kind declares; None when the game is over)."""
        if not self.decisions:
            return None
        kind, _, data = self.decisions[-1]
        return self.DECISIONS[kind].record._make(data)

    def decision_name(self) -> str | None:
        return self.DECISIONS[self.decisions[-1].kind].name if self.decisions else None

    def push(self, kind: int, player: int, *data: int) -> None:
        d, pattern = self.game.decision_entry(kind, player, data)
        self.decisions.append(d)
        self._mask = None
        self._decision_blocks[...] = pattern

    def pop(self) -> Decision:
        decisions = self.decisions
        d = decisions.pop()
        self._show(decisions[-1] if decisions else None)
        return d

    def replace(self, kind: int, player: int, *data: int) -> None:
        """Put a new decision in place of the top one."""
        d, pattern = self.game.decision_entry(kind, player, data)
        self.decisions[-1] = d
        self._mask = None
        self._decision_blocks[...] = pattern

    def set_turn(self, player: int) -> None:
        self.turn_seat[self.turn] = 0
        self.turn = player
        self.turn_seat[player] = 1

    def next_turn(self, kind: int, player: int, *data: int) -> None:
        """It is ``player``'s turn, and the top decision becomes theirs (``replace``)."""
        self.turn_seat[self.turn] = 0
        self.turn = player
        self.turn_seat[player] = 1
        d, pattern = self.game.decision_entry(kind, player, data)
        self.decisions[-1] = d
        self._mask = None
        self._decision_blocks[...] = pattern

    def end_game(self) -> None:
        self.decisions.clear()
        self.turn_seat[:] = 0
        self._show(None)

    def _show_decision(self) -> None:
        self._show(self.decisions[-1] if self.decisions else None)

    def _show(self, top: Decision | None) -> None:
        """``top`` is now the pending decision (None: the game is over): forget the mask and
        write the decision blocks. Runs at every change of decision, so the blocks' contents
        come whole from the game's cache of patterns and are copied with one numpy call."""
        self._mask = None
        pattern = self.game._decision_patterns.get(top)
        if pattern is None:
            pattern = self.game.decision_pattern(top)
        self._decision_blocks[...] = pattern

    # --- the common contract ------------------------------------------------------------
    def observation(self, seat: int) -> np.ndarray:
        """What ``seat`` may know as one float vector (seats rotated: ``seat`` first)."""
        return self.game.layout.observe(self.buf, seat)

    def global_state(self) -> np.ndarray:
        return self.buf.astype(np.float32)

    def legal_action_mask(self) -> np.ndarray:
        """int8 mask over the flat action ids for the current player; cached until the next
        change. All zeros when the game is over."""
        if self._mask is None:
            mask = np.zeros(self.game.num_actions, np.int8)
            if self.decisions:
                d = self.decisions[-1]
                self._MASKERS[d.kind](self, d, mask)
            self._mask = mask
        return self._mask

    def legal_actions(self) -> list[int]:
        return np.flatnonzero(self.legal_action_mask()).tolist()

    def apply(self, action) -> None:
        """Validate and apply one action of the current player; nothing changes when it is
        refused, and IllegalActionError names the action, the player and why."""
        if type(action) is not int:
            action = self._coerce_action(action)
        if not self.decisions:
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
        d = self.decisions[-1]
        self._APPLIERS[d.kind](self, d, action)

    @staticmethod
    def _coerce_action(action) -> int:
        """Python and numpy integers are actions; floats, bools and the rest are not."""
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise IllegalActionError(f"action must be an int, got {action!r}")
        return int(action)

    def _why_illegal(self, action: int) -> str:
        d = self.decisions[-1]
        explain = self._EXPLAINERS[d.kind]
        reason = explain(self, d, action) if explain is not None else None
        return reason or (f"the pending decision is {self.DECISIONS[d.kind].name!r} "
                          f"of player {d.player}")

    def describe_action(self, action: int, observer: int | None) -> str:
        """The current player's ``action`` as ``observer`` may read it (before it is
        applied): its full name for the actor and the referee (``None``), otherwise with
        whatever ``observer`` may not know left out."""
        if observer is None or observer == self.current_player:
            return self.game.action_to_string(action)
        return self._describe_for_others(int(action))

    def _describe_for_others(self, action: int) -> str:
        """A game whose actions may hide something overrides this."""
        return self.game.action_to_string(action)

    # --- words for people: what is asked, what happened ---------------------------------------
    def prompt(self, observer: int | None = None) -> str | None:
        """The pending decision as a sentence a player understands ("P0 drew a magic potion:
        keep it, leave it on the tile or trade it with the fairy"), naming every object it is
        about as ``observer`` may know it (``None``: the referee); None once the game is over.
        A game writes it as ``prompt(state, observer)`` in its RENDER module."""
        if not self.decisions:
            return None
        write = getattr(self.RENDER, "prompt", None)
        if write is not None:
            return write(self, observer)
        d = self.decisions[-1]
        return f"P{d.player} to decide: {self.DECISIONS[d.kind].name.replace('_', ' ')}"

    def narrate(self, before: BufferState, action: int, observer: int | None = None) -> str:
        """One log line for ``action``, which took ``before`` to this state: the move as
        ``observer`` may read it, then what it did as ``observer`` may know it (coins, cards,
        fights...; a game writes these as ``consequences(before, after, observer)`` -> list of
        phrases in its RENDER module). ``before`` is a ``clone()`` taken before the step."""
        text = before.describe_action(action, observer)
        write = getattr(self.RENDER, "consequences", None)
        if write is None:
            return text
        more = write(before, self, observer)
        return f"{text}: {'; '.join(more)}" if more else text

    # --- results: the game owns them ----------------------------------------------------
    def ranks(self) -> list[int]:
        """Each seat's place (1 = a winner), with the game's own tie-breaks; the one source
        of winners, rewards, infos and evaluation. Meaningful at any time, final at the end."""
        raise NotImplementedError

    def scores(self) -> list[dict] | None:
        """Per seat, the points with their breakdown and ``total`` (games with points only)."""
        return None

    # A game that can say how far a seat has come toward winning declares it here; training may
    # then shape its reward by it (``has_potential`` tells whether a game does).
    def potential(self, seat: int) -> float:
        """How far ``seat`` has come toward winning, about 0 at the start and 1 when it is about
        to win, for potential-based reward shaping (Ng, Harada and Russell 1999: adding
        gamma * potential(next) - potential(now) to each reward leaves the best policies as
        they are). Only the trainer reads it; it never enters a result or a reward mode."""
        raise NotImplementedError(f"{self.game.env_id} declares no potential for reward shaping")

    @classmethod
    def has_potential(cls) -> bool:
        return cls.potential is not BufferState.potential

    def breakdown(self) -> list[dict]:
        """Per seat, what decided the result (points by category, or the game's progress)."""
        return self.scores()

    def totals(self) -> list[int] | None:
        scores = self.scores()
        return None if scores is None else [s["total"] for s in scores]

    def result(self) -> Result:
        """Ranks, totals and breakdown together, each computed once."""
        breakdown = self.breakdown()
        totals = [b["total"] for b in breakdown] if self.game.traits.has_scores else None
        return Result(self.ranks(), totals, breakdown)

    def returns(self, mode: str = "win") -> list[float]:
        traits = self.game.traits
        if mode not in traits.reward_modes:
            raise ValueError(f"{self.game.env_id} has no reward mode {mode!r}; expected one of "
                             f"{traits.reward_modes}")
        if self.decisions:
            return [0.0] * self.num_players
        return self.result().returns(mode, traits.score_scale)

    # --- what a seat may know -----------------------------------------------------------
    def view(self, seat: int | None) -> dict:
        """What ``seat`` may know as plain Python data, indexed as the game's data is (names
        are for ``render``); ``seat=None`` is the referee's view of everything."""
        return self._render_module().view(self, seat)

    def reading(self, seat: int):
        """What ``seat`` may know as the game's light typed record for scripted agents
        (``reading(state, seat)`` in its RENDER module): the facts of ``view(seat)`` without
        the nested dicts, which cost a scripted agent as much as its decision."""
        read = getattr(self._render_module(), "reading", None)
        if read is None:
            raise NotImplementedError(f"{type(self).__name__}'s RENDER module gives no reading")
        return read(self, seat)

    def render(self, seat: int | None = None) -> str:
        """A text picture of ``view(seat)``."""
        return self._render_module().render(self, seat)

    def render_rich(self, seat: int | None = None):
        """The text picture of ``view(seat)`` as a ``rich`` renderable (colour and Unicode,
        for a terminal that has them), when the game draws one (``render_rich(state, seat)``
        in its RENDER module); None otherwise, and ``render`` is the text."""
        draw = getattr(self.RENDER, "render_rich", None)
        return None if draw is None else draw(self, seat)

    def render_legend(self) -> str | None:
        """What the abbreviations and symbols of ``render``'s text mean (None: no legend)."""
        legend = getattr(self.RENDER, "legend", None)
        return legend() if legend is not None else None

    def picture(self, seat: int | None = None) -> np.ndarray:
        """An H x W x 3 uint8 image of ``view(seat)`` (``seat=None``: the referee's), drawn
        from the view alone, so it shows exactly what the text does not hide."""
        return self.picture_module().picture(self.view(seat))

    def picture_shape(self) -> tuple[int, int, int]:
        """The shape of every ``picture`` of this game configuration."""
        width, height = self.picture_module().size(self.num_players)
        return (height, width, 3)

    @classmethod
    def has_picture(cls) -> bool:
        return _picture_module(cls) is not None

    @classmethod
    def picture_module(cls):
        module = _picture_module(cls)
        if module is None:
            raise NotImplementedError(
                f"{cls.__name__} has no picture: render_mode='rgb_array' needs a PICTURE module "
                "(or a module named 'picture' beside its RENDER module) with picture(view) and "
                "size(num_players)")
        return module

    def _render_module(self):
        if self.RENDER is None:
            raise NotImplementedError(f"{type(self).__name__} declares no RENDER module and "
                                      "does not define view/render itself")
        return self.RENDER

    def _resampled(self, rng: np.random.Generator):
        """The end of every ``resample_hidden``: the determinization gets its own chance
        (future draws are hidden too) and drops what it cached."""
        self.rng = np.random.Generator(np.random.PCG64(rng.integers(2**63)))
        self.edited()
        return self

    def resample_hidden(self, seat: int, rng: np.random.Generator):
        """A state ``seat`` cannot tell from this one (a determinization for search): what it
        cannot see is redrawn consistently with everything it has observed."""
        raise NotImplementedError
