"""The ``forest-envs`` command (``command.py``; ``python -m forest_envs.cli`` runs it too) and
what its commands use: shared argument parsing (``args.py``), ``forest-envs benchmark``
(``benchmark.py``), ``forest-envs play`` (``play.py``) and its list of legal moves
(``move_list.py``). ``main`` is the entry point of the ``forest-envs`` script."""

from .command import main

__all__ = ["main"]
