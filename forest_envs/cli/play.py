"""``forest-envs play``: one game in the terminal, a person at one seat and agents at the others.

Everything shown is computed for the person's seat: the board (``render_text``), the pending
decision as a sentence (``state.prompt(seat)``), and one log line per move, the move and what
it did as that seat may know it (``after.narrate(before, action, seat)``). Players are named
as the board names them (P0, P1, ...), the person's seat with "(you)". A decision with one
legal move is played for the person, saying so in its log line; ``rules`` at the prompt
explains the game (``state.rules_summary()``). Everything printed fits an 80-column
terminal: the move list, prompt, log and help here, the board and its legend in each game's
text (its words.WIDTH)."""

from __future__ import annotations

import secrets
import shlex
import sys
import textwrap

from ..core.errors import ConfigError, ForestEnvError
from ..envs.outcome import FINISHED
from .args import program_words
from .move_list import WIDTH, SeatMoves, move_lines, numbered

PROMPT = "move (number or name; help; rules; q to quit)> "
FORCED = "your only move, played for you"


def seat_label(seat: int) -> str:
    """A seat as board texts name it (P0, P1, ...)."""
    return f"P{seat}"


def opponent_list(env_id: str, given: list[str] | None, config: dict, default: str) -> list[str]:
    """The agents of the other seats. None: ``default`` at every other seat of the game's
    default table (or ``num_players``); one name: that agent at every other seat; several:
    one per other seat, which sets the number of players."""
    from ..core.registry import game_spec

    traits = game_spec(env_id).game_class.traits
    low, high = traits.min_players - 1, traits.max_players - 1
    if given is None or len(given) == 1:
        players = config.get("num_players")
        if players is None:
            players = game_spec(env_id).game_class.options["num_players"].default
        return [given[0] if given else default] * (int(players) - 1)
    if "num_players" in config and config["num_players"] != len(given) + 1:
        n = config["num_players"]
        raise ConfigError(f"{n} players need {n - 1} opponents (one agent per other seat, or one "
                          f"name for all), got {len(given)}")
    if not low <= len(given) <= high:
        raise ConfigError(f"{env_id} takes {low}-{high} opponents ({traits.min_players}-"
                          f"{traits.max_players} players), got {len(given)}: give one agent per "
                          "other seat, or one name for all")
    config["num_players"] = len(given) + 1
    return given


def replay_command(args, seed: int, opponents: list[str], default_players: int) -> str:
    """The command that starts this very game again (same seat, agents, options and seed),
    as short as it can be: one name for opponents all alike at the game's default table."""
    alike = len(set(opponents)) == 1 and (len(opponents) + 1 == default_players
                                           or any(p.startswith("num_players=") for p in args.set or []))
    argv = [*program_words(), "play", "--env", args.env,
            "--opponents", opponents[0] if alike else ",".join(opponents)]
    if args.seat:
        argv += ["--seat", str(args.seat)]
    argv += ["--seed", str(seed)]
    for pair in args.set or []:
        argv += ["--set", pair]
    return shlex.join(argv)


def command_lines(command: str) -> str:
    """A shell command indented by two, in lines within ``WIDTH`` columns that a shell reads
    as one (each but the last ends with " \\"), broken between its words only."""
    lines, line = [], "  "
    for word in map(shlex.quote, shlex.split(command)):
        if line.strip() and len(line) + 1 + len(word) + 2 > WIDTH:
            lines.append(line + " \\")
            line = "      " + word
        else:
            line += (" " if line.strip() else "") + word
    return "\n".join([*lines, line])


def play(args, config: dict, opponent_specs: list[str] | None) -> int:
    """Play one game (see the module's docstring); ``help`` at the prompt lists the commands,
    the board's legend and every legal move numbered. Ctrl-C leaves at once (exit 130), q or
    end of input quits (exit 0)."""
    from ..agents import make_agent
    from ..agents.policy import check_agent_fits
    from ..core.registry import game_spec
    from ..envs.registration import make_raw

    spec = game_spec(args.env)
    opponents = opponent_list(args.env, opponent_specs, config,
                              "heuristic" if spec.heuristic else "random")
    env = make_raw(args.env, **config)
    n = len(env.possible_agents)
    if len(opponents) != n - 1:
        raise ConfigError(f"{n} players need {n - 1} opponents (one agent per other seat, or one "
                          f"name for all), got {len(opponents)}")
    if not 0 <= args.seat < n:
        raise ConfigError(f"--seat must be 0..{n - 1}, got {args.seat}")
    seed = secrets.randbelow(1_000_000) if args.seed is None else args.seed
    me = env.possible_agents[args.seat]
    others = [a for a in env.possible_agents if a != me]
    bots = {}
    for i, (agent, kind) in enumerate(zip(others, opponents)):
        bots[agent] = make_agent(args.env, kind, seed=seed + i + 1)
        check_agent_fits(bots[agent], env)  # a policy for another game: refused before play
    kinds = dict(zip(others, opponents), **{me: "you"})
    # The log names players as the board does: P0, P1, ..., the person's seat with "(you)".
    names = {a: seat_label(i) + (" (you)" if a == me else "") for i, a in enumerate(env.possible_agents)}
    again = "To play this game again:\n" + command_lines(replay_command(
        args, seed, opponents, spec.game_class.options["num_players"].default))
    print(f"{env.game.name} ({args.env}), seed {seed}" + (" (drawn at random)" if args.seed is None else ""))
    print("Players: " + ", ".join(f"{seat_label(i)} {kinds[a]}" for i, a in enumerate(env.possible_agents)))
    print(again)
    env.reset(seed=seed)
    state = env.engine_state
    seat = args.seat
    print(f"{names[env.agent_selection]} moves first. Type rules to read how to play, help for the "
          "commands.")
    console = None if args.plain else colour_console()
    try:
        while not _game_over(env, me):
            agent = env.agent_selection
            legal = state.legal_actions() if agent == me else []
            forced = len(legal) == 1  # nothing to decide: no board, no question
            if agent == me and not forced:
                print()
                board = show_board(state, seat, console)
                _show_turn(state, seat, legal, board)
                action = _ask(legal, env, me)
                if action is None:
                    print(again)
                    print("bye")
                    return 0
            else:
                action = legal[0] if forced else bots[agent].act(env, agent)
            before = state.clone()
            # One's own move in the words of the list it was chosen from (move_label), also
            # when it was played for the person.
            own = before.move_label(action, seat) if agent == me else None
            env.step(action)
            # What the person may read of the move and of what it did (a card played face
            # down stays hidden): narrate is computed for the person's seat.
            said = state.narrate(before, action, seat, move=own)
            print(_wrapped(f"{names[agent]}: {said}" + (f" ({FORCED})" if forced else "")))
    except KeyboardInterrupt:
        print(f"\ninterrupted (Ctrl-C)\n{again}\nbye")
        return 130
    print()
    show_board(state, seat, console)
    print(result_text(env, names))
    print(again)
    return 0


def colour_console():
    """A ``rich`` console when the output is a terminal with colours and rich is installed
    (the train extra), else None: the board is then plain text, as in a pipe or a file."""
    if not sys.stdout.isatty():
        return None
    try:
        from rich.console import Console
    except ImportError:
        return None
    # soft_wrap: a line wider than the terminal runs on as the plain text would, never cut
    console = Console(soft_wrap=True, highlight=False)
    return console if console.color_system is not None else None


def show_board(state, seat: int, console) -> str:
    """The board as the seat may know it: the game's colour board on a colour terminal when it
    draws one (``state.render_rich``) and the terminal is wide enough for it (rich would
    squeeze its columns and cut their words), else its text (``state.render``) as the game lays
    it out (a grid wrapped at 80 columns would fall apart). Returns the board's words."""
    text = state.render(seat)
    board = state.render_rich(seat) if console is not None else None
    if board is None or console.measure(board, options=console.options.update_width(10_000)).maximum \
            > console.width:
        print(text)
    else:
        sys.stdout.flush()
        console.print(board)
    return text


def _show_turn(state, seat: int, legal: list[int], board: str) -> None:
    """The pending decision as a sentence, unless the board just shown ends with it (every
    game here closes its board with "Now: ..."), then the legal moves (grouped when many)."""
    sentence = state.prompt(seat)
    if sentence and not _words(board).endswith(_words(sentence)):
        print(_wrapped(sentence))
    more = "; help lists them one by one" if len(legal) > 8 else ""
    print(f"Your moves ({len(legal)}; type a number or a move's name{more}):")
    for line in state.move_table(legal, seat) or move_lines(SeatMoves(state, seat), legal):
        print(line)


def _words(text: str) -> str:
    """``text``'s words, one space apart: the same sentence however it was wrapped."""
    return " ".join(text.split())


def _wrapped(text: str) -> str:
    """A sentence of the log or the prompt within the screen's width (its own lines kept)."""
    return "\n".join(textwrap.fill(line, WIDTH, subsequent_indent="    ", break_on_hyphens=False)
                     if len(line) > WIDTH else line for line in text.splitlines())


def _game_over(env, me: str) -> bool:
    return env.engine_state.is_terminal or env.terminations[me] or env.truncations[me]


def result_text(env, names: dict[str, str]) -> str:
    """The end screen's verdict from the env's outcome: the winner(s), then every place."""
    end = env.unwrapped.outcome()
    head = end.cut_short()
    if head is None:
        winners = [names[env.possible_agents[q]] for q in end.winners]
        head = ("Winner: " if len(winners) == 1 else "Winners (shared): ") + ", ".join(winners) \
            if winners else "Game over: nobody wins."
    lines = [head]
    if end.places:
        lines.append("Places:" if end.ending == FINISHED else "Standing when it stopped:")
        for place in end.places:
            lines.append(f"  {place.rank}. {names[env.possible_agents[place.seat]]}"
                         + ("" if place.total is None else f", score {place.total}"))
    return "\n".join(lines)


_COMMANDS = (
    ("<number>", "play the move numbered so (a range a-b: its moves in order)"),
    ("<move name>", "play a move by its full name, as help lists it"),
    ("help, ?", "this help and every legal move, numbered"),
    ("rules", "how to play: the goal, a turn, the scoring"),
    ("q, quit, exit", "leave the game (end of input too; Ctrl-C stops at once)"),
)


def help_text(env, me: str, legal: list[int]) -> str:
    """The prompt's commands, a legend of the board text (the game's own ``legend()``, from
    its ``render_legend()``, when it gives one) and the full numbered list of moves."""
    seat = env.possible_agents.index(me)
    lines = ["Commands:"] + [f"  {cmd:<15} {what}" for cmd, what in _COMMANDS]
    lines.append("Board legend:")
    lines.append(f"  {seat_label(0)}..{seat_label(len(env.possible_agents) - 1)}: the players by "
                 f"seat; you are {seat_label(seat)}, marked (you)")
    lines.append("  the board shows only what you may know; what others hide stays hidden")
    legend = env.legend() if hasattr(env, "legend") else None
    if legend:
        for line in legend.splitlines():
            lines += textwrap.wrap(line, WIDTH, initial_indent="  ", subsequent_indent="    ",
                                   break_on_hyphens=False) or [""]
    else:
        lines.append("  (this game gives no legend of its own notation)")
    lines.append(f"Your moves ({len(legal)}):")
    lines += numbered(SeatMoves(env.engine_state, seat), legal)
    return "\n".join(lines)


def rules_text(state) -> str:
    """The game's rules in a screen or two (``state.rules_summary()``), or where to find them."""
    summary = state.rules_summary()
    if summary is None:
        return _wrapped(f"{state.game.name} gives no rules summary here yet: the rules are "
                        "summed up in forest_envs' docs/ (in the repository and the source "
                        "distribution).")
    return _wrapped(summary)


def _ask(legal: list[int], env, me: str):
    while True:
        try:
            text = input(PROMPT).strip()
        except EOFError:
            print()
            return None
        if text in ("q", "quit", "exit"):
            return None
        if text.lower() in ("help", "?", "h"):
            print(help_text(env, me, legal))
            continue
        if text.lower() == "rules":
            print(rules_text(env.engine_state))
            continue
        if not text:
            continue
        if text.isdigit() and int(text) < len(legal):
            return legal[int(text)]
        seat = env.possible_agents.index(me)
        labels = {env.engine_state.move_label(a, seat): a for a in legal}
        if text in labels:  # the name as the list shows it ("alms r1c2 Dunmere")
            return labels[text]
        try:
            action = env.string_to_action(text)
        except ForestEnvError:
            print(f"no move {text!r} (type help for the commands and every move)")
            continue
        if action in legal:
            return action
        print(f"{text!r} is not legal now")
