"""What a seat may know as plain Python data (``view``) and as a text picture (``render``).

The view is indexed as the game's data is: seats by seat number, ambushes by ambush id
(``components.AMBUSHES``), laid-out travellers by place 0-5 (``None`` where no card lies),
a traveller as a dict of its card's numbers (``card``), equipment as counts by kind
(``components.EQUIPMENT``). A face-down traveller shows only what the seat knows: its deck
letter, and its numbers if the seat looked at it in the inn (``peeked``) or the loot an
offer told. Whether the additions are in play (``additions``) is public, as the box on the
table is. ``render`` turns ids into names for people. ``reading`` (``reading.py``) gives the
facts of the view the scripted player reads, as tuples.
"""

from __future__ import annotations

from ..drawing.seats import seat_name
from .components import AMBUSHES, CARDS, EQUIPMENT, PLACES, RED_FORKS, TOWNS
from .narration import consequences
from .reading import reading
from .words import prompt, sentence, wrap

# ``reading`` is here for ``State.reading``, which finds it in the RENDER module.
__all__ = ["consequences", "legend", "prompt", "reading", "render", "view"]


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
    slots = []
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
        elif any(peeked_rows[s]):
            entry["card"] = card(cid)
            entry["peeked"] = True
        told = told_rows[s]
        if told[0]:
            entry["told"] = {"fame": told[1], "gold": told[2], "comrades": told[3]}
        slots.append(entry)
    ambushes = []
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


def render(state, seat: int | None = None) -> str:
    v = view(state, seat)
    d = v["decision"]
    holder = "-" if v["card_holder"] < 0 else f"P{v['card_holder']}"
    lines = [f"Sherwood Forest: round {v['round']} ({v['phase']}), pit {v['pit']} gold, "
             f"starting player figure P{v['figure']}, card {holder}",
             *wrap(f"Now: {v['prompt']}").splitlines(), "Travellers:"]
    for s, e in enumerate(v["slots"]):
        if e is None:
            continue
        text = _card_text(e["card"]) if "card" in e else f"face down ({e['deck']})"
        marks = "".join(f" [P{q}]" for q in e["marked_by"])
        told = f" told {e['told']}" if "told" in e else ""
        lines.append(f"  {s + 1}: {text}{marks}{told}")
        if "card" in e:
            lines.append("       route: " + " ".join(CODES[a] for a in e["card"]["route"]))
    if v["coach"]:
        c = v["coach"]
        changed = "" if c["destination"] == c["card"]["destination"] else f", now to {TOWNS[c['destination']]}"
        if d is not None and d["kind"] == "messenger":
            where = f"{c['step']} ambushes passed"
        else:
            where = f"at {AMBUSHES[c['route'][min(c['step'], len(c['route']) - 1)]]}"
        lines.append(f"On the road: {_card_text(c['card'])}{changed}, {where}")
    o = v["offer"]
    if o:
        asks = ", ".join(f"P{q} {c} outlaws {k} cards" for q, c, k in o["asked"]) or "-"
        told = "" if o["told"] < 0 else f"; told the loot of traveller {o['told'] + 1}"
        lines.append(f"Offer: P{o['performer']} at {AMBUSHES[o['ambush']]} with {o['own']} own; "
                     f"asks {asks}{told}")
        if o["target"] >= 0:
            lines.append(f"       target traveller {o['target'] + 1}, informant P{o['informant']}")
        for q, (g, k, c) in o["terms"].items():
            lines.append(f"       terms P{q}: promised {g} bags, {c} comrades; paid {k} gold now")
    lines += _map(v)
    lines.append("Ambushes:")
    for a, e in enumerate(v["ambushes"]):
        red = "*" if a in RED_FORKS else " "
        if e is None:
            continue
        parts = ", ".join(f"P{q}:{k}" for q, k in enumerate(e["outlaws"]) if k)
        promised = ", ".join(f"P{q} {_equip(w)}" for q, w in enumerate(e["promised"]) if any(w))
        promised += ", ".join(f"P{q} {k} cards" for q, k in enumerate(e["pledged"]) if k)
        lines.append(f" {red}{AMBUSHES[a]}: leader P{e['leader']}, {parts}"
                     + (f", promised {promised}" if promised else ""))
        if "agreement" in e:
            g = e["agreement"]
            target = "on the road" if g["target"] < 0 else f"traveller {g['target'] + 1}"
            laid = ", ".join(f"P{q} {b} bags {c} comrades" for q, (b, c)
                             in enumerate(zip(g["advance"], g["advance_comrades"])) if b or c)
            lines.append(f"    target {target}, informant P{g['informant']}"
                         + (f", laid out {laid}" if laid else ""))
    lines.append("Players:")
    for p, pl in enumerate(v["players"]):
        places = ", ".join(f"{PLACES[i]} {k}" for i, k in enumerate(pl["places"]) if k)
        lines.append(f"  {seat_name(p, seat)}: fame {pl['fame']}, gold {pl['gold']}, camp {pl['camp']}, "
                     f"oak {pl['oak']}, cards {pl['hand_count']}" + (f", {places}" if places else ""))
    if "hand" in v:
        lines.append(f"Your hand: {_equip(v['hand']) or '-'}")
    if "scores" in v:
        lines.append("Final: " + ", ".join(f"P{p} fame {s['fame']} rank {r}"
                                           for p, (s, r) in enumerate(zip(v["scores"], v["ranks"]))))
    return "\n".join(lines)


CODES = ("Dg", "Dw", "Ng", "Nw", "Lg", "Lw", "Yg", "Yw", "*NE", "*SE", "*SW", "*NW")


def _map(v: dict) -> list[str]:
    """The board: each ambush's code and the outlaws lying in it (the coach as @)."""
    at = None
    if v["coach"] and v["coach"]["step"] < len(v["coach"]["route"]):
        at = v["coach"]["route"][v["coach"]["step"]]

    def cell(a: int) -> str:
        e = v["ambushes"][a]
        n = sum(e["outlaws"]) if e else 0
        mark = "@" if a == at else ""
        return f"{mark}{CODES[a]}:{n}" if n else f"{mark}{CODES[a]}"

    return [
        "                 York",
        f"                 {cell(6)}",
        f"                 {cell(7)}",
        f"        {cell(11):>8}       {cell(8)}",
        f"Derby {cell(0):>5} {cell(1):>5}  +  {cell(5):<5} {cell(4):<5} Lincoln",
        f"        {cell(10):>8}       {cell(9)}",
        f"                 {cell(3)}",
        f"                 {cell(2)}",
        "                 Nottingham",
    ]


LEGEND = """\
Map: Dg/Dw Derby gate (next to the town) and wood, likewise N(ottingham), L(incoln), Y(ork);
*NE *SE *SW *NW the four red forks in the angles of the crossing (each covers two roads);
':3' outlaws lying there; '@' the coach.
Travellers: place number, the card if you may see it, [Pn] inn markers, told: loot told in an offer.
Ambushes: leader, outlaws per player, promised cards (basic: marked cards; additions: a number
of cards kept in hand), and a binding agreement's target, informant and laid-out loot.
A coach drives origin gate, wood, the arm's two forks, then the destination arm outwards.
Players: fame, gold in camp, outlaws in camp and under the oak, equipment cards in hand."""


def legend() -> str:
    return LEGEND


def _card_text(c: dict) -> str:
    who = "Sheriff" if c.get("sheriff") else "traveller"
    return (f"{who} {c['deck']} strength {c['strength']}, fame {c['fame']}, gold {c['gold']}, "
            f"comrades {c['comrades']}, {TOWNS[c['origin']]} -> {TOWNS[c['destination']]}")


def _equip(counts) -> str:
    return ", ".join(f"{EQUIPMENT[k]} x{x}" if x > 1 else EQUIPMENT[k] for k, x in enumerate(counts) if x)
