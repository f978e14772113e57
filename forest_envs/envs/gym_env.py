"""A gymnasium single-agent view of any forest_envs game.

The learner takes one seat; opponent agents play the others between its turns. The
observation is the learner's vector, ``action_masks()`` its legal mask (as sb3-contrib's
``MaskablePPO`` expects), and the reward the learner's own seat's terminal reward.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from typing import Any

import gymnasium
import numpy as np

from ..agents import make_agent
from ..agents.base import RandomAgent
from ..agents.policy import check_agent_fits
from ..core.errors import ConfigError
from ..core.presentation import move_line
from .registration import make_raw

# reset's limit on games that end before the learner decides (a game in which every seat
# decides early, as all three shipped games do, never reaches it).
MAX_GAMES_WITHOUT_A_TURN = 100


class SingleAgentEnv(gymnasium.Env):
    """``SingleAgentEnv(env_id, opponents=[...], **game_and_env_options)``.

    ``opponents``: one agent per other seat, each an object with ``act(env, agent)`` or an
    agent name as the CLI takes it (``"random"``, ``"heuristic"``, ``"ismcts[:options]"``,
    ``"ppo"``, a policy file, ``:greedy``: ``forest_envs.agents.make_agent`` makes it); one
    name or one agent object alone plays every other seat (``opponents="heuristic"``); a
    callable ``(rng) -> list of agents`` is drawn anew at every reset (self-play pools); None
    means random agents. ``learner_seat``: a fixed seat, or None to draw the seat uniformly at each
    reset so the learner plays every position. ``reset`` always hands the learner a
    decision: a game the opponents end before the learner's seat decides is replaced by the
    next one.
    """

    metadata = {"render_modes": ["ansi", "human", "rgb_array"], "render_fps": 1}

    def __init__(self, env_id: str,
                 opponents: Sequence[Any] | Callable[[np.random.Generator], Sequence[Any]] | None = None,
                 learner_seat: int | None = None, render_mode: str | None = None, **config: Any):
        super().__init__()
        # The human mode prints here, a learner's step at a time (the moves of the opponents'
        # turns with it); the AEC env under it keeps quiet and gives the text.
        self.aec = make_raw(env_id, render_mode="ansi" if render_mode == "human" else render_mode,
                            **config)
        self.render_mode = render_mode
        self._unprinted: list[str] | None = [] if render_mode == "human" else None
        # what this game can render (a game without pictures has no rgb_array)
        self.metadata = dict(self.metadata, render_modes=list(self.aec.metadata["render_modes"]))
        n = len(self.aec.possible_agents)
        if learner_seat is not None and not (isinstance(learner_seat, int) and 0 <= learner_seat < n):
            raise ConfigError(f"learner_seat={learner_seat!r} is invalid; expected None or 0..{n - 1}")
        self.learner_seat = learner_seat
        if opponents is None:
            opponents = [RandomAgent(seed=i) for i in range(n - 1)]
            if not self.aec.game.traits.random_play_ends:
                warnings.warn(
                    f"{env_id}: random opponents rarely end a game, so most episodes reach the "
                    f"step limit with reward 0 and a learner learns nothing; pass opponents "
                    f"(opponents='heuristic' ends a game in about a hundred steps) with "
                    f"reward='rank', or shape the reward (forest_envs.train.shaping); "
                    f"docs/ecosystem.md, 'A learning signal'", UserWarning, stacklevel=2)
        elif isinstance(opponents, str) or hasattr(opponents, "act"):
            opponents = [opponents] * (n - 1)  # one name, or one agent, plays every other seat
        if not callable(opponents):
            if len(opponents) != n - 1:
                raise ConfigError(f"{env_id} with {n} players needs {n - 1} opponents, got "
                                  f"{len(opponents)}")
            # Names become agents; their seeds come from the env's generator at each reset.
            opponents = [_named_opponent(env_id, o, self.aec) if isinstance(o, str) else o
                         for o in opponents]
        self._opponents = opponents
        agent = self.aec.possible_agents[0]
        self.observation_space = self.aec.observation_spaces[agent]["observation"]
        self.action_space = self.aec.action_spaces[agent]
        self.seat = 0
        self.agent = agent
        self._seat_agents: dict[str, Any] = {}

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        rng = self.np_random
        n = len(self.aec.possible_agents)
        self.seat = int(rng.integers(n)) if self.learner_seat is None else self.learner_seat
        self.agent = self.aec.possible_agents[self.seat]
        opponents = self._opponents(rng) if callable(self._opponents) else self._opponents
        others = [a for a in self.aec.possible_agents if a != self.agent]
        self._seat_agents = dict(zip(others, opponents))
        # Opponents are reseeded from the env's generator: without this, reused opponent
        # objects carry their generator state over, and reset(seed=s) did not replay the same
        # episode (gymnasium's check_env step-determinism check failed).
        for opp in self._seat_agents.values():
            seed = int(rng.integers(2**62))
            if hasattr(opp, "reset"):
                opp.reset(seed=seed)
        # A game the opponents finish before the learner's seat ever decides is no episode
        # of the learner's (gymnasium's reset must hand it a decision): the next game, drawn
        # from the same generator, is played instead, so reset(seed=s) stays one episode.
        for _ in range(MAX_GAMES_WITHOUT_A_TURN):
            self.aec.reset(seed=int(rng.integers(2**62)))
            if self._unprinted is not None:
                self._unprinted = [self.aec.render_text()]  # the table the game starts from
            self._play_opponents()
            if not self._learner_done():
                return self._obs(), self._info()
        raise RuntimeError(f"in {MAX_GAMES_WITHOUT_A_TURN} games in a row the opponents ended the "
                           f"game before seat {self.seat} had a decision")

    def step(self, action):
        aec = self.aec
        if aec.engine_state is None:
            raise RuntimeError("step() called before reset()")
        if self._learner_done():
            raise RuntimeError("step() called after the episode ended; call reset()")
        self._step_aec(_unwrap_action(action))
        self._play_opponents()
        if self._unprinted is not None:
            # gymnasium's human mode renders during step(): everything since the last step
            # (the starting table first, after a reset), then the table the learner faces.
            print("\n".join([*self._unprinted, aec.render_text()]))
            self._unprinted = []
        done = aec.terminations[self.agent]
        truncated = aec.truncations[self.agent]
        reward = float(aec._cumulative_rewards[self.agent]) if (done or truncated) else 0.0
        return self._obs(), reward, bool(done), bool(truncated), self._info()

    def action_masks(self) -> np.ndarray:
        if self.aec.engine_state is None:
            raise RuntimeError("action_masks() called before reset()")
        return self.aec.action_mask(self.agent).astype(bool)

    def render(self):
        """As the AEC env renders: the referee's table as text or as an image; None in the
        human mode, which prints as ``step`` plays (each move, then the table the learner
        faces next)."""
        return None if self._unprinted is not None else self.aec.render()

    # --- internals ------------------------------------------------------------------------
    def _learner_done(self) -> bool:
        """The learner's episode is over: its seat terminated or was truncated."""
        return self.aec.terminations[self.agent] or self.aec.truncations[self.agent]

    def _play_opponents(self) -> None:
        aec = self.aec
        while aec.agents and not self._learner_done():
            current = aec.agent_selection
            if current == self.agent:
                return
            self._step_aec(self._seat_agents[current].act(aec, current))

    def _step_aec(self, action) -> None:
        """One action on the AEC env; in the human mode, its line kept for the next print."""
        if self._unprinted is None:
            self.aec.step(action)
            return
        aec = self.aec
        before, steps = aec.engine_state.clone(), aec.num_steps
        aec.step(action)
        self._unprinted.append(move_line(before, aec.engine_state, action) if aec.num_steps > steps
                               else f"P{before.current_player}: illegal action {action!r}; the game ends")

    def _obs(self) -> np.ndarray:
        return self.aec.engine_state.observation(self.seat)

    def _info(self) -> dict:
        # The AEC env's info of the learner's seat (its end-of-game result) and its mask (the
        # legal one on its turn, zeros once the game is over; bool, as action_masks() gives
        # it), which rides with every step so vectorized trainers need no extra round trip.
        # The info already holds the seat's mask as action_masks() reads it (the AEC env gives
        # only the agent to move its legal mask, every other seat zeros): one copy, as bool.
        info = dict(self.aec.infos[self.agent])
        info["seat"] = self.seat
        info["action_mask"] = info["action_mask"].astype(bool)
        return info


def _named_opponent(env_id: str, name: str, env):
    """The agent ``name`` names, as the CLI takes it (``forest_envs.agents.make_agent``: random,
    heuristic, ismcts[:options], ppo, a policy file, :greedy), checked to fit ``env``'s game."""
    try:
        agent = make_agent(env_id, name)
        check_agent_fits(agent, env)
    except ConfigError as err:
        raise ConfigError(f"opponent {name!r}: {err}; or pass an object with act(env, agent), such "
                          f"as forest_envs.agents.make_agent(env_id, name) returns") from None
    return agent


def _unwrap_action(action):
    """A one-element integer array (a vectorized trainer's slice) is its integer; anything
    else goes to the engine as given, which refuses a float (0.9) or a bool as an action
    (IllegalActionError, or the penalty under illegal_action="penalize") instead of
    truncating it to an action id."""
    if isinstance(action, np.ndarray) and action.size == 1 and np.issubdtype(action.dtype, np.integer):
        return action.reshape(()).item()
    return action
