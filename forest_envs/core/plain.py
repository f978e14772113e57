"""Plain state data: deep copies and a JSON round trip for nested Python values.

A state's non-buffer fields hold plain data only: ``None``, bools, ints, floats, strings,
small numpy arrays, records (``@record`` classes: typed, mutable sub-states such as a
negotiation in progress), and lists, tuples and dicts of these, nested to any depth. JSON
has no tuples, no int dict keys, no arrays and no records, so those are written as one-key
tagged objects (``{"tuple": [...]}``, ``{"dict": [[key, value], ...]}``,
``{"array": ..., "dtype": ...}``, ``{"record": name, "fields": {...}}``) and come back as
exactly what they were; a field needs no declared type.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np

if TYPE_CHECKING:
    from typing_extensions import dataclass_transform
else:  # it only tells a type checker that ``record`` makes dataclasses (typing has it from 3.11)
    def dataclass_transform(**_kwargs):
        return lambda decorator: decorator

_ATOMS = (type(None), bool, int, float, str)
# Every record class by its JSON name ("module.Class", and any name it had before it moved:
# the alias table), and the field names of each.
_RECORDS: dict[str, type] = {}
_RECORD_FIELDS: dict[type, tuple[str, ...]] = {}

T = TypeVar("T")


@dataclass_transform()
def record(cls: type[T] | None = None, *, formerly: tuple[str, ...] = ()):
    """Class decorator: a mutable dataclass with slots whose instances are plain state data
    (deep-copied by ``clone``, written to and read back from JSON by name). Its fields hold
    plain data too. Use it for a sub-state read by name instead of a dict with string keys.

    A record's JSON name is ``module.Class``; ``formerly`` lists the names it had before its
    class moved (``@record(formerly=("old.module.Class",))``), so that state dicts written
    then still load (they come back as the class, and are written under its new name)."""

    def make(cls: type[T]) -> type[T]:
        cls = dataclass(slots=True)(cls)
        made: Any = cls  # a dataclass now, with a JSON name: attributes ``type[T]`` lacks
        name = f"{cls.__module__}.{cls.__qualname__}"
        for known in (name, *formerly):
            if _RECORDS.get(known, cls) is not cls:
                raise TypeError(f"two record classes are named {known}")
            _RECORDS[known] = cls
        _RECORD_FIELDS[cls] = tuple(f.name for f in fields(made))
        made._record_name = name
        return cls

    return make if cls is None else make(cls)


def deep_copy(value: Any) -> Any:
    """A copy that shares nothing mutable with ``value`` (immutable parts are reused)."""
    kind = type(value)
    if kind in _ATOMS:
        return value
    if kind is list:
        return [deep_copy(x) for x in value]
    if kind is np.ndarray:
        return value.copy()
    if isinstance(value, tuple):
        items = [deep_copy(x) for x in value]
        if all(a is b for a, b in zip(items, value)):
            return value
        return kind(*items) if hasattr(value, "_fields") else kind(items)
    if kind is dict:
        return {k: deep_copy(v) for k, v in value.items()}
    names = _RECORD_FIELDS.get(kind)
    if names is not None:
        new = object.__new__(kind)
        for name in names:
            object.__setattr__(new, name, deep_copy(getattr(value, name)))
        return new
    if isinstance(value, (np.integer, np.floating, np.bool_)):
        return value.item()
    raise TypeError(f"state fields hold plain data only, not {kind.__name__}")


def to_json(value: Any) -> Any:
    kind = type(value)
    if kind in _ATOMS:
        return value
    if kind is list:
        return [to_json(x) for x in value]
    if isinstance(value, tuple):
        return {"tuple": [to_json(x) for x in value]}
    if kind is dict:
        return {"dict": [[to_json(k), to_json(v)] for k, v in value.items()]}
    if kind is np.ndarray:
        return {"array": value.tolist(), "dtype": value.dtype.str, "shape": list(value.shape)}
    names = _RECORD_FIELDS.get(kind)
    if names is not None:
        return {"record": kind._record_name,
                "fields": {name: to_json(getattr(value, name)) for name in names}}
    if isinstance(value, (np.integer, np.floating, np.bool_)):
        return value.item()
    raise TypeError(f"state fields hold plain data only, not {kind.__name__}")


def from_json(value: Any) -> Any:
    if type(value) is list:
        return [from_json(x) for x in value]
    if type(value) is not dict:
        return value
    if "tuple" in value:
        return tuple(from_json(x) for x in value["tuple"])
    if "dict" in value:
        return {_hashable(from_json(k)): from_json(v) for k, v in value["dict"]}
    if "array" in value:
        return np.array(value["array"], dtype=np.dtype(value["dtype"])).reshape(value["shape"])
    if "record" in value:
        cls = _RECORDS.get(value["record"])
        if cls is None:
            raise ValueError(f"not a known record class: {value['record']!r}")
        given, names = value["fields"], _RECORD_FIELDS[cls]
        if set(given) != set(names):
            raise ValueError(f"record {value['record']} has fields {sorted(names)}, "
                             f"not {sorted(given)}")
        return cls(**{name: from_json(given[name]) for name in names})
    raise ValueError(f"not a serialised state value: {value!r}")


def _hashable(key: Any) -> Any:
    return tuple(key) if isinstance(key, list) else key
