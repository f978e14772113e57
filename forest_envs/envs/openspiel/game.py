"""The OpenSpiel game of a forest game: ``ForestGame`` (the ``pyspiel.Game`` subclass, one
subclass per env id) and its registration with ``pyspiel`` (``register``, ``register_all``,
``load_game``)."""

from __future__ import annotations

from typing import Any

import pyspiel

from ...core import registry
from ...core.errors import ConfigError
from .configuration import _setup_key, _setup_of
from .dealer import _Dealer
from .observer import ForestObserver
from .parameters import _split_params, game_type, short_name
from .state import ForestState, _Play

_REGISTERED: dict[str, pyspiel.GameType] = {}
_CREATORS: dict[str, type] = {}  # the registered classes, kept for as long as the process runs


# --- registration -------------------------------------------------------------------------
def register(env_id: str) -> str:
    """Register ``env_id`` (a game of ``core.registry``) with OpenSpiel; returns its name.
    Registering again is allowed (OpenSpiel replaces the entry)."""
    gtype = game_type(env_id)
    # A class per game, as OpenSpiel's own Python games register theirs. (A partial object
    # would be freed by OpenSpiel's registry after Python has shut down: a crash at exit.)
    creator = type(f"ForestGame_{env_id}", (ForestGame,), {"env_id": env_id, "__module__": __name__})
    pyspiel.register_game(gtype, creator)
    _REGISTERED[env_id] = gtype
    _CREATORS[env_id] = creator
    return gtype.short_name


def register_all() -> list[str]:
    """Register every game of ``core.registry.env_ids()``; returns their OpenSpiel names."""
    return [register(env_id) for env_id in registry.env_ids()]


def load_game(env_id: str, **params: Any) -> pyspiel.Game:
    """``pyspiel.load_game("python_<env id>", params)``, registering the game first if needed."""
    if env_id not in _REGISTERED:
        registry.game_spec(env_id)  # an unknown id: the registry's error, listing the valid ones
        register(env_id)
    return pyspiel.load_game(short_name(env_id), params)


# --- the game -----------------------------------------------------------------------------
class ForestGame(pyspiel.Game):
    """A registered forest_envs game as an OpenSpiel game (``pyspiel.load_game`` builds it):
    ``register`` makes one subclass per game, naming its ``env_id``."""

    env_id: str

    def __init__(self, params: dict | None = None):
        env_id = self.env_id
        config, reward, max_steps, rng_seed = _split_params(env_id, dict(params or {}))
        setup = _setup_of(_setup_key(env_id, config, reward, max_steps))
        gtype = _REGISTERED.get(env_id) or game_type(env_id)
        info = pyspiel.GameInfo(
            num_distinct_actions=setup.engine.num_actions,
            max_chance_outcomes=0,  # sampled inside apply: no chance nodes
            num_players=setup.num_players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=None,
            max_game_length=max_steps)
        full = {**gtype.parameter_specification, **(params or {})}
        super().__init__(gtype, info, full)
        self.setup = setup
        self._dealer = _Dealer(setup, rng_seed)

    def new_initial_state(self):
        """A new game; it is dealt (its seed drawn) when first used, so that OpenSpiel's
        ``clone``, which starts from a new state and overwrites it, never uses up a seed."""
        return ForestState(self, _Play(self.setup, self._dealer))

    def new_state_from(self, engine_state) -> ForestState:
        """An OpenSpiel state playing on from a copy of an engine state of this configuration
        (a test position or a puzzle, as the env's ``reset(options={"state": ...})``); its
        history starts there."""
        engine = getattr(engine_state, "game", None)
        if engine is None or engine.env_id != self.setup.env_id or engine.config != self.setup.engine.config:
            raise ConfigError(f"new_state_from needs a {self.setup.env_id} engine state with config "
                              f"{self.setup.engine.config}")
        return ForestState(self, _Play(self.setup, None, engine_state.clone()))

    def engine_game(self):
        """The engine's Game of this configuration (``core.game.Game``)."""
        return self.setup.engine

    def __reduce_ex__(self, protocol):
        """Pickled as its parameters and where its deals have got to. (OpenSpiel pickles a
        game by serializing it, which a Python game with sampled chance cannot do.)"""
        return _unpickle_game, (self.env_id, dict(self.get_parameters()), self._dealer.snapshot())

    def make_py_observer(self, iig_obs_type=None, params=None):
        """Returns an object used for observing game state."""
        return ForestObserver(self.setup, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False),
                              params)


def _unpickle_game(env_id: str, params: dict, dealer: tuple) -> ForestGame:
    game = load_game(env_id, **params)
    game._dealer.restore(dealer)
    return game
