"""How the states of one OpenSpiel game get their seeds (``_Dealer``): the PettingZoo env's
rule, and no seed used up by the throw-away states OpenSpiel makes."""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING

import numpy as np

from ...core.rng import fresh_seed, rng_from_json, rng_to_json

if TYPE_CHECKING:
    from .configuration import _Setup
    from .state import _Play


class _Dealer:
    """Deals the new states of one game, each when it is first used.

    Seeds follow the PettingZoo env's rule: ``rng_seed=s`` deals seed s first (as
    ``reset(seed=s)``), then seeds drawn from ``default_rng(s)`` (as each later
    ``reset()``); ``rng_seed=-1`` fresh entropy. A new state is dealt only when used, because
    OpenSpiel makes throw-away new states: ``clone`` starts from one and overwrites it, and
    ``observation_tensor_size`` (called by every ``observation_tensor``) writes the
    observation of one. Such a tensor is written from the *pending* deal, which the next
    state used receives (unless another state still alive was shown it: then that one keeps
    it and the next gets a deal of its own), so no throw-away state uses up a seed."""

    __slots__ = ("setup", "first", "rng", "pending", "shown_to")

    def __init__(self, setup: _Setup, rng_seed: int):
        self.setup = setup
        self.first = rng_seed if rng_seed >= 0 else None
        self.rng = np.random.default_rng(rng_seed) if rng_seed >= 0 else None
        self.pending = None   # an engine state dealt and not yet handed out
        # a weak reference to the undealt _Play whose tensor showed it
        self.shown_to: weakref.ref[_Play] | None = None

    def _next_seed(self) -> int:
        if self.rng is None:
            return fresh_seed()
        if self.first is not None:
            seed, self.first = self.first, None
            return seed
        return int(self.rng.integers(2**62))

    def _deal(self):
        return self.setup.engine.new_initial_state(self._next_seed())

    def _pending_free_for(self, play: _Play) -> bool:
        viewer = self.shown_to() if self.shown_to is not None else None
        return viewer is None or viewer is play

    def snapshot(self) -> tuple:
        """Where the deals have got to, as plain data (the pending deal included)."""
        return (self.first, None if self.rng is None else rng_to_json(self.rng),
                None if self.pending is None else self.pending.to_dict())

    def restore(self, snapshot: tuple) -> None:
        self.first, rng, pending = snapshot
        self.rng = None if rng is None else rng_from_json(rng)
        self.pending = None if pending is None else self.setup.engine.state_from_dict(pending)
        self.shown_to = None

    def take(self, play: _Play):
        """The engine state of ``play``, used for the first time."""
        if self.pending is not None and self._pending_free_for(play):
            state, self.pending, self.shown_to = self.pending, None, None
            return state
        return self._deal()

    def peek(self, play: _Play):
        """What ``play`` will be dealt, for a tensor, without dealing it yet."""
        if self.pending is None:
            self.pending = self._deal()
        elif not self._pending_free_for(play):
            return play.engine  # another live state was shown the pending deal: deal this one
        self.shown_to = weakref.ref(play)
        return self.pending
