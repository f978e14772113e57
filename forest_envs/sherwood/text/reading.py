"""What a seat may know, as the light typed record the scripted agent reads (``reading``).

The facts of ``view.view(state, seat)`` that ``agents.HeuristicAgent`` reads, and no
others (tests/sherwood/test_reading.py compares them with the view): the pending decision,
the laid-out travellers as far as the seat knows them, who lies in each ambush with which
promised cards, every seat's camp, oak, gold, fame and hand size, the coach on the road, the
joint-ambush offer on the table, and this seat's own hand and played cards. The view builds
a dict per traveller and ambush and the prompt's sentence at every decision, which cost as
much as the decision itself; here each entry is a tuple.

The only hidden blocks read are the seat's own: its hand (``hand``) and the travellers it
looked at in the inn (``peek``), so nothing another seat hides can reach the record.
"""

from __future__ import annotations

from typing import NamedTuple

from ...core.decisions import DecisionRecord
from ..components import CARDS
from ..observation import Kind

_KINDS = tuple(Kind)  # Kind by index: a decision holds its kind as a plain int
UNSEEN = -1   # a face-down traveller's card id when this seat has not looked at it
_DECK = tuple(c.deck for c in CARDS)   # each card's deck letter, as a plain tuple: read per slot per decision


class SlotReading(NamedTuple):
    """A laid-out traveller as the seat knows it (``view``'s slot entry)."""

    deck: str   # its deck letter (A or B), which every seat sees on its back
    card: int   # its card id where the seat knows it (face up, or looked at), else UNSEEN


class AmbushReading(NamedTuple):
    """An ambush somebody lies in (``view``'s ambush entry), by seat."""

    outlaws: tuple[int, ...]                    # each seat's outlaws lying there
    promised: tuple[tuple[int, ...], ...]       # each seat's cards promised there, by weapon kind


class CoachReading(NamedTuple):
    """The traveller on the road (``view``'s coach)."""

    card: int
    step: int                 # the ambushes of its route it has passed
    route: tuple[int, ...]    # its route now (a messenger's clothes may have changed it)


class OfferReading(NamedTuple):
    """The joint-ambush offer on the table (``view``'s offer)."""

    own: int                                  # the performer's own outlaws
    asked: tuple[tuple[int, int, int], ...]   # (ally, outlaws, cards) asked of each ally


class SeatReading(NamedTuple):
    """What ``seat`` reads (``view``'s entries, as tuples): per-seat entries by seat,
    travellers by place, ambushes by ambush id (None where nobody lies), cards by kind."""

    seat: int
    num_players: int
    additions: bool
    round: int
    decision: str | None          # the pending decision's kind name (None: the game is over)
    kind: Kind | None             # ... the same kind as the game's Kind (agents dispatch on it)
    data: DecisionRecord | None   # ... and what it carries: its kind's record, fields by name
    slots: tuple[SlotReading | None, ...]
    ambushes: tuple[AmbushReading | None, ...]
    camp: tuple[int, ...]
    oak: tuple[int, ...]
    gold: tuple[int, ...]
    fame: tuple[int, ...]
    hand_count: tuple[int, ...]
    hand: tuple[int, ...]         # this seat's equipment cards by kind
    played: tuple[int, ...]       # this seat's cards played at the ambush fighting now, by kind
    coach: CoachReading | None
    offer: OfferReading | None


def reading(state, seat: int) -> SeatReading:
    """What ``seat`` (not the referee: the agent plays a seat) reads, as ``view(state, seat)``
    says it. Each block is read into Python lists at once (one ``tolist`` each; the promised
    cards only of the ambushes somebody lies in)."""
    face_up, peeked = state.slot_face_up.tolist(), state.peek[seat].tolist()
    slots = tuple([None if cid < 0 else
                   SlotReading(_DECK[cid], cid if face_up[s] or any(peeked[s]) else UNSEEN)
                   for s, cid in enumerate(state.slots)])
    promised = state.promised
    ambushes = tuple([AmbushReading(tuple(outlaws), tuple(map(tuple, promised[a].tolist())))
                      if any(outlaws) else None
                      for a, outlaws in enumerate(state.ambush_outlaws.tolist())])
    coach, offer = state.coach, state.offer
    return SeatReading(
        seat=seat,
        num_players=state.num_players,
        additions=bool(state.game.additions),
        round=state.round_index,
        decision=state.decision_name(),
        kind=_KINDS[state.decision.kind] if state.decisions else None,
        data=state.decision_record(),
        slots=slots,
        ambushes=ambushes,
        camp=tuple(state.camp.tolist()),
        oak=tuple(state.oak.tolist()),
        gold=tuple(state.gold.tolist()),
        fame=tuple(state.fame.tolist()),
        hand_count=tuple(state.hand_count.tolist()),
        hand=tuple(state.hand[seat].tolist()),
        played=tuple(state.played[seat].tolist()),
        coach=None if coach is None else CoachReading(coach.card, coach.step, tuple(state._route())),
        offer=None if offer is None else OfferReading(offer.own, tuple(map(tuple, offer.asked))),
    )
