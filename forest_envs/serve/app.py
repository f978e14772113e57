"""The web application of ``forest-envs serve`` (Starlette): a lobby that sets a table, one
page per seat at ``/play/<table>/<token>``, and the JSON API the pages call.

Only a seat's token opens its page and its API; every answer is computed for that seat alone
(``Table.seat_view``), so nothing another seat hides reaches a browser. The spectators'
token opens the table as ``SPECTATOR`` sees it: what every seat may see, and no move (403).
A move comes from the seat's own API, is checked by the table (its turn, a legal move) and
is refused otherwise with ``{"error": ...}`` and an HTTP status: 400 a malformed request,
404 an unknown table or token, 403 a move from the spectators' link, 409 a move the game
does not take now, 413 a body over ``MAX_BODY`` bytes.

Bots move on the server, one table at a time, off the event loop (a search may take
seconds), each move at least ``pace`` seconds after the one before so that a person can
follow; while a bot computes, the pages show it thinking. Pages learn that their table
changed from a server-sent event stream (``/events``: the table's version, then one event per
change) and fetch their view again.
"""

from __future__ import annotations

import asyncio
import json
import logging
from contextlib import asynccontextmanager
from importlib import resources
from typing import Any

import anyio
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..core.errors import ConfigError, ForestEnvError
from ..core.registry import env_ids, game_spec
from .store import TableStore
from .table import PERSON, MoveRefused, Seat, Table

MAX_BODY = 16_384               # bytes: a request body is a few dozen
KEEP_ALIVE = 15.0               # seconds between comments on an idle event stream
CLEAN_EVERY = 600.0             # seconds between looks for abandoned tables
BOT_NAMES = ("heuristic", "random", "ppo", "ismcts", "ismcts:sims=200")   # the lobby's, and --policy ones
MAX_SIMS = 20_000               # a search bot set from a page: its simulations a move, at most
MAX_SECONDS = 30.0              # ... or its seconds a move
LOG = logging.getLogger("forest_envs.serve")


class ApiError(Exception):
    def __init__(self, message: str, status: int):
        super().__init__(message)
        self.status = status


class Server:
    """The tables, their bots' drivers and their change notices, behind the routes."""

    def __init__(self, store: TableStore, pace: float = 0.8):
        if pace < 0:
            raise ConfigError(f"pace must be non-negative seconds, got {pace}")
        self.store = store
        self.pace = pace
        self.locks: dict[str, asyncio.Lock] = {}
        self.changed: dict[str, asyncio.Event] = {}
        self.drivers: dict[str, asyncio.Task] = {}

    # --- tables ------------------------------------------------------------------------------
    def create(self, body: Any) -> Table:
        if not isinstance(body, dict):
            raise ApiError("expected a JSON object with env_id, config, players and (optional) seed", 400)
        env_id, config, players = body.get("env_id"), body.get("config", {}), body.get("players")
        if not isinstance(env_id, str) or env_id not in env_ids():
            raise ApiError(f"unknown game {env_id!r}; expected one of {', '.join(env_ids())}", 400)
        if not isinstance(config, dict):
            raise ApiError("config must be an object of game options", 400)
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise ApiError("players must be a list of names, one per seat", 400)
        seed = body.get("seed")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
            raise ApiError(f"seed must be a non-negative integer, got {seed!r}", 400)
        for p in players:
            try:
                known = p == PERSON or p in self.bot_names(env_id) or search_bot(p)
            except ConfigError as err:
                raise ApiError(str(err), 400) from None
            if not known:
                raise ApiError(f"unknown player {p!r}; expected {PERSON!r}, one of "
                               f"{', '.join(self.bot_names(env_id))} or ismcts:<options>", 400)
        try:
            table = Table(env_id, config, [Seat(p) for p in players], seed=seed,
                          policies=self.store.policies)
        except ForestEnvError as err:   # bad options, a seat count the game has not
            message = str(err)
            for name, path in self.store.policies.items():   # the page names no server file
                message = message.replace(path, f"the policy {name!r}")
            raise ApiError(message, 400) from None
        self.store.add(table)
        return table

    def bot_names(self, env_id: str) -> list[str]:
        has_heuristic = game_spec(env_id).heuristic is not None
        return [b for b in BOT_NAMES if b != "heuristic" or has_heuristic] + sorted(self.store.policies)

    def seat(self, table_id: str, token: str) -> tuple[Table, int]:
        table = self.store.get(table_id)
        seat = None if table is None else table.seat_of(token)
        if table is None or seat is None:
            raise ApiError("no such table or seat (a seat's link is its secret: check it)", 404)
        return table, seat

    def lock(self, table: Table) -> asyncio.Lock:
        return self.locks.setdefault(table.id, asyncio.Lock())

    def notice(self, table: Table) -> asyncio.Event:
        return self.changed.setdefault(table.id, asyncio.Event())

    def announce(self, table: Table) -> None:
        """Wake every page waiting on ``table`` (each takes a fresh event to wait on next)."""
        self.changed.pop(table.id, asyncio.Event()).set()

    async def move(self, table: Table, seat: int, action: Any) -> None:
        async with self.lock(table):
            table.move(seat, action)
            self.store.save(table)
        self.announce(table)
        self.drive(table)

    def clean(self, now: float | None = None) -> list[str]:
        """Remove the abandoned tables (``TableStore.clean``) and what the server kept for them."""
        gone = self.store.clean(now)
        for table_id in gone:
            LOG.info("table %s abandoned: removed", table_id)
            for kept in (self.locks, self.changed):
                kept.pop(table_id, None)
            driver = self.drivers.pop(table_id, None)
            if driver is not None:
                driver.cancel()
        return gone

    # --- bots ------------------------------------------------------------------------------
    def drive(self, table: Table) -> None:
        """Start the table's driver if a bot (or a person's only move) is due and none runs."""
        running = self.drivers.get(table.id)
        if running is None or running.done():
            self.drivers[table.id] = asyncio.get_running_loop().create_task(self._drive(table))

    async def _drive(self, table: Table) -> None:
        loop = asyncio.get_running_loop()
        while True:
            async with self.lock(table):
                seat = table.bot_to_move()
                forced = None if seat is not None else table.forced_person_move()
                if seat is None and forced is None:
                    return
                actor = table.turn
                table.thinking = seat
                table.touch()
                position = table.version
            self.announce(table)
            start = loop.time()
            try:
                action = forced if seat is None else await anyio.to_thread.run_sync(table.bot_action, seat)
            except Exception as err:   # a bot's bug: the pages say so, the server goes on
                LOG.exception("table %s: the bot at P%s failed", table.id, seat)
                async with self.lock(table):
                    table.thinking = None
                    table.trouble = f"the bot at P{seat} failed: {err}"
                    table.touch()
                self.announce(table)
                return
            await asyncio.sleep(max(0.0, self.pace - (loop.time() - start)))
            async with self.lock(table):
                table.thinking = None
                if table.version == position and actor is not None:
                    table.move(actor, action)    # (a person may have played his only move)
                    self.store.save(table)
                else:
                    table.touch()
            self.announce(table)

    async def events(self, request: Request, table: Table):
        """The event stream of one page: the table's version now, then at every change, and a
        comment every ``KEEP_ALIVE`` seconds; it ends when the page goes or the game ends."""
        last = None
        while not await request.is_disconnected():
            waiting = self.notice(table)
            if table.version != last:
                last = table.version
                yield f"event: version\ndata: {json.dumps({'version': last})}\n\n"
                if table.over and table.thinking is None:
                    return
            try:
                await asyncio.wait_for(waiting.wait(), KEEP_ALIVE)
            except asyncio.TimeoutError:
                yield ": still here\n\n"


def search_bot(name: str) -> bool:
    """Whether ``name`` is a search bot a page may set: ``ismcts:<options>`` whose options
    parse (``agents.search.options``), name no file on the server (only ``--policy`` does)
    and bound its effort (at most ``MAX_SIMS`` simulations or ``MAX_SECONDS`` a move); a
    ConfigError says what is wrong with one that tries."""
    if not name.startswith("ismcts:"):
        return False
    from ..agents.search.options import POLICY_FILES, parse_options

    text = name[len("ismcts:"):]
    if any(part.strip().endswith(POLICY_FILES) for part in text.replace(":", ",").split(",")):
        raise ConfigError(f"{name}: a page never names a file on the server (start the server "
                          "with --policy NAME=FILE to offer a policy)")
    options = parse_options(text)
    if (options["sims"] or 0) > MAX_SIMS or (options["time"] or 0) > MAX_SECONDS:
        raise ConfigError(f"{name}: at most sims={MAX_SIMS} or time={MAX_SECONDS} here")
    return True


# --- requests -------------------------------------------------------------------------------
async def read_json(request: Request) -> Any:
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > MAX_BODY):
        raise ApiError(f"the request body is over {MAX_BODY} bytes", 413)
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise ApiError(f"the request body is over {MAX_BODY} bytes", 413)
    try:
        return json.loads(body)
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise ApiError("the request body is not JSON", 400) from None


def _page(name: str) -> HTMLResponse:
    text = resources.files(__package__).joinpath("pages").joinpath(name).read_text(encoding="utf-8")
    return HTMLResponse(text, headers={"Cache-Control": "no-store"})


def create_app(store: TableStore, pace: float = 0.8) -> Starlette:
    """The application over ``store`` (``forest-envs serve`` runs it with uvicorn)."""
    server = Server(store, pace)

    def api(handler):
        async def wrapped(request: Request) -> Response:
            try:
                return await handler(request)
            except ApiError as err:
                return JSONResponse({"error": str(err)}, status_code=err.status)
            except MoveRefused as err:
                return JSONResponse({"error": str(err)}, status_code=err.status)
        return wrapped

    async def lobby(request: Request) -> Response:
        return _page("lobby.html")

    async def games(request: Request) -> Response:
        out = []
        for env_id in env_ids():
            game_class = game_spec(env_id).game_class
            out.append({"env_id": env_id, "name": game_class().name,
                        "options": {k: {"default": o.default, "choices": list(o.choices or [])}
                                    for k, o in game_class.options.items()},
                        "bots": server.bot_names(env_id)})
        return JSONResponse({"games": out, "person": PERSON})

    async def create(request: Request) -> Response:
        table = server.create(await read_json(request))
        links = [{"seat": q, "player": s.player, "url": f"/play/{table.id}/{s.token}"}
                 for q, s in enumerate(table.seats) if s.is_person]
        server.drive(table)
        return JSONResponse({"table": table.id, "links": links,
                             "spectators": f"/play/{table.id}/{table.spectator_token}"}, status_code=201)

    async def seat_page(request: Request) -> Response:
        try:
            server.seat(request.path_params["table"], request.path_params["token"])
        except ApiError as err:
            return HTMLResponse(f"<!doctype html><title>No such seat</title><p>{err}</p>"
                                '<p><a href="/">Set a new table</a></p>', status_code=err.status)
        return _page("table.html")

    async def seat_view(request: Request) -> Response:
        table, seat = server.seat(request.path_params["table"], request.path_params["token"])
        return JSONResponse(table.seat_view(seat), headers={"Cache-Control": "no-store"})

    async def move(request: Request) -> Response:
        table, seat = server.seat(request.path_params["table"], request.path_params["token"])
        body = await read_json(request)
        if not isinstance(body, dict) or "action" not in body:
            raise ApiError('expected {"action": <a legal move\'s number>}', 400)
        await server.move(table, seat, body["action"])
        return JSONResponse({"version": table.version})

    async def picture(request: Request) -> Response:
        table, seat = server.seat(request.path_params["table"], request.path_params["token"])
        png = await anyio.to_thread.run_sync(table.picture_png, seat)
        return Response(png, media_type="image/png", headers={"Cache-Control": "no-store"})

    async def events(request: Request) -> Response:
        table, _ = server.seat(request.path_params["table"], request.path_params["token"])
        return StreamingResponse(server.events(request, table), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})

    async def record(request: Request) -> Response:
        table, _ = server.seat(request.path_params["table"], request.path_params["token"])
        if not table.over:
            raise ApiError("the record is shown once the game is over", 409)
        return JSONResponse(table.record())

    async def replay(request: Request) -> Response:
        table, seat = server.seat(request.path_params["table"], request.path_params["token"])
        if not table.over:
            raise ApiError("the replay is shown once the game is over", 409)
        from ..replays.html import replay_html

        page = await anyio.to_thread.run_sync(lambda: replay_html(table.record(), views=[seat]))
        return HTMLResponse(page)

    @asynccontextmanager
    async def lifespan(app: Starlette):
        for table in store.tables.values():   # bots due at a restored table move on
            server.drive(table)
        cleaner = asyncio.get_running_loop().create_task(_clean_every(server, CLEAN_EVERY))
        yield
        cleaner.cancel()

    play = "/api/play/{table}/{token}"
    routes = [
        Route("/", lobby),
        Route("/api/games", api(games)),
        Route("/api/tables", api(create), methods=["POST"]),
        Route("/play/{table}/{token}", seat_page),
        Route(play, api(seat_view)),
        Route(play + "/move", api(move), methods=["POST"]),
        Route(play + "/picture.png", api(picture)),
        Route(play + "/events", api(events)),
        Route(play + "/record.json", api(record)),
        Route(play + "/replay.html", api(replay)),
        Mount("/static", StaticFiles(packages=[(__package__, "pages")]), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.server = server
    return app


async def _clean_every(server: Server, seconds: float) -> None:
    while True:
        await asyncio.sleep(seconds)
        server.clean()
