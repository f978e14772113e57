"""The invariants every fuzzed game is checked against, for any registered game.

``InvariantCheck(game)`` checks one configuration's states, after every action:

* the generic invariants every game keeps: every buffer value within its block's declared
  range (so no count is ever negative), every seat's observation float32 and inside its Box,
  the mask int8, non-empty for the player to move and empty at the end, the standard
  decision blocks showing the pending decision and the turn; checked with whole-array
  comparisons so that they can run after every action of thousands of games
  (``check_state`` names what broke);
* the game's own invariants (what its rules conserve: cards, tokens, gold, outlaws...):
  ``invariants(game) -> check(state)`` of the module ``tests/<game>/invariants.py``, found
  by the game's name (its env id without the version, as for ``docs/<game>.md``). A game
  added later writes its own there; nothing here names a game;
* hidden information, every ``hidden_every`` actions: ``resample_hidden(seat, rng)`` for the
  player to move and another seat (every seat with ``all_seats``) gives a state that seat
  cannot tell apart (the same observation, and the same mask when it is to move) that keeps
  the game's own invariants, and leaves the original as it was;
* the JSON round trip (exact, the same mask) every ``roundtrip_every`` actions and at every
  game's end: it costs more than the other checks together (json encode and decode of the
  whole state);
* every ``deep_every`` actions: a clone, the JSON copy and the original played on with the
  same actions reach the same state without touching each other or the original (clones
  share nothing, and the generator travels in the state); a resampled state looks the same
  to its seat in ``view`` and ``render`` too, and plays on keeping every invariant;
* at every game's end: the result (ranks, totals and the rewards of every reward mode).

``check_action(state, action, rng)`` checks one action before it is applied: the actor and
the referee read its full name, and (now and then) an illegal action is refused and changes
nothing.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

import forest_envs
from forest_envs.core.errors import IllegalActionError
from forest_envs.core.plain import to_json

TESTS = Path(__file__).resolve().parent
FUTURE_STEPS = 300  # how far clones and resampled states are played on: reaches every part


def game_name(env_id: str) -> str:
    """``chickwood_v0`` -> ``chickwood``: the name of the game's docs and test folder."""
    return env_id.rsplit("_v", 1)[0]


def game_module(env_id: str):
    """The game's module of the generic fuzz suites, ``tests/<game>/invariants.py`` (None if
    it has none): ``invariants(game) -> check(state)``, and optionally ``COVERAGE_FUZZ``
    (the coverage fuzz's line-up and budgets for the game, test_coverage_fuzz.py)."""
    name = game_name(env_id)
    if not (TESTS / name / "invariants.py").is_file():
        return None
    return importlib.import_module(f"{name}.invariants")


def own_invariants(game) -> Callable | None:
    """The game's own ``check(state)`` for this configuration, None if it declares none."""
    module = game_module(game.env_id)
    return None if module is None else module.invariants(game)


def random_play(state, rng, steps: int) -> None:
    for _ in range(steps):
        if state.is_terminal:
            return
        legal = np.flatnonzero(state.legal_action_mask())
        state.apply(int(legal[rng.integers(legal.size)]))


def check_state(state, spaces) -> None:
    """The generic invariants one by one, saying which broke (slow: explains a failure)."""
    game = state.game
    assert not game.layout.out_of_range(state.buf), game.layout.out_of_range(state.buf)
    for seat in range(game.num_players):
        obs = state.observation(seat)
        box = spaces[seat]
        assert obs.shape == box.shape and obs.dtype == np.float32
        assert box.contains(obs), f"seat {seat}'s observation leaves its Box"
    mask = state.legal_action_mask()
    assert mask.dtype == np.int8 and mask.shape == (game.num_actions,)
    if state.is_terminal:
        assert state.current_player == -1 and not mask.any()
        assert not state.turn_seat.any()
    else:
        assert 0 <= state.current_player < game.num_players
        assert 0 <= state.turn_player < game.num_players
        assert mask.any(), f"empty mask for player {state.current_player} ({state.decision_name()})"
        assert state.turn_seat.tolist() == np.eye(game.num_players, dtype=int)[state.turn_player].tolist()
    assert shows_decision(state), "the decision blocks do not show the pending decision"


def shows_decision(state) -> bool:
    """Whether the standard decision blocks hold the pending decision: its kind and player
    one-hot, its ints, its seats one-hot (nothing when the game is over)."""
    d = state.decision
    kind, player, ints, seats = (state.decision_kind, state.decision_player, state.decision_data,
                                 state.decision_seat)
    if d is None:
        return not (kind.any() or player.any() or ints.any() or seats.any())
    spec = state.DECISIONS[d.kind]
    width = len(spec.ints)
    carried = list(d.data[width:])
    return (kind.sum() == 1 and kind[d.kind] == 1 and player.sum() == 1 and player[d.player] == 1
            and ints[:width].tolist() == list(d.data[:width]) and not ints[width:].any()
            and seats.sum() == sum(1 for s in carried if s >= 0)
            and all(s < 0 or seats[slot, s] == 1 for slot, s in enumerate(carried)))


def check_result(state) -> None:
    """A finished game's result: ranks from 1, totals as the breakdown says, and every
    reward mode's returns as the engine defines them (win: shared +1; rank: 0..1; score:
    zero-sum)."""
    n, traits = state.num_players, state.game.traits
    ranks = state.ranks()
    assert len(ranks) == n and 1 in ranks and all(1 <= r <= n for r in ranks), ranks
    result = state.result()
    assert result.ranks == ranks
    assert (result.totals is not None) == traits.has_scores
    for mode in traits.reward_modes:
        returns = state.returns(mode)
        assert len(returns) == n
        if mode == "win":
            assert sum(returns) == pytest.approx(1.0) and all(r >= 0 for r in returns)
            assert all((r > 0) == (rank == 1) for r, rank in zip(returns, ranks))
        elif mode == "rank":
            assert all(0.0 <= r <= 1.0 for r in returns)
        else:
            assert sum(returns) == pytest.approx(0.0, abs=1e-9)


def check_action(state, action: int, rng: np.random.Generator, refuse_prob: float = 0.05) -> None:
    """Before ``action`` is applied: the actor and the referee read its full name; with
    probability ``refuse_prob`` a masked-out action is refused, naming it, and changes
    nothing."""
    name = state.game.action_to_string(action)
    assert state.describe_action(action, None) == state.describe_action(action, state.current_player) == name
    if rng.random() >= refuse_prob:
        return
    illegal = np.flatnonzero(state.legal_action_mask() == 0)
    if illegal.size == 0:
        return
    bad = int(illegal[rng.integers(illegal.size)])
    before = state.to_dict()
    with pytest.raises(IllegalActionError, match=f"action {bad} "):
        state.apply(bad)
    assert state.to_dict() == before, "a refused action changed the state"


class InvariantCheck:
    """``check(state)`` after every action of one configuration's fuzzed games."""

    def __init__(self, game, *, seed: int = 0, roundtrip_every: int = 1, hidden_every: int | None = 1,
                 all_seats: bool = False, deep_every: int | None = 50):
        env = forest_envs.make_raw(game.env_id, **game.config)
        self.spaces = [env.observation_spaces[a]["observation"] for a in env.possible_agents]
        layout = game.layout
        self.state_low, self.state_high = layout.state_low, layout.state_high
        self.obs_low, self.obs_high = layout.obs_low, layout.obs_high
        self.turn_onehot = np.eye(game.num_players, dtype=layout.dtype)
        self.own = own_invariants(game)
        self.roundtrip_every = roundtrip_every
        self.hidden = hidden_every if game.traits.hidden_information else None
        self.all_seats = all_seats
        self.deep_every = deep_every
        self.rng = np.random.default_rng(seed)
        self.calls = 0
        self.resamples = 0
        self.resamples_changed = 0   # resamples that redrew something (not the identity)

    def __call__(self, state) -> None:
        self.calls += 1
        if not self._generic_holds(state):
            check_state(state, self.spaces)  # names what broke
            raise AssertionError("a generic invariant broke (check_state did not say which)")
        if self.own is not None:
            self.own(state)
        if self.calls % self.roundtrip_every == 0 or state.is_terminal:
            self.check_roundtrip(state)
        deep = self.deep_every and self.calls % self.deep_every == 0
        if self.hidden and (self.calls % self.hidden == 0 or deep):
            for k, seat in enumerate(self._seats(state)):
                self.check_resample(state, seat, deep, play_on=deep and k == 0)
        if deep:
            self.check_futures(state)
        if state.is_terminal:
            check_result(state)

    def _generic_holds(self, state) -> bool:
        buf = state.buf
        if (buf < self.state_low).any() or (buf > self.state_high).any():
            return False
        for seat in range(state.num_players):
            obs = state.observation(seat)
            if obs.dtype != np.float32 or obs.shape != self.obs_low.shape \
                    or (obs < self.obs_low).any() or (obs > self.obs_high).any():
                return False
        mask = state.legal_action_mask()
        if mask.dtype != np.int8 or mask.shape != (state.game.num_actions,):
            return False
        if state.is_terminal:
            if state.current_player != -1 or mask.any() or state.turn_seat.any():
                return False
        elif not (0 <= state.current_player < state.num_players
                  and 0 <= state.turn_player < state.num_players and mask.any()
                  and np.array_equal(state.turn_seat, self.turn_onehot[state.turn_player])):
            return False
        return shows_decision(state)

    def _seats(self, state) -> list[int]:
        n = state.num_players
        if self.all_seats:
            return list(range(n))
        p = state.current_player
        others = [o for o in range(n) if o != p]
        return ([p] if p >= 0 else []) + [others[int(self.rng.integers(len(others)))]]

    def check_roundtrip(self, state) -> None:
        data = state.to_dict()
        again = state.game.state_from_dict(json.loads(json.dumps(data)))
        assert again.to_dict() == data, "the JSON round trip changed the state"
        assert np.array_equal(again.legal_action_mask(), state.legal_action_mask())

    def check_resample(self, state, seat: int, deep: bool = False, play_on: bool = False) -> None:
        """A state ``seat`` cannot tell from this one looks the same to it (``deep``: in its
        view and its text too; ``play_on``: and it plays on keeping every invariant)."""
        before = state.to_dict() if deep else state.buf.tobytes()
        other = state.resample_hidden(seat, self.rng)
        assert (state.to_dict() if deep else state.buf.tobytes()) == before, (
            "resample_hidden changed the original state")
        if not np.array_equal(other.observation(seat), state.observation(seat)):
            raise AssertionError(f"resample_hidden({seat}) changed what seat {seat} observes")
        if seat == state.current_player and not np.array_equal(other.legal_action_mask(),
                                                                state.legal_action_mask()):
            raise AssertionError(f"resample_hidden({seat}) changed seat {seat}'s legal actions")
        if not self._generic_holds(other):
            check_state(other, self.spaces)
        if self.own is not None:
            self.own(other)
        self.resamples += 1
        self.resamples_changed += not _same_content(other, state)
        if deep:
            assert other.view(seat) == state.view(seat)
            assert other.render(seat) == state.render(seat)
        if play_on:  # a determinization is a playable game of its own
            random_play(other, np.random.default_rng(int(self.rng.integers(2**31))), FUTURE_STEPS)
            if not self._generic_holds(other):
                check_state(other, self.spaces)
            if self.own is not None:
                self.own(other)

    def check_futures(self, state) -> None:
        """A clone and the JSON copy, played on with the same actions, stay equal and never
        touch the original; two clones never touch each other."""
        data = state.to_dict()
        twin = state.clone()
        assert twin.to_dict() == data
        copy = state.game.state_from_dict(json.loads(json.dumps(data)))
        seed = int(self.rng.integers(2**31))
        random_play(twin, np.random.default_rng(seed), FUTURE_STEPS)
        random_play(copy, np.random.default_rng(seed), FUTURE_STEPS)
        assert twin.to_dict() == copy.to_dict(), "a clone and the JSON copy went different ways"
        assert state.to_dict() == data, "playing a clone changed the original"
        if not state.is_terminal:
            snapshot = twin.to_dict()
            probe = state.clone()
            random_play(probe, np.random.default_rng(seed + 1), FUTURE_STEPS)
            assert twin.to_dict() == snapshot, "playing one clone changed another"


def _same_content(a, b) -> bool:
    """Whether two states hold the same buffer and fields (their generators aside)."""
    return a.buf.tobytes() == b.buf.tobytes() and all(
        to_json(getattr(a, f)) == to_json(getattr(b, f)) for f in type(a).FIELDS)


def invariant_check(**options) -> Callable:
    """A ``check(state)`` for ``fuzzing.fuzz`` over any configurations of a game: one
    ``InvariantCheck`` per configuration (built with ``options`` when first met);
    ``check.checks`` maps each configuration's Game id to its check."""
    checks: dict[int, InvariantCheck] = {}

    def check(state) -> None:
        game = state.game
        one = checks.get(id(game))
        if one is None:
            one = checks[id(game)] = InvariantCheck(game, **options)
        one(state)
    check.checks = checks
    return check
