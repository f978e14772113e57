"""Chickwood Forest final scoring as pure functions of counts (testable on their own)."""

from __future__ import annotations

from collections.abc import Sequence
from operator import mul

from ..components import (
    BUST,
    CHEST0,
    GARMENT0,
    HENCHMAN,
    JEWEL0,
    JEWELRY_VALUE,
    MAID,
    NUM_TREASURE_KINDS,
    VILLAGES,
)


def resolve_busts(chests: Sequence[int], busts: int) -> list[int]:
    """Each bust discards one chest of the (re-checked) majority type.

    The choice between tied types never changes any score: the chest score and the Maid
    bonus depend only on the multiset of chest counts, which is the same whichever tied
    type loses a chest. So the first tied type is taken."""
    chests = list(chests)
    for _ in range(busts):
        top = max(chests)
        if top == 0:
            break
        chests[chests.index(top)] -= 1
    return chests


def chest_score(chests: list[int]) -> int:
    top = max(chests)
    return top * top - (sum(chests) - top)


def garment_score(garments: Sequence[int]) -> int:
    return 5 * garments.count(1)  # only single garments score


def jewelry_score(jewels: Sequence[int]) -> int:
    return sum(map(mul, jewels, JEWELRY_VALUE))


def maid_score(treasures: list[int], maids: int) -> int:
    """One glory per treasure type held (counts are never negative: the types not at 0)."""
    return len(treasures) - treasures.count(0) if maids > 0 else 0


def henchmen_score(henchmen: int) -> int:
    return -3 * henchmen


def castle_score(castles_held: Sequence[int]) -> int:
    """castles_held[v-1] = castle cards of value v (starting castle included)."""
    return sum(n * (v + 1) for v, n in enumerate(castles_held))


LOOT_PARTS = ("busts", "chests", "garments", "jewelry", "maid", "henchmen")


def _loot_parts(collection: Sequence[int]) -> tuple[int, ...]:
    """``loot_scores``' values in ``LOOT_PARTS`` order, without the dict (``loot_glory``
    sums them for scripted players, who value thousands of collections a game)."""
    held = list(collection[CHEST0:CHEST0 + 4])
    busts = collection[BUST]
    chests = resolve_busts(held, busts) if busts else held
    maids = collection[MAID]
    return (sum(held) - sum(chests) if busts else 0,
            chest_score(chests),
            garment_score(collection[GARMENT0:GARMENT0 + 4]),
            jewelry_score(collection[JEWEL0:JEWEL0 + 3]),
            maid_score(chests + list(collection[GARMENT0:NUM_TREASURE_KINDS]), maids)
            if maids else 0,
            henchmen_score(collection[HENCHMAN]))


def loot_scores(collection: Sequence[int]) -> dict[str, int]:
    return dict(zip(LOOT_PARTS, _loot_parts(collection)))


def unlocked_glory(village: int, filled: int) -> list[int]:
    """Printed glory of every row holding an alms, highest first (spaces fill in order)."""
    values, start = [], 0
    for spaces, glory in VILLAGES[village].rows:
        if filled > start and glory is not None:
            values.append(glory)
        start += spaces
    return sorted(values, reverse=True)


def village_ranking(owners: list[int], num_players: int) -> list[int]:
    """Seats with alms on one village, best first.

    owners[s]: owner seat of space s (-1 empty), spaces numbered in the order they fill
    (left to right, top to bottom). Players rank by alms count; a tie goes to the player
    whose last alms lies in the later space (the highest space index holding their alms).
    Two players never share a space, so the ranking has no ties left."""
    count = [0] * num_players
    last = [-1] * num_players
    for space, owner in enumerate(owners):
        if owner >= 0:
            count[owner] += 1
            last[owner] = space
    return sorted((p for p in range(num_players) if count[p] > 0),
                  key=lambda p: (count[p], last[p]), reverse=True)


def village_awards(village: int, owners: list[int], num_players: int) -> list[int]:
    """Glory per player from one village.

    owners[s]: owner seat of space s (-1 empty). The first-ranked player (village_ranking)
    takes the highest unlocked glory, the second the next and so on while values last.

    How the rule was read: "ties are broken in favour of the player who gave alms to that
    village later". The table has no clock, only the alms on the card, and alms fill the
    spaces in order, so "later" is read from the spaces: the player whose last alms lies in
    the later space wins the tie. During play this is the same as placement time; after the
    travelling entertainers swap two alms, each ranks by the space it now lies in. Spaces are
    always filled as a prefix (a swap exchanges two occupied spaces), so the number of
    occupied spaces says which rows are unlocked."""
    filled = sum(1 for owner in owners if owner >= 0)
    values = unlocked_glory(village, filled)
    awards = [0] * num_players
    for place, p in enumerate(village_ranking(owners, num_players)[:len(values)]):
        awards[p] = values[place]
    return awards


def loot_glory(collection: Sequence[int]) -> int:
    """Total loot glory of a collection: the sum of ``loot_scores`` without ``busts`` (the
    number of chests the busts discard, which already count through ``chests``)."""
    parts = _loot_parts(collection)
    return sum(parts) - parts[0]  # parts[0]: busts


def village_awards_all_unlocked(village: int, owners: list[int], num_players: int) -> list[int]:
    """Glory per player from one village if every row's glory were unlocked (as it is once
    the village has an alms in each row), the players ranked as they stand now
    (``village_ranking``). For players weighing what a standing will be worth later."""
    values = unlocked_glory(village, VILLAGES[village].spaces)
    awards = [0] * num_players
    for place, p in enumerate(village_ranking(owners, num_players)[:len(values)]):
        awards[p] = values[place]
    return awards
