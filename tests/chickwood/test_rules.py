"""Chickwood Forest rules: setup, scouting, raiding, alms, round end, the exhausted castle
pile, the Legendary variant, returns and the JSON round trip. Each test asserts the values
the rulebook (or rules/README.md) fixes, so that breaking the rule breaks the test."""

from __future__ import annotations

import json

import numpy as np
import pytest

from forest_envs.chickwood import actions as A
from forest_envs.chickwood.components import (
    ALMS_PER_PLAYER,
    CASTLE_CARDS,
    DAY_BANNERS,
    FOREST,
    KEY,
    LEGENDARY_REMOVED,
    LOOT_COUNTS,
    NIGHT_BANNERS,
    NO_CARD,
    NUM_KINDS,
    SPY_GLASS,
    VILLAGES,
    banners,
    deck_composition,
)
from forest_envs.chickwood.observation import DECISIONS, Kind
from forest_envs.chickwood.rules import ChickwoodGame, ChickwoodState, SecretDiscard
from forest_envs.core.errors import IllegalActionError
from forest_envs.core.results import competition_ranks, returns_from_ranks

from .conftest import (
    F,
    act,
    balance_cards,
    cell,
    clear_castles,
    counts,
    fill_cell,
    kind,
    legal_names,
    new_state,
    obs_block,
    phase,
    place_alms,
    play_random,
    scout_all,
    set_castle_cards,
    set_castles,
    set_collection,
    set_grid,
    set_hands,
)

DECK_SIZE = {2: 52, 3: 75, 4: 75, 5: 90}
ROUNDS = {2: 6, 3: 8, 4: 6, 5: 6}


def castle_of(state, p: int) -> int:
    return int(state.player_castle[p].argmax()) + 1


def finish_alms(state) -> None:
    while phase(state) == "alms":
        state.apply(state.legal_actions()[0])


# =========================================================================================
# Setup
# =========================================================================================
@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_deck_composition_by_player_count(n):
    comp = deck_composition(n, legendary=False)
    for k, c in LOOT_COUNTS.items():
        expected = c.total
        if n != 5:
            expected -= c.five_player      # 5-player cards only with five players
        if n == 2:
            expected -= c.two_player       # 2-player cards out with two players
        assert comp[k] == expected
    assert sum(comp) == DECK_SIZE[n]
    assert comp[SPY_GLASS:] == [0] * 5     # Legendary cards stay in the box
    s = new_state(n, seed=3)
    dealt = s.hand.sum(axis=0)                  # the deck: every card, the first hands dealt
    assert np.array_equal(np.bincount(s.deck, minlength=NUM_KINDS) + dealt, comp)
    assert np.array_equal(s.card_totals(), comp)


def test_five_players_use_every_loot_card():
    assert deck_composition(5, False)[:17] == [LOOT_COUNTS[k].total for k in range(17)]
    assert sum(c.total for c in LOOT_COUNTS.values()) == 90


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_legendary_swaps_three_jewels_and_a_henchman_for_five_legendary_cards(n):
    base = np.array(deck_composition(n, False))
    leg = np.array(deck_composition(n, True))
    diff = leg - base
    assert sorted(LEGENDARY_REMOVED) == [8, 9, 10, kind("henchman")]
    assert diff[[8, 9, 10, kind("henchman")]].tolist() == [-1, -1, -1, -1]
    assert diff[SPY_GLASS:].tolist() == [1] * 5
    assert np.count_nonzero(diff) == 9
    s = new_state(n, legendary=True, seed=1)
    assert len(s.deck) + s.hand.sum() == DECK_SIZE[n] + 1


@pytest.mark.parametrize("n, hand", [(2, 4), (3, 3), (4, 3), (5, 3)])
def test_hand_sizes(n, hand):
    s = new_state(n, seed=2)
    assert s.hand.sum(axis=1).tolist() == [hand] * n
    assert s.hand_count.tolist() == [hand] * n
    assert len(s.deck) == DECK_SIZE[n] - n * hand
    assert s.deck_left[0] == DECK_SIZE[n] - n * hand


@pytest.mark.parametrize("seed", range(4))
def test_two_player_grid_is_two_rows_of_five_villages_and_a_forest(seed):
    s = new_state(2, seed=seed)
    top = list(s.grid[:6])
    assert list(s.grid[6:]) == [NO_CARD] * 3
    assert top.count(FOREST) == 1
    villages = sorted(g for g in top if g >= 0)
    assert villages == [i for i, v in enumerate(VILLAGES) if not v.two_player]
    assert len(villages) == 5
    assert s.cell_spaces[6:].tolist() == [0, 0, 0]
    assert s.cell_spaces[:6].tolist() == [VILLAGES[g].spaces if g >= 0 else 0 for g in top]


@pytest.mark.parametrize("n", [3, 4, 5])
def test_grid_is_three_by_three_with_seven_villages_and_two_forests(n):
    s = new_state(n, seed=n)
    assert sorted(s.grid) == [FOREST, FOREST] + list(range(7))
    assert (s.cell_card.sum(axis=1) == 1).all()


def test_grid_is_shuffled():
    assert len({new_state(3, seed=seed).grid for seed in range(10)}) > 5


@pytest.mark.parametrize("n, values, side", [
    (2, (1, 2, 3), NIGHT_BANNERS), (3, (1, 2, 3, 4), DAY_BANNERS),
    (4, (1, 2, 3, 4, 5), DAY_BANNERS), (5, (1, 2, 3, 4, 5, 6), DAY_BANNERS)])
def test_castle_piles(n, values, side):
    s = new_state(n, seed=7)
    assert s.game.castle_values == values
    assert np.flatnonzero(s.castle_in_play).tolist() == [v - 1 for v in values]
    assert banners(n) is side
    held = s.castles_held.sum(axis=0)
    for v in range(1, 7):
        if v in values:
            assert s.pile_left[v - 1] + held[v - 1] == CASTLE_CARDS[v]
        else:
            assert s.pile_left[v - 1] == 0 and held[v - 1] == 0
    for p in range(n):  # each player's banner is the one of his castle on this side
        b = side[castle_of(s, p)]
        assert s.banner[p, :len(b)].tolist() == [int(ch == "D") for ch in b]
    assert sum(CASTLE_CARDS.values()) == 50


def test_banners_given_by_the_rules():
    assert DAY_BANNERS[4] == "UDD"
    assert DAY_BANNERS[1] == "UUU"
    assert all(len(b) == 3 for b in DAY_BANNERS.values())
    assert all(len(b) == 4 for b in NIGHT_BANNERS.values())


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_start_castles_one_of_each_value_spare_stays_on_pile(n):
    values = set(new_state(n).game.castle_values)
    spares, firsts = set(), set()
    for seed in range(40):
        s = new_state(n, seed=seed)
        start = [castle_of(s, p) for p in range(n)]
        assert len(set(start)) == n and set(start) <= values
        assert s.castles_held.sum() == n and s.castles_held.sum(axis=1).tolist() == [1] * n
        (spare,) = values - set(start)
        assert s.pile_left[spare - 1] == CASTLE_CARDS[spare]          # spare went back
        for v in start:
            assert s.pile_left[v - 1] == CASTLE_CARDS[v] - 1          # dealt ones left
        spares.add(spare)
        firsts.add(s.current_player)
        # turn order: ascending castle values, lowest starts
        assert [castle_of(s, p) for p in s.order] == sorted(start)
        assert s.current_player == s.order[0]
        assert [int(s.order_pos[p].argmax()) for p in s.order] == list(range(n))
    assert spares == values             # dealt at random
    assert firsts == set(range(n))


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_fifteen_alms_each(n):
    assert new_state(n).alms_left.tolist() == [ALMS_PER_PLAYER] * n == [15] * n


def test_same_seed_same_game_different_seeds_differ():
    a, b = new_state(4, seed=42), new_state(4, seed=42)
    assert a.to_dict() == b.to_dict()
    rng_a, rng_b = np.random.default_rng(9), np.random.default_rng(9)
    play_random(a, rng_a)
    play_random(b, rng_b)
    assert a.to_dict() == b.to_dict()
    assert a.scores() == b.scores()
    c = new_state(4, seed=43)
    assert not np.array_equal(c.deck, new_state(4, seed=42).deck)


# =========================================================================================
# Scouting
# =========================================================================================
@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_scouting_cycles_through_turn_order(n):
    s = new_state(n, seed=5)
    h = s.game.hand_size
    movers = []
    while phase(s) == "scout":
        movers.append(s.current_player)
        assert s.banner_pos.tolist().index(1) == s.step // n
        s.apply(s.legal_actions()[0])
    assert movers == list(s.order) * h
    assert s.hand.sum() == 0 and s.castle_cards.sum() == n * h


@pytest.mark.parametrize("n", [2, 3, 4, 5])
@pytest.mark.parametrize("seed", range(3))
def test_face_up_or_down_follows_the_banner(n, seed):
    s = new_state(n, seed=seed)
    target = s.game.castle_values[-1] - 1
    plays = {p: [] for p in range(n)}
    while phase(s) == "scout":
        p = s.current_player
        before_fd = int(s.castle_fd_count[target, p])
        k = int(np.flatnonzero(s.hand[p])[0])
        s.apply(A.PLAY.id(k, target))
        down = int(s.castle_fd_count[target, p]) - before_fd
        plays[p].append("D" if down else "U")
        assert s.fd_own[p, target, k] >= down
    for p in range(n):
        assert "".join(plays[p]) == banners(n)[castle_of(s, p)]


def scout_position(values=(4, 1, 2)):
    """3 players holding castles 4, 1, 2: order P1 (UUU), P2 (UUD), P0 (UDD)."""
    s = new_state(3, seed=0)
    set_castles(s, list(values))
    return s


def test_castle_4_plays_up_down_down_and_castle_1_all_up():
    s = scout_position()
    assert s.order == (1, 2, 0)
    set_hands(s, {0: {"gold chest": 3}, 1: {"silver chest": 3}, 2: {"ruby chest": 3}})
    for _ in range(3):
        act(s, "play silver chest to castle 3", "play ruby chest to castle 3",
            "play gold chest to castle 3")
    c3 = 2
    assert s.fd_own[0, c3, kind("gold chest")] == 2          # castle 4: up, down, down
    assert s.castle_faceup[c3, kind("gold chest")] == 1
    assert s.castle_faceup[c3, kind("silver chest")] == 3    # castle 1: all up
    assert s.fd_own[1, c3].sum() == 0
    assert s.fd_own[2, c3, kind("ruby chest")] == 1          # castle 2 (reconstructed UUD)
    assert s.castle_fd_count[c3].tolist() == [2, 0, 1]
    assert s.castle_cards[c3] == 9


def test_banner_is_that_of_the_current_castle():
    s = scout_position((1, 2, 3))
    assert s.order == (0, 1, 2)
    set_hands(s, {p: {"gold chest": 3} for p in range(3)})
    scout_all(s)
    act(s, "raid castle 4", "raid castle 1", "raid castle 2")    # P0 now holds castle 4
    assert phase(s) == "scout" and s.round_no[0] == 2
    assert [castle_of(s, p) for p in range(3)] == [4, 1, 2]
    assert s.order == (1, 2, 0)                                 # ascending new castles
    assert s.banner[0, :3].tolist() == [0, 1, 1]                # castle 4: U D D
    assert s.banner[1, :3].tolist() == [0, 0, 0]


def test_castle_1_takes_at_most_two_cards_castle_2_three():
    s = scout_position((1, 2, 3))
    set_hands(s, {p: {"gold chest": 3} for p in range(3)})
    act(s, "play gold chest to castle 1", "play gold chest to castle 1")
    assert not s.legal_action_mask()[A.PLAY.start:A.PLAY.stop].reshape(NUM_KINDS, 6)[:, 0].any()
    with pytest.raises(IllegalActionError, match="maximum of 2"):
        act(s, "play gold chest to castle 1")
    act(s, "play gold chest to castle 2", "play gold chest to castle 2",
        "play gold chest to castle 2")
    assert not s.legal_action_mask()[A.PLAY.id(kind("gold chest"), 1)]
    with pytest.raises(IllegalActionError, match="maximum of 3"):
        act(s, "play gold chest to castle 2")
    act(s, "play gold chest to castle 3", "play gold chest to castle 3",
        "play gold chest to castle 3", "play gold chest to castle 3")   # no limit at 3
    assert s.castle_cards[:4].tolist() == [2, 3, 4, 0]


def test_castle_limits_count_face_down_cards_too():
    s = scout_position((4, 1, 2))   # P1, P2, P0(UDD)
    set_hands(s, {0: {"gold chest": 3}, 1: {"silver chest": 3}, 2: {"ruby chest": 3}})
    act(s, "play silver chest to castle 3", "play ruby chest to castle 3",
        "play gold chest to castle 1", "play silver chest to castle 3",
        "play ruby chest to castle 3", "play gold chest to castle 1")   # 2nd one face down
    assert s.castle_cards[0] == 2 and s.fd_own[0, 0].sum() == 1
    act(s, "play silver chest to castle 3", "play ruby chest to castle 3")
    with pytest.raises(IllegalActionError):
        act(s, "play gold chest to castle 1")


def test_unknown_castle_and_card_not_in_hand_are_illegal():
    s = scout_position((1, 2, 3))
    set_hands(s, {p: {"gold chest": 3} for p in range(3)})
    with pytest.raises(IllegalActionError, match="castle 5 is not in this game"):
        act(s, "play gold chest to castle 5")
    with pytest.raises(IllegalActionError, match="not in the player's hand"):
        act(s, "play violet ring to castle 3")
    with pytest.raises(IllegalActionError, match="pending decision is 'scout'"):
        act(s, "raid castle 3")
    assert s.step == 0 and s.hand[0, kind("gold chest")] == 3


def face_down_position(secret: str):
    """P0 (castle 4) plays ``secret`` face down at castle 3 on his second turn."""
    s = scout_position()
    set_hands(s, {0: {"gold chest": 1, secret: 1, "henchman": 1},
                  1: {"silver chest": 3}, 2: {"ruby chest": 3}})
    act(s, "play silver chest to castle 4", "play ruby chest to castle 4",
        "play gold chest to castle 4", "play silver chest to castle 4",
        "play ruby chest to castle 4", f"play {secret} to castle 3")
    return s


def test_face_down_card_is_seen_only_by_its_owner():
    a, b = face_down_position("violet ring"), face_down_position("bronze bracelet")
    c3 = 2
    assert a.fd_own[0, c3, kind("violet ring")] == 1 and a.castle_faceup[c3].sum() == 0
    # the owner sees it, in his observation and his view
    assert obs_block(a, 0, "fd_own")[c3, kind("violet ring")] == 1
    assert a.view(0)["castles"][3]["my_face_down"] == counts({"violet ring": 1}).tolist()
    assert not np.array_equal(a.observation(0), b.observation(0))
    for seat in (1, 2):
        # the others see that P0 has one face-down card there, but not which
        # (columns rotated: observer first, so P0 is column (0 - seat) % 3)
        assert obs_block(a, seat, "castle_fd_count")[c3].tolist() == \
            [int((seat + j) % 3 == 0) for j in range(3)]
        assert obs_block(a, seat, "fd_own").sum() == 0
        assert np.array_equal(a.observation(seat), b.observation(seat))
        assert a.view(seat) == b.view(seat)         # the view tells the two apart neither
        assert a.view(seat)["castles"][3]["face_down_by"] == [1, 0, 0]
        assert sum(a.view(seat)["castles"][3]["my_face_down"]) == 0
    # once raided it is part of the raider's collection, open to all
    finish = ["play silver chest to castle 4", "play ruby chest to castle 4",
              "play henchman to castle 4"]
    act(a, *finish)
    act(a, "raid castle 3")            # P1 raids first
    assert a.collection[1, kind("violet ring")] == 1
    assert all(obs_block(a, seat, "collection")[(1 - seat) % 3, kind("violet ring")] == 1
               for seat in range(3))


def test_describe_action_hides_a_face_down_play_from_the_others_only():
    s = scout_position()             # order P1 (UUU), P2 (UUD), P0 (UDD)
    set_hands(s, {0: {"gold chest": 1, "violet ring": 1, "henchman": 1},
                  1: {"silver chest": 3}, 2: {"ruby chest": 3}})
    act(s, "play silver chest to castle 4", "play ruby chest to castle 4")
    up = s.game.string_to_action("play gold chest to castle 3")
    assert s.current_player == 0     # P0's first play: face up, nothing to hide
    for observer in (None, 0, 1, 2):
        assert s.describe_action(up, observer) == "play gold chest to castle 3"
    act(s, "play gold chest to castle 3", "play silver chest to castle 4",
        "play ruby chest to castle 4")
    down = s.game.string_to_action("play violet ring to castle 3")
    assert s.current_player == 0     # P0's second play: face down
    assert s.describe_action(down, None) == "play violet ring to castle 3"    # referee
    assert s.describe_action(down, 0) == "play violet ring to castle 3"       # the actor
    for observer in (1, 2):
        assert s.describe_action(down, observer) == "play a card face down to castle 3"
    act(s, "play violet ring to castle 3")
    assert s.fd_own[0, 2, kind("violet ring")] == 1
    # P1's third play is face up (castle 1: U U U): described in full to everybody
    up = s.game.string_to_action("play silver chest to castle 3")
    assert [s.describe_action(up, o) for o in (None, 0, 1, 2)] == \
        ["play silver chest to castle 3"] * 4
    scout_all(s)
    raid = s.game.string_to_action("raid castle 2")
    assert {s.describe_action(raid, o) for o in (None, 0, 1, 2)} == {"raid castle 2"}


def test_hands_are_private():
    s = new_state(4, seed=2)
    for seat in range(4):
        assert obs_block(s, seat, "hand").tolist() == s.hand[seat].tolist()
        v = s.view(seat)
        assert "hands" not in v and v["hand"] == s.hand[seat].tolist() and sum(v["hand"]) == 3
    assert s.view(None)["hands"] == s.hand.tolist() and len(s.view(None)["hands"]) == 4


# =========================================================================================
# Raiding
# =========================================================================================
def raid_position(values=(1, 2, 3), hands=None):
    s = scout_position(values)
    set_hands(s, hands or {p: {"gold chest": 3} for p in range(3)})
    scout_all(s)
    assert phase(s) == "raid"
    return s


def test_raids_go_in_turn_order_and_a_raided_castle_is_closed():
    s = raid_position((3, 1, 2))    # order P1, P2, P0
    assert s.current_player == 1
    act(s, "raid castle 4")
    assert s.current_player == 2 and s.castle_raided_by[3].tolist() == [0, 1, 0]
    assert "raid castle 4" not in legal_names(s)
    with pytest.raises(IllegalActionError, match="already raided"):
        act(s, "raid castle 4")
    act(s, "raid castle 2")
    assert s.current_player == 0
    assert legal_names(s) == {"raid castle 1", "raid castle 3"}
    act(s, "raid castle 3")
    assert phase(s) == "scout" and s.round_no[0] == 2


def test_raider_takes_castle_card_and_all_loot_face_up():
    s = raid_position()
    set_castle_cards(s, 3, face_up={"gold chest": 1, "henchman": 1},
                     face_down={1: {"violet ring": 1}, 2: {"bust": 1}})
    pile = int(s.pile_left[2])
    act(s, "raid castle 3")          # P0
    assert s.castles_held[0].tolist() == [1, 0, 1, 0, 0, 0]
    assert s.pile_left[2] == pile - 1
    assert castle_of(s, 0) == 3
    assert np.array_equal(s.collection[0], counts(
        {"gold chest": 1, "henchman": 1, "violet ring": 1, "bust": 1}))
    assert s.castle_cards[2] == 0 and s.castle_faceup[2].sum() == 0 and s.fd_own[:, 2].sum() == 0


def test_an_empty_castle_can_be_raided():
    s = raid_position()
    assert s.castle_cards[1] == 0
    act(s, "raid castle 2")
    assert s.collection[0].sum() == 0
    assert s.castles_held[0].tolist() == [1, 1, 0, 0, 0, 0]
    assert castle_of(s, 0) == 2


def test_new_castles_set_next_rounds_order():
    s = raid_position((1, 2, 3))
    act(s, "raid castle 4", "raid castle 3", "raid castle 1")
    assert [castle_of(s, p) for p in range(3)] == [4, 3, 1]
    assert s.order == (2, 1, 0) and s.current_player == 2


def test_benefactors_resolve_at_once_into_an_alms_snake():
    s = raid_position()
    set_castle_cards(s, 3, face_up={"benefactor 2": 1, "gold chest": 1},
                     face_down={1: {"benefactor 3": 1}})
    act(s, "raid castle 3")
    assert phase(s) == "alms" and s.current_player == 0
    assert s.decision == (Kind.ALMS, 0, (5, 9))          # 5 alms to place, no village yet
    assert s.decision_data[:2].tolist() == [5, 9]   # shown to every seat
    assert s.collection[0].tolist() == counts({"gold chest": 1}).tolist()   # set aside
    assert s.discard_public[kind("benefactor 2")] == 1
    assert s.discard_public[kind("benefactor 3")] == 1
    assert all(n.startswith("alms ") for n in legal_names(s))


# =========================================================================================
# Alms
# =========================================================================================
EXAMPLE_1 = ["Ashford", "Bramblewick", "Cinderholt",
             F, F, "Dunmere",
             "Elderbrook", "Foxmoor", "Greywater"]


def alms_position(grid, alms: int, n: int = 3, alms_left: int | None = None):
    """Raid phase with the given grid; the first raider's castle 1 holds ``alms`` alms."""
    s = new_state(n, seed=0)
    scout_all(s)
    clear_castles(s)
    set_grid(s, grid)
    spec = {1: {"benefactor 1": 1}, 2: {"benefactor 2": 1}, 3: {"benefactor 3": 1},
            4: {"benefactor 1": 1, "benefactor 3": 1}, 5: {"benefactor 2": 1, "benefactor 3": 1},
            6: {"benefactor 3": 2}}[alms]
    set_castle_cards(s, 1, face_up=spec)
    raider = s.current_player
    if alms_left is not None:
        s.alms_left[raider] = alms_left
        s.edited()
    act(s, "raid castle 1")
    return s, raider


def placed_cells(s, p) -> list[str]:
    return [A.cell_name(c) for c in range(9) if s.alms_count[c, p]]


def test_alms_example_1_bottom_centre_to_top_centre():
    s, p = alms_position(EXAMPLE_1, 5)
    assert legal_names(s) == {f"alms {A.cell_name(c)}" for c in (0, 1, 2, 5, 6, 7, 8)}
    act(s, "alms r3c2")
    assert legal_names(s) == {"alms r3c1", "alms r3c3"}
    act(s, "alms r3c3")
    assert legal_names(s) == {"alms r2c3"}
    act(s, "alms r2c3")
    assert legal_names(s) == {"alms r1c3"}          # never through the forest at r2c2
    act(s, "alms r1c3")
    assert legal_names(s) == {"alms r1c2"}
    act(s, "alms r1c2")
    assert sorted(placed_cells(s, p)) == ["r1c2", "r1c3", "r2c3", "r3c2", "r3c3"]
    assert s.alms_left[p] == 10 and phase(s) == "raid" and s.current_player != p


def test_alms_example_1_dead_end_keeps_the_fifth_alms():
    s, p = alms_position(EXAMPLE_1, 5)
    act(s, "alms r2c3")
    assert legal_names(s) == {"alms r1c3", "alms r3c3"}   # the forest at r2c2 is no way
    with pytest.raises(IllegalActionError):
        act(s, "alms r2c2")
    act(s, "alms r3c3", "alms r3c2", "alms r3c1")
    # r3c1 borders only the forest r2c1 and r3c2 (already given to): the snake ends
    assert phase(s) == "raid" and s.current_player != p
    assert sorted(placed_cells(s, p)) == ["r2c3", "r3c1", "r3c2", "r3c3"]
    assert s.alms_left[p] == 11                  # the fifth stays in the store
    assert [d.kind for d in s.decisions] == [Kind.RAID] and s.snake_visited.sum() == 0


def test_alms_example_1_cannot_bypass_top_right_through_the_forest():
    s, _ = alms_position(EXAMPLE_1, 5)
    act(s, "alms r1c1", "alms r1c2")
    assert legal_names(s) == {"alms r1c3"}


def snakes(s) -> list[frozenset]:
    """Every set of cells one alms snake can reach from here (exhaustive)."""
    out = []
    p = s.current_player
    for a in s.legal_actions():
        t = s.clone()
        t.apply(a)
        if phase(t) == "alms" and t.current_player == p:
            out += snakes(t)
        else:
            out.append(frozenset(c for c in range(9) if t.alms_count[c, p]))
    return out


EXAMPLE_2 = [F, "Ashford", "Dunmere",
             "Bramblewick", "Cinderholt", "Elderbrook",
             "Greywater", "Foxmoor", F]


def test_alms_example_2_full_middle_village_separates_the_big_villages():
    bottom_left, top_right, middle = cell("r3c1"), cell("r1c3"), cell("r2c2")
    s, p = alms_position(EXAMPLE_2, 5)
    other = (p + 1) % 3
    fill_cell(s, middle, other)
    assert "alms r2c2" not in legal_names(s)
    reach = snakes(s)
    assert reach and all(middle not in r for r in reach)
    assert not any(bottom_left in r and top_right in r for r in reach)
    # the same grid with room in the middle: one snake serves both
    s2, _ = alms_position(EXAMPLE_2, 5)
    assert any(bottom_left in r and top_right in r for r in snakes(s2))


def test_alms_go_to_the_first_free_space():
    s, p = alms_position(EXAMPLE_1, 1)
    other = (p + 1) % 3
    place_alms(s, cell("r1c1"), [other, other])
    act(s, "alms r1c1")
    assert s.alms_owner[0, 2, p] == 1 and s.cell_filled[0] == 3
    # spaces fill in the order alms are given: the latest alms lies in the latest space
    assert s.alms_owner[0, :3].argmax(axis=1).tolist() == [other, other, p]
    assert s.alms_owner[0, 3:].sum() == 0


def test_one_alms_per_village_per_snake_and_no_early_stop():
    s, p = alms_position(EXAMPLE_1, 3)
    act(s, "alms r1c1")
    act(s, "alms r1c2")
    assert "alms r1c1" not in legal_names(s)           # already given to this round
    assert all(n.startswith("alms ") for n in legal_names(s))   # no "stop" action
    assert s.legal_action_mask()[A.ALMS.start:A.ALMS.stop].sum() == len(s.legal_actions())
    act(s, "alms r1c3")
    assert phase(s) == "raid" and s.alms_count[:, p].sum() == 3


def test_full_village_is_neither_target_nor_passage():
    s, p = alms_position(EXAMPLE_1, 3)
    fill_cell(s, cell("r1c2"), (p + 1) % 3)
    assert "alms r1c2" not in legal_names(s)
    act(s, "alms r1c1")                 # r1c1's only other neighbour is a forest
    assert phase(s) == "raid" and s.alms_left[p] == 14


def test_snake_length_is_limited_by_alms_left():
    s, p = alms_position(EXAMPLE_1, 5, alms_left=2)
    assert s.decision.kind == Kind.ALMS and s.decision_view()["data"]["alms_left"] == 2
    act(s, "alms r3c2", "alms r3c3")
    assert phase(s) == "raid" and s.alms_left[p] == 0
    assert s.alms_count[:, p].sum() == 2


def test_no_alms_left_means_no_more_alms():
    s, p = alms_position(EXAMPLE_1, 5, alms_left=0)
    assert phase(s) == "raid" and s.current_player != p
    assert s.alms_left[p] == 0 and s.alms_count[:, p].sum() == 0
    assert s.discard_public[kind("benefactor 3")] == 1    # still set aside


def test_no_free_village_means_no_alms_phase():
    s = new_state(3, seed=0)
    scout_all(s)
    clear_castles(s)
    set_grid(s, EXAMPLE_1)
    for c in range(9):
        if s.cell_spaces[c]:
            fill_cell(s, c, 2)
    set_castle_cards(s, 1, face_up={"benefactor 3": 1})
    p = s.current_player
    act(s, "raid castle 1")
    assert phase(s) == "raid" and s.current_player != p and s.alms_left[p] == 15


# =========================================================================================
# Round end and game end
# =========================================================================================
def test_leftover_loot_is_discarded_and_new_hands_dealt():
    s = scout_position((4, 1, 2))   # order P1, P2, P0 (UDD)
    set_hands(s, {0: {"violet ring": 1, "gold chest": 2}, 1: {"silver chest": 3},
                  2: {"ruby chest": 3}})
    act(s, "play silver chest to castle 4", "play ruby chest to castle 3",
        "play gold chest to castle 3", "play silver chest to castle 3",
        "play ruby chest to castle 3", "play violet ring to castle 4",   # face down
        "play silver chest to castle 3", "play ruby chest to castle 3",
        "play gold chest to castle 3")
    deck_left = int(s.deck_left[0])
    act(s, "raid castle 1", "raid castle 2", "raid castle 3")  # castle 4 is left over
    assert s.round_no[0] == 2 and phase(s) == "scout"
    assert s.castle_cards.sum() == 0
    assert s.discard_public[kind("silver chest")] == 1          # face up: public
    assert s.discard_fd == [SecretDiscard(kind("violet ring"), owner=0)]  # face down: owner only
    assert s.discard_known[:, kind("violet ring")].tolist() == [1, 0, 0]
    assert obs_block(s, 0, "discard_known")[kind("violet ring")] == 1
    for seat in (1, 2):
        assert obs_block(s, seat, "discard_known").sum() == 0
        assert s.view(seat)["discard_known"] == [0] * NUM_KINDS
    assert s.view(0)["discard_known"] == counts({"violet ring": 1}).tolist()
    assert s.hand.sum(axis=1).tolist() == [3, 3, 3] and s.hand_count.tolist() == [3, 3, 3]
    assert s.deck_left[0] == deck_left - 9
    assert s.castle_raided_by.sum() == 0 and s.has_raided.sum() == 0


@pytest.mark.parametrize("n, legendary", [(2, False), (3, False), (4, False), (5, False),
                                          (3, True), (2, True)])
def test_game_ends_when_a_full_deal_is_impossible(n, legendary):
    h = 4 if n == 2 else 3
    deck = DECK_SIZE[n] + (1 if legendary else 0)
    rounds = deck // (n * h)
    assert rounds == ROUNDS[n]
    for seed in range(2):
        s = new_state(n, legendary=legendary, seed=seed)
        plays = 0
        rng = np.random.default_rng(seed)
        while not s.is_terminal:
            a = int(rng.choice(s.legal_actions()))
            plays += a in A.PLAY
            s.apply(a)
        assert s.round_no[0] == rounds
        assert plays == rounds * n * h
        assert len(s.deck) == deck - rounds * n * h < n * h
        assert s.current_player == -1 and s.decision is None and phase(s) == "over"
        assert s.decision_player.sum() == 0 and s.decision_kind.sum() == 0
        assert s.turn_seat.sum() == 0 and not s.legal_action_mask().any()
        with pytest.raises(IllegalActionError, match="game is over"):
            s.apply(0)
        assert np.array_equal(s.card_totals(), s.game.composition)


# =========================================================================================
# Exhausted castle pile
# =========================================================================================
def test_exhausted_pile_raider_gets_loot_and_place_but_no_castle_card():
    s = raid_position((1, 2, 3))
    s.pile_left[2] = 0
    set_castle_cards(s, 3, face_up={"gold chest": 2})
    held = s.castles_held[0].copy()
    act(s, "raid castle 3")                       # P0 (castle 1 before)
    assert np.array_equal(s.castles_held[0], held)  # no castle card to take
    assert s.pile_left[2] == 0
    assert s.collection[0, kind("gold chest")] == 2
    assert castle_of(s, 0) == 3                  # the place's value counts for order
    assert s.castle_raided_by[2, 0] == 1
    act(s, "raid castle 1", "raid castle 4")      # P1, P2
    assert s.order == (1, 0, 2)                   # values 3, 1, 4 -> P1, P0, P2
    assert s.banner[0, :3].tolist() == [0, 1, 0]   # castle 3's banner (U D U)
    assert s.scores()[0]["castles"] == 1
    # the place stays on the table: it can be raided next round again
    scout_all(s)
    assert "raid castle 3" in legal_names(s)


def test_last_card_of_a_pile_goes_to_the_first_raider():
    s = raid_position((1, 2, 3))
    s.pile_left[3] = 1
    s.edited()
    act(s, "raid castle 4")
    assert s.pile_left[3] == 0 and s.castles_held[0, 3] == 1


# =========================================================================================
# Legendary variant
# =========================================================================================
def legendary_scout_position(values=(4, 1, 2)):
    s = new_state(3, legendary=True, seed=0)
    set_castles(s, list(values))
    for p in range(3):
        set_collection(s, p, {})
    return s


def spy_position(secret: str, spier: int = 1):
    """P0 (castle 4, UDD) lays ``secret`` face down at castle 3 and a henchman face down at
    castle 4; ``spier`` holds the spy glass."""
    s = legendary_scout_position()
    set_collection(s, spier, {"spy glass": 1})
    set_hands(s, {0: {"gold chest": 1, secret: 1, "henchman": 1},
                  1: {"silver chest": 3}, 2: {"ruby chest": 3}})
    act(s, *SPY_PLAYS[:5], f"play {secret} to castle 3", *SPY_PLAYS[5:])
    return s


# P1 (UUU), P2 (UUD), P0 (UDD) in turn; P0's secret card is the sixth play. Castle 4 gets
# two face-down cards: P2's ruby chest and P0's henchman.
SPY_PLAYS = ("play silver chest to castle 1", "play ruby chest to castle 2",
             "play gold chest to castle 3", "play silver chest to castle 1",
             "play ruby chest to castle 2",
             "play silver chest to castle 3", "play ruby chest to castle 4",
             "play henchman to castle 4")


def test_spy_glass_looks_at_one_castle_before_the_first_raid():
    s = spy_position("violet ring")
    assert phase(s) == "spy" and s.current_player == 1
    assert legal_names(s) == {"spy castle 3", "spy castle 4"}   # castles with others' secrets
    b = spy_position("bronze bracelet")
    act(s, "spy castle 3")
    act(b, "spy castle 3")
    assert phase(s) == "raid" and s.current_player == s.order[0] == 1
    assert s.spy_view[1, 2].tolist() == counts({"violet ring": 1}).tolist()
    assert obs_block(s, 1, "spy_view")[2, kind("violet ring")] == 1
    assert s.view(1)["castles"][3]["spied_face_down"] == counts({"violet ring": 1}).tolist()
    assert s.view(1)["castles"][3]["spied"] and s.view(2)["castles"][3]["spied"]   # public
    assert not np.array_equal(s.observation(1), b.observation(1))
    # nobody else learns anything: seat 2's observation is blind to the card's kind
    assert obs_block(s, 2, "spy_view").sum() == 0
    assert np.array_equal(s.observation(2), b.observation(2))
    assert s.view(2) == b.view(2)
    assert s.spy_castle.tolist()[:4] == [0, 0, 1, 0]


def test_spy_glass_knowledge_survives_into_the_discard_and_resets_next_round():
    s = spy_position("violet ring")
    act(s, "spy castle 4")
    assert s.spy_view[1, 3].tolist() == counts({"henchman": 1, "ruby chest": 1}).tolist()
    act(s, "raid castle 1", "raid castle 2", "raid castle 3")   # castle 4 left over
    # each secret discard is known to its owner and to the spy, not to the third player
    assert s.discard_known[:, kind("henchman")].tolist() == [1, 1, 0]
    assert s.discard_known[:, kind("ruby chest")].tolist() == [0, 1, 1]
    assert s.spy_view.sum() == 0 and s.spy_castle.sum() == 0 and s.spier() == -1
    assert phase(s) == "scout" and s.round_no[0] == 2
    scout_all(s)                     # P0 (now castle 3: U D U) plays one card face down
    assert phase(s) == "spy" and s.current_player == 1      # once per round: again in round 2


def test_spy_glass_not_offered_without_others_face_down_cards():
    s = legendary_scout_position()
    set_collection(s, 0, {"spy glass": 1})
    set_hands(s, {0: {"gold chest": 1, "violet ring": 1, "henchman": 1},
                  1: {"silver chest": 3}, 2: {"ruby chest": 3}})
    act(s, *SPY_PLAYS[:5], "play violet ring to castle 3", *SPY_PLAYS[5:7])
    t = s.clone()
    act(t, SPY_PLAYS[7])
    assert phase(t) == "spy" and legal_names(t) == {"spy castle 4"}   # P2's ruby chest
    set_castle_cards(s, 4)           # without P2's face-down card only P0's own remain
    act(s, SPY_PLAYS[7])
    assert phase(s) == "raid" and s.spy_view.sum() == 0


def test_spy_glass_only_counts_in_the_legendary_variant():
    s = new_state(3, seed=0)
    set_castles(s, [4, 1, 2])
    set_collection(s, 1, {"spy glass": 1})
    set_hands(s, {0: {"gold chest": 3}, 1: {"silver chest": 3}, 2: {"ruby chest": 3}})
    scout_all(s)
    assert phase(s) == "raid"


def key_position(hand: dict[str, int] | None = None):
    s = legendary_scout_position((1, 2, 3))      # order P0, P1, P2
    set_collection(s, 2, {"key": 1})
    set_hands(s, {p: hand or {"gold chest": 3} for p in range(3)})
    scout_all(s)
    return s


def test_key_forces_another_castle_once_per_game():
    s = key_position()
    act(s, "raid castle 4")
    assert phase(s) == "key" and s.current_player == 2
    assert legal_names(s) == {"key: force another castle", "key: pass"}
    assert s.castle_raided_by.sum() == 0           # the raid has not happened yet
    act(s, "key: force another castle")
    assert s.collection[2, KEY] == 0 and s.box[KEY] == 1
    assert phase(s) == "raid" and s.current_player == 0
    assert "raid castle 4" not in legal_names(s)
    with pytest.raises(IllegalActionError, match="key forces"):
        act(s, "raid castle 4")
    act(s, "raid castle 3")                         # his own choice; no key any more
    assert s.castle_raided_by[2, 0] == 1 and phase(s) == "raid" and s.current_player == 1
    assert "raid castle 4" in legal_names(s)        # only P0 was kept from it
    act(s, "raid castle 4")
    assert phase(s) == "raid" and s.current_player == 2    # key gone: no interruption


def test_key_decision_is_pushed_above_the_raid_it_interrupts():
    s = key_position()
    assert s.decisions == [(Kind.RAID, 0, ())]
    act(s, "raid castle 4")
    # the raid stays pending below the key holder's answer: P0's turn, P2's decision
    assert len(s.decisions) == 2
    assert s.decisions[0] == (Kind.RAID, 0, ())
    assert s.decisions[1] == (Kind.KEY, 2, (3, 0))      # castle index 3, raider P0
    assert s.decision_name() == "key" and DECISIONS[Kind.KEY].name == "key"
    assert s.current_player == 2 and s.turn_player == 0
    t = s.clone()
    act(s, "key: force another castle")
    assert s.decisions == [(Kind.RAID, 0, ())]                   # popped: the raider again
    assert s.current_player == s.turn_player == 0
    act(t, "key: pass")                                     # popped, and the raid resolved
    assert t.castle_raided_by[3, 0] == 1
    assert t.decisions == [(Kind.RAID, 1, ())] and t.current_player == t.turn_player == 1


def test_key_holder_sees_the_castle_he_may_veto():
    s = key_position()
    act(s, "raid castle 4")
    for seat in range(3):            # public: everybody saw the raider's choice
        assert obs_block(s, seat, "decision_kind").tolist() == \
            [int(k == Kind.KEY) for k in range(len(DECISIONS))]
        assert obs_block(s, seat, "decision_data")[0] == 3           # castle 4 (index 3)
        # seats rotated, observer first: the key holder P2 decides, raider P0's turn
        assert obs_block(s, seat, "decision_player").tolist() == \
            [int((seat + j) % 3 == 2) for j in range(3)]
        assert obs_block(s, seat, "decision_seat")[0].tolist() == \
            [int((seat + j) % 3 == 0) for j in range(3)]
        assert obs_block(s, seat, "turn_seat").tolist() == \
            [int((seat + j) % 3 == 0) for j in range(3)]
    act(s, "key: pass")
    assert s.decision_data.sum() == 0 and s.decision_seat.sum() == 0
    assert s.key_blocked.sum() == 0


def test_key_pass_lets_the_raid_happen_and_keeps_the_key():
    s = key_position()
    act(s, "raid castle 4", "key: pass")
    assert s.castle_raided_by[3, 0] == 1 and castle_of(s, 0) == 4
    assert s.collection[2, KEY] == 1
    assert phase(s) == "raid" and s.current_player == 1
    act(s, "raid castle 1")
    assert phase(s) == "key" and s.current_player == 2     # offered again at the next choice


def test_key_not_offered_to_its_holder_raiding():
    s = key_position()
    act(s, "raid castle 1", "key: pass", "raid castle 2", "key: pass")
    assert s.current_player == 2 and phase(s) == "raid"
    act(s, "raid castle 3")
    assert phase(s) == "scout" and s.collection[2, KEY] == 1


def end_position(collections: dict[int, dict[str, int]]):
    """3-player Legendary game in its last round with empty castles: the three raids end
    the game with exactly these collections."""
    s = new_state(3, legendary=True, seed=0)
    set_castles(s, [1, 2, 3])
    set_hands(s, {p: {"gold chest": 3} for p in range(3)})
    scout_all(s)
    clear_castles(s)
    s.deck = s.deck[:0]
    for p in range(3):
        set_collection(s, p, collections.get(p, {}))
    set_grid(s, ["Ashford", "Elderbrook", F, F, "Bramblewick", "Cinderholt",
                 "Dunmere", "Foxmoor", "Greywater"])
    return s


def raid_out(s):
    act(s, "raid castle 1", "raid castle 2", "raid castle 3")


def test_travelling_entertainers_swap_two_alms_and_their_places():
    s = end_position({0: {"travelling entertainers": 1}})
    place_alms(s, cell("r1c1"), [1, 1])             # Ashford: P1 x2 (spaces 1, 2)
    place_alms(s, cell("r1c2"), [0])                # Elderbrook: P0 (space 1)
    raid_out(s)
    assert phase(s) == "entertainers_first" and s.current_player == 0
    before = s.scores()
    assert [x["villages"] for x in before] == [4, 3, 0]
    assert "entertainers: pass" in legal_names(s)
    act(s, "entertainers: alms r1c2 space 1")
    assert phase(s) == "entertainers_second"
    assert s.decision.data == (cell("r1c2") * 7 + 0,)    # the first pick, shown to all
    assert legal_names(s) == {"entertainers: alms r1c1 space 1", "entertainers: alms r1c1 space 2"}
    act(s, "entertainers: alms r1c1 space 2")
    assert s.is_terminal
    assert s.alms_owner[0, 0].tolist() == [0, 1, 0] and s.alms_owner[0, 1].tolist() == [1, 0, 0]
    assert s.alms_owner[1, 0].tolist() == [0, 1, 0]
    assert s.alms_count[0].tolist() == [1, 1, 0] and s.alms_count[1].tolist() == [0, 1, 0]
    # Ashford is now a 1-1 tie that P0's alms in the later space wins; Elderbrook goes to P1
    sc = s.scores()
    assert [x["village_glory"]["r1c1"] for x in sc] == [3, 0, 0]
    assert [x["village_glory"]["r1c2"] for x in sc] == [0, 4, 0]
    assert [x["villages"] for x in sc] == [3, 4, 0]


def test_travelling_entertainers_swap_inside_one_village_moves_the_rank():
    s = end_position({2: {"travelling entertainers": 1}})
    bramblewick = cell("r2c2")                      # rows 2:2, 2:4, 2:8
    place_alms(s, bramblewick, [0, 1, 0, 1])        # 2-2 tie, P1's last alms in space 4
    raid_out(s)
    assert phase(s) == "entertainers_first" and s.current_player == 2
    # two unlocked rows (4 and 2 glory): P1 ranks first by the later space
    assert [x["village_glory"]["r2c2"] for x in s.scores()] == [2, 4, 0]
    # alms of different players in the same village may be swapped
    assert legal_names(s) == {f"entertainers: alms r2c2 space {k}" for k in (1, 2, 3, 4)} | {
        "entertainers: pass"}
    act(s, "entertainers: alms r2c2 space 3")      # P0's second alms
    assert legal_names(s) == {"entertainers: alms r2c2 space 2", "entertainers: alms r2c2 space 4"}
    act(s, "entertainers: alms r2c2 space 4")      # P1's second alms
    assert s.is_terminal
    assert s.alms_owner[bramblewick, :4].argmax(axis=1).tolist() == [0, 1, 1, 0]
    assert s.alms_count[bramblewick].tolist() == [2, 2, 0] and s.cell_filled[bramblewick] == 4
    # same counts, same unlocked rows; P0's last alms now lies in the later space
    assert [x["village_glory"]["r2c2"] for x in s.scores()] == [4, 2, 0]


def test_travelling_entertainers_may_pass():
    s = end_position({1: {"travelling entertainers": 1}})
    place_alms(s, cell("r1c1"), [1, 0])
    raid_out(s)
    assert s.current_player == 1
    owners = s.alms_owner.copy()
    act(s, "entertainers: pass")
    assert s.is_terminal and np.array_equal(s.alms_owner, owners)


def test_golden_arrow_swaps_one_treasure_with_an_opponent():
    s = end_position({1: {"golden arrow": 1, "gold chest": 2},
                      2: {"violet ring": 1}, 0: {"silver armor": 1}})
    raid_out(s)
    assert phase(s) == "arrow_give" and s.current_player == 1
    assert legal_names(s) == {"golden arrow: give gold chest", "golden arrow: pass"}
    act(s, "golden arrow: give gold chest")
    # opponents named relative to P1: +1 is P2, +2 is P0
    assert legal_names(s) == {"golden arrow: take violet ring from +1",
                              "golden arrow: take silver armor from +2"}
    act(s, "golden arrow: take violet ring from +1")
    assert s.is_terminal
    assert s.collection[1, :11].tolist() == counts({"gold chest": 1, "violet ring": 1})[:11].tolist()
    assert s.collection[2, :11].tolist() == counts({"gold chest": 1})[:11].tolist()
    assert s.scores()[1]["jewelry"] == 4 and s.scores()[1]["chests"] == 1


def test_golden_arrow_may_pass():
    s = end_position({0: {"golden arrow": 1, "gold chest": 1}, 1: {"violet ring": 1}})
    raid_out(s)
    act(s, "golden arrow: pass")
    assert s.is_terminal and s.collection[0, 0] == 1 and s.collection[1, kind("violet ring")] == 1


def test_fake_beard_gives_a_henchman_away():
    s = end_position({0: {"fake beard": 1, "henchman": 2}})
    raid_out(s)
    assert phase(s) == "fake_beard" and s.current_player == 0
    assert legal_names(s) == {"fake beard: give henchman to +1",
                              "fake beard: give henchman to +2", "fake beard: pass"}
    act(s, "fake beard: give henchman to +2")
    assert s.is_terminal
    assert s.collection[:, kind("henchman")].tolist() == [1, 0, 1]
    assert [x["henchmen"] for x in s.scores()] == [-3, 0, -3]


def test_fake_beard_skipped_without_henchmen_and_may_pass():
    s = end_position({0: {"fake beard": 1}})
    raid_out(s)
    assert s.is_terminal
    s = end_position({0: {"fake beard": 1, "henchman": 1}})
    raid_out(s)
    act(s, "fake beard: pass")
    assert s.is_terminal and s.collection[0, kind("henchman")] == 1


def test_end_cards_resolve_entertainers_then_arrow_then_beard_then_scoring():
    s = end_position({2: {"travelling entertainers": 1},
                      0: {"golden arrow": 1, "violet ring": 1},
                      1: {"fake beard": 1, "henchman": 1, "gold chest": 1}})
    place_alms(s, cell("r1c1"), [0, 1])
    raid_out(s)
    seen = []
    choices = {"entertainers_first": "entertainers: pass",
               "arrow_give": "golden arrow: give violet ring",
               "arrow_take": "golden arrow: take gold chest from +1",
               "fake_beard": "fake beard: give henchman to +2"}   # P1's +2 is P0
    while not s.is_terminal:
        seen.append((phase(s), s.current_player))
        act(s, choices[phase(s)])
    assert seen == [("entertainers_first", 2), ("arrow_give", 0), ("arrow_take", 0),
                    ("fake_beard", 1)]
    sc = s.scores()
    assert s.collection[0, kind("henchman")] == 1 and s.collection[0, kind("gold chest")] == 1
    assert sc[0]["henchmen"] == -3 and sc[0]["chests"] == 1
    assert sc[1]["jewelry"] == 4 and sc[1]["henchmen"] == 0
    assert s.returns("win") == glory_returns([x["total"] for x in sc], "win")


def test_legendary_cards_score_nothing_themselves():
    s = new_state(3, legendary=True)
    set_collection(s, 0, {name: 1 for name in ("spy glass", "key", "travelling entertainers",
                                                "golden arrow", "fake beard")})
    s.castles_held[0] = 0
    s.edited()
    assert s.scores()[0]["total"] == 0


# =========================================================================================
# Returns
# =========================================================================================
def glory_returns(totals: list[int], mode: str) -> list[float]:
    """Chickwood's rewards from final glory: competition ranks of the totals (no
    tie-break), the "score" mode divided by the game's score scale."""
    return returns_from_ranks(competition_ranks(totals), mode, totals,
                              ChickwoodGame.traits.score_scale)


def test_returns_from_glory_modes():
    assert ChickwoodGame.traits.score_scale == 10.0 and ChickwoodGame.traits.has_scores
    assert ChickwoodGame.traits.reward_modes == ("win", "rank", "score")
    assert competition_ranks([30, 50, 40]) == [3, 1, 2]
    assert competition_ranks([50, 50, 40]) == [1, 1, 3]
    assert glory_returns([30, 50, 40], "win") == [0.0, 1.0, 0.0]
    assert glory_returns([50, 50, 40], "win") == [0.5, 0.5, 0.0]     # ties share
    assert glory_returns([7, 7, 7, 7], "win") == [0.25] * 4
    assert glory_returns([30, 50, 40], "rank") == [0.0, 1.0, 0.5]
    assert glory_returns([50, 50, 40], "rank") == [1.0, 1.0, 0.0]
    assert glory_returns([30, 50, 40], "score") == pytest.approx([-1.5, 1.5, 0.0])
    with pytest.raises(ValueError, match="unknown reward mode"):
        glory_returns([1, 2], "glory")
    with pytest.raises(ValueError, match="no reward mode 'glory'"):
        new_state(3).returns("glory")


def test_state_returns_use_final_totals():
    s = new_state(3, seed=4)
    assert s.returns("win") == [0.0, 0.0, 0.0]          # not over yet
    play_random(s, np.random.default_rng(4))
    totals = [x["total"] for x in s.scores()]
    assert s.ranks() == competition_ranks(totals)
    for mode in ("win", "rank", "score"):
        assert s.returns(mode) == glory_returns(totals, mode)
    best = max(totals)
    assert s.returns("win") == [1 / totals.count(best) if t == best else 0.0 for t in totals]
    assert sum(s.returns("score")) == pytest.approx(0.0)


def test_tied_winners_share_in_a_real_state():
    s = end_position({})
    raid_out(s)
    s.castles_held[:] = 0
    s.castles_held[:, 0] = [2, 2, 1]      # totals 2, 2, 1
    s.edited()
    assert s.returns("win") == [0.5, 0.5, 0.0]
    assert s.ranks() == [1, 1, 3]


# =========================================================================================
# JSON round trip and clone
# =========================================================================================
@pytest.mark.parametrize("n, legendary, steps", [(3, True, 40), (2, False, 25), (5, True, 70)])
def test_json_round_trip_continues_identically(n, legendary, steps):
    s = new_state(n, legendary=legendary, seed=8)
    play_random(s, np.random.default_rng(1), until=lambda t: t.round_no[0] >= 2 and t.step > 1)
    d = json.loads(json.dumps(s.to_dict()))
    r = ChickwoodState.from_dict(s.game, d)
    assert r.to_dict() == s.to_dict()
    assert np.array_equal(r.legal_action_mask(), s.legal_action_mask())
    for seat in range(n):
        assert np.array_equal(r.observation(seat), s.observation(seat))
    rng1, rng2 = np.random.default_rng(2), np.random.default_rng(2)
    while not s.is_terminal:
        a1, a2 = int(rng1.choice(s.legal_actions())), int(rng2.choice(r.legal_actions()))
        assert a1 == a2
        s.apply(a1)
        r.apply(a2)
    assert r.to_dict() == s.to_dict() and r.scores() == s.scores()
    # the rng inside the state survives too
    assert s.rng.integers(1 << 30) == r.rng.integers(1 << 30)


def test_json_round_trip_keeps_secret_discards():
    s = new_state(3, seed=3)
    play_random(s, np.random.default_rng(3), until=lambda t: len(t.discard_fd) > 0)
    r = ChickwoodState.from_dict(s.game, json.loads(json.dumps(s.to_dict())))
    assert r.discard_fd == s.discard_fd and isinstance(r.discard_fd[0], SecretDiscard)
    assert r.grid == s.grid and r.order == s.order


def test_a_state_dict_written_before_the_rules_became_a_package_still_loads():
    """The secret discards' record was ``forest_envs.chickwood.rules.SecretDiscard`` until
    the rules became a package (now ``rules.records``): such a dict loads, and is written
    again under the new name (docs/chickwood.md, "State dicts")."""
    s = new_state(3, seed=3)
    play_random(s, np.random.default_rng(3), until=lambda t: len(t.discard_fd) > 0)
    new = json.dumps(s.to_dict())
    assert '"forest_envs.chickwood.rules.records.SecretDiscard"' in new
    old = new.replace('"forest_envs.chickwood.rules.records.SecretDiscard"',
                      '"forest_envs.chickwood.rules.SecretDiscard"')
    r = ChickwoodState.from_dict(s.game, json.loads(old))
    assert r.discard_fd == s.discard_fd and json.dumps(r.to_dict()) == new


def test_json_round_trip_keeps_the_decision_stack():
    s = key_position({"gold chest": 2, "henchman": 1})   # the deck has six gold chests:
    balance_cards(s)                 # a dict's cards must add up to it (from_dict checks)
    act(s, "raid castle 4")          # the key decision above the raid
    r = ChickwoodState.from_dict(s.game, json.loads(json.dumps(s.to_dict())))
    assert r.decisions == s.decisions == [(Kind.RAID, 0, ()), (Kind.KEY, 2, (3, 0))]
    assert all(type(d).__name__ == "Decision" and isinstance(d.data, tuple) for d in r.decisions)
    assert r.current_player == 2 and r.turn_player == 0
    assert np.array_equal(r.buf, s.buf)
    act(r, "key: force another castle")
    act(s, "key: force another castle")
    assert r.to_dict() == s.to_dict()


def test_from_dict_rejects_another_configuration():
    s = new_state(3)
    with pytest.raises(ValueError):
        ChickwoodState.from_dict(new_state(4).game, s.to_dict())


def test_clone_is_independent():
    s = new_state(4, legendary=True, seed=6)
    play_random(s, np.random.default_rng(6), until=lambda t: t.round_no[0] >= 2)
    snapshot = json.dumps(s.to_dict())
    c = s.clone()
    play_random(c, np.random.default_rng(7))
    assert c.is_terminal
    assert json.dumps(s.to_dict()) == snapshot
    # the original plays on as if the clone had never existed
    d = ChickwoodState.from_dict(s.game, json.loads(snapshot))
    play_random(s, np.random.default_rng(8))
    play_random(d, np.random.default_rng(8))
    assert s.to_dict() == d.to_dict()


def test_action_names_round_trip():
    game = new_state(3).game
    assert game.num_actions == A.NUM_ACTIONS
    for a in range(game.num_actions):
        assert game.string_to_action(game.action_to_string(a)) == a
    assert game.string_to_action("raid castle 3") == A.RAID.id(2)
    assert game.string_to_action("alms r2c3") == A.ALMS.id(5)
    assert game.string_to_action("play violet ring to castle 4") == A.PLAY.id(10, 3)
    # ARROW_TAKE's first index is the opponent's offset minus one, BEARD_GIVE's too
    assert game.action_to_string(A.ARROW_TAKE.id(1, 0)) == "golden arrow: take gold chest from +2"
    assert game.action_to_string(A.BEARD_GIVE.id(3)) == "fake beard: give henchman to +4"
    assert game.action_names == A.SPACE.names and len(A.SPACE.names) == A.NUM_ACTIONS == 280
    for a in range(A.NUM_ACTIONS):
        block, index = A.SPACE.decode(a)
        assert A.SPACE.encode(block, *index) == a
        assert a in A.SPACE.blocks[block] and A.SPACE.blocks[block].index(a) == index


def test_a_replaced_block_is_refused_not_silently_detached():
    """Writing a block means writing into it; an attribute replaced by an array of its own
    would show numbers the rules never see, so ``edited`` refuses it on every engine."""
    s = new_state(3)
    s.box[0] = 1                                   # written into: the buffer sees it
    s.edited()
    assert s.buf[s.game.layout.blocks["box"].offset] == 1
    s.box = np.zeros_like(s.box)
    with pytest.raises(ValueError, match=r"\.box was replaced .*state\.box\[\.\.\.\] = values"):
        s.edited()
