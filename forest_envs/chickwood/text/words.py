"""Chickwood Forest in words for people: the pending decision as a sentence (``ask``) and
what a move did (``happened``).

Both read only ``render.view`` of the observer (its hand, its own face-down cards, what it
saw with the spy glass; everything for the referee), so they cannot name a card the
observer may not know. What a raid takes is public once taken: the rulebook has the raider
lay all loot face up ("even those that were face down"), and the collections are public.
Players are P0, P1, ... as on the board; opponents in action names are relative (+1 = the
next seat), so the texts give both ("P2 (+1)").
"""

from __future__ import annotations

import textwrap

from . import actions as A
from .actions import cell_name
from .components import (
    BENEFACTOR0,
    BENEFACTOR_ALMS,
    GRID_COLS,
    KEY,
    KIND_NAMES,
    MAX_SPACES,
    NUM_TREASURE_KINDS,
    VILLAGES,
    num_rounds,
)
from .observation import KIND_OF_NAME, Kind

WIDTH = 100     # no line of a prompt or narration is wider
INDENT = "    "  # the further lines of a narration

def _longest(*blocks, hidden: str = "") -> int:
    return max(len(name) for block in blocks for name in [*block.names(), hidden])


# A narration's first line starts with the move's name and ": ": the longest name a move of
# each decision kind can have, as anyone reads it (a card played face down is "play a card
# face down to castle 3" to the others).
MOVE_WIDTH = {kind: _longest(*blocks, **more) + 2 for kind, blocks, more in (
    (Kind.SCOUT, (A.PLAY,), {"hidden": "play a card face down to castle 6"}),
    (Kind.SPY, (A.SPY,), {}),
    (Kind.RAID, (A.RAID,), {}),
    (Kind.KEY, (A.KEY_USE, A.KEY_PASS), {}),
    (Kind.ALMS, (A.ALMS,), {}),
    (Kind.ENTERTAINERS_FIRST, (A.ENT_PICK, A.ENT_PASS), {}),
    (Kind.ENTERTAINERS_SECOND, (A.ENT_PICK,), {}),
    (Kind.ARROW_GIVE, (A.ARROW_GIVE, A.ARROW_PASS), {}),
    (Kind.ARROW_TAKE, (A.ARROW_TAKE,), {}),
    (Kind.FAKE_BEARD, (A.BEARD_GIVE, A.BEARD_PASS), {}))}
assert set(MOVE_WIDTH) == set(Kind)
RAID_PHASE = (Kind.RAID, Kind.KEY, Kind.ALMS)
BENEFACTORS = range(BENEFACTOR0, BENEFACTOR0 + len(BENEFACTOR_ALMS))


# --- small pieces ----------------------------------------------------------------------------
def cards(counts) -> str:
    """Counts by kind id as "gold chest x2, henchman" ("-" for none)."""
    return ", ".join(f"{KIND_NAMES[k]} x{c}" if c > 1 else KIND_NAMES[k]
                     for k, c in enumerate(counts) if c) or "-"


def named(counts) -> str:
    """Counts by kind id as "gold chest x2 and henchman"."""
    return either([f"{KIND_NAMES[k]} x{c}" if c > 1 else KIND_NAMES[k]
                   for k, c in enumerate(counts) if c], "and") or "-"


def either(items: list[str], word: str = "or") -> str:
    """"a", "a or b", "a, b or c"."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {word} {items[-1]}"


def place(v: dict, cell: int) -> str:
    """A grid cell by its name and card: "r1c2 Dunmere"."""
    village = v["villages"][cell]["village"]
    return f"{cell_name(cell)} {VILLAGES[village].name if village >= 0 else 'forest'}"


def _fitting(*texts: str) -> str:
    """The first text within ``WIDTH`` columns (the last one otherwise)."""
    for text in texts:
        if len(text) <= WIDTH:
            return text
    return texts[-1]


def _opponents(v: dict, p: int, wanted) -> list[str]:
    """The opponents ``wanted(o)`` picks, in action order (+1 first): "P2 (+1)"."""
    n = v["num_players"]
    return [f"P{(p + r) % n} (+{r})" for r in range(1, n) if wanted((p + r) % n)]


def _hand(v: dict, p: int) -> list[int] | None:
    """Seat ``p``'s hand as the view knows it (None: not known)."""
    if v["seat"] == p:
        return v["hand"]
    return v["hands"][p] if "hands" in v else None


def _cards_at(castle: dict) -> int:
    return sum(castle["face_up"]) + sum(castle["face_down_by"])


# --- the pending decision ------------------------------------------------------------------
def ask(v: dict) -> str:
    """The pending decision of view ``v`` as a sentence for a player; "game over" at the end."""
    d = v["decision"]
    if d is None:
        return "game over"
    return _ASK[KIND_OF_NAME[d["kind"]]](v, d["player"], d["data"])


def _ask_scout(v: dict, p: int, data: dict) -> str:
    pl = v["players"][p]
    size, left = len(pl["banner"]), pl["hand_count"]
    play = size - left
    face = "face down" if pl["banner"][play] else "face up"
    open_castles = [str(value) for value, c in v["castles"].items()
                    if c["capacity"] is None or _cards_at(c) < c["capacity"]]
    head = f"P{p} scouts, card {play + 1} of {size}, {face}: play"
    to = ("to any castle" if len(open_castles) == len(v["castles"])
          else f"to castle {either(open_castles)}")
    hand = _hand(v, p)
    some = "the last hand card" if left == 1 else f"one of {left} hand cards"
    if hand is None:
        return f"{head} {some} {to}"
    return _fitting(f"{head} {either([KIND_NAMES[k] for k, x in enumerate(hand) if x])} {to}",
                    f"{head} {some} {to}")


def _ask_spy(v: dict, p: int, data: dict) -> str:
    targets = [str(value) for value, c in v["castles"].items()
               if sum(c["face_down_by"]) - c["face_down_by"][p] > 0]
    return (f"P{p} looks with the spy glass at the face-down cards at one castle: "
            f"castle {either(targets)}")


def _ask_raid(v: dict, p: int, data: dict) -> str:
    free = [str(value) for value, c in v["castles"].items()
            if c["raided_by"] is None and not c["key_blocked"]]
    blocked = [str(value) for value, c in v["castles"].items() if c["key_blocked"]]
    if blocked:
        return (f"P{p} must raid another castle (the key blocks castle {either(blocked)}): "
                f"castle {either(free)}")
    return f"P{p} raids a castle not raided this round and takes its loot: castle {either(free)}"


def _ask_key(v: dict, p: int, data: dict) -> str:
    r, value = data["raider"], data["castle"] + 1
    return (f"P{p} may use the key: P{r} chose to raid castle {value}; force P{r} to choose "
            "another castle, or pass")


def alms_targets(v: dict, last: int | None) -> list[int]:
    """Cells the next alms may go to: a village with a free space, not given to in this
    snake, next to the ``last`` one (any such village before the first alms)."""
    out = []
    for cell, vil in enumerate(v["villages"]):
        if vil["village"] < 0 or -1 not in vil["alms"] or cell in v["snake_visited"]:
            continue
        if last is None or abs(cell // GRID_COLS - last // GRID_COLS) + abs(
                cell % GRID_COLS - last % GRID_COLS) == 1:
            out.append(cell)
    return out


def _ask_alms(v: dict, p: int, data: dict) -> str:
    n, last = data["alms_left"], data["last_cell"]
    targets = alms_targets(v, last)
    names = either([place(v, c) for c in targets])
    cells = either([cell_name(c) for c in targets])
    if last is None:
        head = f"P{p} gives {n} alms, one a village, each next to the last: the first to"
        return _fitting(f"{head} {names}", f"{head} {cells}",
                        f"{head} any village with a free space")
    head = f"P{p} gives alms ({n} more): next to {place(v, last)}, to"
    return _fitting(f"{head} {names}", f"{head} {cells}")


def _ask_entertainers_first(v: dict, p: int, data: dict) -> str:
    return (f"P{p} may swap two alms of different players with the travelling entertainers: "
            "pick the first, or pass")


def _ask_entertainers_second(v: dict, p: int, data: dict) -> str:
    cell, space = divmod(data["first_pick"], MAX_SPACES)
    owner = v["villages"][cell]["alms"][space]
    whose = "its own" if owner == p else f"P{owner}'s"
    return (f"P{p} swaps {whose} alms at {place(v, cell)} (space {space + 1}) with another "
            "player's alms: pick it")


def _treasures(v: dict, p: int) -> list[int]:
    return v["players"][p]["collection"][:NUM_TREASURE_KINDS]


def _ask_arrow_give(v: dict, p: int, data: dict) -> str:
    mine = either([KIND_NAMES[k] for k, x in enumerate(_treasures(v, p)) if x])
    head = f"P{p} may use the golden arrow to swap a treasure with an opponent"
    return _fitting(f"{head}: give {mine}, or pass", f"{head}: pick the one to give, or pass")


def _ask_arrow_take(v: dict, p: int, data: dict) -> str:
    holders = either(_opponents(v, p, lambda o: any(_treasures(v, o))))
    give = KIND_NAMES[data["give"]]
    return _fitting(f"P{p} gives {give} with the golden arrow: take a treasure from {holders}",
                    f"P{p} gives {give} (golden arrow): take a treasure from {holders}")


def _ask_fake_beard(v: dict, p: int, data: dict) -> str:
    return (f"P{p} may give a henchman to {either(_opponents(v, p, lambda o: True))} with the "
            "fake beard, or pass")


_ASK = {Kind.SCOUT: _ask_scout, Kind.SPY: _ask_spy, Kind.RAID: _ask_raid, Kind.KEY: _ask_key,
        Kind.ALMS: _ask_alms, Kind.ENTERTAINERS_FIRST: _ask_entertainers_first,
        Kind.ENTERTAINERS_SECOND: _ask_entertainers_second, Kind.ARROW_GIVE: _ask_arrow_give,
        Kind.ARROW_TAKE: _ask_arrow_take, Kind.FAKE_BEARD: _ask_fake_beard}
assert set(_ASK) == set(Kind), "every decision kind has its sentence"


# --- what a move did -------------------------------------------------------------------------
def happened(vb: dict, va: dict, glory_before: list[int], glory_after: list[int],
             ranks: list[int] | None) -> list[str]:
    """What the move from view ``vb`` to view ``va`` (one observer's) did, as phrases for the
    log: what a raid took, the alms placed, the glory it changed, the loot set aside at the
    round's end, the next round, the final scoring (``ranks`` once the game is over). A
    phrase may go on on further lines (``_lay_out``) so that no line of the narration passes
    ``WIDTH``."""
    d = vb["decision"]
    kind, p = KIND_OF_NAME[d["kind"]], d["player"]
    out: list[tuple[str, bool]] = []  # (phrase, starts a new line)
    raider = next((q for q, (b, a) in enumerate(zip(vb["players"], va["players"]))
                   if len(a["raids"]) > len(b["raids"])), None)
    round_over = kind in RAID_PHASE and (va["decision"] is None
                                         or KIND_OF_NAME[va["decision"]["kind"]] not in RAID_PHASE)
    raided = va["players"][raider]["raids"][-1] if raider is not None else None
    left_over = [value for value, c in vb["castles"].items() if value != raided and _cards_at(c)]
    if kind == Kind.SPY:
        out += [(text, False) for text in _spied(vb, va, p)]
    if kind == Kind.KEY and va["box"][KEY] > vb["box"][KEY]:
        out.append((f"the key goes to the box: P{d['data']['raider']} chooses another castle",
                    False))
    if raider is not None:
        set_aside = [sum(vb["castles"][value]["face_up"][k] for value in left_over) if round_over
                     else 0 for k in range(len(KIND_NAMES))]
        out += [(text, False) for text in _raid(vb, va, raider, set_aside)]
    if kind == Kind.ALMS:
        out += [(text, False) for text in _alms(vb, va, p)]
    if kind == Kind.ENTERTAINERS_SECOND:
        out.append((_swap(vb, va), False))
    if kind in (Kind.ARROW_TAKE, Kind.FAKE_BEARD):
        out += [(text, False) for text in _trade(vb, va, p)]
    if va["decision"] is not None:
        changes = [f"P{q} {a} ({a - b:+d})" for q, (b, a) in enumerate(zip(glory_before, glory_after))
                   if a != b]
        if changes:
            out.append(("glory now " + ", ".join(changes), False))
    if round_over:
        out.append((f"round {vb['round']} ends", True))
        out += [(text, False) for value in left_over for text in _set_aside(vb, value)]
        if not left_over:
            out.append(("no loot was left at the castles", False))
        if va["round"] > vb["round"]:
            order = ", ".join(f"P{q}" for q in va["order"])
            total = num_rounds(va["num_players"], va["legendary"])
            out.append((f"round {va['round']} of {total}, {len(va['players'][0]['banner'])} cards "
                        f"each ({va['deck_left']} left in the deck): turn order {order}", True))
        else:
            out.append(("the deck cannot deal another round: the game ends", True))
            if va["decision"] is not None:
                out.append(("the Legendary cards act before the final scoring", False))
    if ranks is not None:
        out.append((_final(va, ranks), True))
    return _lay_out(out, MOVE_WIDTH[kind])


def _spied(vb: dict, va: dict, p: int) -> list[str]:
    value = next(value for value, c in va["castles"].items() if c["spied"])
    if va["seat"] == p:
        return [f"P{p} sees {named(va['castles'][value]['spied_face_down'])}"]
    if va["seat"] is None:
        seen = [f"P{o}'s {named(k)}" for o, k in enumerate(vb["castles"][value]["face_down"])
                if o != p and any(k)]
        return [f"P{p} sees {', '.join(seen)}"]
    return []


def _raid(vb: dict, va: dict, r: int, set_aside: list[int]) -> list[str]:
    """The castle card, the loot (benefactors included) and the alms of ``r``'s raid;
    ``set_aside``: the face-up cards the round's end put on the discard pile in the same move."""
    value = va["players"][r]["raids"][-1]
    gained = [a - b for a, b in zip(va["players"][r]["collection"], vb["players"][r]["collection"])]
    benefactors = [a - b - s for a, b, s in zip(va["discard_public"], vb["discard_public"], set_aside)]
    loot = [g + (benefactors[k] if k in BENEFACTORS else 0) for k, g in enumerate(gained)]
    took_card = va["players"][r]["castles_held"][value - 1] > vb["players"][r]["castles_held"][value - 1]
    what = cards(loot) if any(loot) else "no loot"
    if took_card:
        out = [f"P{r} takes castle card {value} and {what}"]
    else:
        out = [f"P{r} takes {what}", f"the pile of castle {value} is empty: no castle card"]
    alms = sum(benefactors[k] * BENEFACTOR_ALMS[k] for k in BENEFACTORS)
    if alms:
        d = va["decision"]
        to_place = d["data"]["alms_left"] if d is not None and KIND_OF_NAME[d["kind"]] == Kind.ALMS else 0
        store = vb["players"][r]["alms_left"]
        if to_place == alms:
            out.append(f"{alms} alms to give")
        elif to_place:
            out.append(f"{alms} alms, only {to_place} left in P{r}'s store to give")
        elif store == 0:
            out.append(f"{alms} alms, but P{r} has no alms left")
        else:
            out.append(f"{alms} alms, but no village has a free space")
    return out


def _alms(vb: dict, va: dict, p: int) -> list[str]:
    out = []
    for b, a in zip(vb["villages"], va["villages"]):
        for space, (was, now) in enumerate(zip(b["alms"], a["alms"])):
            if was != now:
                # the move names the cell ("alms r3c2"): here its village
                text = f"P{p}'s alms goes to {VILLAGES[a['village']].name}, space {space + 1}"
                glory = _row_opened(a["village"], space)
                out.append(text + (f", unlocking its row's glory {glory}" if glory is not None else ""))
    left = vb["decision"]["data"]["alms_left"] - 1
    d = va["decision"]
    if left > 0 and (d is None or KIND_OF_NAME[d["kind"]] != Kind.ALMS or d["player"] != p):
        out.append(f"{left} alms stay in P{p}'s store: no village next to it to give to")
    return out


def _row_opened(village: int, space: int) -> int | None:
    """The glory of the row whose first space is ``space`` (None: not a row's first space,
    or the row prints no glory)."""
    start = 0
    for spaces, glory in VILLAGES[village].rows:
        if space == start:
            return glory
        start += spaces
    return None


def _swap(vb: dict, va: dict) -> str:
    moved = [(cell, space, was) for cell, (b, a) in enumerate(zip(vb["villages"], va["villages"]))
             for space, (was, now) in enumerate(zip(b["alms"], a["alms"])) if was != now]
    (c1, s1, o1), (c2, s2, o2) = moved
    return (f"P{o1}'s alms at {place(va, c1)} (space {s1 + 1}) and P{o2}'s at {place(va, c2)} "
            f"(space {s2 + 1}) swap places")


def _trade(vb: dict, va: dict, p: int) -> list[str]:
    """The golden arrow's exchange or the fake beard's gift, read from the collections."""
    out = []
    for o, (b, a) in enumerate(zip(vb["players"], va["players"])):
        if o == p:
            continue
        got = [max(x - y, 0) for x, y in zip(a["collection"], b["collection"])]
        lost = [max(y - x, 0) for x, y in zip(a["collection"], b["collection"])]
        if any(lost):
            out.append(f"P{p} gives {cards(got)} to P{o} and takes {cards(lost)}")
        elif any(got):
            out.append(f"P{o} takes P{p}'s {cards(got)}")
    return out


def _set_aside(vb: dict, value: int) -> list[str]:
    """The cards left at an unraided castle, named as far as the observer knows them."""
    c, seat = vb["castles"][value], vb["seat"]
    down, spied = [], c.get("spied_face_down", ())
    for o, count in enumerate(c["face_down_by"]):
        if not count:
            continue
        known = c["face_down"][o] if seat is None else c["my_face_down"] if o == seat else None
        if known is not None:
            down.append(f"P{o}'s {named(known)}")
        elif not any(spied):
            down.append(f"{count} card{'s' if count > 1 else ''} of P{o}")
    if any(spied):
        down.append(f"the others' {named(spied)} (seen with the spy glass)")
    out = [f"face up: {cards(c['face_up'])}"] if any(c["face_up"]) else []
    if down:
        out.append(f"face down: {', '.join(down)}")
    out[0] = f"unraided castle {value}, set aside {out[0]}"
    return out


def _final(va: dict, ranks: list[int]) -> str:
    totals = ", ".join(f"P{q} {s['total']}" for q, s in enumerate(va["scores"]))
    winners = [f"P{q}" for q, r in enumerate(ranks) if r == 1]
    won = f"{winners[0]} wins" if len(winners) == 1 else f"{either(winners, 'and')} share the win"
    return f"final glory {totals}: {won}"


def _lay_out(phrases: list[tuple[str, bool]], move_width: int) -> list[str]:
    """The phrases as the narration joins them ("; " after the move's name and ": ", at most
    ``move_width`` columns): a phrase that must start a new line (asked for, or the line
    would pass ``WIDTH``) is appended to the one before it after ";" and a line break, and a
    phrase too long for one line is broken inside, so no line passes ``WIDTH``."""
    out: list[str] = []
    width = WIDTH - 1  # room for the ";" a line may end with
    column = move_width
    for text, new_line in phrases:
        if out and not new_line and column + 2 + len(text) <= width:
            out.append(text)
            column += 2 + len(text)
            continue
        if out:
            lines = textwrap.wrap(text, width, initial_indent=INDENT, subsequent_indent=INDENT)
            out[-1] += ";\n" + "\n".join(lines)
            column = len(lines[-1])
        else:  # the first phrase starts on the move's line
            lines = textwrap.wrap(text, width, initial_indent=" " * move_width,
                                  subsequent_indent=INDENT)
            column = len(lines[-1])
            lines[0] = lines[0][move_width:]
            out.append("\n".join(lines))
    return out
