"""What a seat may know as plain Python data (``view``) and as a text picture (``render``)."""

from __future__ import annotations

import numpy as np

from .actions import cell_name
from .components import CASTLE_CAPACITY, KIND_NAMES, MAX_CASTLE, MAX_CELLS, VILLAGES
from .observation import PHASES


def _named(counts) -> dict[str, int]:
    return {KIND_NAMES[k]: int(c) for k, c in enumerate(counts) if c}


def view(state, seat: int | None) -> dict:
    """``seat=None`` gives the full-information view (every hand and face-down card)."""
    n = state.num_players
    everyone = seat is None
    castles = []
    for c in range(MAX_CASTLE):
        if not state.castle_in_play[c]:
            continue
        raided = np.flatnonzero(state.castle_raided_by[c])
        entry = {
            "value": c + 1,
            "pile_left": int(state.pile_left[c]),
            "capacity": CASTLE_CAPACITY.get(c + 1),
            "raided_by": int(raided[0]) if raided.size else None,
            "face_up": _named(state.castle_faceup[c]),
            "face_down_by": {p: int(x) for p, x in enumerate(state.castle_fd_count[c]) if x},
        }
        if everyone:
            entry["face_down"] = _named(state.fd_own[:, c].sum(axis=0))
        else:
            entry["my_face_down"] = _named(state.fd_own[seat, c])
            if state.spy_view[seat, c].any():
                entry["spied_face_down"] = _named(state.spy_view[seat, c])
        castles.append(entry)
    players = []
    for p in range(n):
        players.append({
            "seat": p,
            "castle": int(state.player_castle[p].argmax()) + 1,
            "castles_held": [v + 1 for v in range(MAX_CASTLE) for _ in range(int(state.castles_held[p, v]))],
            "collection": _named(state.collection[p]),
            "alms_left": int(state.alms_left[p]),
            "hand_count": int(state.hand_count[p]),
            "raided": bool(state.has_raided[p]),
            "order": int(state.order_pos[p].argmax()),
            "banner": "".join("D" if b else "U" for b in state.banner[p, :state.game.hand_size]),
        })
    owners = state._space_owners()
    villages = []
    for cell in range(MAX_CELLS):
        g = state.grid[cell]
        if g == -2:
            continue
        villages.append({
            "cell": cell_name(cell),
            "card": "forest" if g == -1 else VILLAGES[g].name,
            "rows": [] if g < 0 else [list(r) for r in VILLAGES[g].rows],
            "alms": [] if g < 0 else [None if o < 0 else int(o) for o in owners[cell, :VILLAGES[g].spaces]],
            "alms_times": [] if g < 0 else [int(t) for t in state.alms_time[cell, :VILLAGES[g].spaces]],
        })
    out = {
        "seat": seat,
        "num_players": n,
        "round": int(state.round_no[0]),
        "phase": PHASES[state.phase],
        "to_move": state.current_player,
        "order": list(state.order),
        "deck_left": int(state.deck_left[0]),
        "castles": castles,
        "players": players,
        "villages": villages,
        "discard_public": _named(state.discard_public),
        "box": _named(state.box),
        "arrow_give": KIND_NAMES[int(state.arrow_give.argmax())] if state.arrow_give.any() else None,
        "snake_left": int(state.snake_left[0]),
        "key_pending": int(state.key_pending.argmax()) + 1 if state.key_pending.any() else None,
        "snake_last": None if state.snake_last < 0 else cell_name(state.snake_last),
    }
    if everyone:
        out["hands"] = [_named(state.hand[p]) for p in range(n)]
    else:
        out["hand"] = _named(state.hand[seat])
        out["discard_known"] = _named(state.discard_known[seat])
    if not state.is_terminal and (everyone or seat == state.current_player):
        out["legal_actions"] = {a: state.game.action_names[a] for a in state.legal_actions()}
    if state.is_terminal:
        out["scores"] = state.scores()
    return out


def render(state, seat: int | None = None) -> str:
    v = view(state, seat)
    lines = [f"Chickwood Forest: round {v['round']}, phase {v['phase']}, deck {v['deck_left']}"
             + ("" if state.is_terminal else f", player {v['to_move']} to move")]
    lines.append("Castles:")
    for c in v["castles"]:
        raided = "" if c["raided_by"] is None else f" raided by P{c['raided_by']}"
        down = ", ".join(f"P{p}:{x}" for p, x in c["face_down_by"].items()) or "-"
        lines.append(f"  [{c['value']}] pile {c['pile_left']:2d}{raided}  up: {_fmt(c['face_up'])}"
                     f"  down: {down}")
        for key in ("face_down", "my_face_down", "spied_face_down"):
            if c.get(key):
                lines.append(f"        {key.replace('_', ' ')}: {_fmt(c[key])}")
    lines.append("Players:")
    for p in v["players"]:
        me = " (you)" if p["seat"] == seat else ""
        lines.append(f"  P{p['seat']}{me}: castle {p['castle']} banner {p['banner']}, "
                     f"alms {p['alms_left']}, hand {p['hand_count']}, castles {p['castles_held']}")
        lines.append(f"      loot: {_fmt(p['collection'])}")
    lines.append("Villages:")
    rows = {}
    for vil in v["villages"]:
        rows.setdefault(vil["cell"][:2], []).append(vil)
    for cells in rows.values():
        parts = []
        for vil in cells:
            if vil["card"] == "forest":
                parts.append(f"{vil['cell']} ~forest~")
            else:
                alms = "".join("." if o is None else str(o) for o in vil["alms"])
                glory = "/".join("-" if g is None else str(g) for _, g in vil["rows"])
                parts.append(f"{vil['cell']} {vil['card'][:6]}[{glory}] {alms}")
        lines.append("  " + " | ".join(parts))
    if "hand" in v:
        lines.append(f"Your hand: {_fmt(v['hand'])}")
    if "hands" in v:
        for p, h in enumerate(v["hands"]):
            lines.append(f"Hand P{p}: {_fmt(h)}")
    if "scores" in v:
        lines.append("Final scores:")
        for p, s in enumerate(v["scores"]):
            lines.append(f"  P{p}: " + ", ".join(f"{k} {x}" for k, x in s.items()))
    return "\n".join(lines)


def _fmt(named: dict[str, int]) -> str:
    return ", ".join(f"{k} x{c}" if c > 1 else k for k, c in named.items()) or "-"
