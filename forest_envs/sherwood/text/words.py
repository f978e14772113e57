"""Sherwood Forest in words for people: the pending decision as a sentence (``prompt``) and
the names every text uses for seats, travellers, ambushes and cards.

Everything here is written for one observer (``None``: the referee) from what that observer
may know: a face-down traveller is named by its place and deck letter, with its numbers only
for a seat that looked at it in the inn (and the loot an offer told, which is public); another
seat's hand is never named. A decision that is put to every seat holding cards (the forest
cloak, provisions, the messenger's clothes) is worded the same whatever the seat holds.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable

from ..components import (
    AMBUSHES,
    CARDS,
    CHURCH_FORCED_ABOVE,
    EQUIPMENT,
    REROUTE,
    TOWNS,
    WEAPON_STRENGTH,
)
from ..observation import DECISIONS, Kind

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


def may_see_slot(state, s: int, observer: int | None) -> bool:
    """Whether ``observer`` may know the card laid out in place ``s``."""
    if observer is None or state.slot_face_up[s]:
        return True
    return bool(state.peek[observer, s].any())


def traveller(state, s: int, observer: int | None, short: bool = False) -> str:
    """The laid-out traveller in place ``s`` as ``observer`` may know it."""
    cid = state.slots[s]
    if cid < 0:
        return f"traveller {s + 1}"
    if may_see_slot(state, s, observer):
        return f"traveller {s + 1} ({card_text(cid, short)})"
    told = state.slot_told[s].tolist()
    known = f"; its loot told: {loot_text(*told[1:])}" if told[0] else ""
    return f"traveller {s + 1} (face down, {CARDS[cid].deck}{known})"


def coach_text(state, short: bool = True) -> str:
    """The traveller on the road (its card is face up), with a changed destination."""
    coach = state.coach
    c = CARDS[coach.card]
    who = "the Sheriff" if c.sheriff else "the traveller"
    text = f"{who} ({card_text(coach.card, short, sheriff_word=False)}"
    if coach.destination != c.destination:
        text += f", now to {TOWNS[coach.destination]}"
    return text + ")"


def band(state, a: int) -> str:
    """Who lies in ambush ``a``: ``P0 3, P1 2 outlaws``."""
    outs = state.ambush_outlaws[a].tolist()
    parts = [f"{seat(q)} {k}" for q, k in enumerate(outs) if k]
    return ", ".join(parts) + (" outlaw" if sum(outs) == 1 else " outlaws")


def wrap(text: str) -> str:
    """``text`` in lines of at most ``WIDTH`` columns (continuations indented)."""
    return textwrap.fill(text, WIDTH, subsequent_indent="    ", break_long_words=False,
                         break_on_hyphens=False)


# --- the prompt -------------------------------------------------------------------------------
def prompt(state, observer: int | None = None) -> str:
    """The pending decision as a sentence for people, as ``observer`` may know it, in lines
    of at most ``WIDTH`` columns."""
    return wrap(sentence(state, observer))


def sentence(state, observer: int | None = None) -> str:
    """The pending decision as one unwrapped sentence ("The game is over." at the end)."""
    if not state.decisions:
        return "The game is over."
    kind, player, data = state.decisions[-1]
    return _PROMPTS[kind](state, player, observer, **dict(zip(_NAMES[kind], data)))


def _prep(state, p, observer, offers_made):
    gold, camp = int(state.gold[p]), int(state.camp[p])
    head = f"Round {state.round_index}, preparation: {seat(p)}"
    if gold > CHURCH_FORCED_ABOVE:
        return (f"{head} has {gold} gold in camp, more than {CHURCH_FORCED_ABOVE}: give gold to "
                "the poor at the church")
    failed = f" ({plural(offers_made, 'joint ambush offer')} failed this turn)" if offers_made else ""
    return (f"{head} ({plural(camp, 'outlaw')} in camp, {gold} gold) sends an outlaw to the church, "
            f"inn, merchant or market, lies in ambush or offers a joint ambush{failed}")


def _offer_head(state, p) -> str:
    o = state.offer
    return f"{seat(p)} offers a joint ambush at {AMBUSHES[o.ambush]} with {plural(o.own, 'own outlaw')}"


def _target(state, p, observer, ambush, own):
    return f"{_offer_head(state, p)}: mark a laid-out traveller as its target, or none"


def _informant_choices(state) -> list[int]:
    o = state.offer
    return [o.performer] + [q for q in o.allies if state.slot_marked[o.target, q]]


def _informant(state, p, observer, ambush, own):
    o = state.offer
    looked = _informant_choices(state)[1:]
    return (f"{_offer_head(state, p)} on {traveller(state, o.target, observer, short=True)}: "
            f"name the informant: {seat(p)} himself or {seats(looked, 'or')}, who looked at it "
            "in the inn")


def _asked(state) -> str:
    parts = [f"{seat(q)} {plural(c, 'outlaw')}" + (f" and {plural(e, 'card')}" if e else "")
             for q, c, e in state.offer.asked]
    return f" (asked so far: {', '.join(parts)})" if parts else ""


def _ask(state, p, observer, ambush, own, offers_made, ally):
    o = state.offer
    target = f" on {traveller(state, o.target, observer, short=True)}" if o.target >= 0 else ""
    return (f"{_offer_head(state, p)}{target}: ask {seat(ally)} ({plural(int(state.camp[ally]), 'outlaw')} "
            f"in camp, {plural(int(state.hand_count[ally]), 'card')}) for outlaws and cards{_asked(state)}")


def _terms(state, p, observer, ambush, outlaws, ally):
    o = state.offer
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


def _reveal(state, p, observer, ambush, own):
    looked = [s for s in range(len(state.slots)) if state.slots[s] >= 0 and state.slot_marked[s, p]]
    which = listing(traveller(state, s, observer, short=True) for s in looked)
    return (f"{seat(p)}'s joint ambush at {AMBUSHES[state.offer.ambush]}: tell the asked players the "
            f"loot of a traveller {seat(p)} looked at in the inn ({which}), or tell nothing")


def _answer(state, p, observer, ambush, outlaws, cards, performer):
    o = state.offer
    ask = f"send {plural(outlaws, 'outlaw')}" + (f" and promise {plural(cards, 'card')}" if cards else "")
    more = []
    if o.target >= 0:
        more.append(f"target {traveller(state, o.target, observer, short=True)}, informant "
                    f"{seat(o.informant)}")
    if p in o.terms:
        g, k, c = o.terms[p]
        if g or c:
            more.append(f"promised {plural(g, 'bag')}" + (f" and {plural(c, 'comrade')}" if c else "")
                        + " of the loot")
        if k:
            more.append(f"{k} gold paid now")
    if o.told >= 0:
        more.append(f"loot of traveller {o.told + 1} told: {loot_text(*state.slot_told[o.told, 1:].tolist())}")
    others = [f"{seat(q)} {plural(c, 'outlaw')}" for q, c, _ in o.asked if q != p]
    if others:
        more.append(f"also asked: {', '.join(others)}")
    extra = f" ({'; '.join(more)})" if more else ""
    return (f"{seat(performer)} offers {seat(p)} a joint ambush at {AMBUSHES[ambush]} "
            f"({seat(performer)} brings {o.own}): {ask}{extra}; accept or decline")


def _confirm(state, p, observer, ambush):
    shown = [f"{seat(q)} {listing(card_name(k) for k, x in enumerate(w) for _ in range(x))}"
             for q, w in enumerate(state.promised[ambush].tolist()) if any(w)]
    strength = int(state.ambush_outlaws[ambush].sum()) + sum(
        WEAPON_STRENGTH[k] * x for w in state.promised[ambush].tolist() for k, x in enumerate(w))
    return (f"{seat(p)}'s joint ambush at {AMBUSHES[ambush]} ({band(state, ambush)}; promised cards "
            f"shown: {', '.join(shown)}; strength {strength}): form it or give it up")


def _lead(state, p, observer):
    left = [s for s, c in enumerate(state.slots) if c >= 0]
    return (f"Round {state.round_index}, attacks: {seat(p)} chooses a laid-out traveller to lead "
            f"along its route: {listing((str(s + 1) for s in left), 'or')}")


def _messenger(state, p, observer):
    coach = state.coach
    towns = REROUTE[CARDS[coach.card].origin][coach.destination][coach.step]
    where = "is revealed" if coach.step == 0 else f"has passed {plural(coach.step, 'ambush')}"
    return (f"{upper_first(coach_text(state))} {where}: {seat(p)} may play the messenger's "
            f"clothes to send it to {listing((TOWNS[t] for t in towns), 'or')} instead, or pass")


def _fight_head(state, ambush, strength, total, leader) -> str:
    return (f"{coach_text(state)} at {AMBUSHES[ambush]} (leader {seat(leader)}; "
            f"{band(state, ambush)}): strength {total} of {strength}")


def _equip(state, p, observer, ambush, strength, total, leader):
    lose = "; falling short, the Sheriff crushes the ambush" if CARDS[state.coach.card].sheriff else ""
    return (f"{upper_first(_fight_head(state, ambush, strength, total, leader))}{lose}: {seat(p)} may play a "
            "weapon card (one per outlaw) or no more")


def _pledge(state, p, observer, ambush, strength, total, leader):
    promised = int(state.pledged[ambush, p])
    played = int(state.played[p].sum())
    return (f"Planned attack: {_fight_head(state, ambush, strength, total, leader)}: {seat(p)} "
            f"keeps his promise of {plural(promised, 'card')} ({played} played) with a weapon card, "
            "or renounces and calls the attack off")


def _call(state, p, observer, ambush, strength, total, leader):
    return (f"Planned attack: {_fight_head(state, ambush, strength, total, leader)}: the leader "
            f"{seat(p)} calls the next ally to keep his card promise: "
            f"{seats(state.fight.pledgers, 'or')}")


def _loot_head(state, p) -> str:
    L = state.loot
    allies = [q for q in L.order if q != p]
    return (f"{seat(p)} leads the ambush at {AMBUSHES[L.ambush]}"
            + (f" with {seats(allies)}" if allies else ""))


def _share(state, p, observer, picks, own):
    L = state.loot
    given = sum(L.shares)
    loot = f"{L.gold} gold" + (f" and {plural(L.comrades, 'comrade')}" if L.comrades else "")
    so_far = ", ".join(f"{seat(q)} {k}" for q, k in enumerate(L.shares) if k)
    done = f" (shares so far: {so_far})" if given else ""
    if own:
        return (f"{_loot_head(state, p)}: share the loot of {loot}{done}; {seat(p)} takes his own "
                f"share of round {L.round} as a bag of gold (fewer bags left for the allies' later "
                "shares) or as a new comrade")
    return (f"{_loot_head(state, p)}: share the loot of {loot}{done}; choose who of "
            f"{seats(L.tier, 'or')} gets a share ({plural(picks, 'share')} left this round)")


def _comrade(state, p, observer, comrades):
    L = state.loot
    room = state._comrade_room()
    takers = [q for q in L.order if room[q] > 0]
    return (f"{_loot_head(state, p)}: {plural(comrades, 'new comrade')} of the loot to hand out "
            f"(one per share, to a player with a figure under the oak): choose who gets one: "
            f"{seats(takers, 'or')}")


def _cloak(state, p, observer, ambush):
    return (f"{upper_first(coach_text(state))} crushed the ambush at {AMBUSHES[ambush]}: "
            f"{seat(p)} may play a forest cloak to stay or go home without losses; else "
            f"{losses(state.coach.card)}")


def _provisions(state, p, observer, ambush):
    return (f"{upper_first(coach_text(state))} was robbed at {AMBUSHES[ambush]}: {seat(p)} may play "
            "provisions to leave his outlaws in the ambush, or go home")


def _shortfall(state, p, observer, ambush, bags, comrades):
    what = plural(bags, "bag") if bags else plural(comrades, "comrade")
    laid = state.advance if bags else state.advance_comrades
    due = [q for q, k in enumerate(laid[ambush].tolist()) if k]
    return (f"Planned attack at {AMBUSHES[ambush]}: the loot and the informant {seat(p)}'s gold leave "
            f"{what} of the promises unpaid: choose whose promise goes without one: {seats(due, 'or')}")


# Each kind's sentence, called with the kind's data by name (the functions' keywords differ).
_PROMPTS: dict[int, Callable[..., str]] = {
    Kind.PREP: _prep, Kind.ASK: _ask, Kind.REVEAL: _reveal, Kind.ANSWER: _answer,
    Kind.LEAD: _lead, Kind.EQUIP: _equip, Kind.SHARE: _share, Kind.COMRADE: _comrade,
    Kind.CLOAK: _cloak, Kind.PROVISIONS: _provisions, Kind.MESSENGER: _messenger,
    Kind.TARGET: _target, Kind.TERMS: _terms, Kind.INFORMANT: _informant, Kind.PLEDGE: _pledge,
    Kind.SHORTFALL: _shortfall, Kind.CALL: _call, Kind.CONFIRM: _confirm,
}
_NAMES = tuple(k.names for k in DECISIONS)   # what each kind's data carries, by name
if sorted(_PROMPTS) != list(range(len(DECISIONS))):
    raise TypeError("words._PROMPTS must write every Sherwood decision kind")
