"""What Sherwood's narration (``narration.py``, ``coach_drive.py``) reads of a move from the
states before and after it: which public move was taken, the seat it named, an ambush's
participants, the fame a robbery gave, the traveller on the road, and how the forest-cloak
questions of a crushed ambush ended.
"""

from __future__ import annotations

import numpy as np

from .. import actions as A
from ..components import FINAL_COMRADE_FAME, FINAL_GOLD_FAME


def move_taken(before, after) -> int | None:
    """The legal move of ``before`` that gives ``after`` (None if none does). Used only for
    decisions whose moves every seat reads in full."""
    for a in before.legal_actions():
        trial = before.clone()
        trial.apply(a)
        if trial.decisions == after.decisions and np.array_equal(trial.buf, after.buf):
            return a
    return None


def named_seat(before, after, block) -> int | None:
    """The seat a public move of ``block`` (``give a share to +r``...) named."""
    a = move_taken(before, after)
    if a is None or a not in block:
        return None
    return (before.current_player + a - block.start) % before.num_players


def participants(state, a: int) -> list[int]:
    """Ambush ``a``'s participants, its leader first, then clockwise."""
    outs = state.ambush_outlaws[a].tolist()
    if not any(outs):
        return []
    leader = int(state.ambush_leader[a].argmax())
    n = state.num_players
    return [q for q in ((leader + i) % n for i in range(n)) if outs[q]]


def _conversion(before, after) -> np.ndarray:
    """Fame the game's end gave for sixth-round gold and comrades (0 before the end)."""
    if not after.is_terminal or before.is_terminal:
        return np.zeros(after.num_players, np.int64)
    return (FINAL_GOLD_FAME * after.round_gold.astype(np.int64)
            + FINAL_COMRADE_FAME * after.round_comrades.astype(np.int64))


def robbery_fame(before, after) -> np.ndarray:
    """Fame a successful attack gave in this move (the only other fame of the attack phase is
    the game's end and a Sheriff's losses, which have their own moves)."""
    return (after.fame.astype(np.int64) - before.fame.astype(np.int64)
            - _conversion(before, after))


def crush_over(before, after) -> bool:
    """The forest-cloak questions of ``before``'s crushed ambush are all answered (the coach
    may have driven on to crush another ambush)."""
    return (after.crush is None or after.coach is None or after.coach.card != before.coach.card
            or after.coach.step != before.coach.step)


def cloak_stays(before, after, d) -> list[int]:
    """The participants of the crushed ambush who stay in it under a forest cloak."""
    c = before.crush
    a = move_taken(before, after)
    return [q for q in c.order if c.cloaks.get(q)
            or (q == d.player and a is not None and a == A.CLOAK.id(A.CLOAK_STAY))]


def coach_card(before, after) -> int | None:
    """The traveller on the road during this move (None: none was)."""
    if before.coach is not None:
        return before.coach.card
    if after.coach is not None:
        return after.coach.card
    new = [c for c in after.removed if c not in before.removed]
    return new[0] if new else None
