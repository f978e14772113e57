"""Ratings on a fixed scale: one agent rated against reference agents whose ratings are frozen.

The model is Plackett-Luce, as OpenSkill's ``PlackettLuce`` writes it once the skills are
known (sigma 0): in a game of n seats, seat i of skill mu_i has weight exp(mu_i / c) with
c = beta * sqrt(n) (beta = 25/6, OpenSkill's default), and the ranking is drawn place by
place, each place taken by a seat with probability its weight over the weights of the seats
not yet placed; seats that tie share a place (Breslow: each of them is drawn from the same
remaining seats). A rating is the most likely skill under that model and OpenSkill's prior,
normal with mu 25 and sigma 25/3 (a maximum a posteriori estimate); its sigma is the
curvature's (Laplace): 1 / sqrt(minus the second derivative of the log posterior at the
estimate). The same games give the same rating in any order and on every machine.

A candidate is rated against the other seats' frozen ratings (``rate_one``). The frozen
ratings come from one calibration tournament per game configuration (``calibrate``): every
reference's skill is estimated together, from every game of the tournament, the first
reference (the anchor, ``random``) held at mu 25. Each reference's frozen rating is then the
one a candidate would get from all the games it played with the others held at theirs, so a
candidate that plays like a reference is rated like it, up to the noise of its games. The
joint estimate always exists and is unique (the log posterior is strictly concave), however
lopsided the games: two strong references that the anchor hardly ever beats are held near
the prior's scale instead of drifting apart from it.

A game cut short by the env's step limit counts as a tie of every seat, as its rewards (all 0)
say; a finished game counts with the game's own ranks (ties share a place).
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..core.errors import ConfigError

ANCHOR_MU = 25.0              # the anchor's frozen mu: OpenSkill's default, the prior's mean
PRIOR_SIGMA = 25.0 / 3.0      # OpenSkill's default sigma: the prior's spread
BETA = 25.0 / 6.0             # OpenSkill's default: the spread of one game's performance
FIT_TOLERANCE = 1e-9          # the largest Newton step (in mu) at which a fit has converged
FIT_STEPS = 200
_FORMAT_NAME = "forest_envs reference ratings"
RATINGS_FORMAT = f"{_FORMAT_NAME} 2"  # 1: OpenSkill's updates game by game, one reference at a time
MODEL = ("Plackett-Luce (openskill's, with sigma 0: weight exp(mu / (beta sqrt n)), beta 25/6; "
         "ties share a place, Breslow); a rating is the maximum a posteriori skill under the "
         "prior mu 25, sigma 25/3, its sigma the Laplace curvature's; the references are fitted "
         "together on the whole calibration tournament, the anchor held at 25; a truncated game "
         "is a tie of every seat")
REFERENCE_RATINGS = Path(__file__).with_name("reference_ratings.json")


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """mu - 3 sigma: a conservative estimate, OpenSkill's ordinal."""
        return self.mu - 3 * self.sigma

    def as_dict(self) -> dict:
        return {"mu": round(self.mu, 6), "sigma": round(self.sigma, 6),
                "ordinal": round(self.ordinal, 6)}


def game_ranks(result) -> list[int]:
    """The ranks a rating reads from a GameResult: the game's own, or a tie of every seat in
    a truncated game."""
    return [1] * len(result.ranks) if result.truncated else list(result.ranks)


# A game as the model reads it: the agent name at each seat and the ranks by seat.
Played = tuple[tuple[str, ...], tuple[int, ...]]


def played_games(results, agents: list[str]) -> list[Played]:
    """The games of one line-up (``agents``: the list they were played with, rotated by seat)
    as (name by seat, ranks by seat)."""
    return [(tuple(agents[i] for i in r.seats), tuple(game_ranks(r))) for r in results]


def _places(ranks: tuple[int, ...]) -> list[tuple[list[int], list[int]]]:
    """(the seats that take a place, the seats still to be placed) for each place, best first."""
    out = []
    for rank in sorted(set(ranks)):
        out.append(([s for s, r in enumerate(ranks) if r == rank],
                    [s for s, r in enumerate(ranks) if r >= rank]))
    return out


def _derivatives(counted: Counter, mu: dict[str, float], free: list[str]):
    """The log likelihood of the counted games and its gradient and Hessian in the free
    agents' skills."""
    index = {name: k for k, name in enumerate(free)}
    grad, hess, loglik = np.zeros(len(free)), np.zeros((len(free), len(free))), 0.0
    for (names, ranks), times in counted.items():
        c = BETA * math.sqrt(len(names))
        s = np.array([mu[name] / c for name in names])
        at = [index.get(name) for name in names]
        for winners, remaining in _places(ranks):
            top = s[remaining].max()
            w = np.exp(s[remaining] - top)
            p = w / w.sum()
            m = len(winners)
            loglik += times * (s[winners].sum() - m * (top + math.log(w.sum())))
            for seat in winners:
                if at[seat] is not None:
                    grad[at[seat]] += times / c
            for seat, ps in zip(remaining, p):
                k = at[seat]
                if k is None:
                    continue
                grad[k] -= times * m * ps / c
                hess[k, k] -= times * m * ps / c ** 2
                for other, po in zip(remaining, p):
                    j = at[other]
                    if j is not None:
                        hess[k, j] += times * m * ps * po / c ** 2
    return loglik, grad, hess


def fit(games: Iterable[Played], fixed: dict[str, float], free: list[str]) -> dict:
    """The most likely skills of the ``free`` agents (module doc), the others' held at
    ``fixed``: ``{"ratings": {name: Rating}, "steps": Newton steps}``. A free agent's sigma is
    the one it would have with every other agent held fixed."""
    counted = Counter(games)
    names = {name for names, _ in counted for name in names}
    missing = sorted(names - set(fixed) - set(free))
    if missing:
        raise ConfigError(f"no rating for {', '.join(missing)}: it is neither frozen nor fitted")
    mu = {**fixed, **{name: ANCHOR_MU for name in free}}
    prior = 1.0 / PRIOR_SIGMA ** 2

    def posterior(at: dict) -> tuple:
        loglik, grad, hess = _derivatives(counted, at, free)
        theta = np.array([at[n] for n in free])
        return (loglik - 0.5 * prior * float(((theta - ANCHOR_MU) ** 2).sum()),
                grad - prior * (theta - ANCHOR_MU), hess - prior * np.eye(len(free)))

    value, grad, hess = posterior(mu)
    steps = 0
    while True:
        steps += 1
        if steps > FIT_STEPS:
            raise RuntimeError(f"the rating fit did not converge in {FIT_STEPS} Newton steps")
        step = np.linalg.solve(-hess, grad)  # the log posterior is strictly concave
        t = 1.0
        while True:  # Newton, halved until the posterior grows (it always does for small t)
            trial = {**mu, **{n: mu[n] + t * d for n, d in zip(free, step)}}
            new = posterior(trial)
            if new[0] >= value - 1e-12 or t < 1e-6:
                break
            t /= 2
        mu, (value, grad, hess) = trial, new
        if float(np.abs(t * step).max(initial=0.0)) < FIT_TOLERANCE:
            break
    sigmas = 1.0 / np.sqrt(-np.diag(hess))
    return {"ratings": {n: Rating(float(mu[n]), float(s)) for n, s in zip(free, sigmas)},
            "steps": steps}


def rate_one(games: Iterable[Played], frozen: dict[str, Rating], name: str = "candidate") -> Rating | None:
    """The rating of the agent ``name`` from its games, every other seat at its frozen
    rating; None without games."""
    games = list(games)
    if not games:
        return None
    return fit(games, {n: r.mu for n, r in frozen.items() if n != name}, [name])["ratings"][name]


def calibrate(references: list[str], tournament: list[tuple[list[str], list]]) -> dict:
    """Frozen ratings from a calibration tournament: ``tournament`` lists ``(agents, results)``
    per line-up. Returns ``{"ratings": {name: Rating}, "check": {anchor: its mu fitted like
    the others, the others held}, "steps": Newton steps of the joint fit}``."""
    anchor = references[0]
    games = [g for agents, results in tournament for g in played_games(results, agents)]
    for name in references:
        if not any(name in names for names, _ in games):
            raise ConfigError(f"the calibration tournament has no game of {name!r}")
    joint = fit(games, {anchor: ANCHOR_MU}, references[1:])
    ratings = joint["ratings"]
    own = fit(games, {n: r.mu for n, r in ratings.items()}, [anchor])["ratings"][anchor]
    ratings = {anchor: Rating(ANCHOR_MU, own.sigma), **ratings}
    return {"ratings": {n: ratings[n] for n in references}, "check": {anchor: own.mu},
            "steps": joint["steps"]}


# --- the stored file ---------------------------------------------------------------------------

def load_ratings(path: str | Path | None = None) -> dict:
    """The reference ratings file (the package's own by default): ``{"format", "model",
    "entries": [...]}``; a missing file is an empty one."""
    path = Path(path) if path else REFERENCE_RATINGS
    if not path.exists():
        return {"format": RATINGS_FORMAT, "model": MODEL, "entries": []}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        raise ConfigError(f"reference ratings {str(path)!r} cannot be read: {err}") from None
    if isinstance(data, dict) and str(data.get("format", "")).startswith(_FORMAT_NAME) \
            and data.get("format") != RATINGS_FORMAT:
        raise ConfigError(f"{str(path)!r} holds reference ratings of another rating model "
                          f"({data['format']!r}, this version reads {RATINGS_FORMAT!r}): its "
                          "ratings do not compare with this version's; calibrate again "
                          "(forest-envs benchmark --calibrate --env <env id>)")
    if not isinstance(data, dict) or data.get("format") != RATINGS_FORMAT:
        raise ConfigError(f"{str(path)!r} is not a reference ratings file (format "
                          f"{RATINGS_FORMAT!r})")
    return data


def find_entry(data: dict, env_id: str, config: dict) -> dict | None:
    """The frozen ratings of ``env_id`` in exactly this configuration (None if not calibrated)."""
    for entry in data["entries"]:
        if entry["env"] == env_id and entry["config"] == config:
            return entry
    return None


def frozen_ratings(entry: dict) -> dict[str, Rating]:
    return {name: Rating(r["mu"], r["sigma"]) for name, r in entry["ratings"].items()}


def store_entry(entry: dict, path: str | Path | None = None) -> Path:
    """Write ``entry`` into the ratings file, replacing the one of the same env and config;
    entries stay sorted by env id and config, so the file's diff shows only what changed."""
    path = Path(path) if path else REFERENCE_RATINGS
    data = load_ratings(path)
    data["model"] = MODEL
    kept = [e for e in data["entries"] if (e["env"], e["config"]) != (entry["env"], entry["config"])]
    data["entries"] = sorted(kept + [entry], key=lambda e: (e["env"], json.dumps(e["config"], sort_keys=True)))
    path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    return path
