"""Train PPO with action masking through RLlib's multi-agent API.

    python training/train_rllib.py --config configs/chickwood_rllib.yaml [--address ray://host:10001]

Without --address a local Ray instance is started; with it, the run joins that cluster.
"""

from __future__ import annotations

import argparse
import json
import sys

from forest_envs.train.config import load_config


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--config", required=True)
    p.add_argument("--address", default=None, help="Ray cluster address (default: a local instance)")
    p.add_argument("--iterations", type=int, default=None)
    args = p.parse_args(argv)
    cfg = load_config(args.config)
    from forest_envs.train.rllib import train_rllib

    result = train_rllib(cfg, address=args.address, iterations=args.iterations)
    for row in result["iterations"]:
        print(json.dumps(row))
    print(f"checkpoint: {result['checkpoint']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
