"""Random games of every configuration with the invariants checked after every action:
nothing created or lost (item tokens, chips, coins, golden apples, character cards),
backpack limits, masks never empty, buffer values in their declared ranges, the hidden
card and the Prince's draws invisible to the other seats. The default run plays a few
games per configuration; ``-m slow`` plays 2,000."""

from __future__ import annotations

import numpy as np
import pytest

from forest_envs.roundforest import actions as A
from forest_envs.roundforest.components import NUM_CHARACTERS, item_counts
from forest_envs.roundforest.rules import RoundforestGame, new_game

CONFIGS = RoundforestGame.all_configs()
STEPS = 1_200  # random games can stall for ever: each fuzzed game stops here at the latest


def check(s) -> None:
    cfg = s.game.config
    assert (s.item_totals() == item_counts(cfg["no_silver"])).all()
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
    assert not s.game.layout.out_of_range(s.buf)
    if not s.is_terminal:
        assert s.legal_action_mask().any()


def play(cfg: dict, seed: int, hidden_every: int = 0) -> None:
    s = new_game(cfg, seed)
    rng = np.random.default_rng(seed)
    step = 0
    while not s.is_terminal and step < STEPS:
        s.apply(int(rng.choice(s.legal_actions())))
        check(s)
        step += 1
        if hidden_every and step % hidden_every == 0:
            for seat in range(s.num_players):
                other = s.resample_hidden(seat, np.random.default_rng(step))
                assert (other.observation(seat) == s.observation(seat)).all()
                check(other)


@pytest.mark.parametrize("cfg", CONFIGS, ids=[str(c) for c in CONFIGS])
def test_random_games_keep_every_invariant(cfg):
    for seed in range(2):
        play(cfg, seed, hidden_every=7)


@pytest.mark.slow
def test_two_thousand_random_games():
    for i in range(2000):
        play(CONFIGS[i % len(CONFIGS)], 10_000 + i)


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
