"""Every game's pictures stay the same pixel for pixel while their drawing gets faster.

``picture_hashes.json`` holds the sha256 of the pictures of fixed positions of every game and
configuration (the start and after 12 and 45 seeded random moves), in every view and in a
replay's (``watched()``, no "(you)"), computed with the drawing code before the speed-ups of
issue 18's second pass. A deliberate change of what a picture shows rewrites the file:
``python tests/test_picture_identity.py --write`` from the repository's root.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys

import numpy as np
import pytest

from forest_envs.core.registry import env_ids, game_spec
from forest_envs.drawing.seats import watched

HASHES = os.path.join(os.path.dirname(__file__), "picture_hashes.json")
GAMES = [g for g in env_ids() if game_spec(g).game_class.state_class.has_picture()]
MOVES = (0, 12, 45)


def positions(env_id: str, cfg: dict):
    """The start and the positions after ``MOVES`` seeded random legal moves (fewer if the
    game ends first)."""
    state = game_spec(env_id).game_class(**cfg).new_initial_state(7)
    rng = np.random.default_rng(7)
    done = 0
    for moves in MOVES:
        while done < moves and not state.is_terminal:
            state.apply(int(rng.choice(state.legal_actions())))
            done += 1
        yield moves, state.clone()


def config_name(cfg: dict) -> str:
    return ",".join(f"{k}={v}" for k, v in cfg.items())


def digest(image: np.ndarray) -> str:
    return hashlib.sha256(np.ascontiguousarray(image).tobytes()
                          + repr((image.shape, str(image.dtype))).encode()).hexdigest()


def hashes_of(env_id: str) -> dict:
    out = {}
    for cfg in game_spec(env_id).game_class.all_configs():
        for moves, state in positions(env_id, cfg):
            for view in [None] + list(range(state.num_players)):
                where = f"{config_name(cfg)}|{moves}|{view}"
                out[where] = digest(state.picture(view))
                with watched():
                    out[where + "|watched"] = digest(state.picture(view))
    return out


@pytest.mark.slow  # every view of every configuration drawn: make test-all (test_pictures draws some)
@pytest.mark.parametrize("env_id", GAMES)
def test_pictures_are_the_stored_pixels(env_id):
    with open(HASHES, encoding="utf-8") as f:
        stored = json.load(f)[env_id]
    got = hashes_of(env_id)
    assert set(got) == set(stored)
    differ = sorted(k for k in got if got[k] != stored[k])
    assert not differ, f"{env_id}: {len(differ)} pictures changed, e.g. {differ[:5]}"


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: python tests/test_picture_identity.py --write")
    with open(HASHES, "w", encoding="utf-8") as f:
        json.dump({g: hashes_of(g) for g in GAMES}, f, indent=0, sort_keys=True)
        f.write("\n")
