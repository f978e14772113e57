"""Roundforest's hidden card and the Prince's draws never reach another seat, in random
games: two tables differing only in them look the same to every other seat. (The generic
fuzz suites check every action of random games against the invariants every game keeps and
against Roundforest's own, in ``invariants.py``.)"""

from __future__ import annotations

import numpy as np
import pytest

from forest_envs.roundforest import actions as A
from forest_envs.roundforest.rules import new_game

STEPS = 1_200  # random games can stall for ever: each game stops here at the latest


@pytest.mark.whole_games
def test_hidden_card_and_prince_draws_never_reach_other_observations():
    """Another card in hand or other Prince draws change nothing another seat observes,
    views, sees rendered or reads of the owner's possible actions."""
    seen = 0
    for seed in range(16):
        s = new_game({"num_players": 3}, seed)
        rng = np.random.default_rng(seed)
        start = seen
        for _ in range(STEPS):
            if s.is_terminal or seen - start >= 10:  # ten hidden positions per game suffice
                break
            if s.drawn_card.any() or s.prince_items.any():
                owner = s.current_player
                other = s.clone()
                other.drawn_card[owner] = np.roll(other.drawn_card[owner], 1)
                other.prince_items[owner] = np.roll(other.prince_items[owner], 3)
                for seat in range(3):
                    if seat == owner:
                        continue
                    assert (other.observation(seat) == s.observation(seat)).all()
                    assert other.view(seat) == s.view(seat)
                    assert other.render(seat) == s.render(seat)
                    for a in s.legal_actions():
                        if a in (A.DEBT.start, A.DEFER.start):  # these lay the card out face up
                            continue
                        assert s.describe_action(a, seat) == other.describe_action(a, seat)
                seen += 1
            s.apply(int(rng.choice(s.legal_actions())))
    assert seen >= 100
