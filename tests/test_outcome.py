"""env.outcome(): how a game ended, decided once as it ends and read by every text that tells
the result (the terminal end screen, a replay page, a served table)."""

import numpy as np
import pytest
from random_play import play

import forest_envs
from forest_envs.cli.play import result_text
from forest_envs.envs.outcome import FINISHED, ILLEGAL, TRUNCATED, UNFINISHED, Outcome, Place
from forest_envs.replays.html import _result_text


def test_a_finished_game_keeps_its_outcome_after_every_agent_is_removed():
    env = forest_envs.make("chickwood_v0", num_players=3)
    env.reset(seed=3)
    raw = env.unwrapped
    play(env, seed=None)
    assert env.agents == []          # every dead step done: the end infos are gone with the agents
    end = raw.outcome()
    ranks, totals, breakdown = raw.engine_state.result()
    assert end.ending == FINISHED and end.moves == raw.num_steps == len(raw.record()["actions"])
    assert sorted(end.places) == list(end.places)
    assert {p.seat: (p.rank, p.total, p.breakdown) for p in end.places} == {
        q: (ranks[q], totals[q], breakdown[q]) for q in range(3)}
    assert end.winners == [q for q in range(3) if ranks[q] == 1] and end.winners
    assert end.cut_short() is None


def test_end_infos_are_written_from_the_outcome():
    env = forest_envs.make("sherwood_v0", num_players=4)
    env.reset(seed=1)
    raw = env.unwrapped
    rng = np.random.default_rng(1)
    while not raw.engine_state.is_terminal:
        env.step(int(rng.choice(np.flatnonzero(raw.action_mask(raw.agent_selection)))))
    end = raw.outcome()
    for place in end.places:
        info = raw.infos[raw.possible_agents[place.seat]]
        assert (info["rank"], info["score"], info["breakdown"]) == (place.rank, place.total, place.breakdown)
        assert info["winner"] == (place.seat in end.winners)


def test_a_truncated_game_has_the_standing_when_it_stopped_and_no_winner():
    env = forest_envs.make("chickwood_v0", num_players=3, max_steps=5)
    env.reset(seed=0)
    raw = env.unwrapped
    play(env, seed=None)
    end = raw.outcome()
    assert end.ending == TRUNCATED and end.moves == 5 and end.winners == []
    assert [p.rank for p in end.places] == sorted(raw.engine_state.ranks())
    assert end.cut_short() == "Game over after 5 moves (max_steps): truncated, nobody wins."
    names = {a: a.upper() for a in raw.possible_agents}
    text = result_text(env, names)
    assert text.startswith(end.cut_short() + "\nStanding when it stopped:\n  ")
    assert _result_text(raw) == end.cut_short()


def test_an_illegal_action_names_its_offender_and_nobody_wins():
    env = forest_envs.make("roundforest_v0", num_players=3, illegal_action="penalize")
    env.reset(seed=2)
    raw = env.unwrapped
    env.step(int(raw.action_mask(raw.agent_selection).argmin()))   # an id the mask refuses
    end = raw.outcome()
    seat = raw.possible_agents.index(raw.agent_selection)
    assert end.ending == ILLEGAL and end.offender == seat and end.winners == []
    assert end.moves == 0 and len(end.places) == 3
    assert end.cut_short() == (f"Game over: P{seat} made an illegal move ({end.illegal_action!r}) "
                               "and is penalised.")
    assert _result_text(raw) == end.cut_short()


def test_a_running_game_is_unfinished_and_a_new_game_forgets_the_last_outcome():
    env = forest_envs.make("chickwood_v0", num_players=3, max_steps=2)
    with pytest.raises(RuntimeError, match="outcome"):
        env.unwrapped.outcome()
    env.reset(seed=0)
    assert env.unwrapped.outcome() == Outcome(UNFINISHED, 0, ())
    play(env, seed=None)
    assert env.unwrapped.outcome().ending == TRUNCATED
    env.reset(seed=1)
    assert env.unwrapped.outcome() == Outcome(UNFINISHED, 0, ())
    assert _result_text(env.unwrapped) == "The record ends before the game does."


def test_places_and_winners_from_a_result():
    end = Outcome.ended(([2, 1, 1], [5, 9, 9], [{"total": 5}, {"total": 9}, {"total": 9}]), FINISHED, 40)
    assert end.places == (Place(1, 1, 9, {"total": 9}), Place(1, 2, 9, {"total": 9}),
                          Place(2, 0, 5, {"total": 5}))
    assert end.winners == [1, 2]
    assert Outcome.ended(([1, 2], None, [{}, {}]), TRUNCATED, 7).winners == []
