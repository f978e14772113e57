"""The ``ismcts`` agent's options by name (``ismcts:sims=400,prior=ppo,...``): their defaults,
help texts and parsing. A policy named in ``prior`` or ``rollout`` (``ppo`` or a policy file)
is only recognised here; the agents layer loads it (core never reads policy files)."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from ...core.errors import ConfigError

ROLLOUTS = ("random", "heuristic")
PRIORS = ("none", "heuristic")
REWARDS = ("win", "rank", "score")
PICKS = ("sample", "greedy")
WIDENINGS = ("sqrt", "all")
PRIOR_NODES = ("all", "root")
SEARCHES = ("auto", "native", "python")  # which search runs (native.py)
POLICY_NAMES = ("ppo",)            # the shipped baseline (forest_envs.agents.baselines)
POLICY_FILES = (".npz", ".zip")
DEFAULTS = {"sims": 1000, "time": None, "rollout": "random", "c": 0.7, "depth": 20,
            "reward": "rank", "prior": "none", "pick": "sample", "widen": "sqrt",
            "prior_at": "all", "search": "auto"}
OPTION_HELP = {
    "sims": "simulations per move (a positive int, or none when time is given)",
    "time": "seconds per move (a positive number, or none)",
    "rollout": "rollout policy: random, heuristic, ppo or a policy file (.npz/.zip)",
    "c": "UCB exploration constant (a number >= 0)",
    "depth": "rollout actions before the position is evaluated by its ranks (an int >= 0, "
             "or none: play to the end)",
    "reward": "what is backed up: win, rank or score (the game's reward modes)",
    "prior": "none, heuristic (expand the heuristic's move first), or ppo or a policy file "
             "(expand in the policy's order, exploration scaled by its probabilities)",
    "pick": "how a policy rollout moves: sample (from its probabilities) or greedy",
    "widen": "with a prior, sqrt (a node visited n times tries at most 1 + sqrt(n) actions) "
             "or all (every legal action before any twice)",
    "prior_at": "with a prior, the nodes that use it: all or root",
    "search": "auto (the native search where the state and the options allow it, else the "
              "Python search), native (an error where it cannot run) or python",
}


def is_policy(name: str) -> bool:
    """Whether a ``prior`` / ``rollout`` value names a policy (the agents layer loads it)."""
    return name in POLICY_NAMES or name.endswith(POLICY_FILES)


def _bounded(name: str, text: str, convert: Callable[[str], float], ok: Callable[[float], bool],
             kind: str, allow_none: bool = False):
    """``text`` as a number ``convert`` reads and ``ok`` accepts (``kind`` says which, for
    the error), or None for ``none`` where that is allowed."""
    if allow_none and text.lower() == "none":
        return None
    try:
        value = convert(text)
    except ValueError:
        value = None
    if value is None or not ok(value):
        raise ConfigError(f"ismcts option {name}={text!r} must be {kind}"
                          + (" or none" if allow_none else ""))
    return value


def _choice(name: str, text: str, choices: tuple[str, ...], policy: bool = False) -> str:
    if text in choices or (policy and is_policy(text)):
        return text
    extra = f", {', '.join(POLICY_NAMES)} or a policy file ({' / '.join(POLICY_FILES)})" if policy else ""
    raise ConfigError(f"ismcts option {name}={text!r} must be one of {', '.join(choices)}{extra}")


_PARSERS: dict[str, Callable[[str], Any]] = {
    "sims": lambda t: _bounded("sims", t, int, lambda v: v >= 1, "a positive int", True),
    "time": lambda t: _bounded("time", t, float, lambda v: math.isfinite(v) and v > 0,
                               "a number > 0", True),
    "rollout": lambda t: _choice("rollout", t, ROLLOUTS, policy=True),
    "c": lambda t: _bounded("c", t, float, lambda v: math.isfinite(v) and v >= 0, "a number >= 0"),
    "depth": lambda t: _bounded("depth", t, int, lambda v: v >= 0, "an int >= 0", True),
    "reward": lambda t: _choice("reward", t, REWARDS),
    "prior": lambda t: _choice("prior", t, PRIORS, policy=True),
    "pick": lambda t: _choice("pick", t, PICKS),
    "widen": lambda t: _choice("widen", t, WIDENINGS),
    "prior_at": lambda t: _choice("prior_at", t, PRIOR_NODES),
    "search": lambda t: _choice("search", t, SEARCHES),
}


def parse_options(text: str) -> dict:
    """``"sims=400,time=0.5,rollout=random,c=0.7,depth=20,reward=rank,prior=none"`` (any subset, any
    order; empty = the defaults; options are separated by commas or colons, as
    ``ismcts:sims=400:depth=20`` where a list of agents is itself comma-separated, as in the
    CLI's ``--agents``) -> the agent's keyword arguments. Unknown or bad options
    raise ``ConfigError`` (a ``ValueError``) naming the option and the valid ones. A policy
    file's path can therefore hold neither a comma nor a colon."""
    options: dict[str, Any] = dict(DEFAULTS)
    given = set()
    for part in text.replace(":", ",").split(","):
        part = part.strip()
        if not part:
            continue
        name, eq, value = part.partition("=")
        name, value = name.strip(), value.strip()
        if name not in _PARSERS:
            raise ConfigError(f"unknown ismcts option {name!r}; valid options: "
                              + "; ".join(f"{k} ({v})" for k, v in OPTION_HELP.items()))
        if not eq or not value:
            raise ConfigError(f"ismcts option {name!r} needs a value ({name}=...): "
                              f"{OPTION_HELP[name]}")
        if name in given:
            raise ConfigError(f"ismcts option {name!r} is given twice")
        given.add(name)
        options[name] = _PARSERS[name](value)
    if "pick" in given and not is_policy(options["rollout"]):
        raise ConfigError(f"ismcts option pick={options['pick']} is for a policy rollout "
                          "(rollout=ppo or rollout=<policy file>); this search's rollout is "
                          f"{options['rollout']}")
    for name in ("widen", "prior_at"):
        if name in given and options["prior"] == "none":
            raise ConfigError(f"ismcts option {name}={options[name]} is for a search with a prior "
                              "(prior=heuristic, ppo or a policy file); this one has prior=none")
    if "time" in given and "sims" not in given:
        options["sims"] = None  # a time budget alone is the only limit
    if options["sims"] is None and options["time"] is None:
        raise ConfigError("ismcts needs a budget: sims=N and/or time=SECONDS")
    return options
