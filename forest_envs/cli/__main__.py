"""``python -m forest_envs.cli``: the ``forest-envs`` command."""

import sys

from .main import main

sys.exit(main())
