"""Train MaskablePPO on a forest_envs game: ``python training/train.py --config configs/chickwood.yaml``.

Same as ``forest-envs train CONFIG``. ``--resume runs/x/checkpoints/latest.zip`` continues a run;
``--set key.sub=value`` overrides a config entry (YAML syntax for the value).
"""

from __future__ import annotations

import sys

from forest_envs.cli.main import main

if __name__ == "__main__":
    sys.exit(main(["train", *sys.argv[1:]]))
