"""An OpenSpiel state of a forest game: ``ForestState`` (the ``pyspiel.State`` subclass) and
``_Play``, everything it holds on the Python side (the engine state, the action log each
seat read, the cached text views)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import pyspiel

from ...core.errors import IllegalActionError
from .configuration import _setup_of

if TYPE_CHECKING:
    from .configuration import _Setup
    from .dealer import _Dealer
    from .game import ForestGame


class _Play:
    """Everything of one OpenSpiel state on the Python side, in one attribute: OpenSpiel's
    ``clone`` deep-copies and its ``serialize`` pickles the state's ``__dict__``, and this
    makes the first a real engine clone and the second the engine's JSON round trip.

    ``log`` holds one entry per action: (actor, what each seat read of it). ``recall``
    keeps, per seat, the text of the first entries of the log (count, text), so that an
    information-state string costs the new entries only; ``cache`` the strings of this
    position (dropped at every action)."""

    __slots__ = ("setup", "dealer", "_engine", "log", "recall", "cache", "__weakref__")

    def __init__(self, setup: _Setup, dealer: _Dealer | None, engine=None, log=None):
        self.setup, self.dealer, self._engine = setup, dealer, engine
        self.log: list[tuple[int, tuple[str, ...]]] = [] if log is None else log
        self.recall: dict = {}
        self.cache: dict = {}

    @property
    def engine(self):
        if self._engine is None:
            assert self.dealer is not None  # (a play made without a dealer is given its engine)
            self._engine = self.dealer.take(self)
        return self._engine

    def observed_engine(self):
        """The engine state to write a tensor from: a state not used yet is not dealt."""
        if self._engine is not None:
            return self._engine
        assert self.dealer is not None  # (as in ``engine``)
        return self.dealer.peek(self)

    def over(self) -> bool:
        return self.engine.is_terminal or len(self.log) >= self.setup.max_steps

    def view(self, seat: int | None) -> str:
        """The seat's text view of this position (None: the referee's)."""
        text = self.cache.get(seat)
        if text is None:
            text = self.cache[seat] = self.engine.render(seat)
        return text

    def recalled(self, seat: int | None) -> str:
        """The log as ``seat`` read it, one line per action (None: the referee, who reads
        every action as its actor did, in full)."""
        count, text = self.recall.get(seat, (0, ""))
        log = self.log
        if count < len(log):
            new = "".join(f"{i}. player {actor}: {seen[actor if seat is None else seat]}\n"
                          for i, (actor, seen) in enumerate(log[count:], count + 1))
            text = text + new
            self.recall[seat] = (len(log), text)
        return text

    def __deepcopy__(self, memo):
        new = _Play(self.setup, None, self.engine.clone(), list(self.log))
        new.recall = dict(self.recall)  # immutable strings of the same log
        new.cache = dict(self.cache)    # the same position: the same strings
        return new

    def __reduce__(self):
        return _unpickle_play, (self.setup.key, self.engine.to_dict(), self.log)


def _unpickle_play(key: tuple, engine: dict, log: list) -> _Play:
    setup = _setup_of(key)
    return _Play(setup, None, setup.engine.state_from_dict(engine), [(a, tuple(s)) for a, s in log])


class ForestState(pyspiel.State):
    """One play of a forest game; the engine state it drives is ``engine_state``."""

    def __init__(self, game: ForestGame, play: _Play):
        """Constructor; should only be called by ForestGame.new_initial_state."""
        super().__init__(game)
        self._play = play

    @property
    def engine_state(self):
        """The engine state (read it, do not change it: the log would no longer match)."""
        return self._play.engine

    # OpenSpiel (PySpiel) API functions are below.
    def current_player(self):
        """Returns id of the next player to move, or TERMINAL if game is over."""
        play = self._play
        if play.over():
            return pyspiel.PlayerId.TERMINAL
        return play.engine.current_player

    def _legal_actions(self, player):
        """Returns a list of legal actions, sorted in ascending order."""
        assert player >= 0
        return self._play.engine.legal_actions()

    def chance_outcomes(self):
        """Never called: chance is sampled inside ``_apply_action`` (no chance nodes)."""
        raise pyspiel.SpielError(f"{self.get_game()} has no chance nodes (SAMPLED_STOCHASTIC)")

    def _apply_action(self, action):
        """Applies the specified action to the state."""
        play = self._play
        engine = play.engine
        if play.over() and not engine.is_terminal:  # the engine would play on
            raise IllegalActionError(f"the game was truncated at max_steps={play.setup.max_steps}; "
                                     "no action can be applied")
        actor = engine.current_player
        # what each seat reads of the action, before it changes what describe_action sees
        seen = tuple(engine.describe_action(action, seat) for seat in range(play.setup.num_players))
        engine.apply(action)  # IllegalActionError (nothing changes) for an illegal action
        play.log.append((actor, seen))
        play.cache = {}

    def _action_to_string(self, player, action):
        """Action -> string (its name, as the acting player knows it)."""
        return self._play.setup.engine.action_to_string(action)

    def is_terminal(self):
        """Returns True if the game is over (by its rules, or truncated at max_steps)."""
        return self._play.over()

    def returns(self):
        """Total reward for each player over the course of the game so far: the engine's
        returns from the game's ranks at the end; 0 for everybody before it and in a
        truncated game (nobody wins it, as in the PettingZoo env)."""
        play = self._play
        engine = play.engine
        if engine.is_terminal:
            return engine.returns(play.setup.reward)
        return [0.0] * play.setup.num_players

    def truncated(self) -> bool:
        """True when the game ended at ``max_steps`` and not by its rules."""
        return not self._play.engine.is_terminal and self._play.over()

    def resample_from_infostate(self, player_id, probability_sampler):
        """A state ``player_id`` cannot tell from this one: the engine's
        ``resample_hidden(player_id, rng)``, with ``rng`` seeded from ``probability_sampler``
        (a callable returning floats in [0, 1), as OpenSpiel's samplers are). Its history is
        this state's; every seat's record of the past actions becomes what ``player_id``
        read of them (what the others read is not known to it)."""
        seed = int(probability_sampler() * 2**53)
        new = self.clone()
        play = new._play
        play._engine = self._play.engine.resample_hidden(player_id, np.random.default_rng(seed))
        n = play.setup.num_players
        play.log = [(actor, (seen[player_id],) * n) for actor, seen in play.log]
        play.recall, play.cache = {}, {}
        return new

    def __reduce_ex__(self, protocol):
        """Pickled as its game and ``serialize()`` (OpenSpiel's own pickling needs the game
        serialized, which a Python game with sampled chance cannot do)."""
        return _unpickle_state, (self.get_game(), self.serialize())

    def __str__(self):
        """The referee's view of everything (for debugging; never shown to a seat)."""
        return self._play.view(None)


def _unpickle_state(game: ForestGame, serialized: str) -> ForestState:
    return game.deserialize_state(serialized)
