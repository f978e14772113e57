"""Where on a seat's picture a move is made (``state.move_places``, each game's
``picture.move_places``): the clickable places of ``forest-envs serve``. Every place lies on
the picture, the moves the rulebook makes at a place have one (a tile moved to, a castle
played to or raided, a village given alms, an ambush laid, a traveller led or looked at), and
two moves share a place only where they are made at the same spot."""

from __future__ import annotations

import numpy as np
import pytest

import forest_envs
from forest_envs.chickwood import actions as CA
from forest_envs.roundforest import actions as RA
from forest_envs.sherwood import actions as SA

# the blocks whose every legal move has a place, by game
PLACED = {"chickwood_v0": (CA.PLAY, CA.SPY, CA.RAID, CA.ALMS, CA.ENT_PICK),
          "roundforest_v0": (RA.MOVE, RA.COMPASS, RA.TILE),
          "sherwood_v0": (SA.AMBUSH, SA.JOINT, SA.INN, SA.LEAD, SA.REVEAL, SA.TARGET, SA.MESSENGER)}


@pytest.mark.parametrize("env_id", sorted(PLACED))
def test_every_move_at_a_place_has_one_on_the_picture(env_id):
    rng = np.random.default_rng(6)
    env = forest_envs.make(env_id, num_players=3).unwrapped
    placed = 0
    for game in range(3):
        env.reset(seed=game)
        state = env.engine_state
        height, width, _ = state.picture_shape()
        for _ in range(150):
            if state.is_terminal:
                break
            seat = state.current_player
            legal = state.legal_actions()
            places = state.move_places(legal, seat)
            assert set(places) <= set(legal)
            for a in legal:
                if any(a in block for block in PLACED[env_id]):
                    assert a in places, (state.decision_name(), state.game.action_to_string(a))
            for a, (x0, y0, x1, y1) in places.items():
                assert 0 <= x0 < x1 <= width and 0 <= y0 < y1 <= height, (a, places[a])
                placed += 1
            env.step(int(rng.choice(legal)))
    assert placed > 100


def test_places_name_the_spot_the_move_names():
    """Roundforest: the move to a tile is that tile's square, and no two tiles share one."""
    env = forest_envs.make("roundforest_v0", num_players=2).unwrapped
    env.reset(seed=0)
    state = env.engine_state
    cells = list(range(RA.MOVE.size))
    places = state.move_places([RA.MOVE.start + c for c in cells], 0)
    assert len(set(places.values())) == len(places) == len(cells)
    from forest_envs.roundforest.picture import BOARD_X, BOARD_Y, TILE

    assert places[RA.MOVE.start + 0] == (BOARD_X, BOARD_Y, BOARD_X + TILE, BOARD_Y + TILE)
