"""A study's statistics, every one computed by ``rliable`` (Agarwal et al., 2021) from the
runs' result files: per game and over games the interquartile mean (IQM: the mean of the
middle half of the runs' scores) and the mean, each with a 95% stratified-bootstrap interval;
performance profiles (the fraction of runs above each score, with bands); the probability
that one algorithm's run beats another's on a game chosen at random; and sample-efficiency
curves (IQM over games and runs at each evaluation point, with bands).

The bootstrap is reproducible: rliable is given a seeded ``np.random.RandomState``, and since
rliable 1.2.0 draws its resampling indices from numpy's global generator all the same
(``StratifiedBootstrap.update_indices`` calls ``np.random.choice``), that generator is seeded
for the call too and put back as it was afterwards.
"""

from __future__ import annotations

import itertools
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..core.errors import ConfigError
from .results import CurvePoint, ProtocolFigures, read_curve, read_final
from .spec import Study

CONFIDENCE = 0.95
PROFILE_TAUS = 81          # thresholds of a performance profile


@dataclass(frozen=True)
class ScoreKind:
    name: str
    title: str
    final: Callable[[ProtocolFigures], float | None]   # of a final or published policy
    point: Callable[[CurvePoint], float | None]


SCORES = (
    ScoreKind("win_rate", "win rate against the heuristic line-up, random = 0, heuristic = 1",
              lambda f: f.score_win_rate, lambda p: p.score_win_rate),
    ScoreKind("rating", "rating on the frozen scale, random = 0, heuristic = 1",
              lambda f: f.score_rating, lambda p: p.score_rating),
)


@dataclass(frozen=True)
class ScoreMatrices:
    """One score of every run: ``final[algorithm]`` is (seeds x games), ``curves[algorithm]``
    (seeds x games x points), in the study's order."""

    kind: ScoreKind
    algorithms: tuple[str, ...]
    games: tuple[str, ...]
    steps: tuple[int, ...]
    final: dict[str, np.ndarray]
    curves: dict[str, np.ndarray]


def read_scores(study: Study, out: Path, kind: ScoreKind) -> ScoreMatrices:
    """The matrices of ``kind`` from the runs' final.json and curve.json; ConfigError naming
    the first run that is missing or has no such score."""
    steps = tuple(study.point_steps())
    final, curves = {}, {}
    for a in study.algorithms:
        f = np.zeros((len(study.seeds), len(study.games)))
        c = np.zeros((len(study.seeds), len(study.games), len(steps)))
        for (i, seed), (j, g) in itertools.product(enumerate(study.seeds), enumerate(study.games)):
            folder = out / "runs" / a.label / g.label / f"seed_{seed}"
            result = read_final(folder)
            points = read_curve(folder)
            if result is None or len(points) != len(steps):
                raise ConfigError(f"run {a.label}/{g.label}/seed_{seed} has not finished "
                                  f"({folder}): the statistics need every run")
            values = [kind.final(result)] + [kind.point(p) for p in points]
            if any(v is None for v in values):
                raise ConfigError(f"no {kind.name} score for {g.label}: its configuration has no "
                                  "frozen ratings (forest-envs benchmark --calibrate)")
            f[i, j] = values[0]
            c[i, j] = values[1:]
        final[a.label], curves[a.label] = f, c
    return ScoreMatrices(kind, tuple(a.label for a in study.algorithms),
                         tuple(g.label for g in study.games), steps, final, curves)


# --- rliable -------------------------------------------------------------------------------------

@contextmanager
def seeded(seed: int) -> Iterator[np.random.RandomState]:
    """A RandomState for rliable's ``random_state``, with numpy's global generator seeded alike
    for the duration (module doc) and restored after; arch's notice that RandomState is
    deprecated (the study extra pins arch below 8, which still takes it) is silenced."""
    saved = np.random.get_state()
    np.random.seed(seed)
    try:
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", category=FutureWarning, module="arch")
            yield np.random.RandomState(seed)
    finally:
        np.random.set_state(saved)


@dataclass(frozen=True)
class Estimate:
    point: float
    low: float
    high: float


@dataclass(frozen=True)
class Aggregates:
    iqm: Estimate
    mean: Estimate


@dataclass(frozen=True)
class Profile:
    taus: tuple[float, ...]
    fraction: tuple[float, ...]   # of runs (over games) with a score above tau
    low: tuple[float, ...]
    high: tuple[float, ...]


@dataclass(frozen=True)
class Improvement:
    x: str
    y: str
    probability: Estimate         # P(a run of x beats a run of y), averaged over games


@dataclass(frozen=True)
class Curve:
    steps: tuple[int, ...]
    iqm: tuple[float, ...]
    low: tuple[float, ...]
    high: tuple[float, ...]


@dataclass(frozen=True)
class ScoreStatistics:
    kind: ScoreKind
    per_game: dict[str, dict[str, Aggregates]]    # game -> algorithm -> estimates
    over_games: dict[str, Aggregates]             # algorithm -> estimates
    profiles: dict[str, Profile]
    improvements: tuple[Improvement, ...]
    curves: dict[str, Curve]


def _iqm_and_mean(scores: np.ndarray) -> np.ndarray:
    from rliable import metrics

    return np.array([metrics.aggregate_iqm(scores), metrics.aggregate_mean(scores)])


def aggregates(scores: dict[str, np.ndarray], reps: int, seed: int) -> dict[str, Aggregates]:
    from rliable import library as rly

    with seeded(seed) as rs:
        points, intervals = rly.get_interval_estimates(scores, _iqm_and_mean, reps=reps,
                                                       confidence_interval_size=CONFIDENCE,
                                                       random_state=rs)
    return {a: Aggregates(*(Estimate(float(points[a][m]), float(intervals[a][0, m]),
                                     float(intervals[a][1, m])) for m in range(2)))
            for a in scores}


def profiles(scores: dict[str, np.ndarray], reps: int, seed: int) -> dict[str, Profile]:
    from rliable import library as rly

    every = np.concatenate([s.ravel() for s in scores.values()])
    taus = np.linspace(min(0.0, float(every.min())), max(1.0, float(every.max())), PROFILE_TAUS)
    with seeded(seed):  # create_performance_profile takes no random_state: the global one draws
        fractions, bands = rly.create_performance_profile(scores, taus, reps=reps,
                                                          confidence_interval_size=CONFIDENCE)
    return {a: Profile(tuple(map(float, taus)), tuple(map(float, fractions[a])),
                       tuple(map(float, bands[a][0])), tuple(map(float, bands[a][1])))
            for a in scores}


def improvements(scores: dict[str, np.ndarray], reps: int, seed: int) -> tuple[Improvement, ...]:
    """P(X > Y) for each pair of algorithms, in the study's order (P(Y > X) is 1 minus it)."""
    from rliable import library as rly
    from rliable import metrics

    pairs = {f"{x},{y}": [scores[x], scores[y]] for x, y in itertools.combinations(scores, 2)}
    if not pairs:
        return ()
    with seeded(seed) as rs:
        points, intervals = rly.get_interval_estimates(pairs, metrics.probability_of_improvement,
                                                       reps=reps, confidence_interval_size=CONFIDENCE,
                                                       random_state=rs)
    out = []
    for key in pairs:
        x, y = key.split(",")
        low, high = np.ravel(intervals[key])
        out.append(Improvement(x, y, Estimate(float(points[key]), float(low), float(high))))
    return tuple(out)


def curves(matrices: ScoreMatrices, reps: int, seed: int) -> dict[str, Curve]:
    from rliable import library as rly
    from rliable import metrics

    def iqm_per_point(scores: np.ndarray) -> np.ndarray:
        return np.array([metrics.aggregate_iqm(scores[..., k]) for k in range(scores.shape[-1])])

    with seeded(seed) as rs:
        points, intervals = rly.get_interval_estimates(matrices.curves, iqm_per_point, reps=reps,
                                                       confidence_interval_size=CONFIDENCE,
                                                       random_state=rs)
    return {a: Curve(matrices.steps, tuple(map(float, points[a])), tuple(map(float, intervals[a][0])),
                     tuple(map(float, intervals[a][1])))
            for a in matrices.algorithms}


def score_statistics(matrices: ScoreMatrices, reps: int, curve_reps: int, seed: int) -> ScoreStatistics:
    """Every statistic of one score: ``reps`` resamples for each interval of the final scores,
    ``curve_reps`` for each point of a curve or profile (rliable's own default for profiles is
    2,000: a curve of ten points costs ten intervals a resample)."""
    per_game = {}
    for j, game in enumerate(matrices.games):
        per_game[game] = aggregates({a: s[:, [j]] for a, s in matrices.final.items()}, reps, seed)
    return ScoreStatistics(matrices.kind, per_game, aggregates(matrices.final, reps, seed),
                           profiles(matrices.final, curve_reps, seed),
                           improvements(matrices.final, reps, seed), curves(matrices, curve_reps, seed))
