"""Character cards and tokens: a card drawn face down, a character's token met.

Lower tasks (an apple) beat upper ones; a helper is used when it can help now, else laid
out; a debt is taken rather than an apple given while apples are short, and settled when
possible.
"""

from __future__ import annotations

from .. import actions as A
from ..components import APPLES_TO_WIN
from .impossible import impossible
from .seat_view import SeatView


def task_choice(sv: SeatView, legal: set[int], may_debt: bool) -> int:
    """The lower task (an apple), else the upper; else, for a drawn card, the debt (an
    apple instead while more than enough are held); else an apple for the debt."""
    if A.LOWER.start in legal:
        return A.LOWER.start
    if A.UPPER.start in legal:
        return A.UPPER.start
    if may_debt and A.DEBT.start in legal:
        if A.APPLE.start in legal and sv.apples > APPLES_TO_WIN:
            return A.APPLE.start
        return A.DEBT.start
    if A.APPLE.start in legal:
        return A.APPLE.start
    raise impossible(sv, legal, "no task, apple or debt is offered")


def choose_character(agent, sv: SeatView, legal: set[int]) -> int:
    if A.USE.start in legal:
        return A.USE.start
    if A.DEFER.start in legal:
        return A.DEFER.start
    return task_choice(sv, legal, may_debt=True)


def choose_meet(agent, sv: SeatView, legal: set[int]) -> int:
    return task_choice(sv, legal, may_debt=False)
