"""Roundforest in words: each decision kind's sentence (``prompt``), what a move did
(``consequences`` through ``narrate``), that hidden objects stay unnamed to other seats,
and that over whole games no text shows an internal name or passes 80 columns."""

from __future__ import annotations

import numpy as np
import pytest

import forest_envs
from forest_envs.agents.base import RandomAgent
from forest_envs.roundforest.agents import HeuristicAgent
from forest_envs.roundforest.components import BLUE
from forest_envs.roundforest.observation import DECISIONS
from forest_envs.roundforest.text.render import move_columns, render_rich
from forest_envs.roundforest.text.words import WIDTH

from .conftest import (
    act,
    add_to_pile,
    cell,
    char,
    give_coins,
    item,
    new_state,
    phase,
    set_backpack,
    set_bag,
    set_chip,
)
from .decision_positions import (
    at_beggar,
    at_beggar_card,
    at_blockade_end,
    at_blockade_start,
    at_character,
    at_chest,
    at_coin_token,
    at_drawn,
    at_goblin_give,
    at_goblin_take,
    at_helper_card,
    at_meet,
    at_merchant,
    at_merchant_sold,
    at_prince,
    at_saddle,
    at_spirit_place,
    at_start,
    at_token_item,
    at_turn,
    at_unicorn,
    at_well,
    at_well_give,
    at_yellow,
)
from .test_rules import red_state


def narrated(s, name: str, observer=None) -> str:
    """Play ``name`` on ``s`` and return its log line as ``observer`` reads it."""
    before = s.clone()
    a = s.game.string_to_action(name)
    s.apply(a)
    return s.narrate(before, a, observer)


def one_line(text: str) -> str:
    """A wrapped text as the sentence it is."""
    return " ".join(text.split())


SAME = "the same for every observer"
ROWS = "(bottom row free, middle row 1 copper, top row 2 copper)"
# Each decision kind's sentence: (position, for the actor and the referee, for another seat).
PROMPTS = [
    (at_start, "P0 to move out of the backpack onto one of its two adjacent tiles", SAME),
    (at_turn, "P0 on C3: move where the octagons lead, or with a compass (2 left) one or two tiles "
     "any way, or pause (C3 turns clockwise)", SAME),
    (at_blockade_start, "P0, before moving: set the anvil in a free gap between tiles (they stop "
     "turning) or leave the blockades as they are", SAME),
    (at_blockade_end, "P0, at the end of the turn: set the anvil in a free gap between tiles (they "
     "stop turning) or leave the blockades as they are", SAME),
    (at_drawn, "P0 drew a hat from the blue chip on D3: keep it, leave it on D3 or trade it with "
     f"the fairy {ROWS}", SAME),
    (at_token_item, f"P0 found an anvil on D3: keep it, leave it on D3 or trade it with the fairy "
     f"{ROWS}", SAME),
    (at_yellow, "P0 drew a hat from a yellow chip: place it on another tile with a yellow chip",
     SAME),
    (at_character, "P0 drew the Witch: fulfil the upper task (give a cross), the lower task (give "
     "a cross and a magic potion: 1 golden apple), or take the debt (its token stays on D3)",
     "P0 drew a character card face down: a task to fulfil, a debt to take or an ability to use"),
    (at_helper_card, "P0 drew the Prince: use the ability now (draw 3 items from the blue bag in "
     "secret and keep one) or lay the card out (its token stays on D3)",
     "P0 drew a character card face down: a task to fulfil, a debt to take or an ability to use"),
    (at_beggar_card, "P0 chose the Bandit with the Beggar: fulfil the upper task (give 2 copper), "
     "the lower task (give a sword and 2 copper: 1 golden apple), or take the debt (its token "
     "stays on D3)", "P0 chose a character card with the Beggar: a task to fulfil, a debt to take "
     "or an ability to use"),
    (at_meet, "P2 meets the Witch on D3: fulfil the upper task (give a cross) or the lower task "
     "(give a cross and a magic potion: 1 golden apple) (this settles P0's debt)", SAME),
    (at_well, "P0 at the well on B3: exchange 2 items for 2 copper, 3 copper for 1 silver, or 1 "
     "silver for a golden apple, or none", SAME),
    (at_well_give, "P0 gives the well 2 items for 2 copper: choose the first (jug or boot)", SAME),
    (at_merchant, "P0 meets the Merchant: sell him up to 3 items for 1 copper each (jug or boot), "
     "or buy a golden apple for 1 silver", SAME),
    (at_merchant_sold, "P0 has sold the Merchant 1 item: sell another (up to 3: boot) for 1 "
     "copper, or stop", SAME),
    (at_prince, "The Prince drew an anvil, a key and a hat for P0: keep one, the others go back",
     "P0 keeps one of the 3 items the Prince drew in secret"),
    (at_goblin_give, "P0 meets the Goblin: give him an item from the backpack (jug or boot), then "
     "take any other item but a coin token from the blue bag", SAME),
    (at_goblin_take, "P0 gave the Goblin a jug: take any other item but a coin token from the blue "
     "bag", SAME),
    (at_beggar, "P0 paid the Beggar 1 copper: choose a character card from the pile (3 cards) to "
     "meet at once", SAME),
    (at_unicorn, "The Unicorn carries P0: choose a free tile to stand on (it then turns); with the "
     "saddle, that tile's action may follow", SAME),
    (at_saddle, "P0 on F4 with the saddle: give the saddle back to deal with a key there, or keep "
     "the saddle", SAME),
    (at_spirit_place, "P1 places the Forest Spirit (P0 has 3 golden apples and no debts): choose "
     "a tile with a red chip", SAME),
    (at_coin_token, "P0 got a copper coin token: keep it as an item or exchange it for a copper "
     "coin from the supply", SAME),
    (at_chest, "P0 holds the treasure chest and the key, at the end of the turn: open the chest "
     "for a golden apple (both go back into the bag) or keep it closed", SAME),
]


@pytest.mark.parametrize(("build", "known", "other"), PROMPTS,
                         ids=[b.__name__[3:] for b, _, _ in PROMPTS])
def test_each_decision_is_a_sentence_naming_what_it_is_about(build, known, other):
    s = build()
    actor = s.current_player
    outsider = next(o for o in range(s.num_players) if o != actor)
    assert one_line(s.prompt(None)) == known and one_line(s.prompt(actor)) == known
    assert one_line(s.prompt(outsider)) == (known if other is SAME else other)
    for observer in (None, actor, outsider):
        assert all(len(line) <= WIDTH for line in s.prompt(observer).split("\n"))


def test_every_decision_kind_has_a_position_here():
    kinds = {phase(build()) for build, _, _ in PROMPTS}
    assert kinds == {k.name for k in DECISIONS}


def test_the_board_text_ends_with_the_prompt_and_the_game_over_line_names_the_winner():
    s = at_drawn()
    assert s.render(1).endswith("Now: P0 drew a hat from the blue chip on D3: keep it, leave it "
                                "on D3 or trade it\n  with the fairy (bottom row free, middle row "
                                "1 copper, top row 2 copper)")
    s = red_state("Forest Spirit", apples=3)
    act(s, "move to D3")
    assert s.is_terminal and s.prompt(0) is None
    assert one_line(s.render(1)).endswith("P0 met the Forest Spirit (on its token, or by its card "
                                          "drawn from a red chip or chosen with the Beggar) with 3 "
                                          "golden apples and no debts and won the Emerald Ring")


# --- consequences ----------------------------------------------------------------------------------
@pytest.mark.parametrize(("build", "move", "line"), [
    (at_turn, "pause", "pause: C3 turned clockwise"),
    (at_turn, "move to D3", "move to D3: D3 turned clockwise; a new red chip on C3"),
    (at_drawn, "keep the item", "keep the item: P0 kept the hat"),
    (at_drawn, "leave the item on the tile", "leave the item on the tile: P0 left the hat on D3"),
    (at_token_item, "keep the item", "keep the item: P0 took the anvil from D3"),
    (at_yellow, "choose tile F2", "choose tile F2: P0 placed the hat on F2"),
    (at_well, "well: 3 copper for 1 silver", "well: 3 copper for 1 silver: P0 -3 copper, +1 silver"),
    (at_merchant, "merchant: buy a golden apple for 1 silver",
     "merchant: buy a golden apple for 1 silver: P0 -1 silver, +1 golden apple"),
    (at_merchant, "give jug from the backpack",
     "give jug from the backpack: P0 sold the jug to the Merchant; P0 +1 copper"),
    (at_coin_token, "exchange the coin token for a coin from the supply",
     "exchange the coin token for a coin from the supply: P0 exchanged the copper coin token for "
     "1 copper"),
    (at_character, "take the debt",
     "take the debt: P0 is in debt to the Witch; the Witch's token now on D3"),
    (at_character, "fulfil the upper task",
     "fulfil the upper task: P0 fulfilled a task of the Witch; P0 handed over the cross"),
    (at_meet, "fulfil the lower task",
     "fulfil the lower task: P2 fulfilled a task of the Witch; P2 handed over the cross and the "
     "magic potion; P2 settled P0's debt to the Witch; the Witch left D3; P2 +1 golden apple"),
    (at_chest, "open the treasure chest with the key",
     "open the treasure chest with the key: P0 opened the treasure chest with the key; P0 +1 "
     "golden apple"),
    (at_blockade_start, "blockade: set the heavy item at gap B2/C3",
     "blockade: set the heavy item at gap B2/C3: P0 set the anvil as a blockade at B2/C3"),
    (at_unicorn, "choose tile F4", "choose tile F4: the Unicorn carried P0 to F4; F4 turned "
     "counter-clockwise; a new red chip on D3"),
    (at_spirit_place, "choose tile F4", "choose tile F4: the Forest Spirit appears on F4"),
])
def test_a_move_is_narrated_with_what_it_did(build, move, line):
    s = build()
    s.rng = np.random.default_rng(0)  # the refill chips of a move come from here
    assert one_line(narrated(s, move)) == line


def test_a_fairy_trade_names_both_tokens_the_row_and_the_new_top_row():
    s = at_drawn()
    set_bag(s, {"mushroom": 3})
    give_coins(s, 0, copper=2)
    text = narrated(s, "trade with the fairy: top row item 3")
    assert one_line(text) == (
        "trade with the fairy: top row item 3: P0 traded the hat for the stone; the rest of the "
        "top row went back into the bag; new fairy top row: mushroom, hat, mushroom; "
        "P0 -2 copper")   # the hat went into the bag before the top row was refilled


def test_a_win_by_the_forest_spirits_card_from_a_red_chip_is_said_in_the_log_and_the_views():
    """Rulebook, "Red colour chip" and "Meeting the Forest Spirit": a qualified player who
    draws the Forest Spirit's card meets the Spirit at once; every seat reads how."""
    s = red_state("Forest Spirit", apples=3)
    before = s.clone()
    act(s, "move to D3")
    a = s.game.string_to_action("move to D3")
    for seat in (None, 0, 1, 2):
        assert one_line(s.narrate(before, a, seat)) == (
            "move to D3: D3 turned clockwise; a new red chip on C3; P0 drew the Forest Spirit's "
            "card from the red chip on D3, with 3 golden apples and no debts: the Forest Spirit "
            "came at once: P0 gave 3 golden apples for the Emerald Ring and won")
        assert one_line(s.render(seat)).endswith(
            "P0 met the Forest Spirit (on its token, or by its card drawn from a red chip or "
            "chosen with the Beggar) with 3 golden apples and no debts and won the Emerald Ring")
        assert "P0 on D3: 0 copper, 0 silver, 0 golden apples, 2 compasses  WINNER" in s.render(seat)


def test_a_win_on_the_forest_spirits_token_and_by_the_beggar_say_so():
    s = at_turn()
    give_coins(s, 0, apples=3)
    s.cell_char[cell("D3")] = char("Forest Spirit")
    s.edited()
    assert one_line(narrated(s, "move to D3", 1)) == (
        "move to D3: D3 turned clockwise; a new red chip on C3; P0 met the Forest Spirit on D3; "
        "P0 gave 3 golden apples for the Emerald Ring and won")
    assert one_line(s.render(1)).endswith("and won the Emerald Ring")
    s = at_beggar()
    add_to_pile(s, "Forest Spirit")
    give_coins(s, 0, apples=3)
    assert one_line(narrated(s, "beggar: lead me to the Forest Spirit", 2)).endswith(
        "P0 chose the Forest Spirit's card with the Beggar, with 3 golden apples and no debts: "
        "P0 gave 3 golden apples for the Emerald Ring and won")


# --- hidden things stay unnamed ---------------------------------------------------------------------
def test_another_seats_card_is_not_named_in_prompts_or_narration():
    s = red_state("Devil", silver=1)
    before = s.clone()
    act(s, "move to D3")
    other = s.clone()
    other.drawn_card[0] = 0
    other.drawn_card[0, 4] = 1   # the Bandit instead
    a = s.game.string_to_action("move to D3")
    for seat in (1, 2):
        assert s.prompt(seat) == other.prompt(seat)
        assert s.narrate(before, a, seat) == other.narrate(before, a, seat)
        assert "Devil" not in s.prompt(seat) + s.narrate(before, a, seat)
    assert "drew the Devil" in s.narrate(before, a, 0) and "the Devil" in s.prompt(0)
    # the narration's line breaks do not tell which answers the card allows either
    assert move_columns(s, 1) == move_columns(other, 1) != move_columns(s, 0)
    fulfil = s.game.string_to_action("fulfil the upper task")
    after = s.clone()
    after.apply(fulfil)
    assert "Devil" not in after.narrate(s, fulfil, 1)
    assert "fulfilled a task of the Devil" in after.narrate(s, fulfil, 0)


def test_the_princes_draws_are_named_to_their_owner_only():
    s = at_helper_card()
    set_bag(s, {"hat": 1, "key": 1, "anvil": 1})
    before = s.clone()
    act(s, "use the ability")
    a = s.game.string_to_action("use the ability")
    assert one_line(s.narrate(before, a, 0)) == ("use the ability: the Prince drew an anvil, a key "
                                                 "and a hat for P0 in secret")
    for seat in (1, 2):
        text = s.narrate(before, a, seat) + s.prompt(seat) + s.render(seat)
        assert not any(name in text for name in ("anvil", "key", "hat")), text


# --- whole games --------------------------------------------------------------------------------------
KIND_NAMES = sorted(k.name for k in DECISIONS if "_" in k.name)


def texts_of_a_game(num_players: int, agents: str, seed: int, steps: int):
    """Every prompt and narration, for every observer, over ``steps`` actions of one game
    played through the env by random or heuristic agents; the end board too."""
    env = forest_envs.make("roundforest_v0", num_players=num_players, max_steps=steps)
    env.reset(seed=seed)
    make = HeuristicAgent if agents == "heuristic" else RandomAgent
    players = {name: make(seed + i) for i, name in enumerate(env.possible_agents)}
    observers = [None, *range(num_players)]
    for name in env.agent_iter():
        _, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        action = players[name].act(env, name)
        before = env.unwrapped.engine_state.clone()
        env.step(action)
        after = env.unwrapped.engine_state
        for o in observers:
            yield after.narrate(before, action, o)
            if not after.is_terminal:
                yield after.prompt(o)
                if o is not None and (after.drawn_card.any() or after.prince_items.any()):
                    # what the seat cannot see, redrawn, changes nothing it reads
                    other = after.resample_hidden(o, np.random.default_rng(o))
                    assert other.prompt(o) == after.prompt(o)
                    assert other.render(o) == after.render(o)
    yield env.unwrapped.engine_state.render(None)


@pytest.mark.parametrize(("num_players", "agents", "seed"), [(2, "random", 3), (3, "heuristic", 4),
                                                              (4, "random", 5)])
@pytest.mark.whole_games
def test_no_text_shows_an_internal_name_or_passes_80_columns(num_players, agents, seed):
    seen = 0
    for text in texts_of_a_game(num_players, agents, seed, steps=150):
        seen += 1
        for line in text.split("\n"):
            assert len(line) <= WIDTH, line
        assert not any(k in text for k in KIND_NAMES), text
        assert "Pending" not in text and "[" + "drawn]" not in text and "to decide" not in text
    assert seen > 300


def test_the_board_lines_fit_and_the_legend_names_every_label():
    from forest_envs.roundforest.components import CHARACTER_NAMES, ITEM_NAMES
    from forest_envs.roundforest.text.render import CHAR_LABELS, ITEM_LABELS, legend
    for n in (2, 3, 4):
        s = new_state(n, seed=1)
        for _ in range(60):
            s.apply(int(np.random.default_rng(s.turn).choice(s.legal_actions())))
        for seat in (None, 0):
            assert all(len(line) <= WIDTH for line in s.render(seat).split("\n"))
    s = new_state(4)
    set_backpack(s, 0, "treasure chest", "provision flask", "magic potion")
    s.debts[0, :6] = 1
    s.laid_out[6:11] = 1
    s.edited()
    lines = s.render(0).split("\n")
    assert all(len(line) <= WIDTH for line in lines)
    at = lines.index("   backpack: treasure chest, magic potion, provision flask; debts: Blacksmith,")
    assert lines[at + 1] == "       Innkeeper, Sculptor, Witch, Bandit, Devil"
    text = legend()
    assert all(len(line) <= WIDTH for line in text.split("\n"))
    text = one_line(text)
    short = [f"{lab} = {name}" for lab, name in zip(ITEM_LABELS + CHAR_LABELS,
                                                    ITEM_NAMES + CHARACTER_NAMES) if lab != name]
    for label in short + ["cw", "ccw", "##", "(blue)", "(yellow)", "(red)", "~well~", "12",
                          "lower case", "capitalised", "B3: row B, column 3"]:
        assert label in text, label


def test_a_tile_shows_its_exits_turning_piece_and_what_lies_there():
    s = at_turn()
    lines = s.render(None).split("\n")
    middle = next(i for i, line in enumerate(lines) if line.startswith("+C1"))
    col = 2 * 13   # C3: the third tile of its row, 13 columns a tile with its left border
    tile = [line[col:col + 14] for line in lines[middle:middle + 3]]
    # hook-1 as printed: north inner and outer, east outer, south inner, west closed; clockwise
    assert tile == ["+C3---12---P0+", "|           2|", "+cw---1------+"]
    d3 = [line[col:col + 14] for line in lines[middle + 3:middle + 6]]
    assert d3[0].startswith("+D3") and "(blue)" not in d3[1]  # the board is clear
    set_chip(s, "D3", BLUE)
    s.cell_item[cell("B3")] = item("anvil")
    s.cell_char[cell("C2")] = 3   # the Witch's token
    s.edited()
    text = s.render(None)
    assert "(blue)" in text and " anvil " in text and " Witch " in text and "~well~" in text


def test_render_rich_draws_the_same_table():
    from rich.console import Console
    s = at_drawn()
    console = Console(width=WIDTH, color_system=None, record=True, file=open("/dev/null", "w"))
    console.print(render_rich(s, 1))
    text = console.export_text()
    assert "P0 drew a hat from the blue chip on D3" in text
    assert "Fairy top row (2 copper):    anvil, barrel, stone" in text
    assert all(len(line) <= WIDTH for line in text.split("\n"))


# --- the moves as forest-envs play lists them (move_label) -------------------------------------------
def labels(s, seat=None) -> list[str]:
    seat = s.current_player if seat is None else seat
    return [s.move_label(a, seat) for a in s.legal_actions()]


def test_the_fairy_trade_names_the_item_it_gives_and_its_price():
    s = at_drawn()
    assert labels(s) == [
        "keep the hat", "leave the hat on D3",
        "trade with the fairy for the jug (bottom row item 1, free)",
        "trade with the fairy for the spoon (bottom row item 2, free)",
        "trade with the fairy for the boot (bottom row item 3, free)"]
    s = at_token_item()
    assert labels(s)[:3] == ["keep the anvil", "leave the anvil on D3",
                             "trade with the fairy for the copper coin token (bottom row item 1, free)"]


@pytest.mark.parametrize(("build", "expected"), [
    (at_coin_token, ["keep the copper coin token as an item",
                     "exchange the copper coin token for 1 copper from the supply"]),
    (at_yellow, ["put the hat on F2"]),
    (at_character, ["fulfil the upper task of the Witch: give a cross", "take the debt to the Witch"]),
    (at_helper_card, ["use the Prince's ability: draw 3 items from the blue bag in secret and keep one",
                      "lay the Prince out (its token stays here)"]),
    (at_meet, ["fulfil the upper task of the Witch: give a cross",
               "fulfil the lower task of the Witch: give a cross and a magic potion: 1 golden apple"]),
    (at_well_give, ["give the jug to the well", "give the boot to the well"]),
    (at_merchant, ["sell the jug to the Merchant for 1 copper", "sell the boot to the Merchant for 1 copper",
                   "merchant: buy a golden apple for 1 silver"]),
    (at_prince, ["keep the anvil", "keep the key", "keep the hat"]),
    (at_goblin_give, ["give the jug to the Goblin", "give the boot to the Goblin"]),
    (at_goblin_take, ["take the key from the blue bag", "take the hat from the blue bag"]),
    (at_saddle, ["give the saddle back to deal with a key on F4", "done: keep the saddle"]),
    (at_spirit_place, ["place the Forest Spirit on C3", "place the Forest Spirit on F4"]),
    (at_chest, ["done: keep the treasure chest closed", "open the treasure chest with the key"]),
])
def test_every_move_is_named_in_plain_words(build, expected):
    assert labels(build()) == expected


def test_blockade_moves_name_the_heavy_item_and_the_unicorn_its_ride():
    assert labels(at_blockade_start())[:2] == ["done: leave the blockades as they are",
                                               "blockade: set the anvil at gap A1/B2"]
    assert labels(at_unicorn())[0] == "ride the Unicorn to A2"


def test_another_seats_moves_are_named_as_that_seat_may_read_them():
    """The Prince's secret draws and a face-down card stay hidden in another seat's labels."""
    for build in (at_prince, at_character, at_helper_card):
        s = build()
        other = (s.current_player + 1) % s.num_players
        assert labels(s, other) == [s.describe_action(a, other) for a in s.legal_actions()]
    assert labels(at_prince(), 1) == ["prince: keep one of the items drawn"] * 3
