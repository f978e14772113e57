"""The benchmark protocol: one candidate against fixed reference line-ups, seat-rotated, with
fixed seeds, rated on the frozen scale of ``rating.py``; and the calibration tournament that
freezes that scale.

Line-ups (the candidate takes one seat, the opponents the others; every game rotates the seats
by one, so with a number of games that is a multiple of the player count the candidate sits
equally often at every seat):

- ``random``: every opponent ``random``;
- ``heuristic``: every opponent the game's ``heuristic``;
- ``ppo``: every opponent the game's shipped baseline policy ``ppo`` (skipped, with the reason,
  while none ships for the game or the one that ships does not fit the configuration);
- ``mixed``: ``heuristic``, ``random``, ``heuristic``, ... (never ``ppo``, so that its figures
  stay comparable whether a baseline ships or not).

Every line-up plays the same deals: game i of each line-up has the seed derived from
``(seed, i)`` (and each agent's seed from ``(seed, i, agent)``), as ``forest-envs evaluate``.
"""

from __future__ import annotations

import datetime
import itertools
import os
import time
from contextlib import nullcontext
from dataclasses import dataclass
from functools import partial

import numpy as np

from ..core.errors import ConfigError
from ..core.registry import game_spec
from ..envs.registration import make_raw
from ..evaluation import run_games, wilson
from ..evaluation.workers import ray_cluster
from . import rating as rt
from .journal import GameJournal

DEFAULT_GAMES = 300             # per line-up: a multiple of every player count from 2 to 6
DEFAULT_SEED = 0
DEFAULT_CALIBRATION_GAMES = 2000
DEFAULT_CALIBRATION_SEED = 1    # not the benchmark's: a reference benchmarked as a candidate
                                # plays other deals than the ones that froze its rating
ENTRY_FORMAT = "forest_envs benchmark entry 1"
MIXED = ("heuristic", "random")
BASELINE = "ppo"


@dataclass(frozen=True)
class Lineup:
    name: str
    opponents: tuple[str, ...]


def config_key(env_id: str, config: dict | None) -> dict:
    """Everything that decides how a game plays: the game's options with their defaults filled
    in, and the env's step limit (a different limit truncates other games). A rating is frozen
    for exactly one such configuration."""
    env = make_raw(env_id, **dict(config or {}))
    env.reset(seed=0)
    return {**env.game.config, "max_steps": env.steps_left()}


def _baseline_fits(env_id: str, env) -> str | None:
    """None when ``ppo`` is an agent of this game that fits this configuration, else why not."""
    from ..agents import make_agent
    from ..agents.policy import check_agent_fits

    try:
        check_agent_fits(make_agent(env_id, BASELINE, seed=0), env)
    except ConfigError as err:
        return f"no shipped baseline policy {BASELINE!r} fits this configuration yet: {err}"
    return None


def reference_lineups(env_id: str, config: dict | None = None) -> tuple[list[Lineup], list[dict]]:
    """The line-ups this game and configuration offer, and the skipped ones with the reason."""
    env = make_raw(env_id, **dict(config or {}))
    others = len(env.possible_agents) - 1
    has_heuristic = game_spec(env_id).heuristic is not None
    lineups, skipped = [Lineup("random", ("random",) * others)], []
    no_heuristic = f"{env_id} has no heuristic agent"
    if has_heuristic:
        lineups.append(Lineup("heuristic", ("heuristic",) * others))
    else:
        skipped.append({"name": "heuristic", "reason": no_heuristic})
    why_not = _baseline_fits(env_id, env)
    if why_not is None:
        lineups.append(Lineup(BASELINE, (BASELINE,) * others))
    else:
        skipped.append({"name": BASELINE, "reason": why_not})
    if has_heuristic:
        lineups.append(Lineup("mixed", tuple(itertools.islice(itertools.cycle(MIXED), others))))
    else:
        skipped.append({"name": "mixed", "reason": no_heuristic})
    return lineups, skipped


def chosen_lineups(env_id: str, config: dict | None, names: list[str] | None
                   ) -> tuple[list[Lineup], list[dict]]:
    """The line-ups to play: every one the configuration offers, or only ``names`` (the rest
    are skipped, saying so). A name the configuration does not offer is an error naming the
    ones it does: a candidate is never rated on other line-ups than it asked for."""
    lineups, skipped = reference_lineups(env_id, config)
    if names is None:
        return lineups, skipped
    offered = [lu.name for lu in lineups]
    for name in names:
        if name not in offered:
            why = next((s["reason"] for s in skipped if s["name"] == name), None)
            raise ConfigError(f"--lineups names {name!r}, which {env_id} does not offer here"
                              + (f" ({why})" if why else "") + f"; it offers {', '.join(offered)}")
    if len(set(names)) != len(names):
        raise ConfigError(f"--lineups lists a line-up twice: {','.join(names)}")
    asked = f"not played: --lineups {','.join(names)}"
    return ([lu for lu in lineups if lu.name in names],
            skipped + [{"name": lu.name, "reason": asked} for lu in lineups if lu.name not in names])


def _lineup_row(lineup: Lineup, results, frozen: dict[str, rt.Rating] | None) -> dict:
    n = len(lineup.opponents) + 1
    seats = [r.seats.index(0) for r in results]
    wins = sum(r.win_shares[s] for r, s in zip(results, seats))
    lo, hi = wilson(wins, len(results))
    rated = None
    if frozen is not None and all(o in frozen for o in lineup.opponents):
        rated = rt.rate_one(rt.played_games(results, ["candidate", *lineup.opponents]), frozen)
    return {"name": lineup.name, "opponents": list(lineup.opponents), "games": len(results),
            "wins": wins, "win_rate": wins / len(results), "win_ci95": [lo, hi],
            "fair_share": 1 / n, "truncated": sum(r.truncated for r in results),
            "mean_rank": float(np.mean([r.ranks[s] for r, s in zip(results, seats)])),
            "games_by_seat": [seats.count(s) for s in range(n)],
            "rating": rated.as_dict() if rated else None}


def _scale(entry: dict | None, path) -> dict | None:
    if entry is None:
        return None
    return {"ratings": entry["ratings"], "file": str(path or rt.REFERENCE_RATINGS.name),
            "tournament": {k: entry["tournament"][k] for k in ("games", "games_per_lineup", "seed")},
            "command": entry["command"]}


def benchmark_identity(env_id: str, agent: str, games: int, seed: int, config: dict | None) -> dict:
    """What decides a benchmark's games (a journal of its games belongs to this alone)."""
    from .. import __version__

    return {"env": env_id, "config": config_key(env_id, dict(config or {})), "agent": agent,
            "agent_sha256": _file_digest(agent), "games_per_lineup": games, "seed": seed,
            "version": __version__}


def run_benchmark(env_id: str, agent: str, games: int = DEFAULT_GAMES, seed: int = DEFAULT_SEED,
                  config: dict | None = None, workers: int = 1, address: str | None = None,
                  ratings_path=None, progress: bool = False, lineups: list[str] | None = None,
                  journal: GameJournal | None = None) -> dict:
    """Play ``agent`` against every reference line-up (or the ``lineups`` named); the
    leaderboard entry (a JSON-able dict: see docs/benchmark.md). With a ``journal`` (of
    ``benchmark_identity(...)``), the games it holds are not played again and each new game
    is written into it as it finishes (journal.py)."""

    config = dict(config or {})
    key = config_key(env_id, config)
    chosen, skipped = chosen_lineups(env_id, config, lineups)
    entry = rt.find_entry(rt.load_ratings(ratings_path), env_id, key)
    frozen = rt.frozen_ratings(entry) if entry else None
    plays, started, resumed = {}, _measure(), 0
    # One Ray session for every line-up (run_games uses the session it finds).
    with ray_cluster(address, num_cpus=workers) if address else nullcontext():
        for lineup in chosen:
            before = journal.games(lineup.name, games) if journal else []
            resumed += len(before)
            write = None if journal is None else partial(journal.write, lineup.name)
            new = run_games(env_id, [agent, *lineup.opponents], games, seed=seed, config=config,
                            workers=workers, address=address, progress=progress,
                            played=[r.index for r in before], on_game=write)
            plays[lineup] = sorted(before + new, key=lambda r: r.index)
    rows = [_lineup_row(lineup, plays[lineup], frozen) for lineup in chosen]
    rated_lineups = [lu for lu, row in zip(chosen, rows) if row["rating"] is not None]
    overall = None
    if rated_lineups:
        assert frozen is not None  # (a line-up is rated against frozen ratings)
        overall = rt.rate_one([g for lu in rated_lineups
                               for g in rt.played_games(plays[lu], ["candidate", *lu.opponents])], frozen)
    notes = []
    if entry is None:
        notes.append(f"no frozen reference ratings for {env_id} {key}: calibrate them with "
                     f"{calibrate_command(env_id, config)}")
    else:
        assert frozen is not None  # (read from the entry)
        for lu, row in zip(chosen, rows):
            if row["rating"] is None:
                missing = sorted(set(lu.opponents) - set(frozen))
                notes.append(f"line-up {lu.name} is not rated: no frozen rating for {', '.join(missing)}")
    if games % (len(chosen[0].opponents) + 1):
        notes.append(f"{games} games per line-up is not a multiple of the player count: the "
                     "candidate does not sit equally often at every seat")
    all_results = [r for lu in chosen for r in plays[lu]]
    return {
        "format": ENTRY_FORMAT, **benchmark_identity(env_id, agent, games, seed, config),
        "seeds": "game i of every line-up: SeedSequence([seed, i]); agent a of its list (0: the "
                 "candidate): SeedSequence([seed, i, a])",
        "lineups": rows, "skipped": skipped,
        "overall": {"games": len(all_results), "truncated": sum(r.truncated for r in all_results),
                    "rating": overall.as_dict() if overall else None},
        "scale": _scale(entry, ratings_path), "notes": notes,
        "command": benchmark_command(env_id, agent, games, seed, config, lineups),
        "measured": _measured(started, resumed),
    }


def _file_digest(spec: str) -> str | None:
    """The SHA-256 of a policy file given as the agent (its path alone does not say which
    policy played), None for an agent given by name."""
    import hashlib

    if not os.path.isfile(spec):
        return None
    with open(spec, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def _measure() -> dict:
    return {"time": time.perf_counter(), "load": os.getloadavg()[0]}


def _measured(started: dict, resumed: int = 0) -> dict:
    """When and under what load the games ran (not part of the results: they never depend
    on it). A benchmark continued from its journal says how many games it found there: its
    wall time is that of the games it played."""
    measured = {"date": datetime.date.today().isoformat(),
                "wall_seconds": round(time.perf_counter() - started["time"], 1),
                "load_average_1min": [round(started["load"], 2), round(os.getloadavg()[0], 2)]}
    if resumed:
        measured["games_from_journal"] = resumed
    return measured


def _sets(config: dict) -> str:
    import json
    import shlex

    return "".join(f" --set {shlex.quote(f'{k}={v if isinstance(v, str) else json.dumps(v)}')}"
                   for k, v in config.items())


def benchmark_command(env_id: str, agent: str, games: int, seed: int, config: dict,
                      lineups: list[str] | None = None) -> str:
    """The command that plays exactly these games again (workers and address never change a
    result, so they are not part of it)."""
    import shlex

    chosen = f" --lineups {','.join(lineups)}" if lineups is not None else ""
    return (f"forest-envs benchmark --env {env_id} --agent {shlex.quote(agent)} --games {games} "
            f"--seed {seed}{_sets(config)}{chosen}")


def calibrate_command(env_id: str, config: dict, games: int = DEFAULT_CALIBRATION_GAMES,
                      seed: int = DEFAULT_CALIBRATION_SEED, references: list[str] | None = None) -> str:
    refs = f" --references {','.join(references)}" if references else ""
    return (f"forest-envs benchmark --calibrate --env {env_id} --games {games} --seed {seed}"
            f"{refs}{_sets(config)}")


# --- calibration -------------------------------------------------------------------------------

def default_references(env_id: str, config: dict | None = None) -> list[str]:
    """The agents of the line-ups, the anchor ``random`` first: ``random``, ``heuristic`` (if
    the game has one), ``ppo`` (if one ships that fits)."""
    lineups, _ = reference_lineups(env_id, config)
    names = ["random"]
    for lu in lineups:
        names += [o for o in dict.fromkeys(lu.opponents) if o not in names]
    return names


def calibration_lineups(references: list[str], num_players: int) -> list[list[str]]:
    """Each reference (in order) against every multiset of the other references on the
    other seats: its rating is then measured as a candidate's is, never against itself."""
    out = []
    for name in references:
        others = [o for o in references if o != name]
        for combo in itertools.combinations_with_replacement(others, num_players - 1):
            out.append([name, *combo])
    return out


def run_calibration(env_id: str, references: list[str] | None = None,
                    games: int = DEFAULT_CALIBRATION_GAMES, seed: int = DEFAULT_CALIBRATION_SEED,
                    config: dict | None = None, workers: int = 1, address: str | None = None,
                    progress: bool = False) -> dict:
    """Play the calibration tournament and freeze the references' ratings: the entry that
    ``rating.store_entry`` writes into the reference ratings file."""
    from .. import __version__

    config = dict(config or {})
    key = config_key(env_id, config)
    references = list(references or default_references(env_id, config))
    if len(set(references)) != len(references):
        raise ConfigError(f"--references lists an agent twice: {','.join(references)}")
    if len(references) < 2:
        raise ConfigError("a calibration needs at least two reference agents (the first, the "
                          "anchor, is held at mu 25)")
    n = len(make_raw(env_id, **config).possible_agents)
    tournament, started = [], _measure()
    with ray_cluster(address, num_cpus=workers) if address else nullcontext():
        for agents in calibration_lineups(references, n):
            tournament.append((agents, run_games(env_id, agents, games, seed=seed, config=config,
                                                 workers=workers, address=address,
                                                 progress=progress)))
    fitted = rt.calibrate(references, tournament)
    results = [r for _, rs in tournament for r in rs]
    return {
        "env": env_id, "config": key, "anchor": references[0],
        "ratings": {name: fitted["ratings"][name].as_dict() for name in references},
        "anchor_check_mu": round(fitted["check"][references[0]], 6),
        "fit_steps": fitted["steps"],
        "tournament": {"references": references, "lineups": [agents for agents, _ in tournament],
                       "games_per_lineup": games, "games": len(results), "seed": seed,
                       "truncated": sum(r.truncated for r in results)},
        "version": __version__,
        "command": calibrate_command(env_id, config, games, seed,
                                     None if references == default_references(env_id, config)
                                     else references),
        "measured": _measured(started),
    }
