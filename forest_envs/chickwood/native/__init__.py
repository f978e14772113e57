"""Chickwood Forest's native engine: the C++ rules (this folder's .cpp files, one per rulebook
phase as in the Python rules) under the same state contract.

``NativeChickwoodState`` derives from the bound C++ state (``_engine.State``: apply, the
mask, observations, results, the determinization), from ``NativeState`` and from what the
Python ``ChickwoodState`` shares with it: ``ChickwoodFacts`` (the declared blocks and fields,
and the helpers that only read them) and ``GameState`` (the contract's generic readers:
views, text, pictures, results). The fields are properties over the C++ ones, in the Python
engine's types.
``AVAILABLE`` is False, with ``UNAVAILABLE_BECAUSE`` saying why, when the extension was not
built (no compiler, ``FOREST_ENVS_NATIVE=OFF``); the Python engine then plays.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ...core.native_state import NativeState, check_native_contract, load_engine
from ...core.state import GameState
from .. import actions as A
from ..components import (
    CASTLE_CARDS,
    KIND_NAMES,
    MAX_CASTLE,
    VILLAGES,
    village_cards,
)
from ..observation import ABSENT_CELL, DECISIONS, FOREST_CELL
from ..rules import ChickwoodState, SecretDiscard
from ..rules.facts import ChickwoodFacts

if TYPE_CHECKING:
    from ..rules.game import ChickwoodGame

_engine, AVAILABLE, UNAVAILABLE_BECAUSE = load_engine(__name__)


def native_config(game) -> Any:  # the bound _engine.Config
    """What one configuration fixes, from the Python ChickwoodGame (the one source)."""
    c = _engine.Config()
    c.num_players = game.num_players
    c.legendary = bool(game.legendary)
    c.hand_size = int(game.hand_size)
    c.composition = [int(x) for x in game.composition]
    c.castle_values = [int(v) for v in game.castle_values]
    c.capacity = [int(x) for x in game.capacity]
    c.banner = [list(game.banner.get(v, ())) for v in range(1, MAX_CASTLE + 1)]
    c.pile_cards = [CASTLE_CARDS.get(v, 0) for v in range(1, MAX_CASTLE + 1)]
    c.village_cards = list(village_cards(game.num_players))
    c.village_spaces = [[spaces for spaces, _ in v.rows] for v in VILLAGES]
    c.village_glory = [[-1 if glory is None else glory for _, glory in v.rows] for v in VILLAGES]
    c.adjacent = game.adjacent.astype(int).tolist()
    c.kind_names = list(KIND_NAMES)
    c.forest_cell, c.absent_cell = FOREST_CELL, ABSENT_CELL
    return c


if _engine is not None:
    # The bound C++ class, by a name a type checker reads as a base class (Any: the engines
    # have no stubs).
    _EngineState: Any = _engine.State

    class NativeChickwoodState(NativeState, _EngineState, ChickwoodFacts, GameState):
        """One play of Chickwood Forest whose rules run in C++ (see the module docstring)."""

        if TYPE_CHECKING:  # this game's class, where NativeState and GameState have the base's
            game: ChickwoodGame

        ENGINE = _engine
        DECISIONS = DECISIONS
        ACTION_SPACE = A.SPACE
        native_config = staticmethod(native_config)
        RENDER = ChickwoodState.RENDER
        FIELDS = ChickwoodState.FIELDS
        # Two of the Python engine's writers, which write through the fields' setters and the
        # blocks' views (set-up positions in tests).
        lay_grid = ChickwoodState.lay_grid
        _show_discards = ChickwoodState._show_discards

        # --- the fields, in the Python engine's types -------------------------------------
        @property
        def deck(self) -> np.ndarray:
            return np.array(self._deck(), dtype=np.int8)

        @deck.setter
        def deck(self, value) -> None:
            self._set_deck([int(k) for k in value])

        @property
        def order(self) -> tuple[int, ...]:
            return tuple(self._order())

        @order.setter
        def order(self, value) -> None:
            self._set_order([int(p) for p in value])

        @property
        def end_stages(self) -> tuple[int, ...]:
            return tuple(self._end_stages())

        @end_stages.setter
        def end_stages(self, value) -> None:
            self._set_end_stages([int(s) for s in value])

        @property
        def discard_fd(self) -> list[SecretDiscard]:
            return [SecretDiscard(k, o, s) for k, o, s in self._discard_fd()]

        @discard_fd.setter
        def discard_fd(self, value) -> None:
            self._set_discard_fd([(int(c.kind), int(c.owner), int(c.spied_by)) for c in value])

        @property
        def grid(self) -> tuple[int, ...]:
            return tuple(self._grid())

        @grid.setter
        def grid(self, value) -> None:
            self._set_grid([int(g) for g in value])

        @property
        def raids(self) -> list[list[int]]:
            return self._raids()

        @raids.setter
        def raids(self, value) -> None:
            self._set_raids([[int(v) for v in r] for r in value])

        # --- results ------------------------------------------------------------------
        def scores(self) -> list[dict]:
            """Per-player glory with its breakdown, computed in C++ (the same dicts as the
            Python state's ``scores``)."""
            out = []
            for busts, chests, garments, jewelry, maid, henchmen, castles, villages, glory, total \
                    in self._scores():
                village_glory = {A.cell_name(cell): g for cell, g in enumerate(glory)
                                 if self.grid[cell] >= 0}
                out.append({"busts": busts, "chests": chests, "garments": garments,
                            "jewelry": jewelry, "maid": maid, "henchmen": henchmen,
                            "castles": castles, "villages": villages,
                            "village_glory": village_glory, "total": total})
            return out

    check_native_contract(NativeChickwoodState)
else:
    # No engine built: the Python engine plays. (A class statement's name cannot be declared
    # "a class or None" to a type checker; Game.native_state_class is typed so.)
    NativeChickwoodState = None  # type: ignore[misc,assignment]
