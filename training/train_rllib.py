"""Train PPO with action masking through RLlib's multi-agent API (new API stack).

    python training/train_rllib.py --config configs/chickwood_rllib.yaml
    python training/train_rllib.py --config configs/chickwood_rllib.yaml --address 127.0.0.1:6379
    python training/train_rllib.py --config configs/smoke_rllib.yaml --set rllib.num_env_runners=2

Without --address a local Ray instance is started; with it, the run joins that cluster
(``auto``, ``HOST:PORT`` of a head started with ``ray start --head``, or ``ray://HOST:10001``).
Writes <output_dir>/checkpoint, one <policy>.npz per policy (play it with ``forest-envs
evaluate``), progress.jsonl and summary.json.
"""

from __future__ import annotations

import argparse
import json
import sys

from forest_envs.core.errors import ForestEnvError
from forest_envs.train.config import load_config


def _overrides(pairs: list[str] | None) -> dict:
    """``key.sub=value`` pairs; values are parsed as JSON when possible (3, true, "x")."""
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


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--config", required=True)
    p.add_argument("--address", default=None, help="Ray cluster address (default: a local instance)")
    p.add_argument("--iterations", type=int, default=None, help="overrides rllib.iterations")
    p.add_argument("--set", action="append", metavar="KEY=VALUE",
                   help="config override, e.g. time_limit_minutes=20 or rllib.num_env_runners=2")
    args = p.parse_args(argv)
    try:
        cfg = load_config(args.config, _overrides(args.set))
    except ForestEnvError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    from forest_envs.train.rllib import train_rllib

    result = train_rllib(cfg, address=args.address, iterations=args.iterations,
                         progress=lambda row: print(json.dumps(row), flush=True))
    summary = {k: v for k, v in result.items() if k != "iterations"}
    print(json.dumps(summary))
    print(f"checkpoint: {result['checkpoint']}")
    for pid, path in result["policies"].items():
        print(f"policy {pid}: {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
