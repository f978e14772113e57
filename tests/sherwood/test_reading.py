"""``reading.reading``: the light record the heuristic reads holds the same facts as the
seat's ``view``, and nothing another seat hides."""

from __future__ import annotations

import numpy as np
import pytest

from forest_envs.sherwood.observation import KIND_OF_NAME
from forest_envs.sherwood.rules import SherwoodGame, new_game
from forest_envs.sherwood.text.reading import UNSEEN, SeatReading, reading

CONFIGS = SherwoodGame.all_configs()


def states(config: dict, games: int = 2):
    """Every state of a few uniformly random games of ``config``."""
    rng = np.random.default_rng(len(CONFIGS) + CONFIGS.index(config))
    for g in range(games):
        state = new_game(config, seed=g)
        while not state.is_terminal:
            yield state
            state.apply(int(rng.choice(state.legal_actions())))


def facts_of_view(v: dict) -> dict:
    """The view's entries as the reading holds them."""
    d, seat, players, coach, offer = v["decision"], v["seat"], v["players"], v["coach"], v["offer"]
    return {
        "seat": seat, "num_players": v["num_players"], "additions": v["additions"],
        "round": v["round"],
        "decision": None if d is None else d["kind"],
        "kind": None if d is None else KIND_OF_NAME[d["kind"]], "data": None if d is None else d["data"],
        "slots": tuple(None if s is None else (s["deck"], s["card"]["id"] if "card" in s else UNSEEN)
                       for s in v["slots"]),
        "ambushes": tuple(None if e is None else (tuple(e["outlaws"]), tuple(map(tuple, e["promised"])))
                          for e in v["ambushes"]),
        **{key: tuple(p[key] for p in players) for key in ("camp", "oak", "gold", "fame", "hand_count")},
        "hand": tuple(v["hand"]), "played": tuple(v["played"][seat]),
        "coach": None if coach is None else (coach["card"]["id"], coach["step"], tuple(coach["route"])),
        "offer": None if offer is None else (offer["own"], tuple(map(tuple, offer["asked"]))),
    }


def facts_of_reading(r: SeatReading) -> dict:
    facts = r._asdict()
    if r.data is not None:  # the decision's record, read by its kind's names
        facts["data"] = r.data._asdict()
    return facts


@pytest.mark.whole_games
@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: "-".join(f"{k}={v}" for k, v in c.items()))
def test_reading_holds_the_facts_of_the_view(config):
    seen = {"coach": 0, "offer": 0, "peeked": 0}
    for state in states(config):
        for seat in range(state.num_players):
            r = state.reading(seat)  # through the engine's hook (render.reading)
            assert r == reading(state, seat)
            v = state.view(seat)
            assert facts_of_reading(r) == facts_of_view(v)
            seen["coach"] += r.coach is not None
            seen["offer"] += r.offer is not None
            seen["peeked"] += any(s is not None and s.get("peeked") for s in v["slots"])
    assert min(seen.values()) > 0, seen   # the rarer entries were compared too


@pytest.mark.whole_games
def test_reading_tells_apart_nothing_another_seat_hides():
    """Two states a seat cannot tell apart (other hands, the travellers it has not seen and
    the decks redrawn) read the same; the positions where the redraw changed something
    hidden are counted."""
    rng = np.random.default_rng(11)
    checked = changed = 0
    for config in CONFIGS:
        for i, state in enumerate(states(config, games=1)):
            if i % 3:
                continue
            for seat in range(state.num_players):
                other = state.resample_hidden(seat, rng)
                assert reading(other, seat) == reading(state, seat)
                checked += 1
                changed += other.slots != state.slots or not np.array_equal(other.hand, state.hand)
    assert checked > 200 and changed > 50
