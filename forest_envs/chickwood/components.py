"""Chickwood Forest component data: loot cards, castles, villages.

Numbers the rulebook does not print are reconstructed here (and only here); the reasons are
in docs/chickwood.md. Every rulebook example is consistent with this data (tests prove it).
"""

from __future__ import annotations

from dataclasses import dataclass

# --- loot card kinds -------------------------------------------------------------------
CHESTS = ("gold chest", "silver chest", "emerald chest", "ruby chest")
GARMENTS = ("silver armor", "blue jerkin", "green gown", "red cloak")
JEWELRY = ("bronze bracelet", "turquoise pendant", "violet ring")
JEWELRY_VALUE = (2, 3, 4)
LEGENDARY = ("spy glass", "key", "travelling entertainers", "golden arrow", "fake beard")

KIND_NAMES = (CHESTS + GARMENTS + JEWELRY
              + ("bust", "maid marihen", "henchman", "benefactor 1", "benefactor 2", "benefactor 3")
              + LEGENDARY)
NUM_KINDS = len(KIND_NAMES)  # 22

CHEST0, GARMENT0, JEWEL0 = 0, 4, 8
NUM_TREASURE_KINDS = 11  # kinds 0..10: chests, garments, jewelry
BUST, MAID, HENCHMAN = 11, 12, 13
BENEFACTOR0 = 14  # kinds 14, 15, 16 give 1, 2, 3 alms
BENEFACTOR_ALMS = {14: 1, 15: 2, 16: 3}
SPY_GLASS, KEY, ENTERTAINERS, GOLDEN_ARROW, FAKE_BEARD = 17, 18, 19, 20, 21


@dataclass(frozen=True)
class CardCount:
    total: int        # copies in the box (90 loot cards in all)
    five_player: int  # of which bear the 5-player symbol (used only with 5 players)
    two_player: int   # of the rest, bear the 2-player symbol (removed with 2 players)


# Chests 7 each, garments 2 each, jewelry 6/4/3, 3 busts, 3 maids, 12 henchmen,
# benefactors 9/9/5: the rulebook's component list. The symbol split is reconstructed.
LOOT_COUNTS: dict[int, CardCount] = {
    **{CHEST0 + i: CardCount(7, 1, 2) for i in range(4)},
    **{GARMENT0 + i: CardCount(2, 0, 0) for i in range(4)},
    JEWEL0 + 0: CardCount(6, 1, 1),
    JEWEL0 + 1: CardCount(4, 1, 1),
    JEWEL0 + 2: CardCount(3, 0, 1),
    BUST: CardCount(3, 0, 1),
    MAID: CardCount(3, 1, 1),
    HENCHMAN: CardCount(12, 3, 4),
    BENEFACTOR0 + 0: CardCount(9, 2, 2),
    BENEFACTOR0 + 1: CardCount(9, 2, 2),
    BENEFACTOR0 + 2: CardCount(5, 1, 2),
}
# The Legendary variant returns one jewel of each value and one henchman to the box.
LEGENDARY_REMOVED = (JEWEL0 + 0, JEWEL0 + 1, JEWEL0 + 2, HENCHMAN)


def deck_composition(num_players: int, legendary: bool) -> list[int]:
    """Number of cards of each kind in play for this configuration."""
    counts = [0] * NUM_KINDS
    for kind, c in LOOT_COUNTS.items():
        n = c.total
        if num_players != 5:
            n -= c.five_player
        if num_players == 2:
            n -= c.two_player
        counts[kind] = n
    if legendary:
        for kind in LEGENDARY_REMOVED:
            counts[kind] -= 1
        for kind in range(SPY_GLASS, FAKE_BEARD + 1):
            counts[kind] = 1
    return counts


def hand_size(num_players: int) -> int:
    return 4 if num_players == 2 else 3


def num_rounds(num_players: int, legendary: bool) -> int:
    """Rounds a game lasts: the first deal always happens, and after each round the next is
    dealt only while the deck still holds a full deal (players x hand size cards), so every
    game lasts exactly this many rounds (rules.py ``_end_round``)."""
    deck = sum(deck_composition(num_players, legendary))
    return deck // (num_players * hand_size(num_players))


# --- castles ---------------------------------------------------------------------------
MAX_CASTLE = 6
PLAYER_COUNTS = (2, 3, 4, 5)
# 50 castle cards worth 1..6 (reconstructed split). Each pile holds exactly the most cards one
# game can take from it (castle_cards_needed: 9, 9, 9, 9, 7, 7), which adds up to 50, so no
# pile can run out and no other split of 50 cards guarantees that (docs/chickwood.md).
CASTLE_CARDS = {1: 9, 2: 9, 3: 9, 4: 9, 5: 7, 6: 7}
# Banners, read left to right: "U" face up, "D" face down. Day side: 3 plays; castle 1 is
# all face up and castle 4 is up/down/down (both given); the rest reconstructed so that
# later turn order buys more secrecy. Night side (2 players, castles 1-3): 4 plays.
DAY_BANNERS = {1: "UUU", 2: "UUD", 3: "UDU", 4: "UDD", 5: "DUD", 6: "DDD"}
NIGHT_BANNERS = {1: "UUUD", 2: "UUDD", 3: "UDDD"}
CASTLE_CAPACITY = {1: 2, 2: 3}  # loot cards that may lie before castle 1 / castle 2


def castle_values(num_players: int) -> tuple[int, ...]:
    """Castle piles on the table: 1-3 (Night side) for 2 players, else 1..players+1 (Day)."""
    return (1, 2, 3) if num_players == 2 else tuple(range(1, num_players + 2))


def castle_cards_needed(value: int) -> int:
    """Most cards of this value any one game can take from its pile.

    The setup deals at most one card per pile; each round every player raids one castle and
    no castle twice in a round, so a pile loses at most one card per round. Worst case: the
    pile's card is dealt at setup and the castle is raided in every round of the longest
    game among the player counts (and variants) that use the pile. 0 if no count uses it."""
    return max((1 + num_rounds(n, legendary) for n in PLAYER_COUNTS for legendary in (False, True)
                if value in castle_values(n)), default=0)


def banners(num_players: int) -> dict[int, str]:
    return NIGHT_BANNERS if num_players == 2 else DAY_BANNERS


# --- villages --------------------------------------------------------------------------
@dataclass(frozen=True)
class Village:
    name: str
    rows: tuple[tuple[int, int | None], ...]  # (alms spaces, printed glory or None), top first
    two_player: bool = False  # bears the 2-player symbol (removed with 2 players)

    @property
    def spaces(self) -> int:
        return sum(r[0] for r in self.rows)


# A grid cell holds a village (its index in VILLAGES), a forest card or, in the third row of
# a 2-player grid, no card.
FOREST, NO_CARD = -1, -2
# The rulebook's village examples fix: a 3/6 two-row village (Ashford), a 2/4/8 village
# whose third row is 8 (Bramblewick), a 9/5/x village (Cinderholt) and a large village
# whose first row prints no glory (Dunmere). The other three are reconstructed.
VILLAGES = (
    Village("Ashford", ((2, 3), (2, 6))),
    Village("Bramblewick", ((2, 2), (2, 4), (2, 8))),
    Village("Cinderholt", ((1, 9), (1, 5), (2, 2))),
    Village("Dunmere", ((3, None), (2, 10), (2, 5))),
    Village("Elderbrook", ((2, 4), (2, 7))),
    Village("Foxmoor", ((1, 6), (2, 3), (2, 1)), two_player=True),
    Village("Greywater", ((4, None), (2, 12), (1, 6)), two_player=True),
)
NUM_FORESTS = 2
FORESTS_TWO_PLAYER_SYMBOL = 1  # one forest card bears the 2-player symbol
MAX_SPACES = max(v.spaces for v in VILLAGES)  # 7
GRID_COLS = 3
MAX_CELLS = 9
ALMS_PER_PLAYER = 15


def grid_rows(num_players: int) -> int:
    return 2 if num_players == 2 else 3


def village_cards(num_players: int) -> list[int]:
    """Village card ids in play (``FOREST`` for a forest card): 5 villages + 1 forest with 2
    players, else all 9."""
    ids = [i for i, v in enumerate(VILLAGES) if num_players != 2 or not v.two_player]
    forests = NUM_FORESTS - (FORESTS_TWO_PLAYER_SYMBOL if num_players == 2 else 0)
    return ids + [FOREST] * forests
