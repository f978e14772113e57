"""The ``forest-envs`` command: list, play, rollout, evaluate, replay, playthrough, fuzz, bench.

Bad input (an option, a file, a value) is one line ``forest-envs: ...`` on stderr and exit
status 2, checked before any game is played; argparse's usage errors exit 2 as well."""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import sys

from .core.errors import ConfigError, ForestEnvError

_NUMBER = re.compile(r"[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?")


def _parse_config(pairs: list[str]) -> dict:
    """``key=value`` pairs; values are parsed as JSON when possible (3, true, "x", 1e-4),
    numbers JSON does not take (.5, 1.) as floats, anything else is a string."""
    out = {}
    for pair in pairs or []:
        key, eq, value = pair.partition("=")
        if not eq or not key.strip():
            raise ConfigError(f"--set expects key=value, got {pair!r}")
        try:
            out[key.strip()] = json.loads(value)
        except json.JSONDecodeError:
            out[key.strip()] = float(value) if _NUMBER.fullmatch(value.strip()) else value
    return out


def _check_counts(args) -> None:
    """The numeric options every command shares, checked before anything is built."""
    for flag, attr, low in (("--games", "games", 1), ("--workers", "workers", 1),
                            ("--seed", "seed", 0), ("--seat", "seat", 0)):
        value = getattr(args, attr, None)
        if value is not None and value < low:
            raise ConfigError(f"{flag} must be {'at least 1' if low == 1 else 'non-negative'}, "
                              f"got {value}")


def _check_writable(path: str | None, flag: str, image: bool = False) -> None:
    """Refuse an output path that cannot be written, before any work is done."""
    if path is None:
        return
    if not path.strip():
        raise ConfigError(f"{flag} needs a file name")
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        raise ConfigError(f"{flag} {path!r} is a folder; give a file name")
    if not os.path.isdir(folder):
        raise ConfigError(f"{flag} {path!r}: folder {folder!r} does not exist")
    target = path if os.path.exists(path) else folder
    if not os.access(target, os.W_OK):
        raise ConfigError(f"{flag} {path!r} is not writable (permission denied)")
    if image:
        suffix = os.path.splitext(path)[1].lower().lstrip(".")
        formats = ("png", "pdf", "svg", "svgz", "jpg", "jpeg", "eps", "ps", "tif", "tiff", "webp")
        if suffix and suffix not in formats:
            raise ConfigError(f"{flag} {path!r}: cannot write a .{suffix} image; use .png "
                              f"(or {', '.join('.' + f for f in formats[1:])})")


def _agent_list(text: str, flag: str = "--agents") -> list[str]:
    """Comma-separated agents; an ``option=value`` item continues the options of the agent
    before it, so ``ismcts:sims=200,depth=10,heuristic`` is two agents."""
    specs: list[str] = []
    for item in (s.strip() for s in text.split(",")):
        if not item:
            continue
        # (a value with a path separator continues it only when it names a policy file,
        # as in ismcts:prior=runs/a/final.npz; any other such item is an agent's path)
        if specs and ":" in specs[-1] and re.fullmatch(r"\w+=([^:/\\]*|[^:,]*\.(npz|zip))", item):
            specs[-1] += "," + item
        else:
            specs.append(item)
    if not specs:
        raise ConfigError(f"{flag} lists no agent; give comma-separated agents, e.g. random,random")
    return specs


def cmd_list(args) -> int:
    from .core.registry import env_ids, game_spec

    for env_id in env_ids():
        spec = game_spec(env_id)
        game = spec.game_class()
        traits = ", ".join(f"{k}: {v}" for k, v in game.traits.describe().items())
        options = ", ".join(f"{k}={v!r}" for k, v in game.config.items())
        print(f"{env_id:<16} {game.name}")
        print(f"{'':<16} {traits}")
        print(f"{'':<16} options {options}; {game.num_actions} actions, observation "
              f"{game.observation_size}; heuristic agent: {'yes' if spec.heuristic else 'no'}")
    return 0


def cmd_evaluate(args) -> int:
    from .evaluation import format_table, plot_ratings, ratings, run_games, summarize, write_csv

    _check_counts(args)
    specs = _agent_list(args.agents)
    config = _parse_config(args.set)
    _check_writable(args.json, "--json")
    _check_writable(args.csv, "--csv")
    _check_writable(args.plot, "--plot", image=True)
    _check_writable(args.records, "--records")
    results = run_games(args.env, specs, args.games, seed=args.seed, config=config,
                        workers=args.workers, progress=not args.quiet)
    rows = summarize(specs, results)
    rated = ratings(specs, results)
    for row, r in zip(rows, rated):
        row.update(rating_mu=r["mu"], rating_sigma=r["sigma"], rating_ordinal=r["ordinal"])
    print(f"{args.env}: {args.games} seat-rotated games, seed {args.seed}")
    print(format_table(rows))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"env": args.env, "agents": specs, "games": args.games, "seed": args.seed,
                       "config": config, "rows": rows}, f, indent=2)
    if args.csv:
        write_csv(args.csv, rows)
    if args.plot:
        plot_ratings(rated, args.plot)
    if args.records:
        _write_records(args.records, results, specs)
    return 0


def cmd_plot(args) -> int:
    from .evaluation import plot_learning_curve, read_learning_curve

    read_learning_curve(args.eval_csv)  # a missing or foreign file: one line, nothing written
    _check_writable(args.out, "--out", image=True)
    plot_learning_curve(args.eval_csv, args.out)
    print(f"wrote {args.out}")
    return 0


def cmd_rollout(args) -> int:
    """Play games and print each one's scores; ``--records`` writes each game's replayable
    record (one JSON object per line; ``forest_envs.replay(record)`` rebuilds the game)."""
    from .evaluation import run_games

    _check_counts(args)
    specs = _agent_list(args.agents)
    config = _parse_config(args.set)
    _check_writable(args.records, "--records")
    results = run_games(args.env, specs, args.games, seed=args.seed, config=config)
    for r in results:
        # A game without points (scores None) prints each agent's place instead.
        what, values = ("scores", r.scores) if r.scores is not None else ("ranks", r.ranks)
        by_agent = {f"{i}:{specs[i]}": values[r.seats.index(i)] for i in range(len(specs))}
        print(f"game {r.index}: {r.steps} steps, {what} {by_agent}")
    if args.records:
        _write_records(args.records, results, specs)
    return 0


def _write_records(path: str, results, specs: list[str]) -> None:
    """One JSON record per line, with the agent that sat at each seat."""
    with open(path, "w") as f:
        for r in results:
            f.write(json.dumps(dict(r.record, agents=[specs[i] for i in r.seats])) + "\n")


def cmd_replay(args) -> int:
    """Replay a recorded game: with ``--html``, write a page that steps through it; without,
    print its moves as the first of ``--views`` may read them."""
    from .core.registry import game_spec
    from .replay_html import load_record, parse_views, replay_positions, write_replay_html

    if args.game < 0:
        raise ConfigError(f"--game must be non-negative, got {args.game}")
    _check_writable(args.html, "--html")
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
    """Play one game in the terminal; ``help`` at the prompt lists the commands and the
    board's legend. Ctrl-C leaves at once (exit 130), q or end of input quits (exit 0)."""
    from .agents import make_agent
    from .agents.policy import check_agent_fits
    from .core.registry import game_spec, make_raw

    _check_counts(args)
    config = _parse_config(args.set)
    spec = game_spec(args.env)
    if args.opponents is None:
        env = make_raw(args.env, **config)  # the game's default number of players
        kind = "heuristic" if spec.heuristic else "random"
        opponents = [kind] * (len(env.possible_agents) - 1)
    else:
        opponents = _agent_list(args.opponents, "--opponents")
        config.setdefault("num_players", len(opponents) + 1)
        env = make_raw(args.env, **config)
    n = len(env.possible_agents)
    if len(opponents) != n - 1:
        raise ConfigError(f"{n} players need {n - 1} opponents, got {len(opponents)}")
    if not 0 <= args.seat < n:
        raise ConfigError(f"--seat must be 0..{n - 1}, got {args.seat}")
    me = env.possible_agents[args.seat]
    others = [a for a in env.possible_agents if a != me]
    bots, kinds = {}, {me: "you"}
    for i, (agent, kind) in enumerate(zip(others, opponents)):
        bots[agent] = make_agent(args.env, kind, seed=args.seed + i + 1)
        check_agent_fits(bots[agent], env)  # a policy for another game: refused before play
        kinds[agent] = kind
    # The log names players as the board does (P0, P1, ...), with who plays them.
    names = {a: f"{_seat_label(i)} ({kinds[a]})" for i, a in enumerate(env.possible_agents)}
    env.reset(seed=args.seed)
    state = env.engine_state
    try:
        while not _game_over(env, me):
            agent = env.agent_selection
            if agent != me:
                action = bots[agent].act(env, agent)
                # What the human may read of a bot's move: a card played face down stays hidden.
                print(f"{names[agent]}: {env.describe_action(action, me)}")
                env.step(action)
                continue
            print()
            print(env.render_text(me))
            legal = state.legal_actions()
            print("Your moves:")
            for i, a in enumerate(legal):
                print(f"  {i:3d}: {env.action_to_string(a)}")
            action = _ask(legal, env, me)
            if action is None:
                print("bye")
                return 0
            print(f"{names[me]}: {env.action_to_string(action)}")
            env.step(action)
    except KeyboardInterrupt:
        print("\ninterrupted (Ctrl-C); bye")
        return 130
    print()
    print(env.render_text(me))
    print(_result_text(env, names))
    return 0


def _seat_label(seat: int) -> str:
    """A seat as board texts name it (P0, P1, ...)."""
    return f"P{seat}"


def _game_over(env, me: str) -> bool:
    return env.engine_state.is_terminal or env.terminations[me] or env.truncations[me]


def _result_text(env, names: dict[str, str]) -> str:
    """The end screen's verdict from the env's end infos: the winner(s), then every place."""
    infos = {a: env.infos.get(a, {}) for a in env.possible_agents}
    if any(info.get("truncated") for info in infos.values()):
        head = f"Game over after {env.num_steps} moves (max_steps): truncated, nobody wins."
    else:
        winners = [names[a] for a, info in infos.items() if info.get("winner")]
        head = ("Winner: " if len(winners) == 1 else "Winners (shared): ") + ", ".join(winners) \
            if winners else "Game over: nobody wins."
    places = sorted((info["rank"], a) for a, info in infos.items() if "rank" in info)
    lines = [head]
    if places:
        lines.append("Places:")
        for rank, a in places:
            score = infos[a].get("score")
            lines.append(f"  {rank}. {names[a]}" + ("" if score is None else f", score {score}"))
    return "\n".join(lines)


_COMMANDS = (
    ("<number>", "play the move with that number in the list"),
    ("<move name>", "play a move by its name, as listed"),
    ("help, ?", "this help"),
    ("q, quit, exit", "leave the game (end of input too; Ctrl-C stops at once)"),
)


def _help_text(env, me: str) -> str:
    """The prompt's commands and a legend of the board text: the game's own (``legend()``,
    from its ``render_legend()``) when it gives one, else what holds for every game."""
    seat = env.possible_agents.index(me)
    lines = ["Commands:"] + [f"  {cmd:<15} {what}" for cmd, what in _COMMANDS]
    lines.append("Board legend:")
    lines.append(f"  {_seat_label(0)}..{_seat_label(len(env.possible_agents) - 1)}: the players by "
                 f"seat; you are {_seat_label(seat)}, marked (you)")
    lines.append("  the board shows only what you may know; what others hide stays hidden")
    legend = env.legend() if hasattr(env, "legend") else None
    if legend:
        lines += ["  " + line for line in legend.splitlines()]
    else:
        lines.append("  (this game gives no legend of its own notation)")
    return "\n".join(lines)


def _ask(legal: list[int], env, me: str):
    while True:
        try:
            text = input("move (number or name; help; q to quit)> ").strip()
        except EOFError:
            print()
            return None
        if text in ("q", "quit", "exit"):
            return None
        if text.lower() in ("help", "?", "h"):
            print(_help_text(env, me))
            continue
        if not text:
            continue
        if text.isdigit() and int(text) < len(legal):
            return legal[int(text)]
        try:
            action = env.string_to_action(text)
        except ForestEnvError:
            print(f"no move {text!r} (type help for the commands)")
            continue
        if action in legal:
            return action
        print(f"{text!r} is not legal now")


def cmd_train(args) -> int:
    """Train from a config. Ctrl-C saves a checkpoint, prints the command that continues the
    run and exits with 130 (the shell's code for an interrupted command)."""
    from pathlib import Path

    path = args.config or args.config_opt
    if not path:
        raise SystemExit("forest-envs train: give a config file (one of configs/*.yaml)")

    def continue_with(checkpoint) -> str:
        return f"continue with:\n  {resume_command(path, args.set, checkpoint, args.quiet)}"

    cfg = None
    try:
        # Imports inside: a Ctrl-C while torch loads must not print a traceback either.
        from .train.config import load_config
        from .train.runs import resume_command, stop_reason
        from .train.sb3 import train

        cfg = load_config(path, _parse_config(args.set))
        summary = train(cfg, resume=args.resume, progress=not args.quiet, overwrite=args.overwrite)
    except KeyboardInterrupt:
        # A Ctrl-C before PPO started, or a second one: stopped at once, nothing new saved.
        print("forest-envs: training interrupted; work since the last checkpoint is not saved",
              file=sys.stderr)
        latest = Path(cfg["output_dir"]) / "checkpoints" / "latest.zip" if cfg else None
        if latest and latest.is_file():
            print(f"the last checkpoint is {latest}; {continue_with(latest)}")
        else:
            print("no checkpoint was saved: run the same command again to start over")
        return 130
    session = summary["session"]
    print(f"trained {session['timesteps']} steps in {session['wall_seconds']} s "
          f"({session['steps_per_second']} steps/s)"
          + (f"; the run in all: {summary['timesteps']} steps in {summary['wall_seconds']} s"
             if "resumed_from" in summary else ""))
    print(f"stopped: {stop_reason(summary, cfg)}")
    if summary["stopped"] == "interrupted":
        print(f"saved checkpoint {summary['checkpoint']}; {continue_with(summary['checkpoint'])}")
        return 130
    print(f"policy {summary['policy']}")
    for kind, row in summary.get("evaluation", {}).items():
        lo, hi = row["win_ci95"]
        score = "" if row["mean_score"] is None else f", mean score {row['mean_score']:.1f}"
        print(f"  vs {kind:<10} win rate {row['win_rate']:.3f} [{lo:.3f}, {hi:.3f}] over "
              f"{row['games']} games{score}")
    if summary.get("final_evaluation") == "interrupted":
        print("final evaluation interrupted (Ctrl-C); the run is complete, evaluate it with "
              f"forest-envs evaluate --agents {summary['policy']},...")
        return 130
    return 0


def cmd_bench(args) -> int:
    from .bench import format_rows, run

    if not (math.isfinite(args.seconds) and args.seconds > 0):
        raise ConfigError(f"--seconds must be a positive number, got {args.seconds}")
    print(format_rows(run(args.seconds)))
    return 0


def build_parser() -> argparse.ArgumentParser:
    from . import __version__

    p = argparse.ArgumentParser(prog="forest-envs", description=__doc__)
    p.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = p.add_subparsers(dest="command", required=True)
    sub.add_parser("list", help="list the environments").set_defaults(func=cmd_list)

    for name, func, helptext in (("evaluate", cmd_evaluate, "win rates of agents over many games"),
                                 ("rollout", cmd_rollout, "play games and print their scores")):
        q = sub.add_parser(name, help=helptext)
        q.add_argument("--env", required=True, help="a registered env id (forest-envs list)")
        q.add_argument("--agents", required=True,
                       help="comma-separated agents, one per seat: random, heuristic, "
                            "ismcts[:option=value,...] (docs/search.md), or a policy file")
        q.add_argument("--games", type=int, default=100)
        q.add_argument("--seed", type=int, default=0)
        q.add_argument("--set", action="append", metavar="KEY=VALUE", help="game option")
        q.add_argument("--records", help="write each game's replayable record (JSON lines; "
                       "forest-envs replay RECORDS --html OUT shows one)")
        if name == "evaluate":
            q.add_argument("--workers", type=int, default=1)
            q.add_argument("--json", help="write the results table as JSON")
            q.add_argument("--csv", help="write the results table as CSV")
            q.add_argument("--plot", help="write a PNG of the agents' ratings")
            q.add_argument("--quiet", action="store_true")
        q.set_defaults(func=func)

    q = sub.add_parser("replay", help="step through a recorded game (an HTML page with --html)")
    q.add_argument("record", help="a record file: JSON lines as rollout/evaluate --records write, "
                   "or one JSON record")
    q.add_argument("--html", help="write a self-contained HTML page that steps through the game")
    q.add_argument("--game", type=int, default=0, help="which game of the file (0 = the first)")
    q.add_argument("--views", help="views to include, e.g. referee,0,1 (default: the referee "
                   "and every seat)")
    q.add_argument("--colors", type=int, default=64,
                   help="palette size of the pictures, 2..256; 0 = lossless (bigger file)")
    q.set_defaults(func=cmd_replay)

    q = sub.add_parser("play", help="play in the terminal against bots")
    q.add_argument("--env", required=True, help="a registered env id (forest-envs list)")
    q.add_argument("--opponents", help="comma-separated agents for the other seats "
                   "(default: the game's heuristic, or random, in every other seat)")
    q.add_argument("--seat", type=int, default=0)
    q.add_argument("--seed", type=int, default=0)
    q.add_argument("--set", action="append", metavar="KEY=VALUE", help="game option")
    q.set_defaults(func=cmd_play)

    q = sub.add_parser("plot", help="plot a training run's learning curve (its eval.csv) to PNG")
    q.add_argument("eval_csv", help="runs/<name>/eval.csv")
    q.add_argument("--out", default="learning_curve.png")
    q.set_defaults(func=cmd_plot)

    q = sub.add_parser("train", help="train MaskablePPO from a YAML config")
    q.add_argument("config", nargs="?", help="YAML training config (see configs/)")
    q.add_argument("--config", dest="config_opt", help="same as the positional CONFIG")
    q.add_argument("--resume", help="checkpoint .zip to continue from")
    q.add_argument("--overwrite", action="store_true",
                   help="delete an earlier run in the output folder and start over")
    q.add_argument("--set", action="append", metavar="KEY=VALUE", help="override, e.g. ppo.n_steps=256")
    q.add_argument("--quiet", action="store_true", help="no progress bar")
    q.set_defaults(func=cmd_train)

    from . import playthrough

    q = sub.add_parser("playthrough", help="write or check the golden playthroughs "
                       "(tests/playthroughs; forest_envs/playthrough.py)")
    playthrough.add_arguments(q)
    q.set_defaults(func=playthrough.run)

    from .core import fuzzing

    q = sub.add_parser("fuzz", help="coverage-seeking fuzz games: (decision kind x action "
                                    "block: times reached)")
    fuzzing.add_arguments(q)
    q.set_defaults(func=fuzzing.command)

    q = sub.add_parser("bench", help="random-play throughput beside connect_four_v3")
    q.add_argument("--seconds", type=float, default=3.0)
    q.set_defaults(func=cmd_bench)
    return p


def _one_line(text: str) -> str:
    return " ".join(str(text).split()) or "error"


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)  # usage errors: argparse's message, exit 2
    try:
        return args.func(args)
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
