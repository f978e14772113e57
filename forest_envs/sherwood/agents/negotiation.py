"""The heuristic in a joint ambush's negotiation (``ask``, ``reveal``, ``answer``, ``confirm``)
and, with the additions, its binding agreement (``target``, ``informant``, ``terms``).

As performer it asks for the outlaws it planned (``preparation.choose_offer``), tells
nothing, marks no target, names itself the informant, promises nothing and forms what it
offered; as an asked ally it accepts only for at most half of its camp and where the joint
ambush will rob a known traveller worth some fame.
"""

from __future__ import annotations

from typing import Any

from .. import actions as A
from ..components import WEAPON_STRENGTH
from ..text.reading import SeatReading
from .params import ACCEPT_FAME
from .valuation import known_travellers, strength_here


def choose_ask(agent, r: SeatReading, mask):
    """The outlaws it planned to ask of this ally (no cards); one outlaw where somebody
    must be asked and it planned nobody (the last ally with nobody asked yet, or an
    informant, who must take part: every asked ally has an outlaw in camp)."""
    data: Any = r.data  # its kind's record: a namedtuple built at run time (core/decisions.py)
    ally = data.ally
    want = agent.asks.get(ally, 0)
    c = min(want, r.camp[ally])
    action = A.ASK.id(c, 0)
    return action if mask[action] else A.ASK.id(1, 0)


def choose_reveal(agent, r, mask):
    return A.REVEAL_NONE.start


def choose_target(agent, r, mask):
    return A.TARGET_NONE.start


def choose_terms(agent, r, mask):
    return A.TERMS.id(0, 0, 0)


def choose_informant(agent, r, mask):
    return A.INFORMANT.start                 # itself


def choose_confirm(agent, r, mask):
    # It asks for the strength it needs (outlaws, no cards), so it forms what it offered.
    return A.CONFIRM.id(A.CONFIRM_FORM)


def choose_answer(agent, r: SeatReading, mask):
    """Join only an ambush that will rob a known traveller worth some fame, for at most
    half of its camp: every participant gains the fame, the performer most of the
    loot, and outlaws sent away are missing from its own ambush."""
    data: Any = r.data  # its kind's record: a namedtuple built at run time (core/decisions.py)
    offer = r.offer
    assert offer is not None  # an answer is to the offer on the table
    outlaws = offer.own + sum(c for _, c, _ in offer.asked)
    legal = [a for a in range(A.ACCEPT.start, A.ACCEPT.stop) if mask[a]]
    if (not legal or data.outlaws * 2 > r.camp[r.seat]
            or fame_at(r, data.ambush, outlaws) < ACCEPT_FAME):
        return A.DECLINE.start
    return min(legal, key=lambda a: sum(w * s for w, s in zip(A.ACCEPT.index(a), WEAPON_STRENGTH)))


def fame_at(r: SeatReading, ambush: int, outlaws: int) -> int:
    """The most fame a known traveller gives an ambush of ``outlaws`` at ``ambush``,
    if it reaches it before any other ambush strong enough."""
    best = 0
    for c in known_travellers(r):
        if c.strength > outlaws:
            continue
        for b in c.route:
            if b == ambush:
                best = max(best, c.fame)
                break
            if strength_here(r.ambushes[b]) >= c.strength:
                break
    return best
