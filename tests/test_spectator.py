"""The observer who holds no seat (``core.presentation.SPECTATOR``, the spectators' view of
``forest-envs serve`` and ``forest-envs replay --views spectator``): in every game, what it is
shown (the view, the text board, the prompt, the picture) does not change with anything any
seat keeps to itself, its view's JSON reads back into its record, and an observer that is no
seat, the referee nor the spectator is refused."""

from __future__ import annotations

import importlib
import json

import numpy as np
import pytest

import forest_envs
from forest_envs.core.presentation import SPECTATOR
from forest_envs.core.registry import game_spec
from forest_envs.testing.disclosure import told_apart

GAMES = ["chickwood_v0", "roundforest_v0", "sherwood_v0"]


def states(env_id: str, every: int = 20, steps: int = 200, configs: int = 4):
    """Every ``every``-th state of one random game of each of the first ``configs``
    configurations, on each engine in turn."""
    rng = np.random.default_rng(1)
    for k, config in enumerate(game_spec(env_id).game_class.all_configs()[:configs]):
        engine = ("python", "native")[k % 2]
        env = forest_envs.make(env_id, engine=engine, **config).unwrapped
        env.reset(seed=k)
        for step in range(steps):
            state = env.engine_state
            if state.is_terminal:
                break
            if step % every == 0:
                yield state
            env.step(int(rng.choice(state.legal_actions())))


@pytest.mark.parametrize("env_id", GAMES)
def test_a_spectator_is_shown_nothing_any_seat_keeps_to_itself(env_id):
    rng = np.random.default_rng(2)
    checked = 0
    for state in states(env_id):
        view, text, prompt = state.view(SPECTATOR), state.render(SPECTATOR), state.prompt(SPECTATOR)
        picture = state.picture(SPECTATOR)
        record = state.reading(SPECTATOR)
        assert view["seat"] == SPECTATOR and "legal_actions" not in view
        assert type(record).from_json(json.loads(json.dumps(view))).as_json() == record.as_json()
        for q in range(state.num_players):
            other = state.resample_hidden(q, rng)   # what q cannot see, drawn again
            assert other.view(SPECTATOR) == view, (state.decision_name(), q)
            assert other.render(SPECTATOR) == text and other.prompt(SPECTATOR) == prompt
            assert np.array_equal(other.picture(SPECTATOR), picture)
            checked += 1
    assert checked > 40


@pytest.mark.parametrize("env_id", GAMES)
def test_observers_that_are_no_seat_are_refused_and_the_heuristic_reads_only_seats(env_id):
    state = next(states(env_id))
    n = state.num_players
    for bad in (-2, n):
        with pytest.raises(ValueError, match=f"observer {bad} is no seat"):
            state.reading(bad)
    package = ".".join(game_spec(env_id).game_class.__module__.split(".")[:2])
    seat_view = importlib.import_module(f"{package}.agents.seat_view").SeatView
    with pytest.raises(ValueError, match="not the referee's or a spectator's"):
        seat_view(state.reading(SPECTATOR))


def test_a_replay_page_has_a_spectators_view():
    from forest_envs.evaluation import run_games
    from forest_envs.replays.html import parse_views, replay_html

    assert parse_views("spectator,0", 3) == [SPECTATOR, 0]
    record = run_games("chickwood_v0", ["random"] * 3, games=1, seed=4)[0].record
    record = dict(record, actions=record["actions"][:8])
    page = replay_html(record, views="spectator", colors=16)
    assert "spectator (what every seat sees)" in page


@pytest.mark.parametrize("env_id", GAMES)
def test_a_move_reads_the_same_to_a_spectator_where_it_cannot_tell_the_moves_apart(env_id):
    """Two legal moves after which a spectator cannot tell the tables apart (now or as the
    decisions the move opened are taken, up to the mover's next one: ``told_apart``) read the
    same to it (``describe_action``, the first half of a log line): a card
    played face down, an ally's accepted promise."""
    rng = np.random.default_rng(9)
    hidden = 0
    for state in states(env_id, every=7, steps=140, configs=2):
        legal = state.legal_actions()
        if len(legal) > 40:   # (a few hundred terms: sampled)
            legal = sorted(rng.choice(legal, 40, replace=False).tolist())
        texts = {a: state.describe_action(a, SPECTATOR) for a in legal}
        after, shown = {}, {}
        for a in legal:
            after[a] = state.clone()
            after[a].apply(a)
            shown[a] = json.dumps(after[a].view(SPECTATOR), sort_keys=True, default=str)
        for i, a in enumerate(legal):
            for b in legal[i + 1:]:
                if texts[a] == texts[b] or shown[a] != shown[b] or after[a].to_dict() == after[b].to_dict():
                    pass   # (two moves to the very same table tell nothing: two equal items)
                elif not told_apart(after[a].clone(), after[b].clone(), SPECTATOR, until=state.current_player):
                    raise AssertionError(f"{state.decision_name()}: {texts[a]!r} and {texts[b]!r} "
                                         "leave tables a spectator cannot tell apart")
                hidden += texts[a] == texts[b] and state.game.action_to_string(a) != state.game.action_to_string(b)
    assert hidden > 0 or env_id != "chickwood_v0"   # (Chickwood's face-down plays come often)
