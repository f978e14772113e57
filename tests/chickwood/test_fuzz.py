"""Fuzz: random games across every configuration, invariants checked after EVERY action.

Checked after each action (and at the start):
  * nothing created or lost: every loot card of the configured deck is somewhere
    (``card_totals() == composition``), every castle card is in its pile or held, every
    alms is on the grid or in its owner's supply (15 each), counters agree with contents;
  * the decision stack is well formed (a key decision only above the raid it interrupts,
    the turn is the bottom decision's player) and the standard decision blocks show its top;
  * the player to move has a non-empty mask, and a masked-out action is refused without
    changing the state;
  * a face-down play is described to the other seats without its kind;
  * every buffer value lies in its block's declared range, and every seat's observation is
    finite, float32, of the declared size and inside the env's observation space (the Box
    bounds come from those ranges);
  * no hidden information: ``resample_hidden(seat, rng)`` (a state differing only in what
    the seat cannot know) gives the same observation (and the same mask when the seat is to
    move), while the hidden content does (usually) change. Checked for every seat after
    every action in the slow run; in the default run (to keep it fast) for the player to
    move and one other seat drawn at random after every action;
  * at random points: JSON round trip of the full state (same observations, masks, and the
    same future when both copies are played on with the same actions), clone independence,
    and the full ``view(seat)`` unchanged by resampling.

The default run plays 100 games (80 uniform, 20 chosen by Hypothesis) in well under 30 s;
``-m slow`` plays 2,400 more.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from forest_envs.chickwood import ChickwoodState, new_game, raw_env
from forest_envs.chickwood import actions as A
from forest_envs.chickwood.components import ALMS_PER_PLAYER, CASTLE_CARDS, MAX_CASTLE
from forest_envs.chickwood.observation import DECISIONS, KEY, RAID
from forest_envs.core.errors import IllegalActionError

CONFIGS = [(n, leg) for n in (2, 3, 4, 5) for leg in (False, True)]
CONFIG_IDS = [f"{n}p{'-legendary' if leg else ''}" for n, leg in CONFIGS]
MAX_GAME_STEPS = 3000  # far above any real game (~100-250 actions): catches endless loops


def same(actual, expected, what: str = "") -> None:
    """assert_array_equal with a fast path (this runs tens of thousands of times)."""
    if not np.array_equal(actual, expected):
        np.testing.assert_array_equal(actual, expected, err_msg=what)


def hidden_content(state) -> tuple:
    """Everything a state holds, hidden parts included (for 'did the resample change it')."""
    return (state.buf.tobytes(), state.deck.tobytes(), tuple((c.kind, c.owner, c.spied_by) for c in state.discard_fd))


class Checker:
    """Invariant checks for one configuration."""

    def __init__(self, num_players: int, legendary: bool, all_seats: bool = True):
        self.n = num_players
        self.all_seats = all_seats
        env = raw_env(num_players=num_players, legendary=legendary)
        box = env.observation_space("player_0")["observation"]
        self.space = box
        self.low, self.high = box.low, box.high
        self.obs_size = box.shape[0]
        self.resamples = 0
        self.resamples_changed = 0

    # --- cheap checks: every action -------------------------------------------------------
    def check(self, state, rng: np.random.Generator) -> None:
        n, game = self.n, state.game
        # Loot cards: all accounted for, none negative anywhere.
        same(state.card_totals(), game.composition)
        for name in ("hand", "castle_faceup", "fd_own", "collection", "discard_public", "box"):
            assert (getattr(state, name) >= 0).all(), f"negative count in {name}"
        assert state.deck_left[0] == len(state.deck)
        same(state.hand_count, state.hand.sum(axis=1))
        # Cards before each castle agree with their face-up / face-down contents.
        same(
            state.castle_cards, state.castle_faceup.sum(axis=1) + state.fd_own.sum(axis=(0, 2)))
        same(state.castle_fd_count, state.fd_own.sum(axis=2).T)
        assert (state.castle_cards <= game.capacity).all(), "a castle holds too many cards"
        # Castle cards: in their pile or held by a player; each player sits at one castle.
        for c in range(MAX_CASTLE):
            if state.castle_in_play[c]:
                assert state.pile_left[c] >= 0
                assert state.pile_left[c] + state.castles_held[:, c].sum() == CASTLE_CARDS[c + 1]
            else:
                assert state.pile_left[c] == 0 and state.castles_held[:, c].sum() == 0
        same(state.player_castle.sum(axis=1), np.ones(n))
        # Alms: 15 per player, on the grid or in the supply.
        assert ((state.alms_left >= 0) & (state.alms_left <= ALMS_PER_PLAYER)).all(), state.alms_left
        on_grid = state.alms_owner.sum(axis=(0, 1))
        same(on_grid + state.alms_left, np.full(n, ALMS_PER_PLAYER))
        assert (state.alms_owner.sum(axis=2) <= 1).all(), "two alms on one space"
        same(state.cell_filled, state.alms_owner.sum(axis=(1, 2)))
        same(state.alms_count, state.alms_owner.sum(axis=1))
        assert (state.cell_filled <= state.cell_spaces).all()
        # The decision stack and the standard blocks that show it.
        self.check_decisions(state)
        if not state.is_terminal:
            p = state.current_player
            mask = state.legal_action_mask()
            assert mask.dtype == np.int8 and mask.shape == (game.num_actions,)
            assert mask.any(), f"empty mask for player {p} in decision {state.decision_name()}"
        # Buffer and observations within range.
        assert game.layout.out_of_range(state.buf) == []
        observations = [state.observation(seat) for seat in range(n)]
        for obs in observations:
            assert obs.dtype == np.float32 and obs.shape == (self.obs_size,)
            assert np.isfinite(obs).all()
            assert (obs >= self.low).all() and (obs <= self.high).all(), "observation out of its Box"
        # No hidden information: for every seat, or for the player to move and another seat.
        if self.all_seats:
            seats = range(n)
        else:
            p = state.current_player
            others = [o for o in range(n) if o != p]
            seats = ([p] if p >= 0 else []) + [others[int(rng.integers(len(others)))]]
        for seat in seats:
            self.check_resample(state, seat, rng, observation=observations[seat])

    def check_decisions(self, state) -> None:
        n = self.n
        if state.is_terminal:
            assert state.decisions == [] and state.decision is None
            assert state.current_player == -1 and state.decision_name() is None
            for name in ("turn_seat", "decision_kind", "decision_player", "decision_data",
                         "decision_seat"):
                assert getattr(state, name).sum() == 0, name
            return
        kinds = [d.kind for d in state.decisions]
        assert len(kinds) == 1 or kinds == [RAID, KEY], f"unexpected decision stack {kinds}"
        top = state.decision
        assert 0 <= top.player < n and state.current_player == top.player
        assert state.turn_player == state.decisions[0].player
        assert state.decision_name() == DECISIONS[top.kind].name
        if top.kind == KEY:  # (castle, raider): the raider's turn, the key holder's decision
            castle, raider = top.data.castle, top.data.raider
            assert raider == state.turn_player != top.player
            assert state.castle_in_play[castle] and not state.castle_raided_by[castle].any()
        kind_onehot = np.zeros(len(DECISIONS), int)
        kind_onehot[top.kind] = 1
        same(state.decision_kind, kind_onehot)
        same(state.decision_player, np.eye(n, dtype=int)[top.player])
        same(state.turn_seat, np.eye(n, dtype=int)[state.turn_player])
        ints = len(DECISIONS[top.kind].ints)
        assert state.decision_data[:ints].tolist() == list(top.data[:ints])
        assert state.decision_data[ints:].sum() == 0
        seats = top.data[ints:]
        assert state.decision_seat.sum() == sum(1 for x in seats if x >= 0)
        for slot, seat in enumerate(seats):
            assert seat < 0 or state.decision_seat[slot, seat] == 1

    def check_describe(self, state, action: int) -> None:
        """Others read a face-down play as a card at that castle, its kind left out; the
        actor and the referee read every action in full."""
        p, name = state.current_player, state.game.action_to_string(action)
        assert state.describe_action(action, None) == state.describe_action(action, p) == name
        face_down = action in A.PLAY and bool(state.banner[p, state.step // self.n])
        castle = A.PLAY.index(action)[1] + 1 if action in A.PLAY else None
        for o in range(self.n):
            if o != p:
                text = state.describe_action(action, o)
                assert text == (f"play a card face down to castle {castle}" if face_down
                                else name), (text, name)

    def check_resample(self, state, seat: int, rng: np.random.Generator, full_view: bool = False,
                       observation: np.ndarray | None = None):
        before = hidden_content(state)
        other = state.resample_hidden(seat, rng)
        assert hidden_content(state) == before, "resample_hidden changed the original state"
        same(other.card_totals(), state.game.composition)
        same(other.observation(seat),
             state.observation(seat) if observation is None else observation)
        if seat == state.current_player:
            same(other.legal_action_mask(), state.legal_action_mask())
        if full_view:
            assert other.view(seat) == state.view(seat)
            assert other.render(seat) == state.render(seat)
        self.resamples += 1
        self.resamples_changed += hidden_content(other) != before
        return other

    # --- expensive checks: at random points ---------------------------------------------------
    def check_deep(self, state, rng: np.random.Generator) -> None:
        game = state.game
        data = state.to_dict()
        text = json.dumps(data)
        back = ChickwoodState.from_dict(game, json.loads(text))
        assert back.to_dict() == data
        same(back.global_state(), state.global_state())
        for seat in range(self.n):
            same(back.observation(seat), state.observation(seat))
        assert back.is_terminal == state.is_terminal
        if not state.is_terminal:
            assert back.current_player == state.current_player
            same(back.legal_action_mask(), state.legal_action_mask())
        # Clone independence and identical futures (the generator travels in the state).
        twin = state.clone()
        assert twin.to_dict() == data
        seed = int(rng.integers(2**32))
        end_a = play_out(back, np.random.default_rng(seed))
        end_b = play_out(twin, np.random.default_rng(seed))
        assert end_a.to_dict() == end_b.to_dict()
        assert end_a.scores() == end_b.scores()
        assert state.to_dict() == data, "playing a clone / copy changed the original"
        # A determinized state is a playable, consistent game of its own.
        seat = int(rng.integers(self.n))
        other = self.check_resample(state, seat, rng, full_view=True)
        self.check(play_out(other, rng), rng)


def play_out(state, rng: np.random.Generator):
    steps = 0
    while not state.is_terminal:
        legal = state.legal_actions()
        state.apply(legal[int(rng.integers(len(legal)))])
        steps += 1
        assert steps < MAX_GAME_STEPS
    return state


def refuse_illegal(state, rng: np.random.Generator) -> None:
    """A masked-out action raises IllegalActionError and leaves the state as it was."""
    illegal = np.flatnonzero(state.legal_action_mask() == 0)
    action = int(illegal[int(rng.integers(illegal.size))])
    before = state.to_dict()
    with pytest.raises(IllegalActionError, match=str(action)):
        state.apply(action)
    assert state.to_dict() == before


def fuzz_game(checker: Checker, config: dict, seed: int, choose=None, deep_prob: float = 0.02,
              illegal_prob: float = 0.05) -> int:
    """Play one game, checking after every action; returns the number of actions."""
    rng = np.random.default_rng([seed, 7])
    state = new_game(config, seed=seed)
    checker.check(state, rng)
    steps = 0
    while not state.is_terminal:
        legal = state.legal_actions()
        action = legal[choose(len(legal)) if choose else int(rng.integers(len(legal)))]
        if rng.random() < illegal_prob:
            refuse_illegal(state, rng)
        checker.check_describe(state, action)
        state.apply(action)
        steps += 1
        assert steps < MAX_GAME_STEPS, "game does not end"
        checker.check(state, rng)
        if rng.random() < deep_prob:
            checker.check_deep(state, rng)
    checker.check_deep(state, rng)
    assert len(state.scores()) == checker.n
    return steps


def run_games(num_players: int, legendary: bool, seeds, all_seats: bool = True, **kw) -> Checker:
    checker = Checker(num_players, legendary, all_seats)
    config = {"num_players": num_players, "legendary": legendary}
    for seed in seeds:
        fuzz_game(checker, config, seed, **kw)
    # Hidden content almost always exists (other hands, the deck): resampling must move it.
    assert checker.resamples_changed > 0.5 * checker.resamples, (
        f"resample_hidden changed the hidden content in only {checker.resamples_changed} "
        f"of {checker.resamples} cases")
    return checker


@pytest.mark.parametrize(("num_players", "legendary"), CONFIGS, ids=CONFIG_IDS)
def test_fuzz_random_games(num_players, legendary):
    """Default run: 10 games per configuration (80 in all), deep checks at random points;
    hidden information checked for the player to move and one other seat per action."""
    run_games(num_players, legendary, range(1000 * num_players + legendary * 500,
                                            1000 * num_players + legendary * 500 + 10),
              all_seats=False)


@settings(max_examples=20, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(config=st.sampled_from(CONFIGS), seed=st.integers(0, 2**32 - 1), data=st.data())
def test_fuzz_hypothesis_choices(config, seed, data):
    """Hypothesis picks the configuration, the seed and every action (it favours the first and
    last legal actions, unlike uniform play, and shrinks a failure to a short game)."""
    num_players, legendary = config
    checker = Checker(num_players, legendary, all_seats=False)

    def choose(k: int) -> int:
        return data.draw(st.integers(0, k - 1), label="choice") if k > 1 else 0

    fuzz_game(checker, {"num_players": num_players, "legendary": legendary}, seed, choose=choose)


@pytest.mark.slow
@pytest.mark.parametrize(("num_players", "legendary"), CONFIGS, ids=CONFIG_IDS)
def test_fuzz_many_games(num_players, legendary):
    """>= 2,000 games in all (300 per configuration, 2,400), every action checked."""
    run_games(num_players, legendary, range(10**6 + 10**4 * num_players + 5000 * legendary,
                                            10**6 + 10**4 * num_players + 5000 * legendary + 300),
              deep_prob=0.005, illegal_prob=0.02)
