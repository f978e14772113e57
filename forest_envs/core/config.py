"""Declarative option schemas shared by games and environments."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from .errors import ConfigError


@dataclass(frozen=True)
class Option:
    default: Any
    choices: tuple | None = None
    check: Callable[[Any], bool] | None = None
    doc: str = ""

    def describe(self) -> str:
        if self.choices is not None:
            return "one of " + ", ".join(repr(c) for c in self.choices)
        return self.doc or "a valid value"


def validate_options(schema: Mapping[str, Option], given: Mapping[str, Any], what: str) -> dict:
    """Return the full option dict; unknown keys and bad values raise ConfigError."""
    unknown = sorted(set(given) - set(schema))
    if unknown:
        raise ConfigError(
            f"unknown {what} option(s) {unknown}; valid options are {sorted(schema)}"
        )
    out = {}
    for key, opt in schema.items():
        value = given.get(key, opt.default)
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
