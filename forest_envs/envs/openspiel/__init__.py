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

The package, one module per part of an OpenSpiel Python game: ``parameters.py`` (the
OpenSpiel name, parameters and GameType), ``configuration.py`` (one validated set of
parameters, shared by its states), ``dealer.py`` (the seed of each new state), ``state.py``
(``ForestState``), ``observer.py`` (``ForestObserver``) and ``game.py`` (``ForestGame`` and
the registration).
"""

from __future__ import annotations

try:
    import pyspiel  # noqa: F401  (checked here, before any module of the package needs it)
except ModuleNotFoundError as err:  # pragma: no cover - exercised only without open_spiel
    raise ModuleNotFoundError("forest_envs.openspiel needs OpenSpiel: pip install 'forest_envs[openspiel]'",
                              name=err.name) from err

from .game import _REGISTERED as _REGISTERED  # the registered GameTypes, which tests read
from .game import ForestGame, load_game, register, register_all
from .observer import ForestObserver
from .parameters import FALLBACK_MAX_STEPS, OPENSPIEL_REWARDS, PLAYERS, PREFIX, game_type, short_name
from .state import ForestState

__all__ = ["FALLBACK_MAX_STEPS", "OPENSPIEL_REWARDS", "PLAYERS", "PREFIX", "ForestGame", "ForestObserver",
           "ForestState", "game_type", "load_game", "register", "register_all", "short_name"]

register_all()
