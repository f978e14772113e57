"""What a Chickwood Forest state dict must hold, checked by every engine's ``from_dict``
(core/state_checks.py reads the buffer, the generator, the decisions and the turn): each
field's values, and that the cards add up to this configuration's deck."""

from __future__ import annotations

from collections import Counter

import numpy as np

from ..components import KIND_NAMES, NO_CARD, NUM_KINDS, village_cards
from ..observation import Kind
from .records import SecretDiscard

END_STAGE_ORDER = (Kind.ENTERTAINERS_FIRST, Kind.ARROW_GIVE, Kind.FAKE_BEARD)


def _refuse(field: str, why: str) -> ValueError:
    return ValueError(f"state dict: '{field}' {why}")


def _ints(value, field: str) -> list[int]:
    if not isinstance(value, (tuple, list)) or any(
            isinstance(v, bool) or not isinstance(v, (int, np.integer)) for v in value):
        raise _refuse(field, f"must be a sequence of ints, not {value!r}")
    return [int(v) for v in value]


def check_fields(game, loaded) -> None:
    """Each field within what the rules can hold for ``game``'s configuration, and what the
    pending decision needs of them (``loaded``: core/state_checks.LoadedState)."""
    fields = loaded.fields
    n, h = game.num_players, game.hand_size
    deck = fields["deck"]
    if not isinstance(deck, np.ndarray) or deck.ndim != 1 or deck.dtype != np.int8:
        raise _refuse("deck", "must be a one-dimensional int8 array of card kinds")
    if deck.size and (deck.min() < 0 or deck.max() >= NUM_KINDS):
        raise _refuse("deck", f"holds a card kind outside 0..{NUM_KINDS - 1}")
    order = fields["order"]
    if not isinstance(order, tuple) or sorted(_ints(order, "order")) != list(range(n)):
        raise _refuse("order", f"must be a tuple of the seats 0..{n - 1} in turn order, not {order!r}")
    step = fields["step"]
    if isinstance(step, bool) or not isinstance(step, int) or not 0 <= step <= n * h:
        raise _refuse("step", f"must be an int within 0..{n * h}, not {step!r}")
    # what the pending decision reads: the scouting play's place in the round, the raid's
    # raider, the key's raider
    for kind, _, data in loaded.decisions:
        if kind == Kind.SCOUT and step >= n * h:
            raise _refuse("step", f"is {step}: a scouting decision needs fewer than {n * h} plays made")
        if kind in (Kind.RAID, Kind.KEY, Kind.ALMS) and step >= n:
            raise _refuse("step", f"is {step}: a raiding decision needs fewer than {n} raids made")
        if kind == Kind.KEY and data[1] < 0:
            raise ValueError("state dict: the key's decision names no raider")
    stages = fields["end_stages"]
    if not isinstance(stages, tuple) or list(stages) != [s for s in END_STAGE_ORDER if s in stages]:
        raise _refuse("end_stages", f"must be a tuple of end stages in their order {END_STAGE_ORDER}, "
                                    f"not {stages!r}")
    discards = fields["discard_fd"]
    if not isinstance(discards, list) or not all(isinstance(c, SecretDiscard) for c in discards):
        raise _refuse("discard_fd", "must be a list of SecretDiscard records")
    for c in discards:
        kind, owner, spied_by = (_ints((c.kind, c.owner, c.spied_by), "discard_fd"))
        if not (0 <= kind < NUM_KINDS and 0 <= owner < n and -1 <= spied_by < n and spied_by != owner):
            raise _refuse("discard_fd", f"holds a card no seat can have set aside: {c!r}")
    grid = fields["grid"]
    cards = village_cards(n)
    if not isinstance(grid, tuple) or len(grid) != 9 or Counter(_ints(grid, "grid")) != Counter(
            cards + [NO_CARD] * (9 - len(cards))):
        raise _refuse("grid", f"must be a tuple of 9 cells laying out this configuration's village cards "
                              f"{sorted(cards)} (the rest {NO_CARD}), not {grid!r}")
    raids = fields["raids"]
    values = set(game.castle_values)
    if not isinstance(raids, list) or len(raids) != n or not all(
            isinstance(r, list) and set(_ints(r, "raids")) <= values for r in raids):
        raise _refuse("raids", f"must be one list per seat of the castle values raided ({sorted(values)})")


def check_consistent(state) -> None:
    """The cards add up: each kind counted everywhere it can be equals the configuration's
    deck (a dict with a card twice, or one missing, is refused)."""
    totals = state.card_totals()
    composition = state.game.composition
    if not np.array_equal(totals, composition):
        k = int(np.flatnonzero(totals != composition)[0])
        raise ValueError(f"state dict: the cards do not add up: {int(totals[k])} {KIND_NAMES[k]} "
                         f"where this configuration has {int(composition[k])}")
