"""``forest-envs replay RECORD --html``: a record's positions, narrated move lines and
pictures as one self-contained page (``html.py``; ``page.py``: its HTML and script;
``pool.py``: its pictures drawn by worker processes).

Named ``replays``, not ``replay``: a sub-package ``forest_envs.replay`` would replace the
function ``forest_envs.replay(record)`` on the package as soon as it was imported."""
