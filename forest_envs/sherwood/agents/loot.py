"""The heuristic's loot decisions (``share``, ``comrade``, ``provisions``; with the
additions ``shortfall``), and ``seat_action``, the seat it names where a decision names one.

It keeps a share or comrade when it may, else gives it to the participant with least fame;
asked about its own share it takes the bag (the allies' later shares then leave more for it
to keep); as an informant who cannot cover every promise it withholds from the recipient
with most fame; it stays with provisions when it holds the card.
"""

from __future__ import annotations

from .. import actions as A
from .seat_view import SeatView


def choose_share(agent, sv: SeatView, mask):
    # A leader's choice of who gets a short round's share: itself when it may, else the
    # participant with least fame (the share helps the weakest rival least). Asked about
    # its own share (``give a share to self`` or ``give a comrade to self``) it takes the
    # bag: fewer bags for the allies' later shares, more of the rest for itself.
    return seat_action(sv, mask, A.SHARE)


def choose_comrade(agent, sv: SeatView, mask):
    return seat_action(sv, mask, A.COMRADE)


def choose_shortfall(agent, sv: SeatView, mask):
    """(Additions) The informant withholds a promised bag (or comrade) from the recipient
    with most fame: the strongest rival leaves empty-handed."""
    kind = A.WITHHOLD_BAG if sv.data.bags else A.WITHHOLD_COMRADE
    block = range(A.WITHHOLD.id(kind, 0), A.WITHHOLD.id(kind, 0) + A.MAX_SEATS)
    legal = [a for a in block if mask[a]]
    seat, n = sv.seat, sv.num_players
    return max(legal, key=lambda a: (sv.fame[(seat + a - block.start) % n], -a))


def choose_provisions(agent, sv, mask):
    """Stay with provisions when it holds the card (and has not stayed here already)."""
    return A.PROVISIONS.start if mask[A.PROVISIONS.start] else A.PROVISIONS_NONE.start


def seat_action(sv: SeatView, mask, block) -> int:
    """Itself if legal, else the legal seat with least fame (ties: the nearest clockwise)."""
    if mask[block.start]:
        return block.start
    seat, n = sv.seat, sv.num_players
    legal = [a for a in range(block.start, block.stop) if mask[a]]
    return min(legal, key=lambda a: (sv.fame[(seat + a - block.start) % n], a))
