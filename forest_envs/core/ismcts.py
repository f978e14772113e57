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
   (progressive unpruning, for games with many actions per decision),
3. plays a rollout (uniform random, or the game's heuristic per seat) until the game ends,
   the env would truncate it, or ``depth`` rollout actions have been played,
4. backs up a reward per seat: each node's statistics are kept per deciding seat, and each
   action is credited with the reward of the seat that chose it.

Nodes are keyed by the action history from the root (open loop): chance inside ``apply`` and
the hidden information of other seats are averaged over, never branched on. The chosen
action is the root action with the most visits (ties: higher mean reward, then lower id).

Nothing here names a game: the heuristic (for rollouts and the prior) is a factory the
caller passes (``forest_envs.agents.make_agent`` passes the registered heuristic).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable

import numpy as np

from .agents import SeededAgent
from .engine import returns_from_ranks
from .errors import ConfigError

ROLLOUTS = ("random", "heuristic")
PRIORS = ("none", "heuristic")
REWARDS = ("win", "rank", "score")
DEFAULTS = {"sims": 1000, "time": None, "rollout": "random", "c": 0.7, "depth": 20,
            "reward": "rank", "prior": "none"}
OPTION_HELP = {
    "sims": "simulations per move (a positive int, or none when time is given)",
    "time": "seconds per move (a positive number, or none)",
    "rollout": "rollout policy: random or heuristic",
    "c": "UCB exploration constant (a number >= 0)",
    "depth": "rollout actions before the position is evaluated by its ranks (an int >= 0, "
             "or none: play to the end)",
    "reward": "what is backed up: win, rank or score (the game's reward modes)",
    "prior": "none, or heuristic: expand the heuristic's move first and at most 1 + sqrt(n) "
             "actions at a node visited n times",
}


def _bounded(name: str, text: str, convert: Callable[[str], float], ok: Callable[[float], bool],
             kind: str, allow_none: bool = False):
    """``text`` as a number ``convert`` reads and ``ok`` accepts (``kind`` says which, for
    the error), or None for ``none`` where that is allowed."""
    if allow_none and text.lower() == "none":
        return None
    try:
        value = convert(text)
    except ValueError:
        value = None
    if value is None or not ok(value):
        raise ConfigError(f"ismcts option {name}={text!r} must be {kind}"
                          + (" or none" if allow_none else ""))
    return value


def _choice(name: str, text: str, choices: tuple[str, ...]) -> str:
    if text not in choices:
        raise ConfigError(f"ismcts option {name}={text!r} must be one of {', '.join(choices)}")
    return text


_PARSERS: dict[str, Callable[[str], object]] = {
    "sims": lambda t: _bounded("sims", t, int, lambda v: v >= 1, "a positive int", True),
    "time": lambda t: _bounded("time", t, float, lambda v: math.isfinite(v) and v > 0,
                               "a number > 0", True),
    "rollout": lambda t: _choice("rollout", t, ROLLOUTS),
    "c": lambda t: _bounded("c", t, float, lambda v: math.isfinite(v) and v >= 0, "a number >= 0"),
    "depth": lambda t: _bounded("depth", t, int, lambda v: v >= 0, "an int >= 0", True),
    "reward": lambda t: _choice("reward", t, REWARDS),
    "prior": lambda t: _choice("prior", t, PRIORS),
}


def parse_options(text: str) -> dict:
    """``"sims=400,time=0.5,rollout=random,c=0.7,depth=20,reward=rank,prior=none"`` (any subset, any
    order; empty = the defaults; options are separated by commas or colons, as
    ``ismcts:sims=400:depth=20`` where a list of agents is itself comma-separated, as in the
    CLI's ``--agents``) -> the agent's keyword arguments. Unknown or bad options
    raise ``ConfigError`` (a ``ValueError``) naming the option and the valid ones."""
    options = dict(DEFAULTS)
    given = set()
    for part in text.replace(":", ",").split(","):
        part = part.strip()
        if not part:
            continue
        name, eq, value = part.partition("=")
        name, value = name.strip(), value.strip()
        if name not in _PARSERS:
            raise ConfigError(f"unknown ismcts option {name!r}; valid options: "
                              + "; ".join(f"{k} ({v})" for k, v in OPTION_HELP.items()))
        if not eq or not value:
            raise ConfigError(f"ismcts option {name!r} needs a value ({name}=...): "
                              f"{OPTION_HELP[name]}")
        if name in given:
            raise ConfigError(f"ismcts option {name!r} is given twice")
        given.add(name)
        options[name] = _PARSERS[name](value)
    if "time" in given and "sims" not in given:
        options["sims"] = None  # a time budget alone is the only limit
    if options["sims"] is None and options["time"] is None:
        raise ConfigError("ismcts needs a budget: sims=N and/or time=SECONDS")
    return options


class _StateEnv:
    """What a heuristic agent inside the search reads (``env.unwrapped.view(agent)``, ``action_mask``,
    ``possible_agents``) over a determinized state that search plays on."""

    __slots__ = ("state", "possible_agents", "_seat_of")

    def __init__(self, num_players: int):
        self.state = None
        self.possible_agents = [f"player_{i}" for i in range(num_players)]
        self._seat_of = {a: i for i, a in enumerate(self.possible_agents)}

    @property
    def unwrapped(self):
        return self

    def view(self, agent: str) -> dict:
        return self.state.view(self._seat_of[agent])

    def action_mask(self, agent: str) -> np.ndarray:
        mask = self.state.legal_action_mask()
        return mask.copy() if self._seat_of[agent] == self.state.current_player else mask * 0


class ISMCTSAgent(SeededAgent):
    """Single-observer ISMCTS (see the module docstring).

    ``sims``: simulations per move; ``time``: seconds per move (either or both; the first
    reached stops the search); ``rollout``: ``"random"`` or ``"heuristic"`` (needs
    ``heuristic``, a factory ``heuristic(seed=...) -> agent``); ``c``: the UCB constant;
    ``depth``: rollout actions before the unfinished position is scored by its ranks
    (``None``: to the end); ``reward``: the reward mode backed up (a mode the game lacks,
    ``score`` without points, falls back to ``rank``); ``prior``: ``"none"`` or
    ``"heuristic"`` (the heuristic's move is expanded first at every node, and a node visited
    n times by its deciding seat expands a further action only while it has tried fewer than
    1 + sqrt(n); needs ``heuristic``). With ``time=None`` the agent is deterministic for a
    given seed."""

    name = "ismcts"

    def __init__(self, seed: int | None = None, *, sims: int | None = 1000,
                 time: float | None = None, rollout: str = "random", c: float = 0.7,
                 depth: int | None = 20, reward: str = "rank", prior: str = "none",
                 heuristic: Callable[..., object] | None = None):
        super().__init__(seed)
        if sims is None and time is None:
            raise ConfigError("ismcts needs a budget: sims and/or time")
        if rollout not in ROLLOUTS:
            raise ConfigError(f"ismcts rollout {rollout!r} must be one of {', '.join(ROLLOUTS)}")
        if prior not in PRIORS:
            raise ConfigError(f"ismcts prior {prior!r} must be one of {', '.join(PRIORS)}")
        for name, value, fix in (("rollout", rollout, "rollout=random"),
                                 ("prior", prior, "prior=none")):
            if value == "heuristic" and heuristic is None:
                raise ConfigError(f"ismcts {name}=heuristic needs the game's heuristic agent; "
                                  f"this game has none (use {fix})")
        if reward not in REWARDS:
            raise ConfigError(f"ismcts reward {reward!r} must be one of {', '.join(REWARDS)}")
        self.sims, self.time, self.rollout, self.c = sims, time, rollout, float(c)
        self.depth, self.reward, self.prior, self.heuristic = depth, reward, prior, heuristic
        self.last_sims = 0          # simulations of the last decision
        self.last_seconds = 0.0     # its wall time
        self.last_visits: dict[int, int] = {}  # its root: action -> visits (tried ones only)

    @classmethod
    def from_options(cls, text: str, seed: int | None = None, heuristic=None) -> ISMCTSAgent:
        """An agent from the option string of its name (``ismcts:<text>``)."""
        return cls(seed, heuristic=heuristic, **parse_options(text))

    # --- acting ------------------------------------------------------------------------------
    def act(self, env, agent: str) -> int:
        raw = env.unwrapped
        seat = raw.possible_agents.index(agent)
        mask = np.asarray(raw.action_mask(agent))
        legal = np.flatnonzero(mask)
        if legal.size == 0:
            raise ValueError(f"{agent} has no legal action: it is not its turn")
        if legal.size == 1:
            self.last_sims, self.last_seconds, self.last_visits = 0, 0.0, {}
            return int(legal[0])  # forced: nothing to search
        # The env truncates at its step limit (everybody gets 0); search never looks past it.
        return self.search(raw.engine_state, seat, raw.steps_left())

    def search(self, state, seat: int, steps_left: int | None = None) -> int:
        """The chosen action of ``seat`` (to move in ``state``). Of ``state`` only
        ``resample_hidden(seat, rng)`` is called."""
        rng = self.rng
        # One fast generator for the hot loop, seeded from the agent's own generator.
        fast = random.Random(int(rng.integers(2**63)))
        rand = fast.random
        c = self.c
        depth = self.depth
        sims = self.sims if self.sims is not None else 1 << 62
        deadline = None if self.time is None else time.perf_counter() + self.time
        start = time.perf_counter()

        first = state.resample_hidden(seat, rng)
        root_legal = np.flatnonzero(first.legal_action_mask())  # the seat's own: as true
        game = first.game
        traits = game.traits
        mode = self.reward if self.reward in traits.reward_modes else "rank"
        scale = traits.score_scale
        n_actions = game.num_actions
        n_players = first.num_players
        zeros = [0.0] * n_players
        rollout_heuristic = self.rollout == "heuristic"
        prior = self.prior == "heuristic"
        heur = self._heuristic_agents(n_players, fast) if rollout_heuristic or prior else None

        # A node: {seat: [N, W, avail, children, visits]}; arrays over the flat action ids.
        root: dict = {}

        def table(node: dict, p: int) -> list:
            t = node.get(p)
            if t is None:
                t = node[p] = [np.zeros(n_actions), np.zeros(n_actions), np.zeros(n_actions), {},
                               0]
            return t

        sqrt, log, argmax, msqrt = np.sqrt, np.log, np.argmax, math.sqrt
        done = 0
        det = first
        while done < sims:
            if det is None:
                det = state.resample_hidden(seat, rng)
            s, det = det, None
            if heur is not None:
                for h in heur[0]:
                    if hasattr(h, "reset"):
                        h.reset()  # no memory from another simulation
            node = root
            path = []
            steps = 0
            # --- selection and expansion --------------------------------------------------
            while not s.is_terminal:
                if steps_left is not None and steps >= steps_left:
                    break
                p = s.current_player
                t = table(node, p)
                N, W, avail, children = t[0], t[1], t[2], t[3]
                legal = s.legal_action_mask().nonzero()[0]
                avail[legal] += 1.0
                n = N[legal]
                fresh = legal[n == 0.0]
                if prior:
                    t[4] += 1
                if fresh.size:
                    if not prior:
                        a = int(fresh[int(rand() * fresh.size)])
                    elif fresh.size == legal.size or legal.size - fresh.size < 1 + msqrt(t[4]):
                        # progressive unpruning: the heuristic's move first, then one more
                        # action (at random) each time 1 + sqrt(visits) passes the count tried
                        a = self._heuristic_action(heur, s)
                        if N[a] != 0.0:
                            a = int(fresh[int(rand() * fresh.size)])
                    else:
                        a = -1
                    if a >= 0:
                        path.append((N, W, p, a))
                        s.apply(a)
                        steps += 1
                        children[a] = {}
                        break
                    legal = legal[n > 0.0]  # widening is closed: choose among the tried ones
                    n = N[legal]
                score = W[legal] / n + c * sqrt(log(avail[legal]) / n)
                a = int(legal[argmax(score)])
                path.append((N, W, p, a))
                s.apply(a)
                steps += 1
                node = children[a]
            # --- rollout ------------------------------------------------------------------
            cap = None if steps_left is None else steps_left - steps
            if depth is not None and (cap is None or depth < cap):
                cap, evaluate = depth, True
            else:
                evaluate = False
            played = 0
            while not s.is_terminal and (cap is None or played < cap):
                if not rollout_heuristic:
                    legal = s.legal_action_mask().nonzero()[0]
                    s.apply(int(legal[int(rand() * legal.size)]))
                else:
                    s.apply(self._heuristic_action(heur, s))
                played += 1
            # --- evaluation and backup ----------------------------------------------------
            if s.is_terminal or evaluate:
                # the game's result; at the depth cap, that of the unfinished position
                r = (returns_from_ranks(s.ranks(), mode) if mode != "score"
                     else s.result().returns(mode, scale))
            else:
                r = zeros  # the env's truncation: nobody wins
            for N, W, p, a in path:
                N[a] += 1.0
                W[a] += r[p]
            done += 1
            if deadline is not None and time.perf_counter() >= deadline:
                break
        self.last_sims, self.last_seconds = done, time.perf_counter() - start
        N, W = table(root, seat)[:2]
        visits = N[root_legal]
        self.last_visits = {int(a): int(v) for a, v in zip(root_legal, visits) if v}
        best = root_legal[visits == visits.max()]
        if best.size > 1:
            means = W[best] / np.maximum(N[best], 1.0)
            best = best[means == means.max()]
        return int(best[0])

    # --- the heuristic inside the search ----------------------------------------------------
    def _heuristic_agents(self, n_players: int, fast: random.Random):
        agents = [self.heuristic(seed=fast.randrange(2**31)) for _ in range(n_players)]
        return agents, _StateEnv(n_players)

    @staticmethod
    def _heuristic_action(heur, s) -> int:
        agents, env = heur
        env.state = s
        p = s.current_player
        return int(agents[p].act(env, env.possible_agents[p]))
