"""The heuristic's preparation turn (``prep``): what little it prepares, the ambush with the
most expected loot, and the joint ambushes it offers.

Every action costs an outlaw that would otherwise fight, and the first camp to empty earns a
fame point, so it spends few actions before its ambush (measured against random players:
the inn's look at one card was worth less than the outlaw, an early church visit less than
one visit for all the gold at the end).
"""

from __future__ import annotations

from .. import actions as A
from ..components import CHURCH_FORCED_ABOVE, OUTLAWS_PER_COLOUR, ROUNDS
from .params import BUY_BELOW, MARKET_ROUNDS, SMALL_JOINT, SPARE_OUTLAWS, TIE_JITTER
from .seat_view import SeatView
from .valuation import Forces, candidates, known_travellers


def choose_prep(agent, sv: SeatView, mask):
    seat = sv.seat
    gold, camp = sv.gold[seat], sv.camp[seat]
    # Gold held at the game's end is worth nothing: into the church when forced and, in
    # the last round, all of it at once.
    if gold > CHURCH_FORCED_ABOVE or (gold and sv.round >= ROUNDS):
        return A.CHURCH.id(gold - 1)
    if sv.round <= MARKET_ROUNDS and camp >= SPARE_OUTLAWS and mask[A.MARKET.start]:
        return A.MARKET.start
    if sv.hand_count[seat] < BUY_BELOW and camp >= SPARE_OUTLAWS and mask[A.MERCHANT.start]:
        return A.MERCHANT.start
    forces = Forces(sv)
    scores = ambush_scores(sv, mask, camp, forces)
    if scores is None:
        return inn(sv)
    best = best_ambush(agent, scores)
    offer = choose_offer(agent, sv, mask, camp, forces, scores)
    return A.AMBUSH.id(best, camp - 1) if offer is None else offer


def inn(sv: SeatView) -> int:
    """Every ambush is taken, so its outlaws cannot fight this round: to the inn (it
    costs no gold), at a face-down traveller it has not seen, else the first one. In the
    preparation phase every laid-out traveller lies there, so the inn is always open."""
    laid_out = [s for s, slot in enumerate(sv.slots) if slot is not None]
    unseen = [s for s, slot in enumerate(sv.slots) if slot is not None and slot.card is None]
    return A.INN.id((unseen or laid_out)[0])


def best_ambush(agent, scores: dict[int, float]) -> int:
    """The free ambush with the most expected loot (``ambush_scores``), ties broken by a
    small random jitter from the agent's generator: one draw per free ambush, in ambush
    order, at every call."""
    jitter = agent.rng.random(len(scores)).tolist()
    return max(zip(scores, jitter), key=lambda aj: scores[aj[0]] + TIE_JITTER * aj[1])[0]


def ambush_scores(sv: SeatView, mask, camp, forces: Forces) -> dict[int, float] | None:
    """The expected loot of each free ambush for all ``camp`` outlaws (None: none is
    free), the sum of every laid-out traveller's ``loot_reached``, in place order.
    Face-down travellers of one deck letter are the same cards: their loot is followed
    once per letter and added for each of them."""
    first = A.AMBUSH.id(0, camp - 1)
    free_row = mask[first:A.AMBUSH.stop:OUTLAWS_PER_COLOUR].tolist()
    scores = {a: 0.0 for a, free in enumerate(free_row) if free}
    if not scores:
        return None
    strength, oak, additions = forces.own(camp), sv.oak[sv.seat], sv.additions
    by_deck: dict[str, list[tuple[int, float]]] = {}  # a face-down traveller's reach, by deck
    for slot in sv.slots:
        if slot is None:
            continue
        if slot.card is not None:
            reached = loot_reached(candidates(slot, additions), strength, oak, scores, forces.public)
        else:
            found = by_deck.get(slot.deck)
            if found is None:
                found = by_deck[slot.deck] = loot_reached(
                    candidates(slot, additions), strength, oak, scores, forces.public)
            reached = found
        for b, loot in reached:
            scores[b] += loot
    return scores


def loot_reached(cards, strength: int, oak: int, free, public: list[int]) -> list[tuple[int, float]]:
    """The expected loot one laid-out traveller (``cards``: what it may be, weighted) brings
    each ``free`` ambush of ``strength``, as (ambush, loot) in the order the scores add them
    (float sums depend on the order): it drives this round and robs the first ambush on its
    route strong enough (a fork passed twice is two chances); (additions) a Sheriff fights
    every ambush he passes: his fame where it beats him, a loss where he crushes it."""
    reached = []
    for c, weight in cards:
        if c.sheriff:
            gain = weight * (c.fame if strength >= c.strength else -c.crush_loss(oak))
            reached += [(b, gain) for b in c.stops if b in free]
        elif c.strength <= strength:
            loot = weight * c.loot
            for b in c.route:
                if b in free:
                    reached.append((b, loot))
                elif public[b] >= c.strength:
                    break               # robbed there before it reaches the rest
    return reached


# --- offers -----------------------------------------------------------------------------------
def choose_offer(agent, sv: SeatView, mask, camp, forces: Forces, scores: dict[int, float]):
    """A joint ambush for a known traveller its own strength does not reach, asking the
    player with most outlaws in camp for the rest; or, with two outlaws or fewer left, a
    small joint ambush at the best free ambush (``scores``). Each offer is tried once per
    turn (a decline costs nothing). The outlaws it will ask of the partner go to
    ``agent.asks``, which its ``ask`` decisions read."""
    if sv.data.offers_made > 0:
        return None
    others = [(c, q) for q, c in enumerate(sv.camp) if q != sv.seat and c >= 1]
    if not others:
        return None
    top, partner = max(others)
    strength = forces.own(camp)
    first = A.JOINT.id(0, camp - 1)
    free_row = mask[first:A.JOINT.stop:OUTLAWS_PER_COLOUR].tolist()      # by ambush
    best, best_value = None, 0.0
    for c in known_travellers(sv):
        if c.sheriff or not strength < c.strength <= strength + top:
            continue
        for a in c.route:
            if not free_row[a]:
                if forces.public[a] >= c.strength:
                    break
                continue
            if c.loot > best_value:
                best, best_value = (A.JOINT.id(a, camp - 1), c.strength - strength), c.loot
            break
    if best is None and camp <= SMALL_JOINT and top >= SMALL_JOINT:
        a = best_ambush(agent, scores)
        best = (A.JOINT.id(a, camp - 1), SMALL_JOINT)
    if best is None:
        return None
    agent.asks = {partner: best[1]}
    return best[0]
