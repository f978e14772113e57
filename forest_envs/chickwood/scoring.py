"""Chickwood Forest final scoring as pure functions of counts (testable on their own)."""

from __future__ import annotations

from .components import (
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


def resolve_busts(chests: list[int], busts: int) -> list[int]:
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


def garment_score(garments: list[int]) -> int:
    return 5 * sum(1 for g in garments if g == 1)


def jewelry_score(jewels: list[int]) -> int:
    return sum(n * v for n, v in zip(jewels, JEWELRY_VALUE))


def maid_score(treasures: list[int], maids: int) -> int:
    return sum(1 for t in treasures if t > 0) if maids > 0 else 0


def henchmen_score(henchmen: int) -> int:
    return -3 * henchmen


def castle_score(castles_held: list[int]) -> int:
    """castles_held[v-1] = castle cards of value v (starting castle included)."""
    return sum(n * (v + 1) for v, n in enumerate(castles_held))


def loot_scores(collection: list[int]) -> dict[str, int]:
    chests = resolve_busts(collection[CHEST0:CHEST0 + 4], collection[BUST])
    treasures = chests + list(collection[GARMENT0:NUM_TREASURE_KINDS])
    return {
        "busts": sum(collection[CHEST0:CHEST0 + 4]) - sum(chests),
        "chests": chest_score(chests),
        "garments": garment_score(collection[GARMENT0:GARMENT0 + 4]),
        "jewelry": jewelry_score(collection[JEWEL0:JEWEL0 + 3]),
        "maid": maid_score(treasures, collection[MAID]),
        "henchmen": henchmen_score(collection[HENCHMAN]),
    }


def unlocked_glory(village: int, filled: int) -> list[int]:
    """Printed glory of every row holding an alms, highest first (spaces fill in order)."""
    values, start = [], 0
    for spaces, glory in VILLAGES[village].rows:
        if filled > start and glory is not None:
            values.append(glory)
        start += spaces
    return sorted(values, reverse=True)


def village_awards(village: int, owners: list[int], times: list[int], num_players: int) -> list[int]:
    """Glory per player from one village.

    owners[s] / times[s]: owner (-1 empty) and placement time of each space. Players rank
    by alms count; a tie goes to whoever placed their last alms there later."""
    count = [0] * num_players
    last = [0] * num_players
    filled = 0
    for owner, t in zip(owners, times):
        if owner >= 0:
            filled += 1
            count[owner] += 1
            last[owner] = max(last[owner], t)
    values = unlocked_glory(village, filled)
    ranking = sorted((p for p in range(num_players) if count[p] > 0),
                     key=lambda p: (count[p], last[p]), reverse=True)
    awards = [0] * num_players
    for place, p in enumerate(ranking[:len(values)]):
        awards[p] = values[place]
    return awards
