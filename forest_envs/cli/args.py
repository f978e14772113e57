"""What every command-line command shares: game options from ``--set KEY=VALUE``, counts,
output paths checked before any game is played, and comma-separated agent lists."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import sys
from dataclasses import dataclass

from ..core.errors import ConfigError

ADDRESS_HELP = ("spread the games over a Ray cluster as tasks: HOST:PORT of a head started with "
                "ray start --head, auto, ray://HOST:10001, or local (a private Ray instance of "
                "--workers CPUs); the results are the same as with local workers")

SET_HELP_TRAIN = "override a config value, e.g. ppo.n_steps=256 (repeatable; default: none)"

@dataclass(frozen=True)
class Needs:
    """What an optional command needs beyond the package's own dependencies: the extra of
    pyproject.toml that installs it, the modules it brings, and why, when that is not plain."""

    extra: str
    modules: tuple[str, ...]
    why: str = ""


NEEDS = {
    "train": Needs("train", ("torch", "stable_baselines3", "sb3_contrib", "tensorboard", "yaml")),
    "plot": Needs("train", ("matplotlib",)),
    "train-rllib": Needs("rllib", ("ray", "torch", "yaml")),
    "study": Needs("study", ("rliable", "arch", "pandas"), "rliable computes the statistics"),
    "serve": Needs("serve", ("starlette", "uvicorn")),
    "bench": Needs("bench", ("pygame",), "pygame draws PettingZoo's connect_four_v3, the "
                   "reference every row is measured against"),
}


def _installed(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def require_extra(command: str) -> None:
    """Refuse, in one line naming the extra to install, a command (NEEDS) whose optional
    dependencies are not installed."""
    needs = NEEDS[command]
    missing = [m for m in needs.modules if not _installed(m)]
    if missing:
        why = f"; {needs.why}" if needs.why else ""
        raise ConfigError(f"{command} needs the {needs.extra!r} extra, which is not installed "
                          f"(missing: {', '.join(missing)}{why}): pip install "
                          f"'forest_envs[{needs.extra}]'")


_NUMBER = re.compile(r"[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?")


def parse_config(pairs: list[str]) -> dict:
    """``key=value`` pairs; values are parsed as JSON when possible (3, true, "x", 1e-4),
    numbers JSON does not take (.5, 1.) as floats, anything else is a string."""
    out = {}
    for pair in pairs or []:
        key, eq, value = pair.partition("=")
        if not eq or not key.strip():
            raise ConfigError(f"--set expects key=value, got {pair!r}")
        try:
            out[key.strip()] = json.loads(value)
        except json.JSONDecodeError:
            out[key.strip()] = float(value) if _NUMBER.fullmatch(value.strip()) else value
    return out


def check_counts(args) -> None:
    """The numeric options every command shares, checked before anything is built."""
    for flag, attr, low in (("--games", "games", 1), ("--workers", "workers", 1),
                            ("--seed", "seed", 0), ("--seat", "seat", 0)):
        value = getattr(args, attr, None)
        if value is not None and value < low:
            raise ConfigError(f"{flag} must be {'at least 1' if low == 1 else 'non-negative'}, "
                              f"got {value}")


def check_writable(path: str | None, flag: str, image: bool = False) -> None:
    """Refuse an output path that cannot be written, before any work is done."""
    if path is None:
        return
    if not path.strip():
        raise ConfigError(f"{flag} needs a file name")
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        raise ConfigError(f"{flag} {path!r} is a folder; give a file name")
    if not os.path.isdir(folder):
        raise ConfigError(f"{flag} {path!r}: folder {folder!r} does not exist")
    target = path if os.path.exists(path) else folder
    if not os.access(target, os.W_OK):
        raise ConfigError(f"{flag} {path!r} is not writable (permission denied)")
    if image:
        suffix = os.path.splitext(path)[1].lower().lstrip(".")
        formats = ("png", "pdf", "svg", "svgz", "jpg", "jpeg", "eps", "ps", "tif", "tiff", "webp")
        if suffix and suffix not in formats:
            raise ConfigError(f"{flag} {path!r}: cannot write a .{suffix} image; use .png "
                              f"(or {', '.join('.' + f for f in formats[1:])})")


def agent_list(text: str, flag: str = "--agents") -> list[str]:
    """Comma-separated agents; an ``option=value`` item continues the options of the agent
    before it, so ``ismcts:sims=200,depth=10,heuristic`` is two agents."""
    specs: list[str] = []
    for item in (s.strip() for s in text.split(",")):
        if not item:
            continue
        # (a value with a path separator continues it only when it names a policy file,
        # as in ismcts:prior=runs/a/final.npz; any other such item is an agent's path)
        if specs and ":" in specs[-1] and re.fullmatch(r"\w+=([^:/\\]*|[^:,]*\.(npz|zip))", item):
            specs[-1] += "," + item
        else:
            specs.append(item)
    if not specs:
        raise ConfigError(f"{flag} lists no agent; give comma-separated agents, e.g. random,random")
    return specs


def program_words() -> list[str]:
    """The word that runs this very ``forest-envs`` again, for the commands printed as hints:
    ``forest-envs``, unless this is a ``forest-envs`` script the shell would not find on its
    PATH (``.venv/bin/forest-envs`` from a venv that is not activated): then its path."""
    script = sys.argv[0] if sys.argv else ""
    if os.path.basename(script) == "forest-envs":
        found = shutil.which("forest-envs")
        if not (found and os.path.realpath(found) == os.path.realpath(script)):
            return [script if os.path.isabs(script) or os.sep in script else os.path.abspath(script)]
    return ["forest-envs"]
