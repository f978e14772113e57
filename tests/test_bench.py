"""The benchmark's AEC loop is one function, shared by ``make bench`` and the instruction
count of ``tools/callgrind_step.py --loop bench``."""

from __future__ import annotations

import numpy as np

from forest_envs import make
from forest_envs.benchmark.throughput import aec_play


def test_aec_play_plays_exactly_the_steps_asked_over_several_games():
    env = make("toy_v0", num_players=2)
    assert aec_play(env, np.random.default_rng(0), steps=57) == 57
    again = make("toy_v0", num_players=2)
    aec_play(again, np.random.default_rng(0), steps=57)
    # Seeded: the same steps leave both envs in the same place.
    assert env.unwrapped._actions == again.unwrapped._actions
    assert env.unwrapped.engine_state.to_dict() == again.unwrapped.engine_state.to_dict()


def test_aec_play_stops_on_time_at_a_game_start():
    env = make("toy_v0", num_players=2)
    steps = aec_play(env, np.random.default_rng(0), seconds=0.01)
    assert steps >= 1 and not env.agents  # it ends only between games
