"""Chickwood Forest heuristic agent: strength against random play, speed, legality in every
configuration, independence from hidden information, the view it reads, and targeted
decisions.

The full requirements (>= 97% of 1,000 seat-rotated 3-player games against two random
agents; <= 0.3 ms per decision) run with ``-m slow``; the default run plays 200 games with
a bound consistent with the measured rate and bounds the speed generously."""

from __future__ import annotations

import itertools
import json
import time
from operator import add

import numpy as np
import pytest
from engine_helpers import SeatOnlyEnv

from forest_envs.agents import make_agent
from forest_envs.agents.base import RandomAgent
from forest_envs.chickwood import actions as A
from forest_envs.chickwood.agents import HeuristicAgent, Params
from forest_envs.chickwood.agents import heuristic as heuristic_module
from forest_envs.chickwood.agents.alms_routes import best_routes, cell_values
from forest_envs.chickwood.agents.scouting import Scouting, choose_play
from forest_envs.chickwood.agents.seat_view import SeatView
from forest_envs.chickwood.agents.valuation import (
    Valuer,
    loot_gain,
    loot_marginals,
    seat_alms_value,
    shaped_value,
)
from forest_envs.chickwood.components import (
    BENEFACTOR_ALMS,
    KIND_NAMES,
    NUM_KINDS,
    SPY_GLASS,
    VILLAGES,
)
from forest_envs.chickwood.observation import Kind
from forest_envs.chickwood.rules.scoring import (
    loot_glory,
    village_awards,
    village_awards_all_unlocked,
)
from forest_envs.core.engines import engine_of
from forest_envs.envs.registration import make_raw
from forest_envs.evaluation import run_games, summarize

from .conftest import (
    _ENGINE,
    F,
    act,
    cell,
    clear_castles,
    counts,
    fill_cell,
    kind,
    new_state,
    phase,
    place_alms,
    scout_all,
    set_castle_cards,
    set_castles,
    set_collection,
    set_grid,
    set_hands,
)

CONFIGS = [(n, leg) for n in (2, 3, 4, 5) for leg in (False, True)]


@pytest.fixture(autouse=True)
def engine():
    """The heuristic's tests build some positions by swapping a state's game (a Legendary
    table from a plain one), which only the Python engine's state allows; the heuristic reads
    a native state as it reads a Python one (the differential test plays it on both)."""
    _ENGINE[0] = "python"
    yield "python"
    _ENGINE[0] = None


CONFIG_IDS = [f"{n}p{'-legendary' if leg else ''}" for n, leg in CONFIGS]


def env_around(state):
    """A raw env started from a copy of ``state`` (the player to move selected), on the
    state's own engine: these positions conjure cards, which no engine's state dict accepts
    (the cards would not add up), so the env must not convert them."""
    env = make_raw("chickwood_v0", engine=engine_of(state), **state.game.config)
    env.reset(options={"state": state})
    return env


def decide(state, agent=None):
    """The heuristic's action for the player to move, through the seat-only interface."""
    env = env_around(state)
    state = env.engine_state  # the env plays its own copy
    agent = agent or HeuristicAgent(seed=0)
    a = agent.act(SeatOnlyEnv(env), env.agent_selection)
    assert state.legal_action_mask()[a], state.game.action_names[a]
    return a


def name(state, a: int) -> str:
    return state.game.action_names[a]


def play(state, agents, max_steps: int = 5000):
    """Play to the end with one agent per seat; returns the env."""
    env = env_around(state)
    state = env.engine_state  # the env plays its own copy
    for _ in range(max_steps):
        if state.is_terminal:
            break
        p = state.current_player
        agent = env.possible_agents[p]
        a = agents[p].act(SeatOnlyEnv(env), agent)
        assert env.action_mask(agent)[a] == 1, f"illegal {name(state, a)}"
        env.step(a)
    assert state.is_terminal
    return env


def mean_decision_ms(games) -> float:
    """Mean CPU time per heuristic decision over all-heuristic games ((players,
    legendary, seed) each), every decision counted (forced ones too)."""
    total, count = 0.0, 0
    for n, legendary, seed in games:
        state = new_state(n, legendary, seed=seed)
        agents = [HeuristicAgent(seed=s) for s in range(n)]
        env = env_around(state)
        state = env.engine_state  # the env plays its own copy
        while not state.is_terminal:
            p = state.current_player
            t = time.process_time()
            a = agents[p].act(env, env.possible_agents[p])
            total += time.process_time() - t
            count += 1
            env.step(a)
    return 1000 * total / count


# =========================================================================================
# Strength and speed
# =========================================================================================
@pytest.mark.slow  # a whole-process run: make test-all
def test_beats_two_random_agents_in_200_three_player_games():
    specs = ["heuristic", "random", "random"]
    rows = summarize(specs, run_games("chickwood_v0", specs, 200, seed=0, workers=1))
    # measured 0.98 over 1,000 games (sd over 200 games ~0.01): 0.94 leaves 4 sd
    assert rows[0]["win_rate"] >= 0.94, rows[0]


@pytest.mark.slow
def test_requirement_wins_97_percent_of_1000_three_player_games_against_random():
    specs = ["heuristic", "random", "random"]
    rows = summarize(specs, run_games("chickwood_v0", specs, 1000, seed=0, workers=2))
    assert rows[0]["win_rate"] >= 0.97, rows[0]


# The smallest and the largest table here; every configuration over 300 games under -m slow.
@pytest.mark.parametrize("n, legendary", [(2, False), (5, True)], ids=["2p", "5p-legendary"])
def test_beats_random_agents_in_other_configurations(n, legendary):
    specs = ["heuristic"] + ["random"] * (n - 1)
    rows = summarize(specs, run_games("chickwood_v0", specs, 40, seed=1,
                                      config={"legendary": legendary}))
    assert rows[0]["win_rate"] >= 0.6, rows[0]  # measured 0.93-1.0 over 1,000 games
    assert rows[0]["mean_score"] > max(r["mean_score"] for r in rows[1:]) + 15


@pytest.mark.slow
@pytest.mark.parametrize("n, legendary", CONFIGS, ids=CONFIG_IDS)
def test_beats_random_in_every_configuration_over_300_games(n, legendary):
    specs = ["heuristic"] + ["random"] * (n - 1)
    rows = summarize(specs, run_games("chickwood_v0", specs, 300, seed=2, workers=2,
                                      config={"legendary": legendary}))
    assert rows[0]["win_rate"] >= 0.8, rows[0]


SPEED_GAMES = [(n, legendary, seed) for seed, (n, legendary) in enumerate(CONFIGS)]


def test_decisions_are_fast():
    # ~0.25 ms measured; generous for slow or busy machines (the slow test holds 0.3 ms)
    assert mean_decision_ms(SPEED_GAMES) < 2.0


@pytest.mark.slow
def test_requirement_a_decision_takes_at_most_0_3_ms():
    # the best of three runs: a busy machine slows every run, an idle one none
    assert min(mean_decision_ms(SPEED_GAMES * 3) for _ in range(3)) <= 0.3


def test_registry_builds_the_heuristic():
    agent = make_agent("chickwood_v0", "heuristic", seed=3)
    assert isinstance(agent, HeuristicAgent)
    agent.reset()
    agent.reset(seed=4)


def test_parameters_are_checked_and_shared():
    assert HeuristicAgent(opp_weight=0.4).p is HeuristicAgent(opp_weight=0.4).p
    assert HeuristicAgent().p is Params.of()
    with pytest.raises(TypeError, match="unknown HeuristicAgent parameters"):
        HeuristicAgent(greed=1.0)


# =========================================================================================
# Legality, hidden information, no silent fallback
# =========================================================================================
@pytest.mark.parametrize("n, legendary", CONFIGS, ids=CONFIG_IDS)
def test_only_legal_actions_in_every_configuration(n, legendary):
    """Heuristic against heuristics, and against random players, to the end of the game
    through the seat-only interface (which also proves it reads nothing else)."""
    for seed in range(2):
        state = new_state(n, legendary, seed=seed)
        play(state, [HeuristicAgent(seed=s) for s in range(n)])
        state = new_state(n, legendary, seed=10 + seed)
        agents = [HeuristicAgent(seed=s) if s == seed % n else RandomAgent(s) for s in range(n)]
        play(state, agents)


def test_agent_object_can_be_reused_across_games():
    agent = HeuristicAgent(seed=0)
    for seed in range(3):
        state = new_state(3, seed=seed)
        play(state, [agent, RandomAgent(1), RandomAgent(2)])
        agent.reset()


@pytest.mark.parametrize("n, legendary", [(2, False), (3, True), (5, True)],
                         ids=["2p", "3p-legendary", "5p-legendary"])
def test_decisions_do_not_depend_on_hidden_information(n, legendary):
    """At every heuristic decision of a game, two states the seat cannot tell apart
    (``resample_hidden``) give a fresh agent the same action as the true state."""
    rng = np.random.default_rng(n)
    state = new_state(n, legendary, seed=5)
    agents = [HeuristicAgent(seed=s) for s in range(n)]
    env = env_around(state)
    state = env.engine_state  # the env plays its own copy
    checked = changed = 0
    while not state.is_terminal:
        p = state.current_player
        agent = env.possible_agents[p]
        a = agents[p].act(env, agent)
        if len(state.legal_actions()) > 1:
            fresh = HeuristicAgent(seed=0).act(env, agent)
            for _ in range(2):
                other = state.resample_hidden(p, rng)
                changed += other.buf.tobytes() != state.buf.tobytes() or \
                    other.deck.tobytes() != state.deck.tobytes()
                assert HeuristicAgent(seed=0).act(env_around(other), agent) == fresh, \
                    f"{state.decision_name()}: decision changed with hidden cards"
            checked += 1
        env.step(a)
    assert checked > 20 and changed > 20


def test_an_illegal_choice_raises_instead_of_falling_back(monkeypatch):
    state = raid_position()
    set_castle_cards(state, 2, face_up={"violet ring": 1})
    monkeypatch.setattr(heuristic_module, "choose_raid", lambda val, legal: A.SPY.id(0))
    with pytest.raises(RuntimeError, match="illegal action"):
        decide(state)


def test_an_unknown_decision_raises():
    state = raid_position()
    sv = SeatView(state.reading(0))
    sv.decision, sv.kind = "juggle", None
    with pytest.raises(RuntimeError, match="no rule for decision 'juggle'"):
        HeuristicAgent().decide(sv, state.legal_actions())


# =========================================================================================
# The view it reads, and the scoring it calls
# =========================================================================================
def test_view_is_indexed_plain_data_and_render_names_it():
    state = new_state(3, legendary=True, seed=3)
    rng = np.random.default_rng(3)
    while phase(state) != "alms":  # a raid with benefactors, some alms on the villages
        state.apply(int(rng.choice(state.legal_actions())))
        if state.is_terminal:
            state = new_state(3, legendary=True, seed=int(rng.integers(100)))
    seat = state.current_player
    v = state.view(seat)
    assert json.loads(json.dumps(v)) is not None
    assert v["decision"]["kind"] == "alms" and v["decision"]["player"] == seat
    assert set(v["decision"]["data"]) == {"alms_left", "last_cell"}
    assert v["hand"] == state.hand[seat].tolist() and len(v["hand"]) == NUM_KINDS
    assert sorted(v["castles"]) == [1, 2, 3, 4]
    for value, c in v["castles"].items():
        assert c["face_up"] == state.castle_faceup[value - 1].tolist()
        assert c["my_face_down"] == state.fd_own[seat, value - 1].tolist()
    for p, pl in enumerate(v["players"]):
        assert pl["collection"] == state.collection[p].tolist()
        assert pl["castles_held"] == state.castles_held[p].tolist()
    owners = state._space_owners()
    for c, vil in enumerate(v["villages"]):
        assert vil["village"] == state.grid[c]
        assert vil["alms"] == owners[c, :len(vil["alms"])].tolist()
    assert v["legal_actions"] == state.legal_actions()
    assert "legal_actions" not in state.view((seat + 1) % 3)
    referee = state.view(None)
    assert referee["hands"] == state.hand.tolist()
    assert all(c["face_down"] == state.fd_own[:, value - 1].tolist()
               for value, c in referee["castles"].items())
    text = state.render(seat)
    for p in range(3):
        for k, x in enumerate(v["players"][p]["collection"]):
            assert not x or KIND_NAMES[k] in text


def test_shaped_value_is_the_loot_glory_when_nothing_is_to_come():
    rng = np.random.default_rng(0)
    for _ in range(200):
        coll = tuple(int(x) for x in rng.integers(0, 3, size=NUM_KINDS) * (rng.random(NUM_KINDS) < 0.4))
        base = coll[:17] + (0,) * 5  # no Legendary cards
        assert shaped_value(base, 0, False, Params.of()) == loot_glory(list(base))


def _random_collections(rng, count: int):
    """Collections of every shape the marginals distinguish: busts over tied and untied
    chests, a Maid or two, single and paired garments, henchmen, the Legendary cards."""
    for _ in range(count):
        coll = [int(x) for x in rng.choice([0, 0, 0, 1, 1, 2, 3, 5], size=NUM_KINDS)
                * (rng.random(NUM_KINDS) < 0.5)]
        for k in BENEFACTOR_ALMS:
            coll[k] = 0  # benefactors give alms, never loot
        legendary = bool(rng.random() < 0.5)
        if not legendary:
            coll[SPY_GLASS:] = [0] * (NUM_KINDS - SPY_GLASS)
        yield tuple(coll), int(rng.integers(0, 8)), legendary


@pytest.mark.parametrize("params", [Params.of(), Params.of(chest_future=0.0)])
def test_marginals_are_the_shaped_value_of_one_more_card_bit_for_bit(params):
    """``loot_marginals`` rescores only the parts a kind enters: each marginal must be the
    very float the definition gives (a decision compares them, ties included), and a single
    card's ``loot_gain`` its marginal."""
    rng = np.random.default_rng(7)
    for coll, rounds_after, legendary in _random_collections(rng, 3000):
        got = loot_marginals.__wrapped__(coll, rounds_after, legendary, params)
        base = shaped_value(coll, rounds_after, legendary, params)
        for k in range(NUM_KINDS):
            if k in BENEFACTOR_ALMS or (k >= SPY_GLASS and not legendary):
                want = 0.0
            else:
                more = list(coll)
                more[k] += 1
                want = shaped_value(tuple(more), rounds_after, legendary, params) - base
            assert got[k].hex() == want.hex(), (coll, rounds_after, legendary, k)
            one = tuple(int(i == k) for i in range(NUM_KINDS))
            if k not in BENEFACTOR_ALMS:
                assert loot_gain(coll, one, rounds_after, legendary, params).hex() == got[k].hex()


def test_awards_all_unlocked_rank_as_now_with_every_glory_unlocked():
    rng = np.random.default_rng(1)
    for _ in range(300):
        g = int(rng.integers(len(VILLAGES)))
        spaces = VILLAGES[g].spaces
        filled = int(rng.integers(0, spaces + 1))
        owners = [int(x) for x in rng.integers(0, 4, size=filled)] + [-1] * (spaces - filled)
        now, full = village_awards(g, owners, 4), village_awards_all_unlocked(g, owners, 4)
        assert all(f >= x for f, x in zip(full, now))  # more glory, the same ranking
        if filled == spaces:  # every row holds an alms: everything is unlocked already
            assert full == now


def test_best_routes_match_every_route_by_brute_force():
    rng = np.random.default_rng(2)
    for _ in range(30):
        values = tuple(None if rng.random() < 0.3 else float(rng.normal()) for _ in range(9))
        for length in (1, 2, 4):
            best, routes = best_routes(values, None, 0, length)
            assert best[length] == pytest.approx(brute_force_best(values, length))
            assert sum(values[c] for c in routes[length]) == pytest.approx(best[length])


def brute_force_best(values, length: int) -> float:
    """Best value of a snake of ``length`` alms (or fewer, if it gets stuck) by trying
    every sequence of distinct cells."""
    free = [c for c, v in enumerate(values) if v is not None]
    if not free:
        return 0.0

    def adjacent(a, b):
        return abs(a // 3 - b // 3) + abs(a % 3 - b % 3) == 1

    best = -1e18
    for size in range(1, length + 1):
        for route in itertools.permutations(free, size):
            if all(adjacent(a, b) for a, b in zip(route, route[1:])):
                stuck = size == length or not any(
                    adjacent(route[-1], c) for c in free if c not in route)
                if stuck:
                    best = max(best, sum(values[c] for c in route))
    return best


def _heuristic_decisions(kinds: tuple[str, ...]):
    """(state, seat, legal actions, that seat's agent) at every decision of these kinds with
    two or more legal actions, in three games of heuristic self-play (3, 4 and 5 players,
    the second Legendary); each game goes on by the agent's own choice."""
    for seed in range(3):
        state = new_state(3 + seed, legendary=seed == 1, seed=seed)
        agents = [HeuristicAgent(seed=s) for s in range(state.num_players)]
        env = env_around(state)
        state = env.engine_state  # the env plays its own copy
        while not state.is_terminal:
            p = state.current_player
            legal = state.legal_actions()
            if phase(state) in kinds and len(legal) > 1:
                yield state, p, legal, agents[p]
            env.step(agents[p].act(env, env.possible_agents[p]))


def test_scouting_by_bounds_chooses_what_scoring_every_play_would():
    checked = 0
    for state, p, legal, agent in _heuristic_decisions(("scout",)):
        val = Valuer(SeatView(state.reading(p)), Params.of())
        scouting = Scouting(val, agent.model)
        scores = {play.action: scouting.score(play, float("-inf"))
                  for play in scouting.plays(legal)}
        assert choose_play(val, agent.model, legal) == max(legal, key=scores.__getitem__)
        checked += 1
    assert checked > 50


def test_castle_values_kept_between_decisions_equal_values_computed_afresh():
    """Valuer keeps the loot gains per collection and the alms values per decision; a value
    read back from those memos equals one computed from the rules' scoring alone."""
    p_ = Params.of()
    checked = 0
    for state, p, _, _ in _heuristic_decisions(("scout", "raid")):
        sv = SeatView(state.reading(p))
        val = Valuer(sv, p_)
        for c in sv.open_castles():
            for seat, cards in [(p, c.known)] + [(o, c.up) for o in sv.opponents()]:
                route_values = val.cell_values if seat == p else None
                fresh = (seat_alms_value(cards.alms, sv.alms_left[seat], route_values, p_)
                         if cards.alms else 0.0)
                if cards.loot is not None:
                    coll = sv.colls[seat]
                    fresh += (shaped_value(tuple(map(add, coll, cards.loot)), sv.rounds_after,
                                           sv.legendary, p_)
                              - shaped_value(coll, sv.rounds_after, sv.legendary, p_))
                assert val.cards_value(seat, cards) == fresh
                assert val.cards_value(seat, cards) == fresh  # read back from the memo
                checked += 1
            # with one more card of mine of each kind I hold: the same sum, kind by kind
            kinds = [k for k, x in enumerate(sv.hand) if x]
            for k, value in val.my_castle_values(c, kinds).items():
                assert value == (val.term[c.value] + val.cards_value(p, c.known.plus(k))
                                 + c.unknown * val.unseen[p] - p_.dump_penalty * c.dumped)
    assert checked > 500


def test_opponent_model_tells_a_value_driven_opponent_from_a_random_one():
    told = 0
    for seed in range(4):
        state = new_state(3, seed=seed)
        agents = [HeuristicAgent(), HeuristicAgent(), RandomAgent(seed)]
        play(state, agents)
        told += agents[0].model.greedy(1) > agents[0].model.greedy(2)
    assert told >= 3


# =========================================================================================
# Targeted decisions
# =========================================================================================
def raid_position(n=3, collection=None, last_round=False, seed=0):
    """Player 0 holds castle 1 (raids first); scouting is over and every castle is empty."""
    state = new_state(n, seed=seed)
    set_castles(state, [1] + list(range(2, n + 1)))
    scout_all(state)
    clear_castles(state)
    set_collection(state, 0, collection or {})
    if last_round:
        state.deck = state.deck[-1:]
        state.deck_left[0] = 1
    assert phase(state) == "raid" and state.current_player == 0
    return state


def make_legendary(state) -> None:
    state.game = type(state.game)(num_players=state.num_players, legendary=True)
    state.legendary[0] = 1
    state.edited()


def test_raid_prefers_the_chest_that_completes_its_majority_over_a_known_henchman():
    state = raid_position(collection={"gold chest": 2})
    set_castle_cards(state, 3, face_up={"gold chest": 1})
    # castle 4 is worth more and shows a ring, but hides the player's own henchman
    set_castle_cards(state, 4, face_up={"violet ring": 1}, face_down={0: {"henchman": 2}})
    assert name(state, decide(state)) == "raid castle 3"
    # without the henchmen castle 4 is the better raid
    set_castle_cards(state, 4, face_up={"violet ring": 1})
    set_castle_cards(state, 3, face_up={"ruby chest": 1})
    assert name(state, decide(state)) == "raid castle 4"


def test_raid_avoids_henchmen_seen_with_the_spy_glass():
    state = raid_position()
    set_castle_cards(state, 4, face_up={"bronze bracelet": 1}, face_down={1: {"henchman": 2}})
    state.spy_castle[3] = 1
    state.spy_view[0, 3] = counts({"henchman": 2})
    assert name(state, decide(state)) == "raid castle 3"


def test_raid_takes_the_higher_castle_when_loot_is_equal():
    state = raid_position(last_round=True)
    for v in (1, 2, 3, 4):
        set_castle_cards(state, v, face_up={"bronze bracelet": 1})
    assert name(state, decide(state)) == "raid castle 4"


GRID = ["Cinderholt", F, "Ashford",
        "Foxmoor", "Elderbrook", "Bramblewick",
        F, "Dunmere", "Greywater"]


def test_raid_counts_benefactors_by_the_alms_they_win():
    state = raid_position(last_round=True)
    set_grid(state, GRID)
    # an opponent leads Cinderholt (9 glory) with one alms: one alms of ours there ties
    # and wins the tie (it lies in the later space) and takes the 9
    place_alms(state, cell("r1c1"), [1])
    set_castle_cards(state, 2, face_up={"benefactor 1": 1})
    set_castle_cards(state, 4, face_up={"bronze bracelet": 1})
    assert name(state, decide(state)) == "raid castle 2"


def alms_position(snake: int, grid, alms: dict[str, list[int]], full=(), last_round=True):
    state = raid_position(last_round=last_round)
    set_grid(state, grid)
    for c in full:
        fill_cell(state, cell(c), 2)
    for c, owners in alms.items():
        place_alms(state, cell(c), owners)
    benefactors = {1: {"benefactor 1": 1}, 2: {"benefactor 2": 1}, 3: {"benefactor 3": 1},
                   4: {"benefactor 3": 1, "benefactor 1": 1}}[snake]
    set_castle_cards(state, 4, face_up=benefactors)
    act(state, "raid castle 4")
    assert phase(state) == "alms" and state.view(0)["decision"]["data"]["alms_left"] == snake
    return state


def test_alms_goes_where_one_alms_wins_the_most_glory():
    state = alms_position(1, GRID, {"r1c1": [1], "r2c2": [1, 1, 2]})
    # Cinderholt: tie 1-1, ours in the later space -> we take 9 (from P1). Elderbrook: we'd
    # be third.
    assert name(state, decide(state)) == "alms r1c1"


def test_alms_value_counts_the_tie_won_by_position():
    state = alms_position(1, GRID, {"r1c1": [1], "r2c2": [1, 1, 2]})
    values = cell_values(SeatView(state.reading(0)), Params.of())
    assert values[cell("r1c1")] > 9  # +9 for us, -9 for P1 (weighted), nothing unlocked later


PAIR_ALMS = {"r1c1": [1, 1], "r2c2": [1], "r2c3": [1], "r1c3": [1]}


def test_alms_route_takes_the_best_pair_not_the_best_first_village():
    # Last round, two alms. Cinderholt (r1c1, P1 has 2 alms) is a fine single village: we
    # would come second for 5. But its only neighbours are a forest and the full Foxmoor,
    # so the snake would stop there. Elderbrook (r2c2) then Bramblewick (r2c3), each a tie
    # we win by lying in the later space, give 4 + 2 and take both from P1.
    state = alms_position(2, GRID, PAIR_ALMS, full=("r2c1",))
    best = best_route_gain(state.clone())
    before = state.scores()[0]["villages"]
    agent = HeuristicAgent(seed=0)
    route = []
    while phase(state) == "alms":
        a = decide(state, agent)
        route.append(name(state, a))
        state.apply(a)
    assert sorted(route) == ["alms r2c2", "alms r2c3"]
    assert state.scores()[0]["villages"] - before == best == 6


def best_route_gain(state) -> int:
    """Best village-glory gain for player 0 over every legal snake (played on clones)."""
    before = state.scores()[0]["villages"]
    best = -1

    def walk(s):
        nonlocal best
        if phase(s) != "alms":
            best = max(best, s.scores()[0]["villages"] - before)
            return
        for a in s.legal_actions():
            t = s.clone()
            t.apply(a)
            walk(t)

    walk(state)
    return best


def test_alms_snake_follows_the_best_route_to_the_end():
    state = alms_position(4, GRID, {"r1c1": [1], "r2c2": [1], "r2c3": [1], "r1c3": [1]})
    best = best_route_gain(state.clone())
    before = state.scores()[0]["villages"]
    agent = HeuristicAgent(seed=0)
    while phase(state) == "alms":
        state.apply(decide(state, agent))
    assert state.scores()[0]["villages"] - before == best


def scout_position(hand, collection=None):
    """Player 0 holds castle 1 (plays face up, raids first, so nobody takes its target)."""
    state = new_state(3, seed=0)
    set_castles(state, [1, 2, 3])
    set_hands(state, {0: hand})
    set_collection(state, 0, collection or {})
    assert phase(state) == "scout" and state.current_player == 0
    return state


def test_scouting_puts_a_henchman_away_from_its_target_and_a_chest_on_it():
    state = scout_position({"henchman": 1, "gold chest": 1}, {"gold chest": 2})
    set_castle_cards(state, 3, face_up={"gold chest": 1})
    a = name(state, decide(state))
    # its target is castle 3 (a gold chest for its majority): the chest goes there, or the
    # henchman goes anywhere but there
    assert a == "play gold chest to castle 3" or (a.startswith("play henchman")
                                                   and not a.endswith("castle 3"))
    set_hands(state, {0: {"henchman": 1}})
    assert name(state, decide(state)) != "play henchman to castle 3"
    set_hands(state, {0: {"gold chest": 1}})
    assert name(state, decide(state)) == "play gold chest to castle 3"


def end_position(stage: int, holder: int, collections: dict[int, dict[str, int]]):
    """A 3-player Legendary game at an end-of-game decision of ``holder``."""
    state = new_state(3, legendary=True, seed=0)
    for p, spec in collections.items():
        set_collection(state, p, spec)
    state.castles_held[:] = 0
    state.castles_held[:, 2] = 2  # everyone holds two castles of value 3
    state.hand[:] = 0
    state.hand_count[:] = 0
    clear_castles(state)
    state.set_turn(holder)
    state.replace(stage, holder)
    state.edited()
    return state


def test_fake_beard_goes_to_the_leader():
    state = end_position(Kind.FAKE_BEARD, 0, {0: {"henchman": 1, "fake beard": 1, "violet ring": 3},
                                    1: {"violet ring": 2},
                                    2: {"violet ring": 4}})
    assert name(state, decide(state)) == "fake beard: give henchman to +2"


def test_golden_arrow_swaps_a_stray_chest_for_one_of_its_majority():
    state = end_position(Kind.ARROW_GIVE, 0, {0: {"gold chest": 3, "silver chest": 1, "golden arrow": 1},
                                      1: {"gold chest": 1, "bronze bracelet": 1},
                                      2: {"bronze bracelet": 1}})
    agent = HeuristicAgent(seed=0)
    before = loot_glory(state.collection[0].tolist())
    state.apply(decide(state, agent))
    assert phase(state) == "arrow_take"
    state.apply(decide(state, agent))
    assert state.collection[0][kind("gold chest")] == 4
    assert state.collection[0][kind("silver chest")] == 0
    assert loot_glory(state.collection[0].tolist()) == before + 8


def test_entertainers_swap_wins_a_tie_by_position():
    """One alms each on Cinderholt, P1's in the later space, so P1 wins the tie (9, we get
    5). Swapping the two puts ours in the later space: we take the 9."""
    state = end_position(Kind.ENTERTAINERS_FIRST, 0, {0: {"travelling entertainers": 1}})
    set_grid(state, GRID)
    place_alms(state, cell("r1c1"), [0, 1])
    before = margin(state, 0)
    agent = HeuristicAgent(seed=0)
    state.apply(decide(state, agent))
    assert phase(state) == "entertainers_second"
    state.apply(decide(state, agent))
    assert state._space_owners()[cell("r1c1"), :2].tolist() == [1, 0]
    assert margin(state, 0) == before + 2 * (9 - 5)


def test_end_of_game_swaps_never_lower_its_margin():
    """Entertainers, golden arrow and fake beard, in heuristic games: the stage's outcome
    never lowers the holder's lead over the best opponent."""
    seen = set()
    for seed in range(12):
        n = (2, 3, 4, 5)[seed % 4]
        state = new_state(n, legendary=True, seed=seed)
        agents = [HeuristicAgent(seed=s) for s in range(n)]
        env = env_around(state)
        state = env.engine_state  # the env plays its own copy
        pending = None
        while not state.is_terminal:
            p = state.current_player
            stage = state.decision_name()
            if stage in ("entertainers_first", "arrow_give", "fake_beard") and pending is None:
                pending = (stage, p, margin(state, p))
            env.step(agents[p].act(env, env.possible_agents[p]))
            if pending and state.decision_name() not in ("entertainers_second", "arrow_take"):
                stage0, p0, m0 = pending
                assert margin(state, p0) >= m0, stage0
                seen.add(stage0)
                pending = None
    assert seen == {"entertainers_first", "arrow_give", "fake_beard"}


def margin(state, p: int) -> int:
    totals = [s["total"] for s in state.scores()]
    return totals[p] - max(t for q, t in enumerate(totals) if q != p)


def test_key_forces_the_raider_off_the_castle_it_wants():
    state = raid_position(collection={"gold chest": 2})
    make_legendary(state)
    # player 2 holds the key and raids last; player 0 (first raider) picks castle 4
    set_collection(state, 2, {"key": 1, "gold chest": 3})
    set_castle_cards(state, 4, face_up={"gold chest": 3})
    set_castle_cards(state, 3, face_up={"bronze bracelet": 1})
    act(state, "raid castle 4")
    assert phase(state) == "key" and state.current_player == 2
    assert name(state, decide(state)) == "key: force another castle"


def test_key_is_kept_when_the_chosen_castle_does_not_matter():
    state = raid_position()
    make_legendary(state)
    set_collection(state, 2, {"key": 1})
    set_castle_cards(state, 1, face_up={"bronze bracelet": 1})
    set_castle_cards(state, 4, face_up={"bronze bracelet": 1})
    act(state, "raid castle 1")
    assert phase(state) == "key"
    assert name(state, decide(state)) == "key: pass"


def test_spy_glass_looks_at_the_castle_with_unknown_cards_it_may_raid():
    state = raid_position()
    make_legendary(state)
    set_collection(state, 0, {"spy glass": 1})
    set_castle_cards(state, 4, face_up={"violet ring": 1}, face_down={1: {"henchman": 1}})
    set_castle_cards(state, 1, face_down={2: {"bronze bracelet": 1}})
    state.replace(Kind.SPY, 0)
    state.edited()
    assert name(state, decide(state)) == "spy castle 4"
