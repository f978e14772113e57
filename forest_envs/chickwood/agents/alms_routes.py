"""Alms: what one alms is worth in each village, and the best snake of alms through them.

An alms is worth the change it makes to every seat's village glory (``scoring``): mine
counts for me, the opponents' against me (``opp_weight``, scaled to the table). Glory is
weighed as it is unlocked now and, while rounds remain, partly as if every row were
unlocked (rows fill up later). A new alms lies in the village's next space, so it wins the
ties the rules break by position. The snake is planned whole: a depth-first search over
every legal route (dead ends included: a route may stop early) finds the best sum.
"""

from __future__ import annotations

import functools

from ..actions import ALMS
from ..components import GRID_COLS, MAX_CELLS
from ..rules.scoring import village_awards, village_awards_all_unlocked
from .params import Params
from .seat_view import SeatView

_Route = tuple[float, tuple[int, ...]]  # a snake's value and its cells in order

GRID_ROWS = 3  # a 2-player grid leaves its third row without cards


def _neighbours(cell: int) -> tuple[int, ...]:
    r, c = divmod(cell, GRID_COLS)
    return tuple(rr * GRID_COLS + cc
                 for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
                 if 0 <= rr < GRID_ROWS and 0 <= cc < GRID_COLS)


NEIGHBOURS = tuple(_neighbours(cell) for cell in range(MAX_CELLS))
STEPS = tuple(tuple((nb, 1 << nb) for nb in NEIGHBOURS[cell]) for cell in range(MAX_CELLS))


@functools.lru_cache(maxsize=1 << 13)
def alms_value(village: int, owners: tuple, me: int, n: int, later: bool, p: Params) -> float:
    """What one more alms of ``me`` in ``village`` (spaces held by ``owners``, -1 empty) is
    worth; ``later``: rounds remain after this one."""
    after = list(owners)
    after[after.index(-1)] = me
    unlocked = p.unlock_weight if later else 0.0
    change = [0.0] * n
    for awards, weight in ((village_awards, 1.0 - unlocked),
                           (village_awards_all_unlocked, unlocked)):
        if weight:
            for q, (b, a) in enumerate(zip(awards(village, list(owners), n),
                                           awards(village, after, n))):
                change[q] += weight * (a - b)
    value = change[me] - p.opponents_share(p.opp_weight, n) * (sum(change) - change[me])
    return value + (p.alms_future if later else 0.0)


def cell_values(sv: SeatView, p: Params) -> tuple[float | None, ...]:
    """Per cell, what one alms of mine is worth there (None: no village with a free space)."""
    return grid_values(sv.grid, sv.me, sv.n, sv.rounds_after > 0, p)


@functools.lru_cache(maxsize=1 << 12)
def grid_values(grid: tuple, me: int, n: int, later: bool, p: Params) -> tuple[float | None, ...]:
    """``cell_values`` of a grid ((village, owners) per cell): the alms change a few times a
    round, and every decision in between asks again."""
    return tuple(alms_value(village, owners, me, n, later, p)
                 if village >= 0 and -1 in owners else None
                 for village, owners in grid)


@functools.lru_cache(maxsize=1 << 11)
def best_routes(values: tuple, start: int | None, visited: int, length: int):
    """The best snake for each number of alms 0..``length``: (values, routes), where a route
    is the cells in order and is shorter than asked when the snake gets stuck on the way.

    ``values``: ``cell_values``; ``start``: the cell of the snake's last alms (None: the
    snake may start anywhere); ``visited``: bit mask of the cells it gave to already."""
    exact: list[_Route | None] = [None] * (length + 1)  # best (value, route) giving exactly L alms
    stuck: list[_Route | None] = [None] * (length + 1)  # best (value, route) of L alms that cannot go on
    exact[0] = (0.0, ())
    route: list[int] = []
    search = (values, route, exact, stuck, length)
    if start is None:
        firsts = [c for c, v in enumerate(values) if v is not None and not visited >> c & 1]
        if not firsts:
            stuck[0] = (0.0, ())
        for c in firsts:
            route.append(c)
            _walk(search, c, values[c], visited | 1 << c)
            route.pop()
    else:
        _walk(search, start, 0.0, visited | 1 << start)
    # L alms go along the best route of exactly L, or of fewer that got stuck on the way.
    best = []
    stuck_before = None
    for size in range(length + 1):
        stuck_shorter = stuck[size - 1] if size else None
        if stuck_shorter is not None and _better(stuck_shorter[0], stuck_before):
            stuck_before = stuck_shorter
        found = exact[size]
        if stuck_before is not None and _better(stuck_before[0], found):
            found = stuck_before
        best.append(found or (0.0, ()))
    return tuple(value for value, _ in best), tuple(cells for _, cells in best)


def _walk(search: tuple, cell: int, total: float, seen: int) -> None:
    """``best_routes``' depth-first search on from ``cell`` (``route`` holds the cells so far,
    ``total`` their values, ``seen`` the cells visited). ``search``: (the cells' values,
    route, best exact, best stuck, length), shared by the whole search. A function of the
    module, not a closure of ``best_routes``: a recursive closure refers to itself, and each
    search would leave a reference cycle for the garbage collector."""
    values, route, exact, stuck, length = search
    size = len(route)
    best = exact[size]
    if best is None or total > best[0]:  # _better, inline: the search's every step asks
        exact[size] = (total, tuple(route))
    if size == length:
        return
    went_on = False
    for nb, bit in STEPS[cell]:
        value = values[nb]
        if value is not None and not seen & bit:
            went_on = True
            route.append(nb)
            _walk(search, nb, total + value, seen | bit)
            route.pop()
    if not went_on and _better(total, stuck[size]):
        stuck[size] = (total, tuple(route))


def _better(total: float, best: tuple | None) -> bool:
    """Whether ``total`` beats the best (value, route) so far (None: there is none)."""
    return best is None or total > best[0]


def route_value(alms_left: int, values: tuple, alms: int) -> float:
    """What giving ``alms`` alms this round is worth along the best snake (no more than the
    ``alms_left`` or the cells). The search goes as deep as asked, at least 3 (a
    benefactor's alms), so that most questions share one search."""
    most = min(alms_left, MAX_CELLS)
    alms = min(alms, most)
    return best_routes(values, None, 0, max(alms, min(3, most)))[0][alms]


def choose_alms(sv: SeatView, p: Params, legal: list[int]) -> int:
    """The first village of the best snake for the alms still to give."""
    left = min(sv.data.alms_left, MAX_CELLS)
    visited = sum(1 << c for c in sv.snake_visited)
    _, routes = best_routes(cell_values(sv, p), sv.data.last_cell, visited, left)
    route = routes[left]
    if not route or ALMS.id(route[0]) not in legal:
        raise RuntimeError(f"the alms snake found no legal village: route {route}, legal {legal}")
    return ALMS.id(route[0])
