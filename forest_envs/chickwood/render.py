"""What a seat may know as plain Python data (``view``) and as a text picture (``render``).

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

``render`` turns ids into names for people. Scripted agents call ``view`` at every decision,
so it reads each buffer block with one ``tolist()`` (indexing numpy element by element is
slow) and builds nothing it does not return.
"""

from __future__ import annotations

import numpy as np

from .actions import cell_name
from .components import CASTLE_CAPACITY, FOREST, KIND_NAMES, MAX_CASTLE, MAX_CELLS, NO_CARD, VILLAGES
from .observation import Kind

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
        "decision": _decision(state),
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


def _decision(state) -> dict | None:
    """The pending decision: kind name, player and data by name (None when the game is over)."""
    out = state.decision_view()
    if out is not None and state.decision.kind == Kind.ALMS and out["data"]["last_cell"] >= MAX_CELLS:
        out["data"]["last_cell"] = None  # the snake has not started
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


# --- text ------------------------------------------------------------------------------------
def render(state, seat: int | None = None) -> str:
    v = view(state, seat)
    d = v["decision"]
    lines = [f"Chickwood Forest: round {v['round']}, deck {v['deck_left']}, "
             + ("game over" if d is None else _decision_text(d)), "Castles:"]
    for value, c in v["castles"].items():
        raided = "" if c["raided_by"] is None else f" raided by P{c['raided_by']}"
        down = ", ".join(f"P{p}:{x}" for p, x in enumerate(c["face_down_by"]) if x) or "-"
        lines.append(f"  [{value}] pile {c['pile_left']:2d}{raided}  up: {_cards(c['face_up'])}"
                     f"  down: {down}")
        if "face_down" in c:
            for p, cards in enumerate(c["face_down"]):
                if any(cards):
                    lines.append(f"        face down P{p}: {_cards(cards)}")
        for key in ("my_face_down", "spied_face_down"):
            if any(c.get(key, ())):
                lines.append(f"        {key.replace('_', ' ')}: {_cards(c[key])}")
    lines.append("Players:")
    for p, pl in enumerate(v["players"]):
        me = " (you)" if p == seat else ""
        banner = "".join("D" if x else "U" for x in pl["banner"])
        held = [value + 1 for value, x in enumerate(pl["castles_held"]) for _ in range(x)]
        lines.append(f"  P{p}{me}: castle {pl['castle']} banner {banner}, "
                     f"alms {pl['alms_left']}, hand {pl['hand_count']}, castles {held}, "
                     f"raided {pl['raids'] or '-'}")
        lines.append(f"      loot: {_cards(pl['collection'])}")
    lines.append("Villages:")
    for row in range(0, MAX_CELLS, 3):
        parts = [_village_text(cell, v["villages"][cell]) for cell in range(row, row + 3)
                 if v["villages"][cell]["village"] != NO_CARD]
        if parts:
            lines.append("  " + " | ".join(parts))
    if "hand" in v:
        lines.append(f"Your hand: {_cards(v['hand'])}")
    if v["play_face_down"] is not None and d is not None and seat == d["player"]:
        lines.append(f"Your banner says: play this card face {'down' if v['play_face_down'] else 'up'}")
    for p, hand in enumerate(v.get("hands", ())):
        lines.append(f"Hand P{p}: {_cards(hand)}")
    if "scores" in v:
        lines.append("Final scores:")
        for p, s in enumerate(v["scores"]):
            lines.append(f"  P{p}: " + ", ".join(f"{k} {x}" for k, x in s.items()))
    return "\n".join(lines)


def _decision_text(d: dict) -> str:
    """The pending decision in the board's own player names (P0, P1, ...)."""
    who, data = f"P{d['player']}", d["data"]
    if d["kind"] == "alms":
        return f"{who} places alms, {data['alms_left']} still to place"
    if d["kind"] == "key":
        return f"{who} may use the key: P{data['raider']} chose castle {data['castle'] + 1}"
    return f"{who} to {d['kind'].replace('_', ' ')}"


LEGEND = """\
[v] pile n      castle of value v, n castle cards left in its pile
up / down       loot lying face up before a castle / face-down cards by player (P1:2)
banner UDD      the castle's banner: U = play face up, D = face down, one per scouting play
castles [..]    castle cards a player holds (start castle included); raided: values raided
r1c2 Name[a/b/c] ..01.   village in row 1, column 2; glory of each row (- none); each space:
                . empty, or the seat of the alms in it (spaces fill left to right)
~forest~        a forest card (no alms)"""


def legend() -> str:
    """The key to ``render``'s text."""
    return LEGEND


def _village_text(cell: int, vil: dict) -> str:
    if vil["village"] == FOREST:
        return f"{cell_name(cell)} ~forest~"
    village = VILLAGES[vil["village"]]
    alms = "".join("." if o < 0 else str(o) for o in vil["alms"])
    glory = "/".join("-" if g is None else str(g) for _, g in village.rows)
    return f"{cell_name(cell)} {village.name[:6]}[{glory}] {alms}"


def _cards(counts: list[int]) -> str:
    """Counts by kind id as "gold chest x2, henchman"."""
    return ", ".join(f"{KIND_NAMES[k]} x{c}" if c > 1 else KIND_NAMES[k]
                     for k, c in enumerate(counts) if c) or "-"

