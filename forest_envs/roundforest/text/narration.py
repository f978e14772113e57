"""What a Roundforest move did, in words (``happened``; ``render.consequences`` is the
state's hook): the log line's second half.

It compares what one observer's view showed before and after the move
(``view.reading(before, observer)`` and ``view.reading(after, observer)``), so it can only name
what that observer may know: another seat's face-down card or the Prince's secret draws are
named to their owner (and the referee) alone. Item tokens are followed from place to place
(tiles, backpacks, the hand, blockade gaps, the fairy, the blue bag) and each move of one
becomes a phrase ("P0 took the anvil from B3"); coins and apples are one ledger per player
("P0 -3 copper, +1 silver").
"""

from __future__ import annotations

import textwrap
from collections import Counter

from ..actions import ROW_NAMES
from ..components import (
    APPLES_TO_WIN,
    CHARACTER_NAMES,
    CHARACTERS,
    CHEST,
    COIN_TOKENS,
    COPPER_TOKEN,
    HELPFUL,
    KEY,
    SPIRIT,
    cell_name,
)
from .view import SeatReading
from .words import WIDTH, an, character, gap_label, item_name, listing, seat, the

CHIPS = ("", "blue", "yellow", "red")
INDENT = "    "  # a narration's further lines


def happened(b: SeatReading, a: SeatReading, columns: int) -> list[str]:
    """Phrases for what the move from the view ``b`` to the view ``a`` (one observer's)
    did, wrapped (a phrase may begin a new line) so that the narration, the move's text of
    at most ``columns`` columns followed by these phrases, stays within ``WIDTH`` columns."""
    return _wrapped(changes(b, a), columns + 2)


def _wrapped(phrases: list[str], used: int) -> list[str]:
    """Start a phrase on a new line when it and the "; " that may follow it would pass
    ``WIDTH`` (``used``: the columns the line has already; "; " joins phrases); a phrase
    longer than a line is broken between words."""
    out = []
    for phrase in phrases:
        if used + len(phrase) + 2 > WIDTH:
            lines = textwrap.wrap(phrase, WIDTH - 2, initial_indent=INDENT,
                                  subsequent_indent=INDENT, break_on_hyphens=False)
            phrase = "\n" + "\n".join(lines)
            used = len(lines[-1])
        else:
            used += len(phrase)
        used += 2
        out.append(phrase)
    return out


def changes(b: SeatReading, a: SeatReading) -> list[str]:
    """What changed from view ``b`` to view ``a`` (one observer's), as phrases."""
    d = b.decision
    if d is None:
        raise ValueError("no move follows a finished game")
    kind, actor = d.name, d.player
    who = seat(actor)
    out: list[str] = []
    bp, ap = b.players, a.players
    ledger = {p: [ap[p].copper - bp[p].copper, ap[p].silver - bp[p].silver,
                  ap[p].apples - bp[p].apples] for p in range(b.num_players)}
    for p in range(b.num_players):
        if ap[p].compasses < bp[p].compasses:
            out.append(f"{seat(p)} used a compass")
        if kind == "unicorn" and ap[p].cell != bp[p].cell:
            out.append(f"the Unicorn carried {seat(p)} to {cell_name(ap[p].cell)}")
    out += _tiles(b, a)
    out += _cards(b, a, kind, actor)
    out += _task(b, a, kind, actor)
    out += _items(b, a, kind, actor, ledger)
    for p in range(b.num_players):
        for c in sorted(set(ap[p].debts) - set(bp[p].debts)):
            out.append(f"{seat(p)} is in debt to {character(c)}")
        for c in sorted(set(bp[p].debts) - set(ap[p].debts)):
            out.append(f"{seat(p)}'s debt to {character(c)} is settled" if p == actor else
                       f"{who} settled {seat(p)}'s debt to {character(c)}")
    out += _tokens(b, a, kind, actor)
    won = [p for p in range(b.num_players) if ap[p].winner and not bp[p].winner]
    for p in won:
        ledger[p][2] += APPLES_TO_WIN  # the apples the ring costs are said below
    for p, (copper, silver, apples) in ledger.items():
        parts = [f"{x:+d} {name}" for x, name in ((copper, "copper"), (silver, "silver"),
                                                   (apples, "golden apple" if abs(apples) == 1
                                                    else "golden apples")) if x]
        if parts:
            out.append(f"{seat(p)} " + ", ".join(parts))
    for p in won:
        how = _how_won(b, a, kind, p)
        out.append((f"{how}: " if how else "") + f"{seat(p)} gave {APPLES_TO_WIN} golden apples "
                   "for the Emerald Ring and won")
    return out


def _how_won(b: SeatReading, a: SeatReading, kind: str, p: int) -> str | None:
    """How ``p`` came to the Forest Spirit by its card: chosen with the Beggar, or drawn from
    the red chip on the tile ``p`` moved onto (a qualified player who draws the card meets the
    Spirit at once, "Meeting the Forest Spirit"). None when ``p`` met its token on that tile,
    which the tokens' phrase already says."""
    cell = a.players[p].cell
    qualified = f"with {APPLES_TO_WIN} golden apples and no debts"
    if b.cell(cell).character == SPIRIT:
        return None
    if kind == "beggar":
        return f"{seat(p)} chose the Forest Spirit's card with the Beggar, {qualified}"
    if b.cell(cell).chip == CHIPS.index("red"):
        return (f"{seat(p)} drew the Forest Spirit's card from the red chip on "
                f"{cell_name(cell)}, {qualified}: the Forest Spirit came at once")
    return None


def _tiles(b: SeatReading, a: SeatReading) -> list[str]:
    """Tiles turned and vacated tiles refilled with a chip."""
    out = []
    for cell, info in a.cells().items():
        old = b.cell(cell)
        if info.orientation != old.orientation:
            way = "clockwise" if info.turn > 0 else "counter-clockwise"
            out.append(f"{cell_name(cell)} turned {way}")
    for cell, info in a.cells().items():
        old = b.cell(cell)
        if info.chip and not old.chip:
            out.append(f"a new {CHIPS[info.chip]} chip on {cell_name(cell)}")
    if sum(a.used_chips) < sum(b.used_chips):
        out.append("the used chips went back into the black bag")
    return out


def _cards(b: SeatReading, a: SeatReading, kind: str, actor: int) -> list[str]:
    """Character cards drawn (named to whoever may see them) and the Prince's draws."""
    out = []
    for p, (old, new) in enumerate(zip(b.players, a.players)):
        if new.secrets_shown and new.drawn_card is not None and old.drawn_card is None:
            verb = "chose" if kind == "beggar" else "drew"
            out.append(f"{seat(p)} {verb} {character(new.drawn_card)}")
        elif (not new.secrets_shown and a.decision and a.decision.name == "character"
              and a.decision.player == p and not (b.decision is not None and b.decision.name == "character"
                                                        and b.decision.player == p)):
            out.append(f"{seat(p)} chose a character card with the Beggar" if kind == "beggar"
                       else f"{seat(p)} drew a character card face down")
        draws = [an(k) for k, n in enumerate(new.prince_items or ()) for _ in range(n)]
        if draws and not any(old.prince_items or ()):
            out.append(f"the Prince drew {listing(draws)} for {seat(p)} in secret")
        elif (not new.secrets_shown and a.decision and a.decision.name == "prince"
              and a.decision.player == p and b.decision is not None and b.decision.name != "prince"):
            out.append(f"the Prince drew 3 items for {seat(p)} in secret")
    for c in sorted(set(a.laid_out) - set(b.laid_out)):
        out.append(f"the {CHARACTER_NAMES[c]} is laid out")
    return out


def _places(v: SeatReading) -> dict[tuple, Counter]:
    """Every place an item token may lie in the view, with the kinds lying there."""
    places: dict[tuple, Counter] = {}
    for cell, info in v.cells().items():
        if info.item >= 0:
            places[("cell", cell)] = Counter({info.item: 1})
    for g, k in v.gaps:
        places[("gap", g)] = Counter({k: 1})
    for p, pl in enumerate(v.players):
        places[("pack", p)] = Counter({k: n for k, n in enumerate(pl.backpack) if n})
    if v.drawn_item >= 0 and v.decision is not None:
        places[("hand", v.decision.player)] = Counter({v.drawn_item: 1})
    return places


def _fairy_row_taken(b: SeatReading, a: SeatReading) -> int | None:
    """The row a trade took from: the rows above it moved down one, a new top row came."""
    old, new = b.fairy, a.fairy
    if old == new:
        return None
    for r in range(len(old)):
        if new[1:r + 1] == old[:r] and new[r + 1:] == old[r + 1:]:
            return r
    return -1


def _items(b: SeatReading, a: SeatReading, kind: str, actor: int, ledger: dict) -> list[str]:
    """Each item token that moved, from where to where, as a phrase."""
    before, after = _places(b), _places(a)
    sources: list[tuple[tuple, int]] = []   # (place, item kind), one per token moved
    dests: list[tuple[tuple, int]] = []
    for place in sorted(set(before) | set(after)):
        delta = after.get(place, Counter())
        delta.subtract(before.get(place, Counter()))
        for k, n in sorted(delta.items()):
            (dests if n > 0 else sources).extend([(place, k)] * abs(n))
    row = _fairy_row_taken(b, a)
    offered = Counter(k for k in (b.fairy[row] if row is not None and row >= 0 else ()) if k >= 0)
    flows = []
    for place, k in dests:
        match = next((s for s in sources if s[1] == k), None)
        if match is not None:
            sources.remove(match)
            flows.append((match[0], place, k))
        elif offered[k]:
            offered[k] -= 1
            flows.append((("fairy", row), place, k))
        else:
            flows.append((("bag",), place, k))
    flows += [(place, ("bag",), k) for place, k in sources]
    out = []
    if kind == "chest" and (("pack", actor), ("bag",), CHEST) in flows:
        flows = [f for f in flows if f[2] not in (CHEST, KEY) or f[1] != ("bag",)]
        out.append(f"{seat(actor)} opened the treasure chest with the key")
    if row is not None and row >= 0:
        out += _trade(flows)
    out += _merged([_flow(src, dst, k, kind, actor, ledger) for src, dst, k in flows])
    if row is not None:
        top = ", ".join(item_name(k) for k in a.fairy[0] if k >= 0) or "none (the bag is empty)"
        if row > 0:
            out.append(f"the rest of the {ROW_NAMES[row]} row went back into the bag, the rows "
                       "above moved down")
        elif row == 0:
            out.append("the rest of the top row went back into the bag")
        out.append(f"new fairy top row: {top}")
    return out


def _trade(flows: list) -> list[str]:
    """The token given to the fairy and the one taken from her row, as one phrase (both
    flows leave ``flows``)."""
    given = next((f for f in flows if f[0][0] in ("hand", "cell") and f[1] == ("bag",)), None)
    taken = next((f for f in flows if f[0][0] == "fairy"), None)
    if given is None or taken is None:
        return []
    flows.remove(given)
    flows.remove(taken)
    who = seat(taken[1][1])
    return [f"{who} traded {the(given[2])} for the {item_name(taken[2])}"]


def _flow(src: tuple, dst: tuple, k: int, kind: str, actor: int, ledger: dict) -> tuple[str, str]:
    """One token's move as a phrase: (a template with ``{}`` for the token, the token)."""
    owner = seat(dst[1] if dst[0] in ("pack", "hand") else
                 src[1] if src[0] in ("pack", "hand") else actor)
    where = {"cell": lambda place: cell_name(place[1]), "gap": lambda place: gap_label(place[1])}
    if dst[0] == "bag":
        if k in COIN_TOKENS and src[0] in ("hand", "cell"):
            p = src[1] if src[0] == "hand" else actor
            coin = 0 if k == COPPER_TOKEN else 1
            if ledger[p][coin] > 0:  # exchanged for its coin, not traded to the fairy
                ledger[p][coin] -= 1
                return f"{seat(p)} exchanged {{}} for 1 {'copper' if coin == 0 else 'silver'}", the(k)
        if src[0] == "hand":
            return f"{owner} gave {{}} to the fairy", the(k)
        if src[0] == "cell":
            return f"{owner} gave {{}} from {where['cell'](src)} to the fairy", the(k)
        if src[0] == "gap":
            return f"{{}} left the blockade at {where['gap'](src)}", the(k)
        verb = {"well_give": "gave {} to the well", "merchant": "sold {} to the Merchant",
                "goblin_give": "gave {} to the Goblin", "saddle": "gave back {}",
                }.get(kind, "handed over {}")
        return f"{owner} {verb}", the(k)
    if src[0] == "bag":
        if dst[0] == "hand":
            return (f"{owner} kept {{}} from the Prince's draw" if kind == "prince" else
                    f"{owner} drew {{}}"), an(k)
        if dst[0] == "cell":
            return f"{{}} came onto {where['cell'](dst)}", an(k)
        verb = {"prince": "kept {} from the Prince's draw", "goblin_take": "took {} from the bag",
                "character": "got {} as the reward", "meet": "got {} as the reward",
                }.get(kind, "got {}")
        return f"{owner} {verb}", an(k)
    if src[0] == "fairy":
        return f"{owner} got {{}} from the fairy's {ROW_NAMES[src[1]]} row", the(k)
    if src[0] == "hand" and dst[0] == "pack":
        return f"{owner} kept {{}}", the(k)
    if src[0] == "hand" and dst[0] == "cell":
        verb = "placed" if kind == "yellow" else "left"
        return f"{owner} {verb} {{}} on {where['cell'](dst)}", the(k)
    if src[0] == "cell" and dst[0] == "pack":
        return f"{owner} took {{}} from {where['cell'](src)}", the(k)
    if src[0] == "pack" and dst[0] == "gap":
        return f"{owner} set {{}} as a blockade at {where['gap'](dst)}", the(k)
    if src[0] == "gap" and dst[0] == "pack":
        return f"{owner} took {{}} back from the blockade at {where['gap'](src)}", the(k)
    return "{} moved", the(k)


def _merged(flows: list[tuple[str, str]]) -> list[str]:
    """Tokens that moved the same way in one phrase: "P2 handed over the cross and the magic
    potion"."""
    groups: dict[str, list[str]] = {}
    for template, token in flows:
        groups.setdefault(template, []).append(token)
    return [template.format(listing(tokens)) for template, tokens in groups.items()]


def _tokens(b: SeatReading, a: SeatReading, kind: str, actor: int) -> list[str]:
    """Character tokens put on the forest or leaving it."""
    out = []
    for cell, info in a.cells().items():
        old, new = b.cell(cell).character, info.character
        if old == new:
            continue
        if new >= 0:
            if new == SPIRIT and kind == "spirit_place":
                out.append(f"the Forest Spirit appears on {cell_name(cell)}")
            else:
                out.append(f"the {CHARACTER_NAMES[new]}'s token now on {cell_name(cell)}")
        if old >= 0:
            if CHARACTERS[old].kind == HELPFUL:
                out.append(f"{seat(actor)} met {character(old)} on {cell_name(cell)}")
            else:
                out.append(f"{character(old)} left {cell_name(cell)}")
    return out


def _task(b: SeatReading, a: SeatReading, kind: str, actor: int) -> list[str]:
    """A task fulfilled: a task character's card or token dealt with otherwise than by a
    debt or a golden apple."""
    if kind == "meet":
        assert b.decision is not None, "a move's reading before it"
        c = b.decision.data.character
    elif kind == "character":
        c = b.players[actor].drawn_card
        if c is None or CHARACTERS[c].kind == HELPFUL:
            return []
    else:
        return []
    old, new = b.players[actor], a.players[actor]
    if set(new.debts) - set(old.debts):
        return []
    paid_apple = (new.apples == old.apples - 1 and new.backpack == old.backpack
                  and new.copper == old.copper and new.silver == old.silver)
    if paid_apple:
        return [f"{seat(actor)} paid {character(c)} a golden apple"]
    return [f"{seat(actor)} fulfilled a task of {character(c)}"]

