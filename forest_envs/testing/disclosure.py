"""What a seat reads of an action never tells it what it may not know: the check the golden
playthroughs run on every step (``disclosure_problems``; ``tests/test_playthroughs.py``)."""

from __future__ import annotations

import numpy as np

from ..core.presentation import SPECTATOR
from .playthrough import dump, seat_label


def disclosure_problems(env) -> list[str]:
    """Where a seat reads, of the pending action, something it may not know.

    What a seat knows is its observation (and its mask when it decides) and its ``view``,
    the game's own plain-data account of what it may know. For each other seat, two legal
    actions after which it cannot tell the states apart by those, up to its own next
    decision, must read the same to it, or the text tells it what is hidden from it.
    Actions that lead to the very same state are exempt (swapping a card for an equal one:
    telling them apart reveals nothing). "Up to its next decision" because one action's
    pending decisions by others may show its outcome only once they are all taken (a loot
    shared out share by share): both copies go on with their lowest legal action while
    others decide, and where those differ the positions have parted (told apart).

    And the other way round: in a state the seat cannot tell from this one
    (``resample_hidden`` from its seat, where the game has it) an action legal in both
    must read the same to it unless the seat can tell the two states apart once the
    action is applied (an action that lays a hidden card open may name it), or the text
    tells it something of the hidden state."""
    state = env.engine_state
    legal = state.legal_actions()
    after = {}
    for action in legal:
        nxt = state.clone()
        nxt.apply(action)
        after[action] = nxt
    problems = []
    for seat, observer in enumerate(env.possible_agents):
        if seat == state.current_player:
            continue
        # Grouped by the observation first: views are compared only where that is equal.
        groups: dict[bytes, dict[str, int]] = {}
        for action in legal:
            key = _observed(after[action], seat)
            groups.setdefault(key, {}).setdefault(env.describe_action(action, observer), action)
        for by_text in groups.values():
            firsts = list(by_text.items())  # one action per distinct text
            for i, (text_a, a) in enumerate(firsts):
                for text_b, b in firsts[i + 1:]:
                    x, y = after[a], after[b]
                    if x.to_dict() == y.to_dict() or told_apart(x.clone(), y.clone(), seat):
                        continue
                    problems.append(
                        f"step {env.num_steps}: {seat_label(seat)} cannot tell {env.action_to_string(a)!r} "
                        f"from {env.action_to_string(b)!r} by what it knows, but reads "
                        f"{text_a!r} and {text_b!r}")
    return problems + _resampled_differences(env)


def told_apart(x, y, seat: int, horizon: int = 200, until: int | None = None) -> bool:
    """Whether ``seat`` (or ``SPECTATOR``, who sees only its view) can tell states ``x`` and
    ``y`` apart by what it knows, now or as play goes on (see ``disclosure_problems``) before
    seat ``until`` (default: ``seat`` itself) decides next or the game ends."""
    until = seat if until is None else until
    for _ in range(horizon):
        if _observed(x, seat) != _observed(y, seat) or _view(x, seat) != _view(y, seat):
            return True
        if until in (x.current_player, y.current_player) or x.is_terminal or y.is_terminal:
            return False
        lx, ly = x.legal_actions()[0], y.legal_actions()[0]
        if lx != ly or x.current_player != y.current_player:
            return True
        x.apply(lx)
        y.apply(ly)
    return True


def _observed(state, seat: int) -> bytes:
    """``seat``'s observation, with its mask when it decides (a spectator has none)."""
    if seat == SPECTATOR:
        return b""
    key = state.observation(seat).tobytes()
    return key + state.legal_action_mask().tobytes() if state.current_player == seat else key


def _view(state, seat: int) -> str:
    return dump(state.view(seat))


def _resampled_differences(env) -> list[str]:
    state = env.engine_state
    legal = state.legal_actions()
    rng = np.random.default_rng(env.num_steps)
    problems = []
    for seat in range(state.num_players):
        if seat == state.current_player:
            continue
        try:
            other = state.resample_hidden(seat, rng)
        except NotImplementedError:
            return []
        there = other.legal_action_mask()
        for action in legal:
            if not there[action]:
                continue
            here_text = state.describe_action(action, seat)
            there_text = other.describe_action(action, seat)
            if here_text == there_text:
                continue
            x, y = state.clone(), other.clone()
            x.apply(action)
            y.apply(action)
            if _observed(x, seat) == _observed(y, seat) and _view(x, seat) == _view(y, seat):
                problems.append(
                    f"step {env.num_steps}: {seat_label(seat)} reads {env.action_to_string(action)!r} as "
                    f"{here_text!r} here but as {there_text!r} in a state it cannot tell from this one")
    return problems
