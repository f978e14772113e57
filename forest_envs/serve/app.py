"""The web application of ``forest-envs serve`` (Starlette): a lobby that sets a table, one
page per seat at ``/play/<table>/<token>``, and the JSON API the pages call.

Only a seat's token opens its page and its API; every answer is computed for that seat alone
(``Table.seat_view``), so nothing another seat hides reaches a browser. The spectators'
token opens the table as ``SPECTATOR`` sees it: what every seat may see, and no move (403).
A move comes from the seat's own API, is checked by the table (its turn, a legal move) and
is refused otherwise with ``{"error": ...}`` and an HTTP status: 400 a malformed request,
404 an unknown table or token, 403 a move from the spectators' link, 409 a move the game
does not take now, 413 a body over ``MAX_BODY`` bytes.

The tables, their bots and their change notices are ``server.py``'s ``Server``; the pages
learn of a change from a server-sent event stream (``/events``).
"""

from __future__ import annotations

import asyncio
import json
from contextlib import asynccontextmanager
from importlib import resources
from typing import Any

import anyio
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..core.registry import env_ids, game_spec
from .server import ApiError, Server
from .store import TableStore
from .table import PERSON, MoveRefused

MAX_BODY = 16_384               # bytes: a request body is a few dozen
CLEAN_EVERY = 600.0             # seconds between looks for abandoned tables


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
            except (ApiError, MoveRefused) as err:   # a request's refusal, a game's
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
        links = [{"seat": q, "player": s.player, "url": table.link(s.token)}
                 for q, s in enumerate(table.seats) if s.is_person]
        server.drive(table)
        return JSONResponse({"table": table.id, "links": links,
                             "spectators": table.link(table.spectator_token)}, status_code=201)

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
        return HTMLResponse(await server.replay_page(table, seat))

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
