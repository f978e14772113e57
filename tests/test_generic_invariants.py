"""Invariants every registered game keeps, checked after every action of fuzzed games of
every configuration: the generic ones and the game's own (``fuzz_invariants``: ranges,
spaces, masks, decision blocks, hidden information, JSON round trips, clones, results; and
what ``tests/<game>/invariants.py`` says the game conserves), with each chosen action's
description checked and, now and then, an illegal action refused.

Uniform random games first; then Hypothesis picks every action of a few more games (it
favours the first and last legal actions, unlike uniform play, and shrinks a failure to a
short game). A game gets this harness by registering. ``-m slow`` plays 2,000 whole games
of each game.
"""

from __future__ import annotations

import json
import zlib

import numpy as np
import pytest
from config_cases import all_cases, config_cases
from fuzz_invariants import InvariantCheck, check_action
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from forest_envs.core.registry import game_spec

CASES = config_cases()  # the pairwise cover by default, the rest slow

# The default run: whole games per configuration until FAST_GAMES are played or FAST_ACTIONS
# actions (the last game finishes), each stopped at the game's own truncation point or at
# FAST_MAX_STEPS (random play in a game that can stall wanders for thousands of actions). The
# JSON round trip and a resample of the hidden information every other action, clones and
# futures every 100th.
FAST_GAMES = 3
FAST_ACTIONS = 300
FAST_MAX_STEPS = 400
FAST_CHECKS = dict(roundtrip_every=2, hidden_every=2, deep_every=100)
HYPOTHESIS_GAMES = 6
HYPOTHESIS_MAX_STEPS = 300
# The slow run: SLOW_GAMES whole games of each game across its configurations, every seat's
# hidden information resampled every tenth action.
SLOW_GAMES = 2_000
SLOW_CHECKS = dict(roundtrip_every=10, hidden_every=10, all_seats=True, deep_every=500)


def case_seed(env_id: str, cfg: dict) -> int:
    return zlib.crc32(json.dumps([env_id, cfg], sort_keys=True).encode())


def step_cap(game, max_steps: int) -> int:
    """Where a fuzzed game stops if it has not ended."""
    return min(game.default_max_steps or max_steps, max_steps)


def play_checked(game, seed: int, check: InvariantCheck, max_steps: int, choose=None) -> int:
    """One game checked after every action (``choose(k)`` picks among k legal actions;
    uniform by default); returns the number of actions played."""
    rng = np.random.default_rng([seed, 7])
    state = game.new_initial_state(seed)
    check(state)
    steps, cap = 0, step_cap(game, max_steps)
    while not state.is_terminal and steps < cap:
        legal = np.flatnonzero(state.legal_action_mask())
        action = int(legal[choose(legal.size) if choose else rng.integers(legal.size)])
        check_action(state, action, rng)
        state.apply(action)
        steps += 1
        check(state)
    return steps


def fuzz(env_id: str, cfg: dict, seed: int, check_options: dict, max_steps: int,
         games: int | None = None, action_budget: int | None = None) -> InvariantCheck:
    """Random games of one configuration until ``games`` are played or ``action_budget``
    actions (the game under way finishes)."""
    game = game_spec(env_id).game_class.shared(cfg)
    check = InvariantCheck(game, seed=seed, **check_options)
    rng = np.random.default_rng(seed)
    played = count = 0
    while (games is None or count < games) and (action_budget is None or played < action_budget):
        played += play_checked(game, int(rng.integers(2**31)), check, max_steps)
        count += 1
    if check.resamples >= 20:
        # hidden content almost always exists: a resample that redraws nothing is no test
        assert check.resamples_changed > 0.5 * check.resamples, (
            f"resample_hidden redrew nothing in {check.resamples - check.resamples_changed} "
            f"of {check.resamples} cases")
    return check


@pytest.mark.parametrize(("env_id", "cfg"), CASES)
def test_invariants_hold_in_fuzzed_games(env_id, cfg):
    check = fuzz(env_id, cfg, case_seed(env_id, cfg), FAST_CHECKS, FAST_MAX_STEPS,
                 games=FAST_GAMES, action_budget=FAST_ACTIONS)
    assert check.calls > min(FAST_ACTIONS, FAST_GAMES)


@settings(max_examples=HYPOTHESIS_GAMES, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(case=st.sampled_from(all_cases()), seed=st.integers(0, 2**31 - 1), data=st.data())
def test_invariants_hold_in_games_hypothesis_chooses(case, seed, data):
    env_id, cfg = case
    game = game_spec(env_id).game_class.shared(cfg)

    def choose(k: int) -> int:
        return data.draw(st.integers(0, k - 1), label="choice") if k > 1 else 0

    play_checked(game, seed, InvariantCheck(game, seed=seed, **FAST_CHECKS), HYPOTHESIS_MAX_STEPS,
                 choose=choose)


@pytest.mark.slow
@pytest.mark.parametrize(("env_id", "cfg"), CASES)
def test_invariants_hold_in_many_fuzzed_games(env_id, cfg):
    configs = game_spec(env_id).game_class.all_configs()
    fuzz(env_id, cfg, case_seed(env_id, cfg) + 1, SLOW_CHECKS, FAST_MAX_STEPS,
         games=-(-SLOW_GAMES // len(configs)))
