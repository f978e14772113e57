"""Reading a state dict (``State.to_dict``) back, checked before any engine uses it.

A state dict may come from a file, a record, a puzzle or a hostile hand: every engine's
``from_dict`` reads it through ``read_state_dict``, which refuses anything a state of that
game and configuration cannot hold with a ``ValueError`` naming the problem (the key, the
block, the field, the value), before a single number reaches the rules. What the game itself
must check (its fields' values, what its cards or coins add up to) is the state class's
``check_fields(game, fields)`` and ``check_consistent()``, which every engine calls too, so a
bad dict gets the same words whichever engine reads it.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from .plain import from_json
from .rng import rng_from_json

_PCG64_STATE_KEYS = {"state", "inc"}


class LoadedState(NamedTuple):
    """A state dict's parts, each checked: the buffer (int16, the layout's size, every block
    within its declared range), the generator, the decisions as (kind, player, data), whose
    turn it is, and the game's fields (plain data, as ``from_json`` reads them)."""

    buf: np.ndarray
    rng: np.random.Generator
    decisions: list[tuple[int, int, tuple[int, ...]]]
    turn: int
    fields: dict[str, Any]


def _int(value: Any, what: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise ValueError(f"state dict: {what} must be an int, not {value!r}")
    if not low <= value <= high:
        raise ValueError(f"state dict: {what} is {value}, outside {low}..{high}")
    return int(value)


def _buffer(game, value: Any) -> np.ndarray:
    layout = game.layout
    if not isinstance(value, (list, tuple, np.ndarray)):
        raise ValueError(f"state dict: 'buf' must be a list of {layout.size} ints, not {type(value).__name__}")
    try:
        arr = np.asarray(value)
    except (ValueError, TypeError) as err:
        raise ValueError(f"state dict: 'buf' is not a flat list of ints ({err})") from None
    if arr.shape != (layout.size,):
        raise ValueError(f"state dict: 'buf' has shape {arr.shape}; this configuration's layout holds "
                         f"({layout.size},)")
    if arr.size and not np.issubdtype(arr.dtype, np.integer):
        raise ValueError(f"state dict: 'buf' must hold ints, not {arr.dtype}")
    info = np.iinfo(layout.dtype)
    if arr.size and (arr.min() < info.min or arr.max() > info.max):
        raise ValueError(f"state dict: 'buf' holds values outside {layout.dtype} ({info.min}..{info.max})")
    buf = arr.astype(layout.dtype)
    bad = layout.out_of_range(buf)
    if bad:
        raise ValueError(f"state dict: blocks outside their declared range: {', '.join(bad)}")
    return buf


def _generator(value: Any) -> np.random.Generator:
    if not isinstance(value, dict) or value.get("bit_generator") != "PCG64":
        raise ValueError("state dict: 'rng' must be a PCG64 generator's state "
                         "(bit_generator 'PCG64', state, has_uint32, uinteger)")
    state = value.get("state")
    if not isinstance(state, dict) or set(state) != _PCG64_STATE_KEYS:
        raise ValueError("state dict: 'rng' state must hold exactly 'state' and 'inc'")
    _int(state["state"], "the generator's state", 0, 2**128 - 1)
    inc = _int(state["inc"], "the generator's increment", 1, 2**128 - 1)
    if inc % 2 == 0:
        raise ValueError("state dict: the generator's increment must be odd (PCG64's stream)")
    _int(value.get("has_uint32"), "the generator's has_uint32", 0, 1)
    _int(value.get("uinteger"), "the generator's uinteger", 0, 2**32 - 1)
    return rng_from_json(value)


def _decisions(game, value: Any) -> list[tuple[int, int, tuple[int, ...]]]:
    kinds = game.state_class.DECISIONS
    n = game.num_players
    if not isinstance(value, list):
        raise ValueError("state dict: 'decisions' must be a list of (kind, player, data)")
    out = []
    for i, d in enumerate(value):
        where = f"decision {i}"
        if not isinstance(d, tuple) or len(d) != 3 or not isinstance(d[2], tuple):
            raise ValueError(f"state dict: {where} must be (kind, player, data tuple), not {d!r}")
        kind = _int(d[0], f"{where}'s kind", 0, len(kinds) - 1)
        spec = kinds[kind]
        player = _int(d[1], f"{where}'s player ({spec.name})", 0, n - 1)
        data = d[2]
        if len(data) != len(spec.names):
            raise ValueError(f"state dict: {where} ({spec.name}) carries {len(data)} values; the kind "
                             f"carries {len(spec.names)} ({', '.join(spec.names) or 'none'})")
        ints = [_int(v, f"{where}'s {name} ({spec.name})", 0, high)
                for v, (name, high) in zip(data, spec.ints)]
        seats = [_int(v, f"{where}'s {name} ({spec.name})", -1, n - 1)
                 for v, name in zip(data[len(spec.ints):], spec.seats)]
        out.append((kind, player, tuple(ints + seats)))
    return out


def read_state_dict(game, data: Any, fields: tuple[str, ...]) -> LoadedState:
    """``data`` (what ``to_dict`` wrote) checked against ``game``'s configuration; ``fields``:
    the state class's FIELDS. Raises ValueError naming the first problem found."""
    if not isinstance(data, dict):
        raise ValueError(f"a state dict must be a dict, not {type(data).__name__}")
    if data.get("env_id") != game.env_id or data.get("config") != game.config:
        raise ValueError("state dict belongs to another game or configuration")
    missing = [k for k in ("buf", "rng", "decisions", "turn", *fields) if k not in data]
    if missing:
        raise ValueError(f"state dict: missing {', '.join(repr(k) for k in missing)}")
    try:
        decisions_value = from_json(data["decisions"])
        turn_value = from_json(data["turn"])
        values = {f: from_json(data[f]) for f in fields}
    except (ValueError, TypeError, KeyError, AttributeError, OverflowError, IndexError) as err:
        # from_json builds arrays and records from what the dict says: a dtype that cannot
        # hold the values, a shape that does not fit, an unknown record
        raise ValueError(f"state dict: a value that is no state data ({type(err).__name__}: {err})") from None
    loaded = LoadedState(_buffer(game, data["buf"]), _generator(data["rng"]),
                         _decisions(game, decisions_value),
                         _int(turn_value, "'turn'", 0, game.num_players - 1), values)
    _check_decision_blocks(game, loaded)
    return loaded


def _check_decision_blocks(game, loaded: LoadedState) -> None:
    """The standard decision blocks show the top decision and whose turn it is, as the
    engines write them: a dict whose blocks say otherwise is refused."""
    from .decisions import Decision

    top = Decision(*loaded.decisions[-1]) if loaded.decisions else None
    lo, hi = game._decision_region
    if not np.array_equal(loaded.buf[lo:hi], game.decision_pattern(top)):
        raise ValueError("state dict: the decision blocks do not show the pending decision")
    block = game.layout.blocks["turn_seat"]
    turn_seat = loaded.buf[block.offset:block.offset + block.size]
    want = np.zeros(block.size, turn_seat.dtype)
    if loaded.decisions:
        want[loaded.turn] = 1
    if not np.array_equal(turn_seat, want):
        raise ValueError("state dict: the turn_seat block does not show whose turn it is")


def check_blocks_bound(state) -> None:
    """Refuse a state one of whose block attributes was replaced by an array of its own
    (``state.hand = counts`` instead of ``state.hand[...] = counts``): the state would go on
    playing from its buffer while the attribute showed other numbers."""
    buf = state.buf
    for name, _, _ in state.game.layout._view_specs:
        view = getattr(state, name)
        if not (isinstance(view, np.ndarray) and np.may_share_memory(view, buf)):
            raise ValueError(f"{type(state).__name__}.{name} was replaced by an array that is not "
                             f"the state's buffer; write into the block instead "
                             f"(state.{name}[...] = values)")
