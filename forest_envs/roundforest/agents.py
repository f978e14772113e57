"""A scripted Roundforest player: ``HeuristicAgent``.

It reads only what its seat may know (``env.unwrapped.view(agent)`` and the action mask)
plus the public component data, and plays for the ring:

* Golden apples first: silver is turned into apples at wells (or bought from the
  Merchant), copper into silver, spare items into copper; lower tasks (an apple) beat upper
  ones; the treasure chest and its key are kept together and the chest is opened as soon as
  it can be; a drawn or traded coin token is exchanged for its coin.
* Debts are settled when possible (never with an apple while apples are short), and a
  helper is used when it helps now.
* Moving: each legal target is scored by what lies there for this player now, plus how
  close it brings the piece to where it wants to be (a well while it holds coins to
  exchange, the Forest Spirit once qualified), by a breadth-first search over the tiles'
  current octagons. Compasses are spent only for a clearly better target.

Each decision kind has its handler in ``HANDLERS`` (checked against the game's decisions at
import); a handler picks one of the legal actions for every position its decision can
arise in, and raises ``ImpossibleDecision`` naming the decision when handed a set of legal
actions the rules cannot produce. There is no random or first-legal fallback.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable

import numpy as np

from ..core.agents import SeededAgent
from . import actions as A
from .components import (
    APPLES_TO_WIN,
    BACKPACK_ITEMS,
    BLUE,
    CHARACTER_NAMES,
    CHARACTERS,
    CHEST,
    COIN_TOKENS,
    COPPER_TOKEN,
    CROSS,
    FAIRY_COST,
    GOBLIN,
    HEAVY,
    HELPFUL,
    KEY,
    MERCHANT,
    POTION,
    PRINCE,
    RED,
    SPIRIT,
    SWORD,
    UNICORN,
    WELL_COPPER_IN,
    YELLOW,
    Task,
    cell_rc,
)
from .observation import DECISIONS
from .rules.turn import octagon_targets


class ImpossibleDecision(RuntimeError):
    """A handler was given legal actions its decision can never offer (a rules bug or a
    view that does not belong to the mask)."""



class HeuristicAgent(SeededAgent):
    name = "heuristic"

    def act(self, env, agent: str) -> int:
        raw = env.unwrapped
        legal = raw.action_mask(agent).nonzero()[0].tolist()
        if len(legal) == 1:
            return legal[0]  # forced: nothing to decide, so the view is not even read
        if not legal:
            raise ValueError(f"{agent} has no legal action: it is not its decision or the "
                             "game is over")
        return self._decide(raw.view(agent), legal)

    # --- the decision ------------------------------------------------------------------------
    def choose(self, view: dict, mask: np.ndarray) -> int:
        legal = np.flatnonzero(mask).tolist()
        if not legal:
            raise ValueError(f"seat {view['seat']} has no legal action: it is not its decision "
                             "or the game is over")
        if len(legal) == 1:
            return legal[0]  # forced: nothing to decide
        return self._decide(view, legal)

    def _decide(self, view: dict, legal: list[int]) -> int:
        """The handler's choice among ``legal`` (more than one action) for ``view``."""
        kind = view["decision"]["kind"]
        choice = HANDLERS[kind](self, view, set(legal))
        if choice not in legal:
            raise RuntimeError(f"HeuristicAgent chose {choice!r} in the {kind!r} decision, "
                               f"not one of the legal actions {legal}")
        return int(choice)

    @staticmethod
    def _impossible(view: dict, legal: set[int], why: str) -> ImpossibleDecision:
        kind = view["decision"]["kind"]
        names = sorted(A.SPACE.names[a] for a in legal)
        return ImpossibleDecision(f"the {kind!r} decision cannot offer {names}: {why}")

    # --- helpers -------------------------------------------------------------------------------------
    @staticmethod
    def _me(view: dict) -> dict:
        return view["players"][view["seat"]]

    def _qualified(self, me: dict) -> bool:
        return me["apples"] >= APPLES_TO_WIN and not me["debts"]

    def _item_worth(self, view: dict, k: int) -> float:
        """How much an item is worth keeping for this player now."""
        me = self._me(view)
        bp = me["backpack"]
        worth = 1.0
        if k in (CHEST, KEY):
            worth = 6.0 if bp[KEY if k == CHEST else CHEST] else 3.0
        if k in (CROSS, SWORD, POTION):
            worth = 3.0
        for c in me["debts"]:
            ch = CHARACTERS[c]
            for task in (ch.upper, ch.lower):
                if task and (k in task.give or k in task.need):
                    worth += 3.0
        if k in HEAVY and k != CHEST:
            worth += 1.0  # gifts for the friendly characters
        return worth

    def _tile_value(self, view: dict, cell: int) -> float:
        """What arriving on ``cell`` brings this player now."""
        me = self._me(view)
        info = view["cells"][cell]
        items = sum(me["backpack"])
        if info["character"] >= 0:
            c = info["character"]
            if c == SPIRIT:
                return 1000.0
            ch = CHARACTERS[c]
            if ch.kind == HELPFUL:
                return 8.0 if c == MERCHANT and me["silver"] else 3.0
            if c in me["debts"]:
                return 12.0
            return 9.0  # entering means a task can be fulfilled (maybe for an apple)
        if info["well"]:
            if me["silver"]:
                return 20.0
            if me["copper"] >= WELL_COPPER_IN:
                return 10.0
            if items >= 2:
                return 4.0
            return 0.0
        if info["item"] >= 0:
            return 1.0 + self._item_worth(view, info["item"]) if items < BACKPACK_ITEMS else 0.0
        chip = info["chip"]
        if chip == BLUE:
            return 3.0 if items < BACKPACK_ITEMS else 1.5
        if chip == RED:
            return 2.5 if len(me["debts"]) < 2 else 0.5
        if chip == YELLOW:
            return 1.0
        return 0.0

    @staticmethod
    def _distances(view: dict, goals: set[int], wanted: Iterable[int]) -> dict[int, int]:
        """Moves needed from the tiles to one of ``goals`` over the current octagons
        (ignoring turning and pieces): a breadth-first search backwards. Every tile of
        ``wanted`` that can reach a goal has its distance; the search stops once all of
        them have one (breadth-first, a tile's first distance is final), so other tiles
        may be missing."""
        cells, n = view["cells"], view["num_players"]
        back: dict[int, list[int]] = {c: [] for c in cells}
        for c, info in cells.items():
            # the octagons as they lie now (turning is ignored: a rough distance)
            for t in octagon_targets(n, c, info["tile"], info["orientation"]):
                back[t].append(c)
        dist = {g: 0 for g in goals}
        missing = {c for c in wanted if c not in dist}
        queue = deque(goals)
        while queue and missing:
            c = queue.popleft()
            d = dist[c] + 1
            for prev in back[c]:
                if prev not in dist:
                    dist[prev] = d
                    missing.discard(prev)
                    queue.append(prev)
        return dist

    def _goals(self, view: dict) -> set[int]:
        me = self._me(view)
        cells = view["cells"]
        if self._qualified(me):
            spirit = {c for c, i in cells.items() if i["character"] == SPIRIT}
            if spirit:
                return spirit
        if me["silver"] or me["copper"] >= WELL_COPPER_IN:
            return {c for c, i in cells.items() if i["well"]}
        own = {c for c, i in cells.items() if i["character"] in me["debts"]}
        return own

    # --- decisions ------------------------------------------------------------------------------------
    def _turn(self, view: dict, legal: set[int]) -> int:
        me = self._me(view)
        compass_cost = 6.0 if me["compasses"] > 1 else 9.0
        # (action, cell, cost) of each move, in the order of ``legal``: the order of the draws
        moves = [(a, a - A.MOVE.start, 0.0) if a in A.MOVE else (a, a - A.COMPASS.start, compass_cost)
                 for a in legal if a in A.MOVE or a in A.COMPASS]
        # one draw per move, as one call (the same numbers as one call per move)
        noise = self.rng.random(len(moves)).tolist()
        goals = self._goals(view)
        dist = self._distances(view, goals, (cell for _, cell, _ in moves)) if goals else {}
        # pausing is worth a little; from the backpack it is legal only with no move at all
        best, best_score = (A.PAUSE.start, 0.2) if A.PAUSE.start in legal else (None, -np.inf)
        for (a, cell, cost), r in zip(moves, noise):
            score = self._tile_value(view, cell) - cost
            if goals:
                d = dist.get(cell)
                score += 6.0 / (1 + d) if d is not None else 0.0
            score += r * 0.1
            if score > best_score:
                best, best_score = a, score
        if best is None:
            raise self._impossible(view, legal, "neither a move nor a pause is offered")
        return best

    def _blockade_start(self, view, legal):
        """Never blockades: its moves are planned on the tiles' current octagons, which a
        blockade would keep only for the tiles next to it (``done`` is always offered)."""
        return A.DONE.start

    _blockade_end = _blockade_start

    def _best_trade(self, view: dict, legal: set[int], floor: float) -> int | None:
        best, best_worth = None, floor
        for a in legal:
            if a in A.TRADE:
                r, s = A.TRADE.index(a)
                k = view["fairy"][r][s]
                cost = FAIRY_COST[r]  # copper
                worth = self._item_worth(view, k) - cost * 1.0
                if k in COIN_TOKENS:
                    worth = 1.0 - cost if k == COPPER_TOKEN else 3.5 - cost
                if worth > best_worth:
                    best, best_worth = a, worth
        return best

    def _take_or_trade(self, view, legal, k: int) -> int:
        """An item in hand (drawn, or lying on the tile): exchange a coin token (money beats
        a coin token kept as an item, worth 1), else keep it, trade it or leave it."""
        if A.EXCHANGE.start in legal:
            trade = self._best_trade(view, legal, 3.5 if k == COPPER_TOKEN else 5.0)
            return trade if trade is not None else A.EXCHANGE.start
        keep = self._item_worth(view, k) if A.KEEP.start in legal else -1.0
        trade = self._best_trade(view, legal, max(keep, 0.5) + 0.5)
        if trade is not None:
            return trade
        return A.KEEP.start if A.KEEP.start in legal else A.DROP.start

    def _drawn(self, view, legal):
        return self._take_or_trade(view, legal, view["decision"]["data"]["item"])

    def _token_item(self, view, legal):
        cell = view["decision"]["data"]["cell"]
        return self._take_or_trade(view, legal, view["cells"][cell]["item"])

    def _coin_token(self, view, legal):
        """A traded coin token or the Prince's: coins buy trades, wells and tasks."""
        return A.EXCHANGE.start

    def _chest(self, view, legal):
        """A golden apple now, and two places free in the backpack."""
        return A.OPEN_CHEST.start

    def _yellow(self, view, legal):
        # far from my piece: the item is more likely to land where I am not in the way
        me = self._me(view)
        r0, c0 = cell_rc(me["cell"])
        return max(legal, key=lambda a: -abs(cell_rc(a - A.TILE.start)[0] - r0)
                   - abs(cell_rc(a - A.TILE.start)[1] - c0))

    def _task_choice(self, view, legal, may_debt: bool) -> int:
        """The lower task (an apple), else the upper; else, for a drawn card, the debt (an
        apple instead while more than enough are held); else an apple for the debt."""
        me = self._me(view)
        if A.LOWER.start in legal:
            return A.LOWER.start
        if A.UPPER.start in legal:
            return A.UPPER.start
        if may_debt and A.DEBT.start in legal:
            if A.APPLE.start in legal and me["apples"] > APPLES_TO_WIN:
                return A.APPLE.start
            return A.DEBT.start
        if A.APPLE.start in legal:
            return A.APPLE.start
        raise self._impossible(view, legal, "no task, apple or debt is offered")

    def _character(self, view, legal):
        if A.USE.start in legal:
            return A.USE.start
        if A.DEFER.start in legal:
            return A.DEFER.start
        return self._task_choice(view, legal, may_debt=True)

    def _meet(self, view, legal):
        return self._task_choice(view, legal, may_debt=False)

    def _well(self, view, legal):
        for a in (A.WELL_SILVER.start, A.WELL_COPPER.start):
            if a in legal:
                return a
        me = self._me(view)
        if A.WELL_ITEMS.start in legal:
            spare = sorted(self._item_worth(view, k) for k, n in enumerate(me["backpack"])
                           for _ in range(n))
            if spare[0] + spare[1] <= 3.0 or sum(me["backpack"]) >= BACKPACK_ITEMS:
                return A.WELL_ITEMS.start
        return A.WELL_NONE.start

    def _cheapest_item(self, view, legal):
        options = [a for a in legal if a in A.ITEM]
        if not options:
            raise self._impossible(view, legal, "no backpack item is offered")
        return min(options, key=lambda a: self._item_worth(view, a - A.ITEM.start))

    def _well_give(self, view, legal):
        return self._cheapest_item(view, legal)

    def _merchant(self, view, legal):
        """The apple for a silver coin; else sell the cheap items (worth 2 or less), then
        stop (``done`` is offered once one is sold; the first sale is the one asked for)."""
        if A.MERCHANT_APPLE.start in legal:
            return A.MERCHANT_APPLE.start
        item = self._cheapest_item(view, legal)
        if self._item_worth(view, item - A.ITEM.start) <= 2.0 or A.DONE.start not in legal:
            return item
        return A.DONE.start

    def _prince(self, view, legal):
        return max(legal, key=lambda a: self._item_worth(view, a - A.BAG.start))

    def _goblin_give(self, view, legal):
        return self._cheapest_item(view, legal)

    def _goblin_take(self, view, legal):
        return max(legal, key=lambda a: self._item_worth(view, a - A.BAG.start))

    @staticmethod
    def _shortfall(me: dict, task: Task | None) -> int:
        """What ``me`` lacks for ``task``: missing items, copper, and silver (3 copper
        each); 0 when it can be fulfilled now (a held item it forbids is not counted)."""
        if task is None:
            return 99
        bp = list(me["backpack"])
        missing = 0
        for k in task.give + task.need:
            if bp[k] > 0:
                bp[k] -= 1
            else:
                missing += 1
        return (missing + max(0, task.copper - me["copper"])
                + WELL_COPPER_IN * max(0, task.silver - me["silver"]))

    def _beggar(self, view, legal):
        """The card the Beggar leads to, the first of: a task whose lower task can be
        fulfilled now (an apple); the Forest Spirit when qualified (the ring); the Merchant
        while holding silver (an apple); a helper, the most often useful first (laid out
        without a debt if it cannot help now); a task whose upper task can be fulfilled
        now (no debt); the Forest Spirit (only laid out, no debt); else the task nearest to
        being fulfilled, whose debt is then the cheapest to settle."""
        me = self._me(view)
        bp = me["backpack"]
        for a in legal:
            c = a - A.CHARACTER.start
            ch = CHARACTERS[c]
            if ch.lower is not None and all(bp[k] >= 1 for k in ch.lower.give + ch.lower.need) \
                    and me["copper"] >= ch.lower.copper and me["silver"] >= ch.lower.silver:
                return a
        if self._qualified(me) and A.CHARACTER.start + SPIRIT in legal:
            return A.CHARACTER.start + SPIRIT
        if me["silver"] and A.CHARACTER.start + MERCHANT in legal:
            return A.CHARACTER.start + MERCHANT
        for c in (PRINCE, MERCHANT, UNICORN, GOBLIN):
            if A.CHARACTER.start + c in legal:
                return A.CHARACTER.start + c
        for a in sorted(legal):
            upper = CHARACTERS[a - A.CHARACTER.start].upper
            if upper is not None and all(bp[k] >= 1 for k in upper.give + upper.need) \
                    and me["copper"] >= upper.copper and me["silver"] >= upper.silver:
                return a
        if A.CHARACTER.start + SPIRIT in legal:
            return A.CHARACTER.start + SPIRIT
        # Only characters with tasks are left (every helper is ranked above; the Beggar
        # never leads to himself).
        tasks = [a for a in legal if CHARACTERS[a - A.CHARACTER.start].upper is not None]
        if len(tasks) != len(legal):
            others = sorted(CHARACTER_NAMES[a - A.CHARACTER.start] for a in legal
                            if a not in tasks)
            raise self._impossible(view, legal, f"no rule ranks {others}")
        return min(tasks, key=lambda a: (min(self._shortfall(me, CHARACTERS[a - A.CHARACTER.start].upper),
                                             self._shortfall(me, CHARACTERS[a - A.CHARACTER.start].lower)),
                                         a))

    def _unicorn(self, view, legal):
        goals = self._goals(view)
        dist = self._distances(view, goals, (a - A.TILE.start for a in legal)) if goals else {}
        return max(legal, key=lambda a: (self._tile_value(view, a - A.TILE.start) * 0.2
                                         + (6.0 / (1 + dist[a - A.TILE.start])
                                            if a - A.TILE.start in dist else 0.0)))

    def _saddle(self, view, legal):
        return A.USE.start

    def _spirit_place(self, view, legal):
        """As the qualified player's neighbour: as far from that player as possible."""
        q = view["decision"]["data"]["qualified"]
        target = view["players"][q]["cell"]
        if q == view["seat"]:
            raise self._impossible(view, legal, "the qualified player's left neighbour "
                                   "places the Forest Spirit, never that player")
        dist = self._distances(view, {target} if target in view["cells"] else set(),
                               (a - A.TILE.start for a in legal))
        return max(legal, key=lambda a: dist.get(a - A.TILE.start, 99))


# Each decision kind's handler, by the kind's name (``observation.DECISIONS``).
HANDLERS = {
    "turn": HeuristicAgent._turn,
    "blockade_start": HeuristicAgent._blockade_start,
    "blockade_end": HeuristicAgent._blockade_end,
    "drawn": HeuristicAgent._drawn,
    "token_item": HeuristicAgent._token_item,
    "yellow": HeuristicAgent._yellow,
    "character": HeuristicAgent._character,
    "meet": HeuristicAgent._meet,
    "well": HeuristicAgent._well,
    "well_give": HeuristicAgent._well_give,
    "merchant": HeuristicAgent._merchant,
    "prince": HeuristicAgent._prince,
    "goblin_give": HeuristicAgent._goblin_give,
    "goblin_take": HeuristicAgent._goblin_take,
    "beggar": HeuristicAgent._beggar,
    "unicorn": HeuristicAgent._unicorn,
    "saddle": HeuristicAgent._saddle,
    "spirit_place": HeuristicAgent._spirit_place,
    "coin_token": HeuristicAgent._coin_token,
    "chest": HeuristicAgent._chest,
}
if set(HANDLERS) != {k.name for k in DECISIONS}:
    raise RuntimeError(
        "HeuristicAgent.HANDLERS does not match Roundforest's decisions: missing "
        f"{sorted({k.name for k in DECISIONS} - set(HANDLERS))}, unknown "
        f"{sorted(set(HANDLERS) - {k.name for k in DECISIONS})}")
