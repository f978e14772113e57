"""``python -m forest_envs.cli``: the ``forest-envs`` command."""

import sys

from .command import main

sys.exit(main())
