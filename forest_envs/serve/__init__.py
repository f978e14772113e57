"""``forest-envs serve``: a live table in the browser (the ``serve`` extra: Starlette and
uvicorn). ``table.py``: one game, its seats and what each may read; ``store.py``: the tables,
saved as they go; ``server.py``: the tables, their bots and their change notices; ``app.py``:
the web application; ``pages/``: the lobby and the seat's page (plain HTML, CSS and
JavaScript, served by the package: no build step, no network)."""
