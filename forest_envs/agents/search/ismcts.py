"""Information-set Monte Carlo tree search (single-observer ISMCTS, Cowling, Powley and
Whitehouse 2012), for any game that fills in the engine contract.

The agent reads its seat's information only: of the true state it calls nothing but
``resample_hidden(seat, rng)`` with its own seat, and it searches determinizations (states
that seat cannot tell from the true one, each a fresh clone). On those it plays with
``legal_action_mask()``, ``apply(a)``, ``is_terminal``, ``current_player`` and reads the game's
own result (``ranks()``, or ``result()`` for the ``score`` mode), at the end of a game or of
an unfinished position at the rollout depth cap.

One tree is grown per decision. Each iteration

1. determinizes the root from the acting seat's information,
2. descends from the root, at each node choosing among the actions legal *in this
   determinization*: an action never tried there is expanded first (at random among them),
   otherwise UCB1 with availability counts (the ``log`` term counts the visits in which the
   action was legal, not the parent's visits); with ``prior=heuristic`` the heuristic's move
   is expanded first and a node visited n times tries at most 1 + sqrt(n) actions
   (progressive unpruning, for games with many actions per decision); with a policy prior
   the untried actions are expanded in the order of the deciding seat's policy
   probabilities, and UCB1's exploration term of each action is scaled by its probability
   over that of the most likely legal action (a uniform policy leaves UCB1 as it is),
3. plays a rollout (uniform random, the game's heuristic, or a policy, per seat) until the
   game ends, the env would truncate it, or ``depth`` rollout actions have been played,
4. backs up a reward per seat: each node's statistics are kept per deciding seat, and each
   action is credited with the reward of the seat that chose it.

Nodes are keyed by the action history from the root (open loop): chance inside ``apply`` and
the hidden information of other seats are averaged over, never branched on. The chosen
action is the root action with the most visits (ties: higher mean reward, then lower id).
The search itself, in named pieces (the node record; select, expand, roll out, back up), is
``tree.py``; this module is the agent: its options, its policies, and which search runs.

Nothing here names a game: the heuristic (for rollouts and the prior) is a factory the
caller passes (``forest_envs.agents.make_agent`` passes the registered heuristic), and so is
the policy loader (core reads no policy file). A policy is only ever given the observation of
the seat deciding in a determinization (``s.observation(p)``), which at the root is the
searching seat's own, as true.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import numpy as np

from ...core.errors import ConfigError
from ..base import SeededAgent
from .native import NativeSearch, python_only_options, why_python
from .options import (
    DEFAULTS,
    OPTION_HELP,
    PICKS,
    PRIOR_NODES,
    PRIORS,
    REWARDS,
    ROLLOUTS,
    SEARCHES,
    WIDENINGS,
    is_policy,
    parse_options,
)
from .tree import TreeSearch, policy_action

# The options by name live in options.py; re-exported here, where callers found them first.
__all__ = ["DEFAULTS", "OPTION_HELP", "PRIORS", "REWARDS", "ROLLOUTS", "ISMCTSAgent", "parse_options"]


class _StateEnv:
    """What a heuristic agent inside the search reads (``env.unwrapped.view(agent)`` or ``reading``, ``action_mask``,
    ``possible_agents``) over a determinized state that search plays on."""

    __slots__ = ("state", "possible_agents", "_seat_of")

    def __init__(self, num_players: int):
        self.state: Any = None  # the determinized state the search plays (set before a read)
        self.possible_agents = [f"player_{i}" for i in range(num_players)]
        self._seat_of = {a: i for i, a in enumerate(self.possible_agents)}

    @property
    def unwrapped(self):
        return self

    def view(self, agent: str) -> dict:
        return self.state.view(self._seat_of[agent])

    def reading(self, agent: str):
        return self.state.reading(self._seat_of[agent])

    def action_mask(self, agent: str) -> np.ndarray:
        mask = self.state.legal_action_mask()
        return mask.copy() if self._seat_of[agent] == self.state.current_player else mask * 0


class ISMCTSAgent(SeededAgent):
    """Single-observer ISMCTS (see the module docstring).

    ``sims``: simulations per move; ``time``: seconds per move (either or both; the first
    reached stops the search); ``rollout``: ``"random"``, ``"heuristic"`` (needs
    ``heuristic``, a factory ``heuristic(seed=...) -> agent``) or a policy; ``c``: the UCB
    constant; ``depth``: rollout actions before the unfinished position is scored by its ranks
    (``None``: to the end); ``reward``: the reward mode backed up (a mode the game lacks,
    ``score`` without points, falls back to ``rank``); ``prior``: ``"none"``,
    ``"heuristic"`` (the heuristic's move is expanded first at every node; needs
    ``heuristic``) or a policy (untried actions are expanded in the order of its
    probabilities, and each tried action's exploration term is scaled by its probability
    relative to the most likely legal one). With a prior, ``widen="sqrt"``: a node visited n
    times by its deciding seat expands a further action only while it has tried fewer than
    1 + sqrt(n); ``"all"``: every legal action before any twice. ``prior_at``: ``"all"``
    nodes or the ``"root"`` only. ``pick``: a policy rollout's ``"sample"`` or ``"greedy"``
    move. ``search``: ``"auto"`` runs the native search (C++, ``native.py``) where the state
    is a native engine's and the options allow it, else the Python search; ``"native"``
    makes a search the native one cannot run an error; ``"python"``. ``last_search`` says
    which ran for the last decision, ``last_search_note`` why it was the Python one.

    A policy is a name (``ppo`` or a policy file, loaded by ``policy(name)``, which
    ``forest_envs.agents.make_agent`` passes) or an object with ``logits(observation)`` (and
    optionally ``check_fits(env)``); search calls it only on the observation of the seat
    deciding in a determinization. With ``time=None`` the agent is deterministic for a given
    seed."""

    name = "ismcts"

    def __init__(self, seed: int | None = None, *, sims: int | None = 1000,
                 time: float | None = None, rollout="random", c: float = 0.7,
                 depth: int | None = 20, reward: str = "rank", prior="none",
                 pick: str = "sample", widen: str = "sqrt", prior_at: str = "all",
                 search: str = "auto", heuristic: Callable[..., object] | None = None,
                 policy: Callable[[str], object] | None = None):
        super().__init__(seed)
        if sims is None and time is None:
            raise ConfigError("ismcts needs a budget: sims and/or time")
        for name, value, choices in (("pick", pick, PICKS), ("widen", widen, WIDENINGS),
                                     ("prior_at", prior_at, PRIOR_NODES), ("reward", reward, REWARDS),
                                     ("search", search, SEARCHES)):
            if value not in choices:
                raise ConfigError(f"ismcts {name} {value!r} must be one of {', '.join(choices)}")
        loaded: dict[str, object] = {}
        rollout, self.rollout_policy = self._policy_option("rollout", rollout, ROLLOUTS, policy, loaded)
        prior, self.prior_policy = self._policy_option("prior", prior, PRIORS, policy, loaded)
        for name, value, fix in (("rollout", rollout, "rollout=random"),
                                 ("prior", prior, "prior=none")):
            if value == "heuristic" and heuristic is None:
                raise ConfigError(f"ismcts {name}=heuristic needs the game's heuristic agent; "
                                  f"this game has none (use {fix})")
        self.sims, self.time, self.rollout, self.c = sims, time, rollout, float(c)
        self.depth, self.reward, self.prior, self.heuristic = depth, reward, prior, heuristic
        self.pick, self.widen, self.prior_at = pick, widen, prior_at
        self._fits = self.prior_policy is None and self.rollout_policy is None
        self.search_choice = search
        self.python_only = python_only_options(self)  # options only the Python search runs
        if search == "native" and self.python_only:
            raise ConfigError("ismcts search=native cannot run " + "; ".join(self.python_only)
                              + ": use search=auto or search=python")
        self._native = NativeSearch(self)
        self.last_search: str | None = None  # "native" or "python": the last decision's search
        self.last_search_note = ""  # why the Python search ran it ("" after the native one)
        self.last_sims = 0          # simulations of the last decision
        self.last_seconds = 0.0     # its wall time
        self.last_visits: dict[int, int] = {}  # its root: action -> visits (tried ones only)
        self.last_values: dict[int, float] = {}  # and their mean rewards for the seat

    @staticmethod
    def _policy_option(name: str, value, choices: tuple[str, ...], policy, loaded: dict):
        """(the option's name, the policy object or None) for a ``prior``/``rollout`` value."""
        if not isinstance(value, str):
            if not callable(getattr(value, "logits", None)):
                raise ConfigError(f"ismcts {name} must be one of {', '.join(choices)}, a policy "
                                  f"name or an object with logits(observation); got {value!r}")
            return getattr(value, "name", type(value).__name__), value
        if value in choices:
            return value, None
        if not is_policy(value):
            raise ConfigError(f"ismcts {name} {value!r} must be one of {', '.join(choices)}, ppo "
                              "or a policy file (.npz / .zip)")
        if policy is None:
            raise ConfigError(f"ismcts {name}={value} needs a policy loader (policy=...; "
                              "forest_envs.agents.make_agent passes one)")
        if value not in loaded:
            loaded[value] = policy(value)  # prior and rollout naming one policy share it
        return value, loaded[value]

    @classmethod
    def from_options(cls, text: str, seed: int | None = None, heuristic=None,
                     policy=None) -> ISMCTSAgent:
        """An agent from the option string of its name (``ismcts:<text>``)."""
        return cls(seed, heuristic=heuristic, policy=policy, **parse_options(text))

    def check_fits(self, env) -> None:
        """Raise ConfigError unless the policies it plays (prior, rollout) fit ``env``'s game."""
        for pol in (self.prior_policy, self.rollout_policy):
            check = getattr(pol, "check_fits", None)
            if check is not None:
                check(env)
        self._fits = True

    # --- acting ------------------------------------------------------------------------------
    def act(self, env, agent: str) -> int:
        raw = env.unwrapped
        if not self._fits:
            self.check_fits(raw)
        seat = raw.possible_agents.index(agent)
        mask = np.asarray(raw.action_mask(agent))
        legal = np.flatnonzero(mask)
        if legal.size == 0:
            raise ValueError(f"{agent} has no legal action: it is not its turn")
        if legal.size == 1:
            self.last_sims, self.last_seconds, self.last_visits, self.last_values = 0, 0.0, {}, {}
            self.last_search, self.last_search_note = None, "a forced move"
            return int(legal[0])  # forced: nothing to search
        # The env truncates at its step limit (everybody gets 0); search never looks past it.
        return self.search(raw.engine_state, seat, raw.steps_left())

    def search(self, state, seat: int, steps_left: int | None = None) -> int:
        """The chosen action of ``seat`` (to move in ``state``). Of ``state`` only
        ``resample_hidden(seat, rng)`` is called (by the native search: its C++ one)."""
        note = why_python(self, state)
        if not note:
            found = self._native.run(state, seat, steps_left)
            self.last_search, self.last_search_note = "native", ""
            self.last_sims, self.last_seconds = found["sims"], found["seconds"]
            self.last_visits, self.last_values = found["visits"], found["values"]
            return found["action"]
        if self.search_choice == "native":
            raise ConfigError(f"ismcts search=native cannot search this decision: {note}")
        self.last_search, self.last_search_note = "python", note
        tree = TreeSearch(self, state, seat, steps_left)
        action = tree.run()
        self.last_sims, self.last_seconds = tree.sims, tree.seconds
        root = tree.root_node()
        tried = [int(a) for a in tree.root_legal if root.tries[a]]
        self.last_visits = {a: int(root.tries[a]) for a in tried}
        self.last_values = {a: float(root.reward_sums[a] / root.tries[a]) for a in tried}
        return action

    # --- the heuristic inside the search ----------------------------------------------------
    def heuristic_agents(self, n_players: int, fast: random.Random):
        """One heuristic per seat for rollouts and the prior, seeded from the search's fast
        generator, and the env-like view of a determinization they read."""
        heuristic = self.heuristic
        assert heuristic is not None  # (asked for only by a search that has one)
        agents = [heuristic(seed=fast.randrange(2**31)) for _ in range(n_players)]
        return agents, _StateEnv(n_players)


_policy_action = policy_action  # where tests and tools found it first
