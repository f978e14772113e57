"""States whose rules run in C++ (a game's ``native/`` engine) behind the same contract.

A game's native module binds its C++ state class (``<game>/native/module.cpp``); the game's
Python class derives from it and from ``NativeState``, which supplies what the contract
asks of every state on top of the C++ primitives, so views, text, pictures, agents,
records and the env read a native state as they read a Python one:

- the C++ class gives the hot path directly (no Python frame in between): ``apply`` (the
  same validation and error texts), ``legal_action_mask``, ``observation``,
  ``global_state``, ``current_player``, ``is_terminal``, ``turn``, ``buf`` (the int16
  buffer of the same layout, as a numpy array over the C++ memory, no copy);
- this class gives the blocks as numpy views of ``buf`` by name (``state.hand[p, k]``
  reads and writes the C++ state), ``decisions`` as ``Decision`` tuples, ``rng`` as a
  numpy Generator (a copy: drawing from it does not move the state's own), the game's
  fields as the Python engine holds them (each game's class declares them as properties),
  ``clone``, ``to_dict`` / ``from_dict`` (the same JSON as the Python engine's, written by
  the same ``to_json``), ``new`` and ``resample_hidden``.

Everything that comes from Python into a native state is checked before the rules read it:
``from_dict`` checks the buffer against the layout's declared ranges, the game's
``check_fields`` (C++) checks every field the rules index by, and the game's Python checks
(``check_consistent``) what must add up.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from .decisions import Decision, DecisionKind, _decision
from .errors import IllegalActionError
from .game import Game
from .plain import to_json
from .rng import make_rng, rng_to_json
from .state import BufferState, GameState
from .state_checks import LoadedState, check_blocks_bound, read_state_dict

__all__ = ["NativeState", "action_blocks", "coerce_action", "decision_specs", "load_engine"]

# Seeds up to this are hashed into PCG64's state in C++ (SeedSequence, as numpy does);
# larger ones go through numpy.
_NATIVE_SEED_LIMIT = 2**64


def coerce_action(action: Any) -> int:
    """An action as every engine takes it: Python and numpy integers, never bools or floats
    (the native binding calls this for anything but a plain int)."""
    return BufferState._coerce_action(action)


def _rng_words(rng: np.random.Generator) -> tuple[int, int, int, int, bool, int]:
    """A numpy PCG64 generator's state as the native engines take it: 128-bit values in
    64-bit halves."""
    state = rng.bit_generator.state
    if state["bit_generator"] != "PCG64":
        raise ValueError(f"native engines draw with PCG64, not {state['bit_generator']}")
    s, inc = state["state"]["state"], state["state"]["inc"]
    mask = 2**64 - 1
    return (s >> 64, s & mask, inc >> 64, inc & mask, bool(state["has_uint32"]), int(state["uinteger"]))


def _set_rng_words(rng: np.random.Generator, words: tuple) -> None:
    s_hi, s_lo, i_hi, i_lo, has32, uinteger = words
    rng.bit_generator.state = {"bit_generator": "PCG64",
                               "state": {"state": (s_hi << 64) | s_lo, "inc": (i_hi << 64) | i_lo},
                               "has_uint32": int(has32), "uinteger": int(uinteger)}


def _generator(words: tuple) -> np.random.Generator:
    rng = np.random.Generator(np.random.PCG64())
    _set_rng_words(rng, words)
    return rng


def load_engine(package: str) -> tuple[Any, bool, str]:
    """A game's native module ``<package>._engine``, as (the module or None, AVAILABLE,
    UNAVAILABLE_BECAUSE): None with the reason when the extension was not built (no
    compiler, ``FOREST_ENVS_NATIVE=OFF``), and the Python engine then plays."""
    try:
        return importlib.import_module(f"{package}._engine"), True, ""
    except ImportError as err:
        return None, False, f"the extension {package}._engine is missing ({err})"


class NativeState:
    """The engine contract over a C++ state (see the module docstring). A game's class is
    ``class NativeMyState(NativeState, _engine.State, MyFacts, GameState)``: the C++ class
    before the game's read-only facts and ``GameState`` (the contract's generic readers), so
    that its apply, mask and observations are the ones that run. It declares ``ENGINE``
    (its bound module), ``DECISIONS`` and ``ACTION_SPACE`` (the tables' decision kinds and
    action blocks), ``native_config`` (its C++ Config of a configuration), and ``FIELDS``
    (as the Python state does) with a property for each."""

    FIELDS: ClassVar[tuple[str, ...]] = ()
    # The game's bound module (<game>/native/module.cpp: State, Tables, Config, Batch).
    ENGINE: ClassVar[Any] = None
    # The game's action space (actions.SPACE), whose blocks the C++ tables look up by name.
    ACTION_SPACE: ClassVar[Any] = None
    # The bound Batch of the game's module (core/native/batch_binding.hpp), which
    # forest_envs.make_vec steps; taken from ENGINE, None while a game's module binds none.
    BATCH: ClassVar[Any] = None
    engine: ClassVar[str] = "native"
    # Declared for a type checker only (no value here: lookup goes on along the game class's
    # MRO). ``game`` and ``num_players`` are set by ``_blank`` and ``clone``; ``DECISIONS``
    # is the game's, ``check_fields`` its facts' (the Python checks of a state dict's fields).
    game: Game
    num_players: int
    DECISIONS: ClassVar[tuple[DecisionKind, ...]]
    if TYPE_CHECKING:
        @classmethod
        def check_fields(cls, game: Game, loaded: LoadedState) -> None: ...

        def check_consistent(self) -> None: ...

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        if cls.ENGINE is not None and "BATCH" not in vars(cls):
            cls.BATCH = getattr(cls.ENGINE, "Batch", None)

    # --- construction ---------------------------------------------------------------------
    @classmethod
    def _blank(cls, game):
        """A state of ``game``'s configuration with nothing set up (all zeros)."""
        self = cls.__new__(cls)
        cls._native_base().__init__(self, cls.native_tables(game))
        self.game = game
        self.num_players = game.num_players
        return self

    @classmethod
    def _native_base(cls) -> Any:
        """The bound C++ class this Python class derives from (Any: the engines have no
        stubs)."""
        return cls.ENGINE.State

    @classmethod
    def native_tables(cls, game):
        """The C++ tables of ``game``'s configuration, built once per Game object."""
        tables = getattr(game, "_native_tables", None)
        if tables is None:
            tables = cls._build_tables(game)
            game._native_tables = tables
        return tables

    @classmethod
    def _build_tables(cls, game):
        return cls.ENGINE.Tables(game.layout.native_tables(), list(game.action_names),
                                 decision_specs(cls.DECISIONS), cls.native_config(game),
                                 action_blocks(cls.ACTION_SPACE))

    @staticmethod
    def native_config(game):
        """The game's C++ Config of ``game``'s configuration (the Python Game: one source)."""
        raise NotImplementedError

    @classmethod
    def new(cls, game, rng: np.random.Generator):
        """A new game drawn from ``rng`` (as the Python engine's ``new``: the same draws)."""
        self = cls._blank(game)
        self._setup_from_rng(*_rng_words(rng))
        return self

    @classmethod
    def new_from_seed(cls, game, seed: int | None):
        """``new(game, make_rng(seed))`` without building the numpy generator: the seed is
        hashed in C++ as numpy's SeedSequence hashes it."""
        if seed is None or not isinstance(seed, (int, np.integer)) or isinstance(seed, bool) \
                or not 0 <= seed < _NATIVE_SEED_LIMIT:
            return cls.new(game, make_rng(seed))
        self = cls._blank(game)
        self._setup(int(seed))
        return self

    def clone(self):
        """A deep copy: playing on either never changes the other."""
        cls = type(self)
        new = cls.__new__(cls)
        cls._native_base().__init__(new, self)
        new.game = self.game
        new.num_players = self.num_players
        return new

    # --- blocks, decisions, generator -------------------------------------------------------
    def edited(self) -> None:
        """As the Python engine's ``edited``: a block attribute that was replaced instead of
        written into is refused, then the C++ state drops its caches."""
        check_blocks_bound(self)
        # the bound C++ class's: it follows NativeState in every game class's MRO (see the
        # class docstring), which the type checker, reading NativeState alone, cannot see
        super().edited()  # type: ignore[misc]

    def __getattr__(self, name: str):
        # Only called when normal lookup fails: a block's numpy view over the C++ buffer, made
        # on first use and kept (the view holds the buffer, not the state: no cycle).
        spec = self.game.layout._view_by_name.get(name) if name != "game" else None
        if spec is None:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        part, shape = spec
        view = self.buf[part] if shape is None else self.buf[part].reshape(shape)
        self.__dict__[name] = view
        return view

    @property
    def decisions(self) -> list[Decision]:
        return [_decision((k, p, d)) for k, p, d in self._decisions()]

    @decisions.setter
    def decisions(self, value) -> None:
        self._set_decisions([(int(k), int(p), [int(x) for x in d]) for k, p, d in value])

    @property
    def rng(self) -> np.random.Generator:
        """A copy of the state's generator (drawing from it leaves the state's own alone)."""
        return _generator(self._rng_state())

    @rng.setter
    def rng(self, rng: np.random.Generator) -> None:
        self._set_rng_state(*_rng_words(rng))

    # --- the JSON round trip (the same dict as the Python engine's) -----------------------------
    def to_dict(self) -> dict:
        out = {"env_id": self.game.env_id, "config": dict(self.game.config),
               "buf": self.buf.tolist(), "rng": rng_to_json(self.rng),
               "decisions": to_json(self.decisions), "turn": self.turn}
        for f in self.FIELDS:
            out[f] = to_json(getattr(self, f))
        return out

    @classmethod
    def from_dict(cls, game, data: dict):
        """The state ``to_dict`` wrote, checked as the Python engine checks it
        (core/state_checks.py, then the game's ``check_fields``), then by the C++ engine
        for everything its rules index by, then the game's ``check_consistent``."""
        loaded = read_state_dict(game, data, cls.FIELDS)
        cls.check_fields(game, loaded)
        self = cls._blank(game)
        self._set_buf(loaded.buf.tolist())
        self.rng = loaded.rng
        self.decisions = loaded.decisions
        self._set_turn_field(loaded.turn)
        for f, value in loaded.fields.items():
            setattr(self, f, value)
        self._check_fields()
        self.edited()
        self.check_consistent()
        return self

    # --- hidden information -----------------------------------------------------------------
    def resample_hidden(self, seat: int, rng: np.random.Generator):
        """A determinization (the Python engine's, draw for draw: ``rng`` advances as it
        would there)."""
        new = self.clone()
        _set_rng_words(rng, new._resample_in_place(int(seat), *_rng_words(rng)))
        return new


def decision_specs(kinds) -> list[tuple]:
    """(name, ints, seats, [largest int]) of each decision kind, in DECISIONS order, as a
    game's native Tables take them."""
    return [(k.name, len(k.ints), len(k.seats), [high for _, high in k.ints]) for k in kinds]


def action_blocks(space) -> dict[str, list[int]]:
    """Each named action block's first id and shape, as a game's native Tables take them."""
    return {b.name: [b.start, *b.shape] for b in space.blocks.values()}


def check_native_contract(cls: type[NativeState]) -> None:
    """A native state class must take the C++ methods it relies on from the native engine
    (its MRO puts the bound class's apply before any Python fallback) and read the rest as
    every state does (``GameState``)."""
    if not issubclass(cls, GameState):
        raise TypeError(f"{cls.__name__} must derive from GameState, after the native engine's class")
    for name in ("apply", "legal_action_mask", "observation", "global_state"):
        owner = next(k for k in cls.__mro__ if name in vars(k))
        if owner.__module__ != cls._native_base().__module__:
            raise TypeError(f"{cls.__name__}.{name} comes from {owner.__qualname__}, not the native engine")


__all__ += ["check_native_contract", "IllegalActionError"]
