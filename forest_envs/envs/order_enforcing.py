"""``OrderEnforcedEnv``: PettingZoo's order-enforcing wrapper around a ``ForestAECEnv``,
with the attributes an ``agent_iter`` loop reads on every step delegated directly.

PettingZoo's ``OrderEnforcingWrapper`` forwards attribute access through
``BaseWrapper.__getattr__``, two Python-level hops for each of ``agent_selection``,
``agents``, ``terminations``, ``truncations``, ``rewards``, ``infos`` and for ``last()``;
this subclass delegates exactly these (still raising before ``reset``). The behaviour is
PettingZoo's.
"""

from __future__ import annotations

from pettingzoo.utils import wrappers
from pettingzoo.utils.wrappers.order_enforcing import AECOrderEnforcingIterable, AECOrderEnforcingIterator


def _delegated(name: str) -> property:
    """A read-only attribute of the wrapped env, refused before the first reset."""

    def get(self):
        if not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")
        return getattr(self.env, name)

    return property(get)


class _OrderEnforcedIterator(AECOrderEnforcingIterator):
    """PettingZoo's order-enforcing ``agent_iter`` iterator reading the wrapped env's
    ``agents`` and ``agent_selection`` directly: same checks, no property hops per step."""

    def __next__(self) -> str:
        wrapper = self.env
        env = wrapper.env
        if not env.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        assert wrapper._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        wrapper._has_updated = False
        return env.agent_selection


class _OrderEnforcedIterable(AECOrderEnforcingIterable):
    def __iter__(self) -> _OrderEnforcedIterator:
        return _OrderEnforcedIterator(self.env, self.max_iter)


class OrderEnforcedEnv(wrappers.OrderEnforcingWrapper):
    """PettingZoo's OrderEnforcingWrapper, with the attributes read on every step of an
    ``agent_iter`` loop delegated directly instead of through two ``__getattr__`` hops, and
    ``step`` / ``agent_iter`` going straight to the env once it is running (the checks and
    messages before a reset or after the end stay PettingZoo's)."""

    agent_selection = _delegated("agent_selection")
    agents = _delegated("agents")
    terminations = _delegated("terminations")
    truncations = _delegated("truncations")
    rewards = _delegated("rewards")
    infos = _delegated("infos")

    def last(self, observe: bool = True):
        if not self._has_reset:
            raise AttributeError("last() cannot be called before reset")
        return self.env.last(observe)

    def step(self, action) -> None:
        if self._has_reset and self.env.agents:
            self._has_updated = True
            self.env.step(action)
        else:
            super().step(action)  # PettingZoo's error before reset, warning after the end

    def agent_iter(self, max_iter: int = 2**63) -> _OrderEnforcedIterable:
        if not self._has_reset:
            return super().agent_iter(max_iter)  # PettingZoo's error
        return _OrderEnforcedIterable(self, max_iter)
