"""What a Sherwood Forest move did, in words (``consequences``), as one observer may know it.

``consequences(before, after, observer)`` compares the state before a move with the state
after it and returns short phrases for a log line: who robbed which traveller where and with
what strength, the ambushes a coach passed, the Sheriff's result, offers made, accepted or
failed, binding agreements made, kept or ended, equipment bought and discarded, camps
emptied, the round's end and the game's, and then each seat's net gains and losses of fame,
gold and outlaws. Only what ``observer`` may know is named: the traveller a seat looks at in
the inn and the card a seat buys are named to that seat (and the referee, ``None``) only; a
coach's card is public once it is led. Where a move names a seat relatively (``give a share
to +1``) the phrase names it absolutely; such a move is public, so the move is found by
trying the legal ones (``move_taken``), never for a move another seat may not read.
"""

from __future__ import annotations

import numpy as np

from .. import actions as A
from ..components import (
    AMBUSHES,
    CARDS,
    EQUIPMENT,
    WEAPON_STRENGTH,
)
from ..observation import Kind
from .coach_drive import FIGHTS, drive, robbery_text
from .move_facts import (
    cloak_stays,
    coach_card,
    crush_over,
    move_taken,
    named_seat,
    participants,
    robbery_fame,
)
from .view import reading
from .words import (
    card_name,
    card_text,
    listing,
    loot_text,
    plural,
    seat,
    seats,
    sheriff_terms,
    verb,
)

_DRIVES = (Kind.LEAD, Kind.MESSENGER, Kind.EQUIP, Kind.PLEDGE, Kind.CLOAK)


def consequences(before, after, observer: int | None = None) -> list[str]:
    """Phrases saying what the move that took ``before`` to ``after`` did, as ``observer``
    may know it (``None``: the referee)."""
    d = before.decision
    if d is None:
        return []
    out = _HEADLINES.get(d.kind, _nothing)(before, after, observer, d)
    if d.kind in _DRIVES:
        out += drive(before, after, d)
    out += _agreements(before, after)
    out += _discards(before, after)
    out += _camps_emptied(before, after)
    out += _phases(before, after)
    out += _ledger(before, after)
    return out


def _nothing(before, after, observer, d) -> list[str]:
    return []


def _band_size(state, q: int) -> int:
    """q's figures out of the oak and not laid out for a promise."""
    return int(state.camp[q] + state.places[q].sum() + state.ambush_outlaws[:, q].sum())


# --- the move itself --------------------------------------------------------------------------
def _prep(before, after, observer, d) -> list[str]:
    p = d.player
    out: list[str] = []
    if after.round_index != before.round_index:
        return out
    looked = [s for s in range(len(before.slots))
              if after.slot_marked[s, p] and not before.slot_marked[s, p]]
    if looked:
        known = reading(after, observer).slots   # the travellers as the observer knows them
        for s in looked:
            slot = known[s]
            if slot is not None and slot.card is not None:
                out += _card_phrases(s, slot.card)
    bought = (after.hand[p] - before.hand[p]).tolist()
    if after.places[p, 2] > before.places[p, 2]:            # the merchant
        if not before.equip_deck:
            out.append("the discard pile is shuffled into a new equipment deck")
        got = [k for k, x in enumerate(bought) if x > 0]
        if (observer is None or observer == p) and got:
            out.append(f"{seat(p)} drew {_a(card_name(got[0]))}")
        else:
            out.append(f"{seat(p)} drew an equipment card")
    if after.places[p, 3] > before.places[p, 3]:            # the market
        out.append(f"{seat(p)} recruited an outlaw from under the oak (at the market this round)")
    return out


def _a(name: str) -> str:
    return ("an " if name[0] in "aeiou" else "a ") + name


def _ask(before, after, observer, d) -> list[str]:
    _, _, _, ally = d.data
    asked = [x for x in (after.offer.asked if after.offer else []) if x[0] == ally]
    if asked and not any(x[0] == ally for x in before.offer.asked):
        _, c, e = asked[0]
        return [f"{seat(ally)} is asked for {plural(c, 'outlaw')}" + (f" and {plural(e, 'card')}" if e else "")]
    return [f"{seat(ally)} is asked for nothing"]


def _informant(before, after, observer, d) -> list[str]:
    return [f"{seat(after.offer.informant)} is the informant"] if after.offer else []


def _terms(before, after, observer, d) -> list[str]:
    _, _, ally = d.data
    if ally == d.player:
        return [f"promised to {seat(ally)} by the informant {seat(before.offer.informant)}"]
    return [f"offered to {seat(ally)}"]


def _reveal(before, after, observer, d) -> list[str]:
    told = [s for s in range(len(after.slots)) if after.slot_told[s, 0] and not before.slot_told[s, 0]]
    return [f"the loot of traveller {s + 1}: {loot_text(*after.slot_told[s, 1:].tolist())}" for s in told]


def _formed(before, after) -> list[str]:
    """The joint ambush of ``before``'s offer stands in ``after``."""
    o = before.offer
    a = o.ambush
    outs = after.ambush_outlaws[a].tolist()
    text = (f"the joint ambush at {AMBUSHES[a]} is formed: "
            + ", ".join(f"{seat(q)} {k}" for q, k in enumerate(outs) if k) + " outlaws")
    shown = [f"{seat(q)} {listing(card_name(k) for k, x in enumerate(w) for _ in range(x))}"
             for q, w in enumerate(after.promised[a].tolist()) if any(w)]
    pledged = [f"{seat(q)} {plural(k, 'card')}" for q, k in enumerate(after.pledged[a].tolist()) if k]
    if shown or pledged:
        text += "; promised: " + ", ".join(shown + pledged)
    return [text]


def _answer(before, after, observer, d) -> list[str]:
    p = d.player
    if after.offer is None and not after.ambush_outlaws[before.offer.ambush].any():
        return [f"{seat(p)} declines: the offer fails"]
    if after.offer is not None and after.decision.kind == Kind.CONFIRM:
        a = before.offer.ambush
        shown = [f"{seat(q)} {listing(card_name(k) for k, x in enumerate(w) for _ in range(x))}"
                 for q, w in enumerate(after.promised[a].tolist()) if any(w)]
        return [f"{seat(p)} accepts; every asked player accepted: the promised cards are shown: "
                + ", ".join(shown)]
    if after.offer is None:
        return [f"{seat(p)} accepts", *_formed(before, after)]
    return [f"{seat(p)} accepts"]


def _confirm(before, after, observer, d) -> list[str]:
    if after.offer is None and before.offer is not None and after.ambush_outlaws[before.offer.ambush].any():
        return _formed(before, after)
    return ["the outlaws and promised cards go back"]


def _lead(before, after, observer, d) -> list[str]:
    card = coach_card(before, after)
    if card is None:
        return []
    return _card_phrases(before.slots.index(card), card)


def _card_phrases(s: int, card: int) -> list[str]:
    """The card in place ``s`` (a Sheriff's terms apart)."""
    return [f"traveller {s + 1} is {card_text(card)}"] + (
        [sheriff_terms(card)] if CARDS[card].sheriff else [])


def _fight(before, after, observer, d) -> list[str]:
    """An equipment card played (or none) at the ambush being passed."""
    ambush, strength, total, leader = d.data
    amb = ambush
    a = move_taken(before, after)
    if a is not None and a in A.EQUIP:
        (k,) = A.EQUIP.index(a)
        total += WEAPON_STRENGTH[k]
    if a == A.RENOUNCE.start:
        return [f"{seat(d.player)} renounces his promise: the planned attack at {AMBUSHES[amb]} is "
                "called off"]
    if robbery_fame(before, after).any():
        return [robbery_text(before.coach.card, amb, participants(before, amb), total)]
    if after.fight is not None and after.decision.kind in FIGHTS:
        return [f"strength {total} of {strength}"]
    sheriff = CARDS[before.coach.card].sheriff
    return [f"the ambush at {AMBUSHES[amb]} falls short, {total} of {strength}"
            + (": the Sheriff crushes it" if sheriff else "")]


def _call(before, after, observer, d) -> list[str]:
    called = [q for q in before.fight.pledgers if after.fight is None or q not in after.fight.pledgers]
    return [f"{seat(q)} is called to keep his promise" for q in called[:1]]


def _share(before, after, observer, d) -> list[str]:
    picks, own = d.data
    if own:                         # the leader's own share: a bag or a comrade
        a = move_taken(before, after)
        what = "a comrade" if a is not None and a in A.COMRADE else "a bag"
        return [f"{seat(d.player)} takes {what} as his own share"] + _loot_done(before, after)
    q = named_seat(before, after, A.SHARE)
    return ([] if q is None else [f"{seat(q)} gets a share"]) + _loot_done(before, after)


def _comrade(before, after, observer, d) -> list[str]:
    q = named_seat(before, after, A.COMRADE)
    return ([] if q is None else [f"{seat(q)} gets a comrade"]) + _loot_done(before, after)


def _shortfall(before, after, observer, d) -> list[str]:
    a = move_taken(before, after)
    out = []
    if a is not None and a in A.WITHHOLD:
        kind, r = A.WITHHOLD.index(a)
        q = (d.player + r) % before.num_players
        out.append(f"{seat(q)}'s promise goes without a {('bag', 'comrade')[kind]}")
    return out + _loot_done(before, after)


def _loot_done(before, after) -> list[str]:
    """The loot's hand-out ended in this move: the outlaws go home (unless provisions are
    asked about first)."""
    if after.loot is not None or after.provisioning is not None:
        return []
    return [f"the loot is handed out; the outlaws at {AMBUSHES[before.loot.ambush]} go home"]


def _cloak(before, after, observer, d) -> list[str]:
    if not crush_over(before, after):
        return []
    c = before.crush
    stays = cloak_stays(before, after, d)
    text = f"the Sheriff crushed the ambush at {AMBUSHES[c.ambush]}: its outlaws go home"
    if stays:
        text += f", but {seats(stays)} {verb(stays, 'stays')} under a forest cloak"
    return [text]


def _provisions(before, after, observer, d) -> list[str]:
    if after.provisioning is not None:
        return []
    c = before.provisioning
    stay = list(c.stay) + ([d.player] if move_taken(before, after) == A.PROVISIONS.start else [])
    text = f"the outlaws at {AMBUSHES[c.ambush]} go home"
    if stay:
        text += f", but {seats(stay)} {verb(stay, 'stays')} with provisions"
    return [text]


_HEADLINES = {
    Kind.PREP: _prep, Kind.ASK: _ask, Kind.REVEAL: _reveal, Kind.ANSWER: _answer,
    Kind.LEAD: _lead, Kind.EQUIP: _fight, Kind.PLEDGE: _fight, Kind.CALL: _call,
    Kind.SHARE: _share, Kind.COMRADE: _comrade, Kind.SHORTFALL: _shortfall,
    Kind.CLOAK: _cloak, Kind.PROVISIONS: _provisions, Kind.INFORMANT: _informant,
    Kind.TERMS: _terms, Kind.CONFIRM: _confirm,
}


# --- what follows any move --------------------------------------------------------------------
def _agreements(before, after) -> list[str]:
    out = []
    for a in sorted(set(after.targets) - set(before.targets)):
        s = int(after.ambush_target[a].argmax())
        inf = int(after.informant[a].argmax())
        out.append(f"binding agreement at {AMBUSHES[a]}: target traveller {s + 1}, informant {seat(inf)}")
        for q, (g, c) in enumerate(zip(after.advance[a].tolist(), after.advance_comrades[a].tolist())):
            if g or c:
                what = listing([x for x in (plural(g, "bag") if g else "",
                                            plural(c, "comrade") if c else "") if x])
                out.append(f"laid out for {seat(q)}: {what}")
    if after.round_index != before.round_index:
        return out + (["the binding agreements end"] if before.targets else [])
    for a in sorted(set(before.targets) - set(after.targets)):
        fame = robbery_fame(before, after)
        robbed_here = (before.loot is not None and before.loot.ambush == a) or bool(
            (fame[participants(before, a)] > 0).any())
        on_target = before.targets[a] == coach_card(before, after)
        if on_target and robbed_here:
            out.append(f"the binding agreement at {AMBUSHES[a]} is kept: the promises are collected")
            continue
        why = ("its target got away" if on_target and after.coach is None
               else "it robbed another traveller" if robbed_here
               else "the Sheriff crushed it" if after.crush is not None and after.crush.ambush == a
               else "")
        out.append(f"the agreement at {AMBUSHES[a]} ends" + (f" ({why})" if why else "")
                   + ": loot laid out goes back")
    return out


def _discards(before, after) -> list[str]:
    delta = (after.equip_discard - before.equip_discard).tolist()
    used = [EQUIPMENT[k] for k, x in enumerate(delta) for _ in range(max(x, 0))]
    return [f"discarded: {', '.join(used)}"] if used else []


def _camps_emptied(before, after) -> list[str]:
    out: list[str] = []
    if after.round_index != before.round_index:
        return out
    for q in np.argsort(after.emptied).tolist():
        rank = int(after.emptied[q])
        if rank and not before.emptied[q]:
            if rank == 1:
                out.append(f"{seat(q)}'s camp is the first to empty")
            elif rank == 2:
                out.append(f"{seat(q)}'s camp is the second to empty: {seat(q)} takes the "
                           "starting player card")
    return out


def _phases(before, after) -> list[str]:
    out = []
    if after.round_index == before.round_index and after.attack_phase[0] and not before.attack_phase[0]:
        out.append("every camp is empty: the attacks begin")
    if after.round_index != before.round_index or (after.is_terminal and not before.is_terminal):
        out.append(f"round {before.round_index} ends: every outlaw goes home")
        bonus = [q for q in range(after.num_players) if after.fork_bonus[q]]
        if after.game.additions and bonus:
            out.append(f"fork bonus: {seats(bonus)} +1 outlaw from under the oak")
    if after.is_terminal and not before.is_terminal:
        out.append("the game is over: sixth-round gold and comrades turn into fame")
        ranks = after.ranks()
        winners = [q for q, r in enumerate(ranks) if r == 1]
        out.append(f"{seats(winners)} {'wins' if len(winners) == 1 else 'win'} with "
                   f"{int(after.fame[winners[0]])} fame")
    elif after.round_index != before.round_index:
        first = next(s for s in range(len(after.slots)) if after.slot_face_up[s])
        out.append(f"round {after.round_index} begins: {seat(after.figure_seat)} holds the starting "
                   "player figure")
        out.append(f"traveller {first + 1} lies face up: {card_text(after.slots[first], short=True)}")
    return out


def _ledger(before, after) -> list[str]:
    """Each seat's net gains and losses of fame, gold and outlaws in this move."""
    loot = bool(robbery_fame(before, after).any()) or after.gold.sum() > before.gold.sum()
    changes: dict[str, list[int]] = {}
    for q in range(after.num_players):
        parts = []
        fame = int(after.fame[q]) - int(before.fame[q])
        gold = int(after.gold[q]) - int(before.gold[q])
        figures = _band_size(after, q) - _band_size(before, q)
        if fame:
            parts.append(f"{fame:+d} fame")
        if gold:
            parts.append(f"{gold:+d} gold")
        if figures:
            word = "comrade" if loot and figures > 0 else "outlaw"
            parts.append(f"{'+' if figures > 0 else '-'}{plural(abs(figures), word)}")
        if parts:
            changes.setdefault(", ".join(parts), []).append(q)
    return [f"{seats(qs)} {text}" + (" each" if len(qs) > 1 else "") for text, qs in changes.items()]
