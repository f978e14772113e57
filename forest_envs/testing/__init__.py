"""Test tooling that ships with the package: golden playthroughs (``playthrough.py``), the
coverage-seeking fuzzer (``fuzzing.py``), both also ``forest-envs`` commands, and the
differential test of a game's Python and native engines (``differential.py``)."""
