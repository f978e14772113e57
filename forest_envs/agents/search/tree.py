"""The Python search of ``ismcts`` in named pieces: the tree's node record and one decision's
search as determinize, select, expand, roll out, evaluate and back up (docs/search.md, "The
algorithm"). The agent (``ismcts.py``) builds a ``TreeSearch`` per decision and reads its
result; the native search (``core/native/search.hpp``) is the same algorithm in C++.

The tree is open loop: a ``History`` is what the search knows after a sequence of actions
from the root, whatever chance and the other seats' hidden cards did along the way, and it
holds one ``Node`` per seat that has decided there (which seat decides after a history can
depend on a determinization's hidden cards).
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field

import numpy as np

from ...core.results import returns_from_ranks


@dataclass(slots=True)
class Node:
    """What the search knows of one deciding seat after one action history. Arrays run over
    the game's flat action ids."""

    tries: np.ndarray        # simulations that chose the action here (UCB1's N)
    reward_sums: np.ndarray  # the deciding seat's rewards they brought back (UCB1's W)
    available: np.ndarray    # simulations in which the action was legal here (UCB1's log term)
    children: dict[int, History] = field(default_factory=dict)  # the history after each tried action
    guided_visits: int = 0   # visits that consulted a prior (the widening counts these)
    prior_logits: np.ndarray | None = None  # a policy prior's logits, from the first guided visit


History = dict[int, Node]  # the nodes after one action history, by deciding seat


# One action a simulation took in the tree, (node, deciding seat, action): backup credits it
# to the seat that chose it. A plain tuple: a NamedTuple costs a microsecond to build, 1% of
# a simulation on a native state.
Step = tuple[Node, int, int]


def new_node(num_actions: int) -> Node:
    return Node(np.zeros(num_actions), np.zeros(num_actions), np.zeros(num_actions))


def node_at(history: History, seat: int, num_actions: int) -> Node:
    """The node of ``seat`` after ``history``, made on its first visit."""
    node = history.get(seat)
    if node is None:
        node = history[seat] = new_node(num_actions)
    return node


def ucb1_choice(node: Node, legal: np.ndarray, c: float, weights: np.ndarray | None = None) -> int:
    """The tried action of ``legal`` with the highest UCB1 score with availability counts,
    ``W/N + c * w * sqrt(log(avail)/N)`` (``weights`` w: a policy prior's p(a) / max p, else
    1; the first of equal scores). ``c * 1.0`` is ``c``: a uniform prior's scores are plain
    UCB1's, bit for bit."""
    tries = node.tries[legal]
    explore = np.sqrt(np.log(node.available[legal]) / tries)
    if weights is None:
        score = node.reward_sums[legal] / tries + c * explore
    else:
        score = node.reward_sums[legal] / tries + c * weights * explore
    return int(legal[np.argmax(score)])


def most_visited(node: Node, legal: np.ndarray) -> int:
    """The search's move: the action of ``legal`` with the most tries at ``node``; ties go to
    the higher mean reward, then the lower id."""
    tries = node.tries[legal]
    best = legal[tries == tries.max()]
    if best.size > 1:
        means = node.reward_sums[best] / np.maximum(node.tries[best], 1.0)
        best = best[means == means.max()]
    return int(best[0])


def back_up(path: list[Step], rewards) -> None:
    """Credit every action of the path with the reward of the seat that chose it."""
    for node, seat, action in path:
        node.tries[action] += 1.0
        node.reward_sums[action] += rewards[seat]


class TreeSearch:
    """One decision's search (single-observer ISMCTS) in Python, over any engine's states.
    ``agent`` holds the options (an ``ISMCTSAgent``); ``state`` is touched only through
    ``resample_hidden(seat, rng)``. ``run`` returns the chosen action; afterwards ``root``,
    ``root_legal``, ``sims`` and ``seconds`` describe the search."""

    def __init__(self, agent, state, seat: int, steps_left: int | None):
        self.agent, self.state, self.seat, self.steps_left = agent, state, seat, steps_left
        self.rng = agent.rng
        # The hot loop's draws come from a fast generator seeded from the agent's own.
        self.fast = random.Random(int(self.rng.integers(2**63)))
        self.rand = self.fast.random
        self.c = agent.c
        self.depth = agent.depth
        self.prior_policy = agent.prior_policy
        self.rollout_policy = agent.rollout_policy
        self.rollout_heuristic = agent.rollout == "heuristic"
        self.heuristic_prior = agent.prior == "heuristic"
        self.guided = self.heuristic_prior or self.prior_policy is not None
        self.widen_all = agent.widen == "all"
        self.root_only = agent.prior_at == "root"
        self.greedy = agent.pick == "greedy"
        self.root: History = {}
        self.sims, self.seconds = 0, 0.0

    # --- the search --------------------------------------------------------------------------
    def run(self) -> int:
        agent = self.agent
        budget = agent.sims if agent.sims is not None else 1 << 62
        deadline = None if agent.time is None else time.perf_counter() + agent.time
        start = time.perf_counter()
        det = self.determinize()
        self.root_legal = np.flatnonzero(det.legal_action_mask())  # the seat's own: as true
        game = det.game
        traits = game.traits
        self.mode = agent.reward if agent.reward in traits.reward_modes else "rank"
        self.score_scale = traits.score_scale
        self.num_actions = game.num_actions
        self.no_rewards = [0.0] * det.num_players
        self.heuristics = (agent.heuristic_agents(det.num_players, self.fast)
                           if self.rollout_heuristic or self.heuristic_prior else None)
        while self.sims < budget:
            self.simulate(det if det is not None else self.determinize())
            det = None
            self.sims += 1
            if deadline is not None and time.perf_counter() >= deadline:
                break
        self.seconds = time.perf_counter() - start
        return most_visited(self.root_node(), self.root_legal)

    def root_node(self) -> Node:
        return node_at(self.root, self.seat, self.num_actions)

    def determinize(self):
        """A state the seat cannot tell from the true one (everything hidden redrawn)."""
        return self.state.resample_hidden(self.seat, self.rng)

    def simulate(self, s) -> None:
        """One simulation on the determinization ``s``: select and expand, roll out,
        evaluate, back up."""
        if self.heuristics is not None:
            for h in self.heuristics[0]:
                if hasattr(h, "reset"):
                    h.reset()  # no memory from another simulation
        path: list[Step] = []
        steps = self.descend(s, path)
        evaluate = self.rollout(s, steps)
        back_up(path, self.rewards(s, evaluate))

    # --- select and expand -----------------------------------------------------------------
    def descend(self, s, path: list[Step]) -> int:
        """Walk the tree from the root, applying each chosen action to ``s`` and recording it
        in ``path``, until an action is expanded (tried for the first time at its node), the
        game ends or the env's step limit is reached; returns the actions played."""
        history = self.root
        steps = 0
        steps_left = self.steps_left
        while not s.is_terminal:
            if steps_left is not None and steps >= steps_left:
                break
            seat = s.current_player
            node = node_at(history, seat, self.num_actions)
            legal = s.legal_action_mask().nonzero()[0]
            node.available[legal] += 1.0
            action, expanded = self.choose(s, node, seat, legal, history is self.root)
            path.append((node, seat, action))
            s.apply(action)
            steps += 1
            if expanded:
                node.children[action] = {}
                break
            history = node.children[action]
        return steps

    def choose(self, s, node: Node, seat: int, legal: np.ndarray, at_root: bool) -> tuple[int, bool]:
        """(the action to take at ``node``, whether it is expanded here): an untried legal
        action while the widening allows one, else UCB1 among the tried ones."""
        tries = node.tries[legal]
        untried_here = tries == 0.0
        untried = legal[untried_here]
        guided = self.guided and (not self.root_only or at_root)
        weights = self.prior_weights(s, node, seat, legal) if guided else None
        if untried.size:
            if not guided:
                return int(untried[int(self.rand() * untried.size)]), True
            if self.may_widen(node, legal.size, untried.size):
                return self.expand_guided(s, node, untried, untried_here, weights), True
            # the widening is closed: choose among the tried ones
            legal = legal[~untried_here]
            if weights is not None:
                weights = weights[~untried_here]
        return ucb1_choice(node, legal, self.c, weights), False

    def prior_weights(self, s, node: Node, seat: int, legal: np.ndarray) -> np.ndarray | None:
        """Count a guided visit; with a policy prior, its weights over ``legal``:
        p(a) / max p, in (0, 1]. The logits are computed on the node's first guided visit
        (that determinization's observation of the seat) and kept."""
        node.guided_visits += 1
        if self.prior_policy is None:
            return None
        if node.prior_logits is None:
            node.prior_logits = np.asarray(self.prior_policy.logits(s.observation(seat)), np.float64)
        logits = node.prior_logits[legal]
        return np.exp(logits - logits.max())

    def may_widen(self, node: Node, legal: int, untried: int) -> bool:
        """Progressive unpruning: one more action each time 1 + sqrt(visits) passes the count
        tried (``widen=all``: always)."""
        return self.widen_all or untried == legal or legal - untried < 1 + math.sqrt(node.guided_visits)

    def expand_guided(self, s, node: Node, untried: np.ndarray, untried_here: np.ndarray,
                      weights: np.ndarray | None) -> int:
        """The prior's untried move: the heuristic's (else one at random), or the policy's
        most likely (ties at random)."""
        if weights is None:
            action = self.heuristic_action(s)
            if node.tries[action] != 0.0:
                action = int(untried[int(self.rand() * untried.size)])
            return action
        untried_weights = weights[untried_here]
        best = untried[untried_weights == untried_weights.max()]
        return int(best[int(self.rand() * best.size)])

    # --- roll out and evaluate ---------------------------------------------------------------
    def rollout(self, s, steps: int) -> bool:
        """Play ``s`` on with the rollout policy until the game ends, ``depth`` actions have
        been played or the env's step limit is reached; returns whether the position is to be
        evaluated (the game ended, or the depth cap came before the step limit)."""
        cap = None if self.steps_left is None else self.steps_left - steps
        if self.depth is not None and (cap is None or self.depth < cap):
            cap, evaluate = self.depth, True
        else:
            evaluate = False
        limit = 1 << 62 if cap is None else cap
        played = 0
        if self.rollout_policy is None and not self.rollout_heuristic:
            # uniform random moves, inline: a call per rollout action costs the whole loop 5%
            rand = self.rand
            while played < limit and not s.is_terminal:
                legal = s.legal_action_mask().nonzero()[0]
                s.apply(int(legal[int(rand() * legal.size)]))
                played += 1
        else:
            while played < limit and not s.is_terminal:
                s.apply(self.rollout_action(s))
                played += 1
        return evaluate or s.is_terminal

    def rollout_action(self, s) -> int:
        """The policy's or the heuristic's move in ``s`` (random moves are drawn inline)."""
        if self.rollout_policy is not None:
            return policy_action(self.rollout_policy, s, self.greedy, self.rand)
        return self.heuristic_action(s)

    def rewards(self, s, evaluate: bool) -> list[float]:
        """A reward per seat: the game's result, or that of the unfinished position at the
        depth cap; at the env's step limit nobody gets anything, as the env pays."""
        if not evaluate:
            return self.no_rewards
        if self.mode != "score":
            return returns_from_ranks(s.ranks(), self.mode)
        return s.result().returns(self.mode, self.score_scale)

    # --- the heuristic inside the search -------------------------------------------------------
    def heuristic_action(self, s) -> int:
        assert self.heuristics is not None  # (made in __init__ when the search uses them)
        agents, env = self.heuristics
        env.state = s
        seat = s.current_player
        return int(agents[seat].act(env, env.possible_agents[seat]))


def policy_action(policy, s, greedy: bool, rand) -> int:
    """A rollout move of the seat to move in the determinization ``s``, by ``policy`` on that
    seat's observation: its most likely legal action, or one drawn from its masked
    probabilities with the search's fast generator."""
    legal = s.legal_action_mask().nonzero()[0]
    logits = policy.logits(s.observation(s.current_player))[legal]
    if greedy:
        return int(legal[int(logits.argmax())])
    cum = np.cumsum(np.exp(logits - logits.max()))
    return int(legal[min(int(np.searchsorted(cum, rand() * cum[-1], side="right")), legal.size - 1)])
