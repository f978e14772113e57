"""The legal moves as ``forest-envs play`` lists them (forest_envs/cli/move_list.py), and typing
them: a number (of a range too) or a move's full name."""

from __future__ import annotations

import builtins

import forest_envs
from forest_envs.cli import main as cli
from forest_envs.cli.move_list import GROUP_ABOVE, grouped, move_lines, numbered


def first_turn(env_id: str, seed: int = 0, **config):
    env = forest_envs.make_raw(env_id, **config)
    env.reset(seed=seed)
    state = env.engine_state
    return state, state.legal_actions()


SHERWOOD_FIRST_TURN = [
    "  0-1 church: donate 1-2 gold      2-6 inn: look at traveller 1-5",
    "    7 merchant: buy equipment        8 market: recruit an outlaw",
    "  ambush at ... with 1-4:",
    "     9-12 Derby Gate        13-16 Derby Wood        17-20 Nottingham Gate",
    "    21-24 Nottingham Wood   25-28 Lincoln Gate      29-32 Lincoln Wood",
    "    33-36 York Gate         37-40 York Wood         41-44 North-East Fork",
    "    45-48 South-East Fork   49-52 South-West Fork   53-56 North-West Fork",
    "  offer a joint ambush at ... with 1-4 own:",
    "      57-60 Derby Gate          61-64 Derby Wood",
    "      65-68 Nottingham Gate     69-72 Nottingham Wood",
    "      73-76 Lincoln Gate        77-80 Lincoln Wood",
    "      81-84 York Gate           85-88 York Wood",
    "      89-92 North-East Fork     93-96 South-East Fork",
    "     97-100 South-West Fork   101-104 North-West Fork",
    'ranges count in order: 9 is "ambush at Derby Gate with 1", 10 is "ambush at',
    '  Derby Gate with 2", ..., 12 is "ambush at Derby Gate with 4"',
]


def test_sherwoods_105_first_moves_take_16_lines_of_at_most_80_columns():
    state, legal = first_turn("sherwood_v0")
    assert len(legal) == 105
    lines = move_lines(state.game, legal)
    assert lines == SHERWOOD_FIRST_TURN and len(lines) == 16
    assert max(len(line) for line in lines) <= 80


def test_every_number_of_a_range_is_the_move_read_aloud():
    """"9-12 Derby Gate" under "ambush at ... with 1-4": 9 is with 1, ..., 12 is with 4."""
    state, legal = first_turn("sherwood_v0")
    name = state.game.action_to_string
    assert [name(legal[i]) for i in range(9, 13)] == [f"ambush at Derby Gate with {k}" for k in range(1, 5)]
    assert [name(legal[i]) for i in (0, 1)] == ["church: donate 1 gold", "church: donate 2 gold"]
    assert [name(legal[i]) for i in range(101, 105)] == [
        f"offer a joint ambush at North-West Fork with {k} own" for k in range(1, 5)]


def test_a_few_moves_are_numbered_one_per_line():
    state, legal = first_turn("roundforest_v0", seed=5)
    assert len(legal) <= GROUP_ABOVE
    assert move_lines(state.game, legal) == numbered(state.game, legal) == [
        f"  {i}: {state.game.action_to_string(a)}" for i, a in enumerate(legal)]


def test_chickwoods_first_hand_is_one_header_and_one_line():
    state, legal = first_turn("chickwood_v0", seed=3)
    hand = sorted({state.game.action_to_string(a).split(" to castle")[0][len("play "):] for a in legal})
    lines = grouped(state.game, legal)
    assert lines[0] == "  play ... to castle 1-4:"
    assert len(lines) == 2 and len(legal) == 12
    assert sorted(cell.split(maxsplit=1)[1].strip() for cell in lines[1].split("   ") if cell.strip()) == hand


def test_names_that_differ_in_more_than_one_place_stay_apart():
    state, legal = first_turn("sherwood_v0")
    # The first move of each block only: no two share a block, nothing is merged.
    firsts = [legal[i] for i in (0, 2, 7, 8, 9, 57)]
    # Columns as wide as the longest entry: one a line here.
    assert grouped(state.game, firsts) == [
        "  0 church: donate 1 gold", "  1 inn: look at traveller 1", "  2 merchant: buy equipment",
        "  3 market: recruit an outlaw", "  4 ambush at Derby Gate with 1",
        "  5 offer a joint ambush at Derby Gate with 1 own"]


def test_a_number_in_a_range_and_a_full_name_are_played(monkeypatch, capsys):
    """Sherwood, seat 0 moves first: "10" is "ambush at Derby Gate with 2"; the next turn
    takes the full name of a move."""
    replies = iter(["10", "church: donate 1 gold", "q"])
    monkeypatch.setattr(builtins, "input", lambda prompt="": next(replies))
    assert cli.main(["play", "--env", "sherwood_v0", "--opponents", "random", "--seed", "0"]) == 0
    out = capsys.readouterr().out
    assert "\nP0 (you): ambush at Derby Gate with 2" in out
    assert "\nP0 (you): church: donate 1 gold" in out


def test_help_lists_every_move_numbered(monkeypatch, capsys):
    replies = iter(["help", "q"])
    monkeypatch.setattr(builtins, "input", lambda prompt="": next(replies))
    assert cli.main(["play", "--env", "sherwood_v0", "--seed", "0"]) == 0
    out = capsys.readouterr().out
    listed = out[out.index("Your moves (105):\n"):].splitlines()[1:106]
    state, legal = first_turn("sherwood_v0")
    assert listed == [f"  {i:>3}: {state.game.action_to_string(a)}" for i, a in enumerate(legal)]


def test_sherwoods_first_screen_fits_in_50_lines(monkeypatch, capsys):
    replies = iter(["q"])
    monkeypatch.setattr(builtins, "input", lambda prompt="": next(replies))
    assert cli.main(["play", "--env", "sherwood_v0", "--seed", "0"]) == 0
    out = capsys.readouterr().out
    screen = out[out.index("\n\n") + 2:out.index("To play this game again", 100)].splitlines()
    # the board too fits 80 columns (tests/test_board_width.py: every game and configuration)
    assert len(screen) <= 52 and max(len(line) for line in screen) <= 80
    assert screen[-len(SHERWOOD_FIRST_TURN):] == SHERWOOD_FIRST_TURN


def test_names_without_a_number_to_count_are_listed_under_one_header():
    """Roundforest's tile choice: the cells are not merged into a range (a person would have
    to count them), each keeps its number under the words they share."""
    from forest_envs.agents.base import RandomAgent

    env = forest_envs.make_raw("roundforest_v0")
    env.reset(seed=1)
    bot = RandomAgent(1)
    state = env.engine_state

    def legal_names():
        return [state.game.action_to_string(a) for a in state.legal_actions()]

    while not (len(legal_names()) > GROUP_ABOVE and all(n.startswith("choose tile ") for n in legal_names())):
        env.step(bot.act(env, env.agent_selection))
    legal = state.legal_actions()
    names = legal_names()
    lines = grouped(state.game, legal)
    assert lines[0] == "  choose tile:"
    cells = " ".join(lines[1:]).split()
    assert cells == [x for i, n in enumerate(names) for x in (str(i), n.split()[-1])]


def test_every_list_of_a_random_game_fits():
    from forest_envs.agents.base import RandomAgent

    for env_id in forest_envs.ENV_IDS:
        env = forest_envs.make_raw(env_id)
        env.reset(seed=3)
        bot, state = RandomAgent(3), env.engine_state
        while not state.is_terminal and env.num_steps < 400:
            legal = state.legal_actions()
            lines = move_lines(state.game, legal)
            assert max(len(line) for line in lines) <= 80, (env_id, lines)
            # a long move name takes two lines when numbered
            assert len(lines) <= 17 if len(legal) > GROUP_ABOVE else len(legal) <= len(lines) <= 2 * len(legal)
            env.step(bot.act(env, env.agent_selection))


def test_a_block_of_words_and_numbers():
    """Roundforest's item decision: "trade with the fairy: ... row item 1-3" over two rows."""
    from forest_envs.agents.base import RandomAgent

    env = forest_envs.make_raw("roundforest_v0")
    env.reset(seed=1)
    bot, state = RandomAgent(1), env.engine_state
    while len(state.legal_actions()) <= GROUP_ABOVE:
        env.step(bot.act(env, env.agent_selection))
    assert move_lines(state.game, state.legal_actions()) == [
        "  0 keep the item                1 leave the item on the tile",
        "  trade with the fairy: ... row item 1-3:",
        "    2-4 middle   5-7 bottom",
        "  8 exchange the coin token for a coin from the supply",
        'ranges count in order: 2 is "trade with the fairy: middle row item 1", 3 is',
        '  "trade with the fairy: middle row item 2", 4 is "trade with the fairy: middle',
        '  row item 3"']


def test_long_prompts_and_log_lines_wrap_within_80_columns(monkeypatch, capsys):
    """Whatever a game's prompt and narration say, play keeps them within 80 columns."""
    from forest_envs.core.state import GameState

    long = "P0 drew " + "a very long item name, " * 8 + "keep it or leave it"
    monkeypatch.setattr(GameState, "prompt", lambda self, observer=None: long)
    monkeypatch.setattr(GameState, "narrate", lambda self, before, action, observer=None, move=None: "x " * 70)
    # the board's lines are the game's to lay out within 80 columns (its words.WIDTH), not play's
    monkeypatch.setattr(GameState, "render", lambda self, seat=None: "(the board)")
    replies = iter(["0", "q"])
    monkeypatch.setattr(builtins, "input", lambda prompt="": next(replies))
    assert cli.main(["play", "--env", "chickwood_v0", "--seed", "0"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert max(len(line) for line in lines) <= 80
    at = lines.index(long[:long.rindex(" ", 0, 80)])
    end = next(i for i in range(at, len(lines)) if lines[i].startswith("Your moves ("))
    assert all(line.startswith("    ") for line in lines[at + 1:end])
    assert " ".join(line.strip() for line in lines[at:end]) == long
    assert "\nP0 (you): x x" in "\n" + "\n".join(lines)
