"""Declarative option schemas shared by games and environments."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from .errors import ConfigError


@dataclass(frozen=True)
class Option:
    default: Any
    choices: tuple | None = None
    check: Callable[[Any], object] | None = None  # truthy: the value is valid
    doc: str = ""

    def describe(self) -> str:
        if self.choices is not None:
            return "one of " + ", ".join(repr(c) for c in self.choices)
        return self.doc or "a valid value"


def _plain(value: Any) -> Any:
    """numpy scalars as the Python values they stand for (np.int64(3) -> 3, np.True_ -> True),
    so they pass the same checks as Python values and the config stays JSON-serialisable."""
    if isinstance(value, np.bool_):
        return bool(value)
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.floating):
        return float(value)
    return value


def validate_options(schema: Mapping[str, Option], given: Mapping[str, Any], what: str) -> dict:
    """Return the full option dict; unknown keys and bad values raise ConfigError. numpy
    integers, bools and floats are accepted as the Python ones (and stored as them)."""
    unknown = sorted(set(given) - set(schema))
    if unknown:
        raise ConfigError(
            f"unknown {what} option(s) {unknown}; valid options are {sorted(schema)}"
        )
    out = {}
    for key, opt in schema.items():
        value = _plain(given.get(key, opt.default))
        ok = True
        if opt.choices is not None:
            # bool is an int subclass: keep True from passing for 1 and vice versa.
            ok = any(value == c and type(value) is type(c) for c in opt.choices)
        if ok and opt.check is not None:
            try:
                ok = bool(opt.check(value))
            except Exception:
                ok = False
        if not ok:
            raise ConfigError(f"{what} option {key}={value!r} is invalid; expected {opt.describe()}")
        out[key] = value
    return out
