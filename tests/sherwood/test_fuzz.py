"""Random games with invariants after every action (until the game is registered and the
generic suites take over): 42 gold bags (the pit, camps and bags laid out as promised
loot), 48 outlaws (camps, places, ambushes, under the oak and comrades laid out in an
ambush as promised loot), 18 weapons (24 cards with the additions: deck, discard, hands,
marked promised cards, cards played at the ambush) and 55 traveller cards always accounted
for, masks non-empty for the seat to
move, every block within its declared range, the JSON round trip exact, clones
independent. ``-m slow`` plays 2,000 games."""

from __future__ import annotations

import json

import numpy as np
import pytest

from forest_envs.sherwood.rules import SherwoodGame, new_game

TURN_DECISIONS = {"prep", "ask", "reveal", "target", "informant", "terms", "confirm", "lead"}
# ("pledge" and "call" are pushed above "lead")


def check(state) -> None:
    game = state.game
    assert not game.layout.out_of_range(state.buf), game.layout.out_of_range(state.buf)
    assert (state.outlaw_totals() == 8).all()
    assert state.gold_total() == 42
    assert state.equipment_total() == (24 if game.additions else 18)
    assert state.traveller_total() == 55
    # The turn player's decision is the bottom of the stack; other seats' decisions (answers,
    # equipment, loot, cloak, provisions, messenger) sit one above it.
    if not state.is_terminal:
        depth = 1 if state.decision_name() in TURN_DECISIONS else 2
        assert len(state.decisions) == depth, (state.decision_name(), len(state.decisions))
        assert state.decisions[0].player == state.turn_player
    mask = state.legal_action_mask()
    if state.is_terminal:
        assert not mask.any() and state.current_player == -1
    else:
        assert mask.any(), state.decision_name()
    for seat in range(game.num_players):
        obs = state.observation(seat)
        assert obs.shape == (game.observation_size,)


CONFIGS = SherwoodGame.all_configs()
IDS = [f"{c['num_players']}p-additions={c['additions']}" for c in CONFIGS]


def fuzz(config: dict, games: int, seed: int, deep_every: int = 0) -> None:
    rng = np.random.default_rng(seed)
    for g in range(games):
        state = new_game(config, int(rng.integers(2**31)))
        step = 0
        while True:
            check(state)
            if deep_every and step % deep_every == g % deep_every:
                data = state.to_dict()
                again = state.game.state_from_dict(json.loads(json.dumps(data)))
                assert again.to_dict() == data
                clone = state.clone()
                crng = np.random.default_rng(step)
                while not clone.is_terminal:
                    clone.apply(int(crng.choice(clone.legal_actions())))
                assert state.to_dict() == data, "playing a clone changed the original"
            if state.is_terminal:
                break
            legal = np.flatnonzero(state.legal_action_mask())
            state.apply(int(legal[rng.integers(legal.size)]))
            step += 1
        assert state.ranks().count(1) >= 1


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_fuzz_quick(config):
    fuzz(config, games=6, seed=config["num_players"], deep_every=23)


@pytest.mark.slow
@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_fuzz_many(config):
    fuzz(config, games=250, seed=100 + config["num_players"])  # 8 configs: 2,000 games


@pytest.mark.filterwarnings("ignore::UserWarning")   # api_test's notes on Dict observations
@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_pettingzoo_api_and_seed(config):
    from pettingzoo.test import api_test, seed_test

    from forest_envs.sherwood import env

    api_test(env(**config), num_cycles=300)
    seed_test(lambda: env(**config), num_cycles=100)
