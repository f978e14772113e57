"""The recipe that trained a game's shipped ``ppo`` baseline, run again under a study's seeds
and budget: how far the shipped policy's figures are from the recipe's spread over seeds.

The recipe is the shipped training config whose ``output_dir`` is the run folder the shipped
baseline's own summary names (``forest_envs/baselines/<env_id>.json``, ``policy``): its warm
start, reward, shaping, network and opponent pool, as they trained the shipped weights. The
study decides what it decides for every algorithm (the game, the seed, the budget, the
checkpoints, the output folder, the evaluation); settings go over the recipe as
``maskable_ppo``'s do. A game configuration no baseline ships for is refused. The shipped
policy itself is the recipe's published seed, which the study sets beside its runs.
"""

from __future__ import annotations

from pathlib import Path, PurePosixPath

from ...core.errors import ConfigError
from .base import PublishedPolicy
from .maskable_ppo import MaskablePPO


def shipped_recipe(env: str, config: dict, where: str = "shipped_recipe") -> dict:
    """The validated config of the run that trained ``env``'s shipped baseline; ``config`` (the
    study's game options) must be the configuration it was trained for."""
    from ...agents.baselines import baseline_summary
    from ...core.registry import game_spec
    from ...train.config import load_config, shipped_configs

    try:
        summary, trained_for = baseline_summary(env)
    except ConfigError as err:
        raise ConfigError(f"{where}: {err}") from None
    if dict(game_spec(env).game_class.shared(config).config) != trained_for:
        raise ConfigError(f"{where}: the shipped {env} baseline was trained for {summary['env_config']}, "
                          f"not {config}")
    run_folder = PurePosixPath(summary["policy"]).parent
    found = [recipe for recipe in map(load_config, shipped_configs().values())
             if PurePosixPath(Path(recipe["output_dir"]).as_posix()) == run_folder]
    if len(found) != 1:
        raise ConfigError(f"{where}: {len(found)} shipped configs write to {run_folder}, the folder "
                          f"of {env}'s shipped baseline; expected exactly one")
    return found[0]


class ShippedRecipe(MaskablePPO):
    name = "shipped_recipe"

    def recipe(self, env: str, config: dict, where: str) -> dict:
        return shipped_recipe(env, config, where)

    def published(self, env: str, config: dict) -> PublishedPolicy:
        from ...agents.baselines import BASELINE, baseline_files, baseline_summary

        summary, _ = baseline_summary(env)
        weights, _ = baseline_files(env)
        return PublishedPolicy(BASELINE, int(summary["timesteps"]),
                               f"the shipped `{BASELINE}` ({PurePosixPath(*weights.parts[-3:])})")
