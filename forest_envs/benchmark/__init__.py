"""``forest-envs benchmark``: one protocol to compare agents, with ratings on a fixed scale.

``protocol.py`` plays a candidate against the reference line-ups and builds the leaderboard
entry; ``rating.py`` rates it against the frozen reference ratings stored in
``reference_ratings.json`` (made by ``forest-envs benchmark --calibrate``); ``table.py``
prints both. docs/benchmark.md describes the protocol and the entry's fields.
"""

from .protocol import (
    DEFAULT_CALIBRATION_GAMES,
    DEFAULT_CALIBRATION_SEED,
    DEFAULT_GAMES,
    DEFAULT_SEED,
    calibration_lineups,
    chosen_lineups,
    config_key,
    default_references,
    reference_lineups,
    run_benchmark,
    run_calibration,
)
from .rating import REFERENCE_RATINGS, Rating, load_ratings, rate_one, store_entry
from .table import format_benchmark, format_calibration

__all__ = ["DEFAULT_CALIBRATION_GAMES", "DEFAULT_CALIBRATION_SEED", "DEFAULT_GAMES", "DEFAULT_SEED",
           "REFERENCE_RATINGS", "Rating", "calibration_lineups", "chosen_lineups", "config_key", "default_references",
           "format_benchmark", "format_calibration", "load_ratings", "rate_one", "reference_lineups",
           "run_benchmark", "run_calibration", "store_entry"]
