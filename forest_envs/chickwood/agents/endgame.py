"""The end of the game (Legendary variant): travelling entertainers, golden arrow, fake beard.

Everything that scores is public by then, so every option is scored exactly with the
rules' own scoring (``scoring.py``) by my margin over the best opponent, counting the fake
beard still to come (it resolves last). The agent passes when nothing improves its margin.
"""

from __future__ import annotations

import functools

from ..actions import (
    ARROW_GIVE,
    ARROW_PASS,
    ARROW_TAKE,
    BEARD_GIVE,
    BEARD_PASS,
    ENT_PASS,
    ENT_PICK,
)
from ..components import FAKE_BEARD, HENCHMAN, NUM_TREASURE_KINDS
from ..rules.scoring import castle_score, loot_glory, village_awards
from .seat_view import SeatView

TIE_BREAK = 1e-3  # between equal margins, prefer more glory of my own
NOISE = 1e-9      # an option must beat passing by more than float noise


@functools.lru_cache(maxsize=1 << 12)
def glory_of_loot(coll: tuple) -> int:
    return loot_glory(coll)


@functools.lru_cache(maxsize=1 << 12)
def glory_of_village(village: int, owners: tuple, n: int) -> tuple[int, ...]:
    return tuple(village_awards(village, list(owners), n))


class FinalScores:
    """Each seat's final glory by part, as the table stands."""

    def __init__(self, sv: SeatView, beard_to_come: bool):
        n = sv.n
        self.sv = sv
        self.loot = [glory_of_loot(coll) for coll in sv.colls]
        self.castles = [castle_score(held) for held in sv.castles_held]
        self.villages = {cell: glory_of_village(village, owners, n)
                         for cell, (village, owners) in enumerate(sv.grid) if village >= 0}
        self.beard = [0.0] * n
        if beard_to_come:
            for q, coll in enumerate(sv.colls):
                if coll[FAKE_BEARD] and coll[HENCHMAN]:  # it gives a henchman away
                    for o in range(n):
                        self.beard[o] += 3.0 if o == q else -3.0 / (n - 1)

    def totals(self) -> list[float]:
        return [self.loot[q] + self.castles[q] + self.beard[q]
                + sum(glory[q] for glory in self.villages.values()) for q in range(self.sv.n)]


def margin(totals: list[float], me: int) -> float:
    best_other = max(t for q, t in enumerate(totals) if q != me)
    return totals[me] - best_other + TIE_BREAK * totals[me]


# --- travelling entertainers: swap two alms of different players ---------------------------
def choose_entertainers_first(sv: SeatView, legal: list[int]) -> int:
    """The first alms of the best swap, or pass if no swap improves my margin."""
    scores = FinalScores(sv, beard_to_come=True)
    base = scores.totals()
    best, plan = margin(base, sv.me), None
    alms = occupied_spaces(sv)
    for i, (a, owner_a) in enumerate(alms):
        for b, owner_b in alms[i + 1:]:
            if owner_a != owner_b:
                m = margin(swapped_totals(scores, base, a, b), sv.me)
                if m > best + NOISE:
                    best, plan = m, (a, b)
    return ENT_PASS.id() if plan is None else ENT_PICK.id(*plan[0])


def choose_entertainers_second(sv: SeatView, legal: list[int]) -> int:
    """The alms to swap with the one picked first that leaves me the best margin."""
    scores = FinalScores(sv, beard_to_come=True)
    base = scores.totals()
    first = ENT_PICK.index(ENT_PICK.start + sv.data.first_pick)  # its index in the block
    return max(legal, key=lambda a: margin(
        swapped_totals(scores, base, first, ENT_PICK.index(a)), sv.me))


def occupied_spaces(sv: SeatView) -> list[tuple[tuple[int, int], int]]:
    """((cell, space), owner) of every alms on the villages."""
    return [((cell, s), owner) for cell, (village, owners) in enumerate(sv.grid)
            for s, owner in enumerate(owners) if owner >= 0]


def swapped_totals(scores: FinalScores, base: list[float], a: tuple, b: tuple) -> list[float]:
    """The totals after the alms in spaces ``a`` and ``b`` (cell, space) change places:
    each takes the other's space, and with it its rank in ties."""
    sv, grid = scores.sv, scores.sv.grid
    owners = {cell: list(grid[cell][1]) for cell in (a[0], b[0])}
    owners[a[0]][a[1]], owners[b[0]][b[1]] = grid[b[0]][1][b[1]], grid[a[0]][1][a[1]]
    totals = list(base)
    for cell, after in owners.items():
        now = scores.villages[cell]
        new = glory_of_village(grid[cell][0], tuple(after), sv.n)
        for q in range(sv.n):
            totals[q] += new[q] - now[q]
    return totals


# --- golden arrow: exchange a treasure of mine with one of an opponent ---------------------
def choose_arrow_give(sv: SeatView, legal: list[int]) -> int:
    """The treasure to give in the best exchange, or pass if none improves my margin."""
    scores = FinalScores(sv, beard_to_come=True)
    base = scores.totals()
    best, plan = margin(base, sv.me), None
    for a in legal:
        if a in ARROW_GIVE:
            (give,) = ARROW_GIVE.index(a)
            for take in takes(sv):
                m = margin(exchanged_totals(scores, base, give, take), sv.me)
                if m > best + NOISE:
                    best, plan = m, a
    return ARROW_PASS.id() if plan is None else plan


def choose_arrow_take(sv: SeatView, legal: list[int]) -> int:
    """The treasure to take for the one given that leaves me the best margin."""
    scores = FinalScores(sv, beard_to_come=True)
    base = scores.totals()
    give = sv.data.give
    return max(legal, key=lambda a: margin(exchanged_totals(scores, base, give, a), sv.me))


def takes(sv: SeatView) -> list[int]:
    """Every ``arrow_take`` action: an opponent's treasure kind it holds."""
    out = []
    for r in range(sv.n - 1):
        coll = sv.colls[(sv.me + r + 1) % sv.n]
        out += [ARROW_TAKE.id(r, k) for k in range(NUM_TREASURE_KINDS) if coll[k]]
    return out


def exchanged_totals(scores: FinalScores, base: list[float], give: int,
                     take_action: int) -> list[float]:
    """The totals after I give a treasure of kind ``give`` for the one ``take_action``
    takes (the fake beard to come is unchanged: only treasure moves)."""
    sv, me = scores.sv, scores.sv.me
    r, take = ARROW_TAKE.index(take_action)
    o = (me + r + 1) % sv.n
    mine, theirs = list(sv.colls[me]), list(sv.colls[o])
    mine[give] -= 1
    theirs[give] += 1
    theirs[take] -= 1
    mine[take] += 1
    totals = list(base)
    totals[me] += glory_of_loot(tuple(mine)) - scores.loot[me]
    totals[o] += glory_of_loot(tuple(theirs)) - scores.loot[o]
    return totals


# --- fake beard: give a henchman to an opponent ---------------------------------------------
def choose_beard(sv: SeatView, legal: list[int]) -> int:
    """Give the henchman to whoever it costs my margin most, or keep it if that helps no
    margin (giving moves 3 glory from the opponent's total to mine)."""
    totals = FinalScores(sv, beard_to_come=False).totals()
    best, choice = margin(totals, sv.me), BEARD_PASS.id()
    for a in legal:
        if a in BEARD_GIVE:
            (r,) = BEARD_GIVE.index(a)
            after = list(totals)
            after[sv.me] += 3
            after[(sv.me + r + 1) % sv.n] -= 3
            m = margin(after, sv.me)
            if m > best:
                best, choice = m, a
    return choice
