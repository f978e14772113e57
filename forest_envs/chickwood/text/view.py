"""What a seat may know as plain Python data: ``view(state, seat)``.

The view is indexed as the game's data is, so a program reads it without parsing names:

* card kinds: lists of ``NUM_KINDS`` counts indexed by kind id (``components.KIND_NAMES``);
* castles: a dict by castle value (1..6) of the castles in play;
* villages: a list by grid cell (row by row), each with its village index
  (``components.VILLAGES``; ``components.FOREST`` -1, ``NO_CARD`` -2) and the owner seat of
  each of its spaces in fill order (-1 empty);
* players: a list by seat;
* the pending decision: its kind name (``observation.DECISIONS``), its player and its data
  by the names the kind declares (the alms snake's ``last_cell`` is None before its first
  alms).

Scripted agents may call ``view`` at every decision, so it reads each buffer block with one
``tolist()`` (indexing numpy element by element is slow) and builds nothing it does not
return. The heuristic reads ``reading`` instead (``reading.py``): the same facts as tuples,
without the dicts. Text, words and pictures are drawn from the view alone.
"""

from __future__ import annotations

import numpy as np

from ..components import CASTLE_CAPACITY, KIND_NAMES, MAX_CASTLE
from .reading import pending_decision

_SEAT_PLUS_ONE = np.arange(1, 6)


def view(state, seat: int | None) -> dict:
    """What ``seat`` may know; ``seat=None`` is the referee's view of everything (every hand,
    every face-down card with its owner, the secret discards)."""
    referee = seat is None
    out = {
        "seat": seat,
        "num_players": state.num_players,
        "legendary": bool(state.game.legendary),
        "round": int(state.round_no[0]),
        "deck_left": int(state.deck_left[0]),
        "turn": state.turn_player,
        "order": list(state.order),
        "decision": pending_decision(state),
        "play_face_down": state._face_down_now(state.current_player) if state.decision_name() == "scout" else None,
        "snake_visited": [c for c, x in enumerate(state.snake_visited.tolist()) if x],
        "castles": _castles(state, seat),
        "players": _players(state),
        "villages": _villages(state),
        "discard_public": state.discard_public.tolist(),
        "box": state.box.tolist(),
    }
    if referee:
        out["hands"] = state.hand.tolist()
        secret = [0] * len(KIND_NAMES)
        for card in state.discard_fd:
            secret[card.kind] += 1
        out["discard_face_down"] = secret
    else:
        out["hand"] = state.hand[seat].tolist()
        out["discard_known"] = state.discard_known[seat].tolist()
    if not state.is_terminal and (referee or seat == state.current_player):
        out["legal_actions"] = state.legal_actions()
    if state.is_terminal:
        out["scores"] = state.scores()
    return out


def _castles(state, seat: int | None) -> dict[int, dict]:
    in_play = state.castle_in_play.tolist()
    pile_left = state.pile_left.tolist()
    raided_by = state.castle_raided_by.tolist()
    face_up = state.castle_faceup.tolist()
    fd_count = state.castle_fd_count.tolist()
    spied = state.spy_castle.tolist()
    blocked = state.key_blocked.tolist()
    if seat is None:
        face_down = state.fd_own.transpose(1, 0, 2).tolist()  # [castle][owner][kind]
    else:
        mine = state.fd_own[seat].tolist()
        seen = state.spy_view[seat].tolist()
    castles = {}
    for c in range(MAX_CASTLE):
        if not in_play[c]:
            continue
        raider = raided_by[c].index(1) if 1 in raided_by[c] else None
        entry = {
            "value": c + 1,
            "pile_left": pile_left[c],
            "capacity": CASTLE_CAPACITY.get(c + 1),
            "raided_by": raider,
            "key_blocked": bool(blocked[c]),
            "spied": bool(spied[c]),           # looked at with the spy glass this round
            "face_up": face_up[c],
            "face_down_by": fd_count[c],       # number of face-down cards of each seat
        }
        if seat is None:
            entry["face_down"] = face_down[c]  # [owner][kind]
        else:
            entry["my_face_down"] = mine[c]
            entry["spied_face_down"] = seen[c]  # others' cards, if this seat looked here
        castles[c + 1] = entry
    return castles


def _players(state) -> list[dict]:
    player_castle = state.player_castle.tolist()
    castles_held = state.castles_held.tolist()
    collection = state.collection.tolist()
    alms_left = state.alms_left.tolist()
    hand_count = state.hand_count.tolist()
    has_raided = state.has_raided.tolist()
    order_pos = state.order_pos.tolist()
    banner = state.banner[:, :state.game.hand_size].tolist()
    return [{
        "castle": player_castle[p].index(1) + 1,   # the castle in front of the player
        "castles_held": castles_held[p],           # castle cards by value - 1
        "raids": list(state.raids[p]),             # castle values raided, in order
        "collection": collection[p],
        "alms_left": alms_left[p],
        "hand_count": hand_count[p],
        "raided": bool(has_raided[p]),
        "order": order_pos[p].index(1),            # place in this round's turn order
        "banner": banner[p],                       # per scouting play: 1 = face down
    } for p in range(state.num_players)]


def _villages(state) -> list[dict]:
    # seat + 1 of each space's alms, 0 where empty (alms_owner is one-hot over seats)
    owners = (state.alms_owner @ _SEAT_PLUS_ONE[:state.num_players]).tolist()
    spaces = state.cell_spaces.tolist()
    return [{"village": village, "alms": [o - 1 for o in owners[cell][:spaces[cell]]]}
            for cell, village in enumerate(state.grid)]
