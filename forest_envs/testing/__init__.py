"""Test tooling that ships with the package: golden playthroughs (``playthrough.py``) and
the coverage-seeking fuzzer (``fuzzing.py``), both also ``forest-envs`` commands."""
