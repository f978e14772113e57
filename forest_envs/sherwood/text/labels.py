"""A move as a person reads it in ``forest-envs play``'s list (``move_label``, the state's
hook): the action's name where it says all, else a sentence from the pending decision. The
seats the actions count from the mover ("self", "+1") are named as the board names them
(P2); the negotiation's terms say who gets what ("P2 gets 3 bags and 1 comrade of the loot,
and 1 gold now"); the asks name the ally asked; a traveller
chosen is named as the mover may know it. Every label of a decision's legal moves is
different (the list may be answered by typing one); nothing hidden from ``seat`` is named
(another seat than the mover reads the move as ``describe_action`` gives it to that seat)."""

from __future__ import annotations

import textwrap

from .. import actions as A
from ..actions import MAX_PAYMENT, MAX_PROMISED_COMRADES, MAX_PROMISED_LOOT, MAX_SEATS
from ..observation import DECISIONS
from .view import reading
from .words import WIDTH, plural, seat, traveller


def move_label(state, action: int, seat_: int | None = None) -> str:
    """``action`` as ``seat_`` reads it in a list of the pending decision's moves."""
    name = state.game.action_to_string(action)
    block = state.game.actions.block_of(action)
    label = _LABELS.get(block.name)
    if label is None or not state.decisions:
        return name
    kind, player, data = state.decisions[-1]
    if seat_ is not None and seat_ != player:
        return state.describe_action(action, seat_)  # another's move: only what seat_ may read
    fields = dict(zip(DECISIONS[kind].names, data))
    return label(state, player, fields, action - block.start, seat_, name)


def _whom(state, player: int, r: int) -> str:
    """The seat ``r`` places after the mover (0: the mover)."""
    return seat((player + r) % state.num_players)


def _ask(state, player, fields, index, observer, name) -> str:
    outlaws, cards = divmod(index, A.MAX_ASK_CARDS + 1)
    ally = seat(fields["ally"])
    if not outlaws and not cards:
        return f"ask {ally} for nothing"
    what = plural(outlaws, "outlaw") + (f" and to promise {plural(cards, 'card')}" if cards else "")
    return f"ask {ally} for {what}"


def _terms(state, player, fields, index, observer, name) -> str:
    """Who gets what, one line: the prompt says who promises the loot (the informant) and who
    pays the gold (the performer)."""
    bags, rest = divmod(index, (MAX_PAYMENT + 1) * (MAX_PROMISED_COMRADES + 1))
    gold, comrades = divmod(rest, MAX_PROMISED_COMRADES + 1)
    gets = []
    if bags or comrades:
        gets.append(" and ".join(plural(k, what) for k, what in ((bags, "bag"), (comrades, "comrade"))
                                 if k) + " of the loot")
    if gold:
        gets.append(f"{gold} gold now")
    return f"{seat(fields['ally'])} gets " + (", and ".join(gets) if gets else "nothing")


def move_table(state, legal: list[int], seat_: int | None = None) -> list[str] | None:
    """The terms of a joint ambush as a table a person reads at a glance (the list would be
    up to 180 lines): one row per number of bags, one column per gold paid now and comrades
    promised, each cell the move's number in ``legal``; tables of at most ``WIDTH`` columns,
    stacked when the gold columns do not fit side by side. None for any other decision, or
    when the legal terms are not every combination of their counts (the list says them)."""
    if not state.decisions or (seat_ is not None and seat_ != state.current_player):
        return None
    if len(legal) <= TABLE_ABOVE or any(a not in A.TERMS for a in legal):
        return None
    kind, player, data = state.decisions[-1]
    counts = [A.TERMS.index(a) for a in legal]
    bags, gold, comrades = (sorted({c[i] for c in counts}) for i in range(3))
    if counts != [(b, g, c) for b in bags for g in gold for c in comrades]:
        return None
    number = {c: i for i, c in enumerate(counts)}
    cell = len(str(len(legal) - 1)) + 1
    head = max(len("comrades"), *(len(_bags(b)) for b in bags)) + 4  # "  " before, 2 after
    group = cell * len(comrades) + 3
    per_table = max(1, (WIDTH - head) // group)
    who = seat(dict(zip(DECISIONS[kind].names, data))["ally"])
    lines = textwrap.wrap(f"{who} gets, by number: the row's bags of the loot, the column's gold "
                          "now and comrades of the loot", WIDTH, subsequent_indent="  ")
    for start in range(0, len(gold), per_table):
        shown = gold[start:start + per_table]
        lines.append((" " * head + "".join(f"gold {g}".center(group - 3).ljust(group) for g in shown)).rstrip())
        lines.append(("  comrades".ljust(head) + "".join(
            "".join(f"{c:>{cell}}" for c in comrades).ljust(group) for _ in shown)).rstrip())
        for b in bags:
            lines.append((("  " + _bags(b)).ljust(head) + "".join(
                "".join(f"{number[(b, g, c)]:>{cell}}" for c in comrades).ljust(group)
                for g in shown)).rstrip())
    example = number[(bags[min(1, len(bags) - 1)], gold[min(1, len(gold) - 1)], comrades[-1])]
    said = f'for example {example} is "{move_label(state, legal[example], seat_)}"'
    return lines + textwrap.wrap(said, WIDTH, subsequent_indent="  ")


TABLE_ABOVE = 12  # more terms than this are laid out as a table


def _bags(b: int) -> str:
    return "no bag" if b == 0 else plural(b, "bag")


def _share(state, player, fields, index, observer, name) -> str:
    return f"give a share of the loot to {_whom(state, player, index)}"


def _comrade(state, player, fields, index, observer, name) -> str:
    return f"give a comrade to {_whom(state, player, index)}"


def _informant(state, player, fields, index, observer, name) -> str:
    return f"name {_whom(state, player, index)} as the informant"


def _withhold(state, player, fields, index, observer, name) -> str:
    what, r = divmod(index, MAX_SEATS)
    return f"withhold a promised {('bag', 'comrade')[what]} from {_whom(state, player, r)}"


def _call(state, player, fields, index, observer, name) -> str:
    return f"call on {_whom(state, player, index)} to keep the promise"


def _traveller(verb: str):
    def label(state, player, fields, index, observer, name) -> str:
        return verb.format(traveller(reading(state, observer), index, short=True))
    return label


# The blocks whose moves the list names from the position (by block name); the others' names
# say all. Each function gets the state, the mover, the decision's fields, the move's index in
# its block, the seat reading and the move's name.
_LABELS = {
    A.ASK.name: _ask,
    A.TERMS.name: _terms,
    A.SHARE.name: _share,
    A.COMRADE.name: _comrade,
    A.INFORMANT.name: _informant,
    A.WITHHOLD.name: _withhold,
    A.CALL.name: _call,
    A.LEAD.name: _traveller("lead {}"),
    A.TARGET.name: _traveller("mark {} as the target"),
    A.REVEAL.name: _traveller("tell the loot of {}"),
}
assert A.TERMS.size == (MAX_PROMISED_LOOT + 1) * (MAX_PAYMENT + 1) * (MAX_PROMISED_COMRADES + 1)
