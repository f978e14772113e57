"""What cards and castles are worth to a seat.

A collection is worth its *shaped* final score: the rulebook's loot glory
(``scoring.loot_glory``: busts, chest majority, single garments, jewelry, Maid Marihen,
henchmen) plus what it promises for the rounds still to come (the chest majority grows,
the Maid finds more treasure types) plus values for the Legendary cards. A card is worth
the change it makes to that score; a benefactor is worth its alms: to me along my best
snake this round (``alms_routes``), to an opponent a flat ``opp_alms_value`` each. An
unseen card is worth the mean over the cards the seat has not seen.

A castle is worth its glory (if its pile still has a card) minus a small price per value
for raiding later next round, plus its cards: to me those I know of (face up, my own and
spied face-down ones) and the rest at the unseen mean; to an opponent as that opponent
sees it (face-up cards known, every face-down card at its unseen mean).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from operator import add, mul
from typing import NamedTuple

from ..components import (
    BENEFACTOR_ALMS,
    BUST,
    CHEST0,
    ENTERTAINERS,
    FAKE_BEARD,
    GARMENT0,
    GOLDEN_ARROW,
    HENCHMAN,
    JEWEL0,
    KEY,
    MAID,
    NUM_TREASURE_KINDS,
    SPY_GLASS,
)
from ..rules.scoring import (
    chest_score,
    garment_score,
    henchmen_score,
    jewelry_score,
    loot_glory,
    maid_score,
    resolve_busts,
)
from .alms_routes import cell_values, route_value
from .params import Params
from .seat_view import Cards, Castle, SeatView

LEGENDARY_KINDS = (SPY_GLASS, KEY, ENTERTAINERS, GOLDEN_ARROW, FAKE_BEARD)


def shaped_value(coll: tuple, rounds_after: int, legendary: bool, p: Params) -> float:
    """A collection's loot glory plus its promise (see the module docstring).

    The chest majority ``top`` is expected to grow by ``f`` chests (``chest_future`` per
    round left, at most ``chest_future_cap``): its square grows by about ``2 f top``. A Maid
    Marihen finds more treasure types while rounds remain (up to +2)."""
    promise = Promise.of(rounds_after, p)
    top = 0
    if promise.chests:
        chests = coll[CHEST0:CHEST0 + 4]
        top = max(resolve_busts(chests, coll[BUST]) if coll[BUST] else chests)
    return promise.value(loot_glory(coll), top, coll[MAID],
                         legendary_value(coll, rounds_after, p) if legendary else None)


class Promise(NamedTuple):
    """What the rounds to come add to a collection's glory: ``chests`` more of its
    majority type, ``maid`` glory if it holds a Maid Marihen."""

    chests: float
    maid: float

    @staticmethod
    @functools.lru_cache(maxsize=64)
    def of(rounds_after: int, p: Params) -> Promise:
        return Promise(min(p.chest_future_cap, p.chest_future * rounds_after),
                       min(2.0, 0.5 * rounds_after))

    def value(self, glory: int, top: int, maids: int, legendary: float | None) -> float:
        """The shaped value of a collection of this loot ``glory``, chest majority ``top``
        (after the busts) and ``maids``, plus its ``legendary`` value (None: not that
        variant), summed always in this order, so that two ways of finding the parts give
        the same float (``loot_marginals``)."""
        value = float(glory)
        if self.chests:
            value += 2 * self.chests * top
        if maids:
            value += self.maid
        if legendary is not None:
            value += legendary
        return value


# The shaped value of a collection held, asked at every decision; a collection with cards
# added (a castle's, one more card) is valued once, in a memo of its own (``loot_gains``,
# ``loot_marginals``), so only the collections held are kept here.
held_value = functools.lru_cache(maxsize=1 << 12)(shaped_value)


def legendary_value(coll: Sequence[int], rounds_after: int, p: Params) -> float:
    """What the Legendary cards held are worth beyond their (zero) glory: the spy glass per
    round it can still be used, the key (half in the last round, when only this round's
    raids remain), the end-of-game cards by their measured gain; the fake beard +3 more
    when there is a henchman to give away."""
    value = 0.0
    if coll[SPY_GLASS]:
        value += p.spy_value * rounds_after
    if coll[KEY]:
        value += p.key_value if rounds_after else 0.5 * p.key_value
    if coll[ENTERTAINERS]:
        value += p.ent_value
    if coll[GOLDEN_ARROW]:
        value += p.arrow_value
    if coll[FAKE_BEARD]:
        value += p.beard_value + (3 if coll[HENCHMAN] else 0)
    return value


def loot_gain(coll: tuple, loot: tuple, rounds_after: int, legendary: bool, p: Params) -> float:
    """Shaped value gained by adding ``loot`` (counts by kind) to ``coll``; for one card,
    its marginal (the same float, ``loot_marginals``: a castle's cards are often one)."""
    if sum(loot) == 1:
        return loot_marginals(coll, rounds_after, legendary, p)[loot.index(1)]
    return (shaped_value(tuple(map(add, coll, loot)), rounds_after, legendary, p)
            - held_value(coll, rounds_after, legendary, p))


@functools.lru_cache(maxsize=1 << 10)
def loot_gains(coll: tuple, rounds_after: int, legendary: bool, p: Params) -> dict:
    """The memo of ``loot_gain`` for one collection, by loot, filled as the values are
    asked (``Valuer.cards_value``). A collection stays the same from one raid to the next,
    so the cards at the castles are valued once for it, one plain lookup each after that."""
    return {}


@functools.lru_cache(maxsize=1 << 12)
def loot_marginals(coll: tuple, rounds_after: int, legendary: bool, p: Params) -> tuple:
    """Shaped value of one more card of each kind (0.0 for benefactors: they give alms; and
    for the Legendary cards outside their variant).

    Each is ``shaped_value`` of the collection with the card added, less the collection's,
    but only the parts of the loot glory the kind enters are scored again (with the
    scoring's own functions), and the value with the card is summed as ``shaped_value``
    sums it, from the same integer glory and the same terms: every marginal is the same
    float bit for bit (tests/chickwood/test_agents.py compares them with the definition)."""
    base = held_value(coll, rounds_after, legendary, p)
    out = [0.0] * len(coll)
    value = Promise.of(rounds_after, p).value
    held = list(coll[CHEST0:CHEST0 + 4])
    busts, maids = coll[BUST], coll[MAID]
    garments = list(coll[GARMENT0:GARMENT0 + 4])
    jewels = list(coll[JEWEL0:NUM_TREASURE_KINDS])
    held_legendary = legendary_value(coll, rounds_after, p) if legendary else None

    # the parts of the glory as they stand
    chests = resolve_busts(held, busts) if busts else held
    chest_part, top = chest_score(chests), max(chests)
    garment_part, jewelry_part = garment_score(garments), jewelry_score(jewels)
    maid_part = maid_score(chests + garments + jewels, maids)
    henchmen_part = henchmen_score(coll[HENCHMAN])
    # a chest or a bust: the chests (after the busts), and the treasure types a Maid counts
    others = garment_part + jewelry_part + henchmen_part
    for k in (CHEST0, CHEST0 + 1, CHEST0 + 2, CHEST0 + 3, BUST):
        more, more_busts = list(held), busts
        if k == BUST:
            more_busts += 1
        else:
            more[k - CHEST0] += 1
        now = resolve_busts(more, more_busts) if more_busts else more
        glory = chest_score(now) + others + maid_score(now + garments + jewels, maids)
        out[k] = value(glory, max(now), maids, held_legendary) - base
    # a garment or a jewel: its own part, and the treasure types
    others = chest_part + henchmen_part
    for g in range(len(garments)):
        more = list(garments)
        more[g] += 1
        glory = others + garment_score(more) + jewelry_part + maid_score(chests + more + jewels,
                                                                         maids)
        out[GARMENT0 + g] = value(glory, top, maids, held_legendary) - base
    for j in range(len(jewels)):
        more = list(jewels)
        more[j] += 1
        glory = others + garment_part + jewelry_score(more) + maid_score(chests + garments + more,
                                                                         maids)
        out[JEWEL0 + j] = value(glory, top, maids, held_legendary) - base
    glory = chest_part + garment_part + jewelry_part + henchmen_part
    out[MAID] = value(glory + maid_score(chests + garments + jewels, maids + 1), top, 1,
                      held_legendary) - base
    # a henchman and the Legendary cards: the henchmen's part, the Legendary value
    for k in (HENCHMAN, *LEGENDARY_KINDS) if legendary else (HENCHMAN,):
        more = list(coll)
        more[k] += 1
        out[k] = value(glory + maid_part + henchmen_score(more[HENCHMAN]) - henchmen_part, top,
                       maids, legendary_value(more, rounds_after, p) if legendary else None) - base
    return tuple(out)


@functools.lru_cache(maxsize=1 << 13)
def seat_marginals(coll: tuple, rounds_after: int, legendary: bool, alms_left: int,
                   route_values: tuple | None, p: Params) -> tuple:
    """One more card of each kind to a seat holding ``coll`` with ``alms_left`` alms: its
    loot marginals, and for each benefactor its alms, along my best snake over
    ``route_values`` (``cell_values``) or, for an opponent (None), at ``opp_alms_value``
    each. Collections and alms stay the same all through scouting, so most decisions of a
    round ask again."""
    out = list(loot_marginals(coll, rounds_after, legendary, p))
    for k, alms in BENEFACTOR_ALMS.items():
        out[k] = seat_alms_value(alms, alms_left, route_values, p)
    return tuple(out)


def seat_alms_value(alms: int, alms_left: int, route_values: tuple | None, p: Params) -> float:
    """What ``alms`` alms given this round are worth to a seat with ``alms_left`` left
    (no more than it has): along my best snake over ``route_values``, or (None) to an
    opponent."""
    alms = min(alms, alms_left)
    if not alms:
        return 0.0
    if route_values is not None:
        return route_value(alms_left, route_values, alms)
    return p.opp_alms_value * alms


class Valuer:
    """The values one decision needs, computed once: each seat's value of one more card of
    each kind and of an unseen card, my value of each open castle and each opponent's."""

    def __init__(self, sv: SeatView, p: Params):
        self.sv, self.p = sv, p
        self.cell_values = cell_values(sv, p)
        # per seat: what alms are worth to it (route values: mine only), its loot gains' memo
        self._alms_args = [(alms_left, self.cell_values if seat == sv.me else None)
                           for seat, alms_left in enumerate(sv.alms_left)]
        self._alms_values: list[dict[int, float]] = [{} for _ in sv.colls]
        self._loot_gains = [loot_gains(coll, sv.rounds_after, sv.legendary, p)
                            for coll in sv.colls]
        self.marginals = [seat_marginals(coll, sv.rounds_after, sv.legendary, alms_left,
                                         route_values, p)
                          for coll, (alms_left, route_values) in zip(sv.colls, self._alms_args)]
        total = sv.pool_total
        self.unseen = [sum(map(mul, sv.pool, marg)) / total if total else 0.0
                       for marg in self.marginals]
        self.term = {c.value: self._castle_term(c) for c in sv.castles.values()}
        open_castles = sv.open_castles()
        self.mine = {c.value: self.my_castle_value(c) for c in open_castles}
        self.seen = {o: {c.value: self.seen_castle_value(o, c) for c in open_castles}
                     for o in sv.opponents()}

    def _castle_term(self, c: Castle) -> float:
        """The castle's glory if its pile still has a card, minus the price of raiding later
        next round (nothing in the last round)."""
        glory = c.value if c.pile_left > 0 else 0
        return glory - self.p.order_price * c.value if self.sv.rounds_after else float(glory)

    def cards_value(self, seat: int, cards: Cards) -> float:
        """What taking ``cards`` is worth to ``seat``: the alms' value, plus the loot's gain
        (asked for every castle and play: both are kept, per decision and per collection)."""
        loot, alms = cards
        value = 0.0
        if alms:
            known = self._alms_values[seat]
            found = known.get(alms)
            if found is None:
                alms_left, route_values = self._alms_args[seat]
                found = known[alms] = seat_alms_value(alms, alms_left, route_values, self.p)
            value = found
        if loot is not None:
            gains = self._loot_gains[seat]
            gain = gains.get(loot)
            if gain is None:
                sv = self.sv
                gain = gains[loot] = loot_gain(sv.colls[seat], loot, sv.rounds_after,
                                               sv.legendary, self.p)
            value += gain
        return value

    def my_castle_value(self, c: Castle) -> float:
        """What raiding ``c`` is worth to me."""
        return self.my_castle_values(c, (None,))[None]

    def my_castle_values(self, c: Castle, extras) -> dict:
        """What raiding ``c`` is worth to me with one more card of mine of each kind in
        ``extras`` (None: none more), by kind: the castle's term, the cards I know of, the
        others at the unseen mean, less the penalty for cards dumped there."""
        me = self.sv.me
        term, known = self.term[c.value], c.known
        unknown = c.unknown * self.unseen[me]
        dumped = self.p.dump_penalty * c.dumped
        return {k: term + self.cards_value(me, known if k is None else known.plus(k))
                + unknown - dumped for k in extras}

    def seen_castle_value(self, o: int, c: Castle) -> float:
        """What opponent ``o`` can see raiding ``c`` is worth: the face-up cards known, each
        face-down card at its unseen mean."""
        return self.term[c.value] + self.cards_value(o, c.up) + c.face_down * self.unseen[o]

    def seen_after_play(self, c: Castle, kind: int, face_down: bool) -> dict[int, float]:
        """``seen_castle_value`` of each opponent after a card of ``kind`` is played to ``c``
        (face down: one more unseen card)."""
        if face_down:
            return {o: seen[c.value] + self.unseen[o] for o, seen in self.seen.items()}
        shown = c.up.plus(kind)
        return {o: self.term[c.value] + self.cards_value(o, shown) + c.face_down * self.unseen[o]
                for o in self.seen}
