"""The training commands: ``train`` (MaskablePPO), ``train-rllib`` (RLlib PPO) and ``configs``
(the configs that ship inside the package: list, show, copy)."""

from __future__ import annotations

import json
import os
import shutil
import sys
import textwrap
from pathlib import Path

from ..core.errors import ConfigError
from .args import SET_HELP_TRAIN, parse_config, program_words, require_extra


def cmd_train(args) -> int:
    """Train from a config. Ctrl-C saves a checkpoint, prints the command that continues the
    run and exits with 130 (the shell's code for an interrupted command)."""
    path = args.config or args.config_opt
    if not path:
        raise ConfigError("give a config: the name of a shipped one (forest-envs configs lists "
                          "them) or a YAML file")
    require_extra("train")

    def continue_with(checkpoint) -> str:
        return f"continue with:\n  {resume_command(path, args.set, checkpoint, args.quiet, tuple(program_words()))}"

    # torch's OpenMP threads otherwise spin after each forward pass, on the cores the env
    # workers need: passive waiting made a shipped baseline config 8% faster
    # (docs/training.md, "Where the time goes"). Read once, when torch loads, which is
    # below; a value the user set is kept.
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    cfg = None
    try:
        # Imports inside: a Ctrl-C while torch loads must not print a traceback either.
        from ..train.config import load_config
        from ..train.runs import resume_command, stop_reason
        from ..train.sb3 import train

        cfg = load_config(path, parse_config(args.set))
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
    # The .npz policy, not the .zip model: loading a .zip unpickles it (it can run code).
    evaluate = _evaluate_command(cfg, summary["policy"])
    if summary.get("final_evaluation") == "interrupted":
        print(f"final evaluation interrupted (Ctrl-C); the run is complete, evaluate it with: "
              f"{evaluate}")
        return 130
    print(f"evaluate it with: {evaluate}")
    return 0


def _evaluate_command(cfg: dict, policy: str) -> str:
    """The command that evaluates a trained policy against the game's heuristic (or random)."""
    import shlex

    from ..core.registry import game_spec
    from ..train.config import num_players

    other = "heuristic" if game_spec(cfg["env"]).heuristic else "random"
    agents = ",".join([str(policy)] + [other] * (num_players(cfg) - 1))
    argv = [*program_words(), "evaluate", "--env", cfg["env"], "--agents", agents, "--games", "100"]
    for key, value in cfg.get("env_config", {}).items():
        argv += ["--set", f"{key}={json.dumps(value)}"]
    return shlex.join(argv)


def cmd_train_rllib(args) -> int:
    """RLlib PPO with action masking through RLlib's multi-agent API (forest_envs/train/rllib.py).
    Writes <output_dir>/checkpoint, one <policy>.npz per policy (play it with forest-envs
    evaluate), progress.jsonl and summary.json."""
    require_extra("train-rllib")
    from ..train.config import load_config
    from ..train.rllib import fixed_hash_seed, train_rllib

    cfg = load_config(args.config, parse_config(args.set))
    if args.iterations is not None and args.iterations < 1:
        raise ConfigError(f"--iterations must be at least 1, got {args.iterations}")
    if fixed_hash_seed() is None:
        print("train-rllib: PYTHONHASHSEED is not set to a number, so this run will not repeat "
              "for its seed (RLlib's training follows the process's string-hash seed); "
              "PYTHONHASHSEED=0 forest-envs train-rllib ... makes it repeatable "
              "(docs/training.md, 'Repeatable runs')", file=sys.stderr)
    result = train_rllib(cfg, address=args.address, iterations=args.iterations,
                         progress=lambda row: print(json.dumps(row), flush=True))
    print(json.dumps({k: v for k, v in result.items() if k != "iterations"}))
    print(f"checkpoint: {result['checkpoint']}")
    for pid, path in result["policies"].items():
        print(f"policy {pid}: {path}")
    return 0


def cmd_configs(args) -> int:
    """The shipped configs: listed (name, what it trains), one printed, or copied into a folder
    to edit (an existing file is kept unless --overwrite)."""
    from ..train.config import config_description, shipped_configs

    shipped = shipped_configs()
    unknown = [n for n in args.names if n not in shipped]
    if unknown:
        raise ConfigError(f"no shipped config named {', '.join(map(repr, unknown))}; the shipped "
                          f"configs: {', '.join(shipped)}")
    chosen = args.names or list(shipped)
    if args.copy:
        folder = Path(args.copy)
        if not folder.is_dir():
            raise ConfigError(f"--copy {args.copy!r}: no such folder")
        targets = [(shipped[n], folder / shipped[n].name) for n in chosen]
        there = [str(t) for _, t in targets if t.exists()]
        if there and not args.overwrite:
            raise ConfigError(f"--copy: {', '.join(there)} already exist(s); --overwrite replaces them")
        for source, target in targets:
            shutil.copyfile(source, target)
            print(f"wrote {target}")
        return 0
    if args.names:
        for i, name in enumerate(chosen):
            print(("\n" if i else "") + f"# {shipped[name]}")
            print(shipped[name].read_text(encoding="utf-8"), end="")
        return 0
    width = max(len(n) for n in shipped)
    room = 97 - width  # each line within 99 columns
    for name in chosen:
        print(f"{name:<{width}}  "
              f"{textwrap.shorten(config_description(shipped[name]), room, placeholder=' ...')}")
    print(f"\nin {shipped[chosen[0]].parent}")
    print("forest-envs train NAME trains one; forest-envs configs NAME prints it; --copy DIR: to edit")
    return 0


def add_train_parsers(sub) -> None:
    q = sub.add_parser("train", help="train MaskablePPO from a config (the train extra)")
    q.add_argument("config", nargs="?", help="a shipped config's name (forest-envs configs lists "
                   "them) or a YAML file")
    q.add_argument("--config", dest="config_opt", help="same as the positional CONFIG")
    q.add_argument("--resume", help="a checkpoint .zip of this run to continue from (unpickled: "
                   "it can run code, so only your own; default: start a new run)")
    q.add_argument("--overwrite", action="store_true",
                   help="delete an earlier run in the output folder and start over (default: off)")
    q.add_argument("--set", action="append", metavar="KEY=VALUE", help=SET_HELP_TRAIN)
    q.add_argument("--quiet", action="store_true", help="no progress bar (default: off)")
    q.set_defaults(func=cmd_train)

    q = sub.add_parser("train-rllib", help="train RLlib PPO with action masking from a config "
                       "(the rllib extra; docs/training.md)")
    q.add_argument("config", help="a shipped config's name (the *_rllib ones forest-envs "
                   "configs lists) or a YAML file")
    q.add_argument("--address", help="a Ray cluster to join: auto, HOST:PORT of a head started "
                   "with ray start --head, or ray://HOST:10001 (default: a local Ray instance)")
    q.add_argument("--iterations", type=int, help="overrides rllib.iterations (default: the config's)")
    q.add_argument("--set", action="append", metavar="KEY=VALUE", help=SET_HELP_TRAIN)
    q.set_defaults(func=cmd_train_rllib)

    q = sub.add_parser("configs", help="the training configs that ship with the package: list, "
                       "print or copy them")
    q.add_argument("names", nargs="*", metavar="NAME", help="configs to print or copy (default: "
                   "list them all)")
    q.add_argument("--copy", metavar="DIR", help="copy the named configs (or all) into DIR to edit "
                   "(default: none)")
    q.add_argument("--overwrite", action="store_true", help="with --copy: replace files already "
                   "there (default: off)")
    q.set_defaults(func=cmd_configs)
