"""The ``forest-envs`` command: list, play, serve, rollout, evaluate, benchmark, replay, train, study,
demo, plot, playthrough, fuzz, bench.

Bad input (an option, a file, a value) is one line ``forest-envs: ...`` on stderr and exit
status 2, checked before any game is played; argparse's usage errors exit 2 as well."""

from __future__ import annotations

import argparse
import math
import os
import re
import sys

from ..core.errors import ConfigError, ForestEnvError
from .args import agent_list, check_counts, check_writable, parse_config, require_extra


def cmd_list(args) -> int:
    from ..core import engines
    from ..core.registry import env_ids, game_spec

    for env_id in env_ids():
        spec = game_spec(env_id)
        game = spec.game_class()
        traits = ", ".join(f"{k}: {v}" for k, v in game.traits.describe().items())
        options = ", ".join(f"{k}={v!r}" for k, v in game.config.items())
        print(f"{env_id:<16} {game.name}")
        print(f"{'':<16} {traits}")
        print(f"{'':<16} options {options}; {game.num_actions} actions, observation "
              f"{game.observation_size}; heuristic agent: {'yes' if spec.heuristic else 'no'}")
        native = ("built" if spec.game_class.native_state_class is not None
                  else f"not available ({spec.game_class.native_unavailable})")
        print(f"{'':<16} engines: python, native {native}; plays on "
              f"{engines.default_engine(spec.game_class)} by default")
    return 0


def cmd_plot(args) -> int:
    require_extra("plot")
    from ..evaluation import plot_learning_curve, read_learning_curve

    read_learning_curve(args.eval_csv)  # a missing or foreign file: one line, nothing written
    check_writable(args.out, "--out", image=True)
    plot_learning_curve(args.eval_csv, args.out)
    print(f"wrote {args.out}")
    return 0


def cmd_replay(args) -> int:
    """Replay a recorded game: with ``--html``, write a page that steps through it; without,
    print its moves as the first of ``--views`` may read them."""
    from ..core.registry import game_spec
    from ..replays.html import load_record, parse_views, replay_positions, write_replay_html

    if args.game < 0:
        raise ConfigError(f"--game must be non-negative, got {args.game}")
    check_writable(args.html, "--html")
    record = load_record(args.record, args.game)
    if not isinstance(record.get("config", {}), dict):
        raise ConfigError(f"{args.record!r}: the record's 'config' is not an object")
    game = game_spec(record["env_id"]).game_class(**record.get("config", {}))
    views = parse_views(args.views, game.num_players)
    if args.html:
        try:
            size = write_replay_html(record, args.html, views=views, colors=args.colors,
                                     progress=sys.stderr.isatty())
        except OSError as err:
            raise ConfigError(f"--html {args.html!r}: cannot write it ({err.strerror or err})") from None
        print(f"wrote {args.html} ({size / 1024:.0f} KB, {len(record['actions'])} moves)")
        return 0
    rep = replay_positions(record, views)
    first = views[0]
    print(f"{rep.env_id}, seed {record['seed']}, as {'the referee' if first is None else f'P{first}'} "
          "saw it:")
    for pos in rep.positions[1:]:
        print(f"{pos.step:4d}. P{pos.actor}: {pos.texts[first]}")
    print(rep.result)
    return 0


def cmd_play(args) -> int:
    """Play one game in the terminal (forest_envs/cli/play.py): the board, the pending decision
    as a sentence, the legal moves (grouped when many) and a log of every move."""
    from .play import play

    check_counts(args)
    config = parse_config(args.set)
    opponents = None if args.opponents is None else agent_list(args.opponents, "--opponents")
    return play(args, config, opponents)


def cmd_bench(args) -> int:
    require_extra("bench")
    from ..benchmark.throughput import format_rows, run

    if not (math.isfinite(args.seconds) and args.seconds > 0):
        raise ConfigError(f"--seconds must be a positive number, got {args.seconds}")
    from ..core.registry import game_spec

    for env_id in args.env or ():
        game_spec(env_id)  # an unknown id is refused with the valid ones
    if args.batch_envs is not None and args.batch_envs < 1:
        raise ConfigError(f"--batch-envs must be at least 1, got {args.batch_envs}")
    chosen = None if args.engine is None else (args.engine,)
    sizes = {} if args.batch_envs is None else {"batch_envs": args.batch_envs}
    print(format_rows(run(args.seconds, games=args.env or None, engine_choice=chosen, **sizes)))
    return 0


AGENTS_HELP = ("random, heuristic, ppo (the shipped baseline), ismcts[:option=value,...] (docs/search.md), "
               "or a policy file: a .npz (plain arrays, safe to load) or an SB3 .zip, which is unpickled and "
               "can run code: load only .zip files you trust")
SET_HELP = "a game or env option, e.g. num_players=3 (repeatable; default: the game's defaults)"


def _plain_text(text: str) -> str:
    """A docstring for --help: reStructuredText's ``code`` marks dropped."""
    return text.replace("``", "")


def _complete_help(parser: argparse.ArgumentParser) -> None:
    """Every option of every command says its default: options that other modules add
    (playthrough, fuzz) without one get it appended, and docstrings lose their ``marks``."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for choice in action.choices.values():
                choice.description = _plain_text(choice.description or "") or None
                _complete_help(choice)
            continue
        if not action.option_strings or action.help == argparse.SUPPRESS:
            continue
        if isinstance(action, (argparse._HelpAction, argparse._VersionAction)):
            continue
        text = _plain_text(action.help or "") or action.dest.replace("_", " ")
        if "default" not in text and not action.required:
            default = ("off" if action.default is False else "none" if action.default is None
                       else "%(default)s")
            text = f"{text} (default: {default})".strip()
        action.help = text


def build_parser() -> argparse.ArgumentParser:
    from .. import __version__

    p = argparse.ArgumentParser(prog="forest-envs", description=_plain_text(__doc__))
    p.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = p.add_subparsers(dest="command", required=True)
    sub.add_parser("list", help="list the environments").set_defaults(func=cmd_list)

    from .games import add_games_parsers

    add_games_parsers(sub, AGENTS_HELP, SET_HELP)

    from .benchmark import add_benchmark_parser
    from .demo import add_demo_parser
    from .train import add_train_parsers

    add_benchmark_parser(sub)
    add_demo_parser(sub)

    q = sub.add_parser("replay", help="step through a recorded game (an HTML page with --html)")
    q.add_argument("record", help="a record file: JSON lines as rollout/evaluate --records write, "
                   "or one JSON record")
    q.add_argument("--html", help="write a self-contained HTML page that steps through the game "
                   "(default: print the moves)")
    q.add_argument("--game", type=int, default=0, help="which game of the file, 0 = the first "
                   "(default: %(default)s)")
    q.add_argument("--views", help="views to include, e.g. referee,0,1 or spectator (what every "
                   "seat sees) (default: the referee and every seat)")
    q.add_argument("--colors", type=int, default=64,
                   help="palette size of the pictures, 2..256; 0 = lossless, a bigger file "
                   "(default: %(default)s)")
    q.set_defaults(func=cmd_replay)

    q = sub.add_parser("play", help="play in the terminal against bots",
                       description="Play one game in the terminal: you at --seat, agents at the other "
                       "seats. Who moves first is the game's own rule, not always seat 0 (a seat "
                       "the setup draws, or the one the rules name); the first screen says who. "
                       "At the prompt: a move's number or name, help, rules, q.")
    q.add_argument("--env", required=True, help="a registered env id (forest-envs list)")
    q.add_argument("--opponents", help="the agents at the other seats: one per other seat, "
                   "comma-separated (their number sets the number of players), or one name for "
                   "every other seat; agents: " + AGENTS_HELP + " (default: the game's heuristic, "
                   "or random, at every other seat of its default table)")
    q.add_argument("--seat", type=int, default=0, help="your seat: 0 is P0 on the board, 1 is P1, "
                   "...; not always the first to move (default: %(default)s)")
    q.add_argument("--seed", type=int, default=None,
                   help="the game's seed (default: drawn at random and printed, with the command "
                        "that plays the same game again)")
    q.add_argument("--plain", action="store_true",
                   help="the board as plain text even on a colour terminal (default: off; a game "
                        "with a colour board draws it with rich when the "
                        "terminal has colours and rich is installed)")
    q.add_argument("--set", action="append", metavar="KEY=VALUE", help=SET_HELP)
    q.set_defaults(func=cmd_play)

    q = sub.add_parser("plot", help="plot a training run's learning curve (its eval.csv) to PNG")
    q.add_argument("eval_csv", help="runs/<name>/eval.csv")
    q.add_argument("--out", default="learning_curve.png", help="the PNG to write (default: %(default)s)")
    q.set_defaults(func=cmd_plot)

    add_train_parsers(sub)

    from .serve import add_serve_parser
    from .study import add_study_parser

    add_study_parser(sub)
    add_serve_parser(sub)

    from ..testing import playthrough

    q = sub.add_parser("playthrough", help="write or check the golden playthroughs "
                       "(tests/playthroughs; forest_envs/testing/playthrough.py)")
    playthrough.add_arguments(q)
    q.set_defaults(func=playthrough.run)

    from ..testing import fuzzing

    q = sub.add_parser("fuzz", help="coverage-seeking fuzz games: (decision kind x action "
                                    "block: times reached)")
    fuzzing.add_arguments(q)
    q.set_defaults(func=fuzzing.command)

    q = sub.add_parser("bench", help="random-play throughput of each engine beside connect_four_v3 "
                                     "and OpenSpiel's C++ connect_four")
    q.add_argument("--seconds", type=float, default=3.0,
                   help="seconds of play per configuration (default: %(default)s)")
    q.add_argument("--env", action="append", metavar="ENV_ID",
                   help="only this game (repeatable; default: every game)")
    q.add_argument("--engine", choices=["python", "native"],
                   help="only this engine (default: every engine each game has here)")
    q.add_argument("--batch-envs", type=int, metavar="N",
                   help="envs the batched rows step per call (default: the bench's own; the line "
                        "under the table says how many)")
    q.set_defaults(func=cmd_bench)
    _complete_help(p)
    return p


def _one_line(text: object) -> str:
    return " ".join(str(text).split()) or "error"


def main(argv: list[str] | None = None) -> int:
    """The entry point: every command's output may go to a pipe closed early
    (``forest-envs replay games.jsonl | head``), which ends the command quietly."""
    try:
        code = _run(argv)
        sys.stdout.flush()  # inside the try: a closed pipe shows here, not at exit
        return code
    except BrokenPipeError:
        # The reader is gone: nothing more can be said. Python would flush stdout again at
        # exit and print "Exception ignored ... BrokenPipeError": point it at /dev/null.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 141  # 128 + SIGPIPE, as a shell reports a command stopped by a closed pipe


def _run(argv: list[str] | None) -> int:
    args = build_parser().parse_args(argv)  # usage errors: argparse's message, exit 2
    try:
        return args.func(args)
    except BrokenPipeError:
        raise
    except ForestEnvError as err:
        print(f"forest-envs: {_one_line(err)}", file=sys.stderr)
        return 2
    except SystemExit as err:
        if not isinstance(err.code, str):
            raise
        # A command that stops with a message: the same one line and status as bad input.
        text = re.sub(r"^forest-envs( \w+)?: ", "", err.code)
        print(f"forest-envs: {_one_line(text)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\nforest-envs: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
