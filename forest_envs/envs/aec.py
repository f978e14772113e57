"""The one PettingZoo AEC adapter every game uses.

It owns nothing game-specific: a ``Game`` (see engine.py) supplies spaces, states and names.
The hot path (``step`` / ``last`` / ``observe``) does a handful of dict look-ups and defers
to the engine, whose mask is cached per state and whose observation is a single gather.

The legal-action mask is in two places, as PettingZoo's conventions allow either:
``observe(agent)["action_mask"]`` and ``infos[agent]["action_mask"]`` (kept when a wrapper
replaces the observation). Both are the legal mask for the agent to move and all zeros for
every other agent and once the game has ended.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ..core import engines
from ..core.config import Option, validate_options
from ..core.errors import ConfigError, IllegalActionError, WrongAgentError
from ..core.game import Game
from ..core.presentation import move_line
from ..core.results import REWARD_MODES
from ..core.rng import fresh_seed
from ..core.state import BufferState, GameState
from .outcome import FINISHED, ILLEGAL, TRUNCATED, UNFINISHED, Outcome

_number: dict[str, Any] = dict(check=lambda v: isinstance(v, (int, float, np.integer, np.floating))
               and not isinstance(v, (bool, np.bool_)), doc="a number")

ENV_OPTIONS = {
    "render_mode": Option(None, choices=(None, "ansi", "human", "rgb_array")),
    "reward": Option("win", choices=REWARD_MODES, doc="a reward mode the game declares"),
    "illegal_action": Option("raise", choices=("raise", "penalize")),
    "illegal_penalty": Option(-1.0, **_number),
    "max_steps": Option(None, check=lambda v: v is None or bool(isinstance(v, (int, np.integer))
                                                                  and not isinstance(v, bool) and v > 0),
                        doc="None (the game's default) or a positive int"),
    # The same games on either engine (core/engines.py); None: $FOREST_ENVS_ENGINE, else native
    # where built.
    "engine": Option(None, choices=(None, *engines.ENGINES)),
}
# Env options that do not change the game a record replays (it replays on any engine).
_NOT_RECORDED = ("render_mode", "engine")


# What ``reset(options=...)`` takes (game and env options are given to make()).
RESET_OPTIONS = {"state": "an engine state of this game and configuration to start from"}
# PettingZoo's api_test calls reset(options={"options": 1}) to check that an env takes a
# dict it does not use: that one key is let through; every other unknown key is an error.
_IGNORED_RESET_OPTIONS = ("options",)

_ZERO_MASKS: dict[int, np.ndarray] = {}


def zero_mask(num_actions: int) -> np.ndarray:
    """The all-zero mask of that size: one read-only array, shared by every env (the infos of
    agents not to move hold it; equal infos of two envs then compare equal)."""
    mask = _ZERO_MASKS.get(num_actions)
    if mask is None:
        mask = np.zeros(num_actions, np.int8)
        mask.flags.writeable = False
        _ZERO_MASKS[num_actions] = mask
    return mask


def split_options(kwargs: dict[str, Any]) -> tuple[dict, dict]:
    env_opts = {k: v for k, v in kwargs.items() if k in ENV_OPTIONS}
    game_opts = {k: v for k, v in kwargs.items() if k not in ENV_OPTIONS}
    return env_opts, game_opts


class ForestAECEnv(AECEnv):
    """A PettingZoo AEC environment around a forest_envs engine.

    Options: ``render_mode`` (None/"ansi"/"human"/"rgb_array": ``render()`` draws the
    referee's view, as text or as an image; "human" prints each move and the table after it
    as ``step`` plays it, and nothing else; ``render_text(agent)`` and
    ``render_image(agent)`` draw one seat's), ``reward`` (built from the game's ranks:
    "win": the players ranked first share +1; "rank": 1 for first down to 0 for last;
    "score", in games with points: score difference to the opponents' mean / the game's
    score scale), ``illegal_action`` ("raise" or "penalize": the game ends, the offender gets
    ``illegal_penalty``, the others 0, and nobody wins), ``max_steps`` (truncate after that
    many actions: nobody wins, every reward is 0; None takes the game's
    ``default_max_steps``). Every other keyword is a game option.
    """

    game_class: type[Game]
    metadata: dict[str, Any] = {"render_modes": ["ansi", "human", "rgb_array"], "is_parallelizable": False,
                "render_fps": 1}

    def __init__(self, game_class: type[Game] | None = None, **kwargs: Any):
        super().__init__()
        if game_class is not None:
            self.game_class = game_class
        # Unknown keys are checked here against both schemas: left to the game, the message
        # listed only the game's options and hid reward, max_steps, etc.
        unknown = sorted(set(kwargs) - set(ENV_OPTIONS) - set(self.game_class.options))
        if unknown:
            raise ConfigError(
                f"unknown option(s) {unknown} for {self.game_class.env_id}; valid game options "
                f"are {sorted(self.game_class.options)}, valid env options are {sorted(ENV_OPTIONS)}")
        env_opts, game_opts = split_options(kwargs)
        self.env_options = validate_options(ENV_OPTIONS, env_opts, "environment")
        self.game = self.game_class(**game_opts)
        modes = self.game.traits.reward_modes
        if self.env_options["reward"] not in modes:
            raise ConfigError(f"environment option reward={self.env_options['reward']!r} is invalid "
                              f"for {self.game.env_id}; expected one of {list(modes)}")
        self.metadata = dict(self.metadata, name=self.game.env_id)
        if not self.game.state_class.has_picture():
            # A game without a picture offers no rgb_array mode, and refuses to be asked for it.
            self.metadata["render_modes"] = [m for m in self.metadata["render_modes"] if m != "rgb_array"]
            if self.env_options["render_mode"] == "rgb_array":
                raise ConfigError(f"{self.game.env_id} has no picture, so render_mode='rgb_array' is "
                                  f"not available; choose one of {self.metadata['render_modes']}")
        self.render_mode = self.env_options["render_mode"]
        if self.render_mode == "human":
            # gymnasium's human mode renders during step(), render() need not be called: the
            # moves are printed as they are played. Bound here, so every other mode keeps the
            # hot step() as it is (and nothing prints unless a human mode was asked for).
            self.step = self._step_printed  # type: ignore[method-assign]
        self._reward_mode = self.env_options["reward"]
        self._max_steps = self.env_options["max_steps"] or self.game.default_max_steps
        # One comparison per step instead of a None test and a comparison.
        self._step_limit = float("inf") if self._max_steps is None else self._max_steps
        n = self.game.num_players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self._seat_of = {a: i for i, a in enumerate(self.possible_agents)}
        layout = self.game.layout
        obs_box = spaces.Box(layout.obs_low, layout.obs_high, dtype=np.float32)
        mask_box = spaces.Box(0, 1, (self.game.num_actions,), dtype=np.int8)
        self.observation_spaces = {a: spaces.Dict({"observation": obs_box, "action_mask": mask_box})
                                   for a in self.possible_agents}
        self.action_spaces: dict[str, spaces.Space] = {
            a: spaces.Discrete(self.game.num_actions) for a in self.possible_agents}
        self.state_space = spaces.Box(layout.state_low, layout.state_high, dtype=np.float32)
        self._no_mask = zero_mask(self.game.num_actions)  # read-only: observe() hands out copies
        # The engine's state class (core/engines.py): the same games on either engine.
        self.engine = engines.resolve_engine(self.game_class, self.env_options["engine"])
        self._state_class = engines.state_class(self.game_class, self.engine)
        # A native mask is a new array at every call: handed out without another copy.
        self._fresh_masks = self.engine == "native"
        # The Python engine's observation is its layout's gather: called directly, one Python
        # call less per step. A state class that overrides ``observation`` gets it called.
        self._layout_observe = (layout.observe if self._state_class.observation
                                is BufferState.observation else None)
        # The generator that seeds a reset without a seed, from the last reset's seed; made
        # at the first such reset (_next_seed), since most resets (a trainer's) pass a seed.
        self._seeder: np.random.Generator | None = None
        self._seeder_seed: int | None = None
        self.engine_state: GameState | None = None  # (None until reset)
        # True once the game has ended (by its rules, truncation or an illegal action): from
        # then on every agent is terminated or truncated. One flag read on every observe and
        # step instead of a list scan and two dict look-ups.
        self._ended = False
        self._outcome: Outcome | None = None  # (set as the game ends: outcome())

    # --- PettingZoo API -------------------------------------------------------------------
    def observation_space(self, agent: str):
        return self.observation_spaces[self._check_agent(agent)]

    def action_space(self, agent: str):
        return self.action_spaces[self._check_agent(agent)]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """A new game from ``seed``; ``options={"state": state}`` starts from a copy of a given
        engine state of this game and configuration instead (tests, puzzles, search). Any
        other key, or options that are not a dict, raise ConfigError naming the valid ones."""
        start = self._start_state(options)
        if seed is not None:
            game_seed = _check_seed(seed)
            self._seeder, self._seeder_seed = None, game_seed
        elif self._seeder_seed is not None:
            game_seed = self._next_seed()
        else:
            game_seed = fresh_seed()
        self._seed = game_seed
        self._initial = None if start is None else start.to_dict()
        if start is None:
            self.engine_state = self.game.new_initial_state(game_seed, self.engine)
        elif type(start) is self._state_class:
            self.engine_state = start.clone()
        else:  # a state of the other engine: the same position on this env's engine
            assert self._initial is not None  # (written from start above)
            self.engine_state = self._state_class.from_dict(self.game, self._initial)
        self._actions: list[int | str] = []  # (an illegal action that is no int: its repr)
        self.num_steps = 0
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        no_mask = self._no_mask
        self.infos: dict[str, dict[str, Any]] = {a: {"action_mask": no_mask} for a in self.agents}
        self._ended = False
        self._outcome = None
        self.agent_selection = mover = self.possible_agents[self.engine_state.current_player]
        self.infos[mover] = {"action_mask": self._mask_copy(self.engine_state)}

    def _mask_copy(self, state) -> np.ndarray:
        """The state's legal mask as an array nobody else holds (a native state's is new)."""
        mask = state.legal_action_mask()
        return mask if self._fresh_masks else mask.copy()

    def _next_seed(self) -> int:
        """The next game's seed after ``reset(seed=s)``: the draws of ``default_rng(s)``, in
        order. The generator is built here, not by the seeded reset: building it costs about
        10 us, and 100 us after a game of Python agents has left numpy's code out of the
        CPU's caches (about a tenth of a training env's own time; docs/training.md)."""
        if self._seeder is None:
            self._seeder = np.random.default_rng(self._seeder_seed)
        return int(self._seeder.integers(2**62))

    def _start_state(self, options: dict | None):
        if options is None:
            return None
        if not isinstance(options, Mapping):
            raise ConfigError(f"reset options must be a dict such as {{'state': state}} or None, "
                              f"got {options!r}")
        unknown = sorted((k for k in options if k not in RESET_OPTIONS and k not in _IGNORED_RESET_OPTIONS),
                         key=repr)
        if unknown:
            raise ConfigError(f"unknown reset option(s) {unknown} for {self.game.env_id}; valid reset "
                              f"options are {sorted(RESET_OPTIONS)} (game and env options go to make())")
        if options.get("state") is None:
            return None
        state = options["state"]
        if getattr(state, "game", None) is None or state.game.env_id != self.game.env_id \
                or state.game.config != self.game.config:
            raise ConfigError(f"reset(options={{'state': ...}}) needs a {self.game.env_id} state with "
                              f"config {self.game.config}")
        if state.is_terminal:
            raise ConfigError("reset(options={'state': ...}) got a finished game; there is nothing to play")
        return state

    def observe(self, agent: str) -> dict:
        seat = self._seat_of.get(agent)
        if seat is None:
            self._check_agent(agent)  # (raises: no agent of this env)
        assert seat is not None
        state = self.engine_state
        if state is None:
            raise RuntimeError("observe() called before reset()")
        # Only the agent to move in a running game gets its mask; always a copy, so a caller
        # writing into it never changes the engine's cached mask. While the game runs,
        # agent_selection is the current player's agent (reset and step set it so): one
        # comparison instead of the engine's current_player property.
        if agent == self.agent_selection and not self._ended:
            mask = state.legal_action_mask()
            if not self._fresh_masks:
                mask = mask.copy()
        else:
            mask = self._no_mask.copy()
        layout_observe = self._layout_observe
        observation = (layout_observe(state.buf, seat) if layout_observe is not None
                       else state.observation(seat))
        return {"observation": observation, "action_mask": mask}

    def step(self, action) -> None:
        state = self.engine_state
        if state is None:
            raise RuntimeError("step() called before reset()")
        agent = self.agent_selection
        if self._ended:
            self._was_dead_step(action)
            return
        try:
            state.apply(action)
        except IllegalActionError as err:
            if self.env_options["illegal_action"] == "raise":
                raise IllegalActionError(_naming_agents(str(err), agent)) from None
            self._end_for_illegal(agent, action)
            return
        self._cumulative_rewards[agent] = 0.0
        self._actions.append(action if type(action) is int else int(action))
        self.num_steps += 1
        player = state.current_player  # -1: the game is over (is_terminal)
        if player < 0:
            self._finish(state.result())
        elif self.num_steps >= self._step_limit:
            self._ended = True
            for a in self.agents:
                self.truncations[a] = True
            self._set_end_infos(truncated=True)
        else:
            # The mover's info gets the new mask: the engine computes it for the next apply
            # anyway (cached), so this costs one copy. Info dicts are replaced, never changed,
            # so one kept from an earlier step still says what it said.
            mover = self.possible_agents[player]
            infos = self.infos
            if mover != agent:
                infos[agent] = {"action_mask": self._no_mask}
                self.agent_selection = mover
            mask = state.legal_action_mask()
            infos[mover] = {"action_mask": mask if self._fresh_masks else mask.copy()}

    def last(self, observe: bool = True):
        # AECEnv.last without its super() hop: an agent_iter loop calls it on every step.
        if self.engine_state is None:
            raise RuntimeError("last() called before reset()")
        agent = self.agent_selection
        return (self.observe(agent) if observe else None, self._cumulative_rewards[agent],
                self.terminations[agent], self.truncations[agent], self.infos[agent])

    def state(self) -> np.ndarray:
        return self._reset_state("state").global_state()

    def render(self):
        """The referee's table: text ("ansi"), an image ("rgb_array"), or None ("human",
        which prints each move and the table after it as ``step`` plays it)."""
        if self.render_mode is None:
            import gymnasium

            gymnasium.logger.warn("render() called without a render_mode; pass render_mode='ansi'")
            return None
        if self.render_mode == "rgb_array":
            return self.render_image()
        return None if self.render_mode == "human" else self.render_text()

    def _step_printed(self, action) -> None:
        """``step`` in the human mode: the starting table before the first move, then each
        move as the referee reads it and the table after it (an illegal move's end in a line)."""
        state, steps = self.engine_state, self.num_steps
        if state is None or self._ended:  # step's own error, or PettingZoo's dead step
            type(self).step(self, action)
            return
        if steps == 0:
            print(self.render_text())
        before = state.clone()
        type(self).step(self, action)
        if self.num_steps > steps:
            print(move_line(before, state, action))
            print(self.render_text())
        elif self._ended:
            print(f"P{before.current_player}: illegal action {action!r}; the game ends")

    def close(self) -> None:
        pass

    # --- extras -----------------------------------------------------------------------------
    def action_mask(self, agent: str) -> np.ndarray:
        """The agent's legal-action mask (all zeros when it is not its turn)."""
        if agent not in self._seat_of:
            self._check_agent(agent)
        state = self.engine_state  # read inline: agents call this on every step
        if state is None:
            raise RuntimeError("action_mask() called before reset()")
        # As in observe: while the game runs, agent_selection is the current player's agent.
        if self._ended or agent != self.agent_selection:
            return self._no_mask.copy()
        return self._mask_copy(state)

    def steps_left(self) -> int | None:
        """Actions until this env truncates the game (None: it never does); public, as a
        table's agreed time limit is."""
        return None if self._max_steps is None else max(0, self._max_steps - self.num_steps)

    def view(self, agent: str | None) -> dict:
        """What ``agent`` may know, as plain Python data (for scripted agents and humans);
        ``None``: the referee's view of everything, as ``render_text(None)`` draws it."""
        seat = None if agent is None else self._seat_of[self._check_agent(agent)]
        return self._reset_state("view").view(seat)

    def reading(self, agent: str):
        """What ``agent`` may know as the game's light record for scripted agents
        (``State.reading``)."""
        return self._reset_state("reading").reading(self._seat_of[self._check_agent(agent)])

    def render_text(self, agent: str | None = None) -> str:
        seat = None if agent is None else self._seat_of[self._check_agent(agent)]
        return self._reset_state("render_text").render(seat)

    def render_image(self, agent: str | None = None) -> np.ndarray:
        """An H x W x 3 uint8 picture of what ``agent`` may know (``None``: the referee's view
        of everything, which is what ``render()`` shows in every mode)."""
        seat = None if agent is None else self._seat_of[self._check_agent(agent)]
        return self._reset_state("render_image").picture(seat)

    def legend(self) -> str | None:
        """The key to the board text of ``render_text`` (what its abbreviations and symbols
        mean), if the game gives one: a ``render_legend()`` method of its state or its game
        class returning text. None when the game has none (the CLI then says less)."""
        for owner in (self.engine_state, self.game):
            hook = getattr(owner, "render_legend", None)
            if callable(hook):
                text = hook()
                if text:
                    return str(text)
        return None

    def action_to_string(self, action: int) -> str:
        """The action's name as its actor knows it."""
        return self.game.action_to_string(action)

    def describe_action(self, action: int, observer: str | None) -> str:
        """The current player's ``action`` as ``observer`` may read it (``None``: the
        referee); call before stepping it. Anything shown to a person about another seat's
        action goes through this."""
        seat = None if observer is None else self._seat_of[self._check_agent(observer)]
        return self._reset_state("describe_action").describe_action(action, seat)

    def string_to_action(self, text: str) -> int:
        return self.game.string_to_action(text)

    def outcome(self) -> Outcome:
        """How the game ended (``outcome.py``); ``unfinished`` while it runs."""
        self._reset_state("outcome")
        return self._outcome or Outcome(UNFINISHED, self.num_steps, ())

    def record(self) -> dict:
        """JSON-serialisable record; ``forest_envs.replay(record)`` rebuilds the same game."""
        env_opts = {k: v for k, v in self.env_options.items() if k not in _NOT_RECORDED}
        out = {"env_id": self.game.env_id, "config": dict(self.game.config),
               "env_options": env_opts, "seed": self._seed, "actions": list(self._actions)}
        if self._initial is not None:
            out["initial_state"] = self._initial
        return out

    # --- internals --------------------------------------------------------------------------
    def _reset_state(self, what: str):
        state = self.engine_state
        if state is None:
            raise RuntimeError(f"{what}() called before reset()")
        return state

    def _check_agent(self, agent: str) -> str:
        if agent not in self._seat_of:
            raise WrongAgentError(f"unknown agent {agent!r}; agents are {self.possible_agents}")
        return agent

    def _end_for_illegal(self, agent: str, action) -> None:
        penalty = float(self.env_options["illegal_penalty"])
        # The offending action goes into the record too, so replay() (which rebuilds the env
        # with the same illegal_action option) ends the game the same way. Anything that is
        # not an integer is kept as its repr: still JSON, still illegal when replayed.
        is_int = isinstance(action, (int, np.integer)) and not isinstance(action, bool)
        self._actions.append(int(action) if is_int else repr(action))
        self.rewards = {a: (penalty if a == agent else 0.0) for a in self.agents}
        self._accumulate_rewards()
        self._ended = True
        for a in self.agents:
            self.terminations[a] = True
        self._set_end_infos(truncated=False, illegal={"agent": agent, "action": action})

    def _deads_step_first(self):
        """PettingZoo's ``TerminateIllegalWrapper`` ends a game from outside: on an action
        outside the mask it never calls ``step``; it sets every termination, truncation and
        reward itself and then calls this. The game is over then, and its end infos are
        set as for ``illegal_action="penalize"`` (the wrapper does not pass the action on:
        ``"action"`` is None), so rank, winner and score are there on both paths. The
        record ends before the illegal action, which the env never saw."""
        if not self._ended and self.engine_state is not None and self.agents and all(
                self.terminations[a] or self.truncations[a] for a in self.agents):
            self._ended = True
            self._set_end_infos(truncated=False, illegal={"agent": self.agent_selection, "action": None})
        return super()._deads_step_first()

    def _finish(self, result) -> None:
        returns = result.returns(self._reward_mode, self.game.traits.score_scale)
        self._ended = True
        for a in self.agents:
            self.rewards[a] = returns[self._seat_of[a]]
            self.terminations[a] = True
        self._accumulate_rewards()
        self._set_end_infos(truncated=False, result=result)

    def _set_end_infos(self, truncated: bool, result=None, illegal: dict | None = None) -> None:
        """The result every consumer reads (evaluation and training included): the game's
        ranks, kept as ``outcome()`` and written into the end infos. Nobody wins a game cut
        short, by truncation or by an illegal action (whose rewards give nobody the winner's
        share): ``rank``, ``score`` and ``breakdown`` are then the standing when it stopped,
        and ``illegal_action`` names the offender."""
        assert self.engine_state is not None  # (a game that ends was reset)
        result = result or self.engine_state.result()
        end = self._outcome = (
            Outcome.ended(result, TRUNCATED if truncated else FINISHED, self.num_steps) if illegal is None
            else Outcome.ended(result, ILLEGAL, self.num_steps, self._seat_of[illegal["agent"]], illegal["action"]))
        winners, place_of = end.winners, {place.seat: place for place in end.places}
        no_mask = self._no_mask
        for a in self.agents:
            place = place_of[self._seat_of[a]]
            info = {"score": place.total, "rank": place.rank, "winner": place.seat in winners,
                    "breakdown": place.breakdown, "truncated": truncated, "action_mask": no_mask}
            if illegal is not None:
                info["illegal_action"] = dict(illegal)
            self.infos[a] = info


def _naming_agents(message: str, agent: str) -> str:
    """An engine message for the env's user: the engine names seats "player 1", the env
    names agents "player_1"; one naming per message, and the agent said once."""
    message = _SEAT_WORDS.sub(lambda m: f"player_{m.group(1)}", message)
    return message if re.search(rf"\b{re.escape(agent)}\b", message) else f"{agent}: {message}"


_SEAT_WORDS = re.compile(r"\bplayer (\d+)\b")


def _check_seed(seed) -> int:
    """A seed is a non-negative Python or numpy integer (what numpy's generators take)."""
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ConfigError(f"seed must be None or a non-negative int, got {seed!r}")
    return int(seed)
