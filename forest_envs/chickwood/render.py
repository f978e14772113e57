"""What a seat may know as plain Python data (``view``) and as a text picture (``render``)."""

from __future__ import annotations

import functools
from operator import itemgetter

from .actions import cell_name
from .components import CASTLE_CAPACITY, KIND_NAMES, MAX_CASTLE, MAX_CELLS, VILLAGES
from .observation import PHASES


def _named(counts) -> dict[str, int]:
    """{kind name: count} of the nonzero counts (a list of ints, or an array)."""
    if not isinstance(counts, list):
        counts = counts.tolist()
    if not any(counts):
        return {}
    return dict(_named_counts(tuple(counts)))  # a copy: the caller may change it


# The few small tables the view converts recur from call to call: memoised (returned as
# fresh lists / dicts).
@functools.lru_cache(maxsize=4096)
def _named_counts(counts: tuple) -> dict[str, int]:
    return dict(filter(itemgetter(1), zip(KIND_NAMES, counts)))


@functools.lru_cache(maxsize=1024)
def _castle_list(held: tuple) -> tuple[int, ...]:
    """Castle values held, one per card, from the count of each value."""
    return tuple(v + 1 for v in range(MAX_CASTLE) for _ in range(held[v]))


@functools.lru_cache(maxsize=256)
def _banner_text(banner: tuple) -> str:
    return "".join("D" if b else "U" for b in banner)


# Per-village data the view repeats on every call.
_SPACES = tuple(v.spaces for v in VILLAGES)
_CELL_NAMES = tuple(cell_name(cell) for cell in range(MAX_CELLS))


def _first(row: list) -> int:
    """Index of the first maximum (numpy's argmax) of a one-hot row."""
    return row.index(max(row))


def _first_nonzero(row: list) -> int | None:
    x = next(filter(None, row), None)
    return None if x is None else row.index(x)


def view(state, seat: int | None) -> dict:
    """``seat=None`` gives the full-information view (every hand and face-down card)."""
    # Scripted agents call this every decision: the buffer blocks are read with one
    # ``tolist()`` each, since indexing numpy arrays element by element is slow.
    n = state.num_players
    everyone = seat is None
    in_play = state.castle_in_play.tolist()
    pile_left = state.pile_left.tolist()
    raided_by = state.castle_raided_by.tolist()
    faceup = state.castle_faceup.tolist()
    fd_count = state.castle_fd_count.tolist()
    if everyone:
        face_down = state.fd_own.sum(axis=0).tolist()
    else:
        my_fd = state.fd_own[seat].tolist()
        spied = state.spy_view[seat].tolist()
    castles = []
    for c in range(MAX_CASTLE):
        if not in_play[c]:
            continue
        entry = {
            "value": c + 1,
            "pile_left": pile_left[c],
            "capacity": CASTLE_CAPACITY.get(c + 1),
            "raided_by": _first_nonzero(raided_by[c]),
            "face_up": _named(faceup[c]),
            "face_down_by": dict(filter(itemgetter(1), enumerate(fd_count[c]))),
        }
        if everyone:
            entry["face_down"] = _named(face_down[c])
        else:
            entry["my_face_down"] = _named(my_fd[c])
            if any(spied[c]):
                entry["spied_face_down"] = _named(spied[c])
        castles.append(entry)
    player_castle = state.player_castle.tolist()
    castles_held = state.castles_held.tolist()
    collection = state.collection.tolist()
    alms_left = state.alms_left.tolist()
    hand_count = state.hand_count.tolist()
    has_raided = state.has_raided.tolist()
    order_pos = state.order_pos.tolist()
    hand_size = state.game.hand_size
    banner = state.banner[:, :hand_size].tolist()
    players = []
    for p in range(n):
        players.append({
            "seat": p,
            "castle": _first(player_castle[p]) + 1,
            "castles_held": list(_castle_list(tuple(castles_held[p]))),
            "collection": _named(collection[p]),
            "alms_left": alms_left[p],
            "hand_count": hand_count[p],
            "raided": bool(has_raided[p]),
            "order": _first(order_pos[p]),
            "banner": _banner_text(tuple(banner[p])),
        })
    owners = state._space_owners().tolist()
    alms_time = state.alms_time.tolist()
    villages = []
    for cell in range(MAX_CELLS):
        g = state.grid[cell]
        if g == -2:
            continue
        if g < 0:
            villages.append({"cell": _CELL_NAMES[cell], "card": "forest", "rows": [], "alms": [],
                             "alms_times": []})
            continue
        spaces = _SPACES[g]
        villages.append({
            "cell": _CELL_NAMES[cell],
            "card": VILLAGES[g].name,
            "rows": [list(r) for r in VILLAGES[g].rows],
            "alms": [None if o < 0 else o for o in owners[cell][:spaces]],
            "alms_times": alms_time[cell][:spaces],
        })
    arrow_give = state.arrow_give.tolist()
    key_pending = state.key_pending.tolist()
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
        "arrow_give": KIND_NAMES[_first(arrow_give)] if any(arrow_give) else None,
        "snake_left": int(state.snake_left[0]),
        "play_face_down": (bool(state.banner[state.current, state.step // n])
                           if PHASES[state.phase] == "scout" else None),
        "key_pending": _first(key_pending) + 1 if any(key_pending) else None,
        "snake_last": None if state.snake_last < 0 else _CELL_NAMES[state.snake_last],
    }
    if everyone:
        out["hands"] = [_named(h) for h in state.hand.tolist()]
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
    if v["play_face_down"] is not None and seat == v["to_move"]:
        lines.append(f"Your banner says: play this card face {'down' if v['play_face_down'] else 'up'}")
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
