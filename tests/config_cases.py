"""Every registered game's configurations as test cases, for the tests that run once per
configuration (API, invariants, PettingZoo conventions, the ecosystem's checkers).

The default suite runs a **pairwise cover** of each game's configurations: the game's default
configuration, then, one at a time, the configuration holding the most pairs of option values
(one value of each of two options) not held by a configuration chosen before, until every pair
is held. A rule that breaks only with two options set together breaks in the default suite;
the full product (every combination, 12 for Roundforest, whose cover has 6) runs with the
rest under ``-m slow`` (``make test-all``). A game with one or two choice options has no
smaller cover: all its configurations run by default.
"""

from __future__ import annotations

import itertools

import pytest

from forest_envs.core.registry import env_ids, game_spec


def _pairs(cfg: dict) -> set:
    items = sorted(cfg.items())
    return set(itertools.combinations(items, 2)) or {tuple(items)}


def pairwise_cover(configs: list[dict], default: dict) -> list[dict]:
    """The configurations the default suite runs (module doc), in the order chosen."""
    first = next((c for c in configs if all(default.get(k) == v for k, v in c.items())), configs[0])
    chosen, held = [first], set(_pairs(first))
    wanted = set().union(*(_pairs(c) for c in configs))
    while held != wanted:
        best = max((c for c in configs if c not in chosen), key=lambda c: len(_pairs(c) - held))
        chosen.append(best)
        held |= _pairs(best)
    return chosen


def case_id(env_id: str, cfg: dict) -> str:
    return env_id + "-" + "-".join(f"{k}={v}" for k, v in cfg.items())


def _configs_and_marks(env_id: str) -> list[tuple[dict, tuple]]:
    game = game_spec(env_id).game_class
    configs = game.all_configs()
    cover = pairwise_cover(configs, {k: o.default for k, o in game.options.items()})
    return [(cfg, () if cfg in cover else (pytest.mark.slow,)) for cfg in configs]


def config_cases() -> list:
    """``(env_id, config)`` parameters of every registered game: the pairwise cover as is, the
    other configurations marked ``slow``."""
    return [pytest.param(env_id, cfg, id=case_id(env_id, cfg), marks=marks)
            for env_id in env_ids() for cfg, marks in _configs_and_marks(env_id)]


def game_config_cases(env_id: str) -> list:
    """``config`` parameters of one game, for its own tests: the pairwise cover as is, the
    other configurations marked ``slow``."""
    return [pytest.param(cfg, id="-".join(f"{k}={v}" for k, v in cfg.items()), marks=marks)
            for cfg, marks in _configs_and_marks(env_id)]


def all_cases() -> list[tuple[str, dict]]:
    """Every ``(env_id, config)`` of every registered game (for strategies that sample)."""
    return [(env_id, cfg) for env_id in env_ids() for cfg in game_spec(env_id).game_class.all_configs()]
