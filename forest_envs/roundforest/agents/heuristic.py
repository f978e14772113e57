"""A scripted Roundforest player: ``HeuristicAgent``.

It reads only what its seat may know (``env.unwrapped.reading(agent)``: the facts of the
seat's view it uses, as one typed record; and the action mask) plus the public component
data, and plays for the ring:

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

from ..agents.base import SeededAgent
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
from .observation import Kind
from .reading import SeatReading
from .rules.turn import octagon_targets


class ImpossibleDecision(RuntimeError):
    """A handler was given legal actions its decision can never offer (a rules bug or a
    reading that does not belong to the mask)."""



class HeuristicAgent(SeededAgent):
    name = "heuristic"

    def act(self, env, agent: str) -> int:
        raw = env.unwrapped
        legal = raw.action_mask(agent).nonzero()[0].tolist()
        if len(legal) == 1:
            return legal[0]  # forced: nothing to decide, so nothing is even read
        if not legal:
            raise ValueError(f"{agent} has no legal action: it is not its decision or the "
                             "game is over")
        return self._decide(raw.reading(agent), legal)

    # --- the decision ------------------------------------------------------------------------
    def choose(self, reading: SeatReading, mask: np.ndarray) -> int:
        """The choice among ``mask``'s actions for the seat's ``reading`` (``State.reading``)."""
        legal = np.flatnonzero(mask).tolist()
        if not legal:
            raise ValueError(f"seat {reading.seat} has no legal action: it is not its decision "
                             "or the game is over")
        if len(legal) == 1:
            return legal[0]  # forced: nothing to decide
        return self._decide(reading, legal)

    def _decide(self, reading: SeatReading, legal: list[int]) -> int:
        """The handler's choice among ``legal`` (more than one action) for ``reading``."""
        choice = HANDLERS[reading.kind](self, reading, set(legal))
        if choice not in legal:
            raise RuntimeError(f"HeuristicAgent chose {choice!r} in the {reading.decision!r} decision, "
                               f"not one of the legal actions {legal}")
        return int(choice)

    @staticmethod
    def _impossible(reading: SeatReading, legal: set[int], why: str) -> ImpossibleDecision:
        kind = reading.decision
        names = sorted(A.SPACE.names[a] for a in legal)
        return ImpossibleDecision(f"the {kind!r} decision cannot offer {names}: {why}")

    # --- helpers -------------------------------------------------------------------------------------
    @staticmethod
    def _qualified(reading: SeatReading) -> bool:
        return reading.apples >= APPLES_TO_WIN and not reading.debts

    def _item_worth(self, reading: SeatReading, k: int) -> float:
        """How much an item is worth keeping for this player now."""
        bp = reading.backpack
        worth = 1.0
        if k in (CHEST, KEY):
            worth = 6.0 if bp[KEY if k == CHEST else CHEST] else 3.0
        if k in (CROSS, SWORD, POTION):
            worth = 3.0
        for c in reading.debts:
            ch = CHARACTERS[c]
            for task in (ch.upper, ch.lower):
                if task and (k in task.give or k in task.need):
                    worth += 3.0
        if k in HEAVY and k != CHEST:
            worth += 1.0  # gifts for the friendly characters
        return worth

    def _tile_value(self, reading: SeatReading, cell: int) -> float:
        """What arriving on ``cell`` brings this player now."""
        items = sum(reading.backpack)
        c = reading.character[cell]
        if c >= 0:
            if c == SPIRIT:
                return 1000.0
            ch = CHARACTERS[c]
            if ch.kind == HELPFUL:
                return 8.0 if c == MERCHANT and reading.silver else 3.0
            if c in reading.debts:
                return 12.0
            return 9.0  # entering means a task can be fulfilled (maybe for an apple)
        if reading.well[cell]:
            if reading.silver:
                return 20.0
            if reading.copper >= WELL_COPPER_IN:
                return 10.0
            if items >= 2:
                return 4.0
            return 0.0
        if reading.item[cell] >= 0:
            item = reading.item[cell]
            return 1.0 + self._item_worth(reading, item) if items < BACKPACK_ITEMS else 0.0
        chip = reading.chip[cell]
        if chip == BLUE:
            return 3.0 if items < BACKPACK_ITEMS else 1.5
        if chip == RED:
            return 2.5 if len(reading.debts) < 2 else 0.5
        if chip == YELLOW:
            return 1.0
        return 0.0

    @staticmethod
    def _distances(reading: SeatReading, goals: set[int], wanted: Iterable[int]) -> dict[int, int]:
        """Moves needed from the tiles to one of ``goals`` over the current octagons
        (ignoring turning and pieces): a breadth-first search backwards. Every tile of
        ``wanted`` that can reach a goal has its distance; the search stops once all of
        them have one (breadth-first, a tile's first distance is final), so other tiles
        may be missing."""
        cells, n = reading.tile_cells, reading.num_players
        tile, orientation = reading.tile, reading.orientation
        back: dict[int, list[int]] = {c: [] for c in cells}
        for c in cells:
            # the octagons as they lie now (turning is ignored: a rough distance)
            for t in octagon_targets(n, c, tile[c], orientation[c]):
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

    def _goals(self, reading: SeatReading) -> set[int]:
        cells, character = reading.tile_cells, reading.character
        if self._qualified(reading):
            spirit = {c for c in cells if character[c] == SPIRIT}
            if spirit:
                return spirit
        if reading.silver or reading.copper >= WELL_COPPER_IN:
            return {c for c in cells if reading.well[c]}
        own = {c for c in cells if character[c] in reading.debts}
        return own

    # --- decisions ------------------------------------------------------------------------------------
    def _turn(self, reading: SeatReading, legal: set[int]) -> int:
        compass_cost = 6.0 if reading.compasses > 1 else 9.0
        # (action, cell, cost) of each move, in the order of ``legal``: the order of the draws
        moves = [(a, a - A.MOVE.start, 0.0) if a in A.MOVE else (a, a - A.COMPASS.start, compass_cost)
                 for a in legal if a in A.MOVE or a in A.COMPASS]
        # one draw per move, as one call (the same numbers as one call per move)
        noise = self.rng.random(len(moves)).tolist()
        goals = self._goals(reading)
        dist = self._distances(reading, goals, (cell for _, cell, _ in moves)) if goals else {}
        # pausing is worth a little; from the backpack it is legal only with no move at all
        best, best_score = (A.PAUSE.start, 0.2) if A.PAUSE.start in legal else (None, -np.inf)
        for (a, cell, cost), draw in zip(moves, noise):
            score = self._tile_value(reading, cell) - cost
            if goals:
                d = dist.get(cell)
                score += 6.0 / (1 + d) if d is not None else 0.0
            score += draw * 0.1
            if score > best_score:
                best, best_score = a, score
        if best is None:
            raise self._impossible(reading, legal, "neither a move nor a pause is offered")
        return best

    def _blockade_start(self, reading, legal):
        """Never blockades: its moves are planned on the tiles' current octagons, which a
        blockade would keep only for the tiles next to it (``done`` is always offered)."""
        return A.DONE.start

    _blockade_end = _blockade_start

    def _best_trade(self, reading: SeatReading, legal: set[int], floor: float) -> int | None:
        best, best_worth = None, floor
        for a in legal:
            if a in A.TRADE:
                row, slot = A.TRADE.index(a)
                k = reading.fairy[row][slot]
                cost = FAIRY_COST[row]  # copper
                worth = self._item_worth(reading, k) - cost * 1.0
                if k in COIN_TOKENS:
                    worth = 1.0 - cost if k == COPPER_TOKEN else 3.5 - cost
                if worth > best_worth:
                    best, best_worth = a, worth
        return best

    def _take_or_trade(self, reading, legal, k: int) -> int:
        """An item in hand (drawn, or lying on the tile): exchange a coin token (money beats
        a coin token kept as an item, worth 1), else keep it, trade it or leave it."""
        if A.EXCHANGE.start in legal:
            trade = self._best_trade(reading, legal, 3.5 if k == COPPER_TOKEN else 5.0)
            return trade if trade is not None else A.EXCHANGE.start
        keep = self._item_worth(reading, k) if A.KEEP.start in legal else -1.0
        trade = self._best_trade(reading, legal, max(keep, 0.5) + 0.5)
        if trade is not None:
            return trade
        return A.KEEP.start if A.KEEP.start in legal else A.DROP.start

    def _drawn(self, reading, legal):
        return self._take_or_trade(reading, legal, reading.data.item)

    def _token_item(self, reading, legal):
        return self._take_or_trade(reading, legal, reading.item[reading.data.cell])

    def _coin_token(self, reading, legal):
        """A traded coin token or the Prince's: coins buy trades, wells and tasks."""
        return A.EXCHANGE.start

    def _chest(self, reading, legal):
        """A golden apple now, and two places free in the backpack."""
        return A.OPEN_CHEST.start

    def _yellow(self, reading, legal):
        # far from my piece: the item is more likely to land where I am not in the way
        r0, c0 = cell_rc(reading.piece_cells[reading.seat])
        return max(legal, key=lambda a: -abs(cell_rc(a - A.TILE.start)[0] - r0)
                   - abs(cell_rc(a - A.TILE.start)[1] - c0))

    def _task_choice(self, reading, legal, may_debt: bool) -> int:
        """The lower task (an apple), else the upper; else, for a drawn card, the debt (an
        apple instead while more than enough are held); else an apple for the debt."""
        if A.LOWER.start in legal:
            return A.LOWER.start
        if A.UPPER.start in legal:
            return A.UPPER.start
        if may_debt and A.DEBT.start in legal:
            if A.APPLE.start in legal and reading.apples > APPLES_TO_WIN:
                return A.APPLE.start
            return A.DEBT.start
        if A.APPLE.start in legal:
            return A.APPLE.start
        raise self._impossible(reading, legal, "no task, apple or debt is offered")

    def _character(self, reading, legal):
        if A.USE.start in legal:
            return A.USE.start
        if A.DEFER.start in legal:
            return A.DEFER.start
        return self._task_choice(reading, legal, may_debt=True)

    def _meet(self, reading, legal):
        return self._task_choice(reading, legal, may_debt=False)

    def _well(self, reading, legal):
        for a in (A.WELL_SILVER.start, A.WELL_COPPER.start):
            if a in legal:
                return a
        if A.WELL_ITEMS.start in legal:
            spare = sorted(self._item_worth(reading, k) for k, n in enumerate(reading.backpack)
                           for _ in range(n))
            if spare[0] + spare[1] <= 3.0 or sum(reading.backpack) >= BACKPACK_ITEMS:
                return A.WELL_ITEMS.start
        return A.WELL_NONE.start

    def _cheapest_item(self, reading, legal):
        options = [a for a in legal if a in A.ITEM]
        if not options:
            raise self._impossible(reading, legal, "no backpack item is offered")
        return min(options, key=lambda a: self._item_worth(reading, a - A.ITEM.start))

    def _well_give(self, reading, legal):
        return self._cheapest_item(reading, legal)

    def _merchant(self, reading, legal):
        """The apple for a silver coin; else sell the cheap items (worth 2 or less), then
        stop (``done`` is offered once one is sold; the first sale is the one asked for)."""
        if A.MERCHANT_APPLE.start in legal:
            return A.MERCHANT_APPLE.start
        item = self._cheapest_item(reading, legal)
        if self._item_worth(reading, item - A.ITEM.start) <= 2.0 or A.DONE.start not in legal:
            return item
        return A.DONE.start

    def _prince(self, reading, legal):
        return max(legal, key=lambda a: self._item_worth(reading, a - A.BAG.start))

    def _goblin_give(self, reading, legal):
        return self._cheapest_item(reading, legal)

    def _goblin_take(self, reading, legal):
        return max(legal, key=lambda a: self._item_worth(reading, a - A.BAG.start))

    @staticmethod
    def _shortfall(reading: SeatReading, task: Task | None) -> int:
        """What the seat of ``reading`` lacks for ``task``: missing items, copper, and silver
        (3 copper each); 0 when it can be fulfilled now (a held item it forbids is not
        counted)."""
        if task is None:
            return 99
        bp = list(reading.backpack)
        missing = 0
        for k in task.give + task.need:
            if bp[k] > 0:
                bp[k] -= 1
            else:
                missing += 1
        return (missing + max(0, task.copper - reading.copper)
                + WELL_COPPER_IN * max(0, task.silver - reading.silver))

    def _beggar(self, reading, legal):
        """The card the Beggar leads to, the first of: a task whose lower task can be
        fulfilled now (an apple); the Forest Spirit when qualified (the ring); the Merchant
        while holding silver (an apple); a helper, the most often useful first (laid out
        without a debt if it cannot help now); a task whose upper task can be fulfilled
        now (no debt); the Forest Spirit (only laid out, no debt); else the task nearest to
        being fulfilled, whose debt is then the cheapest to settle."""
        bp = reading.backpack
        for a in legal:
            c = a - A.CHARACTER.start
            ch = CHARACTERS[c]
            if ch.lower is not None and all(bp[k] >= 1 for k in ch.lower.give + ch.lower.need) \
                    and reading.copper >= ch.lower.copper and reading.silver >= ch.lower.silver:
                return a
        if self._qualified(reading) and A.CHARACTER.start + SPIRIT in legal:
            return A.CHARACTER.start + SPIRIT
        if reading.silver and A.CHARACTER.start + MERCHANT in legal:
            return A.CHARACTER.start + MERCHANT
        for c in (PRINCE, MERCHANT, UNICORN, GOBLIN):
            if A.CHARACTER.start + c in legal:
                return A.CHARACTER.start + c
        for a in sorted(legal):
            upper = CHARACTERS[a - A.CHARACTER.start].upper
            if upper is not None and all(bp[k] >= 1 for k in upper.give + upper.need) \
                    and reading.copper >= upper.copper and reading.silver >= upper.silver:
                return a
        if A.CHARACTER.start + SPIRIT in legal:
            return A.CHARACTER.start + SPIRIT
        # Only characters with tasks are left (every helper is ranked above; the Beggar
        # never leads to himself).
        tasks = [a for a in legal if CHARACTERS[a - A.CHARACTER.start].upper is not None]
        if len(tasks) != len(legal):
            others = sorted(CHARACTER_NAMES[a - A.CHARACTER.start] for a in legal
                            if a not in tasks)
            raise self._impossible(reading, legal, f"no rule ranks {others}")
        def nearest(a: int) -> tuple[int, int]:
            ch = CHARACTERS[a - A.CHARACTER.start]
            return min(self._shortfall(reading, ch.upper), self._shortfall(reading, ch.lower)), a

        return min(tasks, key=nearest)

    def _unicorn(self, reading, legal):
        goals = self._goals(reading)
        dist = self._distances(reading, goals, (a - A.TILE.start for a in legal)) if goals else {}
        return max(legal, key=lambda a: (self._tile_value(reading, a - A.TILE.start) * 0.2
                                         + (6.0 / (1 + dist[a - A.TILE.start])
                                            if a - A.TILE.start in dist else 0.0)))

    def _saddle(self, reading, legal):
        return A.USE.start

    def _spirit_place(self, reading, legal):
        """As the qualified player's neighbour: as far from that player as possible."""
        q = reading.data.qualified
        target = reading.piece_cells[q]
        if q == reading.seat:
            raise self._impossible(reading, legal, "the qualified player's left neighbour "
                                   "places the Forest Spirit, never that player")
        # a piece still in its backpack stands on a corner cell, not a tile: no target
        dist = self._distances(reading, {target} if target in reading.tile_cells else set(),
                               (a - A.TILE.start for a in legal))
        return max(legal, key=lambda a: dist.get(a - A.TILE.start, 99))


# Each decision kind's handler, by the game's Kind (``observation.Kind``).
HANDLERS = {
    Kind.TURN: HeuristicAgent._turn,
    Kind.BLOCKADE_START: HeuristicAgent._blockade_start,
    Kind.BLOCKADE_END: HeuristicAgent._blockade_end,
    Kind.DRAWN: HeuristicAgent._drawn,
    Kind.TOKEN_ITEM: HeuristicAgent._token_item,
    Kind.YELLOW: HeuristicAgent._yellow,
    Kind.CHARACTER: HeuristicAgent._character,
    Kind.MEET: HeuristicAgent._meet,
    Kind.WELL: HeuristicAgent._well,
    Kind.WELL_GIVE: HeuristicAgent._well_give,
    Kind.MERCHANT: HeuristicAgent._merchant,
    Kind.PRINCE: HeuristicAgent._prince,
    Kind.GOBLIN_GIVE: HeuristicAgent._goblin_give,
    Kind.GOBLIN_TAKE: HeuristicAgent._goblin_take,
    Kind.BEGGAR: HeuristicAgent._beggar,
    Kind.UNICORN: HeuristicAgent._unicorn,
    Kind.SADDLE: HeuristicAgent._saddle,
    Kind.SPIRIT_PLACE: HeuristicAgent._spirit_place,
    Kind.COIN_TOKEN: HeuristicAgent._coin_token,
    Kind.CHEST: HeuristicAgent._chest,
}
if set(HANDLERS) != set(Kind):
    raise RuntimeError(
        "HeuristicAgent.HANDLERS does not match Roundforest's decisions: missing "
        f"{sorted(k.name for k in set(Kind) - set(HANDLERS))}, unknown "
        f"{sorted(map(repr, set(HANDLERS) - set(Kind)))}")
