"""Chickwood Forest component data, proved by counting: the castle piles can never run out.

Pure arithmetic over the component data and the game-length formula (no games are played):
a pile loses at most one card at setup (one castle of each value is dealt) and at most one
per round (every player raids one castle, never one already raided this round), so the most
a game can take from a pile is 1 + the rounds of the longest game that uses the pile.
"""

from __future__ import annotations

import pytest

from forest_envs.chickwood.components import (
    CASTLE_CARDS,
    MAX_CASTLE,
    PLAYER_COUNTS,
    castle_cards_needed,
    castle_values,
    deck_composition,
    hand_size,
    num_rounds,
)

CONFIGS = [(n, legendary) for n in PLAYER_COUNTS for legendary in (False, True)]


@pytest.mark.parametrize("n, legendary, deck, per_round, rounds", [
    (2, False, 52, 8, 6), (2, True, 53, 8, 6),
    (3, False, 75, 9, 8), (3, True, 76, 9, 8),
    (4, False, 75, 12, 6), (4, True, 76, 12, 6),
    (5, False, 90, 15, 6), (5, True, 91, 15, 6),
])
def test_game_length(n, legendary, deck, per_round, rounds):
    # The Legendary variant returns 4 cards to the box and adds 5: one card more, never a
    # whole extra deal, so it never changes the number of rounds.
    assert sum(deck_composition(n, legendary)) == deck
    assert n * hand_size(n) == per_round
    assert num_rounds(n, legendary) == rounds
    # the game really ends there: a full deal was possible in the last round, not after it
    assert rounds * per_round <= deck < (rounds + 1) * per_round


def test_castle_cards_needed_per_value():
    # values 1-4 are on the table with 3 players (8 rounds): 1 + 8; values 5 and 6 only
    # with 4 or 5 players (6 rounds): 1 + 6.
    assert [castle_cards_needed(v) for v in range(1, MAX_CASTLE + 1)] == [9, 9, 9, 9, 7, 7]
    assert castle_cards_needed(MAX_CASTLE + 1) == 0


def test_castle_split_is_50_cards_and_the_only_one_that_cannot_run_out():
    needed = {v: castle_cards_needed(v) for v in range(1, MAX_CASTLE + 1)}
    assert sum(CASTLE_CARDS.values()) == 50
    assert sum(needed.values()) == 50      # no card to spare: the split is forced
    assert CASTLE_CARDS == needed == {1: 9, 2: 9, 3: 9, 4: 9, 5: 7, 6: 7}


@pytest.mark.parametrize("n, legendary", CONFIGS)
def test_no_pile_runs_out_in_the_worst_case(n, legendary):
    """Worst case per pile: its card dealt at setup, then the castle raided every round."""
    rounds = num_rounds(n, legendary)
    for v in castle_values(n):
        taken = 1 + rounds
        assert taken <= CASTLE_CARDS[v], (n, legendary, v)


@pytest.mark.parametrize("n, legendary", CONFIGS)
def test_tight_piles(n, legendary):
    """Where a pile is exactly as large as the worst case (3 players: castles 1-4; 4 and 5
    players: castles 5 and 6), the last possible raid still finds its card."""
    rounds = num_rounds(n, legendary)
    tight = [v for v in castle_values(n) if CASTLE_CARDS[v] == 1 + rounds]
    expected = {2: [], 3: [1, 2, 3, 4], 4: [5], 5: [5, 6]}[n]
    assert tight == expected
