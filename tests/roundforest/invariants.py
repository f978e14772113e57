"""Roundforest's own invariants, checked by the generic fuzz suites after every action
(``tests/fuzz_invariants.py`` finds ``invariants`` here by the game's name): nothing created
or lost (item tokens, chips, coins, golden apples, character cards), backpack limits, one
token per character on the forest, the players on distinct tiles, and each seat's
``progress`` equal to its entry of ``progress_all``."""

from __future__ import annotations

from forest_envs.roundforest.components import NUM_CHARACTERS, item_counts

# The coverage fuzz (test_coverage_fuzz.py): the Forest Spirit's placement needs a player
# with three golden apples, so the mixed line-up (with the heuristic's progress) reaches
# every pair, in at most 48 games over six seeds (docs/roundforest.md, "Decision coverage"):
# 150 games stopped at 1,500 actions; the fast run's invariants line-ups play 150 actions
# per configuration.
COVERAGE_FUZZ = {"games": 150, "max_steps": 1500, "fast_actions": 150}


def invariants(game):
    """``check(state)`` for the states of one configuration."""
    items = item_counts(game.config["no_silver"])

    def check(s) -> None:
        assert (s.item_totals() == items).all()
        assert s.chip_totals().tolist() == [24, 16, 12]
        assert int(s.supply[0] + s.copper.sum()) == 24
        assert int(s.supply[1] + s.silver.sum()) == 12
        assert int(s.supply[2] + s.apples.sum()) == 12
        assert (s.backpack.sum(axis=1) <= 3).all() and (s.backpack[:, :5].sum(axis=1) <= 1).all()
        cards = len(s.pile) + int(s.debts.sum()) + int(s.laid_out.sum()) + int(s.drawn_card.sum())
        # the Forest Spirit's card may be in the pile while its token is on the forest
        assert cards == NUM_CHARACTERS
        on_forest = [c for c in s.cell_char.tolist() if c >= 0]
        assert len(on_forest) == len(set(on_forest))
        assert len(set(s.pos)) == s.num_players
        # one seat's progress (read at every step by shaping) is that seat's entry of all
        assert [s.progress(p) for p in range(s.num_players)] == s.progress_all()

    return check
