"""The helpful characters' abilities: the Merchant, the Prince, the Goblin, the Beggar, the
Unicorn and its saddle.

The Merchant sells an apple for silver, else buys the cheap items; the Prince and the
Goblin give the item worth most; the Beggar leads to the card that helps most now; the
Unicorn carries the piece toward its goals.
"""

from __future__ import annotations

from .. import actions as A
from ..components import CHARACTER_NAMES, CHARACTERS, MERCHANT, SPIRIT
from .impossible import impossible
from .seat_view import SeatView
from .valuation import cheapest_item, distances, goals, item_worth, qualified, shortfall, tile_value


def choose_merchant(agent, sv: SeatView, legal: set[int]) -> int:
    """The apple for a silver coin; else sell the cheap items (``merchant_sell_max_worth``
    or less), then stop (``done`` is offered once one is sold; the first sale is the one
    asked for)."""
    if A.MERCHANT_APPLE.start in legal:
        return A.MERCHANT_APPLE.start
    item = cheapest_item(agent.p, sv, legal)
    if (item_worth(agent.p, sv, item - A.ITEM.start) <= agent.p.merchant_sell_max_worth
            or A.DONE.start not in legal):
        return item
    return A.DONE.start


def choose_bag_item(agent, sv: SeatView, legal: set[int]) -> int:
    """The Prince's draw or the Goblin's pick from the bag: the item worth most."""
    return max(legal, key=lambda a: item_worth(agent.p, sv, a - A.BAG.start))


def choose_goblin_give(agent, sv: SeatView, legal: set[int]) -> int:
    return cheapest_item(agent.p, sv, legal)


def choose_beggar(agent, sv: SeatView, legal: set[int]) -> int:
    """The card the Beggar leads to, the first of: a task whose lower task can be
    fulfilled now (an apple); the Forest Spirit when qualified (the ring); the Merchant
    while holding silver (an apple); a helper, the most often useful first
    (``beggar_helpers``; laid out without a debt if it cannot help now); a task whose upper
    task can be fulfilled now (no debt); the Forest Spirit (only laid out, no debt); else
    the task nearest to being fulfilled, whose debt is then the cheapest to settle."""
    bp = sv.backpack
    for a in legal:
        c = a - A.CHARACTER.start
        ch = CHARACTERS[c]
        if ch.lower is not None and all(bp[k] >= 1 for k in ch.lower.give + ch.lower.need) \
                and sv.copper >= ch.lower.copper and sv.silver >= ch.lower.silver:
            return a
    if qualified(sv) and A.CHARACTER.start + SPIRIT in legal:
        return A.CHARACTER.start + SPIRIT
    if sv.silver and A.CHARACTER.start + MERCHANT in legal:
        return A.CHARACTER.start + MERCHANT
    for c in agent.p.beggar_helpers:
        if A.CHARACTER.start + c in legal:
            return A.CHARACTER.start + c
    for a in sorted(legal):
        upper = CHARACTERS[a - A.CHARACTER.start].upper
        if upper is not None and all(bp[k] >= 1 for k in upper.give + upper.need) \
                and sv.copper >= upper.copper and sv.silver >= upper.silver:
            return a
    if A.CHARACTER.start + SPIRIT in legal:
        return A.CHARACTER.start + SPIRIT
    # Only characters with tasks are left (every helper is ranked above; the Beggar
    # never leads to himself).
    tasks = [a for a in legal if CHARACTERS[a - A.CHARACTER.start].upper is not None]
    if len(tasks) != len(legal):
        others = sorted(CHARACTER_NAMES[a - A.CHARACTER.start] for a in legal
                        if a not in tasks)
        raise impossible(sv, legal, f"no rule ranks {others}")

    def nearest(a: int) -> tuple[int, int]:
        ch = CHARACTERS[a - A.CHARACTER.start]
        return min(shortfall(sv, ch.upper), shortfall(sv, ch.lower)), a

    return min(tasks, key=nearest)


def choose_unicorn(agent, sv: SeatView, legal: set[int]) -> int:
    """The tile toward the goals (``goal_pull``), its own value counted a little."""
    p = agent.p
    wanted = goals(sv)
    dist = distances(sv, wanted, (a - A.TILE.start for a in legal)) if wanted else {}
    return max(legal, key=lambda a: (tile_value(p, sv, a - A.TILE.start) * p.unicorn_tile_weight
                                     + (p.goal_pull / (1 + dist[a - A.TILE.start])
                                        if a - A.TILE.start in dist else 0.0)))


def choose_saddle(agent, sv: SeatView, legal: set[int]) -> int:
    """Always the tile's action (the saddle goes back into the bag)."""
    return A.USE.start
