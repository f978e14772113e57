"""One table of ``forest-envs serve``: a game, its seats (people, each with a secret token, or
bots), and everything a seat may read of it.

The table keeps the engine; a seat's page only ever receives ``Table.seat_view(seat)``: its
picture and text board (drawn from the seat's view), the pending decision as the seat may read
it, its legal moves while it is to move, and the log of every move as that seat may know it
(``after.narrate(before, action, seat)``, written for every seat when the move is made). The
spectators' link reads the same for ``SPECTATOR``, the observer who holds no seat: what every
seat may see, and no move. A move is taken only from the seat to move and only when it is legal
(``Table.move``); anything else is a ``MoveRefused`` naming why, and the game goes on.

A table is saved as plain JSON (``Table.to_json``): the env's record (``env.record()``: env id,
configuration, seed, actions) and the seats with their tokens. ``Table.from_json`` replays the
record, so a table survives a server restart whole, its logs included.
"""

from __future__ import annotations

import io
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

from ..agents import make_agent
from ..agents.policy import check_agent_fits
from ..core.errors import ConfigError
from ..core.presentation import SPECTATOR
from ..core.registry import game_spec
from ..envs.registration import make_raw

PERSON = "person"      # a seat a person plays through its link
FORMAT = "forest_envs table 1"


class MoveRefused(Exception):
    """A move the table does not take (not this seat's turn, not legal, the game is over):
    the message says why; ``status`` is the HTTP status that answers it."""

    def __init__(self, message: str, status: int = 409):
        super().__init__(message)
        self.status = status


@dataclass
class Seat:
    """Who plays a seat: ``PERSON`` or a bot by the name ``agents.make_agent`` reads."""

    player: str
    token: str = field(default_factory=lambda: secrets.token_urlsafe(18))

    @property
    def is_person(self) -> bool:
        return self.player == PERSON


@dataclass
class LogEntry:
    """One move: who made it, and its line as each observer may know it (by seat, and
    ``SPECTATOR``)."""

    seat: int
    lines: dict[int, str]


def seat_name(seat: int) -> str:
    """A seat as every board of the package names it."""
    return f"P{seat}"


class Table:
    """A game at one table (see the module's docstring). ``policies``: the bot names beyond
    the built-in ones that this server offers (a name -> a policy file on the server's disk,
    given by whoever started it: a page never names a file)."""

    def __init__(self, env_id: str, config: dict, seats: list[Seat], seed: int | None = None,
                 table_id: str | None = None, policies: dict[str, str] | None = None,
                 created: float | None = None, spectator_token: str | None = None):
        game_spec(env_id)   # an unknown env id: a ConfigError naming the known ones
        self.id = table_id or secrets.token_urlsafe(9)
        self.env_id = env_id
        self.config = dict(config)
        self.env = make_raw(env_id, **self.config)
        n = len(self.env.possible_agents)
        if len(seats) != n:
            raise ConfigError(f"{env_id} with {self.config or 'its default options'} has {n} seats, "
                              f"got {len(seats)} players")
        if not any(s.is_person for s in seats):
            raise ConfigError("a table needs at least one person (bots alone: forest-envs rollout)")
        self.seats = seats
        # the spectators' link: what every seat may see, and no move
        self.spectator_token = spectator_token or secrets.token_urlsafe(18)
        self.seed = secrets.randbelow(1_000_000) if seed is None else int(seed)
        self.policies = dict(policies or {})
        self.bots = {q: self._bot(q, s.player) for q, s in enumerate(seats) if not s.is_person}
        self.created = time.time() if created is None else created
        self.updated = self.created
        self.log: list[LogEntry] = []
        self.version = 0            # counts every change a page should fetch
        self.thinking: int | None = None   # the bot seat computing its move, if one is
        self.trouble: str | None = None    # what stopped the game's bots, if something did
        self.env.reset(seed=self.seed)

    # --- the game ----------------------------------------------------------------------------
    @property
    def state(self):
        return self.env.engine_state

    @property
    def num_players(self) -> int:
        return len(self.seats)

    @property
    def over(self) -> bool:
        env = self.env
        return self.state.is_terminal or any(env.truncations.values()) or not env.agents

    @property
    def turn(self) -> int | None:
        """The seat to move (None once the game is over)."""
        return None if self.over else self.env.possible_agents.index(self.env.agent_selection)

    def link(self, token: str) -> str:
        """The page a token opens: a seat's, or the spectators'."""
        return f"/play/{self.id}/{token}"

    def seat_of(self, token: str) -> int | None:
        """The seat whose link carries ``token``, ``SPECTATOR`` for the spectators' link
        (None: no link of this table's)."""
        found = None
        for q, s in enumerate(self.seats):   # every token compared, in constant time each
            if secrets.compare_digest(s.token, token):
                found = q
        if secrets.compare_digest(self.spectator_token, token):
            found = SPECTATOR
        return found

    def move(self, seat: int, action: Any) -> None:
        """Play ``action`` for ``seat``: refused (``MoveRefused``) unless the game goes on, it
        is ``seat``'s turn and ``action`` is one of its legal moves, given as an integer."""
        if isinstance(action, bool) or not isinstance(action, int):
            raise MoveRefused(f"a move is a legal action's number, got {action!r}", 400)
        turn = self.turn
        if seat == SPECTATOR:
            raise MoveRefused("a spectator watches: the spectators' link makes no move", 403)
        if turn is None:
            raise MoveRefused("the game is over")
        if turn != seat:
            raise MoveRefused(f"it is {seat_name(turn)}'s turn, not {seat_name(seat)}'s")
        if action not in self.state.legal_actions():
            raise MoveRefused(f"{action} is not one of {seat_name(seat)}'s legal moves now")
        self._play(seat, action)

    def bot_to_move(self) -> int | None:
        """The bot seat to move, if a bot is."""
        turn = self.turn
        return turn if turn is not None and turn in self.bots else None

    def forced_person_move(self) -> int | None:
        """The only legal move of the person to move, if there is one only (played for him)."""
        turn = self.turn
        if turn is None or turn in self.bots:
            return None
        legal = self.state.legal_actions()
        return legal[0] if len(legal) == 1 else None

    def bot_action(self, seat: int) -> int:
        """The move the bot at ``seat`` chooses now (it reads only its seat's view and mask);
        called off the server's event loop, the table unchanged meanwhile."""
        return int(self.bots[seat].act(self.env, self.env.possible_agents[seat]))

    def _play(self, actor: int, action: int) -> None:
        before = self.state.clone()
        forced = len(before.legal_actions()) == 1 and actor not in self.bots
        self.env.step(action)
        after = self.state
        note = " (the only move, played for you)" if forced else ""
        lines = {q: f"{seat_name(actor)}: {after.narrate(before, action, q)}" + (note if q == actor else "")
                 for q in (*range(self.num_players), SPECTATOR)}
        self.log.append(LogEntry(actor, lines))
        self.touch()

    def touch(self) -> None:
        self.version += 1
        self.updated = time.time()

    def _bot(self, seat: int, player: str):
        spec = self.policies.get(player, player)
        bot = make_agent(self.env_id, spec, seed=self.seed + seat + 1)
        check_agent_fits(bot, self.env)
        return bot

    # --- what a seat may read ------------------------------------------------------------
    def seat_view(self, seat: int) -> dict:
        """Everything ``seat``'s page shows, computed for that seat only."""
        state, over, turn = self.state, self.over, self.turn
        pictured = state.has_picture()
        moves = []
        if turn == seat:   # (None once the game is over)
            legal = state.legal_actions()
            # where on the seat's picture a move is made, if it has a place there
            places = state.move_places(legal, seat) if pictured else {}
            moves = [{"action": a, "label": state.move_label(a, seat), "place": places.get(a)}
                     for a in legal]
        return {
            "table": self.id, "env_id": self.env_id, "game": self.env.game.name,
            "seat": seat, "spectator": seat == SPECTATOR, "version": self.version,
            # any seat may hand out the spectators' link: it shows less than any seat's
            "spectators": self.link(self.spectator_token),
            "players": [{"seat": q, "name": seat_name(q), "player": s.player} for q, s in enumerate(self.seats)],
            "turn": turn, "thinking": self.thinking, "trouble": self.trouble,
            "prompt": None if over else state.prompt(seat),
            "moves": moves,
            "board": state.render(seat),
            "has_picture": pictured,
            "picture_size": list(state.picture_shape()[1::-1]) if pictured else None,
            "log": [entry.lines[seat] for entry in self.log],
            "over": over,
            "result": self.result_lines() if over else None,
        }

    def picture_png(self, seat: int) -> bytes:
        """The seat's picture of the table (the game's picture of its view) as PNG."""
        from PIL import Image

        buffer = io.BytesIO()
        Image.fromarray(self.state.picture(seat)).save(buffer, format="PNG", optimize=False)
        return buffer.getvalue()

    def result_lines(self) -> list[str]:
        """Who won, then every seat's place, score and breakdown (public once the game is
        over); a game cut at ``max_steps`` says so."""
        end = self.env.outcome()
        cut_short = end.cut_short()
        if cut_short is not None:
            return [cut_short]
        winners = [seat_name(q) for q in end.winners]
        lines = [("Winner: " if len(winners) == 1 else "Winners (shared): ") + ", ".join(winners)]
        for place in end.places:
            # the breakdown's numbers (a part given per place, as a game's per-village glory, is
            # summed in its own entry already)
            parts = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in place.breakdown.items()
                              if k != "total" and isinstance(v, (int, float)) and not isinstance(v, bool))
            total = "" if place.total is None else f": {place.total}"
            lines.append(f"{place.rank}. {seat_name(place.seat)}{total}" + (f" ({parts})" if parts else ""))
        return lines

    def record(self) -> dict:
        """The game's record (``forest_envs.replay`` rebuilds it)."""
        return self.env.record()

    # --- saved and restored ----------------------------------------------------------------
    def to_json(self) -> dict:
        return {"format": FORMAT, "id": self.id, "created": self.created, "updated": self.updated,
                "seats": [{"player": s.player, "token": s.token} for s in self.seats],
                "spectator_token": self.spectator_token,
                "record": self.record()}

    @classmethod
    def from_json(cls, data: dict, policies: dict[str, str] | None = None) -> Table:
        """The table ``to_json`` saved, its moves replayed (and narrated) again."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ConfigError(f"not a saved table (expected format {FORMAT!r})")
        record = data["record"]
        seats = [Seat(s["player"], s["token"]) for s in data["seats"]]
        table = cls(record["env_id"], record.get("config", {}), seats, seed=record["seed"],
                    table_id=data["id"], policies=policies, created=data["created"],
                    spectator_token=data["spectator_token"])
        for action in record["actions"]:
            if table.turn is None:
                raise MoveRefused("the saved record goes on after the game's end")
            table.move(table.turn, action)   # the same checks as a move made now
        table.updated = data["updated"]
        return table
