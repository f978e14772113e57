"""The ``shipped_recipe`` algorithm (forest_envs/studies/algorithms/shipped_recipe.py): the
training config that made a game's shipped ``ppo`` baseline, found through the baseline's own
summary, under the study's seed and budget."""

from __future__ import annotations

from pathlib import Path

import pytest

from forest_envs.core.errors import ConfigError
from forest_envs.studies.algorithms import TrainingJob, algorithm
from forest_envs.studies.algorithms.shipped_recipe import shipped_recipe
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
