"""Budget tiers: the fixed numbers of learner steps a study trains every run for, by name (as
Atari-100k names its budget), so that two studies compare only at equal budgets.

A learner step is one decision taken by the policy being trained: MaskablePPO's
``num_timesteps`` (its seat's moves; the opponents' moves inside an env step are not counted;
DQN's env steps of the same single-agent view likewise),
and in shared-policy self-play every move of every seat, since each one is the learner's (in
expert iteration: every searched decision of any seat, each a training target).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.errors import ConfigError


@dataclass(frozen=True)
class BudgetTier:
    name: str
    learner_steps: int
    purpose: str


TIERS: dict[str, BudgetTier] = {tier.name: tier for tier in (
    BudgetTier("tiny", 2_048, "the tests: every moving part of a study in seconds; learns nothing"),
    BudgetTier("small", 200_000, "the first comparison: tens of minutes to about an hour per run on a 2-core machine"),
    BudgetTier("large", 2_000_000, "the budget of the shipped baselines' order: hours per run"),
)}


def budget_tier(name: object, where: str = "tier") -> BudgetTier:
    """The tier named ``name``; anything else is a ConfigError naming the tiers."""
    if not isinstance(name, str) or name not in TIERS:
        raise ConfigError(f"{where}: {name!r} is not a budget tier; the tiers are "
                          + ", ".join(f"{t.name} ({t.learner_steps:,} learner steps)"
                                      for t in TIERS.values()))
    return TIERS[name]
