"""The heuristic agent: legal through the env API, reads only its seat's view, beats
random agents and brings games to a winner."""

from __future__ import annotations

import numpy as np

from forest_envs.core.agents import RandomAgent
from forest_envs.roundforest import env as make_env
from forest_envs.roundforest.agents import HeuristicAgent
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
    wins, games = 0, 60
    for g in range(games):
        seat = g % 3
        s = new_game({"num_players": 3}, 500 + g)
        h, rng = HeuristicAgent(g), np.random.default_rng(g)
        while not s.is_terminal:
            p = s.current_player
            if p == seat:
                a = h.choose(s.view(p), s.legal_action_mask())
            else:
                a = int(rng.choice(s.legal_actions()))
            s.apply(a)
        wins += int(s.winner[seat])
    assert wins >= 0.6 * games


def test_heuristic_games_end_with_a_winner():
    ended = 0
    for g in range(30):
        n = 2 + g % 3
        s = new_game({"num_players": n}, g)
        hs = [HeuristicAgent(10 * g + i) for i in range(n)]
        while not s.is_terminal:
            p = s.current_player
            s.apply(hs[p].choose(s.view(p), s.legal_action_mask()))
        ended += int(s.winner.any())
    assert ended >= 27
