"""What a Sherwood Forest move did, in words (``happened``; ``render.consequences`` is the
state's hook), as one observer may know it.

``happened`` compares the observer's records before and after the move (``view.reading``,
held with the decision the move answered and its action as a ``move_facts.Move``) and
returns short phrases for a log line: who robbed which traveller where and with what
strength, the ambushes a coach passed, the Sheriff's result, offers made, accepted or
failed, binding agreements made, kept or ended, equipment bought and discarded, camps
emptied, the round's end and the game's, and then each seat's net gains and losses of fame,
gold and outlaws. It can name only what the observer may know: the traveller a seat looks at
in the inn and the card a seat buys are in that seat's record (and the referee's) alone; a
coach's card is public once it is led. Where a move names a seat relatively (``give a share
to +1``) the phrase names it absolutely, from the action: every move is public but an
acceptance (``move_facts.public_action``), which no phrase reads.
"""

from __future__ import annotations

from .. import actions as A
from ..components import AMBUSHES, CARDS, EQUIPMENT, WEAPON_STRENGTH
from ..observation import Kind
from .coach_drive import FIGHTS, drive, robbery_text
from .move_facts import (
    Move,
    cloak_stays,
    coach_card,
    crush_over,
    game_over,
    named_seat,
    next_kind,
    participants,
    robbed,
    robbery_fame,
)
from .view import SeatReading
from .words import (
    card_name,
    card_text,
    listing,
    loot_text,
    plural,
    promised_cards,
    seat,
    seats,
    sheriff_terms,
    verb,
)

_DRIVES = (Kind.LEAD, Kind.MESSENGER, Kind.EQUIP, Kind.PLEDGE, Kind.CLOAK)


def happened(m: Move, ranks: list[int] | None) -> list[str]:
    """Phrases saying what the move ``m`` did, as its records' observer may know it;
    ``ranks``: the final ranks when the move ended the game."""
    out = _HEADLINES.get(m.decision.kind, _nothing)(m)
    if m.decision.kind in _DRIVES:
        out += drive(m)
    out += _agreements(m)
    out += _discards(m.before, m.after)
    out += _camps_emptied(m.before, m.after)
    out += _phases(m, ranks)
    out += _ledger(m)
    return out


def _nothing(m: Move) -> list[str]:
    return []


def _band_size(r: SeatReading, q: int) -> int:
    """q's figures out of the oak and not laid out for a promise."""
    p = r.players[q]
    return p.camp + sum(p.places) + sum(a.outlaws[q] for a in r.ambushes if a is not None)


# --- the move itself --------------------------------------------------------------------------
def _prep(m: Move) -> list[str]:
    b, after, p = m.before, m.after, m.decision.player
    out: list[str] = []
    if after.round != b.round:
        return out
    for s, slot in enumerate(after.slots):     # the travellers as the observer knows them
        if slot is not None and p in slot.marked_by and p not in b.the_slot(s).marked_by:
            if slot.card is not None:
                out += _card_phrases(s, slot.card)
    if after.players[p].places[2] > b.players[p].places[2]:            # the merchant
        if not b.equipment_left:
            out.append("the discard pile is shuffled into a new equipment deck")
        hand, was = after.hands[p], b.hands[p]      # the buyer's own (and the referee's) only
        got = [] if hand is None or was is None else [k for k, (x, y) in enumerate(zip(hand, was)) if x > y]
        if got:
            out.append(f"{seat(p)} drew {_a(card_name(got[0]))}")
        else:
            out.append(f"{seat(p)} drew an equipment card")
    if after.players[p].places[3] > b.players[p].places[3]:            # the market
        out.append(f"{seat(p)} recruited an outlaw from under the oak (at the market this round)")
    return out


def _a(name: str) -> str:
    return ("an " if name[0] in "aeiou" else "a ") + name


def _ask(m: Move) -> list[str]:
    ally = m.decision.data.ally
    asked = [x for x in (m.after.the_offer().asked if m.after.offer else ()) if x[0] == ally]
    if asked and not any(x[0] == ally for x in m.before.the_offer().asked):
        _, c, e = asked[0]
        return [f"{seat(ally)} is asked for {plural(c, 'outlaw')}" + (f" and {plural(e, 'card')}" if e else "")]
    return [f"{seat(ally)} is asked for nothing"]


def _informant(m: Move) -> list[str]:
    return [f"{seat(m.after.the_offer().informant)} is the informant"] if m.after.offer else []


def _terms(m: Move) -> list[str]:
    ally = m.decision.data.ally
    if ally == m.decision.player:
        return [f"promised to {seat(ally)} by the informant {seat(m.before.the_offer().informant)}"]
    return [f"offered to {seat(ally)}"]


def _reveal(m: Move) -> list[str]:
    out = []
    for s, slot in enumerate(m.after.slots):
        was = m.before.slots[s]
        if slot is not None and slot.told is not None and (was is None or was.told is None):
            out.append(f"the loot of traveller {s + 1}: {loot_text(*slot.told)}")
    return out


def _formed(b: SeatReading, after: SeatReading) -> list[str]:
    """The joint ambush of ``b``'s offer stands in ``after``."""
    a = b.the_offer().ambush
    ambush = after.the_ambush(a)
    text = (f"the joint ambush at {AMBUSHES[a]} is formed: "
            + ", ".join(f"{seat(q)} {k}" for q, k in enumerate(ambush.outlaws) if k) + " outlaws")
    pledged = [f"{seat(q)} {plural(k, 'card')}" for q, k in enumerate(ambush.pledged) if k]
    shown = promised_cards(ambush.promised)
    if shown or pledged:
        text += "; promised: " + ", ".join(shown + pledged)
    return [text]


def _answer(m: Move) -> list[str]:
    b, after, p = m.before, m.after, m.decision.player
    a = b.the_offer().ambush
    if after.offer is None and after.ambushes[a] is None:
        return [f"{seat(p)} declines: the offer fails"]
    if after.offer is not None and next_kind(m) == Kind.CONFIRM:
        return [f"{seat(p)} accepts; every asked player accepted: the promised cards are shown: "
                + ", ".join(promised_cards(after.the_ambush(a).promised))]
    if after.offer is None:
        return [f"{seat(p)} accepts", *_formed(b, after)]
    return [f"{seat(p)} accepts"]


def _confirm(m: Move) -> list[str]:
    b, after = m.before, m.after
    if after.offer is None and b.offer is not None and after.ambushes[b.the_offer().ambush] is not None:
        return _formed(b, after)
    return ["the outlaws and promised cards go back"]


def _lead(m: Move) -> list[str]:
    card = coach_card(m)
    if card is None or m.action is None:
        return []
    (s,) = A.LEAD.index(m.action)
    return _card_phrases(s, card)


def _card_phrases(s: int, card: int) -> list[str]:
    """The card in place ``s`` (a Sheriff's terms apart)."""
    return [f"traveller {s + 1} is {card_text(card)}"] + (
        [sheriff_terms(card)] if CARDS[card].sheriff else [])


def _fight(m: Move) -> list[str]:
    """An equipment card played (or none) at the ambush being passed."""
    data, after, a = m.decision.data, m.after, m.action
    amb, total = data.ambush, data.total
    if a is not None and a in A.EQUIP:
        (k,) = A.EQUIP.index(a)
        total += WEAPON_STRENGTH[k]
    if a == A.RENOUNCE.start:
        return [f"{seat(m.decision.player)} renounces his promise: the planned attack at {AMBUSHES[amb]} is "
                "called off"]
    if robbed(m):
        return [robbery_text(m.before.the_coach().card, amb, participants(m.before, amb), total)]
    if after.fight is not None and next_kind(m) in FIGHTS:
        return [f"strength {total} of {data.strength}"]
    sheriff = CARDS[m.before.the_coach().card].sheriff
    return [f"the ambush at {AMBUSHES[amb]} falls short, {total} of {data.strength}"
            + (": the Sheriff crushes it" if sheriff else "")]


def _call(m: Move) -> list[str]:
    after = m.after
    called = [q for q in m.before.the_fight().pledgers if after.fight is None or q not in after.the_fight().pledgers]
    return [f"{seat(q)} is called to keep his promise" for q in called[:1]]


def _share(m: Move) -> list[str]:
    if m.decision.data.own:         # the leader's own share: a bag or a comrade
        what = "a comrade" if m.action is not None and m.action in A.COMRADE else "a bag"
        return [f"{seat(m.decision.player)} takes {what} as his own share"] + _loot_done(m)
    q = named_seat(m, A.SHARE)
    return ([] if q is None else [f"{seat(q)} gets a share"]) + _loot_done(m)


def _comrade(m: Move) -> list[str]:
    q = named_seat(m, A.COMRADE)
    return ([] if q is None else [f"{seat(q)} gets a comrade"]) + _loot_done(m)


def _shortfall(m: Move) -> list[str]:
    out = []
    if m.action is not None and m.action in A.WITHHOLD:
        kind, r = A.WITHHOLD.index(m.action)
        q = (m.decision.player + r) % m.before.num_players
        out.append(f"{seat(q)}'s promise goes without a {('bag', 'comrade')[kind]}")
    return out + _loot_done(m)


def _loot_done(m: Move) -> list[str]:
    """The loot's hand-out ended in this move: the outlaws go home (unless provisions are
    asked about first)."""
    if m.after.loot is not None or m.after.provisioning is not None:
        return []
    return [f"the loot is handed out; the outlaws at {AMBUSHES[m.before.the_loot().ambush]} go home"]


def _cloak(m: Move) -> list[str]:
    if not crush_over(m):
        return []
    stays = cloak_stays(m)
    text = f"the Sheriff crushed the ambush at {AMBUSHES[m.before.the_crush().ambush]}: its outlaws go home"
    if stays:
        text += f", but {seats(stays)} {verb(stays, 'stays')} under a forest cloak"
    return [text]


def _provisions(m: Move) -> list[str]:
    if m.after.provisioning is not None:
        return []
    c = m.before.the_provisioning()
    stay = list(c.stay) + ([m.decision.player] if m.action == A.PROVISIONS.start else [])
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
def _agreements(m: Move) -> list[str]:
    b, after = m.before, m.after
    made, ended = _agreement_ambushes(after), _agreement_ambushes(b)
    out = []
    for a in sorted(made - ended):
        g = after.the_agreement(a)
        out.append(f"binding agreement at {AMBUSHES[a]}: target traveller {g.target + 1}, "
                   f"informant {seat(g.informant)}")
        for q, (bags, comrades) in enumerate(zip(g.advance, g.advance_comrades)):
            if bags or comrades:
                what = listing([x for x in (plural(bags, "bag") if bags else "",
                                            plural(comrades, "comrade") if comrades else "") if x])
                out.append(f"laid out for {seat(q)}: {what}")
    if after.round != b.round:
        return out + (["the binding agreements end"] if ended else [])
    # the coach is the target where the agreement's target is on the road, or was led now
    led = A.LEAD.index(m.action)[0] if m.decision.kind == Kind.LEAD and m.action is not None else None
    on_road = -1 if b.coach is not None else led
    fame = robbery_fame(m)
    for a in sorted(ended - made):
        robbed_here = (b.loot is not None and b.the_loot().ambush == a) or any(
            fame[q] > 0 for q in participants(b, a))
        on_target = coach_card(m) is not None and b.the_agreement(a).target == on_road
        if on_target and robbed_here:
            out.append(f"the binding agreement at {AMBUSHES[a]} is kept: the promises are collected")
            continue
        why = ("its target got away" if on_target and after.coach is None
               else "it robbed another traveller" if robbed_here
               else "the Sheriff crushed it" if after.crush is not None and after.the_crush().ambush == a
               else "")
        out.append(f"the agreement at {AMBUSHES[a]} ends" + (f" ({why})" if why else "")
                   + ": loot laid out goes back")
    return out


def _agreement_ambushes(r: SeatReading) -> set[int]:
    """The ambushes that hold a binding agreement."""
    return {a for a, ambush in enumerate(r.ambushes) if ambush is not None and ambush.agreement is not None}


def _discards(b: SeatReading, after: SeatReading) -> list[str]:
    used = [EQUIPMENT[k] for k, (x, y) in enumerate(zip(after.equipment_discard, b.equipment_discard))
            for _ in range(max(x - y, 0))]
    return [f"discarded: {', '.join(used)}"] if used else []


def _camps_emptied(b: SeatReading, after: SeatReading) -> list[str]:
    out: list[str] = []
    if after.round != b.round:
        return out
    for q in sorted(range(after.num_players), key=lambda q: after.players[q].emptied):
        rank = after.players[q].emptied
        if rank and not b.players[q].emptied:
            if rank == 1:
                out.append(f"{seat(q)}'s camp is the first to empty")
            elif rank == 2:
                out.append(f"{seat(q)}'s camp is the second to empty: {seat(q)} takes the "
                           "starting player card")
    return out


def _phases(m: Move, ranks: list[int] | None) -> list[str]:
    b, after = m.before, m.after
    out = []
    end = game_over(m)
    if after.round == b.round and after.attacks and not b.attacks:
        out.append("every camp is empty: the attacks begin")
    if after.round != b.round or end:
        out.append(f"round {b.round} ends: every outlaw goes home")
        bonus = [q for q, p in enumerate(after.players) if p.fork_bonus]
        if after.additions and bonus:
            out.append(f"fork bonus: {seats(bonus)} +1 outlaw from under the oak")
    if end:
        if ranks is None:
            raise ValueError("the move ended the game: its narration needs the final ranks")
        out.append("the game is over: sixth-round gold and comrades turn into fame")
        winners = [q for q, r in enumerate(ranks) if r == 1]
        out.append(f"{seats(winners)} {'wins' if len(winners) == 1 else 'win'} with "
                   f"{after.players[winners[0]].fame} fame")
    elif after.round != b.round:
        first, card = next((s, slot.card) for s, slot in enumerate(after.slots)
                           if slot is not None and slot.face_up and slot.card is not None)
        out.append(f"round {after.round} begins: {seat(after.figure)} holds the starting "
                   "player figure")
        out.append(f"traveller {first + 1} lies face up: {card_text(card, short=True)}")
    return out


def _ledger(m: Move) -> list[str]:
    """Each seat's net gains and losses of fame, gold and outlaws in this move."""
    b, after = m.before, m.after
    loot = robbed(m) or sum(p.gold for p in after.players) > sum(p.gold for p in b.players)
    changes: dict[str, list[int]] = {}
    for q in range(after.num_players):
        parts = []
        fame = after.players[q].fame - b.players[q].fame
        gold = after.players[q].gold - b.players[q].gold
        figures = _band_size(after, q) - _band_size(b, q)
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
