"""What things are worth to the seat at a decision (``seat_view.SeatView``): an item kept, a
tile arrived on, how far the tiles are from where it wants to go, what it lacks for a task.
Every handler reads these; the numbers are ``params.Params``'s."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable

from .. import actions as A
from ..components import (
    APPLES_TO_WIN,
    BACKPACK_ITEMS,
    BLUE,
    CHARACTERS,
    CHEST,
    CROSS,
    HEAVY,
    HELPFUL,
    KEY,
    MERCHANT,
    POTION,
    RED,
    SPIRIT,
    SWORD,
    WELL_COPPER_IN,
    WELL_ITEMS_IN,
    YELLOW,
    Task,
)
from ..rules.turn import octagon_targets
from .impossible import impossible
from .params import NO_TASK_SHORTFALL, Params
from .seat_view import SeatView


def qualified(sv: SeatView) -> bool:
    """The Goal's two conditions: 3 golden apples and no debt."""
    return sv.apples >= APPLES_TO_WIN and not sv.debts


def item_worth(p: Params, sv: SeatView, k: int) -> float:
    """How much an item is worth keeping for this player now."""
    bp = sv.backpack
    worth = p.item_base
    if k in (CHEST, KEY):
        worth = p.chest_key_pair if bp[KEY if k == CHEST else CHEST] else p.chest_key_alone
    if k in (CROSS, SWORD, POTION):
        worth = p.prized_item
    for c in sv.debts:
        ch = CHARACTERS[c]
        for task in (ch.upper, ch.lower):
            if task and (k in task.give or k in task.need):
                worth += p.debt_item
    if k in HEAVY and k != CHEST:
        worth += p.heavy_gift  # gifts for the friendly characters
    return worth


def tile_value(p: Params, sv: SeatView, cell: int) -> float:
    """What arriving on ``cell`` brings this player now."""
    items = sum(sv.backpack)
    c = sv.character[cell]
    if c >= 0:
        if c == SPIRIT:
            return p.spirit_tile
        ch = CHARACTERS[c]
        if ch.kind == HELPFUL:
            return p.merchant_with_silver if c == MERCHANT and sv.silver else p.helper_tile
        if c in sv.debts:
            return p.owed_character_tile
        return p.task_character_tile  # entering means a task can be fulfilled (maybe for an apple)
    if sv.well[cell]:
        if sv.silver:
            return p.well_with_silver
        if sv.copper >= WELL_COPPER_IN:
            return p.well_with_copper
        if items >= WELL_ITEMS_IN:
            return p.well_with_items
        return 0.0
    if sv.item[cell] >= 0:
        item = sv.item[cell]
        return p.item_token_bonus + item_worth(p, sv, item) if items < BACKPACK_ITEMS else 0.0
    chip = sv.chip[cell]
    if chip == BLUE:
        return p.blue_chip if items < BACKPACK_ITEMS else p.blue_chip_full
    if chip == RED:
        return p.red_chip if len(sv.debts) < p.red_chip_debts else p.red_chip_many_debts
    if chip == YELLOW:
        return p.yellow_chip
    return 0.0


def distances(sv: SeatView, goals: set[int], wanted: Iterable[int]) -> dict[int, int]:
    """Moves needed from the tiles to one of ``goals`` over the current octagons (ignoring
    turning and pieces): a breadth-first search backwards. Every tile of ``wanted`` that can
    reach a goal has its distance; the search stops once all of them have one
    (breadth-first, a tile's first distance is final), so other tiles may be missing."""
    cells, n = sv.tile_cells, sv.num_players
    tile, orientation = sv.tile, sv.orientation
    back: dict[int, list[int]] = {c: [] for c in cells}
    for c in cells:
        # the octagons as they lie now (turning is ignored: a rough distance)
        for t in octagon_targets(n, c, tile[c], orientation[c]):
            back[t].append(c)
    dist = {g: 0 for g in goals}
    missing = {c for c in wanted if c not in dist}
    queue = deque(goals)
    while queue and missing:
        c = queue.popleft()
        d = dist[c] + 1
        for prev in back[c]:
            if prev not in dist:
                dist[prev] = d
                missing.discard(prev)
                queue.append(prev)
    return dist


def goals(sv: SeatView) -> set[int]:
    """Where the seat wants to go: the Forest Spirit once qualified, a well while it holds
    coins to exchange, else the characters it owes."""
    cells, character = sv.tile_cells, sv.character
    if qualified(sv):
        spirit = {c for c in cells if character[c] == SPIRIT}
        if spirit:
            return spirit
    if sv.silver or sv.copper >= WELL_COPPER_IN:
        return {c for c in cells if sv.well[c]}
    own = {c for c in cells if character[c] in sv.debts}
    return own


def shortfall(sv: SeatView, task: Task | None) -> int:
    """What the seat of ``sv`` lacks for ``task``: missing items, copper, and silver
    (3 copper each); 0 when it can be fulfilled now (a held item it forbids is not
    counted)."""
    if task is None:
        return NO_TASK_SHORTFALL
    bp = list(sv.backpack)
    missing = 0
    for k in task.give + task.need:
        if bp[k] > 0:
            bp[k] -= 1
        else:
            missing += 1
    return (missing + max(0, task.copper - sv.copper)
            + WELL_COPPER_IN * max(0, task.silver - sv.silver))


def cheapest_item(p: Params, sv: SeatView, legal: set[int]) -> int:
    """The backpack item offered (``item`` ids) worth least to keep."""
    options = [a for a in legal if a in A.ITEM]
    if not options:
        raise impossible(sv, legal, "no backpack item is offered")
    return min(options, key=lambda a: item_worth(p, sv, a - A.ITEM.start))
