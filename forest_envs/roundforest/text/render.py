"""What a seat may know as text for a terminal (``render``, ``render_rich``, keyed by
``legend``), and the hooks that put the pending decision and what a move did into words
(``prompt`` and ``consequences``: core's ``State.prompt`` and ``State.narrate``), all drawn
from ``view.view`` of the observer alone (``words.py``, ``narration.py``).

Each tile is one model (``tile_model``): its name, turning direction, the exits on each
side (``1``: the inner octagon is filled, a piece may step onto the next tile; ``2``: the
outer one is, onto the tile two away), the piece on it and what lies there. Two drawings
share it: ``board_lines`` (plain ASCII, 3 lines a tile, the default of ``render``: stable
for golden files) and ``board_rich`` (a ``rich`` renderable with colour and Unicode arrows,
for a terminal that has them). Both fit an 80-column terminal: a tile is 12 columns
between borders it shares with its neighbours and carries its own name (no row or column
headers), and what lies on it is a label of at most 8 letters. ``legend`` explains every
abbreviation of both.
"""

from __future__ import annotations

import textwrap

from .. import actions as A
from ..components import (
    CHARACTER_NAMES,
    CHARACTERS,
    ITEM_NAMES,
    backpack_corner,
    cell_id,
    cell_name,
)
from ..observation import Kind
from .narration import happened
from .view import CellReading, SeatReading, reading
from .words import WIDTH, count, fairy_row, gap_label, held_items, item_name, prompt_text, wrap
from .words import seat as seat_label  # "P0"; render's parameter ``seat`` is the observer

# Short labels (at most 8 letters) for what lies on a tile: item tokens in lower case,
# character tokens capitalised, so that a label fills the tile's middle without brackets;
# ``legend`` lists every one that is not the full name.
ITEM_LABELS = ("anvil", "barrel", "saddle", "chest", "stone", "cross", "key", "sword",
               "potion", "helmet", "hshoe", "hat", "cheese", "cauldron", "jug", "spoon",
               "mortar", "mushroom", "flask", "boot", "copper", "silver")
CHAR_LABELS = ("Smith", "Innkeep", "Sculptor", "Witch", "Bandit", "Devil", "Prince",
               "Merchant", "Goblin", "Beggar", "Unicorn", "Spirit")
CHIP_LABELS = ("", "(blue)", "(yellow)", "(red)")
WELL_LABEL = "~well~"
assert len(ITEM_LABELS) == len(ITEM_NAMES) and len(CHAR_LABELS) == len(CHARACTER_NAMES)
assert max(map(len, ITEM_LABELS + CHAR_LABELS + CHIP_LABELS + (WELL_LABEL,))) <= 8
assert all(lab.islower() for lab in ITEM_LABELS) and all(lab[0].isupper() for lab in CHAR_LABELS)

INNER_W = 12     # columns inside a tile's borders: 2 exits, an 8-letter label, 2 exits
# 6 tiles sharing their borders (7 borders) stay within an 80-column terminal.
assert 6 * (INNER_W + 1) + 1 <= WIDTH
N, E, S, W = range(4)


def tile_model(cell: int, info: CellReading, piece: int | None) -> dict:
    """One tile as the drawings need it: ``name`` ("B3"), ``turn`` ("cw", "ccw" or "##" when blockaded),
    ``exits`` per side N, E, S, W ("", "1", "2" or "12"), ``piece`` (a seat or None) and
    ``thing`` ((kind, label): "chip", "well", "item", "character" or "" with its label)."""
    exits = tuple(("1" if info.inner[d] else "") + ("2" if info.outer[d] else "")
                  for d in range(4))
    if info.character >= 0:
        thing = ("character", CHAR_LABELS[info.character])
    elif info.item >= 0:
        thing = ("item", ITEM_LABELS[info.item])
    elif info.well:
        thing = ("well", WELL_LABEL)
    elif info.chip:
        thing = ("chip", CHIP_LABELS[info.chip])
    else:
        thing = ("", "")
    turn = "##" if info.blocked else ("cw" if info.turn > 0 else "ccw")
    return {"name": cell_name(cell), "turn": turn, "exits": exits, "piece": piece, "thing": thing,
            "blocked": bool(info.blocked), "well": bool(info.well)}


def _pieces(v: SeatReading) -> dict[int, int]:
    return {pl.cell: p for p, pl in enumerate(v.players)}


def _backpack_owner(v: SeatReading, cell: int) -> int | None:
    for p, pl in enumerate(v.players):
        if pl.in_backpack and pl.cell == cell:
            return p
    return None


# --- the whole table ---------------------------------------------------------------------------


def render(state, seat: int | None = None) -> str:
    """The table as plain ASCII text for ``seat`` (None: the referee): the forest
    (``board_lines``), the fairy, the players, then the pending decision as a sentence."""
    return render_view(reading(state, seat))


def render_view(v: SeatReading) -> str:
    head = f"Roundforest - round {v.round}, turn of P{v.turn}"
    lines = [head] + board_lines(v) + table_lines(v)
    lines.append(wrap(("Now: " if v.decision else "") + prompt_text(v)))
    return "\n".join(lines)


def render_rich(state, seat: int | None = None):
    """The same table as a ``rich`` renderable (colour and Unicode: exits as arrows, chips
    in their colours, pieces in their seat's), for a terminal that has them; print it with
    ``rich.console.Console().print(render_rich(state, seat))``."""
    from rich.console import Group
    from rich.text import Text

    v = reading(state, seat)
    head = Text(f"Roundforest - round {v.round}, turn of P{v.turn}", style="bold")
    now = wrap(("Now: " if v.decision else "") + prompt_text(v))
    return Group(head, board_rich(v), Text("\n".join(table_lines(v))), Text(now, style="bold"))


# --- words for people (core's State.prompt and State.narrate) ------------------------------------


def prompt(state, observer: int | None = None) -> str:
    """The pending decision as ``observer`` may read it (None: the referee), in lines of at
    most ``WIDTH`` columns (``words.prompt_text``)."""
    return wrap(prompt_text(reading(state, observer)))


def consequences(before, action: int, after, observer: int | None = None) -> list[str]:
    """Phrases for what ``action``, the move from ``before`` to ``after``, did, as
    ``observer`` may know it (``narration.happened``; the records alone say it: the action is
    not read), wrapped so that the narration, the move's text followed by these phrases, stays
    within ``WIDTH`` columns."""
    return happened(reading(before, observer), reading(after, observer), move_columns(before, observer))


def move_columns(before, observer: int | None) -> int:
    """The longest text the move from ``before`` could have had for ``observer``: the
    narration's first line starts with it. Computed from what the observer may know: which
    actions a face-down card allows is the card's secret, so another seat counts the texts
    it would read of every answer to a card (they never name it)."""
    d = before.decision
    if d.kind == Kind.CHARACTER and observer not in (None, d.player):
        actions = [A.UPPER.start, A.LOWER.start, A.APPLE.start, A.USE.start]
    else:
        actions = before.legal_actions()
    return max((len(before.describe_action(a, observer)) for a in actions), default=0)


# --- plain text ------------------------------------------------------------------------------


def _plain_tile(m: dict) -> list[str]:
    """The tile's 3 lines without their left border (a neighbour's right border):
    ``B3---12---P0`` / ``12 anvil   2`` / ``cw---1------``."""
    ex = m["exits"]
    piece = seat_label(m["piece"]) if m["piece"] is not None else ""
    top = f"{m['name']}---{ex[N]:-^2}---{piece:->2}"
    mid = f"{ex[W]:<2}{m['thing'][1]:^8}{ex[E]:>2}"
    bottom = f"{m['turn']:-<5}{ex[S]:-^2}-----"
    return [top, mid, bottom]


def _plain_backpack(v: SeatReading, cell: int) -> list[str]:
    """A corner of the forest: whose backpack lies there and whether the piece is in it."""
    owner = [p for p in range(v.num_players) if _corner_of(v, p) == cell]
    label = f"{seat_label(owner[0])} backpack" if owner else ""
    inside = _backpack_owner(v, cell)
    return ["", f"{label:^{INNER_W}}",
            f"{(seat_label(inside) + ' in it') if inside is not None else '':^{INNER_W}}"]


def _corner_of(v: SeatReading, p: int) -> int:
    return backpack_corner(v.num_players, p)


def board_lines(v: SeatReading) -> list[str]:
    """The forest as ASCII, 3 lines a row of tiles; neighbours share a border (``+`` on the
    top and bottom lines, ``|`` in the middle), each tile names itself at its top left."""
    g = v.grid
    pieces = _pieces(v)
    lines = []
    for r in range(g):
        rows = ["", "", ""]
        left_is_tile = False
        for c in range(g):
            cell = cell_id(r, c)
            is_tile = cell in v.tile_cells
            if is_tile:
                parts = _plain_tile(tile_model(cell, v.cell(cell), pieces.get(cell)))
            else:
                parts = _plain_backpack(v, cell)
            border = is_tile or left_is_tile
            for i in range(3):
                edge = ("|" if i == 1 else "+") if border else " "
                rows[i] += edge + f"{parts[i]:<{INNER_W}}"
            left_is_tile = is_tile
        for i in range(3):
            closing = ("|" if i == 1 else "+") if left_is_tile else ""
            lines.append((rows[i] + closing).rstrip())
    return lines


def table_lines(v: SeatReading) -> list[str]:
    """Below the forest: blockades, the fairy's rows by name, the players, the characters
    laid out, the supply and the bags."""
    lines = []
    if v.gaps:
        lines.append("Blockades: " + ", ".join(f"{item_name(k)} at {gap_label(g)}"
                                               for g, k in v.gaps))
    for r, row in enumerate(v.fairy):
        items = ", ".join(item_name(k) if k >= 0 else "-" for k in row)
        lines.append(f"Fairy {fairy_row(r) + ':':<22} {items}")
    for p, pl in enumerate(v.players):
        where = "in the backpack" if pl.in_backpack else f"on {cell_name(pl.cell)}"
        debts = ", ".join(CHARACTER_NAMES[c] for c in pl.debts) or "none"
        lines.append(f"{seat_label(p)} {where}: {pl.copper} copper, {pl.silver} silver, "
                     f"{count(pl.apples, 'golden apple')}, {count(pl.compasses, 'compass')}"
                     + ("  WINNER" if pl.winner else ""))
        lines.append(f"   backpack: {', '.join(held_items(pl)) or 'empty'}; debts: {debts}")
        if pl.drawn_card is not None:
            lines.append(f"   card drawn face down: {CHARACTER_NAMES[pl.drawn_card]}")
        prince = [item_name(k) for k, n in enumerate(pl.prince_items or ()) for _ in range(n)]
        if prince:
            lines.append(f"   the Prince's secret draw: {', '.join(prince)}")
    d = v.decision
    if v.drawn_item >= 0 and d is not None:
        lines.append(f"{seat_label(d.player)} has in hand: {item_name(v.drawn_item)}")
    if v.laid_out:
        lines.append("Laid out: " + ", ".join(CHARACTER_NAMES[c] for c in v.laid_out))
    sup = v.supply
    lines.append(f"Supply: {sup.copper} copper, {sup.silver} silver, "
                 f"{count(sup.apples, 'golden apple')}; blue bag: "
                 f"{count(sum(v.bag_items), 'item')}; character pile: {v.pile_size}")
    return [part for line in lines for part in _wrapped(line)]


def _wrapped(line: str) -> list[str]:
    """A long line (many debts, many characters laid out) continued under its text."""
    indent = " " * (len(line) - len(line.lstrip()) + 4)
    return textwrap.wrap(line, WIDTH, subsequent_indent=indent, break_on_hyphens=False) or [""]


def legend() -> str:
    """The key to ``render``'s (and ``render_rich``'s) text: every code the board uses."""
    items = ", ".join(f"{lab} = {name}" for lab, name in zip(ITEM_LABELS, ITEM_NAMES)
                      if lab != name)
    chars = ", ".join(f"{lab} = {name}" for lab, name in zip(CHAR_LABELS, CHARACTER_NAMES)
                      if lab != name)
    example = _plain_tile({"name": "B3", "turn": "cw", "exits": ("12", "2", "1", "12"),
                           "piece": 0, "thing": ("item", "anvil")})
    text = (
        f"Each tile is 3 lines between borders: {' / '.join(example)}\n"
        "  Top: the tile's name (B3: row B, column 3, as the moves name it), its north exits, "
        "the piece on it (P0, P1, ...). Middle: west exits, what lies on it, east exits. "
        "Bottom: cw (clockwise) or ccw (counter-clockwise), the way the tile turns when a "
        "piece moves onto it or pauses on it (## = blockaded: it does not turn), then its "
        "south exits.\n"
        "  Exits: 1 = a piece may step onto the next tile that way, 2 = onto the tile two "
        "away, 12 = both; no digit: closed.\n"
        "  What lies on a tile: (blue) (yellow) (red) a colour chip, ~well~ a well, an item "
        "token in lower case (anvil), a character token capitalised (Witch).\n"
        "  Corners: the players' backpacks (where the pieces start).\n"
        f"Item labels: {items} (coin tokens).\n"
        f"Character labels: {chars}.\n"
        "Fairy rows: top (2 copper), middle (1 copper), bottom (free), as the trade actions "
        "name them.\n"
        "In colour (render_rich): ↑ → ↓ ← = exit to the next tile, ⇈ ⇉ ⇊ ⇇ = to the tile two "
        "away; ↻ clockwise, ↺ counter-clockwise, ⊘ blockaded.")
    return "\n".join(textwrap.fill(line, WIDTH, subsequent_indent="    ")
                     for line in text.split("\n"))


# --- rich: colour and Unicode --------------------------------------------------------------------

_ARROWS = {N: ("↑", "⇈"), E: ("→", "⇉"), S: ("↓", "⇊"), W: ("←", "⇇")}
_TURN = {"cw": "↻", "ccw": "↺", "##": "⊘"}
_CHIP_STYLE = {"(blue)": "bold white on blue", "(yellow)": "bold black on yellow",
               "(red)": "bold white on red"}
_KIND_STYLE = {"friendly": "bold green", "hostile": "bold red", "helpful": "bold cyan"}
_SEAT_STYLE = ("bold magenta", "bold bright_blue", "bold bright_green", "bold yellow")


def _arrows(side: int, exits: str) -> str:
    inner, outer = _ARROWS[side]
    return ("" if "1" not in exits else inner) + ("" if "2" not in exits else outer)


def _rich_tile(m: dict, info: CellReading):
    """Three lines of ``INNER_W`` columns: the tile's name, north exits and the piece; west
    exits, what lies there, east exits; the turning arrow and south exits."""
    from rich.text import Text

    ex = m["exits"]
    t = Text(no_wrap=True)
    t.append(m["name"], style="dim")
    t.append(f"{_arrows(N, ex[N]):^7}")
    piece = seat_label(m["piece"]) if m["piece"] is not None else ""
    t.append(f"{piece:>3}", style=_SEAT_STYLE[m["piece"] % 4] if piece else "")
    t.append(f"\n{_arrows(W, ex[W]):<2}")
    kind, label = m["thing"]
    if kind == "chip":
        style = _CHIP_STYLE[label]
    elif kind == "character":
        style = _KIND_STYLE[CHARACTERS[info.character].kind]
    elif kind == "well":
        style = "bold bright_cyan"
    else:
        style = "bold"
    t.append(f"{label:^8}", style=style)
    t.append(f"{_arrows(E, ex[E]):>2}\n")
    t.append(_TURN[m["turn"]], style="bold red" if m["blocked"] else "dim")
    t.append(f"{_arrows(S, ex[S]):^9}  ")
    return t


def board_rich(v: SeatReading):
    """The forest as a ``rich`` table (colour chips, characters by kind, the pieces in their
    seat's colour, exits as arrows: a single arrow one step, a double one two steps), each
    tile named at its top left."""
    from rich import box
    from rich.table import Table
    from rich.text import Text

    g = v.grid
    pieces = _pieces(v)
    table = Table(box=box.SQUARE, show_lines=True, padding=(0, 0), show_header=False)
    for _ in range(g):
        table.add_column(justify="left", width=INNER_W, no_wrap=True)
    for r in range(g):
        cells = []
        for c in range(g):
            cell = cell_id(r, c)
            info = v.cell(cell) if cell in v.tile_cells else None
            if info is None:
                cells.append(Text("\n".join(_plain_backpack(v, cell)).strip("\n"), style="dim",
                                  justify="center"))
            else:
                cells.append(_rich_tile(tile_model(cell, info, pieces.get(cell)), info))
        table.add_row(*cells)
    return table
