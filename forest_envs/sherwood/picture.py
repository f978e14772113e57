"""Sherwood Forest as an image (``render_mode="rgb_array"``), drawn from the seat's view only
(its JSON, as a replay page stores it, read back into the record, ``text.view.SeatReading``,
and the prompt the view words the decision in).

Left: the map. Four roads meet at the crossing, each town at the end of its arm with its
gate (grey) and wood (green) ambushes on the way in and the four red forks in the angles;
outlaws lie in an ambush as discs in their player's colour with their number (the leader's
disc ringed in gold); the coach on the road is drawn where it stands, its route a dashed
line. Right: the laid-out travellers (face up with their numbers; face down as backs with
the deck letter, and numbers only where this seat peeked or an offer told them; inn
markers in the players' colours), the offer under way, the players, your equipment cards
(everybody's for the referee) and a legend.
"""

from __future__ import annotations

from ..core.presentation import SPECTATOR
from ..drawing.canvas import (
    CARD_BACK,
    HIGHLIGHT,
    INK,
    LINE,
    MUTED,
    WHITE,
    Canvas,
    mix,
    seat_colour,
    symbol_back,
    symbol_disc,
)
from ..drawing.seats import seat_name
from . import actions as A
from .components import AMBUSHES, CARDS, EQUIPMENT, RED_FORKS, TOWNS
from .text.view import AmbushReading, SeatReading, SlotReading
from .text.words import plural

WIDTH, HEIGHT = 1100, 660
CX, CY = 290, 350          # the crossing
TOWN_DIR = ((-1, 0), (0, 1), (1, 0), (0, -1))   # Derby west, Nottingham south, Lincoln east, York north
FORK_DIR = ((1, -1), (1, 1), (-1, 1), (-1, -1))  # NE, SE, SW, NW
ROAD = (170, 135, 90)
GATE, WOOD, FORK = (175, 170, 160), (90, 150, 80), (250, 240, 225)
RED = (200, 40, 40)
GOLD = (220, 170, 30)
SHORT_PLACES = ("church", "inn", "merchant", "market")
PROMPT_LINES = 4           # the pending decision's sentence above the map
CHIP_H, CHIP_GAP, ROW_H = 16, 4, 20   # equipment chips in the equipment panel
EQUIP_COLOURS = ((170, 120, 80), (120, 160, 90), (150, 160, 180), (220, 190, 120), (80, 130, 90),
                 (200, 150, 200))


def size(num_players: int) -> tuple[int, int]:
    """(width, height) of every picture, whatever the player count."""
    return WIDTH, HEIGHT


def _ambush_xy(a: int) -> tuple[float, float]:
    if a >= 8:  # the forks, in the angles of the crossing
        dx, dy = FORK_DIR[a - 8]
        return CX + 62 * dx, CY + 62 * dy
    dx, dy = TOWN_DIR[a // 2]
    dist = 180 if a % 2 == 0 else 118
    return CX + dist * dx, CY + dist * dy


SIDE_X, SIDE_Y = 590, 40    # the travellers, the players and the notes, right of the map


def _slot_box(s: int) -> tuple[float, float, float, float]:
    """The card of the traveller laid out in place ``s`` (x0, y0, x1, y1; its number below)."""
    cw = (WIDTH - 10 - SIDE_X - 16 - 5 * 6) / 6
    x, y = SIDE_X + 8 + s * (cw + 6), SIDE_Y + 24
    return x, y, x + cw, y + 124


def _town_xy(t: int) -> tuple[float, float]:
    dx, dy = TOWN_DIR[t]
    return CX + 232 * dx, CY + 232 * dy


def picture(view: dict):
    """The picture of ``view`` (``text.view.view``'s JSON)."""
    r = SeatReading.from_json(view)
    c = Canvas(WIDTH, HEIGHT)
    _title(c, r)
    _map(c, r, view["prompt"])
    _side(c, r, SIDE_X, SIDE_Y, WIDTH - 10, HEIGHT - 10)
    return c.array()


# The moves made at a place: the action blocks whose first index is an ambush, a laid-out
# traveller's place, a town.
AT_AMBUSH = (A.AMBUSH, A.JOINT)
AT_SLOT = (A.INN, A.LEAD, A.REVEAL, A.TARGET)
AT_TOWN = (A.MESSENGER,)


def move_places(view: dict, actions: list[int]) -> dict[int, tuple[int, int, int, int]]:
    """Where on the picture of ``view`` each of ``actions`` that has a place is made: an
    ambush laid or offered is its circle on the map, a traveller looked at, led, told of or
    marked its card, a messenger's town its name on the map (x0, y0, x1, y1 in pixels)."""
    out = {}
    for a in actions:
        box: tuple[float, float, float, float] | None = None
        for block in AT_AMBUSH:
            if a in block:
                x, y = _ambush_xy(block.index(a)[0])
                box = (x - 18, y - 18, x + 18, y + 18)
        for block in AT_SLOT:
            if a in block:
                box = _slot_box(block.index(a)[0])
        for block in AT_TOWN:
            if a in block:
                x, y = _town_xy(block.index(a)[0])
                box = (x - 44, y - 14, x + 44, y + 14)
        if box is not None:
            out[a] = (round(box[0]), round(box[1]), round(box[2]), round(box[3]))
    return out


def _title(c: Canvas, r: SeatReading) -> None:
    holder = "-" if r.card_holder < 0 else f"P{r.card_holder}"
    phase = "attacks" if r.attacks else "preparation"
    c.title_bar("Sherwood Forest", f"round {r.round} ({phase})  ·  pit {r.pit} gold  ·  "
                f"figure P{r.figure}  ·  card {holder}", 180, 720, r.seat)


def _map(c: Canvas, r: SeatReading, prompt: str) -> None:
    c.box(10, 40, 575, HEIGHT - 10, fill=(222, 236, 205), outline=LINE, radius=8)
    # trees dotted over the forest, at fixed places
    for k in range(46):
        x, y = 30 + (k * 97) % 530, 76 + (k * 61) % 560
        if abs(x - CX) > 30 and abs(y - CY) > 30:
            c.circle(x, y, 6, fill=(150, 190, 130), outline=None)
    d = r.decision
    text = ("Now: " if d else "") + prompt
    lines = min(len(_wrapped(c, text, 545, 11)), PROMPT_LINES)
    c.box(14, 44, 571, 52 + lines * 14, fill=(238, 245, 230), outline=None, radius=4)
    c.paragraph(20, 48, text, width=545, size=11,
                fill=INK if d is None else seat_colour(d.player), max_lines=PROMPT_LINES,
                line_height=14)
    for t in range(4):
        c.line((CX, CY) + _town_xy(t), fill=ROAD, width=14)
    for a in RED_FORKS:
        fx, fy = _ambush_xy(a)
        c.line((fx, fy, fx, CY), fill=ROAD, width=4)
        c.line((fx, fy, CX, fy), fill=ROAD, width=4)
    coach = r.coach
    if coach is not None:
        points = [_town_xy(CARDS[coach.card].origin)] + [_ambush_xy(a) for a in coach.route] \
            + [_town_xy(coach.destination)]
        _dashed(c, points, HIGHLIGHT, 4)
    for t, name in enumerate(TOWNS):
        tx, ty = _town_xy(t)
        half = max(40, c.text_width(name, 12, True) / 2 + 6)
        c.box(tx - half, ty - 14, tx + half, ty + 14, fill=(240, 225, 200), outline=INK, radius=4, width=2)
        c.text(tx, ty, name, size=12, bold=True, anchor="mm")
    for a in range(len(AMBUSHES)):
        _ambush(c, a, r.ambushes[a])
    if coach is not None:
        step = coach.step
        route = coach.route
        coach_x, coach_y = (_ambush_xy(route[step]) if step < len(route)
                            else _town_xy(coach.destination))
        _coach(c, coach_x, coach_y - 2, coach.card)


def _dashed(c: Canvas, points, colour, width) -> None:
    for (x0, y0), (x1, y1) in zip(points, points[1:]):
        length = max(((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5, 1)
        n = int(length // 12)
        for k in range(0, n, 2):
            a, b = k / n, min((k + 1) / n, 1)
            c.line((x0 + (x1 - x0) * a, y0 + (y1 - y0) * a, x0 + (x1 - x0) * b, y0 + (y1 - y0) * b),
                   fill=colour, width=width)


def _ambush(c: Canvas, a: int, entry: AmbushReading | None) -> None:
    x, y = _ambush_xy(a)
    fork = a >= 8
    fill = FORK if fork else (GATE if a % 2 == 0 else WOOD)
    c.circle(x, y, 17, fill=fill, outline=RED if fork else INK, width=3 if fork else 1)
    label = ("NE", "SE", "SW", "NW")[a - 8] if fork else ("gate" if a % 2 == 0 else "wood")
    c.text(x, y, label, size=9, bold=True, fill=INK if fork or a % 2 == 0 else WHITE, anchor="mm")
    if entry is None:
        return
    groups = [(p, k) for p, k in enumerate(entry.outlaws) if k]
    # discs around the ambush, starting at its outer side
    spots = ((0, -30), (28, -16), (28, 16), (0, 30), (-28, 16), (-28, -16))
    for i, (p, k) in enumerate(groups[:6]):
        dx, dy = spots[i]
        if p == entry.leader:
            c.circle(x + dx, y + dy, 13, fill=GOLD, outline=INK)
        c.seat_disc(x + dx, y + dy, 10, p, str(k))
    promised = any(any(w) for w in entry.promised) or any(entry.pledged)
    if promised or entry.agreement is not None:
        tag = "deal" if entry.agreement is not None else "promise"
        c.text(x, y + 46, tag, size=9, bold=True, fill=RED, anchor="mm")


def _coach(c: Canvas, x, y, card_id: int | None, scale: float = 1.0) -> None:
    """The coach, its strength written on it (a red coach carries a sheriff; the legend's,
    ``card_id`` None, carries nobody)."""
    sheriff = card_id is not None and bool(CARDS[card_id].sheriff)
    colour = RED if sheriff else (235, 200, 60)
    w, h, r = 20 * scale, 11 * scale, 5 * scale
    c.box(x - w, y - h, x + w, y + h, fill=colour, outline=INK, radius=4, width=2 if scale >= 1 else 1)
    c.circle(x - w / 2, y + h + 1, r, fill=INK, outline=None)
    c.circle(x + w / 2, y + h + 1, r, fill=INK, outline=None)
    if card_id is not None:
        c.text(x, y, str(CARDS[card_id].strength), size=12, bold=True,
               fill=WHITE if sheriff else INK, anchor="mm")


def _side(c: Canvas, r: SeatReading, x0, y0, x1, y1) -> None:
    c.panel(x0, y0, x1, y0 + 160, "Travellers")
    for s, e in enumerate(r.slots):
        x, y, right, _ = _slot_box(s)
        _traveller(c, x, y, right - x, 128, s, e)
    y = y0 + 166
    o = r.offer
    if o:
        asks = ", ".join(f"P{q} {plural(n, 'outlaw')}" + (f" and {plural(k, 'card')}" if k else "")
                         for q, n, k in o.asked) or "nobody yet"
        text = f"Offer: P{o.performer} at {AMBUSHES[o.ambush]} with {o.own} own; asks {asks}"
        if o.target >= 0:
            text += f"; target traveller {o.target + 1}"
        y = c.paragraph(x0 + 4, y + 2, text, width=x1 - x0 - 8, size=10, fill=RED) - 16
    y += 20
    n = r.num_players
    row_h = 30
    c.panel(x0, y, x1, y + 26 + n * row_h, "Players")
    for p, pl in enumerate(r.players):
        top = y + 24 + p * row_h
        colour = seat_colour(p)
        c.box(x0 + 6, top, x1 - 6, top + row_h - 3, fill=mix(colour, WHITE, 0.86), outline=colour, radius=4)
        c.seat_disc(x0 + 19, top + 13, 9, p)
        c.text(x0 + 33, top + 6, seat_name(p, r.seat), size=12, bold=True)
        c.text(x0 + 110, top + 7, f"fame {pl.fame}  gold {pl.gold}  camp {pl.camp}  "
               f"oak {pl.oak}  cards {pl.hand_count}", size=11)
        places = "  ".join(f"{SHORT_PLACES[i]} {k}" for i, k in enumerate(pl.places) if k)
        c.text(x1 - 12, top + 7, places, size=10, fill=MUTED, anchor="ra")
    y += 26 + n * row_h + 6
    y = _equipment_panel(c, r, x0, y, x1) + 8
    y = c.legend(x0, y, [
        (lambda cv, a, b: cv.circle(a, b, 7, fill=GATE, outline=INK), "gate"),
        (lambda cv, a, b: cv.circle(a, b, 7, fill=WOOD, outline=INK), "wood"),
        (lambda cv, a, b: cv.circle(a, b, 7, fill=FORK, outline=RED, width=2), "fork (two roads)"),
        (symbol_disc(seat_colour(0), "3"), "outlaws of a player"),
        (lambda cv, a, b: (cv.circle(a, b, 8, fill=GOLD, outline=INK), cv.seat_disc(a, b, 6, 1, "")),
         "leader"),
        (lambda cv, a, b: _coach(cv, a, b - 2, None, 0.4), "coach (strength)"),
        (lambda cv, a, b: cv.line((a - 7, b, a + 7, b), fill=HIGHLIGHT, width=3), "its route"),
        (symbol_back(), "face-down traveller"),
        (lambda cv, a, b: cv.box(a - 5, b - 5, a + 5, b + 5, fill=seat_colour(0), outline=INK), "inn marker"),
        (lambda cv, a, b: cv.box(a - 5, b - 7, a + 5, b + 7, fill=(250, 246, 232), outline=HIGHLIGHT,
                                 width=2), "looked at"),
        (lambda cv, a, b: cv.box(a - 7, b - 5, a + 7, b + 5, fill=WHITE, outline=HIGHLIGHT),
         "told loot (f g c)"),
    ], size=10, row_height=17, max_width=x1 - x0, key="sherwood")
    _notes(c, r, x0, y + 4, x1, y1)


def _notes(c: Canvas, r: SeatReading, x0, y0, x1, y1) -> None:
    """The coach's card and every occupied ambush (leader, outlaws, promises, a deal)."""
    lines = []
    coach = r.coach
    if coach is not None:
        card = CARDS[coach.card]
        who = "Sheriff" if card.sheriff else "traveller"
        lines.append((HIGHLIGHT, f"On the road: {who} {card.deck} strength {card.strength}, fame "
                      f"{card.fame}, gold {card.gold}, comrades {card.comrades}: "
                      f"{TOWNS[card.origin]} → {TOWNS[coach.destination]}"))
    for a, e in enumerate(r.ambushes):
        if e is None:
            continue
        band = ", ".join(f"P{q} {k}" for q, k in enumerate(e.outlaws) if k)
        text = f"{AMBUSHES[a]}: leader P{e.leader}; {band}"
        promised = [f"P{q} {', '.join(EQUIPMENT[k] for k, x in enumerate(w) if x)}"
                    for q, w in enumerate(e.promised) if any(w)]
        promised += [f"P{q} {k} cards" for q, k in enumerate(e.pledged) if k]
        if promised:
            text += "; promised " + ", ".join(promised)
        if e.agreement is not None:
            deal = e.agreement
            target = "the coach" if deal.target < 0 else f"traveller {deal.target + 1}"
            text += f"; deal on {target}, informant P{deal.informant}"
        lines.append((INK, text))
    if not lines:
        return
    c.panel(x0, y0, x1, y1, "On the road and in ambush")
    y, width = y0 + 24, x1 - x0 - 16
    for i, (colour, text) in enumerate(lines):
        need = len(_wrapped(c, text, width)) * NOTE_H
        more = len(lines) - i - 1
        if y + need + (NOTE_H if more else 0) > y1 - 4:
            c.text(x0 + 8, y, f"... {plural(len(lines) - i, 'more line')}: see the text board",
                   size=10, fill=MUTED)
            break
        y = c.paragraph(x0 + 8, y, text, width, size=10, fill=colour, line_height=NOTE_H)


NOTE_H = 14


def _wrapped(c: Canvas, text: str, width: float, size: int = 10) -> list[str]:
    """``text`` in the lines ``Canvas.paragraph`` breaks it into."""
    lines, line = [], ""
    for word in text.split(" "):
        trial = f"{line} {word}" if line else word
        if line and c.text_width(trial, size) > width:
            lines.append(line)
            line = word
        else:
            line = trial
    return lines + ([line] if line else [])


def _traveller(c: Canvas, x, y, w, h, s: int, e: SlotReading | None) -> None:
    c.text(x + w / 2, y + h + 1, str(s + 1), size=9, fill=MUTED, anchor="ma")
    if e is None:
        c.box(x, y, x + w, y + h - 4, fill=None, outline=LINE, radius=5)
        return
    if e.card is None:
        c.card_back(x, y, w, h - 4, CARD_BACK, e.deck)
    else:
        card = CARDS[e.card]
        sheriff = bool(card.sheriff)
        outline = HIGHLIGHT if e.peeked else RED if sheriff else INK
        c.box(x, y, x + w, y + h - 4, fill=(255, 235, 235) if sheriff else (250, 246, 232),
              outline=outline, radius=5, width=2 if sheriff or e.peeked else 1)
        c.text(x + 5, y + 4, ("Sheriff " if sheriff else "") + e.deck, size=10, bold=True,
               fill=RED if sheriff else INK)
        c.text(x + w - 5, y + 2, str(card.strength), size=16, bold=True, anchor="ra")
        rows = [f"fame {card.fame}"]
        if sheriff:         # what he takes from each loser of a crushed ambush
            rows += ([f"or -{card.fame_loss} fame"] if card.fame_loss else []) + [
                f"-{card.outlaw_loss} outlaw" + ("s" if card.outlaw_loss > 1 else "")]
        else:
            rows += [f"gold {card.gold}", f"comrades {card.comrades}"]
        for i, text in enumerate(rows):
            c.text(x + 5, y + 24 + i * 13, text, size=10, width=w - 8)
        c.text(x + 5, y + 64, TOWNS[card.origin], size=9, bold=True, width=w - 8)
        c.text(x + 5, y + 77, "→ " + TOWNS[card.destination], size=9, width=w - 8)
    if e.told is not None:
        t = e.told
        c.box(x + 2, y + h - 34, x + w - 2, y + h - 21, fill=WHITE, outline=HIGHLIGHT, radius=3)
        c.text(x + w / 2, y + h - 27.5, f"told {t.fame}f {t.gold}g {t.comrades}c", size=8,
               anchor="mm", width=w - 6)
    for i, q in enumerate(e.marked_by):
        c.box(x + 4 + i * 13, y + h - 17, x + 14 + i * 13, y + h - 7, fill=seat_colour(q), outline=INK)


def _equipment_panel(c: Canvas, r: SeatReading, x0, y0, x1) -> float:
    """The seat's equipment cards (the referee: every seat's, each after its seat's disc) as
    chips with their full names, in as many rows as they need under the panel's title;
    returns the y below the panel."""
    spectator = r.seat == SPECTATOR
    title = ("Equipment (hands hidden from spectators)" if spectator
             else "Your equipment" if r.seat is not None else "Equipment in hand (referee)")
    hands = ([] if spectator else [(None, r.hands[r.seat])] if r.seat is not None
             else [(p, h) for p, h in enumerate(r.hands) if h is not None and any(h)])
    items = _equipment_items(c, hands)
    rows = _chip_rows(items, x1 - x0 - 16)
    y1 = y0 + 26 + max(len(rows), 1) * ROW_H
    c.panel(x0, y0, x1, y1, title)
    c.text(x1 - 8, y0 + 7, f"deck {r.equipment_left}  ·  travellers left {r.pile_left}",
           size=10, fill=MUTED, anchor="ra")
    if not rows:
        c.text(x0 + 8, y0 + 26, "the card counts are beside the players" if spectator else "no cards",
               size=10, fill=MUTED)
    for i, row in enumerate(rows):
        x, y = x0 + 8, y0 + 24 + i * ROW_H
        for kind, what, w in row:
            if kind == "seat":
                c.seat_disc(x + 7, y + CHIP_H / 2, 7, what)
            else:
                k, count = what
                c.chip(x, y, w, CHIP_H, EQUIPMENT[k], EQUIP_COLOURS[k], count, size=10)
            x += w + CHIP_GAP
    return y1


def _chip_label(k: int, count: int) -> str:
    return EQUIPMENT[k] + (f" x{count}" if count > 1 else "")


def _equipment_items(c: Canvas, hands) -> list[list[tuple]]:
    """Groups that stay on one row: a seat's disc with its cards (the referee's), else one
    card each."""
    groups = []
    for p, counts in hands:
        chips = [("card", (k, x), c.text_width(_chip_label(k, x), 10) + 12)
                 for k, x in enumerate(counts) if x]
        if p is not None:            # a seat's cards stay on its disc's row
            groups.append([("seat", p, 14), *chips])
        else:
            groups += [[chip] for chip in chips]
    return groups


def _chip_rows(groups, width) -> list[list[tuple]]:
    rows: list[list[tuple]] = []
    row: list[tuple] = []
    used = 0.0
    for group in groups:
        w = sum(item[2] for item in group) + CHIP_GAP * len(group)
        if row and used + w > width:
            rows.append(row)
            row, used = [], 0.0
        row += group
        used += w
    if row:
        rows.append(row)
    return rows
