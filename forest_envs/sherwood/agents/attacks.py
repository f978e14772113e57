"""The heuristic in the attack phase: which traveller it leads (``lead``), the cards it plays
at an ambush (``equip``), and with the additions the messenger's clothes (``messenger``),
the forest cloak (``cloak``) and a planned attack's promises (``pledge``, ``call``).

It leads the traveller worth most to it (its own ambush robs it: its loot; another player's:
minus his fame; a Sheriff: the ambushes he crushes), plays the weakest card that closes the
gap (only when its cards can close it), sends a coach where the rest of the journey is worth
more to it, goes home under a forest cloak when it holds one, keeps an equipment promise
while it holds weapons and, as leader, calls first the ally with least fame.
"""

from __future__ import annotations

from .. import actions as A
from ..components import CARDS, WEAPON_STRENGTH, reroute
from .loot import seat_action
from .params import PASSED_SHERIFF, REROUTE_MARGIN
from .seat_view import SeatView
from .valuation import TRAVELLERS, WEAPONS_WEAKEST_FIRST, Forces, Traveller, candidates

WEAPONS_STRONGEST_FIRST = WEAPONS_WEAKEST_FIRST[::-1]


def choose_lead(agent, sv: SeatView, mask):
    """The laid-out traveller worth most to it (every one the mask offers lies there).
    Face-down travellers of one deck letter are the same cards, so they are worth the
    same: weighed once per letter."""
    fights, oak, additions = Forces(sv).fights(), sv.oak[sv.seat], sv.additions

    def worth(slot) -> float:
        return sum(w * drive_value(fights, oak, c, c.route) for c, w in candidates(slot, additions))

    scores, by_deck = {}, {}
    leads = mask[A.LEAD.start:A.LEAD.stop].tolist()
    for s, slot in enumerate(sv.slots):
        if slot is None or not leads[s]:
            continue
        if slot.card is not None:
            scores[s] = worth(slot)
            continue
        deck = slot.deck
        if deck not in by_deck:
            by_deck[deck] = worth(slot)
        scores[s] = by_deck[deck]
    return A.LEAD.id(max(scores, key=scores.__getitem__))


def drive_value(fights, oak: int, c: Traveller, route) -> float:
    """Follow a traveller along ``route`` past the ambushes (``Forces.fights``): the first
    one strong enough robs it. (Additions) A Sheriff crushes every weaker ambush on his
    way."""
    value = 0.0
    for b in route:
        fight = fights[b]
        if fight is None:
            continue
        strength, mine, outlaws = fight
        if strength < c.strength:
            if c.sheriff:
                value += -c.crush_loss(oak) if mine else PASSED_SHERIFF * c.fame_loss
            continue
        if c.sheriff:
            return value + (c.fame if mine else -c.fame)
        if mine:
            return c.loot * mine / outlaws + c.fame
        return -c.fame
    return value


def choose_equip(agent, sv: SeatView, mask):
    seat = sv.seat
    need = sv.data.strength - sv.data.total
    e = sv.ambushes[sv.data.ambush]
    assert e is not None  # the ambush fighting now: somebody lies in it
    capacity = e.outlaws[seat] - sum(e.promised[seat]) - sum(sv.played)
    weapons = sorted(weapon_strengths(sv), reverse=True)[:max(capacity, 0)]
    if sum(weapons) < need:
        return A.EQUIP_PASS.start
    # The weakest card that closes the gap at once, else the strongest towards it.
    for k in WEAPONS_WEAKEST_FIRST:
        if sv.hand[k] and WEAPON_STRENGTH[k] >= need:
            return A.EQUIP.start + k
    for k in WEAPONS_STRONGEST_FIRST:
        if sv.hand[k]:
            return A.EQUIP.start + k
    return A.EQUIP_PASS.start


def weapon_strengths(sv: SeatView) -> list[int]:
    """The strength of each weapon card in its hand, weakest first."""
    return [WEAPON_STRENGTH[k] for k in WEAPONS_WEAKEST_FIRST for _ in range(sv.hand[k])]


def choose_messenger(agent, sv: SeatView, mask):
    """(Additions) Send the coach where the rest of its journey is worth most to it (into
    its own ambush, away from another's), if that beats the journey it is on."""
    coach = sv.coach
    assert coach is not None  # a messenger is sent to the coach on the road
    passed = coach.step
    c, fights, oak = TRAVELLERS[coach.card], Forces(sv).fights(), sv.oak[sv.seat]
    best = A.MESSENGER_PASS.start
    best_value = drive_value(fights, oak, c, coach.route[passed:])
    origin = CARDS[coach.card].origin
    for t in range(A.MESSENGER.size):
        if mask[A.MESSENGER.start + t]:
            rest = reroute(origin, passed, t)
            value = drive_value(fights, oak, c, rest)
            if value > best_value + REROUTE_MARGIN:
                best, best_value = A.MESSENGER.start + t, value
    return best


def choose_cloak(agent, sv, mask):
    """Home under a forest cloak when it holds one, else it takes the losses."""
    home = A.CLOAK.id(A.CLOAK_GO_HOME)
    return home if mask[home] else A.CLOAK_NONE.start


def choose_pledge(agent, sv: SeatView, mask):
    # (Additions) Keep its promise with its strongest cards; renounce with none left.
    for k in WEAPONS_STRONGEST_FIRST:
        if sv.hand[k]:
            return A.EQUIP.start + k
    return A.RENOUNCE.start


def choose_call(agent, sv: SeatView, mask):
    """(Additions) As leader of a planned attack, it calls first the ally with least fame
    (whose cards are spent if the strength is reached before the others are needed)."""
    return seat_action(sv, mask, A.CALL)     # never itself: the leader promised nothing
