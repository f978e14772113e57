"""``reading.reading``: the light record the heuristic reads holds the same facts as the
seat's ``view``, and nothing the seat may not know."""

from __future__ import annotations

import numpy as np
import pytest

from forest_envs.chickwood.agents.seat_view import composition
from forest_envs.chickwood.observation import KIND_OF_NAME
from forest_envs.chickwood.rules import new_game
from forest_envs.chickwood.text.reading import reading


def states(num_players: int, legendary: bool, games: int = 3):
    """Every state of a few uniformly random games."""
    rng = np.random.default_rng(num_players * 2 + legendary)
    for g in range(games):
        state = new_game({"num_players": num_players, "legendary": legendary}, seed=g)
        while not state.is_terminal:
            yield state
            state.apply(int(rng.choice(state.legal_actions())))


def facts_of_view(v: dict) -> dict:
    """The view's entries as the reading holds them."""
    d = v["decision"]
    me = v["players"][v["seat"]]
    known = [v["hand"], v["discard_public"], v["discard_known"], v["box"]]
    known += [p["collection"] for p in v["players"]]
    for c in v["castles"].values():
        known += [c["face_up"], c["my_face_down"], c["spied_face_down"]]
    return {
        "seat": v["seat"], "num_players": v["num_players"], "legendary": v["legendary"],
        "round": v["round"], "deck_left": v["deck_left"],
        "decision": None if d is None else d["kind"],
        "kind": None if d is None else KIND_OF_NAME[d["kind"]], "data": None if d is None else d["data"],
        "play_face_down": v["play_face_down"], "snake_visited": tuple(v["snake_visited"]),
        "order": tuple(v["order"]),
        "collections": tuple(tuple(p["collection"]) for p in v["players"]),
        "alms_left": tuple(p["alms_left"] for p in v["players"]),
        "raided": tuple(p["raided"] for p in v["players"]),
        "castles_held": tuple(tuple(p["castles_held"]) for p in v["players"]),
        "castle_of": tuple(p["castle"] for p in v["players"]),
        "banner": tuple(me["banner"]), "hand_count": me["hand_count"], "hand": tuple(v["hand"]),
        "castles": tuple((c["value"], c["pile_left"], c["capacity"], c["raided_by"],
                          tuple(c["face_up"]), tuple(c["face_down_by"]),
                          tuple(c["my_face_down"]), tuple(c["spied_face_down"]))
                         for c in v["castles"].values()),
        "villages": tuple((vil["village"], tuple(vil["alms"])) for vil in v["villages"]),
        "seen": tuple(map(sum, zip(*known))),
    }


@pytest.mark.whole_games
@pytest.mark.parametrize("num_players,legendary", [(2, False), (3, True), (4, False), (5, True)])
def test_reading_holds_the_facts_of_the_view(num_players, legendary):
    for state in states(num_players, legendary):
        for seat in range(num_players):
            r = reading(state, seat)
            facts = r._asdict()
            if r.data is not None:  # the decision's record, read by its kind's names
                assert r.data._fields == state.DECISIONS[state.decision.kind].names
                facts["data"] = r.data._asdict()
            assert facts == facts_of_view(state.view(seat))
            assert all(x <= c for x, c in zip(r.seen, composition(num_players, legendary)))


def test_reading_tells_apart_nothing_the_seat_cannot_see():
    """Two states a seat cannot tell apart (the hidden cards redealt) read the same."""
    rng = np.random.default_rng(7)
    for i, state in enumerate(states(3, True, games=2)):
        if i % 5:
            continue
        for seat in range(3):
            other = state.resample_hidden(seat, rng)
            assert reading(other, seat) == reading(state, seat)
