"""Ratings on a fixed scale: one agent rated against reference agents whose ratings are frozen.

The model is OpenSkill's Plackett-Luce with ``tau=0`` (a skill that does not drift during a
run). An agent is rated from OpenSkill's default prior (mu 25, sigma 25/3) by updating it game
after game, in a fixed order, against the other seats' frozen ratings, which never move: so
the same games give the same rating on every machine, and a rating from one run can be put
beside one from another run made against the same frozen ratings.

The frozen ratings come from one calibration tournament per game configuration
(``calibrate``): each reference agent plays, one seat against every line-up of the other
references, and is rated the same way as a candidate, against the others held fixed; this is
repeated until the ratings no longer move (a fixed point), with the first reference (the
anchor, ``random``) held at mu 25. A candidate that plays exactly like a reference thus gets
that reference's rating, up to the noise of its games.

A game cut short by the env's step limit counts as a tie of every seat, as its rewards (all 0)
say; a finished game counts with the game's own ranks (ties share a place).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from ..core.errors import ConfigError

ANCHOR_MU = 25.0              # the anchor's frozen mu: OpenSkill's default, the candidate's prior
FIXED_POINT_TOLERANCE = 1e-6  # largest change of any mu between two rounds at the fixed point
FIXED_POINT_ROUNDS = 200
RATINGS_FORMAT = "forest_envs reference ratings 1"
MODEL = ("openskill PlackettLuce(tau=0); the rated agent starts at mu 25, sigma 25/3 and is "
         "updated game by game (game index, then line-up order) against the other seats' frozen "
         "ratings; a truncated game is a tie of every seat")
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


def _model():
    from openskill.models import PlackettLuce

    return PlackettLuce(tau=0)


def game_ranks(result) -> list[int]:
    """The ranks a rating reads from a GameResult: the game's own, or a tie of every seat in
    a truncated game."""
    return [1] * len(result.ranks) if result.truncated else list(result.ranks)


def rate_one(games: Iterable[tuple[int, list[int], list[Rating | None]]]) -> Rating | None:
    """The rating of one agent from ``(its seat, ranks by seat, frozen ratings by seat)`` per
    game, in the given order (the entry at its own seat is not read); None without games."""
    model = _model()
    me, played = model.rating(), 0
    for seat, ranks, fixed in games:
        teams = [[me] if s == seat else [model.rating(mu=r.mu, sigma=r.sigma)]
                 for s, r in enumerate(fixed)]
        me = model.rate(teams, ranks=ranks)[seat][0]
        played += 1
    return Rating(float(me.mu), float(me.sigma)) if played else None


def lineup_games(results, agents: list[str], frozen: dict[str, Rating], rated: int = 0):
    """``rate_one``'s input for the agent at index ``rated`` of ``agents`` (the agent list the
    games were played with, rotated by seat), the others' ratings taken from ``frozen``."""
    for r in results:
        seat = r.seats.index(rated)
        fixed = [None if s == seat else frozen[agents[r.seats[s]]] for s in range(len(r.seats))]
        yield seat, game_ranks(r), fixed


def interleaved(per_lineup: list[list]) -> list:
    """Games of several line-ups in one fixed order: game 0 of each line-up (in line-up order),
    then game 1, ...; so no line-up's games all come last, where a rating moves least."""
    out = []
    for i in range(max((len(g) for g in per_lineup), default=0)):
        out += [g[i] for g in per_lineup if i < len(g)]
    return out


def calibrate(references: list[str], tournament: list[tuple[list[str], list]]) -> dict:
    """Frozen ratings from a calibration tournament: ``tournament`` lists ``(agents, results)``
    per line-up, the rated reference first in ``agents``. Returns ``{"ratings": {name:
    Rating}, "check": {anchor: its mu rated like the others}, "rounds": n, "change": the
    largest change of the last round}``: a change above ``FIXED_POINT_TOLERANCE`` means the
    rounds ran out before the fixed point, which the calibration's output says."""
    anchor = references[0]
    current = {name: Rating(ANCHOR_MU, 25 / 3) for name in references}
    own = {name: [(agents, results) for agents, results in tournament if agents[0] == name]
           for name in references}
    for name, lineups in own.items():
        if not lineups:
            raise ConfigError(f"the calibration tournament has no line-up rating {name!r}")
    anchor_raw, rounds, moved = None, 0, float("inf")
    while rounds < FIXED_POINT_ROUNDS:
        rounds += 1
        new = {}
        for name in references:
            games = interleaved([list(lineup_games(results, agents, current))
                                 for agents, results in own[name]])
            new[name] = rate_one(games)
        anchor_raw = new[anchor].mu
        new[anchor] = Rating(ANCHOR_MU, new[anchor].sigma)
        moved = max(abs(new[n].mu - current[n].mu) + abs(new[n].sigma - current[n].sigma)
                    for n in references)
        current = new
        if moved < FIXED_POINT_TOLERANCE:
            break
    return {"ratings": current, "check": {anchor: anchor_raw}, "rounds": rounds, "change": moved}


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
