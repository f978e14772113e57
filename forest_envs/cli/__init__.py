"""The ``forest-envs`` command (``main.py``; ``python -m forest_envs.cli`` runs it too) and
what its commands use: shared argument parsing (``args.py``), ``forest-envs benchmark``
(``benchmark.py``), ``forest-envs play`` (``play.py``) and its list of legal moves
(``move_list.py``)."""
