"""Chickwood Forest's own invariants, checked by the generic fuzz suites after every action
(``tests/fuzz_invariants.py`` finds ``invariants`` here by the game's name):

* nothing created or lost: every loot card of the configured deck is somewhere
  (``card_totals() == composition``), every castle card is in its pile or held, every alms
  is on the grid or in its owner's supply (15 each);
* the blocks that sum up others agree with what they sum up (hand and castle counts, cards
  before each castle, alms per village), ``deck_left`` with the deck, and every secret
  discard is known to its owner;
* the decision stack holds one decision, or a key decision above the raid it interrupts,
  whose castle is open and whose raider is the seat whose turn it is.
"""

from __future__ import annotations

import numpy as np

from forest_envs.chickwood.components import ALMS_PER_PLAYER, CASTLE_CARDS
from forest_envs.chickwood.observation import Kind


def same(actual, expected, what: str = "") -> None:
    """assert_array_equal with a fast path (this runs after every fuzzed action)."""
    if not np.array_equal(actual, expected):
        np.testing.assert_array_equal(actual, expected, err_msg=what)


# The coverage fuzz (test_coverage_fuzz.py): all-coverage seats reach every (decision kind,
# action block) pair in at most 10 games over six seeds (docs/chickwood.md, "Decision
# coverage"), so 30 games; the fast run's invariants line-ups play 150 actions per
# configuration.
COVERAGE_FUZZ = {"lineup": ("coverage",), "games": 30, "fast_actions": 150}


def invariants(game):
    """``check(state)`` for the states of one configuration."""
    n = game.num_players
    in_play = game.in_play
    castle_cards = np.array([CASTLE_CARDS.get(c + 1, 0) for c in range(len(in_play))]) * in_play
    one_each = np.ones(n)
    full_supply = np.full(n, ALMS_PER_PLAYER)

    def check(state) -> None:
        # Loot cards: all accounted for (no block holds a negative count: the generic range
        # check says so).
        same(state.card_totals(), game.composition, "card totals")
        assert state.deck_left[0] == len(state.deck)
        same(state.hand_count, state.hand.sum(axis=1), "hand_count")
        # Cards before each castle agree with their face-up / face-down contents.
        same(state.castle_faceup, state.castle_faceup_by.sum(axis=2), "castle_faceup")
        same(state.castle_fd_count, state.fd_own.sum(axis=2).T, "castle_fd_count")
        same(state.castle_cards, state.castle_faceup.sum(axis=1) + state.castle_fd_count.sum(axis=1),
             "castle_cards")
        assert (state.castle_cards <= game.capacity).all(), "a castle holds too many cards"
        # Castle cards: in their pile or held by a player; each player sits at one castle.
        same(state.pile_left + state.castles_held.sum(axis=0), castle_cards, "castle cards")
        same(state.player_castle.sum(axis=1), one_each, "one castle per player")
        # Alms: 15 per player, on the grid or in the supply.
        same(state.alms_owner.sum(axis=(0, 1)) + state.alms_left, full_supply, "alms")
        assert (state.alms_owner.sum(axis=2) <= 1).all(), "two alms on one space"
        same(state.cell_filled, state.alms_owner.sum(axis=(1, 2)), "cell_filled")
        same(state.alms_count, state.alms_owner.sum(axis=1), "alms_count")
        assert (state.cell_filled <= state.cell_spaces).all()
        for card in state.discard_fd:
            assert card.known_to(card.owner) and card.spied_by != card.owner
        # The decision stack: one decision, or the key holder's answer above a raid.
        if state.decisions:
            kinds = [d.kind for d in state.decisions]
            assert len(kinds) == 1 or kinds == [Kind.RAID, Kind.KEY], f"unexpected decision stack {kinds}"
            top = state.decision
            if top.kind == Kind.KEY:
                castle, raider = top.data
                assert raider == state.turn_player != top.player
                assert state.castle_in_play[castle] and not state.castle_raided_by[castle].any()

    return check
