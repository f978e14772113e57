"""``text.view``: a seat's knowledge exists once, as the typed record ``reading``; ``view`` is
its JSON (plus the legal actions), the picture reads the JSON back into the record, and the
record holds nothing the seat may not know."""

from __future__ import annotations

import json

import numpy as np
import pytest

from forest_envs.chickwood.agents.seat_view import composition
from forest_envs.chickwood.rules import new_game
from forest_envs.chickwood.text.view import SeatReading, reading


def states(num_players: int, legendary: bool, games: int = 3):
    """Every state of a few uniformly random games, the last (finished) one included."""
    rng = np.random.default_rng(num_players * 2 + legendary)
    for g in range(games):
        state = new_game({"num_players": num_players, "legendary": legendary}, seed=g)
        while not state.is_terminal:
            yield state
            state.apply(int(rng.choice(state.legal_actions())))
        yield state


def seen_in_view(v: dict) -> tuple[int, ...]:
    """Cards of each kind whose place the view shows: the hand, the discards it knows, the
    box, the collections, and at the castles the face-up cards, its own face-down ones and
    those it spied."""
    known = [v["hand"], v["discard_public"], v["discard_known"], v["box"]]
    known += [p["collection"] for p in v["players"]]
    for c in v["castles"].values():
        known += [c["face_up"], c["my_face_down"], c["spied_face_down"]]
    return tuple(map(sum, zip(*known)))


@pytest.mark.whole_games
@pytest.mark.parametrize("num_players,legendary", [(2, False), (3, True), (4, False), (5, True)])
def test_the_view_is_the_readings_json(num_players, legendary):
    for state in states(num_players, legendary):
        for seat in [*range(num_players), None]:
            r = reading(state, seat)
            v = state.view(seat)
            legal = v.pop("legal_actions", None)
            assert v == r.as_json()
            to_move = not state.is_terminal and seat in (None, state.current_player)
            assert legal == (state.legal_actions() if to_move else None)
            # the JSON (as a replay page stores it) reads back into the same record
            assert SeatReading.from_json(json.loads(json.dumps(v))) == r._replace(seen=None)
            if seat is None:
                assert r.hand is r.discard_known is r.seen is None
                assert r.hands == tuple(map(tuple, state.hand.tolist()))
            else:
                assert r.hands is r.discard_face_down is None
                assert r.seen == seen_in_view(v)
                assert all(x <= c for x, c in zip(r.seen, composition(num_players, legendary)))
            if r.decision is not None:  # the decision's record, read by its kind's names
                assert r.decision.data._fields == state.DECISIONS[state.decision.kind].names
                assert r.decision.kind == state.decision.kind
            assert (r.scores is None) == (not state.is_terminal)


def test_reading_tells_apart_nothing_the_seat_cannot_see():
    """Two states a seat cannot tell apart (the hidden cards redealt) read the same."""
    rng = np.random.default_rng(7)
    for i, state in enumerate(states(3, True, games=2)):
        if i % 5 or state.is_terminal:
            continue
        for seat in range(3):
            other = state.resample_hidden(seat, rng)
            assert reading(other, seat) == reading(state, seat)


def test_the_heuristic_reads_a_seats_reading_only():
    from forest_envs.chickwood.agents.seat_view import SeatView

    state = new_game({"num_players": 3, "legendary": False}, seed=0)
    with pytest.raises(ValueError, match="not the referee's"):
        SeatView(reading(state, None))
