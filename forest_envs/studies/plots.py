"""A study's figures, drawn by rliable's own plotting functions (matplotlib, Agg backend), each
written as PNG and SVG into the results' plots/ folder."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from .statistics import ScoreStatistics

FORMATS = ("png", "svg")
CURVES = "sample efficiency (IQM against learner steps)"


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _save(fig, folder: Path, stem: str) -> str:
    folder.mkdir(parents=True, exist_ok=True)
    for fmt in FORMATS:
        fig.savefig(folder / f"{stem}.{fmt}", dpi=120, bbox_inches="tight")
    _pyplot().close(fig)
    return stem


def intervals(stats: ScoreStatistics, folder: Path) -> str:
    from rliable import plot_utils

    algorithms = list(stats.over_games)
    points = {a: np.array([stats.over_games[a].iqm.point, stats.over_games[a].mean.point])
              for a in algorithms}
    bands = {a: np.array([[stats.over_games[a].iqm.low, stats.over_games[a].mean.low],
                          [stats.over_games[a].iqm.high, stats.over_games[a].mean.high]])
             for a in algorithms}
    # (the label sits below the axes by a share of their height, which is one row per algorithm)
    fig, _ = plot_utils.plot_interval_estimates(points, bands, ["IQM", "Mean"], algorithms=algorithms,
                                                xlabel=f"score ({stats.kind.name})",
                                                xlabel_y_coordinate=-0.1 - 0.5 / len(algorithms))
    return _save(fig, folder, f"{stats.kind.name}_intervals")


def profiles(stats: ScoreStatistics, folder: Path) -> str:
    from rliable import plot_utils

    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7, 4.5))
    first = next(iter(stats.profiles.values()))
    plot_utils.plot_performance_profiles(
        {a: np.array(p.fraction) for a, p in stats.profiles.items()}, np.array(first.taus),
        {a: np.array([p.low, p.high]) for a, p in stats.profiles.items()}, ax=ax,
        xlabel=rf"score ({stats.kind.name}) $\tau$", ylabel=r"fraction of runs with score $> \tau$")
    ax.legend(loc="upper right")
    return _save(fig, folder, f"{stats.kind.name}_profiles")


def improvements(stats: ScoreStatistics, folder: Path) -> str | None:
    from rliable import plot_utils

    if not stats.improvements:
        return None
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(4.5, 0.6 + 0.5 * len(stats.improvements)))
    plot_utils.plot_probability_of_improvement(
        {f"{i.x},{i.y}": i.probability.point for i in stats.improvements},
        {f"{i.x},{i.y}": np.array([i.probability.low, i.probability.high]) for i in stats.improvements},
        ax=ax)
    return _save(fig, folder, f"{stats.kind.name}_improvement")


def curves(stats: ScoreStatistics, folder: Path) -> str:
    from rliable import plot_utils

    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7, 4.5))
    first = next(iter(stats.curves.values()))
    plot_utils.plot_sample_efficiency_curve(
        np.array(first.steps), {a: np.array(c.iqm) for a, c in stats.curves.items()},
        {a: np.array([c.low, c.high]) for a, c in stats.curves.items()}, ax=ax,
        xlabel="learner steps", ylabel=f"IQM score ({stats.kind.name})", labelsize="large",
        ticklabelsize="large")
    ax.legend(loc="lower right")
    return _save(fig, folder, f"{stats.kind.name}_curves")


def draw_all(stats: ScoreStatistics, folder: Path) -> dict[str, str]:
    """Every figure of one score: what it shows -> its file stem in ``folder``."""
    drawn = {"IQM and mean over games": intervals(stats, folder),
             "performance profile": profiles(stats, folder),
             CURVES: curves(stats, folder)}
    stem = improvements(stats, folder)
    if stem:
        drawn["probability of improvement"] = stem
    return drawn
