"""Chickwood Forest in words for people: what a move did (``happened``), as phrases for a log
line, read from the observer's readings before and after it (``view.reading``), so it names
no card the observer may not know (``words.py`` says why what a raid takes is public).
"""

from __future__ import annotations

import textwrap

from .. import actions as A
from ..components import BENEFACTOR0, BENEFACTOR_ALMS, KEY, KIND_NAMES, VILLAGES, num_rounds
from ..observation import Kind
from .view import SeatReading
from .words import WIDTH, cards, cards_at, either, named, place

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


# --- what a move did -------------------------------------------------------------------------
def happened(vb: SeatReading, va: SeatReading, glory_before: list[int], glory_after: list[int],
             ranks: list[int] | None) -> list[str]:
    """What the move from reading ``vb`` to reading ``va`` (one observer's) did, as phrases for the
    log: what a raid took, the alms placed, the glory it changed, the loot set aside at the
    round's end, the next round, the final scoring (``ranks`` once the game is over). A
    phrase may go on on further lines (``_lay_out``) so that no line of the narration passes
    ``WIDTH``."""
    d = vb.decision
    if d is None:
        raise ValueError("no move follows a finished game")
    kind, p = d.kind, d.player
    out: list[tuple[str, bool]] = []  # (phrase, starts a new line)
    raider = next((q for q, (b, a) in enumerate(zip(vb.players, va.players))
                   if len(a.raids) > len(b.raids)), None)
    round_over = kind in RAID_PHASE and (va.decision is None or va.decision.kind not in RAID_PHASE)
    raided = va.players[raider].raids[-1] if raider is not None else None
    left_over = [c.value for c in vb.castles if c.value != raided and cards_at(c)]
    if kind == Kind.SPY:
        out += [(text, False) for text in _spied(vb, va, p)]
    if kind == Kind.KEY and va.box[KEY] > vb.box[KEY]:
        out.append((f"the key goes to the box: P{d.data.raider} chooses another castle", False))
    if raider is not None:
        set_aside = [sum(vb.castle(value).face_up[k] for value in left_over) if round_over
                     else 0 for k in range(len(KIND_NAMES))]
        out += [(text, False) for text in _raid(vb, va, raider, set_aside)]
    if kind == Kind.ALMS:
        out += [(text, False) for text in _alms(vb, va, p)]
    if kind == Kind.ENTERTAINERS_SECOND:
        out.append((_swap(vb, va), False))
    if kind in (Kind.ARROW_TAKE, Kind.FAKE_BEARD):
        out += [(text, False) for text in _trade(vb, va, p)]
    if va.decision is not None:
        changes = [f"P{q} {a} ({a - b:+d})" for q, (b, a) in enumerate(zip(glory_before, glory_after))
                   if a != b]
        if changes:
            out.append(("glory now " + ", ".join(changes), False))
    if round_over:
        out.append((f"round {vb.round} ends", True))
        out += [(text, False) for value in left_over for text in _set_aside(vb, value)]
        if not left_over:
            out.append(("no loot was left at the castles", False))
        if va.round > vb.round:
            order = ", ".join(f"P{q}" for q in va.order)
            total = num_rounds(va.num_players, va.legendary)
            out.append((f"round {va.round} of {total}, {len(va.players[0].banner)} cards "
                        f"each ({va.deck_left} left in the deck): turn order {order}", True))
        else:
            out.append(("the deck cannot deal another round: the game ends", True))
            if va.decision is not None:
                out.append(("the Legendary cards act before the final scoring", False))
    if ranks is not None:
        out.append((_final(va, ranks), True))
    return _lay_out(out, MOVE_WIDTH[kind])


def _spied(vb: SeatReading, va: SeatReading, p: int) -> list[str]:
    value = next(c.value for c in va.castles if c.spied)
    if va.seat == p:
        return [f"P{p} sees {named(va.castle(value).spied_face_down)}"]
    if va.seat is None:
        seen = [f"P{o}'s {named(k)}" for o, k in enumerate(vb.castle(value).face_down or ())
                if o != p and any(k)]
        return [f"P{p} sees {', '.join(seen)}"]
    return []


def _raid(vb: SeatReading, va: SeatReading, r: int, set_aside: list[int]) -> list[str]:
    """The castle card, the loot (benefactors included) and the alms of ``r``'s raid;
    ``set_aside``: the face-up cards the round's end put on the discard pile in the same move."""
    value = va.players[r].raids[-1]
    gained = [a - b for a, b in zip(va.players[r].collection, vb.players[r].collection)]
    benefactors = [a - b - s for a, b, s in zip(va.discard_public, vb.discard_public, set_aside)]
    loot = [g + (benefactors[k] if k in BENEFACTORS else 0) for k, g in enumerate(gained)]
    took_card = va.players[r].castles_held[value - 1] > vb.players[r].castles_held[value - 1]
    what = cards(loot) if any(loot) else "no loot"
    if took_card:
        out = [f"P{r} takes castle card {value} and {what}"]
    else:
        out = [f"P{r} takes {what}", f"the pile of castle {value} is empty: no castle card"]
    alms = sum(benefactors[k] * BENEFACTOR_ALMS[k] for k in BENEFACTORS)
    if alms:
        d = va.decision
        to_place = d.data.alms_left if d is not None and d.kind == Kind.ALMS else 0
        store = vb.players[r].alms_left
        if to_place == alms:
            out.append(f"{alms} alms to give")
        elif to_place:
            out.append(f"{alms} alms, only {to_place} left in P{r}'s store to give")
        elif store == 0:
            out.append(f"{alms} alms, but P{r} has no alms left")
        else:
            out.append(f"{alms} alms, but no village has a free space")
    return out


def _alms(vb: SeatReading, va: SeatReading, p: int) -> list[str]:
    out = []
    for b, a in zip(vb.villages, va.villages):
        for space, (was, now) in enumerate(zip(b.alms, a.alms)):
            if was != now:
                # the move names the cell ("alms r3c2"): here its village
                text = f"P{p}'s alms goes to {VILLAGES[a.village].name}, space {space + 1}"
                glory = _row_opened(a.village, space)
                out.append(text + (f", unlocking its row's glory {glory}" if glory is not None else ""))
    assert vb.decision is not None, "an alms move's reading before it"
    left = vb.decision.data.alms_left - 1
    d = va.decision
    if left > 0 and (d is None or d.kind != Kind.ALMS or d.player != p):
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


def _swap(vb: SeatReading, va: SeatReading) -> str:
    moved = [(cell, space, was) for cell, (b, a) in enumerate(zip(vb.villages, va.villages))
             for space, (was, now) in enumerate(zip(b.alms, a.alms)) if was != now]
    (c1, s1, o1), (c2, s2, o2) = moved
    return (f"P{o1}'s alms at {place(va, c1)} (space {s1 + 1}) and P{o2}'s at {place(va, c2)} "
            f"(space {s2 + 1}) swap places")


def _trade(vb: SeatReading, va: SeatReading, p: int) -> list[str]:
    """The golden arrow's exchange or the fake beard's gift, read from the collections."""
    out = []
    for o, (b, a) in enumerate(zip(vb.players, va.players)):
        if o == p:
            continue
        got = [max(x - y, 0) for x, y in zip(a.collection, b.collection)]
        lost = [max(y - x, 0) for x, y in zip(a.collection, b.collection)]
        if any(lost):
            out.append(f"P{p} gives {cards(got)} to P{o} and takes {cards(lost)}")
        elif any(got):
            out.append(f"P{o} takes P{p}'s {cards(got)}")
    return out


def _set_aside(vb: SeatReading, value: int) -> list[str]:
    """The cards left at an unraided castle, named as far as the observer knows them."""
    c, seat = vb.castle(value), vb.seat
    down, spied = [], c.spied_face_down or ()
    for o, count in enumerate(c.face_down_by):
        if not count:
            continue
        known = (c.face_down or ())[o] if seat is None else c.my_face_down if o == seat else None
        if known is not None:
            down.append(f"P{o}'s {named(known)}")
        elif not any(spied):
            down.append(f"{count} card{'s' if count > 1 else ''} of P{o}")
    if any(spied):
        down.append(f"the others' {named(spied)} (seen with the spy glass)")
    out = [f"face up: {cards(c.face_up)}"] if any(c.face_up) else []
    if down:
        out.append(f"face down: {', '.join(down)}")
    out[0] = f"unraided castle {value}, set aside {out[0]}"
    return out


def _final(va: SeatReading, ranks: list[int]) -> str:
    totals = ", ".join(f"P{q} {s['total']}" for q, s in enumerate(va.scores or ()))
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
