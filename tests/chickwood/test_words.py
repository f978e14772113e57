"""Chickwood Forest in words for people (issue 18): the sentence of every pending decision
(``state.prompt``), what each move did (``state.narrate``: a raid's loot, alms, glory, the
loot set aside at the round's end, the next round, the final scoring) and the board text,
each as the watching seat may know it."""

from __future__ import annotations

import re

import numpy as np
import pytest

import forest_envs
from forest_envs.agents import make_agent
from forest_envs.chickwood.components import VILLAGES
from forest_envs.chickwood.observation import DECISIONS
from forest_envs.chickwood.text.words import WIDTH

from .conftest import (
    F,
    act,
    cell,
    clear_castles,
    new_state,
    place_alms,
    scout_all,
    set_castle_cards,
    set_castles,
    set_collection,
    set_grid,
    set_hands,
)

SEATS = (None, 0, 1, 2)  # the referee and every seat of a 3-player game
# A grid with a forest between villages (the rulebook's first alms example).
GRID = ["Ashford", "Bramblewick", "Cinderholt", F, F, "Dunmere",
        "Elderbrook", "Foxmoor", "Greywater"]


def flat(text: str) -> str:
    """A text broken into lines of at most ``WIDTH`` columns (checked) as the one line it
    says: the sentences below are pinned whole, whatever the terminal's width."""
    assert all(len(line) <= WIDTH for line in text.splitlines()), text
    return re.sub(r"\n +", " ", text)


def prompts(state) -> dict:
    return {seat: flat(state.prompt(seat)) for seat in SEATS}


def narrations(state, name: str) -> dict:
    """Play the action called ``name``; its narration for the referee and every seat."""
    before = state.clone()
    action = state.game.string_to_action(name)
    state.apply(action)
    return {seat: flat(state.narrate(before, action, seat)) for seat in SEATS}


def same_for_all(texts: dict) -> str:
    assert len(set(texts.values())) == 1, texts
    return texts[None]


# --- positions ----------------------------------------------------------------------------------
def scouting():
    """Castles 4, 1, 2: order P1 (banner UUU), P2 (UUD), P0 (UDD)."""
    s = new_state(3, seed=0)
    set_castles(s, [4, 1, 2])
    set_hands(s, {0: {"violet ring": 1, "gold chest": 2}, 1: {"silver chest": 3},
                  2: {"ruby chest": 2, "henchman": 1}})
    return s


def legendary(values=(4, 1, 2), **collections):
    s = new_state(3, legendary=True, seed=0)
    set_castles(s, list(values))
    for p in range(3):
        set_collection(s, p, collections.get(f"p{p}", {}))
    return s


def spying():
    """P1 holds the spy glass; at castle 4 lie P2's ruby chest and P0's henchman face down,
    at castle 3 P0's violet ring face down."""
    s = legendary(p1={"spy glass": 1})
    set_hands(s, {0: {"gold chest": 1, "violet ring": 1, "henchman": 1},
                  1: {"silver chest": 3}, 2: {"ruby chest": 3}})
    act(s, "play silver chest to castle 1", "play ruby chest to castle 2",
        "play gold chest to castle 3", "play silver chest to castle 1",
        "play ruby chest to castle 2", "play violet ring to castle 3",
        "play silver chest to castle 3", "play ruby chest to castle 4",
        "play henchman to castle 4")
    return s


def raiding():
    """Castles 1, 2, 3 (order P0, P1, P2) and the first alms example's grid; castle 3 holds
    a gold chest and a benefactor 2 face up and P1's benefactor 3 face down."""
    s = new_state(3, seed=0)
    set_castles(s, [1, 2, 3])
    set_hands(s, {p: {"gold chest": 3} for p in range(3)})
    scout_all(s)
    clear_castles(s)
    set_grid(s, GRID)
    set_castle_cards(s, 3, face_up={"gold chest": 1, "benefactor 2": 1},
                     face_down={1: {"benefactor 3": 1}})
    return s


def game_end(**collections):
    """The last round of a Legendary game with empty castles: the raids end the game."""
    s = legendary((1, 2, 3))
    set_hands(s, {p: {"gold chest": 3} for p in range(3)})
    scout_all(s)
    clear_castles(s)
    s.deck = s.deck[:0]
    for p in range(3):
        set_collection(s, p, collections.get(f"p{p}", {}))
    set_grid(s, ["Ashford", "Elderbrook", F, F, "Bramblewick", "Cinderholt",
                 "Dunmere", "Foxmoor", "Greywater"])
    return s


# --- every decision kind as a sentence ---------------------------------------------------------
def test_scouting_names_the_play_and_the_hand_only_to_its_owner():
    s = scouting()
    assert prompts(s) == {
        None: "P1 scouts, card 1 of 3, face up: play silver chest to any castle",
        0: "P1 scouts, card 1 of 3, face up: play one of 3 hand cards to any castle",
        1: "P1 scouts, card 1 of 3, face up: play silver chest to any castle",
        2: "P1 scouts, card 1 of 3, face up: play one of 3 hand cards to any castle"}
    act(s, "play silver chest to castle 1", "play ruby chest to castle 1")  # castle 1 is full
    act(s, "play gold chest to castle 3", "play silver chest to castle 3", "play henchman to castle 3")
    mine = "P0 scouts, card 2 of 3, face down: play gold chest or violet ring to castle 2, 3 or 4"
    theirs = "P0 scouts, card 2 of 3, face down: play one of 2 hand cards to castle 2, 3 or 4"
    assert prompts(s) == {None: mine, 0: mine, 1: theirs, 2: theirs}


def test_spy_glass_prompt_names_the_castles_with_others_secrets():
    s = spying()
    assert same_for_all(prompts(s)) == ("P1 looks with the spy glass at the face-down cards at "
                                        "one castle: castle 3 or 4")


def test_raid_prompt_names_the_open_castles_and_the_key_block():
    s = game_end(p2={"key": 1})
    assert same_for_all(prompts(s)) == ("P0 raids a castle not raided this round and takes its "
                                        "loot: castle 1, 2, 3 or 4")
    act(s, "raid castle 4")
    assert same_for_all(prompts(s)) == ("P2 may use the key: P0 chose to raid castle 4; force P0 "
                                        "to choose another castle, or pass")
    assert same_for_all(narrations(s, "key: force another castle")) == (
        "key: force another castle: the key goes to the box: P0 chooses another castle")
    assert same_for_all(prompts(s)) == ("P0 must raid another castle (the key blocks castle 4): "
                                        "castle 1, 2 or 3")


def test_alms_prompts_name_the_villages_the_snake_may_go_to():
    s = raiding()
    act(s, "raid castle 3")
    assert same_for_all(prompts(s)) == ("P0 gives 5 alms, one a village, each next to the last: "
                                        "the first to any village with a free space")
    act(s, "alms r3c2")
    assert same_for_all(prompts(s)) == ("P0 gives alms (4 more): next to r3c2 Foxmoor, to r3c1 "
                                        "Elderbrook or r3c3 Greywater")


def test_travelling_entertainers_prompts_name_the_first_alms():
    s = game_end(p0={"travelling entertainers": 1})
    place_alms(s, cell("r1c1"), [1, 1])
    place_alms(s, cell("r1c2"), [0])
    act(s, "raid castle 1", "raid castle 2", "raid castle 3")
    assert same_for_all(prompts(s)) == ("P0 may swap two alms of different players with the "
                                        "travelling entertainers: pick the first, or pass")
    act(s, "entertainers: alms r1c1 space 2")
    assert same_for_all(prompts(s)) == ("P0 swaps P1's alms at r1c1 Ashford (space 2) with "
                                        "another player's alms: pick it")


def test_golden_arrow_prompts_name_the_treasures_and_the_opponents():
    s = game_end(p1={"golden arrow": 1, "gold chest": 2}, p2={"violet ring": 1},
                 p0={"silver armor": 1})
    act(s, "raid castle 1", "raid castle 2", "raid castle 3")
    assert same_for_all(prompts(s)) == ("P1 may use the golden arrow to swap a treasure with an "
                                        "opponent: give gold chest, or pass")
    act(s, "golden arrow: give gold chest")
    assert same_for_all(prompts(s)) == ("P1 gives gold chest with the golden arrow: take a "
                                        "treasure from P2 (+1) or P0 (+2)")


def test_fake_beard_prompt_names_the_opponents_by_seat_and_relative_place():
    s = game_end(p0={"fake beard": 1, "henchman": 2})
    act(s, "raid castle 1", "raid castle 2", "raid castle 3")
    assert same_for_all(prompts(s)) == ("P0 may give a henchman to P1 (+1) or P2 (+2) with the "
                                        "fake beard, or pass")


def test_the_game_over_has_no_prompt():
    s = game_end()
    act(s, "raid castle 1", "raid castle 2", "raid castle 3")
    assert s.is_terminal and s.prompt(0) is None


# --- what each move did --------------------------------------------------------------------------
def test_a_raid_names_its_loot_castle_card_alms_and_glory():
    s = raiding()
    # P1's face-down benefactor is laid face up by the raider (rulebook "Steal the Loot")
    assert same_for_all(narrations(s, "raid castle 3")) == (
        "raid castle 3: P0 takes castle card 3 and gold chest, benefactor 2, benefactor 3; "
        "5 alms to give; glory now P0 5 (+4)")


def test_alms_name_the_village_the_space_and_the_glory_they_unlock():
    s = raiding()
    act(s, "raid castle 3", "alms r3c2")
    assert same_for_all(narrations(s, "alms r3c3")) == (
        "alms r3c3: P0's alms goes to Greywater, space 1")  # a row printing no glory
    assert same_for_all(narrations(s, "alms r2c3")) == (
        "alms r2c3: P0's alms goes to Dunmere, space 1")
    assert same_for_all(narrations(s, "alms r1c3")) == (
        "alms r1c3: P0's alms goes to Cinderholt, space 1, unlocking its row's glory 9; "
        "glory now P0 20 (+9)")


def test_a_snake_that_cannot_go_on_says_how_many_alms_stay():
    s = raiding()
    act(s, "raid castle 3", "alms r3c2")
    assert same_for_all(narrations(s, "alms r3c1")) == (
        "alms r3c1: P0's alms goes to Elderbrook, space 1, unlocking its row's glory 4; "
        "3 alms stay in P0's store: no village next to it to give to; glory now P0 15 (+4)")


def test_the_round_end_names_the_set_aside_cards_as_each_seat_knows_them():
    s = new_state(3, seed=0)
    set_castles(s, [4, 1, 2])  # order P1, P2, P0 (banner UDD)
    set_hands(s, {0: {"violet ring": 1, "gold chest": 2}, 1: {"silver chest": 3},
                  2: {"ruby chest": 3}})
    act(s, "play silver chest to castle 4", "play ruby chest to castle 3",
        "play gold chest to castle 3", "play silver chest to castle 3",
        "play ruby chest to castle 3", "play violet ring to castle 4",   # face down
        "play silver chest to castle 3", "play ruby chest to castle 3", "play gold chest to castle 3")
    act(s, "raid castle 1", "raid castle 2")
    said = narrations(s, "raid castle 3")
    start = ("raid castle 3: P0 takes castle card 3 and gold chest x2, silver chest x2, ruby chest "
             "x3; glory now P0 12 (+8); round 1 ends; unraided castle 4, set aside face up: "
             "silver chest; face down: ")
    end = "; round 2 of 8, 3 cards each (57 left in the deck): turn order P1, P2, P0"
    assert said == {None: start + "P0's violet ring" + end, 0: start + "P0's violet ring" + end,
                    1: start + "1 card of P0" + end, 2: start + "1 card of P0" + end}


def test_the_spy_sees_the_cards_and_knows_them_when_they_are_set_aside():
    s = spying()
    assert narrations(s, "spy castle 4") == {
        None: "spy castle 4: P1 sees P0's henchman, P2's ruby chest",
        0: "spy castle 4", 1: "spy castle 4: P1 sees ruby chest and henchman", 2: "spy castle 4"}
    act(s, "raid castle 1", "raid castle 2")
    said = narrations(s, "raid castle 3")
    start = ("raid castle 3: P0 takes castle card 3 and gold chest, silver chest, violet ring; "
             "glory now P0 11 (+7); round 1 ends")
    end = "; round 2 of 8, 3 cards each (58 left in the deck): turn order P1, P2, P0"
    aside = "; unraided castle 4, set aside face down: "
    assert said == {
        None: start + aside + "P0's henchman, P2's ruby chest" + end,
        0: start + aside + "P0's henchman, 1 card of P2" + end,
        1: start + "; unraided castle 4, set aside face down: the others' ruby chest and "
                   "henchman (seen with the spy glass)" + end,
        2: start + aside + "1 card of P0, P2's ruby chest" + end}


def test_the_game_end_the_end_cards_and_the_final_scoring():
    s = game_end(p0={"travelling entertainers": 1})
    place_alms(s, cell("r1c1"), [1, 1])
    place_alms(s, cell("r1c2"), [0])
    act(s, "raid castle 1", "raid castle 2")
    assert same_for_all(narrations(s, "raid castle 3")) == (
        "raid castle 3: P2 takes castle card 3 and no loot; glory now P2 6 (+3); "
        "round 1 ends; no loot was left at the castles; "
        "the deck cannot deal another round: the game ends; "
        "the Legendary cards act before the final scoring")
    act(s, "entertainers: alms r1c2 space 1")
    assert same_for_all(narrations(s, "entertainers: alms r1c1 space 2")) == (
        "entertainers: alms r1c1 space 2: P1's alms at r1c1 Ashford (space 2) and P0's at r1c2 "
        "Elderbrook (space 1) swap places; final glory P0 5, P1 8, P2 6: P1 wins")


def test_golden_arrow_and_fake_beard_name_what_changed_hands():
    s = game_end(p1={"golden arrow": 1, "gold chest": 2, "fake beard": 1, "henchman": 1},
                 p2={"violet ring": 1})
    act(s, "raid castle 1", "raid castle 2", "raid castle 3", "golden arrow: give gold chest")
    assert same_for_all(narrations(s, "golden arrow: take violet ring from +1")) == (
        "golden arrow: take violet ring from +1: P1 gives gold chest to P2 and takes violet ring; "
        "glory now P1 6 (+1), P2 7 (-3)")
    assert same_for_all(narrations(s, "fake beard: give henchman to +2")) == (
        "fake beard: give henchman to +2: P0 takes P1's henchman; "
        "final glory P0 -1, P1 9, P2 7: P1 wins")


# --- the board -------------------------------------------------------------------------------------
def test_the_board_shows_village_names_whole_and_the_legend_keys_every_code():
    s = raiding()
    place_alms(s, cell("r1c2"), [1, 2])
    board = s.render(0)
    for name in GRID:
        if name != F:
            assert name in board
    rows = [line for line in board.splitlines() if line.startswith("  r")]
    at = board.splitlines().index(rows[0])
    # The grid as it lies, each cell on two lines: its name and card, then the card's rows.
    assert board.splitlines()[at:at + 6] == [
        "  r1c1 Ashford      r1c2 Bramblewick  r1c3 Cinderholt",
        "  3:.. 6:..         2:12 4:.. 8:..    9:. 5:. 2:..",
        "  r2c1 forest       r2c2 forest       r2c3 Dunmere",
        "  ~forest~          ~forest~          -:... 10:.. 5:..",
        "  r3c1 Elderbrook   r3c2 Foxmoor      r3c3 Greywater",
        "  4:.. 7:..         6:. 3:.. 1:..     -:.... 12:.. 6:."]
    assert flat(board.splitlines()[at - 2] + "\n" + board.splitlines()[at - 1]) == (
        "Villages: each card row as glory:spaces; - no glory, . free, a digit: that seat's "
        "alms")
    # the pending decision last, right above a list of moves
    assert board.splitlines()[0] == "Chickwood Forest: round 1 of 8, deck 66, P0 to move"
    assert board.splitlines()[-2:] == [
        "Now: P0 raids a castle not raided this round and takes its loot: castle 1, 2, 3",
        "    or 4"]
    legend = s.render_legend()
    for code in ("round r of n", "P0, P1", "(you)", "pile", "holds n", "P1 x2", "banner UDD",
                 "alms, hand", "castle cards", "raided", "glory", "x2", "r1c2",
                 "r1c2 Dunmere", "-:... 10:.. 5:..", "- none", ". free", "~forest~"):
        assert code in legend, code
    for text in (board, legend):
        assert max(len(line) for line in text.splitlines()) <= WIDTH


def test_no_village_name_is_cut_on_any_board():
    assert all(len(v.name) > 6 for v in VILLAGES)  # the old board cut them to 6 letters
    s = new_state(3, seed=5)
    board = s.render(None)
    for g in s.grid:
        if g >= 0:
            assert f" {VILLAGES[g].name}\n" in board or f" {VILLAGES[g].name}  " in board


# --- over whole games --------------------------------------------------------------------------------
INTERNAL = re.compile(r"_|to decide|P\d to (" + "|".join(d.name for d in DECISIONS) + r")\b")


def _check_texts(texts: list[str]) -> None:
    for text in texts:
        assert not INTERNAL.search(text), text
        assert all(len(line) <= WIDTH for line in text.splitlines()), text


@pytest.mark.parametrize(("num_players", "legendary", "agent", "seed"),
                         [(3, True, "heuristic", 1), (5, True, "random", 2), (2, False, "random", 3)])
@pytest.mark.whole_games
def test_whole_games_say_no_internal_name_and_stay_within_the_width(num_players, legendary,
                                                                    agent, seed):
    env = forest_envs.make("chickwood_v0", num_players=num_players, legendary=legendary)
    env.reset(seed=seed)
    agents = [make_agent("chickwood_v0", agent, seed=seed * 10 + p) for p in range(num_players)]
    state = env.unwrapped.engine_state
    seats = (None, *range(num_players))
    kinds = set()
    while not state.is_terminal:
        kinds.add(state.decision_name())
        action = agents[state.current_player].act(env, env.agent_selection)
        before = state.clone()
        _check_texts([before.prompt(seat) for seat in seats])
        env.step(action)
        state = env.unwrapped.engine_state
        _check_texts([state.narrate(before, action, seat) for seat in seats])
    _check_texts([state.render(seat) for seat in seats])
    assert {"scout", "raid", "alms"} <= kinds


# A raid lays its loot face up for all and the spy glass shows its holder the cards: these
# moves tell a seat what it did not know, so their words may differ between determinizations.
REVEALING = ("raid", "key", "spy")


@pytest.mark.whole_games
def test_prompts_and_narrations_do_not_depend_on_what_the_seat_cannot_know():
    """A seat reads the same words in every state it cannot tell from the real one (the
    move's words too, unless the move reveals cards)."""
    rng = np.random.default_rng(4)
    checked = 0
    for seed in range(2):
        state = new_state(3, legendary=True, seed=seed)
        while not state.is_terminal:
            action = int(rng.choice(state.legal_actions()))
            for seat in range(3):
                other = state.resample_hidden(seat, np.random.default_rng(checked))
                assert other.prompt(seat) == state.prompt(seat)
                if state.decision_name() not in REVEALING and action in other.legal_actions():
                    here, there = state.clone(), other.clone()
                    here.apply(action)
                    there.apply(action)
                    assert there.narrate(other, action, seat) == here.narrate(state, action, seat)
                    checked += 1
            state.apply(action)
    assert checked > 200

