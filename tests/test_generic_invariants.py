"""Invariants every registered game keeps, checked after every action of fuzzed games:
masks never empty for the player to move, every block within its declared range and every
observation within its space, the JSON round trip exact, and clones independent (a clone
played on for a few hundred actions never changes the original, nor the original its clone).

A game gets this harness by registering. ``-m slow`` plays many more games.
"""

from __future__ import annotations

import json
import zlib

import numpy as np
import pytest

import forest_envs
from forest_envs.core.registry import env_ids, game_spec

CASES = [(env_id, cfg) for env_id in env_ids() for cfg in game_spec(env_id).game_class.all_configs()]
CASE_IDS = [env_id + "-" + "-".join(f"{k}={v}" for k, v in cfg.items()) for env_id, cfg in CASES]


def step_cap(game) -> int:
    """Where a fuzzed game stops if it has not ended: the game's own truncation point."""
    return game.default_max_steps or 100_000


def random_play(state, rng, steps=None):
    for _ in range(steps or step_cap(state.game)):
        if state.is_terminal:
            return
        legal = np.flatnonzero(state.legal_action_mask())
        state.apply(int(legal[rng.integers(legal.size)]))


def check_state(state, spaces):
    game = state.game
    assert not game.layout.out_of_range(state.buf), game.layout.out_of_range(state.buf)
    for seat in range(game.num_players):
        obs = state.observation(seat)
        box = spaces[seat]
        assert obs.shape == box.shape and obs.dtype == np.float32
        assert box.contains(obs), f"seat {seat}'s observation leaves its Box"
    mask = state.legal_action_mask()
    assert mask.dtype == np.int8 and mask.shape == (game.num_actions,)
    if state.is_terminal:
        assert state.current_player == -1 and not mask.any()
    else:
        assert 0 <= state.current_player < game.num_players
        assert 0 <= state.turn_player < game.num_players
        assert mask.any(), f"empty mask for player {state.current_player} ({state.decision_name()})"
    data = state.to_dict()
    again = game.state_from_dict(json.loads(json.dumps(data)))
    assert again.to_dict() == data
    np.testing.assert_array_equal(again.legal_action_mask(), mask)


def fuzz(env_id, cfg, games, seed, clone_every=17, max_steps=None, action_budget=None):
    """Random games checked after every action; each stops at its end, at the game's own
    truncation point or after ``max_steps`` actions, whichever comes first. No new game
    starts once ``action_budget`` actions have been played in all."""
    env = forest_envs.make_raw(env_id, **cfg)
    spaces = [env.observation_spaces[a]["observation"] for a in env.possible_agents]
    rng = np.random.default_rng(seed)
    played = 0
    for g in range(games):
        if action_budget is not None and played >= action_budget:
            break
        state = env.game.new_initial_state(int(rng.integers(2**31)))
        step = 0
        while True:
            check_state(state, spaces)
            if step % clone_every == g % clone_every:
                check_clone_independence(state, rng)
            if state.is_terminal or step == min(step_cap(env.game), max_steps or 10**9):
                break
            legal = np.flatnonzero(state.legal_action_mask())
            state.apply(int(legal[rng.integers(legal.size)]))
            step += 1
        played += step
        assert state.ranks().count(1) >= 1


CLONE_STEPS = 300  # how far a clone is played on: enough to touch every part of a state


def check_clone_independence(state, rng):
    before = state.to_dict()
    clone = state.clone()
    assert clone.to_dict() == before
    random_play(clone, np.random.default_rng(int(rng.integers(2**31))), CLONE_STEPS)
    assert state.to_dict() == before, "playing a clone changed the original"
    if not state.is_terminal:
        snapshot = clone.to_dict()
        probe = state.clone()
        random_play(probe, np.random.default_rng(int(rng.integers(2**31))), CLONE_STEPS)
        assert clone.to_dict() == snapshot, "playing the original changed a clone"


@pytest.mark.parametrize(("env_id", "cfg"), CASES, ids=CASE_IDS)
def test_invariants_hold_in_fuzzed_games(env_id, cfg):
    # The default run stays short: 3 games of up to 400 actions per configuration (the slow
    # run below plays whole games).
    fuzz(env_id, cfg, games=3, seed=zlib.crc32(json.dumps([env_id, cfg], sort_keys=True).encode()),
         max_steps=400)


@pytest.mark.slow
@pytest.mark.parametrize(("env_id", "cfg"), CASES, ids=CASE_IDS)
def test_invariants_hold_in_many_fuzzed_games(env_id, cfg):
    # Random play in a game that truncates can wander for thousands of actions: 1,500 per
    # game and 30,000 per configuration keep the run to minutes and still reach far into
    # every game. The budget stops mainly Roundforest, whose random games often reach the
    # cap (about 20 games each; roundforest/test_fuzz.py plays 2,000 whole games besides);
    # Chickwood's and Sherwood's random games are short.
    fuzz(env_id, cfg, games=60, seed=12345, max_steps=1500, action_budget=30_000)
