"""Sherwood Forest's native engine: the C++ rules (this folder's .cpp files, one per module of
the Python rules) under the same state contract.

``NativeSherwoodState`` derives from the bound C++ state (``_engine.State``: apply, the mask,
observations, ranks, the determinization), from ``NativeState`` and from what the Python
``SherwoodState`` shares with it: ``SherwoodFacts`` (the declared blocks and fields, and the
helpers that only read them: the starting players, a robbery's participants, scores ...) and
``GameState`` (the contract's generic readers: views, text, pictures, results). Each field of
``FIELDS`` is a property over the C++ one, in the Python engine's types: a record
(``records.Offer``, ``Coach`` ...) is a fresh copy made from the C++ record's fields, so a
change to it is made by setting the field whole (``state.offer = offer``), which the C++ side
checks at once.
``AVAILABLE`` is False, with ``UNAVAILABLE_BECAUSE`` saying why, when the extension was not
built (no compiler, ``FOREST_ENVS_NATIVE=OFF``); the Python engine then plays.
"""

from __future__ import annotations

from dataclasses import fields
from typing import TYPE_CHECKING, Any

from ...core.native_state import NativeState, check_native_contract, load_engine
from ...core.state import GameState
from .. import actions as A
from ..components import CARDS, REROUTE, ROUTES, TOWNS
from ..observation import DECISIONS
from ..rules import SherwoodState
from ..rules.facts import SherwoodFacts
from ..rules.precomputed import CARD_FEATURES, DECK_IDS, EQUIPMENT_DECK, SHERIFF_IDS
from ..rules.records import CloakQuestions, Coach, Fight, Loot, Offer, ProvisionsQuestions

if TYPE_CHECKING:
    from ..rules.game import SherwoodGame

_engine, AVAILABLE, UNAVAILABLE_BECAUSE = load_engine(__name__)

# The fields that hold a record (or None), by the record's class.
RECORDS: dict[str, Any] = {"coach": Coach, "fight": Fight, "loot": Loot, "offer": Offer, "crush": CloakQuestions,
                            "provisioning": ProvisionsQuestions}


def native_config(game):
    """What one configuration fixes, from the Python SherwoodGame and components.py (the one
    source)."""
    c = _engine.Config()
    c.num_players = game.num_players
    c.additions = bool(game.additions)
    c.deck_cards = game.deck_cards
    c.laid_out = game.laid_out
    c.set_cards([(card.deck == "B", card.strength, card.fame, card.gold, card.comrades, card.origin,
                  card.destination, card.sheriff, card.fame_loss, card.outlaw_loss) for card in CARDS])
    c.card_features = CARD_FEATURES.tolist()
    towns = range(len(TOWNS))
    c.routes = [[list(ROUTES[(o, d)]) if o != d else [] for d in towns] for o in towns]
    c.reroute = [[[list(t) for t in REROUTE[o][d]] for d in towns] for o in towns]
    c.deck_a = DECK_IDS["A", game.additions].tolist()
    c.deck_b = DECK_IDS["B", game.additions].tolist()
    c.sheriff_ids = list(SHERIFF_IDS)
    c.equipment_deck = EQUIPMENT_DECK[game.additions].tolist()
    return c


def _field_property(name: str) -> property:
    record = RECORDS.get(name)
    if record is None:
        def read(self):
            return self._field(name)

        def write(self, value) -> None:
            self._set_field(name, value)
    else:
        names = tuple(f.name for f in fields(record))

        def read(self):
            values = self._field(name)
            return None if values is None else record(*values)

        def write(self, value) -> None:
            self._set_field(name, None if value is None else tuple(getattr(value, f) for f in names))
    return property(read, write, doc=f"the C++ state's {name}, in the Python engine's type")


if _engine is not None:
    # The bound C++ class, by a name a type checker reads as a base class (Any: the engines
    # have no stubs).
    _EngineState: Any = _engine.State

    class NativeSherwoodState(NativeState, _EngineState, SherwoodFacts, GameState):
        """One play of Sherwood Forest whose rules run in C++ (see the module docstring)."""

        if TYPE_CHECKING:  # this game's class, where NativeState and GameState have the base's
            game: SherwoodGame

        ENGINE = _engine
        DECISIONS = DECISIONS
        ACTION_SPACE = A.SPACE
        native_config = staticmethod(native_config)
        RENDER = SherwoodState.RENDER
        FIELDS = SherwoodState.FIELDS

        def push(self, kind: int, player: int, *data: int) -> None:
            """Put a new decision on the stack (tests set up positions with it)."""
            self._push_or_replace(True, int(kind), int(player), [int(x) for x in data])

        def replace(self, kind: int, player: int, *data: int) -> None:
            """Put a new decision in place of the top one (tests set up positions with it)."""
            self._push_or_replace(False, int(kind), int(player), [int(x) for x in data])

        def next_turn(self, kind: int, player: int, *data: int) -> None:
            """It is ``player``'s turn, and the top decision becomes theirs."""
            self.set_turn(int(player))
            self.replace(kind, player, *data)

    for _name in SherwoodState.FIELDS:
        setattr(NativeSherwoodState, _name, _field_property(_name))
    check_native_contract(NativeSherwoodState)
else:
    # No engine built: the Python engine plays. (A class statement's name cannot be declared
    # "a class or None" to a type checker; Game.native_state_class is typed so.)
    NativeSherwoodState = None  # type: ignore[misc,assignment]
