"""Registers the toy game of tests/toy_game.py, so every generic suite also runs on a game
that lives outside the package (proof that core/ is generic)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from toy_game import ToyEnv, ToyGame  # noqa: E402

from forest_envs.envs.registration import register  # noqa: E402

register("toy_v0", ToyGame, ToyEnv, bench_configs=[{"num_players": 2}])
