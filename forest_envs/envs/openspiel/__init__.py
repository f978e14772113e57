"""Every registered game as an OpenSpiel Python game (``pyspiel.load_game("python_<env id>")``).

Shimmy turns OpenSpiel games into PettingZoo ones; this goes the other way, so OpenSpiel's
algorithms (MCTS and IS-MCTS bots, ``rl_environment`` and its agents, ``evaluate_bots``) play
the forest games. Importing the module registers each game of ``core.registry.env_ids()``
with ``pyspiel.register_game`` as ``python_<env id>``; a game registered later is added by
``register(env_id)``. Nothing here names a game: every fact comes from the engine contract
(``core/state.py``) and follows OpenSpiel's own Python games (``kuhn_poker.py``,
``liars_poker.py``): a ``pyspiel.Game`` subclass, a ``pyspiel.State`` subclass with
``current_player`` / ``_legal_actions`` / ``_apply_action`` / ``_action_to_string`` /
``is_terminal`` / ``returns`` / ``__str__``, and an observer (``make_py_observer``) that gives
the observation tensor and the observation and information-state strings.

How the engine maps onto OpenSpiel (docs/openspiel.md says it with the reasons):

* **Parameters.** The game's options, with ``num_players`` under OpenSpiel's name
  ``players``; ``reward`` (``win`` or ``rank``: the engine's reward modes built from the
  game's ranks; ``score`` has no utility bounds, which OpenSpiel needs); ``max_steps`` (the
  game is truncated after that many actions, as the PettingZoo env does: nobody wins, every
  return is 0; default: the game's ``default_max_steps``, else ``FALLBACK_MAX_STEPS``; it is
  ``max_game_length``); ``rng_seed`` (OpenSpiel's name in its sampled-stochastic games).
* **Chance** is the engine's own: ``ChanceMode.SAMPLED_STOCHASTIC``, no chance nodes; every
  shuffle and draw happens inside ``apply`` with the generator the engine state carries.
  The game deals each new state a seed: with ``rng_seed=s >= 0`` the first state gets ``s``
  and the later ones draw from ``numpy.random.default_rng(s)``, the PettingZoo env's rule
  for ``reset(seed=s)`` followed by ``reset()``, so the n-th state is the env's n-th game;
  ``rng_seed=-1`` (the default) takes fresh entropy per state. A clone copies the generator,
  so a clone and its original play on identically.
* **Information.** ``observation_tensor`` is the layout's observation of the seat
  (``state.observation(seat)``, one named piece per layout block); ``observation_string``
  the seat's text view (``state.render(seat)``); ``information_state_string`` is perfect
  recall of the actions: every action so far as that seat could read it
  (``describe_action(action, seat)``, taken before the action is applied), then its view.
  There is no information-state tensor (no fixed-size perfect-recall encoding exists in the
  contract). ``resample_from_infostate(player, sampler)`` is ``resample_hidden(player, rng)``.
"""

from __future__ import annotations

import functools
import weakref
from typing import Any

import numpy as np

try:
    import pyspiel
except ModuleNotFoundError as err:  # pragma: no cover - exercised only without open_spiel
    raise ModuleNotFoundError("forest_envs.openspiel needs OpenSpiel: pip install 'forest_envs[openspiel]'",
                              name=err.name) from err

from ..core import registry
from ..core.errors import ConfigError, IllegalActionError
from ..core.results import REWARD_MODES
from ..core.rng import rng_from_json, rng_to_json

PREFIX = "python_"
# max_game_length of a game whose rules always end it (no ``default_max_steps``): OpenSpiel
# needs a bound, and the state truncates there so that the bound holds. Far above any game's
# length (docs/openspiel.md gives the longest random games measured).
FALLBACK_MAX_STEPS = 10_000
# The engine's reward modes OpenSpiel can take: both are in [0, 1]. "score" (score
# differences) has no bound the engine declares, and GameInfo needs min and max utility.
OPENSPIEL_REWARDS = tuple(m for m in REWARD_MODES if m != "score")
# OpenSpiel's name for the player count (every one of its games with a variable count uses it).
PLAYERS = "players"
_ADAPTER_PARAMS = ("reward", "max_steps", "rng_seed")
_PARAM_TYPES = (bool, int, float, str)

_REGISTERED: dict[str, pyspiel.GameType] = {}
_CREATORS: dict[str, type] = {}  # the registered classes, kept for as long as the process runs


def short_name(env_id: str) -> str:
    """The OpenSpiel name of a game: ``python_<env id>``."""
    return PREFIX + env_id


# --- registration -------------------------------------------------------------------------
def _default_max_steps(game_class) -> int:
    return game_class.default_max_steps or FALLBACK_MAX_STEPS


def _parameter_specification(env_id: str) -> dict[str, Any]:
    """OpenSpiel parameter -> default: the game's options (``num_players`` as ``players``),
    then ``reward``, ``max_steps`` and ``rng_seed``."""
    game_class = registry.game_spec(env_id).game_class
    spec: dict[str, Any] = {}
    for key, option in game_class.options.items():
        if key in _ADAPTER_PARAMS or key == PLAYERS:
            raise ConfigError(f"{env_id} option {key!r} clashes with the OpenSpiel parameter {key!r}")
        if type(option.default) not in _PARAM_TYPES:
            raise ConfigError(f"{env_id} option {key!r} has the default {option.default!r}; an OpenSpiel "
                              "parameter is a bool, int, float or str")
        spec[PLAYERS if key == "num_players" else key] = option.default
    spec["reward"] = _default_reward()
    spec["max_steps"] = _default_max_steps(game_class)
    spec["rng_seed"] = -1
    return spec


def _default_reward() -> str:
    """The PettingZoo env's default reward mode (one default for both front ends)."""
    from .aec import ENV_OPTIONS

    return ENV_OPTIONS["reward"].default


def game_type(env_id: str) -> pyspiel.GameType:
    """The GameType of ``python_<env id>``, from the game's traits (docs/openspiel.md)."""
    traits = registry.game_spec(env_id).game_class.traits
    Type = pyspiel.GameType
    return Type(
        short_name=short_name(env_id),
        long_name=f"Python {traits.name}",
        dynamics=Type.Dynamics.SEQUENTIAL,
        chance_mode=(Type.ChanceMode.SAMPLED_STOCHASTIC if traits.chance
                     else Type.ChanceMode.DETERMINISTIC),
        information=(Type.Information.IMPERFECT_INFORMATION if traits.hidden_information
                     else Type.Information.PERFECT_INFORMATION),
        # "win" pays the winners 1 in all, but a truncated game pays nobody; "rank" sums to
        # more when players share a place: neither has a constant sum.
        utility=Type.Utility.GENERAL_SUM,
        reward_model=Type.RewardModel.TERMINAL,
        max_num_players=traits.max_players,
        min_num_players=traits.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_parameter_specification(env_id))


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


# --- one configuration --------------------------------------------------------------------
class _Setup:
    """What one OpenSpiel game (one set of parameters) fixes, shared by all its states."""

    __slots__ = ("env_id", "engine", "reward", "max_steps", "num_players")

    def __init__(self, env_id: str, config: dict, reward: str, max_steps: int):
        spec = registry.game_spec(env_id)
        self.env_id = env_id
        try:
            self.engine = spec.game_class.shared(config)  # validates the options
        except ConfigError as err:
            note = f" (the OpenSpiel parameter {PLAYERS!r})" if "num_players" in str(err) else ""
            raise ConfigError(f"{short_name(env_id)}: {err}{note}") from None
        modes = [m for m in self.engine.traits.reward_modes if m in OPENSPIEL_REWARDS]
        if reward not in modes:
            why = (" ('score' has no utility bounds, which OpenSpiel needs)"
                   if reward in self.engine.traits.reward_modes else "")
            raise ConfigError(f"{short_name(env_id)} parameter reward={reward!r} is invalid{why}; "
                              f"expected one of {modes}")
        if type(max_steps) is not int or max_steps < 1:
            raise ConfigError(f"{short_name(env_id)} parameter max_steps={max_steps!r} is invalid; "
                              "expected a positive int")
        self.reward, self.max_steps = reward, max_steps
        self.num_players = self.engine.num_players

    @property
    def key(self) -> tuple:
        return _setup_key(self.env_id, self.engine.config, self.reward, self.max_steps)


def _setup_key(env_id: str, config: dict, reward: str, max_steps: int) -> tuple:
    # Each value's type is in the key: 1 == True, and legendary=1 must not find the setup of
    # legendary=True (it deserves the engine's error).
    return (env_id, tuple(sorted((k, type(v).__name__, v) for k, v in config.items())), reward,
            type(max_steps).__name__, max_steps)


@functools.cache
def _setup_of(key: tuple) -> _Setup:
    env_id, config, reward, _, max_steps = key
    return _Setup(env_id, {k: v for k, _, v in config}, reward, max_steps)


def _split_params(env_id: str, params: dict) -> tuple[dict, str, int, int]:
    """OpenSpiel parameters -> (engine config, reward, max_steps, rng_seed)."""
    spec = _parameter_specification(env_id)
    unknown = sorted(set(params) - set(spec))
    if unknown:
        raise ConfigError(f"unknown parameter(s) {unknown} for {short_name(env_id)}; valid ones are "
                          f"{sorted(spec)}")
    full = {**spec, **params}
    config = {("num_players" if k == PLAYERS else k): v for k, v in full.items()
              if k not in _ADAPTER_PARAMS}
    rng_seed = full["rng_seed"]
    if type(rng_seed) is not int or rng_seed < -1:
        raise ConfigError(f"{short_name(env_id)} parameter rng_seed={rng_seed!r} is invalid; expected "
                          "-1 (fresh entropy) or a seed >= 0")
    return config, full["reward"], full["max_steps"], rng_seed


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
        self.shown_to = None  # weak reference to the undealt _Play whose tensor showed it

    def _next_seed(self) -> int:
        if self.rng is None:
            return int(np.random.SeedSequence().entropy % 2**62)
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


def _unpickle_state(game: ForestGame, serialized: str) -> ForestState:
    return game.deserialize_state(serialized)


# --- the state ----------------------------------------------------------------------------
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
            self._engine = self.dealer.take(self)
        return self._engine

    def observed_engine(self):
        """The engine state to write a tensor from: a state not used yet is not dealt."""
        return self._engine if self._engine is not None else self.dealer.peek(self)

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


# --- observing ----------------------------------------------------------------------------
class ForestObserver:
    """Observer, conforming to the PyObserver interface (see observation.py).

    A seat's observation (``private_info=SINGLE_PLAYER``): the tensor is the layout's
    observation of the seat (``tensor`` with one named piece per observed layout block in
    ``dict``), the string its text view; with ``perfect_recall`` the string starts with every
    action so far as the seat read it, and there is no tensor. ``ALL_PLAYERS``: the referee's
    (``global_state`` and the full view). Public-only observations are not offered: the
    contract has no public text view.
    """

    def __init__(self, setup: _Setup, iig_obs_type, params):
        """Initializes an empty observation tensor."""
        if params:
            raise ValueError(f"Observation parameters not supported; passed {params}")
        private = iig_obs_type.private_info
        if not iig_obs_type.public_info or private == pyspiel.PrivateInfoType.NONE:
            raise ValueError(f"{short_name(setup.env_id)} offers a seat's observation (private_info="
                             "SINGLE_PLAYER) and the referee's (ALL_PLAYERS), both with public_info; "
                             f"got {iig_obs_type}")
        self._referee = private == pyspiel.PrivateInfoType.ALL_PLAYERS
        self._recall = iig_obs_type.perfect_recall
        layout = setup.engine.layout
        if self._recall:
            pieces = []
        elif self._referee:
            pieces = [(b.name, b.offset, b.offset + b.size, b.shape) for b in layout.blocks.values()]
        else:
            pieces = [(name, start, stop, shape)
                      for name, (start, stop, shape) in layout.observation_slices().items()]
        # Build the single flat tensor and the named, reshaped views of its pieces.
        self.tensor = None if self._recall else np.zeros(
            layout.size if self._referee else layout.observation_size, np.float32)
        self.dict = {}
        for name, start, stop, shape in pieces:
            if stop > start:  # an empty block adds nothing (and OpenSpiel wants no empty piece)
                self.dict[name] = self.tensor[start:stop].reshape(shape or (1,))

    def set_from(self, state, player):
        """Updates `tensor` and `dict` to reflect `state` from PoV of `player`."""
        if self.tensor is None:
            raise ValueError("a perfect-recall observation has no tensor")
        engine = state._play.observed_engine()
        self.tensor[:] = engine.global_state() if self._referee else engine.observation(player)

    def string_from(self, state, player):
        """Observation of `state` from the PoV of `player`, as a string."""
        play = state._play
        seat = None if self._referee else player
        view = play.view(seat)
        if not self._recall:
            return view
        who = "referee" if seat is None else f"player {seat}"
        return f"{who} after {len(play.log)} action(s)\n{play.recalled(seat)}{view}"


register_all()
