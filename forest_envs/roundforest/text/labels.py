"""A move as a person reads it in ``forest-envs play``'s list (``move_label``, the state's
hook): the action's name where it says all, else the name made concrete from the pending
decision as the mover's view shows it: the fairy trade names the item it gives and its
price, "keep the item" names the item, "done" says what is left undone, a tile chosen says
what goes there. Every label of a decision's legal moves is different (the list may be
answered by typing one), and each is computed from ``view.reading(state, seat)`` alone; a seat
other than the mover reads the move as ``describe_action`` gives it to that seat."""

from __future__ import annotations

from ...core.decisions import DecisionReading
from .. import actions as A
from ..actions import ROW_NAMES
from ..components import (
    CHARACTER_NAMES,
    CHARACTERS,
    COPPER_TOKEN,
    FAIRY_COST,
    FAIRY_SLOTS,
    HELPFUL,
    IS_HEAVY,
    cell_name,
)
from ..observation import Kind
from .view import SeatReading, reading
from .words import ABILITIES, gap_label, task_text, the, thing_on

# What "done" leaves undone, by the decision that offers it.
_DONE = {
    Kind.CHEST: "done: keep the treasure chest closed",
    Kind.BLOCKADE_START: "done: leave the blockades as they are",
    Kind.BLOCKADE_END: "done: leave the blockades as they are",
    Kind.MERCHANT: "done: sell the Merchant nothing more",
    Kind.SADDLE: "done: keep the saddle",
}


def move_label(state, action: int, seat: int | None = None) -> str:
    """``action`` as ``seat`` reads it in a list of the pending decision's moves."""
    name = state.game.action_to_string(action)
    block = state.game.actions.block_of(action)
    label = _LABELS.get(block.name)
    v = reading(state, seat)
    d = v.decision
    if d is not None and seat is not None and seat != d.player:
        return state.describe_action(action, seat)  # another's move: only what seat may read
    if label is None or d is None:
        return name
    return label(v, d.kind, d, action - block.start, name)


def _in_hand(v: SeatReading, kind: Kind, d: DecisionReading) -> int:
    """The item the decision is about: drawn (or traded, for a coin token) or found on the tile."""
    if kind == Kind.TOKEN_ITEM:
        return v.cell(d.data.cell).item
    return d.data.item


def _trade(v, kind, d, index, name) -> str:
    row, slot = divmod(index, FAIRY_SLOTS)
    cost = FAIRY_COST[row]
    price = "free" if cost == 0 else f"{cost} copper"
    return (f"trade with the fairy for {the(v.fairy[row][slot])} ({ROW_NAMES[row]} row "
            f"item {slot + 1}, {price})")


def _keep(v, kind, d, index, name) -> str:
    if kind == Kind.COIN_TOKEN:
        return f"keep {the(d.data.item)} as an item"
    return f"keep {the(_in_hand(v, kind, d))}"


def _drop(v, kind, d, index, name) -> str:
    return f"leave {the(_in_hand(v, kind, d))} on {cell_name(v.players[d.player].cell)}"


def _exchange(v, kind, d, index, name) -> str:
    k = _in_hand(v, kind, d)
    coin = "1 copper" if k == COPPER_TOKEN else "1 silver"
    return f"exchange {the(k)} for {coin} from the supply"


def _character_of(v, kind, d) -> int | None:
    """The character the decision meets: the token on the tile, or the mover's own card."""
    if kind == Kind.MEET:
        return d.data.character
    return v.players[d.player].drawn_card


def _task(v, kind, d, index, name) -> str:
    c = _character_of(v, kind, d)
    if c is None or CHARACTERS[c].kind == HELPFUL:
        return name
    ch = CHARACTERS[c]
    task = ch.upper if name == "fulfil the upper task" else ch.lower
    if task is None:  # only a helpful character has no tasks, and it returned above
        return name
    return f"{name} of the {CHARACTER_NAMES[c]}: {task_text(task)}"


def _apple(v, kind, d, index, name) -> str:
    c = _character_of(v, kind, d)
    return name if c is None else f"settle the debt to the {CHARACTER_NAMES[c]} with a golden apple"


def _debt(v, kind, d, index, name) -> str:
    c = _character_of(v, kind, d)
    return name if c is None else f"take the debt to the {CHARACTER_NAMES[c]}"


def _use(v, kind, d, index, name) -> str:
    if kind == Kind.SADDLE:
        cell = d.data.cell
        return (f"give the saddle back to deal with {thing_on(v.cell(cell))} on "
                f"{cell_name(cell)}")
    c = _character_of(v, kind, d)
    if c is None:
        return name
    return f"use the {CHARACTER_NAMES[c]}'s ability: {ABILITIES[CHARACTER_NAMES[c]]}"


def _defer(v, kind, d, index, name) -> str:
    c = _character_of(v, kind, d)
    return name if c is None else f"lay the {CHARACTER_NAMES[c]} out (its token stays here)"


def _tile(v, kind, d, index, name) -> str:
    where = cell_name(index)
    if kind == Kind.YELLOW:
        return f"put {the(d.data.item)} on {where}"
    if kind == Kind.SPIRIT_PLACE:
        return f"place the Forest Spirit on {where}"
    if kind == Kind.UNICORN:
        return f"ride the Unicorn to {where}"
    return name


def _give(v, kind, d, index, name) -> str:
    """An item from the backpack: to the well, sold to the Merchant, or given the Goblin."""
    k = the(index)
    if kind == Kind.WELL_GIVE:
        return f"give {k} to the well"
    if kind == Kind.MERCHANT:
        return f"sell {k} to the Merchant for 1 copper"
    if kind == Kind.GOBLIN_GIVE:
        return f"give {k} to the Goblin"
    return name


def _take(v, kind, d, index, name) -> str:
    """An item drawn by the Prince (keep one) or taken from the blue bag for the Goblin."""
    if kind == Kind.PRINCE:
        return f"keep {the(index)}"
    if kind == Kind.GOBLIN_TAKE:
        return f"take {the(index)} from the blue bag"
    return name


def _done(v, kind, d, index, name) -> str:
    return _DONE.get(kind, name)


def _gap_set(v, kind, d, index, name) -> str:
    heavy = [k for k, n in enumerate(v.players[d.player].backpack) if n and IS_HEAVY[k]]
    what = the(heavy[0]) if heavy else "the heavy item"
    return f"blockade: set {what} at gap {gap_label(index)}"


def _gap_take(v, kind, d, index, name) -> str:
    return f"blockade: take back {the(dict(v.gaps)[index])} at gap {gap_label(index)}"


# The blocks whose moves the list names from the position (by block name); the others' names
# say all. Each function gets the mover's view, the decision kind, the decision, the move's
# index in its block and its name.
_LABELS = {
    A.TRADE.name: _trade,
    A.KEEP.name: _keep,
    A.DROP.name: _drop,
    A.EXCHANGE.name: _exchange,
    A.UPPER.name: _task,
    A.LOWER.name: _task,
    A.APPLE.name: _apple,
    A.DEBT.name: _debt,
    A.USE.name: _use,
    A.DEFER.name: _defer,
    A.TILE.name: _tile,
    A.DONE.name: _done,
    A.ITEM.name: _give,
    A.BAG.name: _take,
    A.GAP_SET.name: _gap_set,
    A.GAP_TAKE.name: _gap_take,
}
