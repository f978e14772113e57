"""The coach's drive in words: the occupied ambushes a traveller passed in a move, and where
it stopped, was robbed, crushed an ambush or reached its destination (read from one
observer's records before and after the move, ``move_facts.Move``).
"""

from __future__ import annotations

from .. import actions as A
from ..components import AMBUSHES, CARDS, ROUTES, TOWNS
from ..observation import Kind
from .move_facts import (
    Move,
    cloak_stays,
    coach_card,
    crush_over,
    manned,
    next_kind,
    outlaws_at,
    participants,
    promised_strength,
    robbed,
    robbery_fame,
)
from .view import SeatReading
from .words import listing, plural, seats

FIGHTS = (Kind.EQUIP, Kind.PLEDGE, Kind.CALL)
LOOT = (Kind.SHARE, Kind.COMRADE, Kind.SHORTFALL, Kind.PROVISIONS)


def robbery_text(card: int, a: int, who: list[int], strength: int) -> str:
    c = CARDS[card]
    what = "the Sheriff is beaten" if c.sheriff else "robbed"
    return f"{what} at {AMBUSHES[a]} by {seats(who)} (strength {strength} against {c.strength})"


def drive(m: Move) -> list[str]:
    """The ambushes the coach passed in this move and where it stopped or was robbed."""
    card = coach_card(m)
    if card is None:
        return []
    b, after, kind_moved = m.before, m.after, m.decision.kind
    c = CARDS[card]
    still = after.coach is not None and after.the_coach().card == card
    after_kind = next_kind(m)
    if kind_moved == Kind.LEAD:
        start = 0
    elif kind_moved == Kind.MESSENGER:
        if after_kind == Kind.MESSENGER and still:
            return []                       # the next seat is asked
        start = b.the_coach().step
    elif kind_moved == Kind.CLOAK:
        if not crush_over(m):
            return []
        start = b.the_coach().step + 1
    else:                                   # equipment at an ambush: only if it fell short
        if (after.fight is not None or after.loot is not None or after.provisioning is not None
                or robbed(m) or (after.crush is not None and after.the_crush().ambush == b.the_fight().ambush)):
            return []
        start = b.the_coach().step + 1
    if still:
        destination = after.the_coach().destination
    elif kind_moved == Kind.MESSENGER:
        destination = _messenger_town(m)
    else:
        destination = b.the_coach().destination if b.coach is not None else c.destination
    route = ROUTES[(c.origin, destination)]
    occupied = [manned(b, a) for a in range(len(AMBUSHES))]
    if kind_moved == Kind.CLOAK:            # the crushed ambush holds only those who stay
        occupied[b.the_crush().ambush] = bool(cloak_stays(m))
    out = []
    if still:
        stop = after.the_coach().step
        if after_kind == Kind.MESSENGER:
            out += _passed(route[start:stop], occupied)
        elif after_kind in FIGHTS + (Kind.CLOAK,) + LOOT:
            if stop >= len(route):   # a stop is an ambush on the route: the rules never get here
                raise RuntimeError(f"the coach waits on a decision at step {stop} of a "
                                   f"{len(route)}-ambush route")
            out += _passed(route[start:stop], occupied)
            out.append(_stopped(b, card, route[stop], after_kind))
        return out
    on_path = [a for a in route[start:] if occupied[a]]
    at = _robbed_at(m, on_path, c.strength)
    if at is not None:
        k = on_path.index(at)
        out += _passed(on_path[:k], occupied)
        out.append(robbery_text(card, at, participants(b, at), auto_strength(b, at, c.strength)))
        out.append(f"the outlaws at {AMBUSHES[at]} go home")
    else:
        out += _passed(on_path, occupied)
        out.append(f"it reaches {TOWNS[destination]} unrobbed")
    return out


def _robbed_at(m: Move, on_path: list[int], strength: int) -> int | None:
    """The ambush of ``on_path`` that robbed the coach in this move, if one did: the first
    whose participants are exactly the seats the robbery gave fame and whose outlaws (with
    promised cards) reach the strength; with no decision on the way nothing else attacks."""
    gained = {q for q, fame in enumerate(robbery_fame(m)) if fame > 0}
    if not gained:
        return None
    fits = [a for a in on_path if set(participants(m.before, a)) == gained]
    strong = [a for a in fits if auto_strength(m.before, a, strength) >= strength]
    chosen = strong or fits
    return chosen[0] if chosen else None


def _messenger_town(m: Move) -> int:
    if m.action is not None and m.action in A.MESSENGER:
        return A.MESSENGER.index(m.action)[0]
    return m.before.the_coach().destination


def auto_strength(r: SeatReading, a: int, strength: int) -> int:
    """An ambush that attacks without a decision: its outlaws, with the promised cards when
    the outlaws alone fall short."""
    outlaws = outlaws_at(r, a)
    return outlaws if outlaws >= strength else outlaws + promised_strength(r, a)


def _passed(ambushes, occupied) -> list[str]:
    """The occupied ambushes passed unrobbed (a fork passed twice is named once)."""
    names: list[str] = []
    for a in ambushes:
        if occupied[a]:
            name = AMBUSHES[a]
            if name in names:
                names[names.index(name)] = f"{name} (twice)"
            elif f"{name} (twice)" not in names:
                names.append(name)
    if not names:
        return []
    if len(names) <= 4:
        return [f"it passes {listing(names)}"]
    return [f"it passes {', '.join(names[:4])}", f"then {listing(names[4:])}"]


def _stopped(b: SeatReading, card: int, a: int, kind: int) -> str:
    if kind in LOOT:
        return robbery_text(card, a, participants(b, a), auto_strength(b, a, CARDS[card].strength))
    if kind == Kind.CLOAK:
        return (f"the Sheriff crushes the ambush at {AMBUSHES[a]} ({plural(outlaws_at(b, a), 'outlaw')} "
                f"against {CARDS[card].strength})")
    return f"it reaches {AMBUSHES[a]}"
