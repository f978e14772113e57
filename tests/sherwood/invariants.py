"""Sherwood Forest's own invariants, checked by the generic fuzz suites after every action
(``tests/fuzz_invariants.py`` finds ``invariants`` here by the game's name): 42 gold bags
(the pit, camps and bags laid out as promised loot), 48 outlaws (camps, places, ambushes,
under the oak and comrades laid out in an ambush as promised loot), 18 weapons (24 cards
with the additions: deck, discard, hands, marked promised cards, cards played at the
ambush) and 55 traveller cards always accounted for; the turn player's decision at the
bottom of the stack, another seat's answer at most one above it."""

from __future__ import annotations

TURN_DECISIONS = {"prep", "ask", "reveal", "target", "informant", "terms", "confirm", "lead"}
# ("pledge" and "call" are pushed above "lead")


# The coverage fuzz (test_coverage_fuzz.py): all-coverage seats reach every pair in at most
# 40 games over six seeds (docs/sherwood.md, "Decision coverage"), so 120 games; the fast
# run's invariants line-ups play 150 actions per configuration.
COVERAGE_FUZZ = {"lineup": ("coverage",), "games": 120, "fast_actions": 150}


def invariants(game):
    """``check(state)`` for the states of one configuration."""
    equipment = 24 if game.additions else 18

    def check(state) -> None:
        assert (state.outlaw_totals() == 8).all()
        assert state.gold_total() == 42
        assert state.equipment_total() == equipment
        assert state.traveller_total() == 55
        # The turn player's decision is the bottom of the stack; other seats' decisions
        # (answers, equipment, loot, cloak, provisions, messenger) sit one above it.
        if not state.is_terminal:
            depth = 1 if state.decision_name() in TURN_DECISIONS else 2
            assert len(state.decisions) == depth, (state.decision_name(), len(state.decisions))
            assert state.decisions[0].player == state.turn_player

    return check
