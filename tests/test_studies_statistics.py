"""A study's statistics (forest_envs/studies/statistics.py, report.py) on synthetic runs with
known answers, read from result files written as a study writes them: rliable's IQM, mean,
intervals, performance profiles, probability of improvement and sample-efficiency curves."""

from __future__ import annotations

import json
import re
from dataclasses import asdict

import numpy as np
import pytest

from forest_envs.studies import parse_study
from forest_envs.studies.plan import plans
from forest_envs.studies.published import PublishedScores, write_published
from forest_envs.studies.report import write_report
from forest_envs.studies.results import CurvePoint, FinalScores, write_curve, write_final
from forest_envs.studies.statistics import SCORES, aggregates, read_scores, score_statistics

pytest.importorskip("rliable")

WIN_RATE, RATING = SCORES
SETTINGS = {"n_envs": 2, "vec_env": "dummy", "ppo.batch_size": 256}
STUDY = {
    "name": "synthetic", "tier": "tiny", "seeds": [0, 1, 2, 3],
    "algorithms": [{"name": "maskable_ppo", "label": "a", "settings": SETTINGS},
                   {"name": "maskable_ppo", "label": "b", "settings": SETTINGS}],
    "games": [{"label": "g1", "env": "chickwood_v0", "config": {"num_players": 3}},
              {"label": "g2", "env": "chickwood_v0", "config": {"num_players": 3}}],
    "evaluation": {"points": 2, "games": 3, "final_games": 6},
    "statistics": {"reps": 100, "curve_reps": 100, "seed": 7},
}
# a's final scores: 1..4 on g1 and 5..8 on g2 (seed by seed); b scores 0.5 everywhere
FINAL = {"a": {"g1": [1.0, 2.0, 3.0, 4.0], "g2": [5.0, 6.0, 7.0, 8.0]},
         "b": {"g1": [0.5] * 4, "g2": [0.5] * 4}}


def write_runs(out, rating=True):
    study = parse_study(STUDY, "synthetic.yaml")
    for plan in plans(study, out):
        plan.path.mkdir(parents=True)
        score = FINAL[plan.algorithm][plan.game][plan.seed]
        # the curve: point k scores k for a, 0.5 for b
        curve = [CurvePoint(k, s, s, 3, 0.5, 0.2, 30.0, 1.0,
                            float(k) if plan.algorithm == "a" else 0.5, 0.1 if rating else None)
                 for k, s in enumerate(plan.point_steps, 1)]
        write_curve(plan.path, curve)
        write_final(plan.path, {"format": "forest_envs benchmark entry 1"}, FinalScores(
            study="synthetic", study_file="synthetic.yaml", tier="tiny", algorithm=plan.algorithm, game=plan.game,
            seed=plan.seed, learner_steps=2048, training_seconds=60.0, games_per_lineup=6, win_rate_vs_heuristic=0.3,
            rating_mu=30.0, score_win_rate=score, score_rating=score / 2 if rating else None))
    return study


def test_the_scores_are_read_from_the_result_files(tmp_path):
    study = write_runs(tmp_path)
    m = read_scores(study, tmp_path, WIN_RATE)
    assert m.algorithms == ("a", "b") and m.games == ("g1", "g2") and m.steps == (1024, 2048)
    assert m.final["a"].tolist() == [[1, 5], [2, 6], [3, 7], [4, 8]]        # seeds x games
    assert m.curves["a"][:, :, 1].tolist() == [[2.0, 2.0]] * 4               # point 2 scores 2
    assert read_scores(study, tmp_path, RATING).final["a"][0].tolist() == [0.5, 2.5]
    cut = read_scores(study.selected(algorithms=["a"], seeds=[1, 0]), tmp_path, WIN_RATE)
    assert cut.algorithms == ("a",) and cut.final["a"].tolist() == [[1, 5], [2, 6]]  # a cut's runs only


def test_known_answers(tmp_path):
    study = write_runs(tmp_path)
    before = np.random.get_state()[1].copy()
    stats = score_statistics(read_scores(study, tmp_path, WIN_RATE), reps=100, curve_reps=100, seed=7)
    assert (np.random.get_state()[1] == before).all()  # the global generator is put back
    over = stats.over_games["a"]
    # IQM of 1..8: the middle half 3, 4, 5, 6; the mean 4.5 too
    assert over.iqm.point == pytest.approx(4.5) and over.mean.point == pytest.approx(4.5)
    assert over.iqm.low < 4.5 < over.iqm.high and 1 <= over.mean.low and over.mean.high <= 8
    # per game: IQM of 1, 2, 3, 4 is 2.5 (25% cut at each end: 1.5 and 2.5 of a run...)
    assert stats.per_game["g1"]["a"].mean.point == pytest.approx(2.5)
    assert stats.per_game["g2"]["a"].iqm.point == pytest.approx(6.5)
    # a constant algorithm: every resample is the same, the interval is the point
    b = stats.over_games["b"].iqm
    assert (b.point, b.low, b.high) == pytest.approx((0.5, 0.5, 0.5))
    # every run of a beats every run of b on every game
    (poi,) = stats.improvements
    assert (poi.x, poi.y) == ("a", "b")
    assert (poi.probability.point, poi.probability.low, poi.probability.high) == (1.0, 1.0, 1.0)
    # b's profile: every run above tau below 0.5, none at or above it
    profile = stats.profiles["b"]
    for tau, fraction in zip(profile.taus, profile.fraction):
        assert fraction == (1.0 if tau < 0.5 else 0.0)
    assert profile.taus[0] == 0.0 and profile.taus[-1] == 8.0               # 0 to the top score
    # a's curve: every run scores k at point k
    curve = stats.curves["a"]
    assert curve.steps == (1024, 2048)
    assert curve.iqm == (1.0, 2.0) and curve.low == (1.0, 2.0) and curve.high == (1.0, 2.0)


def test_the_bootstrap_is_reproducible_and_its_seed_matters(tmp_path):
    study = write_runs(tmp_path)
    scores = {"a": read_scores(study, tmp_path, WIN_RATE).final["a"]}
    first = aggregates(scores, reps=100, seed=1)
    np.random.seed(12345)  # whatever the global generator holds
    assert aggregates(scores, reps=100, seed=1) == first
    assert aggregates(scores, reps=100, seed=2) != first


def test_the_report(tmp_path):
    study = write_runs(tmp_path, rating=False).selected(seeds=[3, 2, 1, 0])
    path = write_report(study, tmp_path)
    text = path.read_text()
    assert "| g1 | a | 2.500 [" in text and "| **all games** | b | 0.500 [0.500, 0.500] | 0.500 [0.500, 0.500] |" in text
    assert "| a | b | 1.000 [1.000, 1.000] |" in text
    assert "[PNG](plots/win_rate_curves.png), [SVG](plots/win_rate_curves.svg)" in text
    assert "## Score: rating\n\nNot computed: no rating score for g1" in text
    assert "| a | g2 | 3 | 2,048 | 1.0 | 0.300 | 30.00 | 8.000 | - |" in text      # the runs
    for stem in ("intervals", "profiles", "improvement", "curves"):
        for fmt in ("png", "svg"):
            assert (tmp_path / "plots" / f"win_rate_{stem}.{fmt}").stat().st_size > 1000
    assert "## Published policies" not in text and "beside the runs" not in text
    aggregate = json.loads((tmp_path / "aggregate.json").read_text())
    assert aggregate["published"] == []
    assert aggregate["scores"]["win_rate"]["runs"]["a"]["g2"] == [5.0, 6.0, 7.0, 8.0]
    assert aggregate["scores"]["win_rate"]["over_games"]["a"]["iqm"]["point"] == pytest.approx(4.5)
    assert aggregate["scores"]["rating"]["skipped"].startswith("no rating score for g1")
    assert aggregate["bootstrap"] == {"library": "rliable 1.2.0", "reps": 100, "curve_reps": 100, "seed": 7,
                                      "confidence": 0.95, "method": "percentile, stratified over games"}
    # a cut of the study (here of every seed, so the figures above are the same) says so
    assert aggregate["selection"] == "seeds 0, 1, 2, 3"
    assert "Study file: `synthetic.yaml`, its runs of seeds 0, 1, 2, 3 only." in text


def test_a_published_policy_is_set_beside_its_algorithms_runs(tmp_path):
    study = write_runs(tmp_path)
    # a's runs score 1, 2, 3, 4 on g1 (ratings 0.5, 1, 1.5, 2): the published policy 2.2 (rating 2.5)
    published = PublishedScores(algorithm="a", game="g1", agent="ppo", what="the shipped `ppo`",
                                learner_steps=3_000_000, games_per_lineup=6, win_rate_vs_heuristic=0.45,
                                rating_mu=40.0, score_win_rate=2.2, score_rating=2.5)
    write_published(tmp_path, {"format": "forest_envs benchmark entry 1"}, published)
    text = write_report(study, tmp_path).read_text()
    win_rate, rating = text.split("## Score: rating")
    # IQM of 1, 2, 3, 4 is 2.5 (its interval from the bootstrap); 2 of the 4 runs below 2.2
    assert re.search(r"\| g1 \| a \| the shipped `ppo` \| 3,000,000 \| 2\.200 \| 2\.500 \[\d\.\d{3}, "
                     r"\d\.\d{3}\] \| 2 of 4 \|", win_rate)
    assert re.search(r"\| g1 \| a \| the shipped `ppo` \| 3,000,000 \| 2\.500 \| 1\.250 \[.*\] \| 4 of 4 \|",
                     rating)
    assert "| a | g1 | the shipped `ppo` | 3,000,000 | 0.450 | 40.00 | 2.200 | 2.500 |" in text
    assert json.loads((tmp_path / "aggregate.json").read_text())["published"] == [asdict(published)]
