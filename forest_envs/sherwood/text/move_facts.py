"""What Sherwood's narration (``narration.py``, ``coach_drive.py``) reads of a move: the
``Move`` (one observer's records before and after it, the decision it answered and the
action where every seat reads it), and the facts read off it: the seat a move named, an
ambush's participants, the fame a robbery gave, the traveller on the road, and how the
forest-cloak questions of a crushed ambush ended.
"""

from __future__ import annotations

from typing import NamedTuple

from ...core.decisions import DecisionReading
from .. import actions as A
from ..components import FINAL_COMRADE_FAME, FINAL_GOLD_FAME
from .view import SeatReading


class Move(NamedTuple):
    """One move as an observer knows it."""

    before: SeatReading
    after: SeatReading
    decision: DecisionReading    # the decision the move answered (``before.decision``)
    action: int | None           # the action taken; None where the observer may not read it
                                 # (another seat's acceptance, whose promised cards it hides)


def public_action(decision: DecisionReading, action: int, observer: int | None) -> int | None:
    """The action as ``observer`` may read it: every move is public but an acceptance, whose
    promised cards only its seat (and the referee) read (``rules.facts._describe_for_others``)."""
    if action in A.ACCEPT and observer not in (None, decision.player):
        return None
    return action


def named_seat(m: Move, block) -> int | None:
    """The seat a move of ``block`` (``give a share to +r``...) named."""
    if m.action is None or m.action not in block:
        return None
    return (m.decision.player + m.action - block.start) % m.before.num_players


def participants(r: SeatReading, a: int) -> list[int]:
    """Ambush ``a``'s participants, its leader first, then clockwise."""
    ambush = r.ambushes[a]
    if ambush is None:
        return []
    n = r.num_players
    return [q for q in ((ambush.leader + i) % n for i in range(n)) if ambush.outlaws[q]]


def manned(r: SeatReading, a: int) -> bool:
    """Somebody lies in ambush ``a``."""
    return r.ambushes[a] is not None


def outlaws_at(r: SeatReading, a: int) -> int:
    ambush = r.ambushes[a]
    return 0 if ambush is None else sum(ambush.outlaws)


def promised_strength(r: SeatReading, a: int) -> int:
    """The strength of the cards promised at ambush ``a``."""
    ambush = r.ambushes[a]
    return 0 if ambush is None else ambush.promised_strength


def next_kind(m: Move) -> int | None:
    """The kind of the decision the move left pending (None: the game is over)."""
    return None if m.after.decision is None else m.after.decision.kind


def game_over(m: Move) -> bool:
    """The move ended the game."""
    return m.after.decision is None and m.before.decision is not None


def robbery_fame(m: Move) -> list[int]:
    """Fame a successful attack gave each seat in this move (the only other fame of the
    attack phase is the game's end, which turns sixth-round gold and comrades into fame, and a
    Sheriff's losses, which have their own moves)."""
    end = game_over(m)
    return [after.fame - before.fame
            - ((FINAL_GOLD_FAME * after.round_gold + FINAL_COMRADE_FAME * after.round_comrades)
               if end else 0)
            for before, after in zip(m.before.players, m.after.players)]


def robbed(m: Move) -> bool:
    """A successful attack gave fame in this move."""
    return any(robbery_fame(m))


def crush_over(m: Move) -> bool:
    """The forest-cloak questions of ``before``'s crushed ambush are all answered (the coach
    may have driven on to crush another ambush)."""
    b, a = m.before.coach, m.after.coach
    return (m.after.crush is None or a is None or b is None or a.card != b.card
            or a.step != b.step)


def cloak_stays(m: Move) -> list[int]:
    """The participants of the crushed ambush who stay in it under a forest cloak."""
    c = m.before.crush
    assert c is not None, "a cloak move answers a crush"
    stay = m.action == A.CLOAK.id(A.CLOAK_STAY)
    return [q for q in c.order if q in c.stay or (stay and q == m.decision.player)]


def coach_card(m: Move) -> int | None:
    """The traveller on the road during this move (None: none was)."""
    if m.before.coach is not None:
        return m.before.the_coach().card
    if m.after.coach is not None:
        return m.after.the_coach().card
    new = m.after.removed[len(m.before.removed):]   # the game only ever adds to it
    return new[0] if new else None
