"""A run's eval.csv: one row per periodic evaluation and opponent kind, appended as training
goes (``forest-envs plot`` draws it, read through
``forest_envs.evaluation.read_learning_curve``)."""

from __future__ import annotations

import csv
from pathlib import Path

EVAL_COLUMNS = ("timesteps", "wall_s", "opponent", "games", "win_rate", "ci_low", "ci_high",
                "mean_score")


def append_evaluation(log: Path, timesteps: int, wall_seconds: float, rows: dict[str, dict]) -> None:
    """Append one evaluation's rows (``rows``: opponent kind -> its summary row from
    ``forest_envs.evaluation.summarize``) to ``log``, writing the header first in a new file."""
    new = not log.exists()
    with log.open("a", newline="") as f:
        w = csv.writer(f)
        if new:
            w.writerow(EVAL_COLUMNS)
        for kind, r in rows.items():
            score = r["mean_score"]  # None in a game without points
            w.writerow([timesteps, round(wall_seconds, 1), kind, r["games"], round(r["win_rate"], 4),
                        round(r["win_ci95"][0], 4), round(r["win_ci95"][1], 4),
                        "" if score is None else round(score, 2)])
