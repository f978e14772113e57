"""A run's result files: its curve (curve.json and curve.csv, one row per evaluation along the
way) and final.json (the benchmark's leaderboard entry of the final policy, with a ``study``
block saying which study, tier, seed and algorithm made it and its scores)."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, fields
from pathlib import Path

CURVE_JSON, CURVE_CSV, FINAL = "curve.json", "curve.csv", "final.json"


@dataclass(frozen=True)
class CurvePoint:
    point: int                  # 1, 2, ...: the k-th evaluation, at k/points of the budget
    nominal_steps: int          # k/points of the budget
    learner_steps: int          # the checkpoint's own step count (the first at or after it)
    games: int                  # per line-up
    win_rate_vs_random: float
    win_rate_vs_heuristic: float
    rating_mu: float | None     # on the frozen scale, over both line-ups (None: not calibrated)
    rating_sigma: float | None
    score_win_rate: float       # random 0, heuristic 1 (references.py)
    score_rating: float | None


@dataclass(frozen=True, kw_only=True)
class ProtocolFigures:
    """What a study reads of a policy's full-protocol entry (``run_one.full_protocol``: a
    run's final policy or an algorithm's published one), scored on the study's references."""

    games_per_lineup: int
    win_rate_vs_heuristic: float
    rating_mu: float | None     # overall, over every line-up of the full protocol
    score_win_rate: float
    score_rating: float | None


@dataclass(frozen=True, kw_only=True)
class FinalScores(ProtocolFigures):
    """The ``study`` block of final.json: which study, tier, algorithm, game and seed made the
    run's final policy, and its figures."""

    study: str
    study_file: str
    tier: str
    algorithm: str
    game: str
    seed: int
    learner_steps: int          # where training stopped (the budget, or a rollout past it)
    training_seconds: float


def write_atomic(path: Path, text: str) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text)
    tmp.replace(path)


def read_curve(folder: Path) -> list[CurvePoint]:
    path = folder / CURVE_JSON
    if not path.is_file():
        return []
    return [CurvePoint(**row) for row in json.loads(path.read_text())]


def write_curve(folder: Path, points: list[CurvePoint]) -> None:
    write_atomic(folder / CURVE_JSON, json.dumps([asdict(p) for p in points], indent=1) + "\n")
    names = [f.name for f in fields(CurvePoint)]
    rows = [",".join(names)]
    for p in points:
        rows.append(",".join("" if v is None else (f"{v:.6g}" if isinstance(v, float) else str(v))
                             for v in (getattr(p, n) for n in names)))
    write_atomic(folder / CURVE_CSV, "\n".join(rows) + "\n")


def write_final(folder: Path, entry: dict, scores: FinalScores) -> None:
    write_atomic(folder / FINAL, json.dumps({**entry, "study": asdict(scores)}, indent=1) + "\n")


def read_final(folder: Path) -> FinalScores | None:
    """The final scores of a finished run, None while it is not finished."""
    path = folder / FINAL
    if not path.is_file():
        return None
    return FinalScores(**json.loads(path.read_text())["study"])

