"""A turn: where to move (or to pause), and the blockade at a turn's start and end.

Each legal target is scored by what lies there for this player now (``tile_value``), plus
how close it brings the piece to where it wants to be (``goals``: a breadth-first search
over the tiles' current octagons), less a compass's cost; a little noise breaks ties.
Compasses are spent only for a clearly better target.
"""

from __future__ import annotations

import numpy as np

from .. import actions as A
from .impossible import impossible
from .seat_view import SeatView
from .valuation import distances, goals, tile_value


def choose_turn(agent, sv: SeatView, legal: set[int]) -> int:
    p = agent.p
    compass_cost = p.compass_cost if sv.compasses > 1 else p.last_compass_cost
    # (action, cell, cost) of each move, in the order of ``legal``: the order of the draws
    moves = [(a, a - A.MOVE.start, 0.0) if a in A.MOVE else (a, a - A.COMPASS.start, compass_cost)
             for a in legal if a in A.MOVE or a in A.COMPASS]
    # one draw per move, as one call (the same numbers as one call per move)
    noise = agent.rng.random(len(moves)).tolist()
    wanted = goals(sv)
    dist = distances(sv, wanted, (cell for _, cell, _ in moves)) if wanted else {}
    # pausing is worth a little; from the backpack it is legal only with no move at all
    best, best_score = (A.PAUSE.start, p.pause_value) if A.PAUSE.start in legal else (None, -np.inf)
    for (a, cell, cost), draw in zip(moves, noise):
        score = tile_value(p, sv, cell) - cost
        if wanted:
            d = dist.get(cell)
            score += p.goal_pull / (1 + d) if d is not None else 0.0
        score += draw * p.move_noise
        if score > best_score:
            best, best_score = a, score
    if best is None:
        raise impossible(sv, legal, "neither a move nor a pause is offered")
    return best


def choose_blockade(agent, sv: SeatView, legal: set[int]) -> int:
    """Never blockades: its moves are planned on the tiles' current octagons, which a
    blockade would keep only for the tiles next to it (``done`` is always offered)."""
    return A.DONE.start
