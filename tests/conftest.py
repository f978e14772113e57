"""Registers the toy game of tests/toy_game.py, so every generic suite also runs on a game
that lives outside the package (proof that core/ is generic); sends the Python-engine runs
of ``whole_games`` tests to the slow suite (below)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from toy_game import ToyEnv, ToyGame  # noqa: E402

from forest_envs.envs.registration import register  # noqa: E402

register("toy_v0", ToyGame, ToyEnv, bench_configs=[{"num_players": 2}])


# A test marked ``whole_games`` plays whole games (random, heuristic or fuzzed), which is where
# its time goes. The fast suite runs it on the native engine, the default wherever it is built;
# its run on the Python engine joins ``slow`` (make test-all). What it checks is not lost on the
# Python engine meanwhile: the differential fuzz of the fast suite steps both engines through
# whole games and finds every state, observation, mask and reward equal after every action.
# Where no native engine is built, the Python engine is the only one, and its run stays fast.
@pytest.hookimpl(tryfirst=True)  # before ``-m 'not slow'`` deselects
def pytest_collection_modifyitems(config, items):
    native = {item.function for item in items
              if getattr(item, "callspec", None) and item.callspec.params.get("engine") == "native"}
    for item in items:
        if (item.get_closest_marker("whole_games") and item.function in native
                and item.callspec.params.get("engine") == "python"):
            item.add_marker(pytest.mark.slow)
