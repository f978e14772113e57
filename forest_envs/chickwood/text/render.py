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

``render`` turns ids into names for people (the board, keyed by ``legend``); ``prompt`` and
``consequences`` (core's ``State.prompt`` and ``State.narrate``) put the pending decision and
what a move did into words (``words.py``), from the observer's view only. Scripted agents
call ``view`` at every decision,
so it reads each buffer block with one ``tolist()`` (indexing numpy element by element is
slow) and builds nothing it does not return. The heuristic reads ``reading`` instead
(``reading.py``): the same facts as tuples, without the dicts.
"""

from __future__ import annotations

import textwrap

import numpy as np

from ..drawing.seats import seat_name
from .actions import cell_name
from .components import (
    CASTLE_CAPACITY,
    FOREST,
    GRID_COLS,
    KIND_NAMES,
    MAX_CASTLE,
    MAX_CELLS,
    NO_CARD,
    VILLAGES,
    num_rounds,
)
from .reading import pending_decision, reading  # noqa: F401  (State.reading finds reading here, in RENDER)
from .words import WIDTH, ask, cards, happened

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


# --- text ------------------------------------------------------------------------------------
def render(state, seat: int | None = None) -> str:
    """The table as ``seat`` may see it, in lines of at most ``words.WIDTH`` columns."""
    v = view(state, seat)
    d = v["decision"]
    glory = state.totals()
    rounds = num_rounds(v["num_players"], v["legendary"])
    lines = [f"Chickwood Forest{' (Legendary)' if v['legendary'] else ''}: round {v['round']} of "
             f"{rounds}, deck {v['deck_left']}, " + ("game over" if d is None else f"P{d['player']} to move")]
    if d is not None:
        lines.append(ask(v))
    lines.append("Castles:")
    for value, c in v["castles"].items():
        cap = "" if c["capacity"] is None else f", holds {c['capacity']}"
        raided = "" if c["raided_by"] is None else f", raided by P{c['raided_by']}"
        blocked = ", blocked by the key" if c["key_blocked"] else ""
        down = ", ".join(f"P{p} x{x}" for p, x in enumerate(c["face_down_by"]) if x) or "-"
        _wrapped(lines, f"  castle {value}: pile {c['pile_left']}{cap}{raided}{blocked} | "
                        f"face up: {cards(c['face_up'])} | face down: {down}")
        for p, known in enumerate(c.get("face_down", ())):
            if any(known):
                _wrapped(lines, f"      P{p}'s face down: {cards(known)}")
        if any(c.get("my_face_down", ())):
            _wrapped(lines, f"      your face down: {cards(c['my_face_down'])}")
        if any(c.get("spied_face_down", ())):
            _wrapped(lines, f"      the others' face down, seen with the spy glass: "
                            f"{cards(c['spied_face_down'])}")
    lines.append("Players:")
    for p, pl in enumerate(v["players"]):
        banner = "".join("D" if x else "U" for x in pl["banner"])
        held = " ".join(str(value + 1) for value, x in enumerate(pl["castles_held"]) for _ in range(x))
        raids = " ".join(map(str, pl["raids"])) or "-"
        _wrapped(lines, f"  {seat_name(p, seat)}: castle {pl['castle']}, banner {banner}, alms {pl['alms_left']}, "
                        f"hand {pl['hand_count']}, castle cards {held}, raided {raids}, glory {glory[p]}")
        _wrapped(lines, f"      loot: {cards(pl['collection'])}")
    lines.append("Villages: each card row as glory:spaces; - no glory, . free, a digit: that seat's alms")
    for row in range(0, MAX_CELLS, GRID_COLS):
        parts = [_village_text(cell, v["villages"][cell]) for cell in range(row, row + GRID_COLS)
                 if v["villages"][cell]["village"] != NO_CARD]
        if parts:
            lines.append(("  " + "  ".join(part.ljust(_VILLAGE_WIDTH) for part in parts)).rstrip())
    if "hand" in v:
        _wrapped(lines, f"Your hand: {cards(v['hand'])}")
    for p, hand in enumerate(v.get("hands", ())):
        _wrapped(lines, f"Hand P{p}: {cards(hand)}")
    if "scores" in v:
        lines.append("Final scores:")
        for p, s in enumerate(v["scores"]):
            _wrapped(lines, f"  P{p}: {_score_text(s)}")
    return "\n".join(lines)


def _wrapped(lines: list[str], text: str, indent: int = 8) -> None:
    """``text`` appended to ``lines``, broken at ``WIDTH`` with further lines indented."""
    lines.extend(textwrap.wrap(text, WIDTH, subsequent_indent=" " * indent,
                               break_on_hyphens=False) or [""])


def _score_text(s: dict) -> str:
    parts = [f"{k} {x}" for k, x in s.items() if k not in ("busts", "village_glory", "total")]
    villages = ", ".join(f"{cell} {x}" for cell, x in s["village_glory"].items() if x)
    if villages:
        parts[-1] += f" ({villages})"
    busts = f"; {s['busts']} chest{'s' if s['busts'] != 1 else ''} lost to busts" if s["busts"] else ""
    return f"total {s['total']} = " + ", ".join(parts) + busts


LEGEND = """\
round r of n     a game of this player count lasts n rounds; deck: loot cards left to deal
P0, P1, ...      the players by seat; (you): the seat whose view this is
castle v         the castle pile of value v; pile: castle cards left in it; holds n: at most n
                 loot cards may lie before it (castles 1 and 2)
face up / down   the loot before a castle: face up by name, face down as a count by owner (P1 x2)
banner UDD       a player's castle banner, one letter per scouting play: U face up, D face down
alms, hand       alms left in the player's store; cards in hand
castle cards     the castle cards the player holds (the first one included), each worth its value
raided           the castles the player raided, one per round; glory: the glory if the game
                 ended now (loot, castle cards, villages as they stand)
loot             the cards the player took, face up for all; x2: two cards of that kind
r1c2             the grid cell in row 1, column 2 (the name the alms actions use)
Dunmere -:... 10:.. 5:..   a village card, one group per row of the card, top row first: the
                 row's glory (- none), then its alms spaces, filled left to right: . free,
                 a digit the seat whose alms it holds; a row's glory counts once it holds an alms
~forest~         a forest card: no alms, and a snake of alms cannot pass it"""


def legend() -> str:
    """The key to ``render``'s text: every code the board uses."""
    return LEGEND


def _village_text(cell: int, vil: dict) -> str:
    if vil["village"] == FOREST:
        return f"{cell_name(cell)} ~forest~"
    village = VILLAGES[vil["village"]]
    alms = "".join("." if o < 0 else str(o) for o in vil["alms"])
    rows, start = [], 0
    for spaces, glory in village.rows:
        rows.append(f"{'-' if glory is None else glory}:{alms[start:start + spaces]}")
        start += spaces
    return f"{cell_name(cell)} {village.name} {' '.join(rows)}"


_VILLAGE_WIDTH = max(len(_village_text(0, {"village": i, "alms": [-1] * v.spaces}))
                     for i, v in enumerate(VILLAGES))


# --- words for people (core's State.prompt and State.narrate) ----------------------------------
def prompt(state, observer: int | None) -> str:
    """The pending decision as a sentence, as ``observer`` may know it (``words.ask``)."""
    return ask(view(state, observer))


def consequences(before, after, observer: int | None) -> list[str]:
    """What the move from ``before`` to ``after`` did, as ``observer`` may know it
    (``words.happened``; glory is public: it counts only public cards and alms)."""
    return happened(view(before, observer), view(after, observer), before.totals(),
                    after.totals(), after.ranks() if after.is_terminal else None)
