"""Chickwood Forest in words for people: the pending decision as a sentence (``ask``), and
the small pieces the narration of a move (``narration.py``) shares.

Both read only the observer's reading (``view.reading``: its hand, its own face-down cards,
what it saw with the spy glass; everything for the referee), so they cannot name a card the
observer may not know. What a raid takes is public once taken: the rulebook has the raider
lay all loot face up ("even those that were face down"), and the collections are public.
Players are P0, P1, ... as on the board; opponents in action names are relative (+1 = the
next seat), so the texts give both ("P2 (+1)").
"""

from __future__ import annotations

from ..actions import cell_name
from ..components import (
    GRID_COLS,
    KIND_NAMES,
    MAX_SPACES,
    NUM_TREASURE_KINDS,
    VILLAGES,
)
from ..observation import Kind
from .view import CastleReading, SeatReading

WIDTH = 80      # no line of a prompt, narration or board is wider: an 80-column terminal
# A sentence that names everything (the cards in hand) is used while it stays this short, a
# shorter wording otherwise; the prompt is then broken into lines of ``WIDTH``. (The picture's
# title shows the same sentence: changing this number changes the pictures.)
SENTENCE_WIDTH = 100

# --- small pieces ----------------------------------------------------------------------------
def cards(counts) -> str:
    """Counts by kind id as "gold chest x2, henchman" ("-" for none)."""
    return ", ".join(f"{KIND_NAMES[k]} x{c}" if c > 1 else KIND_NAMES[k]
                     for k, c in enumerate(counts) if c) or "-"


def named(counts) -> str:
    """Counts by kind id as "gold chest x2 and henchman"."""
    return either([f"{KIND_NAMES[k]} x{c}" if c > 1 else KIND_NAMES[k]
                   for k, c in enumerate(counts) if c], "and") or "-"


def either(items: list[str], word: str = "or") -> str:
    """"a", "a or b", "a, b or c"."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {word} {items[-1]}"


def place(v: SeatReading, cell: int) -> str:
    """A grid cell by its name and card: "r1c2 Dunmere"."""
    village = v.villages[cell].village
    return f"{cell_name(cell)} {VILLAGES[village].name if village >= 0 else 'forest'}"


def _fitting(*texts: str) -> str:
    """The first text within ``SENTENCE_WIDTH`` columns (the last one otherwise)."""
    for text in texts:
        if len(text) <= SENTENCE_WIDTH:
            return text
    return texts[-1]


def _opponents(v: SeatReading, p: int, wanted) -> list[str]:
    """The opponents ``wanted(o)`` picks, in action order (+1 first): "P2 (+1)"."""
    n = v.num_players
    return [f"P{(p + r) % n} (+{r})" for r in range(1, n) if wanted((p + r) % n)]


def _hand(v: SeatReading, p: int) -> tuple[int, ...] | None:
    """Seat ``p``'s hand as the view knows it (None: not known)."""
    if v.seat == p:
        return v.hand
    return v.hands[p] if v.hands is not None else None


def cards_at(castle: CastleReading) -> int:
    return sum(castle.face_up) + sum(castle.face_down_by)


# --- the pending decision ------------------------------------------------------------------
def ask(v: SeatReading) -> str:
    """The pending decision of reading ``v`` as a sentence for a player; "game over" at the end."""
    d = v.decision
    if d is None:
        return "game over"
    return _ASK[d.kind](v, d.player, d.data)


def _ask_scout(v: SeatReading, p: int, data) -> str:
    pl = v.players[p]
    size, left = len(pl.banner), pl.hand_count
    play = size - left
    face = "face down" if pl.banner[play] else "face up"
    open_castles = [str(c.value) for c in v.castles
                    if c.capacity is None or cards_at(c) < c.capacity]
    head = f"P{p} scouts, card {play + 1} of {size}, {face}: play"
    to = ("to any castle" if len(open_castles) == len(v.castles)
          else f"to castle {either(open_castles)}")
    hand = _hand(v, p)
    some = "the last hand card" if left == 1 else f"one of {left} hand cards"
    if hand is None:
        return f"{head} {some} {to}"
    return _fitting(f"{head} {either([KIND_NAMES[k] for k, x in enumerate(hand) if x])} {to}",
                    f"{head} {some} {to}")


def _ask_spy(v: SeatReading, p: int, data) -> str:
    targets = [str(c.value) for c in v.castles if sum(c.face_down_by) - c.face_down_by[p] > 0]
    return (f"P{p} looks with the spy glass at the face-down cards at one castle: "
            f"castle {either(targets)}")


def _ask_raid(v: SeatReading, p: int, data) -> str:
    free = [str(c.value) for c in v.castles if c.raided_by is None and not c.key_blocked]
    blocked = [str(c.value) for c in v.castles if c.key_blocked]
    if blocked:
        return (f"P{p} must raid another castle (the key blocks castle {either(blocked)}): "
                f"castle {either(free)}")
    return f"P{p} raids a castle not raided this round and takes its loot: castle {either(free)}"


def _ask_key(v: SeatReading, p: int, data) -> str:
    r, value = data.raider, data.castle + 1
    return (f"P{p} may use the key: P{r} chose to raid castle {value}; force P{r} to choose "
            "another castle, or pass")


def alms_targets(v: SeatReading, last: int | None) -> list[int]:
    """Cells the next alms may go to: a village with a free space, not given to in this
    snake, next to the ``last`` one (any such village before the first alms)."""
    out = []
    for cell, vil in enumerate(v.villages):
        if vil.village < 0 or -1 not in vil.alms or cell in v.snake_visited:
            continue
        if last is None or abs(cell // GRID_COLS - last // GRID_COLS) + abs(
                cell % GRID_COLS - last % GRID_COLS) == 1:
            out.append(cell)
    return out


def _ask_alms(v: SeatReading, p: int, data) -> str:
    n, last = data.alms_left, data.last_cell
    targets = alms_targets(v, last)
    names = either([place(v, c) for c in targets])
    cells = either([cell_name(c) for c in targets])
    if last is None:
        head = f"P{p} gives {n} alms, one a village, each next to the last: the first to"
        return _fitting(f"{head} {names}", f"{head} {cells}",
                        f"{head} any village with a free space")
    head = f"P{p} gives alms ({n} more): next to {place(v, last)}, to"
    return _fitting(f"{head} {names}", f"{head} {cells}")


def _ask_entertainers_first(v: SeatReading, p: int, data) -> str:
    return (f"P{p} may swap two alms of different players with the travelling entertainers: "
            "pick the first, or pass")


def _ask_entertainers_second(v: SeatReading, p: int, data) -> str:
    cell, space = divmod(data.first_pick, MAX_SPACES)
    owner = v.villages[cell].alms[space]
    whose = "its own" if owner == p else f"P{owner}'s"
    return (f"P{p} swaps {whose} alms at {place(v, cell)} (space {space + 1}) with another "
            "player's alms: pick it")


def _treasures(v: SeatReading, p: int) -> tuple[int, ...]:
    return v.players[p].collection[:NUM_TREASURE_KINDS]


def _ask_arrow_give(v: SeatReading, p: int, data) -> str:
    mine = either([KIND_NAMES[k] for k, x in enumerate(_treasures(v, p)) if x])
    head = f"P{p} may use the golden arrow to swap a treasure with an opponent"
    return _fitting(f"{head}: give {mine}, or pass", f"{head}: pick the one to give, or pass")


def _ask_arrow_take(v: SeatReading, p: int, data) -> str:
    holders = either(_opponents(v, p, lambda o: any(_treasures(v, o))))
    give = KIND_NAMES[data.give]
    return _fitting(f"P{p} gives {give} with the golden arrow: take a treasure from {holders}",
                    f"P{p} gives {give} (golden arrow): take a treasure from {holders}")


def _ask_fake_beard(v: SeatReading, p: int, data) -> str:
    return (f"P{p} may give a henchman to {either(_opponents(v, p, lambda o: True))} with the "
            "fake beard, or pass")


_ASK = {Kind.SCOUT: _ask_scout, Kind.SPY: _ask_spy, Kind.RAID: _ask_raid, Kind.KEY: _ask_key,
        Kind.ALMS: _ask_alms, Kind.ENTERTAINERS_FIRST: _ask_entertainers_first,
        Kind.ENTERTAINERS_SECOND: _ask_entertainers_second, Kind.ARROW_GIVE: _ask_arrow_give,
        Kind.ARROW_TAKE: _ask_arrow_take, Kind.FAKE_BEARD: _ask_fake_beard}
assert set(_ASK) == set(Kind), "every decision kind has its sentence"
