"""``text.view``: a seat's knowledge exists once, as the typed record ``reading``; ``view`` is
its JSON (plus the legal actions and the standings), the picture reads the JSON back into the
record, and the record holds nothing another seat hides."""

from __future__ import annotations

import json

import numpy as np
import pytest
from config_cases import game_config_cases

from forest_envs.roundforest.agents.seat_view import SeatView
from forest_envs.roundforest.rules import RoundforestGame, new_game
from forest_envs.roundforest.text.view import SeatReading, reading

CONFIGS = RoundforestGame.all_configs()
def states(config: dict, games: int = 2):
    """Every state of a few uniformly random games of ``config``."""
    rng = np.random.default_rng(len(CONFIGS) + CONFIGS.index(config))
    for g in range(games):
        state = new_game(config, seed=g)
        for _ in range(400):  # random games stall; their openings and middles are enough
            if state.is_terminal:
                break
            yield state
            state.apply(int(rng.choice(state.legal_actions())))


@pytest.mark.whole_games
@pytest.mark.parametrize("config", game_config_cases("roundforest_v0"))
def test_the_view_is_the_readings_json(config):
    seen = 0
    for state in states(config):
        for seat in [*range(state.num_players), None]:
            r = state.reading(seat)  # through the engine's hook (render.reading)
            assert r == reading(state, seat)
            v = state.view(seat)
            legal = v.pop("legal_actions", None)
            assert v.pop("progress") == state.breakdown()
            assert v == r.as_json()
            to_move = not state.is_terminal and seat in (None, state.current_player)
            assert legal == (state.legal_actions() if to_move else None)
            # the JSON (as a replay page stores it) reads back into the same record
            back = SeatReading.from_json(json.loads(json.dumps(v)))
            assert back.as_json() == v
            assert back == r
            for p, pl in enumerate(r.players):  # secrets: the seat's own, or the referee's
                assert pl.secrets_shown == (seat in (None, p))
                assert (pl.prince_items is None) == (not pl.secrets_shown)
            assert tuple(p.cell for p in r.players) == tuple(state.pos)
            if seat is not None:  # the heuristic's view takes its own seat's standing
                sv, me = SeatView(r), r.players[seat]
                assert (sv.backpack, sv.copper, sv.silver, sv.apples, sv.compasses, sv.debts) == (
                    me.backpack, me.copper, me.silver, me.apples, me.compasses, me.debts)
                assert (sv.kind, sv.decision) == ((None, None) if r.decision is None
                                                  else (r.decision.kind, r.decision.name))
            seen += 1
    assert seen > 1000


def test_the_heuristic_reads_a_seats_reading_not_the_referees():
    r = reading(new_game(CONFIGS[0], seed=0), None)
    with pytest.raises(ValueError, match="a seat's reading, not the referee's"):
        SeatView(r)


@pytest.mark.whole_games
def test_reading_tells_apart_nothing_another_seat_hides():
    """Two states a seat cannot tell apart (another seat's face-down card and the Prince's
    draws redrawn) read the same; the positions with something hidden are checked."""
    rng = np.random.default_rng(11)
    hidden = redrawn = 0
    for config in CONFIGS:
        for state in states(config, games=3):
            for seat in range(state.num_players):
                others = [o for o in range(state.num_players) if o != seat]
                if not (state.drawn_card[others].any() or state.prince_items[others].any()):
                    continue
                other = state.resample_hidden(seat, rng)
                assert reading(other, seat) == reading(state, seat)
                hidden += 1
                redrawn += not (np.array_equal(other.drawn_card, state.drawn_card)
                                and np.array_equal(other.prince_items, state.prince_items))
    assert hidden > 50 and redrawn > 10
