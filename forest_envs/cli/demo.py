"""``forest-envs demo`` (``make demo``): train a small agent for a few minutes (the config
``demo``: its game and table size), then four captioned evaluation tables and a two-line
summary of what it reached.

The tables, on the config's game: the new agent against random players and against
heuristics, the heuristic against random players (the scale), and the shipped baseline (the
agent ``ppo``) against heuristics. The run stops at its step budget or its time limit,
whichever comes first; on a busy machine that is the time limit, and the output says so."""

from __future__ import annotations

from dataclasses import dataclass

from .args import check_counts, parse_config, require_extra

DEMO_CONFIG = "demo"  # forest_envs/configs/demo.yaml
# Where the figures this demo reaches on an idle machine are written down.
IDLE_FIGURES = "docs/training.md, \"The demo\""


@dataclass(frozen=True)
class LineUp:
    """One evaluation table of the demo: its caption and the agents, one per seat."""

    caption: str
    agents: tuple[str, ...]


COUNT_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five"}


def line_ups(policy: str, players: int) -> list[LineUp]:
    """The four tables for a game of ``players`` seats."""
    others = players - 1
    count = COUNT_WORDS.get(others, str(others))
    random, heuristic = ("random",) * others, ("heuristic",) * others
    return [LineUp(f"the new agent against {count} random players", (policy, *random)),
            LineUp(f"the new agent against {count} heuristics", (policy, *heuristic)),
            LineUp(f"for scale: the heuristic against {count} random players", ("heuristic", *random)),
            LineUp(f"the shipped baseline (the agent ppo, in forest_envs/baselines/) against "
                   f"{count} heuristics", ("ppo", *heuristic))]


def training_line(summary: dict, cfg: dict) -> str:
    """What the training run did, saying when it stopped at its time limit short of its steps."""
    steps, budget = summary["timesteps"], cfg["total_timesteps"]
    if summary["stopped"] == "time_limit":
        return (f"training stopped at its {cfg['time_limit_minutes']:g}-minute time limit after "
                f"{steps:,} of {budget:,} steps (a busy machine gets fewer steps in that time, "
                "so a weaker agent)")
    return f"training ran its {steps:,} steps in {summary['wall_seconds']:.0f} s"


def summary_lines(steps: int, line_up: list[LineUp], rows: list[list[dict]]) -> list[str]:
    """The closing two lines: the new agent's win rates (the first row of the first two
    tables), the baseline's (the last table), and where the idle-machine figures are."""
    vs_random, vs_heuristic, _, baseline = (r[0]["win_rate"] for r in rows)
    players = len(line_up[0].agents)
    count = COUNT_WORDS.get(players - 1, str(players - 1))
    return [f"The new agent ({steps:,} steps) won {vs_random:.3f} of its games against {count} "
            f"random players and {vs_heuristic:.3f} against {count} heuristics (a fair share is "
            f"{1 / players:.3f}).",
            f"The shipped baseline won {baseline:.3f} against {count} heuristics; the figures on "
            f"an idle machine are in {IDLE_FIGURES} (and README.md, \"Training\")."]


def run_demo(args) -> int:
    from ..evaluation import format_table, ratings, run_games, summarize
    from ..train.config import load_config, num_players
    from ..train.sb3 import train

    check_counts(args)
    require_extra("train")
    cfg = load_config(args.config, parse_config(args.set))
    limit = cfg["time_limit_minutes"]
    print(f"1. Training a small agent into {cfg['output_dir']}: at most {cfg['total_timesteps']:,} "
          f"steps" + ("" if limit is None else f" or {limit:g} minutes"), flush=True)
    summary = train(cfg, progress=not args.quiet, overwrite=True)
    print(training_line(summary, cfg))
    if summary["stopped"] == "interrupted":
        print("interrupted (Ctrl-C): no evaluation")
        return 130
    all_rows = []
    tables = line_ups(summary["policy"], num_players(cfg))
    for number, line_up in enumerate(tables, 2):
        agents = list(line_up.agents)
        print(f"\n{number}. {line_up.caption[0].upper()}{line_up.caption[1:]}: {args.games} "
              "seat-rotated games", flush=True)
        results = run_games(cfg["env"], agents, args.games, seed=0, config=dict(cfg["env_config"]),
                            workers=args.workers, progress=not args.quiet)
        rows = summarize(agents, results)
        for row, r in zip(rows, ratings(agents, results)):
            row.update(skill_mu=r["mu"], skill_sigma=r["sigma"], skill_games=r["games"])
        print(format_table(rows))
        all_rows.append(rows)
    print()
    for line in summary_lines(summary["timesteps"], tables, all_rows):
        print(line)
    return 0


def add_demo_parser(sub) -> None:
    q = sub.add_parser("demo", help="train a small agent for a few minutes (the config demo) and "
                       "print its evaluation tables beside the shipped baseline's (make demo)")
    q.add_argument("--games", type=int, default=300, help="games per evaluation table "
                   "(default: %(default)s)")
    q.add_argument("--workers", type=int, default=2, help="worker processes of the evaluations "
                   "(default: %(default)s)")
    q.add_argument("--config", default=DEMO_CONFIG,
                   help="the training config: a shipped config's name or a YAML file (default: %(default)s)")
    q.add_argument("--set", action="append", metavar="KEY=VALUE",
                   help="override a config value, e.g. time_limit_minutes=2 (repeatable; default: none)")
    q.add_argument("--quiet", action="store_true", help="no progress bars (default: off)")
    q.set_defaults(func=run_demo)

