"""The text pages name the seats as the pictures do (``drawing.seats.seat_name``): "P1 (you)"
in the view of the seat that plays it, plain "P1" in a replay (``watched()``)."""

from __future__ import annotations

import pytest

from forest_envs.core.registry import game_spec
from forest_envs.drawing.seats import watched


@pytest.mark.parametrize("env_id", ["chickwood_v0", "sherwood_v0"])
def test_text_page_says_you_only_outside_a_replay(env_id):
    state = game_spec(env_id).game_class(num_players=3).new_initial_state(0)
    assert "  P1 (you): " in state.render(1)
    assert "(you)" not in state.render(None)
    with watched():
        page = state.render(1)
    assert "(you)" not in page and "  P1: " in page
