"""``text.view``: a seat's knowledge exists once, as the typed record ``reading``; ``view`` is
its JSON (plus the prompt, the legal actions and, at the end, the scores), the JSON reads
back into the record, and the record holds nothing another seat hides."""

from __future__ import annotations

import json

import numpy as np
import pytest

from forest_envs.sherwood.agents.seat_view import SeatView
from forest_envs.sherwood.components import AMBUSHES
from forest_envs.sherwood.rules import SherwoodGame, new_game
from forest_envs.sherwood.text.view import SeatReading, StayReading, reading
from forest_envs.sherwood.text.words import sentence

from . import positions_words as P
from .conftest import act, attack_setup

CONFIGS = SherwoodGame.all_configs()


def states(config: dict, games: int = 2):
    """Every state of a few uniformly random games of ``config``."""
    rng = np.random.default_rng(len(CONFIGS) + CONFIGS.index(config))
    for g in range(games):
        state = new_game(config, seed=g)
        while not state.is_terminal:
            yield state
            state.apply(int(rng.choice(state.legal_actions())))


@pytest.mark.whole_games
@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: "-".join(f"{k}={v}" for k, v in c.items()))
def test_the_view_is_the_readings_json(config):
    seen = {"coach": 0, "offer": 0, "peeked": 0, "told": 0, "agreement": 0, "crush": 0,
            "provisioning": 0, "removed": 0, "fork_bonus": 0}
    for state in states(config):
        for seat in [*range(state.num_players), None]:
            r = state.reading(seat)  # through the engine's hook (render.reading)
            assert r == reading(state, seat)
            v = state.view(seat)
            legal = v.pop("legal_actions", None)
            to_move = not state.is_terminal and seat in (None, state.current_player)
            assert legal == (state.legal_actions() if to_move else None)
            assert v.pop("prompt") == sentence(r)
            assert v == r.as_json()
            # the JSON (as a replay page stores it) reads back into the same record
            assert SeatReading.from_json(json.loads(json.dumps(v))) == r
            # hands: the seat's own, or every one for the referee
            assert [h is not None for h in r.hands] == [seat in (None, q) for q in range(state.num_players)]
            seen["coach"] += r.coach is not None
            seen["offer"] += r.offer is not None
            seen["peeked"] += any(s is not None and s.peeked for s in r.slots)
            seen["told"] += any(s is not None and s.told is not None for s in r.slots)
            seen["agreement"] += any(a is not None and a.agreement is not None for a in r.ambushes)
            seen["crush"] += r.crush is not None
            seen["provisioning"] += r.provisioning is not None
            seen["removed"] += len(r.removed) > 0
            seen["fork_bonus"] += any(p.fork_bonus for p in r.players)
            if seat is not None:  # the heuristic's view takes its own seat's entries
                sv = SeatView(r)
                assert (sv.hand, sv.played) == (r.hands[seat], r.played[seat])
                assert sv.camp == tuple(p.camp for p in r.players)
                assert sv.fame == tuple(p.fame for p in r.players)
                assert (sv.kind, sv.decision) == ((None, None) if r.decision is None
                                                  else (r.decision.kind, r.decision.name))
    # the rarer entries were compared too (told loot: test_told_loot_reads_back)
    # (the Sheriff, provisions, the fork bonus and agreements come with the additions)
    rare = (("told", "crush", "provisioning") if config["additions"]
            else ("told", "agreement", "crush", "provisioning", "fork_bonus"))
    assert min(n for k, n in seen.items() if k not in rare) > 0, seen


@pytest.mark.whole_games
def test_told_loot_reads_back():
    """A traveller whose loot an offer told (with the additions: random games of
    three seats tell it now and then) shows the told loot in its JSON and reads it back."""
    told = 0
    for state in states({"num_players": 3, "additions": True}):
        for seat in range(state.num_players):
            r = reading(state, seat)
            for s, slot in enumerate(r.slots):
                if slot is None or slot.told is None:
                    continue
                entry = state.view(seat)["slots"][s]
                assert entry["told"] == slot.told._asdict()
                assert SeatReading.from_json(json.loads(json.dumps(r.as_json()))) == r
                told += 1
    assert told > 0


def test_the_crushed_ambushs_questions_the_provisions_and_the_travellers_gone_are_read():
    """The forest-cloak questions of a crushed ambush (who is asked, who stays so far), the
    provisions questions after a robbery, and the travellers that left the game are public."""
    s = attack_setup(P.SHERIFF_B12, {"Lincoln Gate": {0: 3, 1: 2}}, additions=True,
                     hands={0: {"forest cloak": 1}, 1: {"forest cloak": 1}}, leads=(0, 1),
                     more_cards=(0,))
    act(s, "lead traveller 1", "no messenger's clothes", "no messenger's clothes")  # P0, P1 asked
    lincoln_gate = AMBUSHES.index("Lincoln Gate")
    assert reading(s, 2).crush == StayReading(lincoln_gate, (0, 1), 0, ())
    act(s, "forest cloak: stay in the ambush")
    r = reading(s, 2)
    assert (r.crush, r.removed) == (StayReading(lincoln_gate, (0, 1), 1, (0,)), ())
    assert SeatReading.from_json(json.loads(json.dumps(r.as_json()))) == r
    act(s, "forest cloak: go home")
    r = reading(s, 2)
    assert (r.crush, r.removed, r.coach) == (None, (P.SHERIFF_B12,), None)

    s = P.provisions()
    york_gate = AMBUSHES.index("York Gate")
    r = reading(s, 1)
    assert (r.provisioning, r.removed) == (StayReading(york_gate, (0,), 0, ()), ())
    assert r.as_json()["provisioning"] == {"ambush": york_gate, "order": [0], "asking": 0, "stay": []}
    act(s, "provisions: stay in the ambush")
    assert (reading(s, 1).provisioning, reading(s, 1).removed) == (None, (7,))


def test_the_heuristic_reads_a_seats_reading_not_the_referees():
    with pytest.raises(ValueError, match="a seat's reading, not the referee's"):
        SeatView(reading(new_game(CONFIGS[0], seed=0), None))


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
