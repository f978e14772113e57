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

Nothing here names a game: the heuristic (for rollouts and the prior) is a factory the
caller passes (``forest_envs.agents.make_agent`` passes the registered heuristic), and so is
the policy loader (core reads no policy file). A policy is only ever given the observation of
the seat deciding in a determinization (``s.observation(p)``), which at the root is the
searching seat's own, as true.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable

import numpy as np

from ...core.errors import ConfigError
from ...core.results import returns_from_ranks
from ..base import SeededAgent
from .options import (
    DEFAULTS,
    OPTION_HELP,
    PICKS,
    PRIOR_NODES,
    PRIORS,
    REWARDS,
    ROLLOUTS,
    WIDENINGS,
    is_policy,
    parse_options,
)

# The options by name live in ismcts_options; re-exported here, where callers found them first.
__all__ = ["DEFAULTS", "OPTION_HELP", "PRIORS", "REWARDS", "ROLLOUTS", "ISMCTSAgent", "parse_options"]


class _StateEnv:
    """What a heuristic agent inside the search reads (``env.unwrapped.view(agent)`` or ``reading``, ``action_mask``,
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
    move.

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
                 heuristic: Callable[..., object] | None = None,
                 policy: Callable[[str], object] | None = None):
        super().__init__(seed)
        if sims is None and time is None:
            raise ConfigError("ismcts needs a budget: sims and/or time")
        for name, value, choices in (("pick", pick, PICKS), ("widen", widen, WIDENINGS),
                                     ("prior_at", prior_at, PRIOR_NODES), ("reward", reward, REWARDS)):
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
        self.last_sims = 0          # simulations of the last decision
        self.last_seconds = 0.0     # its wall time
        self.last_visits: dict[int, int] = {}  # its root: action -> visits (tried ones only)

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
        rollout_policy = self.rollout_policy
        greedy = self.pick == "greedy"
        prior_policy = self.prior_policy
        prior = self.prior == "heuristic" or prior_policy is not None
        widen_all = self.widen == "all"
        root_only = self.prior_at == "root"
        heur = (self._heuristic_agents(n_players, fast)
                if rollout_heuristic or self.prior == "heuristic" else None)

        # A node: {seat: [N, W, avail, children, visits, prior logits]}; arrays over the flat
        # action ids. A policy prior's logits are computed on the node's first visit by that
        # seat (from that determinization's observation of the seat) and kept.
        root: dict = {}

        def table(node: dict, p: int) -> list:
            t = node.get(p)
            if t is None:
                t = node[p] = [np.zeros(n_actions), np.zeros(n_actions), np.zeros(n_actions), {},
                               0, None]
            return t

        sqrt, log, argmax, msqrt, exp = np.sqrt, np.log, np.argmax, math.sqrt, np.exp
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
                guided = prior and (not root_only or node is root)
                w = None  # a policy prior's weights over `legal`: p(a) / max p, in (0, 1]
                if guided:
                    t[4] += 1
                    if prior_policy is not None:
                        if t[5] is None:
                            t[5] = np.asarray(prior_policy.logits(s.observation(p)), np.float64)
                        logits = t[5][legal]
                        w = exp(logits - logits.max())
                if fresh.size:
                    if not guided:
                        a = int(fresh[int(rand() * fresh.size)])
                    elif widen_all or fresh.size == legal.size or legal.size - fresh.size < 1 + msqrt(t[4]):
                        # progressive unpruning: the prior's move first, then one more action
                        # each time 1 + sqrt(visits) passes the count tried
                        if w is None:  # the heuristic's move, then at random
                            a = self._heuristic_action(heur, s)
                            if N[a] != 0.0:
                                a = int(fresh[int(rand() * fresh.size)])
                        else:  # the policy's most likely untried move (ties at random)
                            wf = w[n == 0.0]
                            best = fresh[wf == wf.max()]
                            a = int(best[int(rand() * best.size)])
                    else:
                        a = -1
                    if a >= 0:
                        path.append((N, W, p, a))
                        s.apply(a)
                        steps += 1
                        children[a] = {}
                        break
                    tried = n > 0.0
                    legal = legal[tried]  # widening is closed: choose among the tried ones
                    n = N[legal]
                    if w is not None:
                        w = w[tried]
                if w is None:
                    score = W[legal] / n + c * sqrt(log(avail[legal]) / n)
                else:  # c * 1.0 is c: a uniform policy's scores are plain UCB1's, bit for bit
                    score = W[legal] / n + c * w * sqrt(log(avail[legal]) / n)
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
                if rollout_policy is not None:
                    s.apply(_policy_action(rollout_policy, s, greedy, rand))
                elif not rollout_heuristic:
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


def _policy_action(policy, s, greedy: bool, rand) -> int:
    """A rollout move of the seat to move in the determinization ``s``, by ``policy`` on that
    seat's observation: its most likely legal action, or one drawn from its masked
    probabilities with the search's fast generator."""
    legal = s.legal_action_mask().nonzero()[0]
    logits = policy.logits(s.observation(s.current_player))[legal]
    if greedy:
        return int(legal[int(logits.argmax())])
    cum = np.cumsum(np.exp(logits - logits.max()))
    return int(legal[min(int(np.searchsorted(cum, rand() * cum[-1], side="right")), legal.size - 1)])
