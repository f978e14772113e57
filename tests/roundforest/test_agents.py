"""The heuristic agent: legal through the env API, reads only its seat's reading, beats
random agents and brings games to a winner."""

from __future__ import annotations

import numpy as np
import pytest

import forest_envs
from forest_envs.agents.base import RandomAgent
from forest_envs.core.decisions import DecisionReading
from forest_envs.roundforest.agents import HeuristicAgent
from forest_envs.roundforest.components import DEFAULT_MAX_STEPS
from forest_envs.roundforest.rules import new_game


def test_heuristic_plays_through_the_env_api():
    e = forest_envs.make("roundforest_v0", num_players=3, max_steps=3000)
    e.reset(seed=5)
    agents = {"player_0": HeuristicAgent(0), "player_1": RandomAgent(1), "player_2": RandomAgent(2)}
    for name in e.agent_iter():
        _, _, term, trunc, info = e.last()
        e.step(None if term or trunc else agents[name].act(e, name))
    assert info["rank"] in (1, 2, 3)


@pytest.mark.whole_games
def test_heuristic_beats_two_random_agents():
    """Within the env's default max_steps: a game random players stall counts as lost."""
    wins, games = 0, 60
    for g in range(games):
        seat = g % 3
        s = new_game({"num_players": 3}, 500 + g)
        h, rng = HeuristicAgent(g), np.random.default_rng(g)
        for _ in range(DEFAULT_MAX_STEPS):
            if s.is_terminal:
                break
            p = s.current_player
            if p == seat:
                a = h.choose(s.reading(p), s.legal_action_mask())
            else:
                a = int(rng.choice(s.legal_actions()))
            s.apply(a)
        wins += int(s.winner[seat])
    assert wins >= 0.6 * games


@pytest.mark.whole_games
def test_heuristic_games_end_with_a_winner():
    """Within the env's default max_steps (where a stalled game would be truncated)."""
    ended = 0
    for g in range(30):
        n = 2 + g % 3
        s = new_game({"num_players": n}, g)
        hs = [HeuristicAgent(10 * g + i) for i in range(n)]
        for _ in range(DEFAULT_MAX_STEPS):
            if s.is_terminal:
                break
            p = s.current_player
            s.apply(hs[p].choose(s.reading(p), s.legal_action_mask()))
        ended += int(s.is_terminal and s.winner.sum() == 1)
    assert ended >= 27


class _SpyEnv:
    """Stands for env.unwrapped and records what the agent asks for, and for which seat."""

    def __init__(self, env):
        self.env, self.asked = env, []

    @property
    def unwrapped(self):
        return self

    def view(self, agent):
        self.asked.append(("view", agent))
        return self.env.unwrapped.view(agent)

    def reading(self, agent):
        self.asked.append(("reading", agent))
        return self.env.unwrapped.reading(agent)

    def observe(self, agent):
        self.asked.append(("observe", agent))
        return self.env.observe(agent)

    def action_mask(self, agent):
        self.asked.append(("action_mask", agent))
        return self.env.unwrapped.action_mask(agent)

    def __getattr__(self, name):  # anything else would be a leak: fail loudly
        raise AssertionError(f"the agent read env.{name}")


def test_heuristic_reads_only_its_own_seat():
    e = forest_envs.make("roundforest_v0", num_players=3, max_steps=600)
    e.reset(seed=3)
    spy = _SpyEnv(e)
    agents = {f"player_{i}": HeuristicAgent(i) for i in range(3)}
    read = set()
    for name in e.agent_iter():
        _, _, term, trunc, _ = e.last()
        if term or trunc:
            e.step(None)
            continue
        spy.asked.clear()
        e.step(agents[name].act(spy, name))
        assert spy.asked and {agent for _, agent in spy.asked} == {name}
        read.update(what for what, _ in spy.asked)
    # a decision is made from the light reading (the mask alone when it is forced)
    assert read == {"action_mask", "reading"}


# --- every decision has a deliberate rule ----------------------------------------------------------
def test_every_decision_kind_has_a_handler():
    from forest_envs.roundforest.agents import HANDLERS
    from forest_envs.roundforest.observation import DECISIONS, Kind

    assert [k.name.lower() for k in sorted(HANDLERS)] == [k.name for k in DECISIONS]
    assert set(HANDLERS) == set(Kind)


def beggar_choice(*pile: str, copper: int = 0, silver: int = 0):
    """Seat 0 has paid the Beggar (and keeps ``copper``, ``silver``); the pile holds
    ``pile`` and the Beggar."""
    from .conftest import act, set_pile
    from .test_rules import red_state

    s = red_state("Beggar", copper=1 + copper, silver=silver)
    act(s, "move to D3")
    set_pile(s, *pile)
    act(s, "use the ability")
    assert s.decision_name() == "beggar"
    name = s.game.action_to_string(HeuristicAgent(0).choose(s.reading(0), s.legal_action_mask()))
    return name.removeprefix("beggar: lead me to the ")


def test_with_no_helper_left_the_beggar_leads_to_the_forest_spirit_rather_than_a_debt():
    assert beggar_choice("Witch", "Devil", "Forest Spirit") == "Forest Spirit"


def test_with_only_tasks_left_the_beggar_leads_to_the_one_nearest_to_being_fulfilled():
    # nothing can be fulfilled: the Bandit lacks 2 copper, the Devil a silver coin (3)
    assert beggar_choice("Devil", "Bandit") == "Bandit"
    assert beggar_choice("Devil", "Bandit", copper=1) == "Bandit"
    # with a silver coin the Devil's upper task is fulfilled at once (no debt)
    assert beggar_choice("Bandit", "Devil", silver=1) == "Devil"


def test_a_choice_the_rules_cannot_offer_raises_naming_the_decision():
    import pytest

    from forest_envs.roundforest import actions as A
    from forest_envs.roundforest.agents import ImpossibleDecision
    from forest_envs.roundforest.observation import DECISIONS, Kind

    s = new_game({"num_players": 3}, 0)
    r = s.reading(0)._replace(decision=DecisionReading(
        Kind.SPIRIT_PLACE, "spirit_place", 0, DECISIONS[Kind.SPIRIT_PLACE].record(qualified=0)))
    legal = {A.TILE.start + 7, A.TILE.start + 8}
    with pytest.raises(ImpossibleDecision, match="'spirit_place' decision"):
        HeuristicAgent(0).choose(r, np.isin(np.arange(A.NUM_ACTIONS), list(legal)))
    with pytest.raises(ValueError, match="no legal action"):
        HeuristicAgent(0).choose(r, np.zeros(A.NUM_ACTIONS, np.int8))


# --- the weights (agents/params.py) ----------------------------------------------------------------
def test_the_heuristic_weights_are_named_and_each_can_be_overridden():
    import dataclasses

    import pytest

    from forest_envs.roundforest.agents import Params

    assert HeuristicAgent(0).p == Params()
    changed = HeuristicAgent(0, goal_pull=2.0).p
    assert changed.goal_pull == 2.0
    assert dataclasses.replace(changed, goal_pull=Params().goal_pull) == Params()
    with pytest.raises(TypeError, match="no_such_weight"):
        HeuristicAgent(0, no_such_weight=1.0)


def test_a_well_takes_two_items_worth_at_most_well_items_max_worth():
    from forest_envs.roundforest import actions as A
    from forest_envs.roundforest.components import ITEM_NAMES, NUM_ITEMS
    from forest_envs.roundforest.observation import DECISIONS, Kind

    spoon, jug = ITEM_NAMES.index("spoon"), ITEM_NAMES.index("jug")
    backpack = [0] * NUM_ITEMS
    backpack[spoon] = backpack[jug] = 1  # worth 1 each (item_base): 2 in all, room for a third
    r = new_game({"num_players": 3}, 0).reading(0)
    r = r._replace(decision=DecisionReading(Kind.WELL, "well", 0, DECISIONS[Kind.WELL].record()),
                   players=(r.players[0]._replace(backpack=tuple(backpack)), *r.players[1:]))
    mask = np.zeros(A.NUM_ACTIONS, np.int8)
    mask[[A.WELL_ITEMS.start, A.WELL_NONE.start]] = 1
    assert HeuristicAgent(0).choose(r, mask) == A.WELL_ITEMS.start           # 2 <= 3.0
    assert HeuristicAgent(0, well_items_max_worth=1.5).choose(r, mask) == A.WELL_NONE.start
