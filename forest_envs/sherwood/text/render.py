"""What a seat may know as a text picture (``render``, keyed by ``legend``), and the hooks
that put the pending decision and what a move did into words (``prompt`` and
``consequences``: core's ``State.prompt`` and ``State.narrate``), all from what the observer
may know (``view.py``, ``words.py``, ``narration.py``).
"""

from __future__ import annotations

from ...core.presentation import holds_seat
from ...drawing.lines import phrase_lines
from ...drawing.seats import seat_name
from ..components import AMBUSHES, CARDS, EQUIPMENT, PLACES, RED_FORKS, TOWNS
from ..observation import Kind
from .move_facts import Move, public_action
from .narration import happened
from .view import SeatReading, reading
from .words import WIDTH, sentence, wrap

__all__ = ["consequences", "legend", "prompt", "render"]


def render(state, seat: int | None = None) -> str:
    """The table as ``seat`` may see it, in lines of at most ``WIDTH`` columns (a long line
    continues, indented, after one of its phrases)."""
    r = reading(state, seat)
    d = r.decision
    holder = "-" if r.card_holder < 0 else f"P{r.card_holder}"
    lines = [f"Sherwood Forest: round {r.round} ({'attacks' if r.attacks else 'preparation'}), "
             f"pit {r.pit} gold",
             f"Starting player: figure P{r.figure}, card {holder}", "Travellers:"]
    for s, slot in enumerate(r.slots):
        if slot is None:
            continue
        text = f"face down ({slot.deck})" if slot.card is None else _card_text(slot.card)
        marks = "".join(f" [P{q}]" for q in slot.marked_by)
        told = ""
        if slot.told is not None:
            t = slot.told
            told = f", told: {t.fame} fame, {t.gold} gold, {t.comrades} comrades"
        lines.append(f"  {s + 1}: {text}{marks}{told}")
        if slot.card is not None:
            lines.append("       route: " + " ".join(CODES[a] for a in CARDS[slot.card].route))
    coach = r.coach
    if coach:
        changed = ("" if coach.destination == CARDS[coach.card].destination
                   else f", now to {TOWNS[coach.destination]}")
        if d is not None and d.kind == Kind.MESSENGER:
            where = f"{coach.step} ambushes passed"
        else:
            where = f"at {AMBUSHES[coach.route[min(coach.step, len(coach.route) - 1)]]}"
        lines.append(f"On the road: {_card_text(coach.card)}{changed}, {where}")
    o = r.offer
    if o:
        asks = ", ".join(f"P{q} {c} outlaws {k} cards" for q, c, k in o.asked) or "-"
        told = "" if o.told < 0 else f"; told the loot of traveller {o.told + 1}"
        lines.append(f"Offer: P{o.performer} at {AMBUSHES[o.ambush]} with {o.own} own; "
                     f"asks {asks}{told}")
        if o.target >= 0:
            lines.append(f"       target traveller {o.target + 1}, informant P{o.informant}")
        for q, (g, k, c) in o.terms:
            lines.append(f"       terms P{q}: promised {g} bags, {c} comrades; paid {k} gold now")
    lines += _map(r)
    lines.append("Ambushes:")
    for a, e in enumerate(r.ambushes):
        red = "*" if a in RED_FORKS else " "
        if e is None:
            continue
        parts = ", ".join(f"P{q}:{k}" for q, k in enumerate(e.outlaws) if k)
        promised = ", ".join(f"P{q} {_equip(w)}" for q, w in enumerate(e.promised) if any(w))
        promised += ", ".join(f"P{q} {k} cards" for q, k in enumerate(e.pledged) if k)
        lines.append(f" {red}{AMBUSHES[a]}: leader P{e.leader}, {parts}"
                     + (f", promised {promised}" if promised else ""))
        if e.agreement is not None:
            deal = e.agreement
            target = "on the road" if deal.target < 0 else f"traveller {deal.target + 1}"
            laid = ", ".join(f"P{q} {b} bags {c} comrades" for q, (b, c)
                             in enumerate(zip(deal.advance, deal.advance_comrades)) if b or c)
            lines.append(f"    target {target}, informant P{deal.informant}"
                         + (f", laid out {laid}" if laid else ""))
    lines.append("Players:")
    for p, pl in enumerate(r.players):
        places = ", ".join(f"{PLACES[i]} {k}" for i, k in enumerate(pl.places) if k)
        lines.append(f"  {seat_name(p, seat)}: fame {pl.fame}, gold {pl.gold}, camp {pl.camp}, "
                     f"oak {pl.oak}, cards {pl.hand_count}" + (f", {places}" if places else ""))
    if holds_seat(seat):
        lines.append(f"Your hand: {_equip(r.hands[seat] or ()) or '-'}")
    if state.is_terminal:
        lines.append("Final: " + ", ".join(f"P{p} fame {s['fame']} rank {rank}"
                                           for p, (s, rank) in enumerate(zip(state.scores(), state.ranks()))))
    lines += wrap(f"Now: {sentence(r)}").splitlines()  # last: the question above a list of moves
    return "\n".join(part for line in lines
                     for part in phrase_lines(line, WIDTH, len(line) - len(line.lstrip()) + 4))


CODES = ("Dg", "Dw", "Ng", "Nw", "Lg", "Lw", "Yg", "Yw", "*NE", "*SE", "*SW", "*NW")


def _map(r: SeatReading) -> list[str]:
    """The board: each ambush's code and the outlaws lying in it (the coach as @)."""
    at = None
    if r.coach and r.coach.step < len(r.coach.route):
        at = r.coach.route[r.coach.step]

    def cell(a: int) -> str:
        e = r.ambushes[a]
        n = sum(e.outlaws) if e else 0
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
Map: Dg/Dw Derby gate (next to the town) and wood, likewise N(ottingham),
  L(incoln), Y(ork); *NE *SE *SW *NW the four red forks in the angles of
  the crossing (each covers two roads); ':3' outlaws lying there; '@' the
  coach.
Travellers: place number, the card if you may see it, [Pn] inn markers,
  told: the loot told in an offer.
Ambushes: leader, outlaws per player, promised cards (basic: marked cards;
  additions: a number of cards kept in hand), and a binding agreement's
  target, informant and laid-out loot.
A coach drives origin gate, wood, the arm's two forks, then the destination
  arm outwards.
Players: fame, gold in camp, outlaws in camp and under the oak, equipment
  cards in hand."""
assert max(map(len, LEGEND.splitlines())) <= WIDTH - 2  # the play command indents it by two


def prompt(state, observer: int | None = None) -> str:
    """The pending decision as a sentence for people, as ``observer`` may know it, in lines
    of at most ``WIDTH`` columns."""
    return wrap(sentence(reading(state, observer)))


def consequences(before, action: int, after, observer: int | None = None) -> list[str]:
    """Phrases for what ``action`` did, which took ``before`` to ``after``, as ``observer``
    may know it (``narration.happened`` over the observer's records; the ranks are public
    once the game is over)."""
    b = reading(before, observer)
    if b.decision is None:
        return []
    move = Move(b, reading(after, observer), b.decision, public_action(b.decision, action, observer))
    return happened(move, after.ranks() if after.is_terminal else None)


def legend() -> str:
    return LEGEND


def _card_text(card_id: int) -> str:
    c = CARDS[card_id]
    who = "Sheriff" if c.sheriff else "traveller"
    return (f"{who} {c.deck} strength {c.strength}, fame {c.fame}, gold {c.gold}, "
            f"comrades {c.comrades}, {TOWNS[c.origin]} -> {TOWNS[c.destination]}")


def _equip(counts) -> str:
    return ", ".join(f"{EQUIPMENT[k]} x{x}" if x > 1 else EQUIPMENT[k] for k, x in enumerate(counts) if x)
