"""Plain state data: deep copies and a JSON round trip for nested Python values.

A state's non-buffer fields hold plain data only: ``None``, bools, ints, floats, strings,
small numpy arrays, and lists, tuples and dicts of these, nested to any depth. JSON has no
tuples, no int dict keys and no arrays, so those are written as one-key tagged objects
(``{"tuple": [...]}``, ``{"dict": [[key, value], ...]}``, ``{"array": ..., "dtype": ...}``)
and come back as exactly what they were; a field needs no declared type.
"""

from __future__ import annotations

from typing import Any

import numpy as np

_ATOMS = (type(None), bool, int, float, str)


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
    raise ValueError(f"not a serialised state value: {value!r}")


def _hashable(key: Any) -> Any:
    return tuple(key) if isinstance(key, list) else key
