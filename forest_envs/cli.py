"""The ``forest-envs`` command: list, play, rollout, evaluate, bench."""

from __future__ import annotations

import argparse
import json
import sys

from .core.errors import ForestEnvError


def _parse_config(pairs: list[str]) -> dict:
    """``key=value`` pairs; values are parsed as JSON when possible (3, true, "x")."""
    out = {}
    for pair in pairs or []:
        if "=" not in pair:
            raise SystemExit(f"--set expects key=value, got {pair!r}")
        key, value = pair.split("=", 1)
        try:
            out[key] = json.loads(value)
        except json.JSONDecodeError:
            out[key] = value
    return out


def cmd_list(args) -> int:
    from . import ENV_IDS, make_raw

    for env_id in ENV_IDS:
        env = make_raw(env_id)
        print(f"{env_id:<16} {env.game.name}: options {env.game.config}, "
              f"{env.game.num_actions} actions, observation {env.game.observation_size}")
    return 0


def cmd_evaluate(args) -> int:
    from .evaluation import format_table, plot_ratings, ratings, run_games, summarize, write_csv

    specs = [s.strip() for s in args.agents.split(",") if s.strip()]
    config = _parse_config(args.set)
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
    return 0


def cmd_plot(args) -> int:
    from .evaluation import plot_learning_curve

    plot_learning_curve(args.eval_csv, args.out)
    print(f"wrote {args.out}")
    return 0


def cmd_rollout(args) -> int:
    """Play games and print each one's scores; ``--records`` writes each game's replayable
    record (one JSON object per line; ``forest_envs.replay(record)`` rebuilds the game)."""
    from .evaluation import run_games

    specs = [s.strip() for s in args.agents.split(",") if s.strip()]
    results = run_games(args.env, specs, args.games, seed=args.seed, config=_parse_config(args.set))
    for r in results:
        by_agent = {f"{i}:{specs[i]}": r.scores[r.seats.index(i)] for i in range(len(specs))}
        print(f"game {r.index}: {r.steps} steps, scores {by_agent}")
    if args.records:
        with open(args.records, "w") as f:
            for r in results:
                f.write(json.dumps(dict(r.record, agents=[specs[i] for i in r.seats])) + "\n")
    return 0


def cmd_play(args) -> int:
    from .core.registry import make_agent, make_raw

    config = _parse_config(args.set)
    opponents = [s.strip() for s in args.opponents.split(",") if s.strip()]
    config.setdefault("num_players", len(opponents) + 1)
    env = make_raw(args.env, **config)
    n = len(env.possible_agents)
    if len(opponents) != n - 1:
        raise SystemExit(f"{n} players need {n - 1} opponents, got {len(opponents)}")
    if not 0 <= args.seat < n:
        raise SystemExit(f"--seat must be 0..{n - 1}")
    env.reset(seed=args.seed)
    me = env.possible_agents[args.seat]
    bots = {}
    others = [a for a in env.possible_agents if a != me]
    for i, (agent, spec) in enumerate(zip(others, opponents)):
        bots[agent] = make_agent(args.env, spec, seed=args.seed + i + 1)
    state = env.engine_state
    while not state.is_terminal:
        agent = env.agent_selection
        if agent != me:
            action = bots[agent].act(env, agent)
            print(f"{agent} ({opponents[others.index(agent)]}): {env.action_to_string(action)}")
            env.step(action)
            continue
        print()
        print(env.render_text(me))
        legal = state.legal_actions()
        print("Your moves:")
        for i, a in enumerate(legal):
            print(f"  {i:3d}: {env.action_to_string(a)}")
        action = _ask(legal, env)
        if action is None:
            print("bye")
            return 0
        env.step(action)
    print()
    print(env.render_text(me))
    return 0


def _ask(legal: list[int], env):
    while True:
        try:
            text = input("move (number or name, q to quit)> ").strip()
        except EOFError:
            return None
        if text in ("q", "quit", "exit"):
            return None
        if text.isdigit() and int(text) < len(legal):
            return legal[int(text)]
        try:
            action = env.string_to_action(text)
        except ForestEnvError:
            print(f"no move {text!r}")
            continue
        if action in legal:
            return action
        print(f"{text!r} is not legal now")


def cmd_train(args) -> int:
    from .train.config import load_config
    from .train.sb3 import train

    path = args.config or args.config_opt
    if not path:
        raise SystemExit("forest-envs train: give a config file (configs/chickwood.yaml)")
    cfg = load_config(path, _parse_config(args.set))
    summary = train(cfg, resume=args.resume, progress=not args.quiet)
    print(f"trained {summary['timesteps']} steps in {summary['wall_seconds']} s "
          f"({summary['steps_per_second']} steps/s); policy {summary['policy']}")
    for kind, row in summary.get("evaluation", {}).items():
        lo, hi = row["win_ci95"]
        print(f"  vs {kind:<10} win rate {row['win_rate']:.3f} [{lo:.3f}, {hi:.3f}] over "
              f"{row['games']} games, mean score {row['mean_score']:.1f}")
    return 0


def cmd_bench(args) -> int:
    from .bench import format_rows, run

    print(format_rows(run(args.seconds)))
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="forest-envs", description=__doc__)
    sub = p.add_subparsers(dest="command", required=True)
    sub.add_parser("list", help="list the environments").set_defaults(func=cmd_list)

    for name, func, helptext in (("evaluate", cmd_evaluate, "win rates of agents over many games"),
                                 ("rollout", cmd_rollout, "play games and print their scores")):
        q = sub.add_parser(name, help=helptext)
        q.add_argument("--env", default="chickwood_v0")
        q.add_argument("--agents", default="heuristic,random,random",
                       help="comma-separated agents, one per seat: random, heuristic")
        q.add_argument("--games", type=int, default=100)
        q.add_argument("--seed", type=int, default=0)
        q.add_argument("--set", action="append", metavar="KEY=VALUE", help="game option")
        if name == "rollout":
            q.add_argument("--records", help="write each game's replayable record (JSON lines)")
        if name == "evaluate":
            q.add_argument("--workers", type=int, default=1)
            q.add_argument("--json", help="write the results table as JSON")
            q.add_argument("--csv", help="write the results table as CSV")
            q.add_argument("--plot", help="write a PNG of the agents' ratings")
            q.add_argument("--quiet", action="store_true")
        q.set_defaults(func=func)

    q = sub.add_parser("play", help="play in the terminal against bots")
    q.add_argument("--env", default="chickwood_v0")
    q.add_argument("--opponents", default="heuristic,heuristic")
    q.add_argument("--seat", type=int, default=0)
    q.add_argument("--seed", type=int, default=0)
    q.add_argument("--set", action="append", metavar="KEY=VALUE", help="game option")
    q.set_defaults(func=cmd_play)

    q = sub.add_parser("plot", help="plot a training run's learning curve (its eval.csv) to PNG")
    q.add_argument("eval_csv", help="runs/<name>/eval.csv")
    q.add_argument("--out", default="learning_curve.png")
    q.set_defaults(func=cmd_plot)

    q = sub.add_parser("train", help="train MaskablePPO from a YAML config")
    q.add_argument("config", nargs="?", help="YAML config, e.g. configs/chickwood.yaml")
    q.add_argument("--config", dest="config_opt", help="same as the positional CONFIG")
    q.add_argument("--resume", help="checkpoint .zip to continue from")
    q.add_argument("--set", action="append", metavar="KEY=VALUE", help="override, e.g. ppo.n_steps=256")
    q.add_argument("--quiet", action="store_true", help="no progress bar")
    q.set_defaults(func=cmd_train)

    q = sub.add_parser("bench", help="random-play throughput beside connect_four_v3")
    q.add_argument("--seconds", type=float, default=3.0)
    q.set_defaults(func=cmd_bench)
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except ForestEnvError as err:
        print(f"forest-envs: {err}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
