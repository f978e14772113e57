"""Which search an ``ismcts`` agent runs, and the native one's glue.

The native search (``core/native/search.hpp``, bound as ``State._ismcts`` in each game's
native module) runs a whole decision's search in C++: determinizations, the tree walk,
rollouts and backup. It covers the options where the time goes: ``sims``, ``time``, ``c``,
``depth``, ``reward``, random rollouts and, for a policy that is a plain MLP (a
``NumpyPolicy`` without a cell network, as most shipped ``ppo`` baselines are),
``prior``, ``rollout``, ``pick``, ``widen`` and ``prior_at``, the network evaluated in C++.
The heuristic (``rollout=heuristic``, ``prior=heuristic``), a policy with a cell network
(a baseline of a game with a board of cells) or any other object with ``logits()`` is Python, so is a state of
the Python engine: those run the Python search (``tree.py``).

``search=auto`` (the default) runs the native search where it can and says which ran in
``agent.last_search`` (``"native"`` or ``"python"``) and why the Python one did in
``agent.last_search_note``; ``search=native`` makes it an error instead; ``search=python``
always runs the Python search.
"""

from __future__ import annotations

from ...core.errors import ConfigError
from ..policy import NumpyPolicy, PolicyAgent


def plain_mlp(policy) -> NumpyPolicy | None:
    """The ``NumpyPolicy`` the native search can play for a prior/rollout policy, or None:
    a ``PolicyAgent`` or ``NumpyPolicy`` whose ``logits`` is the stock one (a subclass or a
    wrapper that does something else in ``logits`` stays in Python) and whose network is a
    plain MLP."""
    if isinstance(policy, PolicyAgent) and type(policy).logits is PolicyAgent.logits:
        policy = policy.policy
    if not (isinstance(policy, NumpyPolicy) and type(policy).logits is NumpyPolicy.logits):
        return None
    if policy.cells is not None or policy.activation not in ("Tanh", "ReLU"):
        return None
    return policy


def python_only_options(agent) -> list[str]:
    """The agent's options the native search cannot run (empty: it can run them all)."""
    reasons = []
    for name, value, policy in (("rollout", agent.rollout, agent.rollout_policy),
                                ("prior", agent.prior, agent.prior_policy)):
        if value == "heuristic":
            reasons.append(f"{name}=heuristic (the game's heuristic is Python)")
        elif policy is not None and plain_mlp(policy) is None:
            reasons.append(f"{name}={value} (only a plain MLP policy is evaluated natively, "
                           "not a cell network or another object with logits())")
    return reasons


def why_python(agent, state) -> str:
    """Why ``agent`` must run the Python search on ``state`` ("" when the native search can)."""
    if agent.search_choice == "python":
        return "search=python"
    if agent.python_only:
        return "; ".join(agent.python_only)
    if not callable(getattr(state, "_ismcts", None)):
        return (f"the state searched ({type(state).__name__}) is not a native engine's state "
                "(engine='python', or a game without a native engine)")
    return ""


class NativeSearch:
    """The native search of one agent: its policies converted once per native module."""

    def __init__(self, agent):
        self.agent = agent
        self._policies: dict[tuple[int, str], object] = {}

    def _policy(self, state, policy):
        if policy is None:
            return None
        module = type(state)._native_base().__module__
        key = (id(policy), module)
        if key not in self._policies:
            mlp = plain_mlp(policy)
            assert mlp is not None  # (python_only_options kept any other policy in Python)
            make = __import__(module, fromlist=["SearchPolicy"]).SearchPolicy
            self._policies[key] = make([w for w, _ in mlp.layers], [b for _, b in mlp.layers],
                                       mlp.out[0], mlp.out[1], mlp.activation)
        return self._policies[key]

    def run(self, state, seat: int, steps_left: int | None, keep_tree: bool = False) -> dict:
        """One decision's search in C++: {"action", "sims", "seconds", "visits", "tree"}."""
        agent = self.agent
        game = state.game
        traits = game.traits
        for policy in (agent.prior_policy, agent.rollout_policy):
            if policy is not None:
                mlp = plain_mlp(policy)
                assert mlp is not None  # (python_only_options kept any other policy in Python)
                if (mlp.observation_size, mlp.num_actions) != (game.observation_size, game.num_actions):
                    raise ConfigError(f"ismcts policy {getattr(policy, 'name', '')} expects observations of "
                                      f"{mlp.observation_size} floats and {mlp.num_actions} actions; "
                                      f"{game.env_id} gives {game.observation_size} and {game.num_actions}")
        return state._ismcts(
            seat=int(seat), seed=int(agent.rng.integers(2**63)),
            sims=0 if agent.sims is None else int(agent.sims),
            seconds=0.0 if agent.time is None else float(agent.time),
            c=float(agent.c), depth=-1 if agent.depth is None else int(agent.depth),
            steps_left=-1 if steps_left is None else int(steps_left),
            reward=agent.reward if agent.reward in traits.reward_modes else "rank",
            score_scale=float(traits.score_scale),
            prior=self._policy(state, agent.prior_policy),
            prior_at_root_only=agent.prior_at == "root", widen_all=agent.widen == "all",
            rollout=self._policy(state, agent.rollout_policy), greedy=agent.pick == "greedy",
            keep_tree=keep_tree)
