"""Roundforest's native engine: the C++ rules (this folder's .cpp files, one per module of the
Python rules) under the same state contract.

``NativeRoundforestState`` derives from the bound C++ state (``_engine.State``: apply, the
mask, observations, ranks, the determinization), from ``NativeState`` and from what the
Python ``RoundforestState`` shares with it: ``RoundforestFacts`` (the declared blocks and
fields, and the helpers that only read them: ``fits``, ``qualified``, ``progress`` ...) and
``GameState`` (the contract's generic readers: views, text, pictures, results). The fields ``pos`` and ``pile`` are properties
over the C++ ones, in the Python engine's types. The ``near_*`` blocks are written in C++
whenever the buffer is read whole (an observation, the global state, ``to_dict``), as the
Python state writes them.
``AVAILABLE`` is False, with ``UNAVAILABLE_BECAUSE`` saying why, when the extension was not
built (no compiler, ``FOREST_ENVS_NATIVE=OFF``); the Python engine then plays.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.native_state import NativeState, check_native_contract, load_engine
from ...core.state import GameState
from .. import actions as A
from ..components import (
    CHARACTER_NAMES,
    CHARACTERS,
    CHIPS,
    HELPFUL,
    NUM_CELLS,
    TILES,
    cell_name,
)
from ..observation import DECISIONS
from ..rules import RoundforestState
from ..rules.bags import CHIP_ORDER, BagRules
from ..rules.distances import NEAR
from ..rules.facts import RoundforestFacts

if TYPE_CHECKING:
    from ..rules.game import RoundforestGame

_engine, AVAILABLE, UNAVAILABLE_BECAUSE = load_engine(__name__)


def _task(task) -> tuple | None:
    if task is None:
        return None
    return (list(task.give), list(task.need), list(task.without), task.copper, task.silver,
            task.reward_item, task.apples)


def native_config(game) -> Any:  # the bound _engine.Config
    """What one configuration fixes, from the Python RoundforestGame (the one source)."""
    c = _engine.Config()
    c.num_players = game.num_players
    c.no_silver = bool(game.no_silver)
    c.blockade = bool(game.blockade)
    c.grid = game.grid
    c.tile_cells = list(game.tile_cells)
    c.well_cells = list(game.well_cells)
    c.plain_cells = list(game.plain_cells)
    c.corner = list(game.corner)
    c.starts = [list(s) for s in game.starts]
    c.gap_cells = [list(game.gap_cells.get(g, ())) for g in range(len(game.gap_usable))]
    c.items = list(game.items)
    c.chips = [CHIPS[chip] for chip in CHIP_ORDER]
    c.tile_turn = [t.turn for t in TILES]
    c.tile_inner = [[int(x) for x in t.inner] for t in TILES]
    c.tile_outer = [[int(x) for x in t.outer] for t in TILES]
    c.near = list(NEAR)
    c.cell_names = [cell_name(cell) for cell in range(NUM_CELLS)]
    c.character_names = list(CHARACTER_NAMES)
    c.set_characters([(ch.kind == HELPFUL, _task(ch.upper), _task(ch.lower)) for ch in CHARACTERS])
    return c


if _engine is not None:
    # The bound C++ class, by a name a type checker reads as a base class (Any: the engines
    # have no stubs).
    _EngineState: Any = _engine.State

    class NativeRoundforestState(NativeState, _EngineState, RoundforestFacts, GameState):
        """One play of Roundforest whose rules run in C++ (see the module docstring)."""

        if TYPE_CHECKING:  # this game's class, where NativeState and GameState have the base's
            game: RoundforestGame

        ENGINE = _engine
        DECISIONS = DECISIONS
        ACTION_SPACE = A.SPACE
        native_config = staticmethod(native_config)
        RENDER = RoundforestState.RENDER
        FIELDS = RoundforestState.FIELDS
        # One of the Python engine's writers, which writes through the blocks' views (set-up
        # positions in tests).
        _set_chip = BagRules._set_chip

        # --- the fields, in the Python engine's types -------------------------------------
        @property
        def pos(self) -> list[int]:
            return self._pos()

        @pos.setter
        def pos(self, value) -> None:
            self._set_pos([int(c) for c in value])

        @property
        def pile(self) -> list[int]:
            return self._pile()

        @pile.setter
        def pile(self, value) -> None:
            self._set_pile([int(c) for c in value])

        def replace(self, kind: int, player: int, *data: int) -> None:
            """Put a new decision in place of the top one (tests set up positions with it)."""
            self._replace(int(kind), int(player), [int(x) for x in data])

        def to_dict(self) -> dict:
            """The Python engine's dict: the near_* blocks written first, as it writes them."""
            self.show_near()
            return super().to_dict()

    check_native_contract(NativeRoundforestState)
else:
    # No engine built: the Python engine plays. (A class statement's name cannot be declared
    # "a class or None" to a type checker; Game.native_state_class is typed so.)
    NativeRoundforestState = None  # type: ignore[misc,assignment]
