"""Raids and the Legendary cards used during them: the spy glass and the key.

* Raid: the open castle worth most to me (``Valuer.my_castle_value``: known henchmen are
  avoided), plus a little (``deny_weight``) for what it would give the best of the raiders
  still to come.
* Spy glass: the castle with the most face-down cards unknown to me, counted double among
  the two castles I am likeliest to raid.
* Key: force the raider off the castle it chose when that wins me the castle (less the
  more raiders come between us) plus part of what it costs the raider, by more than the
  key is worth kept for a later round.
"""

from __future__ import annotations

from ..actions import KEY_PASS, KEY_USE, RAID, SPY
from .valuation import Valuer

KEY_LAST_ROUND_THRESHOLD = 0.5  # in the last round the key has no later use
CASTLE_LOST_BETWEEN = 0.7       # chance a castle survives each raider between the raider and me


def choose_raid(val: Valuer, legal: list[int]) -> int:
    sv, p = val.sv, val.p
    later = [o for o in sv.order if o != sv.me and not sv.raided[o]]
    deny = p.opponents_share(p.deny_weight, sv.n) if later else 0.0

    def score(a: int) -> float:
        (c,) = RAID.index(a)
        value = val.mine[c + 1]
        if deny:
            value += deny * max(val.seen[o][c + 1] for o in later)
        return value

    return max(legal, key=score)


def choose_spy(val: Valuer, legal: list[int]) -> int:
    likeliest = sorted(val.mine, key=val.mine.__getitem__, reverse=True)[:2]

    def score(a: int) -> float:
        (c,) = SPY.index(a)
        castle = val.sv.castles[c + 1]
        weight = 2.0 if castle.value in likeliest else 1.0
        return castle.unknown * weight + 0.01 * val.mine.get(castle.value, 0.0)

    return max(legal, key=score)


def choose_key(val: Valuer, legal: list[int]) -> int:
    sv, p = val.sv, val.p
    chosen, raider = sv.data.castle + 1, sv.data.raider
    theirs = val.seen[raider]
    others = [v for v in theirs if v != chosen]
    if not others:
        return KEY_PASS.id()
    loss = theirs[chosen] - max(theirs[v] for v in others)
    gain = 0.0
    if not sv.raided[sv.me]:
        between = sv.order.index(sv.me) - sv.order.index(raider) - 1
        best_other = max(val.mine[v] for v in others)
        gain = max(0.0, val.mine[chosen] - best_other) * CASTLE_LOST_BETWEEN ** between
    worth = gain + p.opponents_share(p.opp_weight, sv.n) * max(0.0, loss)
    keep = p.key_threshold if sv.rounds_after else KEY_LAST_ROUND_THRESHOLD
    return KEY_USE.id() if worth > keep else KEY_PASS.id()
