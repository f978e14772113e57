"""The invariants a fuzzed game is checked against after every action, by env id.

``invariant_check(game)`` composes, for one game configuration:

* the generic invariants every registered game keeps (those of
  ``test_generic_invariants.check_state``: every buffer value within its block's declared
  range, every seat's observation float32 and inside its Box, the mask int8 and non-empty
  for the player to move and empty at the end, the JSON round trip exact), checked here
  with whole-array comparisons so that they can run after every action of thousands of
  games (``check_state`` itself is used to explain a failure);
* clone independence (``test_generic_invariants.check_clone_independence``) every
  ``clone_every`` actions;
* the JSON round trip (exact) after every action, or every ``roundtrip_every`` actions and
  at every game's end: it costs more than all the other checks together (json encode and
  decode of the whole state), so the slow suite's long runs take it every tenth action;
* the game's own conservation invariants, registered below by env id (what each game's
  ``test_fuzz.py`` already checks: nothing created or lost). A game added later registers
  its own with ``@game_invariants(env_id)``; the fuzz core never names a game.
"""

from __future__ import annotations

import json
from collections.abc import Callable

import numpy as np
from test_generic_invariants import check_clone_independence, check_state

import forest_envs

# env id -> factory(game) -> check(state): the game's own invariants for one configuration.
GAME_INVARIANTS: dict[str, Callable] = {}


def game_invariants(env_id: str):
    """Register ``factory(game) -> check(state)`` as ``env_id``'s own invariants."""
    def register(factory):
        if env_id in GAME_INVARIANTS:
            raise ValueError(f"invariants of {env_id} are registered twice")
        GAME_INVARIANTS[env_id] = factory
        return factory
    return register


@game_invariants("chickwood_v0")
def _chickwood(game):
    from chickwood.test_fuzz import Checker

    # all_seats=False: the hidden-information resample for the player to move and one other
    # seat (drawn from the checker's own generator) after every action, as its default run.
    checker = Checker(game.num_players, game.config["legendary"], all_seats=False)
    rng = np.random.default_rng(game.num_players)
    return lambda state: checker.check(state, rng)


@game_invariants("roundforest_v0")
def _roundforest(game):
    from roundforest.test_fuzz import check

    return check


@game_invariants("sherwood_v0")
def _sherwood(game):
    from sherwood.test_fuzz import check

    return check


class InvariantCheck:
    """``check(state)`` after every action of one configuration's fuzzed games."""

    def __init__(self, game, clone_every: int | None = 50, seed: int = 0, roundtrip_every: int = 1):
        env = forest_envs.make_raw(game.env_id, **game.config)
        self.spaces = [env.observation_spaces[a]["observation"] for a in env.possible_agents]
        layout = game.layout
        self.state_low, self.state_high = layout.state_low, layout.state_high
        self.obs_low, self.obs_high = layout.obs_low, layout.obs_high
        factory = GAME_INVARIANTS.get(game.env_id)
        self.own = factory(game) if factory is not None else None
        self.clone_every = clone_every
        self.roundtrip_every = roundtrip_every
        self.rng = np.random.default_rng(seed)
        self.calls = 0

    def __call__(self, state) -> None:
        self.calls += 1
        if not self._generic_holds(state):
            check_state(state, self.spaces)  # names what broke
            raise AssertionError("a generic invariant broke (check_state did not say which)")
        if self.own is not None:
            self.own(state)
        if self.clone_every and self.calls % self.clone_every == 0:
            check_clone_independence(state, self.rng)

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
            if state.current_player != -1 or mask.any():
                return False
        elif not (0 <= state.current_player < state.num_players
                  and 0 <= state.turn_player < state.num_players and mask.any()):
            return False
        if self.calls % self.roundtrip_every and not state.is_terminal:
            return True
        data = state.to_dict()
        again = state.game.state_from_dict(json.loads(json.dumps(data)))
        return again.to_dict() == data and np.array_equal(again.legal_action_mask(), mask)


def invariant_check(clone_every: int | None = 50, seed: int = 0, roundtrip_every: int = 1) -> Callable:
    """A ``check(state)`` for ``fuzzing.fuzz`` over any configurations of a game: one
    ``InvariantCheck`` per configuration, built when first met."""
    checks: dict[int, InvariantCheck] = {}

    def check(state) -> None:
        game = state.game
        one = checks.get(id(game))
        if one is None:
            one = checks[id(game)] = InvariantCheck(game, clone_every, seed, roundtrip_every)
        one(state)
    check.checks = checks
    return check
