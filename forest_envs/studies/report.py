"""A finished study's report: aggregate.json (every statistic of every score), results.md
(the tables, linking the plots, and each published policy beside its algorithm's runs) and
plots/ (plots.py)."""

from __future__ import annotations

import json
from dataclasses import asdict
from importlib.metadata import version
from pathlib import Path

from ..core.errors import ConfigError
from . import plots
from .published import FOLDER as PUBLISHED
from .published import PublishedScores, read_published
from .results import FinalScores, ProtocolFigures, read_final
from .spec import Study
from .statistics import CONFIDENCE, SCORES, Aggregates, ScoreStatistics, read_scores, score_statistics

AGGREGATE, MARKDOWN, PLOTS = "aggregate.json", "results.md", "plots"


def _stats_json(stats: ScoreStatistics, runs: dict) -> dict:
    return {"description": stats.kind.title, "runs": runs,
            "per_game": {g: {a: asdict(e) for a, e in by.items()} for g, by in stats.per_game.items()},
            "over_games": {a: asdict(e) for a, e in stats.over_games.items()},
            "performance_profiles": {a: asdict(p) for a, p in stats.profiles.items()},
            "probability_of_improvement": [asdict(i) for i in stats.improvements],
            "sample_efficiency": {a: asdict(c) for a, c in stats.curves.items()}}


def _cell(e: Aggregates) -> str:
    return (f"{e.iqm.point:.3f} [{e.iqm.low:.3f}, {e.iqm.high:.3f}] | "
            f"{e.mean.point:.3f} [{e.mean.low:.3f}, {e.mean.high:.3f}]")


def _beside_the_runs(stats: ScoreStatistics, runs: dict[str, dict[str, list[float]]],
                     published: list[PublishedScores]) -> list[str]:
    """Each published policy's score beside its algorithm's runs on the same game."""
    if not published:
        return []
    rows = []
    for p in published:
        score, seeds = stats.kind.final(p), runs[p.algorithm][p.game]
        below = "-" if score is None else f"{sum(v < score for v in seeds)} of {len(seeds)}"
        iqm = stats.per_game[p.game][p.algorithm].iqm
        rows.append([p.game, p.algorithm, p.what, f"{p.learner_steps:,}", _number(score, 3),
                     f"{iqm.point:.3f} [{iqm.low:.3f}, {iqm.high:.3f}]", below])
    return ["Published policies beside the runs of their algorithm (evaluated as a final policy "
            f"is: `{PUBLISHED}/<algorithm>/<game>/final.json`):", ""] + _table(
        ["game", "algorithm", "published policy", "its learner steps", "its score",
         "the runs' IQM [95% CI]", "runs below it"], rows)


def _markdown(study: Study, computed: list[tuple[ScoreStatistics, dict[str, str], dict]],
              skipped: dict[str, str], wall: dict[str, float], finals: list[FinalScores],
              published: list[PublishedScores]) -> str:
    s = study
    lines = [f"# Study `{s.name}`", "",
             f"{len(s.algorithms)} algorithm(s) x {len(s.games)} game configuration(s) x "
             f"{len(s.seeds)} seeds (seeds {', '.join(map(str, s.seeds))}), the `{s.tier.name}` tier: "
             f"{s.tier.learner_steps:,} learner steps per run. Study file: `{s.cited_source}`"
             + (f", its runs of {s.selection} only." if s.selection else "."), "",
             f"Evaluation: {s.evaluation.points} points along the way ({s.evaluation.games} games per "
             f"line-up, random and heuristic), then the full benchmark protocol "
             f"({s.evaluation.final_games} games per line-up) on the final policy.", "",
             f"Statistics by rliable {version('rliable')}: interquartile mean (IQM) and mean over runs, "
             f"{CONFIDENCE:.0%} stratified-bootstrap intervals ({s.statistics.reps:,} resamples; "
             f"{s.statistics.curve_reps:,} for each point of the curves and profiles; seed "
             f"{s.statistics.seed}).", ""]
    lines += ["Training time per run (mean over seeds and games):", ""]
    lines += [f"- {a}: {seconds / 60:.1f} min" for a, seconds in wall.items()] + [""]
    for stats, drawn, runs in computed:
        lines += [f"## Score: {stats.kind.name}", "", f"{stats.kind.title}.", "",
                  "| game | algorithm | IQM [95% CI] | mean [95% CI] |", "|---|---|---|---|"]
        for game, by in stats.per_game.items():
            lines += [f"| {game} | {a} | {_cell(e)} |" for a, e in by.items()]
        lines += [f"| **all games** | {a} | {_cell(e)} |" for a, e in stats.over_games.items()]
        if stats.improvements:
            lines += ["", "| X | Y | P(X > Y) [95% CI] |", "|---|---|---|"]
            lines += [f"| {i.x} | {i.y} | {i.probability.point:.3f} [{i.probability.low:.3f}, "
                      f"{i.probability.high:.3f}] |" for i in stats.improvements]
        lines.append("")
        lines += _beside_the_runs(stats, runs, published)
        lines += [f"- {what}: [PNG]({PLOTS}/{stem}.png), [SVG]({PLOTS}/{stem}.svg)"
                  for what, stem in drawn.items()]
        curve = drawn[plots.CURVES]
        lines += ["", f"![{stats.kind.name}: IQM against learner steps]({PLOTS}/{curve}.png)", ""]
    for name, why in skipped.items():
        lines += [f"## Score: {name}", "", f"Not computed: {why}", ""]
    return "\n".join(lines + _runs_table(finals) + _published_table(published))


def _number(value: float | None, digits: int) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def _table(columns: list[str], rows: list[list[str]]) -> list[str]:
    return (["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
            + ["| " + " | ".join(row) + " |" for row in rows] + [""])


FIGURES = ["win rate vs heuristic", "rating mu", "score win_rate", "score rating"]


def _figures(f: ProtocolFigures) -> list[str]:
    """The cells of FIGURES: what a final policy's full-protocol entry says, and its scores."""
    return [f"{f.win_rate_vs_heuristic:.3f}", _number(f.rating_mu, 2), f"{f.score_win_rate:.3f}",
            _number(f.score_rating, 3)]


def _runs_table(finals: list[FinalScores]) -> list[str]:
    """Every run's final entry in one row (its final.json has the whole entry)."""
    return ["## Runs", "", "The final policy of each run, full protocol (`runs/<algorithm>/<game>/"
            "seed_<n>/final.json`).", ""] + _table(
        ["algorithm", "game", "seed", "learner steps", "training min", *FIGURES],
        [[f.algorithm, f.game, str(f.seed), f"{f.learner_steps:,}", f"{f.training_seconds / 60:.1f}",
          *_figures(f)] for f in finals])


def _published_table(published: list[PublishedScores]) -> list[str]:
    if not published:
        return []
    return ["## Published policies", "", "Each evaluated as a run's final policy is, full protocol "
            f"(`{PUBLISHED}/<algorithm>/<game>/final.json`).", ""] + _table(
        ["algorithm", "game", "published policy", "its learner steps", *FIGURES],
        [[p.algorithm, p.game, p.what, f"{p.learner_steps:,}", *_figures(p)] for p in published])


def write_report(study: Study, out: Path) -> Path:
    """aggregate.json, results.md and plots/ of a study whose runs have all finished."""
    computed, skipped, scores_json = [], {}, {}
    for kind in SCORES:
        try:
            matrices = read_scores(study, out, kind)
        except ConfigError as err:
            skipped[kind.name] = str(err)
            scores_json[kind.name] = {"description": kind.title, "skipped": str(err)}
            continue
        st = study.statistics
        stats = score_statistics(matrices, st.reps, st.curve_reps, st.seed)
        runs = {a: {g: [float(v) for v in matrices.final[a][:, j]] for j, g in enumerate(matrices.games)}
                for a in matrices.algorithms}
        scores_json[kind.name] = _stats_json(stats, runs)
        computed.append((stats, plots.draw_all(stats, out / PLOTS), runs))
    if not computed:
        raise ConfigError(f"no score could be computed: {'; '.join(skipped.values())}")
    finals = [f for f in (read_final(out / "runs" / a.label / g.label / f"seed_{seed}")
                          for a in study.algorithms for g in study.games for seed in study.seeds)
              if f is not None]  # (all of them: read_scores has read them)
    published = [p for p in (read_published(out, a.label, g.label) for a in study.algorithms
                             for g in study.games) if p is not None]
    wall = {}
    for a in study.algorithms:
        times = [f.training_seconds for f in finals if f.algorithm == a.label]
        wall[a.label] = sum(times) / len(times)
    aggregate = {"study": study.name, "study_file": study.cited_source, "selection": study.selection,
                 "tier": study.tier.name,
                 "learner_steps": study.tier.learner_steps, "seeds": list(study.seeds),
                 "algorithms": [a.label for a in study.algorithms],
                 "games": [g.label for g in study.games],
                 "bootstrap": {"library": f"rliable {version('rliable')}", "reps": study.statistics.reps,
                               "curve_reps": study.statistics.curve_reps,
                               "seed": study.statistics.seed, "confidence": CONFIDENCE,
                               "method": "percentile, stratified over games"},
                 "training_seconds_mean": wall, "scores": scores_json,
                 "published": [asdict(p) for p in published]}
    (out / AGGREGATE).write_text(json.dumps(aggregate, indent=1) + "\n")
    path = out / MARKDOWN
    path.write_text(_markdown(study, computed, skipped, wall, finals, published) + "\n")
    return path
