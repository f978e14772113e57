"""The study file (forest_envs/studies/spec.py): what it holds once read, and a bad field is
one ConfigError naming it, before anything runs."""

from __future__ import annotations

import copy

import pytest

from forest_envs.core.errors import ConfigError
from forest_envs.studies import TIERS, load_study, parse_study
from forest_envs.studies.spec import shipped_studies

GOOD = {
    "name": "t", "tier": "tiny", "seeds": [0, 1],
    "algorithms": [{"name": "maskable_ppo", "settings": {"n_envs": 2, "vec_env": "dummy", "ppo.batch_size": 256}}],
    "games": [{"env": "chickwood_v0", "config": {"num_players": 3}}],
    "evaluation": {"points": 4, "games": 3, "final_games": 6},
}


def with_(path: str, value):
    raw = copy.deepcopy(GOOD)
    target = raw
    parts = path.split(".")
    for part in parts[:-1]:
        target = target[int(part)] if isinstance(target, list) else target[part]
    last = parts[-1]
    if value is KeyError:
        del target[last]
    elif isinstance(target, list):
        target[int(last)] = value
    else:
        target[last] = value
    return raw


def test_the_tiers_are_a_table_of_learner_steps():
    assert {n: t.learner_steps for n, t in TIERS.items()} == {"tiny": 2_048, "small": 200_000,
                                                               "large": 2_000_000}


def test_a_study_reads_into_typed_records():
    study = parse_study(GOOD, "x.yaml")
    assert study.tier.learner_steps == 2_048
    assert [a.label for a in study.algorithms] == ["maskable_ppo"]
    assert study.games[0].label == "chickwood_v0" and study.games[0].num_players == 3
    assert study.point_steps() == [512, 1024, 1536, 2048]
    assert study.statistics.reps == 10_000 and study.evaluation.final_games == 6


def test_the_shipped_studies_load():
    assert set(shipped_studies()) >= {"small", "tiny", "baselines"}
    small = load_study("small")
    assert small.tier.name == "small" and len(small.seeds) == 5
    assert [g.env for g in small.games] == ["chickwood_v0", "roundforest_v0", "sherwood_v0"]


def test_results_cite_a_shipped_study_by_its_place_in_the_package_and_another_by_its_path(tmp_path):
    small = load_study("small")
    assert small.source == str(shipped_studies()["small"])                 # read from where it is installed
    assert small.cited_source == "forest_envs/configs/studies/small.yaml"  # the same on every machine
    copy = tmp_path / "small.yaml"                                         # the user's own file, same name
    copy.write_text(shipped_studies()["small"].read_text())
    assert load_study(copy).cited_source == str(copy)


@pytest.mark.parametrize("path, value, message", [
    ("tier", "medium", "tier: 'medium' is not a budget tier; the tiers are tiny (2,048 learner "
     "steps), small (200,000 learner steps), large (2,000,000 learner steps)"),
    ("seeds", [0, 0], "seeds lists a seed twice: [0, 0]"),
    ("seeds", [0, -1], "seeds[1] must be an integer >= 0, not -1"),
    ("name", KeyError, "the study file: missing name"),
    ("algorithms.0.name", "a2c", "algorithms[0].name: 'a2c' is not an algorithm; the algorithms "
     "are maskable_ppo, rllib_ppo, expert_iteration, dqn, shipped_recipe"),
    ("algorithms.0.settings", {"ppo.n_stepz": 3}, "algorithms[0].settings (on chickwood_v0): "
     "unknown training config key(s) ['ppo.n_stepz']"),
    ("algorithms.0.settings", {"seed": 3}, "algorithms[0].settings (on chickwood_v0): seed is "
     "decided by the study"),
    ("games.0.env", "chess_v0", "games[0].env: 'chess_v0' is not a registered env id"),
    ("games.0.config", {"num_players": 9}, "games[0].config: "),
    ("games.0.label", "a/b", "games[0].label must be a name of letters, digits, _ . - (it names a "
     "folder), not 'a/b'"),
    ("evaluation.games", 4, "evaluation.games=4 is not a multiple of 3, the player count of "
     "chickwood_v0"),
    ("evaluation.points", 3, "evaluation.points=3 does not divide the tiny tier's 2,048 learner "
     "steps into equal parts"),
    ("evaluation.colour", 1, "evaluation: unknown key(s) colour; the keys are points, games, final_games"),
])
def test_a_bad_field_is_named(path, value, message):
    with pytest.raises(ConfigError) as err:
        parse_study(with_(path, value))
    assert str(err.value).startswith(message), str(err.value)


def test_rllib_ppo_plays_one_shared_policy():
    raw = copy.deepcopy(GOOD)
    raw["algorithms"] = [{"name": "rllib_ppo", "settings": {"rllib.policies": "per_seat"}}]
    with pytest.raises(ConfigError, match=r"^algorithms\[0\].settings \(on chickwood_v0\): "
                       r"rllib.policies='per_seat': a study evaluates one policy in every seat"):
        parse_study(raw)
    raw["algorithms"] = [{"name": "rllib_ppo", "settings": {"rllib.iterations": 3}}]
    with pytest.raises(ConfigError, match=r"rllib.iterations is decided by the study"):
        parse_study(raw)
    raw["algorithms"] = [{"name": "rllib_ppo"}]
    assert parse_study(raw).algorithms[0].name == "rllib_ppo"


def test_two_entries_of_one_name_need_labels():
    raw = copy.deepcopy(GOOD)
    raw["games"] = raw["games"] * 2
    with pytest.raises(ConfigError, match=r"^games: chickwood_v0 named twice; give each entry its own label$"):
        parse_study(raw)
    raw["games"][1] = {**raw["games"][1], "label": "again"}
    assert [g.label for g in parse_study(raw).games] == ["chickwood_v0", "again"]


def test_a_file_error_names_the_file(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text("name: x\ntier: [\n")
    with pytest.raises(ConfigError, match=r"^study file '.*s.yaml' is not valid YAML, line 3"):
        load_study(path)
    with pytest.raises(ConfigError, match=r"^study file 'nope' does not exist; give a YAML file or "
                       r"the name of a shipped study: baselines, small, tiny$"):
        load_study("nope")


def test_the_docs_example_is_a_study():
    import re
    from pathlib import Path

    import yaml

    text = (Path(__file__).resolve().parents[1] / "docs" / "studies.md").read_text()
    example = re.search(r"```yaml\n(.*?)```", text, re.S).group(1)
    study = parse_study(yaml.safe_load(example))
    assert [a.label for a in study.algorithms] == ["maskable_ppo", "ppo_lr3e4"]
    assert study.statistics.curve_reps == 2_000
