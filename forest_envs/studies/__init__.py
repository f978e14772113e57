"""``forest-envs study``: algorithms benchmarked the way papers report them (docs/studies.md).

A study file (``spec.py``) names algorithms, game configurations, seeds, a budget tier
(``tiers.py``) and an evaluation schedule. Each (algorithm, game, seed) is one run, trained by
its algorithm's adapter (``algorithms/``) and evaluated with the benchmark protocol along the
way and in full at the end; the statistics over runs come from ``rliable``.
"""

from .spec import (
           AlgorithmEntry,
           EvaluationSchedule,
           GameEntry,
           StatisticsSettings,
           Study,
           load_study,
           parse_study,
)
from .tiers import TIERS, BudgetTier, budget_tier

__all__ = ["TIERS", "AlgorithmEntry", "BudgetTier", "EvaluationSchedule", "GameEntry", "StatisticsSettings",
           "Study", "budget_tier", "load_study", "parse_study"]
