"""The tables behind ``forest-envs serve``'s pages (``app.py`` is the web side): setting a
table from a page's request, finding a seat by its token, taking a move, the bots' drivers,
the change notices the pages' event streams wait on, and the cleaning of abandoned tables.

Bots move on the server, one table at a time, off the event loop (a search may take
seconds), each move at least ``pace`` seconds after the one before so that a person can
follow; while a bot computes, the pages show it thinking. A page learns that its table
changed from its event stream (``Server.events``: the table's version, then one event per
change) and fetches its view again.
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

import anyio
from starlette.requests import Request

from ..core.errors import ConfigError, ForestEnvError
from ..core.registry import env_ids, game_spec
from .store import TableStore
from .table import PERSON, Seat, Table

KEEP_ALIVE = 15.0               # seconds between comments on an idle event stream
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
        self.replays: dict[tuple[str, int], str] = {}   # a finished game's replay page, by seat

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
            for key in [k for k in self.replays if k[0] == table_id]:
                del self.replays[key]
            driver = self.drivers.pop(table_id, None)
            if driver is not None:
                driver.cancel()
        return gone

    async def replay_page(self, table: Table, seat: int) -> str:
        """The replay page of ``table``'s finished game from ``seat``'s view, built once (it
        draws every position; the game no longer changes) off the event loop."""
        key = (table.id, seat)
        if key not in self.replays:
            from ..replays.html import replay_html

            record = table.record()
            self.replays[key] = await anyio.to_thread.run_sync(lambda: replay_html(record, views=[seat]))
        return self.replays[key]

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
