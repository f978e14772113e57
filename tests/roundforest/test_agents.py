"""The heuristic agent: legal through the env API, reads only its seat's view, beats
random agents and brings games to a winner."""

from __future__ import annotations

import numpy as np

from forest_envs.core.agents import RandomAgent
from forest_envs.roundforest import env as make_env
from forest_envs.roundforest.agents import HeuristicAgent
from forest_envs.roundforest.components import DEFAULT_MAX_STEPS
from forest_envs.roundforest.rules import new_game


def test_heuristic_plays_through_the_env_api():
    e = make_env(num_players=3, max_steps=3000)
    e.reset(seed=5)
    agents = {"player_0": HeuristicAgent(0), "player_1": RandomAgent(1), "player_2": RandomAgent(2)}
    for name in e.agent_iter():
        _, _, term, trunc, info = e.last()
        e.step(None if term or trunc else agents[name].act(e, name))
    assert info["rank"] in (1, 2, 3)


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
                a = h.choose(s.view(p), s.legal_action_mask())
            else:
                a = int(rng.choice(s.legal_actions()))
            s.apply(a)
        wins += int(s.winner[seat])
    assert wins >= 0.6 * games


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
            s.apply(hs[p].choose(s.view(p), s.legal_action_mask()))
        ended += int(s.is_terminal and s.winner.sum() == 1)
    assert ended >= 27


class _SpyEnv:
    """Stands for env.unwrapped and records whose information the agent asks for."""

    def __init__(self, env):
        self.env, self.asked = env, []

    @property
    def unwrapped(self):
        return self

    def view(self, agent):
        self.asked.append(agent)
        return self.env.unwrapped.view(agent)

    def observe(self, agent):
        self.asked.append(agent)
        return self.env.observe(agent)

    def action_mask(self, agent):
        self.asked.append(agent)
        return self.env.unwrapped.action_mask(agent)

    def __getattr__(self, name):  # anything else would be a leak: fail loudly
        raise AssertionError(f"the agent read env.{name}")


def test_heuristic_reads_only_its_own_seat():
    e = make_env(num_players=3, max_steps=600)
    e.reset(seed=3)
    spy = _SpyEnv(e)
    agents = {f"player_{i}": HeuristicAgent(i) for i in range(3)}
    for name in e.agent_iter():
        _, _, term, trunc, _ = e.last()
        if term or trunc:
            e.step(None)
            continue
        spy.asked.clear()
        e.step(agents[name].act(spy, name))
        assert spy.asked and set(spy.asked) == {name}
