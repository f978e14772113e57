"""The heuristic in a joint ambush's negotiation (``ask``, ``reveal``, ``answer``, ``confirm``)
and, with the additions, its binding agreement (``target``, ``informant``, ``terms``).

As performer it asks for the outlaws it planned (``preparation.choose_offer``), tells
nothing, marks no target, names itself the informant, promises nothing and forms what it
offered; as an asked ally it accepts only for at most half of its camp and where the joint
ambush will rob a known traveller worth some fame.
"""

from __future__ import annotations

from .. import actions as A
from ..components import WEAPON_STRENGTH
from .params import ACCEPT_FAME
from .seat_view import SeatView
from .valuation import known_travellers, strength_here


def choose_ask(agent, sv: SeatView, mask):
    """The outlaws it planned to ask of this ally (no cards); one outlaw where somebody
    must be asked and it planned nobody (the last ally with nobody asked yet, or an
    informant, who must take part: every asked ally has an outlaw in camp)."""
    ally = sv.data.ally
    want = agent.asks.get(ally, 0)
    c = min(want, sv.camp[ally])
    action = A.ASK.id(c, 0)
    return action if mask[action] else A.ASK.id(1, 0)


def choose_reveal(agent, sv, mask):
    return A.REVEAL_NONE.start


def choose_target(agent, sv, mask):
    return A.TARGET_NONE.start


def choose_terms(agent, sv, mask):
    return A.TERMS.id(0, 0, 0)


def choose_informant(agent, sv, mask):
    return A.INFORMANT.start                 # itself


def choose_confirm(agent, sv, mask):
    # It asks for the strength it needs (outlaws, no cards), so it forms what it offered.
    return A.CONFIRM.id(A.CONFIRM_FORM)


def choose_answer(agent, sv: SeatView, mask):
    """Join only an ambush that will rob a known traveller worth some fame, for at most
    half of its camp: every participant gains the fame, the performer most of the
    loot, and outlaws sent away are missing from its own ambush."""
    offer = sv.offer
    assert offer is not None  # an answer is to the offer on the table
    outlaws = offer.own + sum(c for _, c, _ in offer.asked)
    legal = [a for a in range(A.ACCEPT.start, A.ACCEPT.stop) if mask[a]]
    if (not legal or sv.data.outlaws * 2 > sv.camp[sv.seat]
            or fame_at(sv, sv.data.ambush, outlaws) < ACCEPT_FAME):
        return A.DECLINE.start
    return min(legal, key=lambda a: sum(w * s for w, s in zip(A.ACCEPT.index(a), WEAPON_STRENGTH)))


def fame_at(sv: SeatView, ambush: int, outlaws: int) -> int:
    """The most fame a known traveller gives an ambush of ``outlaws`` at ``ambush``,
    if it reaches it before any other ambush strong enough."""
    best = 0
    for c in known_travellers(sv):
        if c.strength > outlaws:
            continue
        for b in c.route:
            if b == ambush:
                best = max(best, c.fame)
                break
            if strength_here(sv.ambushes[b]) >= c.strength:
                break
    return best
