"""``evaluate`` and ``rollout``: many games between agents, their table or each game's result,
and their records.

Ctrl-C stops the games at once (worker processes are ended) and keeps those that finished:
the table or results printed are marked partial, and ``--records`` / ``--json`` / ``--csv``
hold what finished; the status is then 130. Records are written before anything is printed,
so a reader that stops early (``| head -1``) does not lose them."""

from __future__ import annotations

import json
import os
import sys

from ..core.errors import ConfigError
from .args import ADDRESS_HELP, agent_list, check_counts, check_writable, parse_config, require_extra

INTERRUPTED = 130  # the shell's status for a command stopped by Ctrl-C


def check_records(path: str | None, overwrite: bool) -> None:
    """``--records`` is writable and, unless ``--overwrite``, names no file already there."""
    check_writable(path, "--records")
    if path is not None and os.path.exists(path) and not overwrite:
        raise ConfigError(f"--records {path!r} already exists; --overwrite replaces it")


def table_size_notes(env_id: str, specs: list[str], config: dict) -> list[str]:
    """When the agents' number, not the game's default, sets the players: a line saying so."""
    from ..core.registry import game_spec

    option = game_spec(env_id).game_class.options.get("num_players")
    if option is None or "num_players" in config or option.default == len(specs):
        return []
    return [f"{len(specs)} players, one per agent given (the game's default is {option.default}: "
            f"give {option.default} agents for it)"]


def play_games(args, specs: list[str], config: dict, progress: bool):
    """The games (``run_games``) and whether Ctrl-C cut them short."""
    from ..evaluation import run_games
    from ..evaluation.run import GamesInterrupted

    try:
        return run_games(args.env, specs, args.games, seed=args.seed, config=config,
                         workers=getattr(args, "workers", 1), progress=progress,
                         address=getattr(args, "address", None)), False
    except GamesInterrupted as stop:
        return stop.results, True


def partial_notes(interrupted: bool, results: list, args) -> list[str]:
    if not interrupted:
        return []
    return [f"PARTIAL: interrupted (Ctrl-C) after {len(results)} of {args.games} games; the seats "
            "are not rotated evenly over the games that finished"]


def cmd_evaluate(args) -> int:
    from ..evaluation import format_table, plot_ratings, ratings, summarize, write_csv

    check_counts(args)
    specs = agent_list(args.agents)
    config = parse_config(args.set)
    check_writable(args.json, "--json")
    check_writable(args.csv, "--csv")
    check_writable(args.plot, "--plot", image=True)
    if args.plot:
        require_extra("plot")
    check_records(args.records, args.overwrite)
    results, interrupted = play_games(args, specs, config, progress=not args.quiet)
    if not results:
        print(f"interrupted (Ctrl-C) before any of the {args.games} games finished: no table, "
              "nothing written")
        return INTERRUPTED
    if args.records:
        write_records(args.records, results, specs)
    rows = summarize(specs, results)
    rated = ratings(specs, results)
    for row, r in zip(rows, rated):
        row.update(skill_mu=r["mu"], skill_sigma=r["sigma"], skill_ordinal=r["ordinal"],
                   skill_games=r["games"])
    count = (f"{len(results)} of {args.games}" if interrupted else f"{args.games}")
    print(f"{args.env}: {count} seat-rotated games, seed {args.seed}")
    for line in table_size_notes(args.env, specs, config) + partial_notes(interrupted, results, args):
        print(line)
    print(format_table(rows))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"env": args.env, "agents": specs, "games": len(results),
                       "games_asked": args.games, "partial": interrupted, "seed": args.seed,
                       "config": config, "rows": rows}, f, indent=2)
    if args.csv:
        write_csv(args.csv, rows)
    if args.plot:
        plot_ratings(rated, args.plot)
    return INTERRUPTED if interrupted else 0


def cmd_rollout(args) -> int:
    """Play games and print each one's result as a table (seats, agents, scores, places; a
    game cut at max_steps says nobody wins); ``--records`` writes each game's replayable
    record (one JSON object per line; ``forest_envs.replay(record)`` rebuilds the game)."""
    from ..evaluation import format_game

    check_counts(args)
    specs = agent_list(args.agents)
    config = parse_config(args.set)
    check_records(args.records, args.overwrite)
    # the bar only on a terminal: rollout's output is often read by a program
    results, interrupted = play_games(args, specs, config,
                                      progress=not args.quiet and sys.stderr.isatty())
    if args.records and results:
        write_records(args.records, results, specs)
    count = f"{len(results)} of {args.games}" if interrupted else f"{args.games}"
    print(f"{args.env}: {count} game(s), seed {args.seed}; the agents change seats from game "
          "to game")
    for line in table_size_notes(args.env, specs, config) + partial_notes(interrupted, results, args):
        print(line)
    for r in results:
        if args.moves:
            print_moves(r.record)
        print(format_game(r, specs))
    return INTERRUPTED if interrupted else 0


def print_moves(record: dict) -> None:
    """A played game's moves, each with what it did, as the referee reads them
    (``after.narrate(before, action, None)``), replayed from its record."""
    from ..envs.registration import make_raw

    env = make_raw(record["env_id"], **record["config"], **record["env_options"])
    env.reset(seed=record["seed"])
    state = env.engine_state
    for step, action in enumerate(record["actions"], 1):
        actor, before = state.current_player, state.clone()
        env.step(action)
        print(f"{step:4d}. P{actor}: {state.narrate(before, action, None)}")


def write_records(path: str, results, specs: list[str]) -> None:
    """One JSON record per line, with the agent that sat at each seat."""
    with open(path, "w") as f:
        for r in results:
            f.write(json.dumps(dict(r.record, agents=[specs[i] for i in r.seats])) + "\n")


def add_games_parsers(sub, agents_help: str, set_help: str) -> None:
    for name, func, helptext in (("evaluate", cmd_evaluate, "win rates of agents over many games"),
                                 ("rollout", cmd_rollout, "play games and print their scores")):
        q = sub.add_parser(name, help=helptext)
        q.add_argument("--env", required=True, help="a registered env id (forest-envs list)")
        q.add_argument("--agents", required=True,
                       help="comma-separated agents, one per seat (their number sets the number "
                            "of players): " + agents_help)
        q.add_argument("--games", type=int, default=100, help="games to play (default: %(default)s)")
        q.add_argument("--seed", type=int, default=0,
                       help="seed of the first game; every game's seed derives from it "
                            "(default: %(default)s)")
        q.add_argument("--set", action="append", metavar="KEY=VALUE", help=set_help)
        q.add_argument("--records", help="write each game's replayable record (JSON lines; "
                       "forest-envs replay RECORDS --html OUT shows one; default: none)")
        q.add_argument("--overwrite", action="store_true",
                       help="let --records replace a file already there (default: off)")
        q.add_argument("--quiet", action="store_true", help="no progress bar (default: off; "
                       + ("a bar on stderr when it is a terminal)" if name == "rollout" else "a bar on stderr)"))
        if name == "rollout":
            q.add_argument("--moves", action="store_true",
                           help="also print every move of each game and what it did, as the "
                                "referee reads them (default: off)")
        if name == "evaluate":
            q.add_argument("--workers", type=int, default=1,
                           help="worker processes; results do not depend on it (default: %(default)s)")
            q.add_argument("--address", help=ADDRESS_HELP)
            q.add_argument("--json", help="write the results table as JSON (default: none)")
            q.add_argument("--csv", help="write the results table as CSV (default: none)")
            q.add_argument("--plot", help="write a PNG of the agents' skills (default: none)")
        q.set_defaults(func=func)
