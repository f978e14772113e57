"""Search agents for any registered game: information-set MCTS (``ismcts.py``, its options
in ``options.py``; docs/search.md)."""
