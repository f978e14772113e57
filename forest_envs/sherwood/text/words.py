"""Sherwood Forest in words for people: the pending decision as a sentence (``sentence``;
``render.prompt`` wraps it) and the names every text uses for seats, travellers, ambushes
and cards.

Everything here is written for one observer (``None``: the referee) from that observer's
record (``view.SeatReading``), so from what it may know only: a face-down traveller is named by its place and deck letter, with its numbers only
for a seat that looked at it in the inn (and the loot an offer told, which is public); another
seat's hand is never named. A decision that is put to every seat holding cards (the forest
cloak, provisions, the messenger's clothes) is worded the same whatever the seat holds.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from typing import TYPE_CHECKING

from ..components import (
    AMBUSHES,
    CARDS,
    CHURCH_FORCED_ABOVE,
    EQUIPMENT,
    REROUTE,
    TOWNS,
)
from ..observation import DECISIONS, Kind

if TYPE_CHECKING:  # the record's module words the prompt with this one (no cycle at run time)
    from .view import SeatReading

WIDTH = 80      # no line of a text for people is longer (a terminal's width)


# --- names ------------------------------------------------------------------------------------
def seat(q: int) -> str:
    return f"P{q}"


def listing(items, last: str = "and") -> str:
    """``a``, ``a and b``, ``a, b and c`` (``last="or"``: ``a, b or c``)."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {last} " + items[-1]


def seats(qs, last: str = "and") -> str:
    return listing((seat(q) for q in qs), last)


def verb(qs, singular: str) -> str:
    """``stays`` for one seat, ``stay`` for several."""
    return singular if len(qs) == 1 else singular[:-1]


def upper_first(text: str) -> str:
    return text[:1].upper() + text[1:]


def plural(k: int, word: str) -> str:
    """``1 outlaw``, ``2 outlaws`` (``1 gold``, ``3 gold``: gold is counted in bags)."""
    if word == "gold" or k == 1:
        return f"{k} {word}"
    return f"{k} {word}es" if word.endswith("sh") else f"{k} {word}s"


def card_name(kind: int) -> str:
    return EQUIPMENT[kind]


def loot_text(fame: int, gold: int, comrades: int) -> str:
    return f"{fame} fame, {gold} gold, {plural(comrades, 'comrade')}"


def losses(card_id: int) -> str:
    """What a Sheriff takes from each loser: ``-2 fame, -1 outlaw``."""
    c = CARDS[card_id]
    parts = ([f"-{c.fame_loss} fame"] if c.fame_loss else []) + [f"-{plural(c.outlaw_loss, 'outlaw')}"]
    return ", ".join(parts)


def sheriff_terms(card_id: int) -> str:
    """What beating a Sheriff brings and what a crushed ambush loses."""
    c = CARDS[card_id]
    return f"beating the Sheriff brings {c.fame} fame each, a crushed ambush {losses(card_id)} each"


def card_text(card_id: int, short: bool = False, sheriff_word: bool = True) -> str:
    """A traveller card's numbers: ``A, strength 7 (2 fame, 4 gold, 1 comrade), Derby to
    York`` (``short``: ``A 7, Derby to York``; a Sheriff's says so unless ``sheriff_word``
    is False)."""
    c = CARDS[card_id]
    route = f"{TOWNS[c.origin]} to {TOWNS[c.destination]}"
    who = "Sheriff " if c.sheriff and sheriff_word else ""
    if short:
        return f"{who}{c.deck} {c.strength}, {route}"
    if c.sheriff:
        return f"{who}{c.deck}, strength {c.strength}, {route}"
    return f"{c.deck}, strength {c.strength} ({loot_text(c.fame, c.gold, c.comrades)}), {route}"


def traveller(r: SeatReading, s: int, short: bool = False) -> str:
    """The laid-out traveller in place ``s`` as the reader of ``r`` may know it."""
    slot = r.slots[s]
    if slot is None:
        return f"traveller {s + 1}"
    if slot.card is not None:
        return f"traveller {s + 1} ({card_text(slot.card, short)})"
    known = "" if slot.told is None else f"; its loot told: {loot_text(*slot.told)}"
    return f"traveller {s + 1} (face down, {slot.deck}{known})"


def coach_text(r: SeatReading, short: bool = True) -> str:
    """The traveller on the road (its card is face up), with a changed destination."""
    coach = r.the_coach()
    c = CARDS[coach.card]
    who = "the Sheriff" if c.sheriff else "the traveller"
    text = f"{who} ({card_text(coach.card, short, sheriff_word=False)}"
    if coach.destination != c.destination:
        text += f", now to {TOWNS[coach.destination]}"
    return text + ")"


def promised_cards(promised) -> list[str]:
    """Each seat's promised cards by name (an ambush's ``promised``): ``P1 bow and sword``."""
    return [f"{seat(q)} {listing(card_name(k) for k, x in enumerate(w) for _ in range(x))}"
            for q, w in enumerate(promised) if any(w)]


def band(r: SeatReading, a: int) -> str:
    """Who lies in ambush ``a``: ``P0 3, P1 2 outlaws``."""
    outs = r.the_ambush(a).outlaws
    parts = [f"{seat(q)} {k}" for q, k in enumerate(outs) if k]
    return ", ".join(parts) + (" outlaw" if sum(outs) == 1 else " outlaws")


def wrap(text: str) -> str:
    """``text`` in lines of at most ``WIDTH`` columns (continuations indented)."""
    return textwrap.fill(text, WIDTH, subsequent_indent="    ", break_long_words=False,
                         break_on_hyphens=False)


# --- the prompt -------------------------------------------------------------------------------
def sentence(r: SeatReading) -> str:
    """The pending decision as one unwrapped sentence, as the reader of ``r`` may know it
    ("The game is over." at the end)."""
    d = r.decision
    if d is None:
        return "The game is over."
    return _PROMPTS[d.kind](r, d.player, d.data)


def _prep(r, p, data):
    gold, camp = r.players[p].gold, r.players[p].camp
    head = f"Round {r.round}, preparation: {seat(p)}"
    if gold > CHURCH_FORCED_ABOVE:
        return (f"{head} has {gold} gold in camp, more than {CHURCH_FORCED_ABOVE}: give gold to "
                "the poor at the church")
    made = data.offers_made
    failed = f" ({plural(made, 'joint ambush offer')} failed this turn)" if made else ""
    return (f"{head} ({plural(camp, 'outlaw')} in camp, {gold} gold) sends an outlaw to the church, "
            f"inn, merchant or market, lies in ambush or offers a joint ambush{failed}")


def _offer_head(r, p) -> str:
    o = r.the_offer()
    return f"{seat(p)} offers a joint ambush at {AMBUSHES[o.ambush]} with {plural(o.own, 'own outlaw')}"


def _target(r, p, data):
    return f"{_offer_head(r, p)}: mark a laid-out traveller as its target, or none"


def _informant(r, p, data):
    o = r.the_offer()
    slot = r.slots[o.target]
    marked = () if slot is None else slot.marked_by
    looked = [q for q in o.allies if q in marked]
    return (f"{_offer_head(r, p)} on {traveller(r, o.target, short=True)}: "
            f"name the informant: {seat(p)} himself or {seats(looked, 'or')}, who looked at it "
            "in the inn")


def _asked(r) -> str:
    parts = [f"{seat(q)} {plural(c, 'outlaw')}" + (f" and {plural(e, 'card')}" if e else "")
             for q, c, e in r.the_offer().asked]
    return f" (asked so far: {', '.join(parts)})" if parts else ""


def _ask(r, p, data):
    o, ally = r.the_offer(), data.ally
    target = f" on {traveller(r, o.target, short=True)}" if o.target >= 0 else ""
    standing = r.players[ally]
    return (f"{_offer_head(r, p)}{target}: ask {seat(ally)} ({plural(standing.camp, 'outlaw')} "
            f"in camp, {plural(standing.hand_count, 'card')}) for outlaws and cards{_asked(r)}")


def _terms(r, p, data):
    o, outlaws, ally = r.the_offer(), data.outlaws, data.ally
    head = f"{seat(p)}'s joint ambush at {AMBUSHES[o.ambush]}"
    if ally == p:
        return (f"{head}: set the loot the informant {seat(o.informant)} promises {seat(p)} "
                "(bags and comrades laid out in advance)")
    asked = f"{seat(ally)} is asked for {plural(outlaws, 'outlaw')}"
    if o.target < 0:
        return f"{head}: {asked}; set the gold {seat(p)} pays {seat(ally)} now (no target: no loot to promise)"
    if ally == o.informant:
        return f"{head}: {asked}, the informant; set the gold {seat(p)} pays {seat(ally)} now"
    return (f"{head}: {asked}; set {seat(ally)}'s terms: bags and comrades of the loot promised by "
            f"the informant {seat(o.informant)}, and gold {seat(p)} pays now")


def _reveal(r, p, data):
    looked = [s for s, slot in enumerate(r.slots) if slot is not None and p in slot.marked_by]
    which = listing(traveller(r, s, short=True) for s in looked)
    return (f"{seat(p)}'s joint ambush at {AMBUSHES[r.the_offer().ambush]}: tell the asked players the "
            f"loot of a traveller {seat(p)} looked at in the inn ({which}), or tell nothing")


def _answer(r, p, data):
    o, outlaws, cards, performer = r.the_offer(), data.outlaws, data.cards, data.performer
    ask = f"send {plural(outlaws, 'outlaw')}" + (f" and promise {plural(cards, 'card')}" if cards else "")
    more = []
    if o.target >= 0:
        more.append(f"target {traveller(r, o.target, short=True)}, informant {seat(o.informant)}")
    terms = dict(o.terms)
    if p in terms:
        g, k, c = terms[p]
        if g or c:
            more.append(f"promised {plural(g, 'bag')}" + (f" and {plural(c, 'comrade')}" if c else "")
                        + " of the loot")
        if k:
            more.append(f"{k} gold paid now")
    if o.told >= 0:
        slot = r.slots[o.told]
        if slot is None or slot.told is None:
            raise ValueError(f"the offer told the loot of traveller {o.told + 1}, which shows none")
        more.append(f"loot of traveller {o.told + 1} told: {loot_text(*slot.told)}")
    others = [f"{seat(q)} {plural(c, 'outlaw')}" for q, c, _ in o.asked if q != p]
    if others:
        more.append(f"also asked: {', '.join(others)}")
    extra = f" ({'; '.join(more)})" if more else ""
    return (f"{seat(performer)} offers {seat(p)} a joint ambush at {AMBUSHES[data.ambush]} "
            f"({seat(performer)} brings {o.own}): {ask}{extra}; accept or decline")


def _confirm(r, p, data):
    ambush = data.ambush
    entry = r.the_ambush(ambush)
    return (f"{seat(p)}'s joint ambush at {AMBUSHES[ambush]} ({band(r, ambush)}; promised cards "
            f"shown: {', '.join(promised_cards(entry.promised))}; strength {entry.strength}): "
            "form it or give it up")


def _lead(r, p, data):
    left = [s for s, slot in enumerate(r.slots) if slot is not None]
    return (f"Round {r.round}, attacks: {seat(p)} chooses a laid-out traveller to lead "
            f"along its route: {listing((str(s + 1) for s in left), 'or')}")


def _messenger(r, p, data):
    coach = r.the_coach()
    towns = REROUTE[CARDS[coach.card].origin][coach.destination][coach.step]
    where = "is revealed" if coach.step == 0 else f"has passed {plural(coach.step, 'ambush')}"
    return (f"{upper_first(coach_text(r))} {where}: {seat(p)} may play the messenger's "
            f"clothes to send it to {listing((TOWNS[t] for t in towns), 'or')} instead, or pass")


def _fight_head(r, data) -> str:
    """The fight a decision (``data``: ambush, strength, total, leader) is about."""
    return (f"{coach_text(r)} at {AMBUSHES[data.ambush]} (leader {seat(data.leader)}; "
            f"{band(r, data.ambush)}): strength {data.total} of {data.strength}")


def _equip(r, p, data):
    lose = "; falling short, the Sheriff crushes the ambush" if CARDS[r.the_coach().card].sheriff else ""
    return (f"{upper_first(_fight_head(r, data))}{lose}: {seat(p)} may play a "
            "weapon card (one per outlaw) or no more")


def _pledge(r, p, data):
    promised = r.the_ambush(data.ambush).pledged[p]
    played = sum(r.played[p])
    return (f"Planned attack: {_fight_head(r, data)}: {seat(p)} "
            f"keeps his promise of {plural(promised, 'card')} ({played} played) with a weapon card, "
            "or renounces and calls the attack off")


def _call(r, p, data):
    if r.fight is None:
        raise ValueError("no ambush is fighting")
    return (f"Planned attack: {_fight_head(r, data)}: the leader "
            f"{seat(p)} calls the next ally to keep his card promise: "
            f"{seats(r.fight.pledgers, 'or')}")


def _loot_head(r, p) -> str:
    L = r.the_loot()
    allies = [q for q in L.order if q != p]
    return (f"{seat(p)} leads the ambush at {AMBUSHES[L.ambush]}"
            + (f" with {seats(allies)}" if allies else ""))


def _share(r, p, data):
    L = r.the_loot()
    given = sum(L.shares)
    loot = f"{L.gold} gold" + (f" and {plural(L.comrades, 'comrade')}" if L.comrades else "")
    so_far = ", ".join(f"{seat(q)} {k}" for q, k in enumerate(L.shares) if k)
    done = f" (shares so far: {so_far})" if given else ""
    if data.own:
        return (f"{_loot_head(r, p)}: share the loot of {loot}{done}; {seat(p)} takes his own "
                f"share of round {L.round} as a bag of gold (fewer bags left for the allies' later "
                "shares) or as a new comrade")
    return (f"{_loot_head(r, p)}: share the loot of {loot}{done}; choose who of "
            f"{seats(L.tier, 'or')} gets a share ({plural(data.picks, 'share')} left this round)")


def _comrade(r, p, data):
    L = r.the_loot()
    takers = [q for q in L.order if L.room[q] > 0]
    return (f"{_loot_head(r, p)}: {plural(data.comrades, 'new comrade')} of the loot to hand out "
            f"(one per share, to a player with a figure under the oak): choose who gets one: "
            f"{seats(takers, 'or')}")


def _cloak(r, p, data):
    return (f"{upper_first(coach_text(r))} crushed the ambush at {AMBUSHES[data.ambush]}: "
            f"{seat(p)} may play a forest cloak to stay or go home without losses; else "
            f"{losses(r.the_coach().card)}")


def _provisions(r, p, data):
    return (f"{upper_first(coach_text(r))} was robbed at {AMBUSHES[data.ambush]}: {seat(p)} may play "
            "provisions to leave his outlaws in the ambush, or go home")


def _shortfall(r, p, data):
    ambush, bags = data.ambush, data.bags
    what = plural(bags, "bag") if bags else plural(data.comrades, "comrade")
    deal = r.the_ambush(ambush).agreement
    if deal is None:
        raise ValueError(f"no binding agreement lies at {AMBUSHES[ambush]}")
    laid = deal.advance if bags else deal.advance_comrades
    due = [q for q, k in enumerate(laid) if k]
    return (f"Planned attack at {AMBUSHES[ambush]}: the loot and the informant {seat(p)}'s gold leave "
            f"{what} of the promises unpaid: choose whose promise goes without one: {seats(due, 'or')}")


# Each kind's sentence: sentence(record, the deciding seat, the decision's data, fields by name).
_PROMPTS: dict[int, Callable[..., str]] = {
    Kind.PREP: _prep, Kind.ASK: _ask, Kind.REVEAL: _reveal, Kind.ANSWER: _answer,
    Kind.LEAD: _lead, Kind.EQUIP: _equip, Kind.SHARE: _share, Kind.COMRADE: _comrade,
    Kind.CLOAK: _cloak, Kind.PROVISIONS: _provisions, Kind.MESSENGER: _messenger,
    Kind.TARGET: _target, Kind.TERMS: _terms, Kind.INFORMANT: _informant, Kind.PLEDGE: _pledge,
    Kind.SHORTFALL: _shortfall, Kind.CALL: _call, Kind.CONFIRM: _confirm,
}
if sorted(_PROMPTS) != list(range(len(DECISIONS))):
    raise TypeError("words._PROMPTS must write every Sherwood decision kind")
