"""The coach's drive in words: the occupied ambushes a traveller passed in a move, and where
it stopped, was robbed, crushed an ambush or reached its destination (read from the states
before and after the move with ``move_facts.py``).
"""

from __future__ import annotations

from .. import actions as A
from ..components import AMBUSHES, CARDS, ROUTES, TOWNS, WEAPON_STRENGTH
from ..observation import Kind
from .move_facts import cloak_stays, coach_card, crush_over, move_taken, participants, robbery_fame
from .words import listing, plural, seats

FIGHTS = (Kind.EQUIP, Kind.PLEDGE, Kind.CALL)
LOOT = (Kind.SHARE, Kind.COMRADE, Kind.SHORTFALL, Kind.PROVISIONS)


def robbery_text(card: int, a: int, who: list[int], strength: int) -> str:
    c = CARDS[card]
    what = "the Sheriff is beaten" if c.sheriff else "robbed"
    return f"{what} at {AMBUSHES[a]} by {seats(who)} (strength {strength} against {c.strength})"


def drive(before, after, d) -> list[str]:
    """The ambushes the coach passed in this move and where it stopped or was robbed."""
    card = coach_card(before, after)
    if card is None:
        return []
    c = CARDS[card]
    still = after.coach is not None and after.coach.card == card
    if d.kind == Kind.LEAD:
        start = 0
    elif d.kind == Kind.MESSENGER:
        if after.decision is not None and after.decision.kind == Kind.MESSENGER and still:
            return []                       # the next seat is asked
        start = before.coach.step
    elif d.kind == Kind.CLOAK:
        if not crush_over(before, after):
            return []
        start = before.coach.step + 1
    else:                                   # equipment at an ambush: only if it fell short
        if (after.fight is not None or after.loot is not None or after.provisioning is not None
                or robbery_fame(before, after).any()
                or (after.crush is not None and after.crush.ambush == before.fight.ambush)):
            return []
        start = before.coach.step + 1
    if still:
        destination = after.coach.destination
    elif d.kind == Kind.MESSENGER:
        destination = _messenger_town(before, after)
    else:
        destination = before.coach.destination if before.coach is not None else c.destination
    route = ROUTES[(c.origin, destination)]
    manned = [bool(before.ambush_outlaws[a].any()) for a in range(len(AMBUSHES))]
    if d.kind == Kind.CLOAK:                # the crushed ambush holds only those who stay
        manned[before.crush.ambush] = bool(cloak_stays(before, after, d))
    kind = after.decision.kind if after.decision is not None else None
    out = []
    if still:
        stop = after.coach.step
        if kind == Kind.MESSENGER:
            out += _passed(route[start:stop], manned, before)
        elif kind in FIGHTS + (Kind.CLOAK,) + LOOT:
            if stop >= len(route):   # a stop is an ambush on the route: the rules never get here
                raise RuntimeError(f"the coach waits on a decision at step {stop} of a "
                                   f"{len(route)}-ambush route")
            out += _passed(route[start:stop], manned, before)
            out.append(_stopped(before, after, card, route[stop], kind))
        return out
    on_path = [a for a in route[start:] if manned[a]]
    at = _robbed_at(before, after, on_path, c.strength)
    if at is not None:
        k = on_path.index(at)
        out += _passed(on_path[:k], manned, before)
        out.append(robbery_text(card, at, participants(before, at), auto_strength(before, at, c.strength)))
        out.append(f"the outlaws at {AMBUSHES[at]} go home")
    else:
        out += _passed(on_path, manned, before)
        out.append(f"it reaches {TOWNS[destination]} unrobbed")
    return out


def _robbed_at(before, after, on_path: list[int], strength: int) -> int | None:
    """The ambush of ``on_path`` that robbed the coach in this move, if one did: the first
    whose participants are exactly the seats the robbery gave fame and whose outlaws (with
    promised cards) reach the strength; with no decision on the way nothing else attacks."""
    fame = robbery_fame(before, after)
    gained = {q for q in range(before.num_players) if fame[q] > 0}
    if not gained:
        return None
    fits = [a for a in on_path if set(participants(before, a)) == gained]
    strong = [a for a in fits if auto_strength(before, a, strength) >= strength]
    chosen = strong or fits
    return chosen[0] if chosen else None


def _messenger_town(before, after) -> int:
    a = move_taken(before, after)
    if a is not None and a in A.MESSENGER:
        return A.MESSENGER.index(a)[0]
    return before.coach.destination


def auto_strength(state, a: int, strength: int) -> int:
    """An ambush that attacks without a decision: its outlaws, with the promised cards when
    the outlaws alone fall short."""
    outlaws = int(state.ambush_outlaws[a].sum())
    return outlaws if outlaws >= strength else outlaws + _promised_strength(state, a)


def _promised_strength(state, a: int) -> int:
    return int(sum(WEAPON_STRENGTH[k] * x for w in state.promised[a].tolist() for k, x in enumerate(w)))


def _passed(ambushes, manned, state) -> list[str]:
    """The occupied ambushes passed unrobbed (a fork passed twice is named once)."""
    names: list[str] = []
    for a in ambushes:
        if manned[a]:
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


def _stopped(before, after, card: int, a: int, kind: int) -> str:
    if kind in LOOT:
        return robbery_text(card, a, participants(before, a), auto_strength(before, a, CARDS[card].strength))
    if kind == Kind.CLOAK:
        outlaws = int(before.ambush_outlaws[a].sum())
        return (f"the Sheriff crushes the ambush at {AMBUSHES[a]} ({plural(outlaws, 'outlaw')} "
                f"against {CARDS[card].strength})")
    return f"it reaches {AMBUSHES[a]}"
