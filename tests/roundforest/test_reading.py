"""``reading.reading``: the light record the heuristic reads holds the same facts as the
seat's ``view``, and nothing another seat hides."""

from __future__ import annotations

import numpy as np
import pytest
from config_cases import game_config_cases

from forest_envs.roundforest.observation import KIND_OF_NAME
from forest_envs.roundforest.rules import RoundforestGame, new_game
from forest_envs.roundforest.text.reading import SeatReading, reading

CONFIGS = RoundforestGame.all_configs()
# The per-cell columns of the reading: the view has them in its ``cells`` entry, for the
# tiles only (the reading's columns run over every cell, as the state's blocks do).
CELL_COLUMNS = {"tile": "tile", "orientation": "orientation", "well": "well", "chip": "chip",
                "item": "item", "character": "character"}


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


def facts_of_view(v: dict) -> dict:
    """The view's entries as the reading holds them (the tile columns at the tiles)."""
    d = v["decision"]
    me = v["players"][v["seat"]]
    cells = v["cells"]
    return {
        "seat": v["seat"], "num_players": v["num_players"],
        "decision": None if d is None else d["kind"],
        "kind": None if d is None else KIND_OF_NAME[d["kind"]], "data": None if d is None else d["data"],
        "tile_cells": tuple(cells),
        **{column: tuple(info[entry] for info in cells.values())
           for column, entry in CELL_COLUMNS.items()},
        "fairy": tuple(map(tuple, v["fairy"])),
        "piece_cells": tuple(p["cell"] for p in v["players"]),
        "backpack": tuple(me["backpack"]), "copper": me["copper"], "silver": me["silver"],
        "apples": me["apples"], "compasses": me["compasses"], "debts": tuple(me["debts"]),
    }


def facts_of_reading(r: SeatReading) -> dict:
    facts = r._asdict()
    if r.data is not None:  # the decision's record, read by its kind's names
        facts["data"] = r.data._asdict()
    for column in CELL_COLUMNS:
        facts[column] = tuple(facts[column][c] for c in r.tile_cells)
    return facts


@pytest.mark.whole_games
@pytest.mark.parametrize("config", game_config_cases("roundforest_v0"))
def test_reading_holds_the_facts_of_the_view(config):
    seen = 0
    for state in states(config):
        for seat in range(state.num_players):
            r = state.reading(seat)  # through the engine's hook (render.reading)
            assert r == reading(state, seat)
            assert facts_of_reading(r) == facts_of_view(state.view(seat))
            seen += 1
    assert seen > 1000


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
