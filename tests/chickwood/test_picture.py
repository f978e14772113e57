"""Chickwood Forest's pictures hide what a seat may not see: the cards in other hands.
(tests/test_pictures.py checks the pictures of every game.)"""

from __future__ import annotations

import numpy as np
import pytest

from forest_envs.chickwood import new_game


def test_seat_one_cannot_see_seat_zeros_cards():
    """Chickwood: two tables differing only in seat 0's hand look the same to seat 1, not to
    seat 0."""
    state = new_game({"num_players": 3}, seed=7)
    state.apply(int(np.random.default_rng(7).choice(state.legal_actions())))
    assert sum(state.view(0)["hand"]) > 0
    for k in range(20):
        other = state.resample_hidden(1, np.random.default_rng(k))
        if other.view(0)["hand"] != state.view(0)["hand"]:
            break
    else:
        pytest.fail("no determinization changed seat 0's hand")
    np.testing.assert_array_equal(other.picture(1), state.picture(1))
    assert not np.array_equal(other.picture(0), state.picture(0))
    assert not np.array_equal(other.picture(None), state.picture(None))
