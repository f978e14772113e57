"""``forest-envs play`` for someone new to the game: ``rules`` explains it in a screen or two,
a decision with one legal move is played for them (one log line says so), the first screen
and ``--help`` say who moves first, and play's own lines fit 80 columns."""

from __future__ import annotations

import builtins
import re

import forest_envs
from forest_envs.cli import main as cli
from forest_envs.cli import play as play_module
from forest_envs.cli.main import build_parser


def run_play(monkeypatch, capsys, argv, replies):
    replies = iter(replies)
    monkeypatch.setattr(builtins, "input", lambda prompt="": next(replies))
    assert cli.main(["play", *argv]) == 0
    return capsys.readouterr().out


def test_rules_explains_chickwood_in_a_screen_or_two(monkeypatch, capsys):
    out = run_play(monkeypatch, capsys, ["--env", "chickwood_v0", "--seed", "3", "--seat", "1"], ["rules", "q"])
    rules = out[out.index("CHICKWOOD FOREST"):out.index("To play this game again", out.index("CHICKWOOD"))]
    lines = rules.splitlines()[:-1]  # the last line is the next prompt
    assert len(lines) <= 48 and max(len(line) for line in lines) <= 80
    text = " ".join(rules.split())
    assert text.startswith("CHICKWOOD FOREST, 3 players: the most glory wins. 8 rounds; a tie shares the win.")
    # this table's numbers: 3 cards a round, castles 1-4 and their banners, 15 alms
    assert "1. Scout: 3 cards each;" in text and "(1-4 in play;" in text
    assert "face down (D): 1 UUU, 2 UUD, 3 UDU, 4 UDD. 2. Raid:" in text
    assert "stay in your store (15 in all)" in text
    # the card values a player needs
    assert "bronze bracelet 2, turquoise pendant 3, violet ring 4 each" in text
    assert "Henchman: -3 each." in text and "5 for each kind you hold exactly once" in text
    assert "LEGENDARY" not in text


def test_rules_of_the_legendary_two_player_table(monkeypatch, capsys):
    out = run_play(monkeypatch, capsys, ["--env", "chickwood_v0", "--seed", "3", "--opponents", "random",
                                         "--set", "legendary=true", "--set", "num_players=2"], ["rules", "q"])
    text = " ".join(out.split())
    assert "CHICKWOOD FOREST, 2 players (Legendary cards): the most glory wins. 6 rounds;" in text
    assert "4 cards each;" in text and "face down (D): 1 UUUD, 2 UUDD, 3 UDDD." in text
    assert "LEGENDARY CARDS: spy glass" in text


def _rules_screen(out: str, head: str) -> tuple[list[str], str]:
    """The lines ``rules`` printed (from its first word to the replay command that "q" prints)
    and them as one text."""
    rules = out[out.index(head):out.index("To play this game again", out.index(head))]
    return rules.splitlines(), " ".join(rules.split())


def test_rules_explains_roundforest_in_a_screen_or_two(monkeypatch, capsys):
    out = run_play(monkeypatch, capsys, ["--env", "roundforest_v0", "--seed", "3"], ["rules", "q"])
    lines, text = _rules_screen(out, "ROUNDFOREST")
    assert len(lines) <= 60 and max(len(line) for line in lines) <= 80
    assert text.startswith("ROUNDFOREST, 3 players: the first to bring 3 golden apples, free of "
                           "debts, to the Forest Spirit wins the Emerald Ring.")
    # a turn, this table's numbers, the values the player needs
    assert "A TURN. Move your piece or pause. The forest is 32 tiles" in text
    assert "A compass (you have 2, each used once)" in text
    assert "(top row 2 copper, middle 1 copper, bottom free;" in text
    assert "WELL: 2 items for 2 copper, 3 copper for 1 silver, or 1 silver for 1 golden apple." in text
    assert "Your backpack holds 3 items, at most 1 heavy (anvil, barrel, saddle, treasure chest and " \
           "stone)" in text
    assert "Witch: give a cross, or give a cross and a magic potion: 1 golden apple;" in text
    assert "Bandit: give 2 copper, or give a sword and 2 copper: 1 golden apple;" in text
    assert "Drawing the Forest Spirit's card from a red chip (or choosing it with the Beggar) with " \
           "the apples and no debt wins at once." in text
    assert "BLOCKADES" not in text


def test_rules_of_roundforest_with_both_variants_on_two_players(monkeypatch, capsys):
    out = run_play(monkeypatch, capsys, ["--env", "roundforest_v0", "--seed", "3", "--set", "num_players=2",
                                         "--set", "no_silver=true", "--set", "blockade=true"], ["rules", "q"])
    lines, text = _rules_screen(out, "ROUNDFOREST")
    assert text.startswith("ROUNDFOREST, 2 players, without the silver-coin item tokens (no_silver) "
                           "and with blockades (blockade):")
    assert "The forest is 21 tiles" in text and "BLOCKADES. Once a turn," in text


def test_rules_explains_sherwood_in_a_screen_or_two(monkeypatch, capsys):
    out = run_play(monkeypatch, capsys, ["--env", "sherwood_v0", "--seed", "3"], ["rules", "q"])
    lines, text = _rules_screen(out, "SHERWOOD FOREST")
    assert len(lines) <= 48 and max(len(line) for line in lines) <= 80
    assert text.startswith("SHERWOOD FOREST, 4 players: the most fame after 6 rounds wins (a tie: "
                           "fewer outlaws under the oak, then more gold). You start with 4 outlaws "
                           "and 2 gold in camp, 4 more outlaws under the oak. Each round 5 travellers")
    assert "MERCHANT: one outlaw and 1 gold; draw an equipment card (not with 3 in hand)." in text
    assert "MARKET: one outlaw and 2 gold;" in text and "(at most 3 failed offers a turn)" in text
    assert "(cudgel +1, bow +2, sword +3)" in text
    assert "its new gold and comrades become fame (1 a bag, 2 a comrade)" in text
    assert "ADDITIONS" not in text
    out = run_play(monkeypatch, capsys, ["--env", "sherwood_v0", "--seed", "3", "--set", "additions=true"],
                   ["rules", "q"])
    lines, text = _rules_screen(out, "SHERWOOD FOREST")
    assert text.startswith("SHERWOOD FOREST, 4 players with the additions:")
    assert "ADDITIONS. Sheriff cards among the travellers" in text and "(a band never drops below 4)" in text


def test_a_game_without_a_summary_says_where_the_rules_are():
    class Untold:  # a game whose RENDER gives no rules_summary (the toy game of the tests)
        game = type("Game", (), {"name": "Toy"})

        def rules_summary(self):
            return None

    assert " ".join(play_module.rules_text(Untold()).split()) == (
        "Toy gives no rules summary here yet: the rules are summed up in forest_envs' docs/ (in "
        "the repository and the source distribution).")


def test_a_decision_with_one_move_is_played_for_the_person(monkeypatch, capsys):
    asked = []
    real_ask = play_module._ask

    def ask(legal, env, me):
        asked.append(len(legal))
        return real_ask(legal, env, me)

    monkeypatch.setattr(play_module, "_ask", ask)
    out = run_play(monkeypatch, capsys, ["--env", "sherwood_v0", "--seed", "1", "--set", "additions=true",
                                         "--opponents", "random"], ["0"] * 400 + ["q"])
    # each log entry: "P<seat>: ..." and its continuation lines (indented)
    entries = re.findall(r"^P\d.*(?:\n    .*)*", out, re.M)
    forced = [e for e in entries if e.endswith("(your only move, played for you)")]
    assert len(forced) >= 3  # Sherwood with additions has many one-option questions
    assert all(e.startswith("P0 (you): ") for e in forced)
    assert asked and min(asked) >= 2  # the prompt only ever asks a real choice
    assert all(len(line) <= 80 for e in forced for line in e.splitlines())


def test_the_first_screen_and_help_say_who_moves_first(monkeypatch, capsys):
    out = run_play(monkeypatch, capsys, ["--env", "chickwood_v0", "--seed", "3", "--seat", "1"], ["q"])
    env = forest_envs.make_raw("chickwood_v0")
    env.reset(seed=3)
    first = env.engine_state.current_player
    you = " (you)" if first == 1 else ""
    assert out.splitlines()[4] == (f"P{first}{you} moves first. Type rules to read how to play, help for "
                                   "the commands.")
    parser = build_parser()
    play = parser._subparsers._group_actions[0].choices["play"]
    assert "Who moves first is the game's own rule, not always seat 0" in play.description
    seat = next(a for a in play._actions if a.dest == "seat")
    assert seat.help == "your seat: 0 is P0 on the board, 1 is P1, ...; not always the first to move (default: %(default)s)"


def test_help_at_the_prompt_lists_rules(monkeypatch, capsys):
    out = run_play(monkeypatch, capsys, ["--env", "chickwood_v0", "--seed", "3"], ["help", "q"])
    assert "  rules           how to play: the goal, a turn, the scoring" in out.splitlines()


def test_chickwoods_alms_moves_name_their_village(monkeypatch, capsys):
    from forest_envs.agents.base import RandomAgent
    from forest_envs.chickwood.components import VILLAGES
    from forest_envs.cli.move_list import SeatMoves, move_lines

    env = forest_envs.make_raw("chickwood_v0")
    env.reset(seed=2)
    state, bot = env.engine_state, RandomAgent(2)
    while state.decision_name() != "alms":
        env.step(bot.act(env, env.agent_selection))
    seat, legal = state.current_player, state.legal_actions()
    view = state.view(seat)
    for action in legal:
        name = state.game.action_to_string(action)          # "alms r1c2": what string_to_action reads
        cell = (int(name[6]) - 1) * 3 + int(name[8]) - 1
        village = VILLAGES[view["villages"][cell]["village"]].name
        assert state.move_label(action, seat) == f"{name} {village}"
    lines = move_lines(SeatMoves(state, seat), legal)
    assert lines[0] == f"  0: {state.move_label(legal[0], seat)}"
    # a game without labels of its own names its moves as the game does
    sherwood = forest_envs.make_raw("sherwood_v0")
    sherwood.reset(seed=0)
    s = sherwood.engine_state
    assert [s.move_label(a, 0) for a in s.legal_actions()] == [
        s.game.action_to_string(a) for a in s.legal_actions()]


def test_a_move_is_taken_by_the_name_the_list_shows(monkeypatch):
    from forest_envs.cli.play import _ask

    env = forest_envs.make_raw("chickwood_v0")
    env.reset(seed=2)
    state, legal = env.engine_state, env.engine_state.legal_actions()
    me = env.agent_selection
    seat = env.possible_agents.index(me)
    label = state.move_label(legal[1], seat)
    replies = iter([label])
    monkeypatch.setattr(builtins, "input", lambda prompt="": next(replies))
    assert _ask(legal, env, me) == legal[1]


def test_a_long_replay_command_is_broken_into_lines_a_shell_reads_as_one():
    import shlex

    command = ("forest-envs play --env sherwood_v0 --opponents heuristic --seed 11 --set additions=true "
               "--set num_players=5 --set 'reward=rank'")
    text = play_module.command_lines(command)
    assert text.splitlines() == [
        "  forest-envs play --env sherwood_v0 --opponents heuristic --seed 11 --set \\",
        "      additions=true --set num_players=5 --set reward=rank"]
    assert shlex.split(text.replace("\\\n", " ")) == shlex.split(command)
    assert play_module.command_lines("forest-envs play --env roundforest_v0 --seed 5") == \
        "  forest-envs play --env roundforest_v0 --seed 5"


def _chosen_labels(monkeypatch) -> list[str]:
    """Record, for each move the person chooses at the prompt, the name the list showed."""
    chosen: list[str] = []
    real_ask = play_module._ask

    def ask(legal, env, me):
        action = real_ask(legal, env, me)
        if action is not None:
            chosen.append(env.engine_state.move_label(action, env.possible_agents.index(me)))
        return action

    monkeypatch.setattr(play_module, "_ask", ask)
    return chosen


def test_ones_own_moves_are_logged_in_the_words_of_the_list(monkeypatch, capsys):
    for env_id, replies in (("chickwood_v0", ["0"] * 60), ("roundforest_v0", ["0"] * 12),
                            ("sherwood_v0", ["0"] * 12)):
        chosen = _chosen_labels(monkeypatch)
        out = run_play(monkeypatch, capsys, ["--env", env_id, "--seed", "4", "--opponents", "random"],
                       [*replies, "q"])
        entries = [" ".join(e.split()) for e in re.findall(r"^P0 \(you\): .*(?:\n    .*)*", out, re.M)]
        asked = [e for e in entries if not e.endswith("(your only move, played for you)")]
        assert len(asked) == len(chosen) > 0
        for entry, label in zip(asked, chosen):
            assert entry.startswith(f"P0 (you): {' '.join(label.split())}"), (env_id, entry, label)
        # the list's words are not the action's name ("alms r1c1 Cinderholt", not "alms r1c1")
        if env_id == "chickwood_v0":
            assert any(re.match(r"alms r\dc\d \w", label) for label in chosen)


def test_the_pending_decision_is_said_once_right_above_the_moves(monkeypatch, capsys):
    for env_id in sorted(forest_envs.ENV_IDS):
        out = run_play(monkeypatch, capsys, ["--env", env_id, "--seed", "4", "--opponents", "random"], ["q"])
        lines = out.splitlines()
        at = next(i for i, line in enumerate(lines) if line.startswith("Your moves ("))
        now = max(i for i in range(at) if lines[i].startswith("Now: "))
        assert all(line.startswith("    ") for line in lines[now + 1:at])  # the sentence, then the moves
        sentence = " ".join(" ".join(lines[now:at]).split())[len("Now: "):]
        assert " ".join(out.split()).count(sentence) == 1, (env_id, sentence)


def _sherwood_terms_position():
    """A Sherwood position (additions) where the person sets an ally's terms: 90 of them."""
    from forest_envs.agents import make_agent

    env = forest_envs.make_raw("sherwood_v0", additions=True)
    env.reset(seed=0)
    bots = {a: make_agent("sherwood_v0", "random", seed=i) for i, a in enumerate(env.possible_agents)}
    while env.engine_state.decision_name() != "terms" or len(env.engine_state.legal_actions()) <= 20:
        env.step(bots[env.agent_selection].act(env, env.agent_selection))
    return env.engine_state


def test_sherwoods_terms_fit_a_screen_as_a_table(capsys):
    from forest_envs.sherwood import actions as A

    s = _sherwood_terms_position()
    seat, legal = s.current_player, s.legal_actions()
    assert len(legal) == 90  # 0-9 bags x 0-2 gold x 0-2 comrades: a list of 90 lines before
    table = s.move_table(legal, seat)
    assert len(table) <= 16 and max(map(len, table)) <= 80
    assert table[2].split() == ["gold", "0", "gold", "1", "gold", "2"]
    assert table[3].split() == ["comrades", *["0", "1", "2"] * 3]
    assert table[5].split() == ["1", "bag", *map(str, range(9, 18))]
    rows = [line.split() for line in table[4:14]]
    numbers = [int(w) for row in rows for w in row[2:]]
    assert sorted(numbers) == list(range(90))
    for row in rows:  # each cell's number is the move with its row's bags, column's gold and comrades
        bags = 0 if row[0] == "no" else int(row[0])
        for col, n in enumerate(int(w) for w in row[2:]):
            assert A.TERMS.index(legal[n]) == (bags, col // 3, col % 3)
    assert table[-1].startswith('for example 14 is "P0 gets 1 bag and 2 comrades of the loot, and 1 gold')
    # play shows the table instead of the list; the numbers are the list's
    play_module._show_turn(s, seat, legal, "")
    shown = capsys.readouterr().out.splitlines()
    assert shown[-len(table):] == table and len(shown) <= len(table) + 4
    # the most terms there can be (10 bags, 6 gold, 3 comrades: 180) still fit 80 columns
    every = list(range(A.TERMS.start, A.TERMS.stop))
    big = s.move_table(every, seat)
    assert max(map(len, big)) <= 80 and len(big) <= 30
    assert sorted(n for line in big[2:-1] if not line.lstrip().startswith(("gold", "comrades"))
                  for n in map(int, line.split()[2:])) == list(range(180))
    # another seat, or any other decision, gets the list
    assert s.move_table(legal, (seat + 1) % s.num_players) is None
