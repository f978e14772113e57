"""What a seat may know as plain Python data (``view``).

The view is indexed as the game's data is: seats by seat number, ambushes by ambush id
(``components.AMBUSHES``), laid-out travellers by place 0-5 (``None`` where no card lies),
a traveller as a dict of its card's numbers (``card``), equipment as counts by kind
(``components.EQUIPMENT``). A face-down traveller shows only what the seat knows: its deck
letter, and its numbers if the seat looked at it in the inn (``peeked``) or the loot an
offer told. Whether the additions are in play (``additions``) is public, as the box on the
table is. ``render.py`` turns ids into names for people, ``picture.py`` draws it, and
``reading.py`` gives the facts of the view the scripted player reads, as tuples.
"""

from __future__ import annotations

from typing import Any

from ..components import CARDS
from .words import sentence


def card(card_id: int) -> dict:
    """A traveller's numbers as the view shows them: a fresh dict (and route list) each time,
    so whoever reads a view may change it."""
    return dict(_CARD_FIELDS[card_id], route=list(CARDS[card_id].route))


def _card_fields(card_id: int) -> dict:
    c = CARDS[card_id]
    out = {"id": card_id, "deck": c.deck, "strength": c.strength, "fame": c.fame,
           "gold": c.gold, "comrades": c.comrades, "origin": c.origin,
           "destination": c.destination, "route": None}
    if c.sheriff:
        out.update(sheriff=True, fame_loss=c.fame_loss, outlaw_loss=c.outlaw_loss)
    return out


# Each card's numbers, built once (``card`` copies them): the route's key is kept in its place.
_CARD_FIELDS = tuple(_card_fields(i) for i in range(len(CARDS)))


def view(state, seat: int | None) -> dict:
    """What ``seat`` may know; ``seat=None`` is the referee's view (every card and hand).

    Every block is read into Python lists at once (one ``tolist`` each; the promised cards
    only of the ambushes somebody lies in): a view is built at every scripted decision, and
    numpy's per-element reads cost more than the rest."""
    referee = seat is None
    n = state.num_players
    decision = state.decision_view()
    slots: list[dict[str, Any] | None] = []
    face_up_row, marked_rows, told_rows = (state.slot_face_up.tolist(), state.slot_marked.tolist(),
                                           state.slot_told.tolist())
    peeked_rows = None if referee else state.peek[seat].tolist()
    for s, cid in enumerate(state.slots):
        if cid < 0:
            slots.append(None)
            continue
        face_up = bool(face_up_row[s])
        marked = marked_rows[s]
        entry = {"face_up": face_up, "deck": CARDS[cid].deck,
                 "marked_by": [q for q in range(n) if marked[q]]}
        if face_up or referee:
            entry["card"] = card(cid)
        elif peeked_rows is not None and any(peeked_rows[s]):
            entry["card"] = card(cid)
            entry["peeked"] = True
        told = told_rows[s]
        if told[0]:
            entry["told"] = {"fame": told[1], "gold": told[2], "comrades": told[3]}
        slots.append(entry)
    ambushes: list[dict[str, Any] | None] = []
    outlaw_rows, informant_rows = state.ambush_outlaws.tolist(), state.informant.tolist()
    leader_rows, pledged_rows, promised = state.ambush_leader.tolist(), state.pledged.tolist(), state.promised
    for a, outlaws in enumerate(outlaw_rows):
        if not any(outlaws):
            ambushes.append(None)
            continue
        leader = leader_rows[a]
        entry = {"leader": leader.index(max(leader)), "outlaws": outlaws,
                 "promised": promised[a].tolist(), "pledged": pledged_rows[a]}
        informant = informant_rows[a]
        if any(informant):
            # (Additions) a binding agreement: the target's place (-1: on the road), the
            # informant, the bags and comrades laid out for each recipient.
            where = state.ambush_target[a].tolist()
            entry["agreement"] = {
                "target": -1 if where[-1] else where.index(1),
                "informant": informant.index(max(informant)),
                "advance": state.advance[a].tolist(),
                "advance_comrades": state.advance_comrades[a].tolist()}
        ambushes.append(entry)
    players = [{
        "camp": camp, "places": places, "oak": oak, "gold": gold, "fame": fame,
        "hand_count": hand_count, "emptied": emptied, "round_gold": round_gold,
        "round_comrades": round_comrades,
    } for camp, places, oak, gold, fame, hand_count, emptied, round_gold, round_comrades in zip(
        state.camp.tolist(), state.places.tolist(), state.oak.tolist(), state.gold.tolist(),
        state.fame.tolist(), state.hand_count.tolist(), state.emptied.tolist(),
        state.round_gold.tolist(), state.round_comrades.tolist())]
    out = {
        "seat": seat, "num_players": n, "additions": bool(state.game.additions),
        "round": state.round_index,
        "phase": "attacks" if state.attack_phase[0] else "preparation",
        "turn": state.turn_player, "decision": decision, "prompt": sentence(state, seat),
        "figure": state.figure_seat, "card_holder": state.card_holder_seat(),
        "pit": int(state.pit[0]), "pile_left": len(state.pile),
        "equipment_left": len(state.equip_deck), "equipment_discard": state.equip_discard.tolist(),
        "slots": slots, "ambushes": ambushes, "players": players,
        "leads": list(state.leads),
        "coach": None if state.coach is None else {
            "card": card(state.coach.card), "step": state.coach.step,
            "destination": state.coach.destination, "route": list(state._route())},
        "offer": _offer(state),
        "played": state.played.tolist(),
    }
    if referee:
        out["hands"] = state.hand.tolist()
    else:
        out["hand"] = state.hand[seat].tolist()
    if not state.is_terminal and (referee or seat == state.current_player):
        out["legal_actions"] = state.legal_actions()
    if state.is_terminal:
        out["scores"] = state.scores()
        out["ranks"] = state.ranks()
    return out


def _offer(state) -> dict | None:
    o = state.offer
    if o is None:
        return None
    return {"performer": o.performer, "ambush": o.ambush, "own": o.own,
            "asked": [list(x) for x in o.asked], "told": o.told,
            "answers": state.offer_answer.tolist(), "target": o.target,
            "informant": o.informant,
            "terms": {q: list(t) for q, t in o.terms.items()}}   # seat: [bags, gold now, comrades]
