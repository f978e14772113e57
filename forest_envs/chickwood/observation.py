"""Chickwood Forest's state buffer layout, which is also its observation layout.

Every number a seat may know lives in one block of the state buffer; ``Layout`` turns the
roles below into per-seat gather indices, so an observation is one fancy-index. Blocks are
listed in observation order; docs/chickwood.md describes each one.
"""

from __future__ import annotations

from ..core.layout import Layout
from .components import MAX_CASTLE, MAX_CELLS, MAX_SPACES, NUM_KINDS, NUM_TREASURE_KINDS

PHASES = ("scout", "spy", "raid", "key", "alms", "entertainers_first", "entertainers_second",
          "arrow_give", "arrow_take", "fake_beard", "over")
(SCOUT, SPY, RAID, KEY, ALMS, ENT_A, ENT_B, ARROW_A, ARROW_B, BEARD, OVER) = range(len(PHASES))
CELL_KINDS = 9  # one-hot: village 0..6, 7 = forest, 8 = no card (2-player third row)
FOREST_CELL, ABSENT_CELL = 7, 8


def build_layout(n: int) -> Layout:
    K, C, V, S = NUM_KINDS, MAX_CASTLE, MAX_CELLS, MAX_SPACES
    L = Layout(n)
    # --- public: table, phase and pending decision
    L.add("phase_onehot", len(PHASES))
    L.add("players_onehot", 4)                 # 2..5 players
    L.add("legendary", 1)
    L.add("round_no", 1, scale=0.1)
    L.add("deck_left", 1, scale=1 / 90)
    L.add("banner_pos", 4)                     # which banner icon the current scouting play uses
    L.add("castle_in_play", C)
    L.add("pile_left", C, scale=0.1)
    L.add("castle_cards", C, scale=0.2)        # loot cards lying before each castle
    L.add("castle_faceup", (C, K), scale=0.5)
    L.add("spy_castle", C)                     # castle looked at with the spy glass this round
    L.add("key_pending", C)                    # castle a raider chose, awaiting the key holder
    L.add("key_blocked", C)                    # castle the key forbids the raider to choose
    L.add("box", K)                            # cards returned to the box during play (the key)
    L.add("discard_public", K, scale=0.2)
    L.add("cell_card", (V, CELL_KINDS))
    L.add("cell_filled", V, scale=1 / MAX_SPACES)
    L.add("alms_time", (V, S), scale=1 / 75)   # when each space's alms was given (0 = empty)
    L.add("alms_clock", 1, scale=1 / 75)
    L.add("snake_left", 1, scale=0.2)
    L.add("snake_visited", V)
    L.add("snake_last_cell", V)
    L.add("ent_first", (V, S))
    L.add("arrow_give", NUM_TREASURE_KINDS)
    # --- public, one column per player (rotated: observer first)
    L.add("castle_raided_by", (C, n), "player_last")
    L.add("castle_faceup_by", (C, K, n), "player_last", scale=0.5)  # who played each face-up card
    L.add("castle_fd_count", (C, n), "player_last", scale=0.5)
    L.add("alms_owner", (V, S, n), "player_last")
    L.add("alms_count", (V, n), "player_last", scale=0.25)
    L.add("alms_last", (V, n), "player_last", scale=1 / 75)
    # --- public, one row per player (rotated: observer first)
    L.add("to_move", n, "by_player")
    L.add("player_castle", (n, C), "by_player")
    L.add("castles_held", (n, C), "by_player", scale=0.25)
    L.add("order_pos", (n, n), "by_player")
    L.add("has_raided", n, "by_player")
    L.add("banner", (n, 4), "by_player")      # 1 = that play is face down
    L.add("collection", (n, K), "by_player", scale=0.25)
    L.add("alms_left", n, "by_player", scale=1 / 15)
    L.add("hand_count", n, "by_player", scale=0.25)
    # --- private: a seat sees only its own row
    L.add("hand", (n, K), "private")
    L.add("fd_own", (n, C, K), "private")      # own face-down cards at each castle
    L.add("spy_view", (n, C, K), "private")    # others' face-down cards seen with the spy glass
    L.add("discard_known", (n, K), "private")  # face-down discards this seat knows
    return L
