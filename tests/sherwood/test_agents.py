"""The scripted player: it plays through the env (reading only its view and mask), makes
and answers offers, and beats random players."""

from __future__ import annotations

import numpy as np
import pytest

from forest_envs.core.agents import RandomAgent
from forest_envs.sherwood import actions as A
from forest_envs.sherwood import env
from forest_envs.sherwood.agents import HeuristicAgent
from forest_envs.sherwood.rules import new_game


def test_plays_whole_games_through_the_env():
    for additions in (False, True):
        e = env(num_players=4, additions=additions)
        e.reset(seed=3)
        agents = {a: HeuristicAgent(seed=i) if i == 0 else RandomAgent(seed=i)
                  for i, a in enumerate(e.possible_agents)}
        steps = 0
        for agent in e.agent_iter():
            _, _, term, trunc, _ = e.last()
            e.step(None if term or trunc else agents[agent].act(e, agent))
            steps += 1
        assert steps > 50 and all(e.unwrapped.terminations.values())


def win_rate(games: int, n: int = 4, additions: bool = False) -> tuple[float, int, int]:
    wins, offers, answers = 0.0, 0, 0
    for g in range(games):
        s = new_game({"num_players": n, "additions": additions}, 10_000 + g)
        me, h, rng = g % n, HeuristicAgent(seed=g), np.random.default_rng(g)
        while not s.is_terminal:
            p = s.current_player
            if p == me:
                a = h.choose(s.view(p), s.legal_action_mask(), p)
                offers += a in A.JOINT
                answers += a in A.ACCEPT or a == A.DECLINE.start
            else:
                legal = np.flatnonzero(s.legal_action_mask())
                a = int(legal[rng.integers(legal.size)])
            s.apply(a)
        ranks = s.ranks()
        if ranks[me] == 1:
            wins += 1 / ranks.count(1)
    return wins / games, offers, answers


def test_beats_three_random_players_and_makes_and_answers_offers():
    rate, offers, answers = win_rate(200)
    assert rate >= 0.4, rate
    assert offers > 0 and answers > 0


@pytest.mark.slow
def test_wins_at_least_40_percent_of_500_seat_rotated_games():
    rate, _, _ = win_rate(500)
    assert rate >= 0.4, rate
