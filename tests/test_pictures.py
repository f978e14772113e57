"""Pictures of the table (render_mode="rgb_array"): shape and type for every game and
configuration, pictures that follow the table, that depend on the view alone and that show
a seat nothing it may not know; the AEC env's rgb_array mode and its errors."""

from __future__ import annotations

import time

import numpy as np
import pytest

import forest_envs
from forest_envs.core.errors import ConfigError
from forest_envs.core.registry import env_ids, game_spec
from forest_envs.drawing import canvas as core_picture

# every registered game that draws pictures (the toy game of the tests draws only text)
GAMES = [g for g in env_ids() if game_spec(g).game_class.state_class.has_picture()]
CASES = [(g, cfg) for g in GAMES for cfg in game_spec(g).game_class.all_configs()]
CASE_IDS = [g + "-" + "-".join(f"{k}={v}" for k, v in cfg.items()) for g, cfg in CASES]
# every player count of every game, without its variants (pictures take ~50 ms each)
COUNTS = [(g, cfg) for g, cfg in CASES if not any(v is True for v in cfg.values())]
COUNT_IDS = [g + "-" + str(cfg["num_players"]) for g, cfg in COUNTS]


def played(env_id: str, actions: int, seed: int = 0, **cfg):
    """A state after ``actions`` random legal actions (fewer if the game ends)."""
    state = game_spec(env_id).game_class(**cfg).new_initial_state(seed)
    rng = np.random.default_rng(seed)
    for _ in range(actions):
        if state.is_terminal:
            break
        state.apply(int(rng.choice(state.legal_actions())))
    return state


@pytest.mark.parametrize(("env_id", "cfg"), CASES, ids=CASE_IDS)
def test_picture_has_the_declared_shape_for_every_configuration(env_id, cfg):
    state = played(env_id, 25, seed=3, **cfg)
    shape = state.picture_shape()
    assert len(shape) == 3 and shape[2] == 3
    width, height = state.picture_module().size(state.num_players)
    assert shape == (height, width, 3)
    for seat in (None, state.num_players - 1):
        image = state.picture(seat)
        assert isinstance(image, np.ndarray)
        assert image.shape == shape and image.dtype == np.uint8
        assert image.min() < 100 < image.max()  # something is drawn


@pytest.mark.parametrize("env_id", GAMES)
def test_picture_changes_when_the_table_changes(env_id):
    state = played(env_id, 10, seed=1)
    first = state.picture(None)
    for _ in range(15):
        if state.is_terminal:
            break
        before = state.picture(None)
        state.apply(int(np.random.default_rng(state.turn).choice(state.legal_actions())))
        assert not np.array_equal(before, state.picture(None))
    assert not np.array_equal(first, state.picture(None))


@pytest.mark.parametrize("env_id", GAMES)
def test_same_view_same_picture(env_id):
    state = played(env_id, 40, seed=2)
    module = state.picture_module()
    for seat in (None, 0):
        image = state.picture(seat)
        np.testing.assert_array_equal(image, state.picture(seat))
        np.testing.assert_array_equal(image, state.clone().picture(seat))
        # drawn from the view alone: the view's data gives the very same image
        np.testing.assert_array_equal(image, module.picture(state.view(seat)))
        restored = state.game.state_from_dict(state.to_dict())
        np.testing.assert_array_equal(image, restored.picture(seat))


@pytest.mark.parametrize(("env_id", "cfg"), COUNTS, ids=COUNT_IDS)
def test_seat_pictures_do_not_reveal_hidden_information(env_id, cfg):
    rng = np.random.default_rng(5)
    state = played(env_id, 0, seed=4, **cfg)
    for step in range(4):
        for seat in range(state.num_players):
            other = state.resample_hidden(seat, np.random.default_rng(100 * step + seat))
            np.testing.assert_array_equal(other.picture(seat), state.picture(seat))
        for _ in range(9):
            if state.is_terminal:
                break
            state.apply(int(rng.choice(state.legal_actions())))


@pytest.mark.parametrize("env_id", GAMES)
def test_the_referees_picture_shows_what_a_determinization_changed(env_id):
    """Not a vacuous comparison: where a determinization changes what the referee sees (its
    view), the referee's picture changes too, while the seat's stays the same."""
    rng = np.random.default_rng(6)
    state = played(env_id, 0, seed=4)
    for step in range(400):
        seat = step % state.num_players
        other = state.resample_hidden(seat, np.random.default_rng(step))
        if other.view(None) != state.view(None):
            assert not np.array_equal(other.picture(None), state.picture(None))
            np.testing.assert_array_equal(other.picture(seat), state.picture(seat))
            return
        if state.is_terminal:
            state = played(env_id, 0, seed=step)
        state.apply(int(rng.choice(state.legal_actions())))
    pytest.fail("no determinization changed the referee's view in 400 positions")


@pytest.mark.parametrize("env_id", GAMES)
def test_rgb_array_through_the_aec_env(env_id):
    env = forest_envs.make(env_id, render_mode="rgb_array")
    assert "rgb_array" in env.unwrapped.metadata["render_modes"]
    env.reset(seed=0)
    for _ in range(5):
        env.step(int(np.flatnonzero(env.unwrapped.action_mask(env.agent_selection))[0]))
    raw = env.unwrapped
    image = env.render()
    assert image.dtype == np.uint8 and image.shape == raw.engine_state.picture_shape()
    # render() draws the referee's view, as render_mode="ansi" does; render_image(agent) a seat's
    np.testing.assert_array_equal(image, raw.render_image())
    np.testing.assert_array_equal(image, raw.engine_state.picture(None))
    for seat, agent in enumerate(env.possible_agents):
        np.testing.assert_array_equal(raw.render_image(agent), raw.engine_state.picture(seat))
    with pytest.raises(forest_envs.WrongAgentError):
        raw.render_image("player_9")


def test_unknown_render_mode_is_refused_with_the_choices():
    with pytest.raises(ConfigError, match="rgb_array"):
        forest_envs.make(GAMES[0], render_mode="rgb")


def test_a_game_without_a_picture_refuses_rgb_array():
    # the toy game of tests/toy_game.py (registered by conftest.py) draws only text
    env = forest_envs.make("toy_v0")
    assert "rgb_array" not in env.unwrapped.metadata["render_modes"]
    with pytest.raises(ConfigError, match="no picture"):
        forest_envs.make("toy_v0", render_mode="rgb_array")
    env.reset(seed=0)
    with pytest.raises(NotImplementedError, match="no picture"):
        env.unwrapped.render_image()


def test_pictures_need_no_installed_font(monkeypatch):
    state = played(GAMES[0], 30, seed=0)
    expected = state.picture_shape()
    monkeypatch.setattr(core_picture, "_FONT_DIRS", ("/nonexistent",))
    core_picture.font.cache_clear()
    try:
        image = state.picture(0)
        assert image.shape == expected and image.dtype == np.uint8
    finally:
        monkeypatch.undo()
        core_picture.font.cache_clear()


@pytest.mark.parametrize("env_id", GAMES)
def test_pictures_are_quick(env_id):
    state = played(env_id, 60, seed=0)
    state.picture(0)  # fonts loaded once
    start = time.perf_counter()
    for _ in range(5):
        state.picture(0)
    # about 30-60 ms each on one core; generous for a shared machine
    assert (time.perf_counter() - start) / 5 < 0.5


def test_text_loads_no_pillow():
    """Pillow loads when a picture is drawn, not for the package or its text: text names
    seats through drawing/seats.py, which draws nothing."""
    import subprocess
    import sys

    code = ("import sys, forest_envs\n"
            "for env_id in forest_envs.ENV_IDS:\n"
            "    env = forest_envs.make(env_id, render_mode='ansi')\n"
            "    env.reset(seed=0)\n"
            "    assert env.render() and env.unwrapped.engine_state.prompt()\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] == 'PIL'))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stdout
