"""Playing an engine state by action names, shared by every game's rule tests."""

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
