"""What a seat may know, once: ``reading(state, seat)``, a typed record of tuples, and
``view(state, seat)``, the same record as plain JSON data (``SeatReading.as_json``).

The record is what everything that shows or reads a seat's knowledge starts from: the
heuristic (``agents/seat_view.py``; the tuples are hashable, the keys of its memoised
valuations), the text board, the prompt and the narration (``render.py``, ``words.py``,
``narration.py``). The picture (``../picture.py``) draws from the JSON form, which is what a
replay page stores and redraws without a state.

It is indexed as the game's data is, so a program reads it without parsing names:

* card kinds: tuples of ``NUM_KINDS`` counts indexed by kind id (``components.KIND_NAMES``);
* castles: the castles in play by value (1..6; a dict by value in the JSON);
* villages: one per grid cell (row by row), each with its village index
  (``components.VILLAGES``; ``components.FOREST`` -1, ``NO_CARD`` -2) and the owner seat of
  each of its spaces in fill order (-1 empty);
* players: one per seat;
* the pending decision: its kind, its player and its data by the names the kind declares
  (the alms snake's ``last_cell`` is None before its first alms).

Only the seat's own hidden blocks are read (its hand, its face-down cards, what it saw with
the spy glass, the discards it knows): nothing another seat hides reaches its record. The
referee (``seat=None``) sees every hand, every face-down card by owner and the secret
discards. Each buffer block is read with one ``tolist()`` (indexing numpy element by element
is slow): a scripted agent reads the record at every decision.
"""

from __future__ import annotations

import functools
from typing import NamedTuple

import numpy as np

from ...core.decisions import DecisionReading, DecisionRecord, pending_reading
from ...core.presentation import SPECTATOR, check_observer, holds_seat
from ..components import CASTLE_CAPACITY, MAX_CASTLE, MAX_CELLS, NUM_KINDS
from ..observation import DECISIONS, Kind

Counts = tuple[int, ...]  # cards by kind id


class CastleReading(NamedTuple):
    """One castle in play: card counts by kind, seats by index."""

    value: int
    pile_left: int
    capacity: int | None
    raided_by: int | None
    key_blocked: bool
    spied: bool                             # looked at with the spy glass this round
    face_up: Counts
    face_down_by: tuple[int, ...]           # face-down cards of each seat
    my_face_down: Counts | None             # a seat's own face-down cards (None: the referee,
                                            # a spectator)
    spied_face_down: Counts | None          # the others' face-down cards, if this seat spied here
    face_down: tuple[Counts, ...] | None    # the referee's: every seat's face-down cards

    def as_json(self) -> dict:
        out: dict = {"value": self.value, "pile_left": self.pile_left, "capacity": self.capacity,
               "raided_by": self.raided_by, "key_blocked": self.key_blocked, "spied": self.spied,
               "face_up": list(self.face_up), "face_down_by": list(self.face_down_by)}
        if self.face_down is not None:
            out["face_down"] = [list(k) for k in self.face_down]
        if self.my_face_down is not None:   # a seat's (not the referee's, nor a spectator's)
            out["my_face_down"] = list(self.my_face_down)
        if self.spied_face_down is not None:
            out["spied_face_down"] = list(self.spied_face_down)
        return out

    @classmethod
    def from_json(cls, data: dict) -> CastleReading:
        def counts(key: str) -> Counts | None:
            return tuple(data[key]) if key in data else None

        return cls(data["value"], data["pile_left"], data["capacity"], data["raided_by"],
                   data["key_blocked"], data["spied"], tuple(data["face_up"]),
                   tuple(data["face_down_by"]), counts("my_face_down"), counts("spied_face_down"),
                   tuple(map(tuple, data["face_down"])) if "face_down" in data else None)


class PlayerReading(NamedTuple):
    """One seat, as every seat sees it."""

    castle: int                   # the castle value in front of the player
    castles_held: tuple[int, ...]  # castle cards by value - 1
    raids: tuple[int, ...]        # castle values raided, in order
    collection: Counts
    alms_left: int
    hand_count: int
    raided: bool
    order: int                    # place in this round's turn order
    banner: tuple[int, ...]       # per scouting play: 1 = face down

    def as_json(self) -> dict:
        out = self._asdict()
        for key in _PLAYER_TUPLES:
            out[key] = list(out[key])
        return out

    @classmethod
    def from_json(cls, data: dict) -> PlayerReading:
        fields: dict = {key: tuple(x) if key in _PLAYER_TUPLES else x for key, x in data.items()}
        return cls(**fields)


_PLAYER_TUPLES = ("castles_held", "raids", "collection", "banner")


class VillageReading(NamedTuple):
    """One grid cell: its village id and the owner seat of each of its spaces (-1 empty)."""

    village: int
    alms: tuple[int, ...]

    def as_json(self) -> dict:
        return {"village": self.village, "alms": list(self.alms)}

    @classmethod
    def from_json(cls, data: dict) -> VillageReading:
        return cls(data["village"], tuple(data["alms"]))


class SeatReading(NamedTuple):
    """What ``seat`` may know (``seat`` None: the referee)."""

    seat: int | None
    num_players: int
    legendary: bool
    round: int
    deck_left: int
    turn: int | None                     # the seat whose turn of the round it is
    order: tuple[int, ...]               # this round's turn order
    decision: DecisionReading | None     # None: the game is over
    play_face_down: bool | None          # scouting: whether the play now goes face down
    snake_visited: tuple[int, ...]       # the cells this alms snake gave to
    castles: tuple[CastleReading, ...]   # those in play, by value
    players: tuple[PlayerReading, ...]
    villages: tuple[VillageReading, ...]
    discard_public: Counts
    box: Counts
    hand: Counts | None                  # a seat's own hand (None: the referee)
    discard_known: Counts | None         # the secret discards a seat knows (None: the referee)
    hands: tuple[Counts, ...] | None     # the referee's: every hand
    discard_face_down: Counts | None     # the referee's: every secret discard
    seen: Counts | None                  # cards of each kind whose place a seat knows
    scores: tuple[dict, ...] | None      # once the game is over: each seat's glory, by part

    @property
    def kind(self) -> Kind | None:
        return None if self.decision is None else self.decision.kind

    def castle(self, value: int) -> CastleReading:
        """The castle of this value (it must be in play)."""
        return next(c for c in self.castles if c.value == value)

    def as_json(self) -> dict:
        """The record as plain JSON data (the castles as a dict by value); ``view``'s."""
        out: dict = {"seat": self.seat, "num_players": self.num_players, "legendary": self.legendary,
               "round": self.round, "deck_left": self.deck_left, "turn": self.turn,
               "order": list(self.order),
               "decision": None if self.decision is None else self.decision.as_json(),
               "play_face_down": self.play_face_down, "snake_visited": list(self.snake_visited),
               "castles": {c.value: c.as_json() for c in self.castles},
               "players": [p.as_json() for p in self.players],
               "villages": [v.as_json() for v in self.villages],
               "discard_public": list(self.discard_public), "box": list(self.box)}
        if self.seat is None:
            out["hands"] = [list(h) for h in self.hands or ()]
            out["discard_face_down"] = list(self.discard_face_down or ())
        elif self.seat != SPECTATOR:   # a spectator holds no hand and knows no secret discard
            out["hand"] = list(self.hand or ())
            out["discard_known"] = list(self.discard_known or ())
        if self.scores is not None:
            out["scores"] = list(self.scores)
        return out

    @classmethod
    def from_json(cls, data: dict) -> SeatReading:
        """The record of a view's JSON (``as_json``'s, or ``view``'s: its legal actions are
        left out), as a replay page holds it; ``seen`` is not in the JSON (None)."""
        referee = data["seat"] is None

        def counts(key: str) -> Counts | None:
            return tuple(data[key]) if key in data else None

        return cls(
            seat=data["seat"], num_players=data["num_players"], legendary=data["legendary"],
            round=data["round"], deck_left=data["deck_left"], turn=data["turn"],
            order=tuple(data["order"]),
            decision=(None if data["decision"] is None
                      else DecisionReading.from_json(data["decision"], Kind, DECISIONS)),
            play_face_down=data["play_face_down"], snake_visited=tuple(data["snake_visited"]),
            castles=tuple(CastleReading.from_json(c) for c in data["castles"].values()),
            players=tuple(PlayerReading.from_json(p) for p in data["players"]),
            villages=tuple(VillageReading.from_json(v) for v in data["villages"]),
            discard_public=tuple(data["discard_public"]), box=tuple(data["box"]),
            hand=None if referee else counts("hand"),
            discard_known=None if referee else counts("discard_known"),
            hands=tuple(map(tuple, data["hands"])) if referee else None,
            discard_face_down=counts("discard_face_down") if referee else None,
            seen=None,
            scores=tuple(data["scores"]) if "scores" in data else None)


def view(state, seat: int | None) -> dict:
    """What ``seat`` may know as plain JSON data (``seat=None``: the referee's view of
    everything): ``reading``'s record (the final scores in it once the game is over), plus
    the legal actions for the seat to move (and the referee)."""
    out = reading(state, seat).as_json()
    if not state.is_terminal and (seat is None or seat == state.current_player):
        out["legal_actions"] = state.legal_actions()
    return out


def pending_record(state) -> DecisionRecord | None:
    """What the pending decision carries, as its kind's record (``DecisionKind.record``;
    None when the game is over), with an alms snake's ``last_cell`` None while the snake has
    not started."""
    record = state.decision_record()
    if record is not None and state.decision.kind == Kind.ALMS and record.last_cell >= MAX_CELLS:
        record = record._replace(last_cell=None)  # the snake has not started
    return record


def reading(state, seat: int | None) -> SeatReading:
    """What ``seat`` may know, as the typed record (``seat=None``: the referee)."""
    check_observer(seat, state.num_players)
    referee, own = seat is None, holds_seat(seat)
    decision = pending_reading(state, Kind, pending_record(state))
    scouting = decision is not None and decision.kind == Kind.SCOUT
    hands = discard_face_down = None
    if referee:
        hands = tuple(map(tuple, state.hand.tolist()))
        secret = [0] * NUM_KINDS
        for card in state.discard_fd:
            secret[card.kind] += 1
        discard_face_down = tuple(secret)
    return SeatReading(
        seat=seat,
        num_players=state.num_players,
        legendary=bool(state.game.legendary),
        round=int(state.round_no[0]),
        deck_left=int(state.deck_left[0]),
        turn=state.turn_player,
        order=tuple(state.order),
        decision=decision,
        play_face_down=state._face_down_now(state.current_player) if scouting else None,
        snake_visited=tuple(c for c, x in enumerate(state.snake_visited.tolist()) if x),
        castles=_castles(state, seat),
        players=_players(state),
        villages=_villages(state),
        discard_public=tuple(state.discard_public.tolist()),
        box=tuple(state.box.tolist()),
        hand=tuple(state.hand[seat].tolist()) if own else None,
        discard_known=tuple(state.discard_known[seat].tolist()) if own else None,
        hands=hands,
        discard_face_down=discard_face_down,
        seen=tuple(state.buf.take(_known_cards(state.game.layout, seat)).sum(axis=1).tolist())
        if own else None,
        scores=tuple(state.scores()) if state.is_terminal else None,
    )


def _castles(state, seat: int | None) -> tuple[CastleReading, ...]:
    in_play = state.castle_in_play.tolist()
    pile_left = state.pile_left.tolist()
    raided_by = state.castle_raided_by.tolist()
    face_up = state.castle_faceup.tolist()
    fd_count = state.castle_fd_count.tolist()
    spied = state.spy_castle.tolist()
    blocked = state.key_blocked.tolist()
    own = holds_seat(seat)
    if seat is None:
        every = state.fd_own.transpose(1, 0, 2).tolist()  # [castle][owner][kind]
    elif own:
        mine = state.fd_own[seat].tolist()
        seen = state.spy_view[seat].tolist()
    return tuple(
        CastleReading(c + 1, pile_left[c], CASTLE_CAPACITY.get(c + 1),
                      raided_by[c].index(1) if 1 in raided_by[c] else None,
                      bool(blocked[c]), bool(spied[c]), tuple(face_up[c]), tuple(fd_count[c]),
                      tuple(mine[c]) if own else None,
                      tuple(seen[c]) if own else None,
                      tuple(map(tuple, every[c])) if seat is None else None)
        for c in range(MAX_CASTLE) if in_play[c])


def _players(state) -> tuple[PlayerReading, ...]:
    player_castle = state.player_castle.tolist()
    castles_held = state.castles_held.tolist()
    collection = state.collection.tolist()
    alms_left = state.alms_left.tolist()
    hand_count = state.hand_count.tolist()
    has_raided = state.has_raided.tolist()
    order_pos = state.order_pos.tolist()
    banner = state.banner[:, :state.game.hand_size].tolist()
    return tuple(PlayerReading(
        player_castle[p].index(1) + 1, tuple(castles_held[p]), tuple(state.raids[p]),
        tuple(collection[p]), alms_left[p], hand_count[p], bool(has_raided[p]),
        order_pos[p].index(1), tuple(banner[p])) for p in range(state.num_players))


@functools.lru_cache(maxsize=64)
def _known_cards(layout, seat: int) -> np.ndarray:
    """[kind, i]: the buffer index of the i-th count of cards of that kind whose kind
    ``seat`` knows: its hand, the collections, the discards (public and its secret ones),
    the box, and at the castles the face-up cards, its own face-down ones and those it
    spied (castles out of play hold no cards). One gather and one sum count them."""
    parts = []
    for name, own in (("hand", True), ("discard_public", False), ("discard_known", True),
                      ("box", False), ("collection", False), ("castle_faceup", False),
                      ("fd_own", True), ("spy_view", True)):
        block = layout.blocks[name]
        index = np.arange(block.offset, block.offset + block.size).reshape(block.shape)
        parts.append((index[seat] if own else index).reshape(-1, NUM_KINDS))
    return np.ascontiguousarray(np.concatenate(parts).T)


def _villages(state) -> tuple[VillageReading, ...]:
    """Each grid cell's village and the owner seat of each space. The alms change a few
    times a round, so the cells are kept by the grid and the alms' bytes (a plain dict,
    emptied when full: ``lru_cache`` cannot key on a state)."""
    key = (state.grid, state.num_players, state.alms_owner.tobytes())
    found = _VILLAGES.get(key)
    if found is None:
        if len(_VILLAGES) >= VILLAGES_KEPT:
            _VILLAGES.clear()
        owners = state._space_owners().tolist()
        spaces = state.cell_spaces.tolist()
        found = _VILLAGES[key] = tuple(VillageReading(village, tuple(owners[cell][:spaces[cell]]))
                                       for cell, village in enumerate(state.grid))
    return found


VILLAGES_KEPT = 1 << 12
_VILLAGES: dict[tuple, tuple] = {}
