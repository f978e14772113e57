"""``forest-envs benchmark``: its options and the command (the protocol is in ``forest_envs.benchmark``)."""

from __future__ import annotations

import json
import sys

from ..core.errors import ConfigError
from .args import ADDRESS_HELP, agent_list, check_counts, check_writable, parse_config


def cmd_benchmark(args) -> int:
    from .. import benchmark as bm

    if args.calibrate == bool(args.agent):
        raise ConfigError("give --agent SPEC (benchmark an agent) or --calibrate (freeze the "
                          "reference ratings), not both" if args.agent else
                          "give --agent SPEC (the agent to benchmark) or --calibrate")
    if args.references and not args.calibrate:
        raise ConfigError("--references is for --calibrate; a benchmark's line-ups are fixed")
    if args.lineups is not None and args.calibrate:
        raise ConfigError("--lineups is for a benchmark; --calibrate plays every line-up of the "
                          "references")
    lineups = None
    if args.lineups is not None:
        lineups = [name.strip() for name in args.lineups.split(",") if name.strip()]
        if not lineups:
            raise ConfigError("--lineups lists no line-up; give comma-separated names, e.g. "
                              "heuristic,mixed")
    if args.games is None:
        args.games = bm.DEFAULT_CALIBRATION_GAMES if args.calibrate else bm.DEFAULT_GAMES
    if args.seed is None:
        args.seed = bm.DEFAULT_CALIBRATION_SEED if args.calibrate else bm.DEFAULT_SEED
    check_counts(args)
    config = parse_config(args.set)
    check_writable(args.json, "--json")
    journal = None
    if args.calibrate:
        check_writable(args.ratings or str(bm.REFERENCE_RATINGS), "--ratings")
        refs = agent_list(args.references, "--references") if args.references else None
        entry = bm.run_calibration(args.env, refs, args.games, args.seed, config, args.workers,
                                   args.address, progress=not args.quiet)
        path = bm.store_entry(entry, args.ratings)
        print(bm.format_calibration(entry))
        print(f"wrote the frozen ratings into {path}")
    else:
        journal = _journal(args, config) if args.json else None
        try:
            entry = bm.run_benchmark(args.env, args.agent, args.games, args.seed, config,
                                     args.workers, args.address, args.ratings,
                                     progress=not args.quiet, lineups=lineups, journal=journal)
        except KeyboardInterrupt:
            if journal is not None:
                print(f"\nforest-envs: interrupted; {journal.count()} games are kept in "
                      f"{journal.path}: the same command continues from them", file=sys.stderr)
                return 130
            raise
        print(bm.format_benchmark(entry))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(entry, f, indent=2)
    if journal is not None:
        journal.remove()
    return 0


def _journal(args, config: dict):
    """The journal of this benchmark's games beside its --json entry (benchmark/journal.py):
    a run stopped part-way continues from the games it holds."""
    from ..benchmark.journal import GameJournal, journal_path
    from ..benchmark.protocol import benchmark_identity

    path = journal_path(args.json)
    resuming = path.exists()
    journal = GameJournal(path, benchmark_identity(args.env, args.agent, args.games, args.seed, config))
    if resuming:
        torn = " (its last line, cut short, dropped)" if journal.dropped_torn_line else ""
        print(f"forest-envs: continuing from {path}{torn}: {journal.count()} games already played",
              file=sys.stderr)
    return journal


def add_benchmark_parser(sub) -> None:
    q = sub.add_parser("benchmark", help="an agent against the reference line-ups, rated on a "
                       "fixed scale (docs/benchmark.md)")
    q.add_argument("--env", required=True, help="a registered env id (forest-envs list)")
    q.add_argument("--agent", help="the agent to benchmark: random, heuristic, ismcts[:...], ppo, "
                   "or a policy file")
    q.add_argument("--games", type=int, help="games per line-up (default 300; 2000 with --calibrate)")
    q.add_argument("--seed", type=int, help="default 0 (1 with --calibrate)")
    q.add_argument("--workers", type=int, default=1)
    q.add_argument("--address", help=ADDRESS_HELP)
    q.add_argument("--set", action="append", metavar="KEY=VALUE", help="game option")
    q.add_argument("--json", help="write the leaderboard entry (or, with --calibrate, the "
                   "calibration) as JSON; a benchmark keeps its games in JSON.games.jsonl until "
                   "then, and the same command continues from them after Ctrl-C or a crash")
    q.add_argument("--calibrate", action="store_true", help="play the calibration tournament of "
                   "the reference agents and freeze their ratings into --ratings")
    q.add_argument("--references", help="with --calibrate: comma-separated reference agents, the "
                   "anchor first (default: the line-ups' agents, random first)")
    q.add_argument("--lineups", help="comma-separated line-ups to play (default: all of them: "
                   "random, heuristic, ppo, mixed); the others are skipped, saying so: for a "
                   "candidate too slow for every line-up")
    q.add_argument("--ratings", help="the reference ratings file (default: the one in the package)")
    q.add_argument("--quiet", action="store_true", help="no progress bar")
    q.set_defaults(func=cmd_benchmark)
