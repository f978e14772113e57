"""A state: one play of a game (OpenSpiel's State), in two classes.

``GameState`` is the engine contract as the layers above the engines read it: the methods an
engine implements, and everything derived by reading ``game``, ``decisions``, ``turn`` and
``buf``; it never writes. ``BufferState(GameState)`` is the Python engine: the buffer with a
numpy view per block, the plain-data ``FIELDS``, the decision stack, the per-kind dispatch,
validation, cloning and the JSON round trip. A compiled engine subclasses ``GameState`` and
supplies the same attributes, so views, text, pictures and agents read it alike.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np

from .decisions import Decision, DecisionKind, DecisionRecord, Handlers, dispatch_tables
from .errors import IllegalActionError
from .game import Game
from .plain import deep_copy, to_json
from .presentation import Presentation, SeatPresentation
from .results import Result
from .rng import rng_from_json, rng_to_json
from .state_checks import check_blocks_bound, read_state_dict


class GameState(SeatPresentation):
    """One play of a game, as every layer above the engines reads it (the engine contract).

    An engine's state supplies ``game`` (its configuration), ``num_players``, ``decisions``
    (the stack of pending ``Decision``s, top last), ``turn`` (whose turn it is) and ``buf``
    (every number a seat may observe, in the blocks of the game's layout, each also an
    attribute of the state), and implements the methods that raise NotImplementedError here.
    Everything else below only reads those: whose decision it is, the pending decision by
    name, results and rewards, what a seat may read of an action, its view, text and
    pictures. ``BufferState`` is the Python engine.
    """

    __slots__ = ()
    game: Game
    num_players: int
    decisions: list[Decision]
    turn: int
    buf: np.ndarray
    DECISIONS: ClassVar[tuple[DecisionKind, ...]] = ()
    # The game's presentation module (its text package, checked against presentation's
    # Presentation); None: the state defines view and render itself (a bare test game).
    RENDER: ClassVar[Presentation | None] = None
    # The game's picture module (render_mode="rgb_array"): picture(view) -> uint8[H, W, 3] and
    # size(num_players) -> (width, height). None: the module ``picture`` beside RENDER, if any.
    PICTURE: ClassVar[Any] = None

    # --- what every engine implements ---------------------------------------------------
    @classmethod
    def new(cls, game: Game, rng: np.random.Generator):
        """Set up a new game (every shuffle drawn from ``rng``, which the state keeps)."""
        raise NotImplementedError

    def legal_action_mask(self) -> np.ndarray:
        """int8 mask over the flat action ids for the current player; cached until the next
        change. All zeros when the game is over."""
        raise NotImplementedError

    def apply(self, action) -> None:
        """Validate and apply one action of the current player; nothing changes when it is
        refused, and IllegalActionError names the action, the player and why."""
        raise NotImplementedError

    def observation(self, seat: int) -> np.ndarray:
        """What ``seat`` may know as one float vector (seats rotated: ``seat`` first)."""
        raise NotImplementedError

    def global_state(self) -> np.ndarray:
        """The whole buffer as floats: every number of every seat, unscaled."""
        raise NotImplementedError

    def clone(self):
        """A deep copy: playing on either never changes the other."""
        raise NotImplementedError

    def to_dict(self) -> dict:
        """The full state as JSON-able data (``from_dict`` reads it back)."""
        raise NotImplementedError

    @classmethod
    def from_dict(cls, game: Game, data: dict):
        """The state ``to_dict`` wrote, for ``game`` (refused for another configuration)."""
        raise NotImplementedError

    def resample_hidden(self, seat: int, rng: np.random.Generator):
        """A state ``seat`` cannot tell from this one (a determinization for search): what it
        cannot see is redrawn consistently with everything it has observed."""
        raise NotImplementedError

    # --- what a state dict must satisfy (core/state_checks.py) ----------------------------
    @classmethod
    def check_fields(cls, game: Game, loaded) -> None:
        """Refuse (ValueError naming the field) a state dict's fields that no state of
        ``game`` can hold, with its decisions (``loaded``: core/state_checks.LoadedState);
        every engine's ``from_dict`` calls it before using them."""

    def check_consistent(self) -> None:
        """Refuse (ValueError) a loaded state whose parts do not add up (cards, coins...);
        every engine's ``from_dict`` calls it last."""

    def ranks(self) -> list[int]:
        """Each seat's place (1 = a winner), with the game's own tie-breaks; the one source
        of winners, rewards, infos and evaluation. Meaningful at any time, final at the end."""
        raise NotImplementedError

    def scores(self) -> list[dict] | None:
        """Per seat, the points with their breakdown and ``total`` (games with points only)."""
        return None

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
        stack = self.decisions  # read once: a native state builds the list at every read
        return stack[-1] if stack else None

    def decision_view(self) -> dict | None:
        """The pending decision as plain data: its kind's name, its player and what it
        carries, by the names its kind declares (None when the game is over)."""
        top = self.decision
        if top is None:
            return None
        kind, player, data = top
        spec = self.DECISIONS[kind]
        return {"kind": spec.name, "player": player, "data": dict(zip(spec.names, data))}

    def decision_record(self) -> DecisionRecord | None:
        """The pending decision's data as its kind's ``record`` (fields by the names the
        kind declares; None when the game is over)."""
        top = self.decision
        if top is None:
            return None
        kind, _, data = top
        return self.DECISIONS[kind].record._make(data)

    def decision_name(self) -> str | None:
        top = self.decision
        return None if top is None else self.DECISIONS[top.kind].name

    def legal_actions(self) -> list[int]:
        return np.flatnonzero(self.legal_action_mask()).tolist()

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
        if self.RENDER is not None:
            return self.RENDER.prompt(self, observer)
        d = self.decisions[-1]
        return f"P{d.player} to decide: {self.DECISIONS[d.kind].name.replace('_', ' ')}"

    def narrate(self, before: GameState, action: int, observer: int | None = None,
                move: str | None = None) -> str:
        """One log line for ``action``, which took ``before`` to this state: the move as
        ``observer`` may read it, then what it did as ``observer`` may know it (coins, cards,
        fights...; a game writes these as ``consequences(before, action, after, observer)`` ->
        list of phrases in its RENDER module). ``before`` is a ``clone()`` taken before the step.
        ``move``: the move's words when the reader chose it from a list that named it so
        (``before.move_label``; ``forest-envs play``), instead of ``describe_action``'s."""
        text = before.describe_action(action, observer) if move is None else move
        if self.RENDER is None:
            return text
        more = self.RENDER.consequences(before, action, self, observer)
        return f"{text}: {'; '.join(more)}" if more else text

    # --- results: the game owns them ----------------------------------------------------
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
        return cls.potential is not GameState.potential

    def breakdown(self) -> list[dict]:
        """Per seat, what decided the result (points by category, or the game's progress)."""
        scores = self.scores()
        if scores is None:
            raise NotImplementedError(f"{self.game.env_id} counts no points: its state gives "
                                      "breakdown() (the game's progress by seat)")
        return scores

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

class BufferState(GameState):
    """The Python engine's state: the base of every game's state class.

    Numbers a seat may observe live in ``buf`` (see ``Layout``), exposed as one numpy view
    attribute per block; everything else lives in the plain-data fields a subclass lists in
    ``FIELDS`` (nested lists, tuples, dicts, small numpy arrays: see ``plain.py``). Play is
    driven by a stack of pending ``Decision``s: the top one says who decides what, and the
    subclass's ``HANDLERS`` table gives, for each kind of ``DECISIONS``, its ``Handlers``:
    the mask, the apply and optionally the why-illegal function (``decisions.py``).
    """

    __slots__ = ("_decision_blocks", "_mask", "buf", "decisions", "game", "num_players", "rng",
                 "turn", "decision_kind", "decision_player", "turn_seat", "decision_data",
                 "decision_seat")
    FIELDS: ClassVar[tuple[str, ...]] = ()
    HANDLERS: ClassVar[Mapping[Any, Handlers]]  # the game's Kind -> its handlers
    # Built from HANDLERS by ``__init_subclass__`` (``decisions.dispatch_tables``).
    _MASKERS: ClassVar[tuple]
    _APPLIERS: ClassVar[tuple]
    _EXPLAINERS: ClassVar[tuple]
    rng: np.random.Generator
    turn_seat: np.ndarray        # the decision blocks' "whose turn" (``decisions.py``)
    _mask: np.ndarray | None     # the legal action mask, until the state changes
    _decision_blocks: np.ndarray  # the buffer's decision region, written whole
    _BASE_FIELDS = ("decisions", "turn")

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if "HANDLERS" in cls.__dict__:
            cls._MASKERS, cls._APPLIERS, cls._EXPLAINERS = dispatch_tables(
                cls.__name__, cls.DECISIONS, cls.HANDLERS)
        elif cls.DECISIONS and not hasattr(cls, "_MASKERS"):
            raise TypeError(f"{cls.__name__} declares DECISIONS but no HANDLERS table "
                            "(its Kind -> Handlers(mask, apply, why))")

    # --- construction -------------------------------------------------------------------
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
        drops what was cached and shows the pending decision again (and refuses a block
        attribute that was replaced instead of written into)."""
        check_blocks_bound(self)
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
        """The state ``to_dict`` wrote, checked first (core/state_checks.py: a ValueError
        names what no state of ``game`` can hold)."""
        loaded = read_state_dict(game, data, cls.FIELDS)
        cls.check_fields(game, loaded)
        self = cls._blank(game)
        self.buf[:] = loaded.buf
        self.rng = loaded.rng
        self.decisions = [game.decision_entry(k, p, d)[0] for k, p, d in loaded.decisions]
        self.turn = loaded.turn
        for f, value in loaded.fields.items():
            object.__setattr__(self, f, value)
        self.check_consistent()
        return self

    # --- the decision stack ----------------------------------------------------------------
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

    # --- the contract, in the buffer --------------------------------------------------------
    def observation(self, seat: int) -> np.ndarray:
        return self.game.layout.observe(self.buf, seat)

    def global_state(self) -> np.ndarray:
        return self.buf.astype(np.float32)

    def legal_action_mask(self) -> np.ndarray:
        if self._mask is None:
            mask = np.zeros(self.game.num_actions, np.int8)
            if self.decisions:
                d = self.decisions[-1]
                self._MASKERS[d.kind](self, d, mask)
            self._mask = mask
        return self._mask

    def apply(self, action) -> None:
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

    def _resampled(self, rng: np.random.Generator):
        """The end of every ``resample_hidden``: the determinization gets its own chance
        (future draws are hidden too) and drops what it cached."""
        self.rng = np.random.Generator(np.random.PCG64(rng.integers(2**63)))
        self.edited()
        return self
