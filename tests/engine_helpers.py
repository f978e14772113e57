"""Shared by every game's tests: playing an engine state by action names, and the
seat-only env through which agents prove they read nothing but their own seat."""

from __future__ import annotations


def phase(state) -> str:
    """The pending decision's kind ("over" when the game has ended)."""
    return state.decision_name() or "over"


def act(state, *names: str) -> None:
    """Apply actions by their names (state.game.string_to_action)."""
    for name in names:
        state.apply(state.game.string_to_action(name))


def legal_names(state) -> set[str]:
    return {state.game.action_names[a] for a in state.legal_actions()}


class SeatOnlyEnv:
    """Exposes only what a seat may use: its view and its legal mask. Touching anything
    else (the engine state, the game, hands, decks) raises AttributeError."""

    def __init__(self, env):
        self._env = env.unwrapped

    @property
    def unwrapped(self):
        return self

    @property
    def possible_agents(self):
        return self._env.possible_agents

    def view(self, agent):
        return self._env.view(agent)

    def reading(self, agent):
        return self._env.reading(agent)

    def action_mask(self, agent):
        return self._env.action_mask(agent)
