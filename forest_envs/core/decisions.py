"""The stack of pending decisions: what a decision is, the kinds a game declares, and the
standard observation blocks that show the pending one.

A pending ``Decision`` is (kind, player, data): which kind of choice, the seat that makes it
and a few ints its kind declares (``DecisionKind``). A game lists its kinds once
(``DECISIONS``), names each kind's index in an ``IntEnum`` ``Kind`` (``check_kind_ids``) and
maps each ``Kind`` to its ``Handlers`` in one table, its ``HANDLERS``, from which the engine
builds its dispatch (``dispatch_tables``): no handler is found by its name.
"""

from __future__ import annotations

import functools
from collections import namedtuple
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import IntEnum
from typing import Any, NamedTuple, Protocol

from .layout import Layout


class Decision(NamedTuple):
    """One pending decision: its kind (index into the state's ``DECISIONS``), the seat that
    decides, and small ints the kind declares (what the decision is about)."""

    kind: int
    player: int
    data: tuple = ()


class DecisionRecord(Protocol):
    """What ``DecisionKind.record`` builds, as code outside the rules reads it: a namedtuple
    made at run time from the kind's names, so its fields are typed only as attributes."""

    def _asdict(self) -> dict[str, Any]: ...

    def _replace(self, **fields: Any) -> DecisionRecord: ...

    def __getattr__(self, name: str) -> Any: ...


class DecisionReading(NamedTuple):
    """The pending decision as a seat's reading holds it (every game's ``text/view.py``):
    its kind (the game's ``Kind``), the kind's name, the seat that decides and what it
    carries (the kind's record, fields by name). Everything in it is public."""

    kind: Any                 # the game's Kind (an IntEnum: agents and texts key tables by it)
    name: str
    player: int
    data: DecisionRecord

    def as_json(self) -> dict:
        """As a view's JSON holds it: {"kind": name, "player": seat, "data": {name: value}}."""
        return {"kind": self.name, "player": self.player, "data": _fields_of(self.data)}

    @classmethod
    def from_json(cls, data: dict, kind_class: type[IntEnum], kinds: tuple[DecisionKind, ...]) -> DecisionReading:
        """The reading of ``as_json``'s dict, for the game whose ``Kind`` and ``DECISIONS``
        these are."""
        kind = kind_class(next(i for i, k in enumerate(kinds) if k.name == data["kind"]))
        return cls(kind, data["kind"], data["player"], kinds[kind].record(**data["data"]))


def pending_reading(state: Any, kind_class: type[IntEnum],
                    record: DecisionRecord | None = None) -> DecisionReading | None:
    """The state's pending decision as a reading holds it (None when the game is over);
    ``record``: its data as the game reads it, if not the state's ``decision_record()``."""
    top = state.decision  # one read of the stack: a native state builds it at every read
    if top is None:
        return None
    kind, player, data = top
    spec = state.DECISIONS[kind]
    return DecisionReading(_members(kind_class)[kind], spec.name, player,
                           record if record is not None else spec.record._make(data))


@functools.cache
def _members(kind_class: type[IntEnum]) -> tuple:
    """The kinds by index (calling an IntEnum class costs more than a reading's other work)."""
    return tuple(kind_class)


def _fields_of(record: DecisionRecord) -> dict:
    """A decision's record as a dict by its field names."""
    return record._asdict()


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
    def record(self) -> type[Any]:
        """The typed record of what this kind's decisions carry: a NamedTuple with a field
        per name (``State.decision_record``), for code outside the rules that reads a
        decision's data by name (agents, readings)."""
        typename = "".join(part.title() for part in self.name.split("_")) + "Data"
        return namedtuple(typename, self.names)


def check_kind_ids(kind_class: type, kinds: tuple[DecisionKind, ...]) -> None:
    """A game's ``Kind`` (an ``IntEnum``: ``Kind.X`` is the index in ``DECISIONS`` of the kind
    named ``x``, the one naming every game uses) must list every kind, in ``DECISIONS``'
    order."""
    if not (isinstance(kind_class, type) and issubclass(kind_class, IntEnum)):
        raise TypeError(f"{kind_class!r} must be an IntEnum of the game's decision kinds")
    ids = {member.name: member.value for member in kind_class}
    want = {k.name.upper(): i for i, k in enumerate(kinds)}
    if ids != want:
        raise TypeError(f"{kind_class.__qualname__} must be exactly {want}, not {ids}")


class Handlers(NamedTuple):
    """What the engine calls for one decision kind, as a game's ``HANDLERS`` table lists it:
    ``mask(state, d, mask)`` marks the legal action ids in a zeroed int8 mask,
    ``apply(state, d, action)`` applies a legal one, and the optional ``why(state, d,
    action)`` says why an id is illegal (for the error; None: the engine's own words)."""

    mask: Callable
    apply: Callable
    why: Callable | None = None


def dispatch_tables(owner: str, kinds: tuple[DecisionKind, ...],
                    handlers: Mapping[IntEnum, Handlers]) -> tuple[tuple, tuple, tuple]:
    """A game's ``HANDLERS`` (its ``Kind`` -> ``Handlers``) as three tuples indexed by a
    decision's kind: maskers, appliers and explainers (None where a kind has no ``why``).
    The table must key every kind of ``kinds`` by the game's Kind, and nothing else."""
    names: dict[str | None, int] = {k.name.upper(): i for i, k in enumerate(kinds)}
    keys = {getattr(k, "name", None): k for k in handlers}
    wrong = [k for name, k in keys.items()
             if not isinstance(k, IntEnum) or names.get(name) != int(k)]
    missing = [name for name in names if name not in keys]
    if wrong or missing:
        raise TypeError(f"{owner}.HANDLERS must map each decision kind (its Kind member) to its "
                        f"Handlers: missing {missing}, not a decision kind {wrong}")
    table = sorted(handlers.items(), key=lambda item: int(item[0]))
    for kind, entry in table:
        if not isinstance(entry, Handlers) or not (callable(entry.mask) and callable(entry.apply)):
            raise TypeError(f"{owner}.HANDLERS[{kind!r}] must be Handlers(mask=..., apply=..., why=...)")
    return (tuple(h.mask for _, h in table), tuple(h.apply for _, h in table),
            tuple(h.why for _, h in table))


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
