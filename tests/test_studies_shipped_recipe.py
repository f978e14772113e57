"""The ``shipped_recipe`` algorithm (forest_envs/studies/algorithms/shipped_recipe.py): the
training config that made a game's shipped ``ppo`` baseline, found through the baseline's own
summary, under the study's seed and budget; and the shipped policy as the recipe's published
seed, which the study evaluates as a final policy to set it beside its runs."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

import pytest

from forest_envs.agents.baselines import FOLDER
from forest_envs.core.errors import ConfigError
from forest_envs.studies import parse_study
from forest_envs.studies.algorithms import PublishedPolicy, TrainingJob, algorithm
from forest_envs.studies.algorithms.shipped_recipe import shipped_recipe
from forest_envs.studies.published import PublishedScores, evaluate_published, published_path, read_published
from forest_envs.studies.references import ensure_references
from forest_envs.studies.run_one import full_protocol
from forest_envs.train.config import load_config

SHIPPED = [("chickwood_v0", {"num_players": 3, "legendary": False}, "chickwood_baseline"),
           ("roundforest_v0", {"num_players": 3}, "roundforest_baseline"),
           ("sherwood_v0", {"num_players": 4, "additions": False}, "sherwood_baseline")]


def _job(env, config, settings=None, seed=3):
    return TrainingJob(env, config, seed, 2_000_000, 200_000, Path("/tmp/study-run"), settings or {})


@pytest.mark.parametrize("env, config, name", SHIPPED)
def test_the_recipe_is_the_config_that_trained_the_shipped_weights(env, config, name):
    assert shipped_recipe(env, config) == load_config(name)


@pytest.mark.parametrize("env, config, name", SHIPPED)
def test_the_study_decides_the_seed_budget_folder_and_evaluation_and_nothing_else(env, config, name):
    recipe = load_config(name)
    trained = algorithm("shipped_recipe").training_config(_job(env, config))
    decided = {"seed": 3, "total_timesteps": 2_000_000, "output_dir": "/tmp/study-run",
               "checkpoint_every": 200_000, "time_limit_minutes": None}
    assert {k: trained[k] for k in decided} == decided
    assert trained["eval"]["games"] == 0 and trained["eval"]["final_games"] == 0  # the study's own
    kept = set(recipe) - set(decided) - {"eval"}
    assert {k: trained[k] for k in kept} == {k: recipe[k] for k in kept}
    assert trained["env"] == env and trained["env_config"] == recipe["env_config"]


def test_the_recipes_differ_where_the_baselines_were_trained_differently():
    chickwood, roundforest, sherwood = (shipped_recipe(env, config) for env, config, _ in SHIPPED)
    assert (chickwood["reward"], roundforest["reward"], sherwood["reward"]) == ("score", "win", "score")
    assert roundforest["shaping"] == 1.0 and roundforest["policy"]["cells"] == [64]
    assert (chickwood["pretrain"]["games"], roundforest["pretrain"]["games"]) == (2000, 5000)


def test_settings_go_over_the_recipe():
    trained = algorithm("shipped_recipe").training_config(
        _job("sherwood_v0", {"num_players": 4, "additions": False}, {"pretrain.games": 10, "n_envs": 4}))
    assert trained["pretrain"]["games"] == 10 and trained["n_envs"] == 4
    assert trained["reward"] == "score"                       # the rest is the recipe's


def test_a_configuration_without_a_shipped_baseline_is_refused():
    with pytest.raises(ConfigError, match=r"^algorithms\[0\]: the shipped chickwood_v0 baseline was "
                                          r"trained for \{'num_players': 3, 'legendary': False\}, "
                                          r"not \{'num_players': 4\}$"):
        algorithm("shipped_recipe").check({}, "chickwood_v0", {"num_players": 4}, "algorithms[0]")
    with pytest.raises(ConfigError, match="decided by the study"):
        algorithm("shipped_recipe").check({"seed": 1}, "chickwood_v0", {"num_players": 3}, "algorithms[0]")


@pytest.mark.parametrize("env, config, name", SHIPPED)
def test_the_published_seed_is_the_shipped_policy_with_its_own_budget(env, config, name):
    summary = json.loads((FOLDER / f"{env}.json").read_text())
    published = algorithm("shipped_recipe").published(env, config)
    assert published == PublishedPolicy("ppo", summary["timesteps"],
                                         f"the shipped `ppo` (forest_envs/baselines/{env}.npz)")
    assert published.learner_steps > 500_000  # the shipped runs' own budgets, not the study's


@pytest.mark.parametrize("name", ["maskable_ppo", "rllib_ppo", "expert_iteration", "dqn"])
def test_the_other_algorithms_publish_nothing(name):
    assert algorithm(name).published("chickwood_v0", {"num_players": 3}) is None


def test_the_study_evaluates_the_published_seed_once_as_a_final_policy(tmp_path):
    """Its entry and scores are those of a run's final evaluation of the same agent; a second
    call keeps the file."""
    study = parse_study({
        "name": "published", "tier": "tiny", "seeds": [0],
        "algorithms": [{"name": "shipped_recipe", "label": "recipe"}, {"name": "maskable_ppo"}],
        "games": [{"label": "cw", "env": "chickwood_v0", "config": {"num_players": 3}}],
        "evaluation": {"points": 1, "games": 3, "final_games": 6}}, "published.yaml")
    refs = ensure_references(study.games, 6, tmp_path / "references.json", say=lambda text: None)["cw"]
    said: list[str] = []
    (scores,) = evaluate_published(study, tmp_path, say=said.append)
    assert said == ["published/recipe/cw: the shipped `ppo` (forest_envs/baselines/chickwood_v0.npz), "
                    "6 games per line-up"]
    entry, figures = full_protocol("chickwood_v0", "ppo", 6, {"num_players": 3}, refs)
    written = json.loads(published_path(tmp_path, "recipe", "cw").read_text())
    assert written.pop("published") == asdict(scores)
    assert written["lineups"] == entry["lineups"] and written["overall"] == entry["overall"]
    assert scores == PublishedScores(
        algorithm="recipe", game="cw", agent="ppo", what="the shipped `ppo` (forest_envs/baselines/chickwood_v0.npz)",
        learner_steps=json.loads((FOLDER / "chickwood_v0.json").read_text())["timesteps"], **asdict(figures))
    assert figures.games_per_lineup == 6
    assert scores.score_win_rate == refs.win_rate_score(scores.win_rate_vs_heuristic, 6)
    assert list((tmp_path / "published").iterdir()) == [tmp_path / "published" / "recipe"]  # not maskable_ppo
    kept = published_path(tmp_path, "recipe", "cw").stat().st_mtime_ns
    assert evaluate_published(study, tmp_path, say=said.append) == [scores] and len(said) == 1
    assert published_path(tmp_path, "recipe", "cw").stat().st_mtime_ns == kept
    assert read_published(tmp_path, "recipe", "cw") == scores
