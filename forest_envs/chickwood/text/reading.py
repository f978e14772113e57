"""What a seat may know, as the light typed record scripted agents read (``reading``).

The same facts as ``render.view(state, seat)`` (tests/chickwood/test_reading.py compares
the two), indexed the same way, but as tuples in NamedTuples and without what an agent
does not read (names, the legal actions, the scores). A scripted agent reads it at every
decision, and the view's nested dicts cost as much as the decision itself.

Only the seat's own hidden blocks are read (its hand, its face-down cards, what it saw with
the spy glass, the discards it knows): nothing another seat hides reaches the record.
"""

from __future__ import annotations

import functools
from typing import NamedTuple

import numpy as np

from ...core.decisions import DecisionRecord
from ..components import CASTLE_CAPACITY, MAX_CASTLE, MAX_CELLS, NUM_KINDS
from ..observation import Kind

_KINDS = tuple(Kind)  # Kind by index: a decision holds its kind as a plain int


class CastleReading(NamedTuple):
    """One castle in play (``view``'s castle entry): card counts by kind, seats by index."""

    value: int
    pile_left: int
    capacity: int | None
    raided_by: int | None
    face_up: tuple[int, ...]
    face_down_by: tuple[int, ...]     # face-down cards of each seat
    my_face_down: tuple[int, ...]
    spied_face_down: tuple[int, ...]  # the others' face-down cards, if this seat spied here


class SeatReading(NamedTuple):
    """What ``seat`` may know (``view``'s entries, as tuples): per-seat entries by seat,
    card counts by kind, villages by grid cell as (village id, owner of each space)."""

    seat: int
    num_players: int
    legendary: bool
    round: int
    deck_left: int
    decision: str | None         # the pending decision's kind name
    kind: Kind | None            # ... the same kind as the game's Kind (agents dispatch on it)
    data: DecisionRecord | None  # ... and its data (``pending_record``: fields by name)
    play_face_down: bool | None  # scouting: whether the play now goes face down
    snake_visited: tuple[int, ...]
    order: tuple[int, ...]
    collections: tuple[tuple[int, ...], ...]
    alms_left: tuple[int, ...]
    raided: tuple[bool, ...]
    castles_held: tuple[tuple[int, ...], ...]
    castle_of: tuple[int, ...]   # the castle value in front of each seat
    banner: tuple[int, ...]      # this seat's banner: 1 = that scouting play is face down
    hand_count: int              # this seat's cards in hand
    hand: tuple[int, ...]
    castles: tuple[CastleReading, ...]
    villages: tuple[tuple[int, tuple[int, ...]], ...]
    seen: tuple[int, ...]        # cards of each kind whose place this seat knows


def pending_record(state) -> DecisionRecord | None:
    """What the pending decision carries, as its kind's record (``DecisionKind.record``;
    None when the game is over), with an alms snake's ``last_cell`` None while the snake has
    not started; the reading's, and the view's data."""
    record = state.decision_record()
    if record is not None and state.decision.kind == Kind.ALMS and record.last_cell >= MAX_CELLS:
        record = record._replace(last_cell=None)  # the snake has not started
    return record


def pending_decision(state) -> dict | None:
    """The pending decision: kind name, player and data by name (None when the game is
    over); the view's."""
    out = state.decision_view()
    record = pending_record(state)
    if out is not None and record is not None:
        out["data"] = record._asdict()
    return out


def reading(state, seat: int) -> SeatReading:
    """What ``seat`` (not the referee) may know, as ``view(state, seat)`` says it."""
    n = state.num_players
    kind = state.decision_name()
    in_play = state.castle_in_play.tolist()
    pile_left = state.pile_left.tolist()
    raided_by = state.castle_raided_by.tolist()
    face_up = state.castle_faceup.tolist()
    fd_count = state.castle_fd_count.tolist()
    mine = state.fd_own[seat].tolist()
    spied = state.spy_view[seat].tolist()
    castles = tuple(
        CastleReading(c + 1, pile_left[c], CASTLE_CAPACITY.get(c + 1),
                      raided_by[c].index(1) if 1 in raided_by[c] else None,
                      tuple(face_up[c]), tuple(fd_count[c]), tuple(mine[c]), tuple(spied[c]))
        for c in range(MAX_CASTLE) if in_play[c])
    collections = tuple(map(tuple, state.collection.tolist()))
    hand = tuple(state.hand[seat].tolist())
    return SeatReading(
        seat=seat,
        num_players=n,
        legendary=bool(state.game.legendary),
        round=int(state.round_no[0]),
        deck_left=int(state.deck_left[0]),
        decision=kind,
        kind=_KINDS[state.decision.kind] if state.decisions else None,
        data=pending_record(state),
        play_face_down=state._face_down_now(state.current_player) if kind == "scout" else None,
        snake_visited=tuple(c for c, x in enumerate(state.snake_visited.tolist()) if x),
        order=tuple(state.order),
        collections=collections,
        alms_left=tuple(state.alms_left.tolist()),
        raided=tuple(map(bool, state.has_raided.tolist())),
        castles_held=tuple(map(tuple, state.castles_held.tolist())),
        castle_of=tuple(row.index(1) + 1 for row in state.player_castle.tolist()),
        banner=tuple(state.banner[seat, :state.game.hand_size].tolist()),
        hand_count=int(state.hand_count[seat]),
        hand=hand,
        castles=castles,
        villages=_villages(state),
        seen=tuple(state.buf.take(_known_cards(state.game.layout, seat)).sum(axis=1).tolist()),
    )


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


def _villages(state) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """(village id, owner seat of each space, -1 empty) per grid cell (``view``'s villages).
    The alms change a few times a round, so the reading is kept by the grid and the alms'
    bytes (a plain dict, emptied when full: ``lru_cache`` cannot key on a state)."""
    key = (state.grid, state.num_players, state.alms_owner.tobytes())
    found = _VILLAGES.get(key)
    if found is None:
        if len(_VILLAGES) >= VILLAGES_KEPT:
            _VILLAGES.clear()
        owners = state._space_owners().tolist()
        spaces = state.cell_spaces.tolist()
        found = _VILLAGES[key] = tuple((village, tuple(owners[cell][:spaces[cell]]))
                                       for cell, village in enumerate(state.grid))
    return found


VILLAGES_KEPT = 1 << 12
_VILLAGES: dict[tuple, tuple] = {}
