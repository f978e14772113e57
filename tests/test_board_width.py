"""Everything ``forest-envs play`` and the text render mode print fits an 80-column terminal
(issue 40): the board as each seat and the referee see it (``render``), the colour board
(``render_rich``, as rich lays it out), the board's legend, the pending decision
(``prompt``), the rules summary and the list of moves, over many positions of random games
of every configuration and player count (the pairwise cover of each game's options by
default, every configuration under ``-m slow``), and at each game's end."""

from __future__ import annotations

import io
import zlib

import numpy as np
import pytest
from config_cases import config_cases

from forest_envs.cli.move_list import SeatMoves, move_lines
from forest_envs.cli.play import help_text, rules_text
from forest_envs.envs.registration import make_raw

WIDTH = 80
STEPS = 400       # actions of each game
EVERY = 10        # look at every 10th position (and the last)


def too_wide(text: str | None) -> list[str]:
    return [line for line in (text or "").splitlines() if len(line) > WIDTH]


def rich_width(renderable) -> int:
    """The columns rich needs for ``renderable`` on an unbounded terminal."""
    from rich.console import Console

    console = Console(file=io.StringIO(), width=10_000, color_system=None)
    return console.measure(renderable).maximum


def look(state, env, seats: list[int]) -> list[str]:
    """Every line too wide of what a person at each seat (and the referee) may be shown now."""
    wide = []
    for seat in [None, *seats]:
        wide += too_wide(state.render(seat))
        wide += too_wide(state.prompt(seat))
    legal = state.legal_actions() if not state.is_terminal else []
    seat = state.current_player if not state.is_terminal else 0
    if legal:
        wide += too_wide("\n".join(move_lines(SeatMoves(state, seat), legal)))
        wide += too_wide(help_text(env, env.possible_agents[seat], legal))
    rich = state.render_rich(seat)
    if rich is not None and rich_width(rich) > WIDTH:
        wide.append(f"render_rich: {rich_width(rich)} columns")
    return wide


@pytest.mark.parametrize(("env_id", "config"), config_cases())
def test_every_board_prompt_and_move_list_fits_80_columns(env_id, config):
    # one game per configuration (the cover varies the tables), each from a seed of its own
    seed = zlib.crc32(repr((env_id, sorted(config.items()))).encode())
    env = make_raw(env_id, **config)
    env.reset(seed=seed)
    state = env.engine_state
    seats = list(range(len(env.possible_agents)))
    rng = np.random.default_rng(seed)
    wide = too_wide(state.render_legend()) + too_wide(rules_text(state))
    for step in range(STEPS):
        if state.is_terminal:
            break
        if step % EVERY == 0:
            wide += look(state, env, seats)
        env.step(int(rng.choice(state.legal_actions())))
    wide += look(state, env, seats)
    assert not wide, (env_id, config, seed, wide[:5])
