"""What a score of 0 and of 1 mean, per game configuration: the random agent and the heuristic
agent, each played as a candidate against the heuristic line-up with the benchmark's seeds
(the same deals and seats every run's evaluations play), and their frozen ratings.

Game i of a line-up has the same deal however many games are played, so the first n games of
the references are the references of an evaluation of n games.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path

from ..core.errors import ConfigError
from .spec import GameEntry

ZERO, ONE = "random", "heuristic"   # the agents that score 0 and 1
AGAINST = "heuristic"               # the line-up whose win rate is scored


@dataclass(frozen=True)
class GameReferences:
    env: str
    config: dict                     # the benchmark's configuration key (options and step limit)
    seed: int
    zero_shares: tuple[float, ...]   # random's win share in each game against the line-up
    one_shares: tuple[float, ...]    # the heuristic's
    zero_mu: float | None            # frozen ratings (None: the configuration is not calibrated)
    one_mu: float | None

    def _rates(self, games: int) -> tuple[float, float]:
        if games > len(self.zero_shares):
            raise ConfigError(f"the references hold {len(self.zero_shares)} games, not {games}")
        return (sum(self.zero_shares[:games]) / games, sum(self.one_shares[:games]) / games)

    def win_rate_score(self, win_rate: float, games: int) -> float:
        """``win_rate`` against the heuristic line-up over its first ``games`` games, with
        random's over the same games at 0 and the heuristic's at 1."""
        zero, one = self._rates(games)
        if one <= zero:
            raise ConfigError(f"{self.env}: the heuristic wins no more often than random against "
                              f"the heuristic line-up over {games} games ({one:.3f} <= {zero:.3f}); "
                              "no scale to score on")
        return (win_rate - zero) / (one - zero)

    def rating_score(self, mu: float | None) -> float | None:
        """A rating's mu on the frozen scale with random's at 0 and the heuristic's at 1."""
        if mu is None or self.zero_mu is None or self.one_mu is None:
            return None
        return (mu - self.zero_mu) / (self.one_mu - self.zero_mu)


def _shares(game: GameEntry, agent: str, games: int, seed: int, workers: int) -> tuple[float, ...]:
    from ..benchmark import reference_lineups
    from ..evaluation import run_games

    lineup = next(lu for lu in reference_lineups(game.env, game.config)[0] if lu.name == AGAINST)
    results = run_games(game.env, [agent, *lineup.opponents], games, seed=seed, config=game.config,
                        workers=workers)
    return tuple(r.win_shares[r.seats.index(0)] for r in results)


def measure(game: GameEntry, games: int, workers: int = 1) -> GameReferences:
    from ..benchmark import DEFAULT_SEED, config_key, load_ratings
    from ..benchmark.rating import find_entry

    key = config_key(game.env, game.config)
    entry = find_entry(load_ratings(), game.env, key)
    mus = entry["ratings"] if entry else {}
    return GameReferences(game.env, key, DEFAULT_SEED, _shares(game, ZERO, games, DEFAULT_SEED, workers),
                          _shares(game, ONE, games, DEFAULT_SEED, workers),
                          mus[ZERO]["mu"] if ZERO in mus else None, mus[ONE]["mu"] if ONE in mus else None)


def read_references(path: Path) -> dict[str, GameReferences]:
    if not path.is_file():
        return {}
    data = json.loads(path.read_text())
    return {label: GameReferences(**{**r, "zero_shares": tuple(r["zero_shares"]),
                                     "one_shares": tuple(r["one_shares"])})
            for label, r in data.items()}


def ensure_references(games: tuple[GameEntry, ...], count: int, path: Path, workers: int = 1,
                      say=print) -> dict[str, GameReferences]:
    """The references of every game for ``count`` games, measured where ``path`` does not
    hold them yet (the file keeps them across sessions)."""
    from ..benchmark import DEFAULT_SEED, config_key

    known = read_references(path)
    for game in games:
        have = known.get(game.label)
        if (have is not None and have.env == game.env and have.seed == DEFAULT_SEED
                and have.config == config_key(game.env, game.config) and len(have.zero_shares) >= count):
            continue
        say(f"references of {game.label}: {ZERO} and {ONE} against the {AGAINST} line-up, "
            f"{count} games each")
        known[game.label] = measure(game, count, workers)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps({k: asdict(v) for k, v in known.items()}, indent=1) + "\n")
        tmp.replace(path)
    return known
