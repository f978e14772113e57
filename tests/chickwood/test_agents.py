"""Chickwood Forest heuristic agent: strength against random play, legality in every
configuration, independence from hidden information, speed, and targeted decisions.

The full requirement (>= 60% of 1,000 seat-rotated 3-player games against two random
agents) runs with ``-m slow``; the CI share plays 150 games with a margin."""

from __future__ import annotations

import hashlib
import time

import numpy as np
import pytest

from forest_envs.chickwood.agents import (
    LOOT_KINDS,
    HeuristicAgent,
    _shape_parts,
    _shape_parts_plus,
    loot_score,
    village_awards,
)
from forest_envs.chickwood.components import VILLAGES
from forest_envs.chickwood.observation import ARROW_A, BEARD, PHASES
from forest_envs.chickwood.scoring import loot_scores
from forest_envs.chickwood.scoring import village_awards as engine_village_awards
from forest_envs.core.agents import RandomAgent
from forest_envs.core.registry import make_agent, make_raw
from forest_envs.evaluation import run_games, summarize

from .conftest import (
    F,
    act,
    cell,
    clear_castles,
    counts,
    fill_cell,
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
CONFIG_IDS = [f"{n}p{'-legendary' if leg else ''}" for n, leg in CONFIGS]


class SeatOnlyEnv:
    """Exposes only what a seat may use: view, the legal mask and the public game data.
    Touching anything else (engine_state, hands, the deck) raises AttributeError."""

    def __init__(self, env):
        self._env = env

    @property
    def unwrapped(self):
        return self

    @property
    def game(self):
        return self._env.game

    @property
    def possible_agents(self):
        return self._env.possible_agents

    def view(self, agent):
        return self._env.view(agent)

    def action_mask(self, agent):
        return self._env.action_mask(agent)


def env_around(state):
    """A raw env whose game is ``state`` (with the player to move selected)."""
    env = make_raw("chickwood_v0", **state.game.config)
    env.reset(seed=0)
    env.engine_state = state
    env.agent_selection = env.possible_agents[state.current_player]
    return env


def decide(state, agent=None):
    """The heuristic's action for the player to move, through the seat-only interface."""
    env = env_around(state)
    agent = agent or HeuristicAgent(seed=0)
    a = agent.act(SeatOnlyEnv(env), env.agent_selection)
    assert state.legal_action_mask()[a], state.game.action_names[a]
    return a


def name(state, a: int) -> str:
    return state.game.action_names[a]


def play(state, agents, max_steps: int = 5000):
    """Play to the end with one agent per seat; returns the env."""
    env = env_around(state)
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


# =========================================================================================
# Strength
# =========================================================================================
def test_beats_two_random_agents_in_three_player_games():
    specs = ["heuristic", "random", "random"]
    rows = summarize(specs, run_games("chickwood_v0", specs, 150, seed=0, workers=1))
    assert rows[0]["win_rate"] >= 0.75, rows[0]  # measured ~0.98 over 1,000 games


@pytest.mark.parametrize("n, legendary", [(2, False), (4, False), (5, False), (3, True), (5, True)],
                         ids=["2p", "4p", "5p", "3p-legendary", "5p-legendary"])
def test_beats_random_agents_in_other_configurations(n, legendary):
    specs = ["heuristic"] + ["random"] * (n - 1)
    rows = summarize(specs, run_games("chickwood_v0", specs, 40, seed=1,
                                      config={"legendary": legendary}))
    assert rows[0]["win_rate"] >= 0.6, rows[0]  # measured 0.93-1.0 over 1,000 games
    assert rows[0]["mean_score"] > max(r["mean_score"] for r in rows[1:]) + 15


@pytest.mark.slow
def test_requirement_wins_60_percent_of_1000_three_player_games_against_random():
    specs = ["heuristic", "random", "random"]
    rows = summarize(specs, run_games("chickwood_v0", specs, 1000, seed=0, workers=2))
    assert rows[0]["win_rate"] >= 0.60, rows[0]


@pytest.mark.slow
@pytest.mark.parametrize("n, legendary", CONFIGS, ids=CONFIG_IDS)
def test_beats_random_in_every_configuration_over_300_games(n, legendary):
    specs = ["heuristic"] + ["random"] * (n - 1)
    rows = summarize(specs, run_games("chickwood_v0", specs, 300, seed=2, workers=2,
                                      config={"legendary": legendary}))
    assert rows[0]["win_rate"] >= 0.8, rows[0]


def test_registry_builds_the_heuristic():
    agent = make_agent("chickwood_v0", "heuristic", seed=3)
    assert isinstance(agent, HeuristicAgent)
    agent.reset()
    agent.reset(seed=4)


# =========================================================================================
# Legality, hidden information, speed
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
                    other.deck[other.deck_pos:].tobytes() != state.deck[state.deck_pos:].tobytes()
                env2 = env_around(other)
                assert HeuristicAgent(seed=0).act(env2, agent) == fresh, \
                    f"{PHASES[state.phase]}: decision changed with hidden cards"
            checked += 1
        env.step(a)
    assert checked > 20 and changed > 20


def test_mean_decision_time_is_about_a_millisecond():
    durations = []
    for n in (3, 5):
        state = new_state(n, True, seed=7)
        agents = [HeuristicAgent(seed=s) for s in range(n)]
        env = env_around(state)
        while not state.is_terminal:
            p = state.current_player
            t = time.perf_counter()
            a = agents[p].act(env, env.possible_agents[p])
            durations.append(time.perf_counter() - t)
            env.step(a)
    # ~0.2 ms measured; generous bound for slow CI machines
    assert np.mean(durations) < 5e-3, np.mean(durations)


# Five seeded all-heuristic games and the digest of every action taken in them, recorded
# with the agent as it was before its speed work (memos, pruned scouting, a lazily parsed
# view). Speed work must leave every decision as it is; a deliberate change of the agent's
# play (or of the rules) changes the digest: then record it anew.
PINNED_GAMES = [(2, False, 11), (3, False, 12), (3, True, 13), (4, False, 14), (5, True, 15)]
PINNED_DIGEST = "505eb625be3e196f1f1486125232f992e9ab518d5ca70d514731080ca0c5286e"  # 611 actions


def test_decisions_of_seeded_games_are_pinned():
    digest = hashlib.sha256()
    for n, legendary, seed in PINNED_GAMES:
        state = new_state(n, legendary, seed=seed)
        agents = [HeuristicAgent(seed=s) for s in range(n)]
        env = env_around(state)
        while not state.is_terminal:
            p = state.current_player
            a = agents[p].act(env, env.possible_agents[p])
            digest.update(f"{a},".encode())
            env.step(a)
        digest.update(b";")
    assert digest.hexdigest() == PINNED_DIGEST


def test_marginals_from_shape_parts_match_the_bumped_collections():
    """The fast marginals derive the parts of a collection plus one card from the
    collection's own; they must be the parts of the bumped collection."""
    rng = np.random.default_rng(2)
    for _ in range(2000):
        coll = tuple(int(x) for x in rng.integers(0, 4, size=22) * (rng.random(22) < 0.4))
        f = float(rng.choice([0.0, 0.35, 1.05, 2.0]))
        parts = _shape_parts(coll, f)
        for k in LOOT_KINDS:
            bumped = coll[:k] + (coll[k] + 1,) + coll[k + 1:]
            assert _shape_parts_plus(parts, coll, k, f) == _shape_parts(bumped, f), (coll, k)


# =========================================================================================
# Its scoring helpers agree with the engine's
# =========================================================================================
def test_loot_score_matches_the_engine():
    rng = np.random.default_rng(0)
    for _ in range(300):
        coll = [int(x) for x in rng.integers(0, 4, size=22)]
        s = loot_scores(coll)
        assert loot_score(coll) == sum(v for k, v in s.items() if k != "busts")


def test_village_awards_match_the_engine():
    rng = np.random.default_rng(1)
    for _ in range(300):
        g = int(rng.integers(len(VILLAGES)))
        filled = int(rng.integers(0, VILLAGES[g].spaces + 1))
        owners = [int(x) for x in rng.integers(0, 4, size=filled)]
        padded = owners + [-1] * (VILLAGES[g].spaces - filled)
        times = list(range(1, filled + 1)) + [0] * (VILLAGES[g].spaces - filled)
        assert village_awards(g, owners, 4) == engine_village_awards(g, padded, times, 4)


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
        state.deck_pos = len(state.deck) - 1
        state.deck_left[0] = 1
    assert phase(state) == "raid" and state.current_player == 0
    return state


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
    state.spier = 0
    assert name(state, decide(state)) == "raid castle 3"


def test_raid_takes_the_higher_castle_when_loot_is_equal():
    state = raid_position(last_round=True)
    for v in (1, 2, 3, 4):
        set_castle_cards(state, v, face_up={"bronze bracelet": 1})
    assert name(state, decide(state)) == "raid castle 4"


def test_raid_counts_benefactors_by_the_alms_they_win():
    state = raid_position(last_round=True)
    set_grid(state, ["Cinderholt", F, "Ashford",
                     "Foxmoor", "Elderbrook", "Bramblewick",
                     F, "Dunmere", "Greywater"])
    # an opponent leads Cinderholt (9 glory) with one alms: one alms of ours there wins
    # the tie (placed later) and takes the 9
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
    assert phase(state) == "alms" and state.snake_left[0] == snake
    return state


GRID = ["Cinderholt", F, "Ashford",
        "Foxmoor", "Elderbrook", "Bramblewick",
        F, "Dunmere", "Greywater"]


def test_alms_goes_where_one_alms_wins_the_most_glory():
    state = alms_position(1, GRID, {"r1c1": [1], "r2c2": [1, 1, 2]})
    # Cinderholt: tie 1-1, ours later -> we take 9 (from P1). Elderbrook: we'd be third.
    assert name(state, decide(state)) == "alms r1c1"


PAIR_ALMS = {"r1c1": [1, 1], "r2c2": [1], "r2c3": [1], "r1c3": [1]}


def test_alms_route_takes_the_best_pair_not_the_best_first_village():
    # Last round, two alms. Cinderholt (r1c1, P1 has 2 alms) is a fine single village: we
    # would come second for 5. But its only neighbours are a forest and the full Foxmoor,
    # so the snake would stop there. Elderbrook (r2c2) then Bramblewick (r2c3), each a tie
    # we win by placing later, give 4 + 2 and take both from P1.
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


def test_alms_snake_follows_its_planned_route_to_the_end():
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
    state = new_state(3, legendary=True, seed=0)
    for p, spec in collections.items():
        set_collection(state, p, spec)
    state.castles_held[:] = 0
    state.castles_held[:, 2] = 2  # everyone holds two castles of value 3
    state.hand[:] = 0
    state.hand_count[:] = 0
    clear_castles(state)
    state._set_phase(stage, holder)
    state._mask = None
    return state


def test_fake_beard_goes_to_the_leader():
    state = end_position(BEARD, 0, {0: {"henchman": 1, "fake beard": 1, "violet ring": 3},
                                    1: {"violet ring": 2},
                                    2: {"violet ring": 4}})
    assert name(state, decide(state)) == "fake beard: give henchman to +2"


def test_golden_arrow_swaps_a_stray_chest_for_one_of_its_majority():
    state = end_position(ARROW_A, 0, {0: {"gold chest": 3, "silver chest": 1, "golden arrow": 1},
                                      1: {"gold chest": 1, "bronze bracelet": 1},
                                      2: {"bronze bracelet": 1}})
    agent = HeuristicAgent(seed=0)
    before = loot_score(list(state.collection[0]))
    state.apply(decide(state, agent))
    assert phase(state) == "arrow_take"
    state.apply(decide(state, agent))
    assert state.collection[0][0] == 4 and state.collection[0][1] == 0  # 4 gold, no silver
    assert loot_score(list(state.collection[0])) == before + 8


def test_end_of_game_swaps_never_lower_its_margin():
    """Entertainers, golden arrow and fake beard, in heuristic games: the stage's outcome
    never lowers the holder's lead over the best opponent."""
    seen = set()
    for seed in range(12):
        n = (2, 3, 4, 5)[seed % 4]
        state = new_state(n, legendary=True, seed=seed)
        agents = [HeuristicAgent(seed=s) for s in range(n)]
        env = env_around(state)
        pending = None
        while not state.is_terminal:
            p = state.current_player
            ph = PHASES[state.phase]
            if ph in ("entertainers_first", "arrow_give", "fake_beard") and pending is None:
                pending = (ph, p, margin(state, p))
            env.step(agents[p].act(env, env.possible_agents[p]))
            if pending and PHASES[state.phase] not in ("entertainers_second", "arrow_take"):
                ph0, p0, m0 = pending
                assert margin(state, p0) >= m0, ph0
                seen.add(ph0)
                pending = None
    assert seen == {"entertainers_first", "arrow_give", "fake_beard"}


def margin(state, p: int) -> int:
    totals = [s["total"] for s in state.scores()]
    return totals[p] - max(t for q, t in enumerate(totals) if q != p)


def test_key_forces_the_raider_off_the_castle_it_wants():
    state = raid_position(collection={"gold chest": 2})
    state.legendary[0] = 1
    state.game = type(state.game)(num_players=3, legendary=True)
    # player 2 holds the key and raids last; player 0 (first raider) picks castle 4
    set_collection(state, 2, {"key": 1, "gold chest": 3})
    set_castle_cards(state, 4, face_up={"gold chest": 3})
    set_castle_cards(state, 3, face_up={"bronze bracelet": 1})
    act(state, "raid castle 4")
    assert phase(state) == "key" and state.current_player == 2
    assert name(state, decide(state)) == "key: force another castle"


def test_key_is_kept_when_the_chosen_castle_does_not_matter():
    state = raid_position()
    state.game = type(state.game)(num_players=3, legendary=True)
    state.legendary[0] = 1
    set_collection(state, 2, {"key": 1})
    set_castle_cards(state, 1, face_up={"bronze bracelet": 1})
    set_castle_cards(state, 4, face_up={"bronze bracelet": 1})
    act(state, "raid castle 1")
    assert phase(state) == "key"
    assert name(state, decide(state)) == "key: pass"


def test_spy_glass_looks_at_the_castle_with_unknown_cards_it_may_raid():
    state = raid_position()
    state.game = type(state.game)(num_players=3, legendary=True)
    set_collection(state, 0, {"spy glass": 1})
    set_castle_cards(state, 4, face_up={"violet ring": 1}, face_down={1: {"henchman": 1}})
    set_castle_cards(state, 1, face_down={2: {"bronze bracelet": 1}})
    state._set_phase(PHASES.index("spy"), 0)
    state._mask = None
    assert name(state, decide(state)) == "spy castle 4"
