"""Chickwood Forest's state buffer layout, which is also its observation layout.

Every number a seat may know lives in one block of the state buffer; ``Layout`` turns the
visibility and seat axes declared below into per-seat gather indices, so an observation is
one fancy-index. The standard decision blocks (which decision is pending, whose, and what it
carries) come first; then these blocks, in observation order. docs/chickwood.md describes
each one.
"""

from __future__ import annotations

from enum import IntEnum

from ..core.decisions import DecisionKind, check_kind_ids
from ..core.layout import Layout
from .components import (
    ALMS_PER_PLAYER,
    CASTLE_CARDS,
    MAX_CASTLE,
    MAX_CELLS,
    MAX_SPACES,
    NUM_KINDS,
    NUM_TREASURE_KINDS,
    PLAYER_COUNTS,
    VILLAGES,
    deck_composition,
)

# The decisions of Chickwood Forest, in the order of the ``decision_kind`` block.
DECISIONS = (
    DecisionKind("scout"),
    DecisionKind("spy"),
    DecisionKind("raid"),
    DecisionKind("key", ints=(("castle", MAX_CASTLE - 1),), seats=("raider",)),
    DecisionKind("alms", ints=(("alms_left", ALMS_PER_PLAYER), ("last_cell", MAX_CELLS))),
    DecisionKind("entertainers_first"),
    DecisionKind("entertainers_second", ints=(("first_pick", MAX_CELLS * MAX_SPACES - 1),)),
    DecisionKind("arrow_give"),
    DecisionKind("arrow_take", ints=(("give", NUM_TREASURE_KINDS - 1),)),
    DecisionKind("fake_beard"),
)


class Kind(IntEnum):
    """Each decision kind by name: ``Kind.X`` is the index in ``DECISIONS`` (and in the
    ``decision_kind`` block) of the kind named ``x`` (``Kind.KEY`` is the decision, apart
    from the card ``components.KEY``)."""

    SCOUT = 0
    SPY = 1
    RAID = 2
    KEY = 3
    ALMS = 4
    ENTERTAINERS_FIRST = 5
    ENTERTAINERS_SECOND = 6
    ARROW_GIVE = 7
    ARROW_TAKE = 8
    FAKE_BEARD = 9


check_kind_ids(Kind, DECISIONS)
# A view names the pending decision's kind (``"kind": "alms"``): words and agents key by Kind.
KIND_OF_NAME = {spec.name: Kind(i) for i, spec in enumerate(DECISIONS)}

# cell_card's one-hot: a village by its index (0..6), then a forest, then no card (the third
# row of a 2-player grid)
FOREST_CELL, ABSENT_CELL = len(VILLAGES), len(VILLAGES) + 1
CELL_KINDS = len(VILLAGES) + 2
MAX_ROUNDS = 30


def build_layout(L: Layout) -> None:
    K, C, V, S, n = NUM_KINDS, MAX_CASTLE, MAX_CELLS, MAX_SPACES, L.num_players
    most = max(max(deck_composition(p, lg)) for p in PLAYER_COUNTS for lg in (False, True))
    cards = max(CASTLE_CARDS.values())
    # --- public: the table
    L.add("players_onehot", 4, high=1)                  # 2..5 players
    L.add("legendary", 1, high=1)
    L.add("round_no", 1, high=MAX_ROUNDS, scale=0.1)
    L.add("deck_left", 1, high=90, scale=1 / 90)
    L.add("banner_pos", 4, high=1)                      # which banner icon the current scouting play uses
    L.add("castle_in_play", C, high=1)
    L.add("pile_left", C, high=cards, scale=0.1)
    L.add("castle_cards", C, high=5 * 4, scale=0.2)     # loot cards lying before each castle
    L.add("castle_faceup", (C, K), high=most, scale=0.5)
    L.add("spy_castle", C, high=1)                      # castle looked at with the spy glass this round
    L.add("key_blocked", C, high=1)                     # castle the key forbids the raider to choose
    L.add("box", K, high=1)                             # cards returned to the box during play (the key)
    L.add("discard_public", K, high=most, scale=0.2)
    L.add("cell_card", (V, CELL_KINDS), high=1)
    L.add("cell_filled", V, high=S, scale=1 / S)
    L.add("snake_visited", V, high=1)
    # --- public, with a seat axis (rotated: observer first)
    L.add("castle_raided_by", (C, n), high=1, seats=1)
    L.add("castle_faceup_by", (C, K, n), high=most, seats=2, scale=0.5)  # who played each face-up card
    L.add("castle_fd_count", (C, n), high=4, seats=1, scale=0.5)
    L.add("alms_owner", (V, S, n), high=1, seats=2)
    L.add("alms_count", (V, n), high=S, seats=1, scale=0.25)
    L.add("player_castle", (n, C), high=1, seats=0)
    L.add("castles_held", (n, C), high=cards, seats=0, scale=0.25)
    L.add("order_pos", (n, n), high=1, seats=0)
    L.add("has_raided", n, high=1, seats=0)
    L.add("banner", (n, 4), high=1, seats=0)            # 1 = that play is face down
    L.add("collection", (n, K), high=most, seats=0, scale=0.25)
    L.add("alms_left", n, high=ALMS_PER_PLAYER, seats=0, scale=1 / 15)
    L.add("hand_count", n, high=4, seats=0, scale=0.25)
    # --- seen by its owner only
    L.add("hand", (n, K), high=4, see="owner")
    L.add("fd_own", (n, C, K), high=4, see="owner")      # own face-down cards at each castle
    L.add("spy_view", (n, C, K), high=4 * (n - 1), see="owner")  # others' face-down cards seen with the spy glass
    L.add("discard_known", (n, K), high=most, see="owner")  # face-down discards this seat knows


def block_names() -> tuple[str, ...]:
    """The names of the game's own blocks (the same for every player count)."""
    layout = Layout(2)
    build_layout(layout)
    return tuple(layout.blocks)
