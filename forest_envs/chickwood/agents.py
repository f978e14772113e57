"""A scripted Chickwood Forest player (``HeuristicAgent``).

It sees exactly what its seat may know: ``env.unwrapped.view(agent)`` (plain data) and the
legal mask ``env.unwrapped.action_mask(agent)``; the only other things it reads are the public
game data (components, the game's configuration). Its memory holds only what it decided or
saw itself: the alms route it is laying, the golden-arrow treasure and entertainers alms it
chose, the public table at its previous decision and its belief about each opponent.
It is deterministic (the seed is accepted for the agent protocol).

How it plays
------------
* Loot is worth the change of a *shaped* final score of its collection: the real scoring
  (chest majority squared minus the others, busts re-resolved, single garments, jewelry,
  Maid Marihen per treasure type, -3 per henchman) with the chest majority inflated by the
  chests it may still collect in the remaining rounds, plus values for the Legendary cards.
  Benefactors are worth the best alms route they allow this round (below).
* An unknown face-down card is worth the mean value of the cards it has not seen (the
  configured deck minus every card it knows of: hand, face-up cards, collections, its own
  and spied face-down cards, discards); one left by an opponent who already raided another
  castle is worth less (a player dumps henchmen where it does not raid).
* A castle is worth its glory (if its pile still has a card) minus a small price per value
  for raiding later next round (nothing in the last round).
* Raid: the open castle with the best castle + loot value (own, face-up and spied cards
  known, so known henchmen are avoided), plus a little for denying the next raiders.
* Scout: every legal (card, castle) play is scored by the expected value of the castle it
  will get to raid: the raiders before it take, with some probability, the castle they value
  most on what they can see (face-up cards; face-down ones at the unseen mean), otherwise any
  open castle. From that follows the chance each castle is still open at its turn, and the
  chance it raids each castle; the card's value to the opponents counts against it in
  proportion to the chance one of them gets it (neither its raid nor the castle left over,
  which value-driven opponents leave the least attractive). A card kept in hand is credited
  with what it will be worth on a later turn (more if a later play is face down), unless the
  likely target may fill up first (castles 1 and 2). So good cards go where it means to raid,
  preferably face down, out of sight of earlier raiders; henchmen go where others will raid
  (face down at attractive castles). How greedy each opponent is, is learnt during the game:
  every raid it sees is scored against the table before it (a softmax of the raider's
  visible values vs uniform) and updates its belief that the opponent raids by value rather
  than at random.
* Alms: each village's value for one alms is its change of standing (tie-breaks included: a
  new alms is the latest) weighing the glory unlocked now and as if every row were unlocked,
  minus part of what the opponents lose or gain. The snake route maximising the sum is found
  by depth-first search over every legal route (forced continuation and dead ends included)
  and followed to its end.
* Spy glass: the castle with the most unknown face-down cards among its likely targets. Key:
  used when forcing the raider off the castle it chose wins it that castle (or costs the
  raider much) by more than the key is worth kept for later. Entertainers, golden arrow and
  fake beard: the final scores are public at the end, so every option is scored exactly by
  its margin over the best opponent (the fake beard still to come included); it passes when
  nothing improves the margin.

Speed
-----
A decision costs about 0.2 ms (2.3x less than this agent's first version, 3x fewer
instructions), without changing any: every result is computed by the same expressions in
the same order (float sums are never regrouped), and tests/chickwood/test_agents.py pins
the decisions of seeded games. How:
* Pure functions are memoised (``_Memos``, ``functools`` caches), shared by the agents with
  the same parameters and across games: shaped values, marginals and gains of collections,
  village values, best alms routes of a grid, parsed card tables.
* A decision parses the view on first use (``_Ctx``) and computes what it shares once: the
  value of an unseen card to each seat, what each opponent sees in each castle.
* Marginals derive the parts of a collection plus one card from the collection's own
  (``_shape_parts_plus``); the route search goes only as deep as the alms asked about.
* Scouting scores what the opponents make of a castle once per (castle, card seen), and
  plays best bound first, skipping those whose bound cannot beat the best score so far.
"""

from __future__ import annotations

import functools
from operator import add, mul

import numpy as np

from . import actions as A
from .components import (
    BENEFACTOR0,
    BUST,
    ENTERTAINERS,
    FAKE_BEARD,
    GARMENT0,
    GOLDEN_ARROW,
    GRID_COLS,
    HENCHMAN,
    JEWEL0,
    JEWELRY_VALUE,
    KEY,
    KIND_NAMES,
    MAID,
    MAX_CASTLE,
    MAX_CELLS,
    MAX_SPACES,
    NUM_KINDS,
    NUM_TREASURE_KINDS,
    SPY_GLASS,
    VILLAGES,
)

KIND = {name: k for k, name in enumerate(KIND_NAMES)}
VILLAGE_INDEX = {v.name: i for i, v in enumerate(VILLAGES)}
ALMS_OF = (0,) * BENEFACTOR0 + (1, 2, 3) + (0,) * (NUM_KINDS - BENEFACTOR0 - 3)
IS_BENEFACTOR = tuple(a > 0 for a in ALMS_OF)
LOOT_KINDS = tuple(k for k in range(NUM_KINDS) if not IS_BENEFACTOR[k])  # kept as loot
LOOT_MASK = tuple(0 if b else 1 for b in IS_BENEFACTOR)
UNIT = tuple(tuple(int(j == k) for j in range(NUM_KINDS)) for k in range(NUM_KINDS))
CELL_INDEX = {A.cell_name(cell): cell for cell in range(MAX_CELLS)}
MEMO_LIMIT = 10_000  # entries a memo may hold before it is emptied (bounds its memory)

ADJ = []
for _cell in range(MAX_CELLS):
    _r, _c = divmod(_cell, GRID_COLS)
    ADJ.append(tuple(rr * GRID_COLS + cc
                     for rr, cc in ((_r - 1, _c), (_r + 1, _c), (_r, _c - 1), (_r, _c + 1))
                     if 0 <= rr < 3 and 0 <= cc < GRID_COLS))

DEFAULTS = {
    "chest_future": 0.35,    # expected extra chests of the majority type per remaining round
    "chest_future_cap": 2.0,
    "order_price": 0.35,     # glory per castle value for raiding later next round
    "opp_weight": 0.5,       # weight of opponents' gains (3 players; scaled by 2/(n-1))
    "greedy_prob": 0.8,      # chance a value-driven opponent raids its best castle (else any)
    "greedy_prior": 0.6,     # prior belief that an opponent is value-driven (not random)
    "greedy_temp": 2.0,      # softmax temperature of a value-driven opponent's raid choice
    "unlock_weight": 0.2,    # weight of "every row unlocked" standing in alms values
    "alms_future": 0.3,      # value of an alms beyond its current standing change
    "opp_alms_value": 1.5,   # what an alms is worth to an opponent
    "deny_weight": 0.15,     # raid: weight of what the castle would give the next raiders
    "spy_value": 0.6,        # per remaining round
    "key_value": 2.0,
    "ent_value": 7.0,        # measured: the end-of-game swaps gain ~10 glory of margin
    "arrow_value": 7.0,
    "beard_value": 3.0,      # without a henchman to give away (with one: +3 more)
    "key_threshold": 3.0,
    "keep_weight": 1.0,      # scouting: credit for the cards kept for later turns
    "exposed_keep": 0.85,    # ... played face up (seen by earlier raiders)
    "keep_gift": 0.6,        # ... a bad card kept to give away later
    "dump_penalty": 1.5,     # face-down card of an opponent who raided elsewhere: worse than average
}


def _split(cards) -> tuple[tuple | None, int]:
    """Cards (counts by kind) as (the loot they add, benefactors zeroed, or None if none;
    the alms their benefactors give)."""
    loot = tuple(map(mul, LOOT_MASK, cards))
    return (loot if any(loot) else None), sum(map(mul, ALMS_OF, cards))


@functools.lru_cache(maxsize=1 << 14)
def _cards(named: tuple) -> tuple[tuple, tuple | None, int]:
    """(counts by kind, loot, alms: their ``_split``) of (kind name, count) pairs. Tables
    repeat from decision to decision: memoised."""
    counts = [0] * NUM_KINDS
    for name, c in named:
        counts[KIND[name]] += c
    counts = tuple(counts)
    return (counts, *_split(counts))


def _card_set(named: tuple) -> tuple[tuple, tuple | None, int]:
    """Cards given as (kind name, count) pairs: (those pairs, a memo key; loot, alms: their
    ``_split``)."""
    return (named, *_cards(named)[1:])


def _sub_memo(store: dict, key) -> dict:
    """``store[key]``, a memo per key (emptied when it grew too large; few keys are live
    at a time, so the store is emptied when it has many)."""
    memo = store.get(key)
    if memo is None or len(memo) > MEMO_LIMIT:
        if len(store) > 16:
            store.clear()
        memo = store[key] = {}
    return memo


def _remember(memo: dict, key, value):
    """Stores ``value`` in ``memo`` (emptied first if it grew too large); returns it."""
    if len(memo) > MEMO_LIMIT:
        memo.clear()
    memo[key] = value
    return value


class _Memos:
    """Results of pure functions of their keys and of the agent's parameters: shared by the
    agents with the same parameters, across games (a memo never changes a decision)."""

    __slots__ = ("cells", "gains", "margs", "routes", "shaped", "village")

    def __init__(self):
        self.shaped: dict = {}   # (rounds after, legendary) -> {collection: shaped value}
        self.margs: dict = {}    # (rounds after, legendary) -> {collection: loot marginals}
        self.gains: dict = {}    # (rounds after, legendary, collection) -> {cards: gain}
        self.cells: dict = {}    # grid key -> value of one alms per village
        self.village: dict = {}  # (village, owners, seat, players, later) -> value of one alms
        self.routes: dict = {}   # (grid key, start, visited, length) -> best routes


_MEMOS: dict[tuple, _Memos] = {}  # parameters -> their memos


@functools.cache
def _unlocked(village: int, filled: int, full: bool) -> tuple[int, ...]:
    values, start = [], 0
    for spaces, glory in VILLAGES[village].rows:
        if (full or filled > start) and glory is not None:
            values.append(glory)
        start += spaces
    return tuple(sorted(values, reverse=True))


def village_awards(village: int, owners, n: int, full: bool = False) -> list[int]:
    """Glory per seat for one village whose spaces hold ``owners`` (placement order = space
    order, so a later space is a later alms). ``full``: as if every row were unlocked."""
    count = [0] * n
    last = [-1] * n
    for i, o in enumerate(owners):
        count[o] += 1
        last[o] = i
    values = _unlocked(village, len(owners), full)
    ranking = sorted((p for p in range(n) if count[p]), key=lambda p: (count[p], last[p]),
                     reverse=True)
    awards = [0] * n
    for place, p in enumerate(ranking[:len(values)]):
        awards[p] = values[place]
    return awards


@functools.lru_cache(maxsize=1 << 14)
def _awards(village: int, owners: tuple, n: int, full: bool) -> tuple[int, ...]:
    """``village_awards``, memoised (villages recur across grids, seats and decisions)."""
    return tuple(village_awards(village, owners, n, full))


def loot_score(coll) -> int:
    """The rulebook's loot glory of a collection (counts by kind)."""
    ch = [coll[0], coll[1], coll[2], coll[3]]
    for _ in range(coll[BUST]):
        top = max(ch)
        if top == 0:
            break
        ch[ch.index(top)] -= 1
    top = max(ch)
    s = top * top - (ch[0] + ch[1] + ch[2] + ch[3] - top)
    s += 5 * coll[GARMENT0:GARMENT0 + 4].count(1)
    s += sum(map(mul, coll[JEWEL0:JEWEL0 + 3], JEWELRY_VALUE))
    if coll[MAID]:  # the types held: chests (busts resolved) and other treasure
        s += (4 - ch.count(0)) + (NUM_TREASURE_KINDS - GARMENT0
                                  - coll[GARMENT0:NUM_TREASURE_KINDS].count(0))
    return s - 3 * coll[HENCHMAN]


@functools.lru_cache(maxsize=1 << 16)
def _chest_part(ch0: int, ch1: int, ch2: int, ch3: int, busts: int, f: float):
    """Of the shaped value: the chest majority term (the majority inflated by ``f`` chests
    still to come) and the number of chest types held, busts resolved."""
    ch = [ch0, ch1, ch2, ch3]
    for _ in range(busts):
        top = max(ch)
        if top == 0:
            break
        ch[ch.index(top)] -= 1
    total = ch[0] + ch[1] + ch[2] + ch[3]
    if f > 0 and total:
        chest = max((t + f) * (t + f) - f * f - (total - t) for t in ch)
    else:
        top = max(ch)
        chest = top * top - (total - top)
    return chest, 4 - ch.count(0)


def _shape_parts(coll, f: float) -> list:
    """What a collection's shaped value is summed from (``HeuristicAgent._shaped_value``):
    its chest term and the chest types held (``_chest_part``), the garments held once, the
    jewelry's glory, the other treasure types held, then the counts of maids, henchmen and
    each Legendary card."""
    chest, chest_types = _chest_part(coll[0], coll[1], coll[2], coll[3], coll[BUST], f)
    return [chest, chest_types, coll[GARMENT0:GARMENT0 + 4].count(1),
            sum(map(mul, coll[JEWEL0:JEWEL0 + 3], JEWELRY_VALUE)),
            NUM_TREASURE_KINDS - GARMENT0 - coll[GARMENT0:NUM_TREASURE_KINDS].count(0),
            coll[MAID], coll[HENCHMAN], coll[SPY_GLASS], coll[KEY], coll[ENTERTAINERS],
            coll[GOLDEN_ARROW], coll[FAKE_BEARD]]


_COUNT_PART = {MAID: 5, HENCHMAN: 6, SPY_GLASS: 7, KEY: 8, ENTERTAINERS: 9, GOLDEN_ARROW: 10,
               FAKE_BEARD: 11}  # kind -> its count's place in _shape_parts


def _shape_parts_plus(parts: list, coll, k: int, f: float) -> list:
    """``_shape_parts`` of ``coll`` plus one card of loot kind ``k``, from ``parts`` (those
    of ``coll``): only the parts the card touches are recomputed."""
    out = list(parts)
    if k < GARMENT0 or k == BUST:
        counts = [coll[0], coll[1], coll[2], coll[3], coll[BUST]]
        counts[4 if k == BUST else k] += 1
        out[0], out[1] = _chest_part(*counts, f)
    elif k < JEWEL0:
        held = coll[k]
        out[2] += 1 if held == 0 else -1 if held == 1 else 0
        out[4] += int(held == 0)
    elif k < NUM_TREASURE_KINDS:
        out[3] += JEWELRY_VALUE[k - JEWEL0]
        out[4] += int(coll[k] == 0)
    else:
        out[_COUNT_PART[k]] += 1
    return out


@functools.lru_cache(maxsize=1 << 14)
def _loot_score(coll: tuple) -> int:
    """``loot_score``, memoised (the golden arrow scores many swaps of few collections)."""
    return loot_score(coll)


class _Castle:
    """One castle as the seat sees it. ``known``: the ``_card_set`` of the cards it knows
    (face up, its own and spied face-down ones), ``up``: of the face-up cards;
    ``term``: ``_Ctx.castle_term``."""

    __slots__ = ("cap", "cards", "dumped", "fd_total", "known", "pile", "raided", "term",
                 "unknown", "up", "value")


class _Table:
    """Scouting, before my play: the castles by value, their value to each opponent
    (``opp_vals``) and its mean over the opponents, the opponents' mean greedy chance, the
    opponents and those who raid before me (``earlier``)."""

    __slots__ = ("castles", "earlier", "greedy", "mean", "opp_vals", "opponents")


class _lazy:
    """An attribute computed on first use (functools.cached_property, without the lock it
    takes in Python 3.11)."""

    def __init__(self, func):
        self.func = func
        self.name = func.__name__
        self.__doc__ = func.__doc__

    def __get__(self, obj, cls=None):
        if obj is None:
            return self
        value = obj.__dict__[self.name] = self.func(obj)
        return value


class _Ctx:
    """One decision: the seat's view, parsed on first use (a decision needs only part of
    it), and what the decision computes more than once."""

    def __init__(self, v: dict, game, p: dict, memos: _Memos):
        self.v = v
        self.me = v["seat"]
        self.n = n = v["num_players"]
        self.legendary = bool(game.legendary)
        self.hand_size = game.hand_size
        self.composition = game.composition
        self.rounds_after = v["deck_left"] // (n * game.hand_size)
        self.fchest = min(p["chest_future_cap"], p["chest_future"] * self.rounds_after)
        self.order_price = p["order_price"]
        self.shaped = _sub_memo(memos.shaped, (self.rounds_after, self.legendary))
        self.loot_margs = _sub_memo(memos.margs, (self.rounds_after, self.legendary))
        self.players = v["players"]
        self.alms_left = [pl["alms_left"] for pl in self.players]
        self.order = v["order"]
        self.cache: dict = {}
        self.gains: list = [None] * n  # the _gains memo of each seat's collection
        self.evs: list = [None] * n    # value of an unseen card to each seat
        self.seen_values: dict = {}    # (seat, castle, card seen) -> known part of its value
        self.exps: dict = {}           # np.exp memo
        self.avails: dict = {}         # raiders' picks -> chances castles are open

    def castle_term(self, value: int, pile: int) -> float:
        """A castle's glory (if its pile still has a card) minus a small price per value for
        raiding later next round (nothing in the last round)."""
        pts = value if pile > 0 else 0
        if self.rounds_after:
            pts -= self.order_price * value
        return pts

    @_lazy
    def colls(self) -> list[tuple]:
        return [_cards(tuple(pl["collection"].items()))[0] for pl in self.players]

    @_lazy
    def castles(self) -> list[_Castle]:
        castles = [_parse_castle(c, self.me, self.players) for c in self.v["castles"]]
        for c in castles:
            c.term = self.castle_term(c.value, c.pile)
        return castles

    @_lazy
    def pool(self) -> list[int]:
        """The cards not seen: the deck minus every card the seat knows of. (A used key goes
        to the box, which the view does not show; it then stays in the pool of unseen
        cards, a negligible error.)"""
        v = self.v
        seen = [v.get("hand", {}), v["discard_public"], v.get("discard_known", {})]
        seen += [pl["collection"] for pl in self.players]
        for c in v["castles"]:
            seen += [c["face_up"], c.get("my_face_down", {}), c.get("spied_face_down", {})]
        pool = self.composition.tolist()
        for part in seen:
            for name, x in part.items():
                pool[KIND[name]] -= x
        return [x if x > 0 else 0 for x in pool]

    @_lazy
    def pool_total(self) -> int:
        return sum(self.pool)

    @_lazy
    def villages(self) -> dict[int, tuple[int, list[int], int]]:
        """cell -> (village, owners of its alms in placement order, spaces)."""
        villages = {}
        for vil in self.v["villages"]:
            if vil["card"] == "forest":
                continue
            owners = [o for o in vil["alms"] if o is not None]
            villages[CELL_INDEX[vil["cell"]]] = (VILLAGE_INDEX[vil["card"]], owners,
                                                 len(vil["alms"]))
        return villages

    @_lazy
    def grid_key(self) -> tuple:
        """Everything the village values depend on (the key of the grid memos)."""
        return (self.me, self.n, bool(self.rounds_after),
                tuple((vil["cell"], vil["card"], tuple(vil["alms"])) for vil in self.v["villages"]))


def _parse_castle(c: dict, me: int, players: list) -> _Castle:
    out = _Castle()
    up_items = tuple(c["face_up"].items())
    out.up = _card_set(up_items)
    mine, spied = c.get("my_face_down"), c.get("spied_face_down")
    if mine or spied:
        out.known = _card_set(up_items + tuple((mine or {}).items())
                              + tuple((spied or {}).items()))
    else:
        out.known = out.up
    n_spied = sum(spied.values()) if spied else 0
    fd_by = c["face_down_by"]
    fd_total = sum(fd_by.values())
    unknown = fd_total - fd_by.get(me, 0) - n_spied
    # face-down cards left by opponents who already raided another castle: they did
    # not want them (a scripted opponent dumps henchmen there)
    out.dumped = 0 if n_spied else sum(
        x for o, x in fd_by.items() if o != me and players[o]["raided"])
    out.value, out.pile, out.cap, out.raided = (c["value"], c["pile_left"], c["capacity"],
                                                c["raided_by"])
    out.unknown = max(0, unknown)
    out.fd_total = fd_total
    out.cards = sum(x for _, x in up_items) + fd_total
    return out


class HeuristicAgent:
    """Scripted Chickwood Forest player; see the module docstring for how it decides."""

    name = "heuristic"

    def __init__(self, seed: int | None = None, **params):
        unknown = set(params) - set(DEFAULTS)
        if unknown:
            raise TypeError(f"unknown HeuristicAgent parameters: {sorted(unknown)}")
        self.p = dict(DEFAULTS, **params)
        self.rng = np.random.default_rng(seed)
        self._memos = _MEMOS.setdefault(tuple(sorted(self.p.items())), _Memos())
        self.reset()

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.rng = np.random.default_rng(seed)
        self._route: list[int] = []      # planned remaining alms cells of the current snake
        self._visited: set[int] = set()  # cells this snake already gave to
        self._arrow_plan = None          # (give kind, opponent offset, take kind)
        self._ent_plan = None            # second alms index of the entertainers swap
        self._snap = None                # public table at its previous decision (opponent model)
        prior = self.p["greedy_prior"]
        self._belief = {}                # seat -> log-odds that it raids by value, not at random
        self._prior_logodds = float(np.log(prior / (1 - prior)))

    # --- entry point ------------------------------------------------------------------------
    def act(self, env, agent: str) -> int:
        raw = env.unwrapped
        legal = raw.action_mask(agent).nonzero()[0].tolist()  # (a flat mask)
        if not legal:
            raise ValueError(f"{agent} has no legal action: it is not its turn")
        if len(legal) == 1:
            a = legal[0]
            if A.ALMS <= a < A.ENT_PICK:
                self._note_alms(raw.view(agent), a - A.ALMS)
            return a
        v = raw.view(agent)
        ctx = self._context(v, raw.game)
        self._observe(ctx)
        phase = v["phase"]
        if phase == "scout":
            a = self._scout(ctx, legal)
        elif phase == "raid":
            a = self._raid(ctx, legal)
        elif phase == "alms":
            a = self._alms(ctx, legal)
        elif phase == "spy":
            a = self._spy(ctx, legal)
        elif phase == "key":
            a = self._key(ctx, legal)
        elif phase in ("entertainers_first", "entertainers_second"):
            a = self._entertainers(ctx, legal, phase == "entertainers_first")
        elif phase in ("arrow_give", "arrow_take"):
            a = self._arrow(ctx, legal, phase == "arrow_give")
        elif phase == "fake_beard":
            a = self._beard(ctx, legal)
        else:
            a = legal[0]
        return a if a in legal else legal[0]

    # --- parsing ------------------------------------------------------------------------------
    def _context(self, v: dict, game) -> _Ctx:
        return _Ctx(v, game, self.p, self._memos)

    # --- opponent model -----------------------------------------------------------------------
    def _greedy(self, ctx: _Ctx, seat: int) -> float:
        """Chance that ``seat`` raids the castle it values most (else a uniform one)."""
        key = ("greedy", seat)
        if key not in ctx.cache:
            b = self._belief.get(seat, self._prior_logodds)
            # (a Python float: the same number, but numpy scalars are slow to compute with)
            ctx.cache[key] = self.p["greedy_prob"] / (1.0 + float(np.exp(-b)))
        return ctx.cache[key]

    def _observe(self, ctx: _Ctx) -> None:
        """Update each opponent's belief (value-driven raider or random) from the raids made
        since its previous decision, judged on the table it saw then (public data only)."""
        v, me = ctx.v, ctx.me
        snap = self._snap
        rnd = v["round"]
        if snap is not None and (rnd < snap["round"] or snap["n"] != ctx.n
                                 or (rnd == snap["round"] and v["deck_left"] != snap["deck"])):
            snap = None  # another game
            self._belief = {}
        if snap is not None and rnd - snap["round"] in (0, 1):
            new_round = rnd != snap["round"]
            taken = {}  # castle value -> seat, raids since the snapshot
            for o in snap["order"]:
                if not snap["players"][o]["raided"] and (new_round or ctx.players[o]["raided"]):
                    taken[o] = ctx.players[o]["castle"]
            temp = self.p["greedy_temp"]
            for o in snap["order"]:
                if o == me or o not in taken:
                    continue
                pos = snap["order"].index(o)
                gone = {taken[e] for e in snap["order"][:pos] if e in taken}
                avail = [val for val in snap["castles"] if val not in gone]
                if taken[o] not in avail or len(avail) < 2:
                    continue
                vals = self._snap_values(ctx, snap, o, avail)
                top = max(vals.values())
                w = {val: np.exp((x - top) / temp) for val, x in vals.items()}
                lg = 0.15 / len(avail) + 0.85 * w[taken[o]] / sum(w.values())
                lr = 1.0 / len(avail)
                b = self._belief.get(o, self._prior_logodds) + float(np.log(lg / lr))
                self._belief[o] = min(6.0, max(-6.0, b))
        # (the view's data, parsed only if a later decision sees raids)
        self._snap = {
            "round": rnd, "deck": v["deck_left"], "n": ctx.n, "order": list(ctx.order),
            "players": ctx.players,
            "castles": {c["value"]: c for c in v["castles"] if c["raided_by"] is None}}

    def _snap_values(self, ctx: _Ctx, snap: dict, o: int, avail: list[int]) -> dict[int, float]:
        """What ``o`` could see each available castle was worth at the snapshot."""
        player = snap["players"][o]
        coll, alms_left = _cards(tuple(player["collection"].items()))[0], player["alms_left"]
        gains = self._gains(ctx, coll)
        m = self._marginals_raw(ctx, coll)
        total = ctx.pool_total
        ev = sum(map(mul, ctx.pool, m)) / total if total else 0.0
        out = {}
        for value in avail:
            c = snap["castles"][value]
            key, loot, alms = _card_set(tuple(c["face_up"].items()))
            alms = min(alms_left, alms)
            val = self._gain(ctx, coll, gains, key, loot) + self.p["opp_alms_value"] * alms
            val += sum(c["face_down_by"].values()) * ev
            out[value] = ctx.castle_term(value, c["pile_left"]) + val
        return out

    # --- valuation ----------------------------------------------------------------------------
    def _shaped(self, ctx: _Ctx, coll: tuple) -> float:
        """Shaped final value of a collection (benefactors excluded: they become alms)."""
        val = ctx.shaped.get(coll)
        if val is None:
            val = ctx.shaped[coll] = self._shaped_raw(ctx, coll)
        return val

    def _shaped_raw(self, ctx: _Ctx, coll) -> float:
        return self._shaped_value(ctx, _shape_parts(coll, ctx.fchest))

    def _shaped_value(self, ctx: _Ctx, parts: list) -> float:
        """The shaped value of a collection from its ``_shape_parts``. (The terms are added
        one by one in this order: regrouping a float sum can change its last bit, and with
        it a close decision.)"""
        chest, chest_types, singles, jewels, treasure_types, maid, hench, *legend = parts
        p = self.p
        s = chest
        s += 5 * singles
        s += jewels
        if maid:
            s += chest_types + treasure_types
            s += min(2.0, 0.5 * ctx.rounds_after)
        s -= 3 * hench
        if ctx.legendary:
            spy, key, entertainers, arrow, beard = legend
            if spy:
                s += p["spy_value"] * ctx.rounds_after
            if key:
                s += p["key_value"] if ctx.rounds_after else 0.5 * p["key_value"]
            if entertainers:
                s += p["ent_value"]
            if arrow:
                s += p["arrow_value"]
            if beard:
                s += p["beard_value"] + (3 if hench else 0)
        return s

    def _loot_marginals(self, ctx: _Ctx, coll: tuple) -> tuple[float, ...]:
        """Shaped value of one more card of each loot kind (0.0 for benefactors)."""
        out = ctx.loot_margs.get(coll)
        if out is None:
            base = self._shaped(ctx, coll)
            parts = _shape_parts(coll, ctx.fchest)
            margs = [0.0] * NUM_KINDS
            for k in LOOT_KINDS:
                plus = _shape_parts_plus(parts, coll, k, ctx.fchest)
                margs[k] = self._shaped_value(ctx, plus) - base
            out = ctx.loot_margs[coll] = tuple(margs)
        return out

    def _marginals(self, ctx: _Ctx, seat: int) -> list[float]:
        """Value to ``seat`` of one more card of each kind (benefactors: alms value)."""
        key = ("marg", seat)
        if key in ctx.cache:
            return ctx.cache[key]
        out = list(self._loot_marginals(ctx, ctx.colls[seat]))
        for k in range(BENEFACTOR0, BENEFACTOR0 + 3):
            a = min(ALMS_OF[k], ctx.alms_left[seat])
            out[k] = self._route_value(ctx, a) if seat == ctx.me else self.p["opp_alms_value"] * a
        ctx.cache[key] = out
        return out

    def _marginals_raw(self, ctx: _Ctx, coll: tuple) -> list[float]:
        """Loot value of one more card of each kind (benefactors: opponents' alms value)."""
        out = list(self._loot_marginals(ctx, coll))
        for k in range(BENEFACTOR0, BENEFACTOR0 + 3):
            out[k] = self.p["opp_alms_value"] * ALMS_OF[k]
        return out

    def _unknown_ev(self, ctx: _Ctx, seat: int) -> float:
        """Value to ``seat`` of an unseen card: the mean of its marginals over the pool."""
        ev = ctx.evs[seat]
        if ev is None:
            m = self._marginals(ctx, seat)
            total = ctx.pool_total
            ev = ctx.evs[seat] = (sum(map(mul, ctx.pool, m)) / total) if total else 0.0
        return ev

    def _bundle(self, ctx: _Ctx, seat: int, cards: tuple, unknown: int,
                extra: int | None = None) -> float:
        """Value to ``seat`` of taking ``cards`` (a ``_card_set``) and one more card of kind
        ``extra`` if given, plus ``unknown`` unseen cards."""
        val = self._known_value(ctx, seat, cards, extra)
        if unknown:
            ev = ctx.evs[seat]
            val += unknown * (self._unknown_ev(ctx, seat) if ev is None else ev)
        return val

    def _known_value(self, ctx: _Ctx, seat: int, cards: tuple, extra: int | None = None) -> float:
        """``_bundle`` without unseen cards."""
        key, loot, alms = cards
        if extra is not None and IS_BENEFACTOR[extra]:
            alms += ALMS_OF[extra]
            extra = None
        val = 0.0
        if loot is not None or extra is not None:
            gains = ctx.gains[seat]
            if gains is None:
                gains = ctx.gains[seat] = self._gains(ctx, ctx.colls[seat])
            val = self._gain(ctx, ctx.colls[seat], gains, key, loot, extra)
        if alms:
            alms = min(alms, ctx.alms_left[seat])
            if seat == ctx.me:
                val += self._route_value(ctx, alms)
            else:
                val += self.p["opp_alms_value"] * alms
        return val

    def _gains(self, ctx: _Ctx, coll: tuple) -> dict:
        """The memo of ``_gain`` for a collection. (Memoised by the cards' names, the gains
        need no 22-count collections built and hashed, and they last while the collection
        does, across decisions.)"""
        key = (ctx.rounds_after, ctx.legendary, coll)
        gains = self._memos.gains.get(key)
        if gains is None:
            gains = _remember(self._memos.gains, key, {})
        return gains

    def _gain(self, ctx: _Ctx, coll: tuple, gains: dict, key: tuple, loot: tuple | None,
              extra: int | None = None) -> float:
        """Shaped value gained by adding ``loot`` (named by ``key``) and one card of loot kind
        ``extra`` if given to ``coll``; ``gains``: its ``_gains``."""
        if extra is not None:
            key = (key, extra)
        gain = gains.get(key)
        if gain is None:
            if extra is not None:
                loot = UNIT[extra] if loot is None else tuple(map(add, loot, UNIT[extra]))
            new = coll if loot is None else tuple(map(add, coll, loot))
            gain = gains[key] = self._shaped(ctx, new) - self._shaped(ctx, coll)
        return gain

    # --- villages -----------------------------------------------------------------------------
    def _cell_values(self, ctx: _Ctx) -> dict[int, float]:
        """Value to me of giving one alms to each village with a free space."""
        out = self._memos.cells.get(ctx.grid_key)
        if out is None:
            later = bool(ctx.rounds_after)
            out = {cell: self._alms_value(g, tuple(owners), ctx.me, ctx.n, later)
                   for cell, (g, owners, spaces) in ctx.villages.items()
                   if len(owners) < spaces}
            _remember(self._memos.cells, ctx.grid_key, out)
        return out

    def _alms_value(self, g: int, owners: tuple, me: int, n: int, later: bool) -> float:
        """Value to ``me`` of one more alms in village ``g`` whose spaces hold ``owners``
        (``later``: rounds remain). Memoised: a village's state recurs across grids."""
        key = (g, owners, me, n, later)
        val = self._memos.village.get(key)
        if val is not None:
            return val
        p = self.p
        lam = p["unlock_weight"] if later else 0.0
        w = p["opp_weight"] * 2.0 / max(1, n - 1)
        after = owners + (me,)
        d = [0.0] * n
        for full, weight in ((False, 1.0 - lam), (True, lam)):
            if weight == 0:
                continue
            b = _awards(g, owners, n, full)
            a = _awards(g, after, n, full)
            for q in range(n):
                d[q] += weight * (a[q] - b[q])
        val = d[me] - w * sum(d[q] for q in range(n) if q != me)
        if later:
            val += p["alms_future"]
        return _remember(self._memos.village, key, val)

    def _route_search(self, ctx: _Ctx, start_from: int | None, visited: frozenset, max_len: int):
        """Best routes: returns (best value per number of alms 0..max_len, best path per
        number). ``start_from``: the snake's last cell (None: start anywhere). The result
        is shared (memoised): callers copy what they change."""
        key = (ctx.grid_key, start_from, visited, max_len)
        found = self._memos.routes.get(key)
        if found is None:
            found = _remember(self._memos.routes, key,
                              self._search(self._cell_values(ctx), start_from, visited, max_len))
        return found

    @staticmethod
    def _search(values: dict[int, float], start_from: int | None, visited: frozenset,
                max_len: int):
        """Depth-first search over every snake route (see ``_route_search``)."""
        if max_len <= 0:
            return [0.0], [[]]
        exact = [-1e9] * (max_len + 1)
        stuck = [-1e9] * (max_len + 1)
        exact_path: list = [None] * (max_len + 1)
        stuck_path: list = [None] * (max_len + 1)
        exact[0] = 0.0
        exact_path[0] = []
        # the neighbours that can take an alms, in ADJ's order (which breaks ties), with
        # their bit (the cells seen are a bit mask) and value
        nbrs = [tuple((nb, 1 << nb, values[nb]) for nb in ADJ[cell] if nb in values)
                for cell in range(MAX_CELLS)]
        path: list[int] = []

        def dfs(cell, total, seen):
            L = len(path)
            if total > exact[L]:
                exact[L] = total
                exact_path[L] = path[:]
            if L == max_len:
                return
            extended = False
            for nb, bit, value in nbrs[cell]:
                if not seen & bit:
                    extended = True
                    path.append(nb)
                    dfs(nb, total + value, seen | bit)
                    path.pop()
            if not extended and total > stuck[L]:
                stuck[L] = total
                stuck_path[L] = path[:]

        seen = sum(1 << c for c in visited)
        if start_from is None:
            starts = [c for c in values if c not in visited]
            if not starts:
                stuck[0] = 0.0
                stuck_path[0] = []
            for c in starts:
                path.append(c)
                dfs(c, values[c], seen | 1 << c)
                path.pop()
        else:
            dfs(start_from, 0.0, seen | 1 << start_from)
            # dfs from an already-placed cell records paths excluding it (length = new alms)
        best = [0.0] * (max_len + 1)
        best_path: list = [[] for _ in range(max_len + 1)]
        run_v, run_p = -1e9, None
        for L in range(max_len + 1):
            if L > 0 and stuck[L - 1] > run_v:
                run_v, run_p = stuck[L - 1], stuck_path[L - 1]
            cand_v, cand_p = exact[L], exact_path[L]
            if run_v > cand_v:
                cand_v, cand_p = run_v, run_p
            if cand_p is None:  # no route at all (nothing placeable)
                cand_v, cand_p = 0.0, []
            best[L] = cand_v
            best_path[L] = cand_p
        return best, best_path

    def _route_value(self, ctx: _Ctx, alms: int) -> float:
        """Value of giving ``alms`` alms this round along the best route (beyond the alms
        left or the cells, the longest route). The search goes only as deep as asked: its
        best routes of each length do not depend on how much longer it would go (it visits
        the same routes in the same order), and most questions are about the 1 to 3 alms
        of a benefactor."""
        most = min(ctx.alms_left[ctx.me], MAX_CELLS)
        length = min(alms, most)
        best = ctx.cache.get("routes")
        if best is None or len(best) <= length:
            best, _ = self._route_search(ctx, None, frozenset(), max(length, min(3, most)))
            ctx.cache["routes"] = best
        return best[length]

    # --- raid -----------------------------------------------------------------------------
    def _my_castle_values(self, ctx: _Ctx) -> dict[int, float]:
        """Value to me of raiding each open castle (shared: callers copy what they change)."""
        if "mine" not in ctx.cache:
            out = {}
            for c in ctx.castles:
                if c.raided is not None:
                    continue
                out[c.value] = (c.term + self._bundle(ctx, ctx.me, c.known, c.unknown)
                                - self.p["dump_penalty"] * c.dumped)
            ctx.cache["mine"] = out
        return ctx.cache["mine"]

    def _opp_castle_value(self, ctx: _Ctx, o: int, c: _Castle, extra_up=None,
                          extra_fd: int = 0) -> float:
        """What ``o`` can see raiding ``c`` is worth (plus a card ``extra_up`` played face
        up, or ``extra_fd`` face down)."""
        key = (o, c.value, extra_up)  # (a face-down card changes only the unknown)
        known = ctx.seen_values.get(key)
        if known is None:
            known = ctx.seen_values[key] = self._known_value(ctx, o, c.up, extra_up)
        unknown = c.fd_total + extra_fd
        if unknown:
            ev = ctx.evs[o]
            known += unknown * (self._unknown_ev(ctx, o) if ev is None else ev)
        return c.term + known

    def _raid(self, ctx: _Ctx, legal: list[int]) -> int:
        mine = self._my_castle_values(ctx)
        me, n = ctx.me, ctx.n
        later = [o for o in ctx.order if o != me and not ctx.players[o]["raided"]]
        w = self.p["deny_weight"] * 2.0 / max(1, n - 1)
        best, best_a = -1e9, legal[0]
        for a in legal:
            value = a - A.RAID + 1
            c = next(x for x in ctx.castles if x.value == value)
            score = mine.get(value, -1e9)
            if later and w:
                score += w * max(self._opp_castle_value(ctx, o, c) for o in later)
            if score > best:
                best, best_a = score, a
        return best_a

    # --- scouting -------------------------------------------------------------------------
    def _scout(self, ctx: _Ctx, legal: list[int]) -> int:
        me, n, p = ctx.me, ctx.n, self.p
        played = ctx.hand_size - ctx.players[me]["hand_count"]
        banner = ctx.players[me]["banner"]
        face_down = played < len(banner) and banner[played] == "D"
        table = self._scout_table(ctx)
        castles, opponents = table.castles, table.opponents
        my_vals = self._my_castle_values(ctx)
        w = p["opp_weight"] * 2.0 / max(1, n - 1)
        opp_marg = [self._marginals(ctx, o) for o in opponents]
        hand = _cards(tuple(ctx.v["hand"].items()))[0]
        # the mean value to the opponents of a card of each kind in hand
        gifts = {k: sum(m[k] for m in opp_marg) / len(opp_marg)
                 for k in range(NUM_KINDS) if hand[k]}
        # what a card kept in hand is worth when played on a later turn: on its likely target
        # (hidden if a later play is face down) or, if bad for it, before the opponents
        _, p_now = self._expected_raid(ctx, my_vals, table.opp_vals, table.earlier)
        target = max(p_now, key=p_now.get)
        p_best = p_now[target]
        room = castles[target].cap
        if room is not None and room - castles[target].cards <= n:
            p_best = 0.0  # the target may be full before its next turn: play good cards now
        later_down = "D" in banner[played + 1:ctx.hand_size]
        marg_me = self._marginals(ctx, me)
        keep = {}
        for k in gifts:
            keep[k] = max(p_best * marg_me[k] * (1.0 if later_down else p["exposed_keep"]),
                          -w * p["keep_gift"] * gifts[k], 0.0)
        kept_total = sum(keep[k] * hand[k] for k in keep)
        # Each play: my castle values after it, and a bound on its score. The score is
        # expect - w * p_opp * gift + kept, where my expected raid ``expect`` is at most my
        # best castle value and the chance an opponent gets the card, p_opp, is at most 1
        # (at most 1 - my chance to raid its castle, once that is known). Plays are scored
        # best bound first and skipped when a bound falls below the best score so far: the
        # choice is that of scoring every play (the first best in legal order), for less
        # work. (The bounds need chances in [0, 1], so greedy_prob <= 1.)
        prune = 0.0 <= p["greedy_prob"] <= 1.0
        plays = []
        for a in legal:
            k, slot = divmod(a - A.PLAY, MAX_CASTLE)
            c = castles[slot + 1]
            mv = dict(my_vals)
            mv[c.value] = c.term + self._bundle(ctx, me, c.known, c.unknown, extra=k)
            kept = p["keep_weight"] * (kept_total - keep[k])
            bound = max(0.0, max(mv.values())) + max(0.0, -w * gifts[k]) + kept
            plays.append((bound, a, k, c, mv, kept))
        if prune:
            plays.sort(key=lambda play: -play[0])
        best, best_a = -1e9, legal[0]
        for bound, a, k, c, mv, kept in plays:
            if prune and bound < best - 1e-6:
                break
            # what the opponents make of the table after the play depends only on the
            # castle and the card they see (none if face down)
            seen = None if face_down else k
            avail = self._open_chances(ctx, table, tuple(mv), c, seen)
            expect, p_mine = self._my_raid(mv, avail)
            mine = p_mine[c.value]
            if prune and expect + max(0.0, -w * (1.0 - mine) * gifts[k]) + kept < best - 1e-6:
                continue
            # the chance an opponent ends up with the card: not mine, and not the castle left
            # over (by value-driven opponents the one they like least, else any)
            p_opp = (1.0 - mine) * (1.0 - self._left_over(ctx, table, c, seen))
            score = expect - w * p_opp * gifts[k] + kept
            if score > best or (score == best and a < best_a):
                best, best_a = score, a
        return best_a

    def _scout_table(self, ctx: _Ctx) -> _Table:
        """The castles as the opponents see them before my play."""
        t = _Table()
        t.opponents = opponents = [o for o in range(ctx.n) if o != ctx.me]
        t.castles = castles = {c.value: c for c in ctx.castles}
        t.earlier = ctx.order[:ctx.order.index(ctx.me)]
        t.opp_vals = {o: {v: self._opp_castle_value(ctx, o, c) for v, c in castles.items()}
                      for o in opponents}
        t.mean = {v: sum(t.opp_vals[o][v] for o in opponents) / len(opponents) for v in castles}
        t.greedy = sum(self._greedy(ctx, o) for o in opponents) / len(opponents)
        return t

    def _opp_after(self, ctx: _Ctx, o: int, c: _Castle, seen: int | None) -> float:
        """What ``o`` can see castle ``c`` is worth after my card is played to it (``seen``:
        its kind if face up, None if face down)."""
        if seen is None:
            return self._opp_castle_value(ctx, o, c, extra_fd=1)
        return self._opp_castle_value(ctx, o, c, extra_up=seen)

    def _open_chances(self, ctx: _Ctx, table: _Table, keys: tuple, c: _Castle,
                      seen: int | None) -> dict:
        """The chance each castle (``keys``) is still open at my raid after a card is played
        to ``c`` (``seen`` as in ``_opp_after``)."""
        key = ("open", c.value, seen)
        if key not in ctx.cache:
            value = c.value
            ov = {o: {**table.opp_vals[o], value: self._opp_after(ctx, o, c, seen)}
                  for o in table.earlier}
            ctx.cache[key] = self._availability(ctx, keys, ov, table.earlier)
        return ctx.cache[key]

    def _left_over(self, ctx: _Ctx, table: _Table, c: _Castle, seen: int | None) -> float:
        """The chance ``c`` is the castle the opponents leave over after a card is played to
        it (``seen`` as in ``_opp_after``)."""
        key = ("left", c.value, seen)
        if key in ctx.cache:
            return ctx.cache[key]
        opponents, value = table.opponents, c.value
        mean = dict(table.mean)  # only c's mean changes
        mean[value] = sum(self._opp_after(ctx, o, c, seen) for o in opponents) / len(opponents)
        low = min(mean.values())
        temp = self.p["greedy_temp"]
        weights = {v: self._exp(ctx, (low - x) / temp) for v, x in mean.items()}
        total = sum(weights.values())
        greedy = table.greedy
        left = ctx.cache[key] = (greedy * weights[value] / total
                                 + (1 - greedy) / len(table.castles))
        return left

    @staticmethod
    def _exp(ctx: _Ctx, x: float) -> float:
        """np.exp, memoised for the decision (the plays share most softmax terms)."""
        e = ctx.exps.get(x)
        if e is None:
            e = ctx.exps[x] = float(np.exp(x))
        return e

    def _expected_raid(self, ctx: _Ctx, my_vals: dict, opp_vals: dict, earlier: list[int]):
        """Expected value of my raid given the earlier raiders' likely picks, and the chance
        I raid each castle."""
        return self._my_raid(my_vals, self._availability(ctx, tuple(my_vals), opp_vals, earlier))

    def _availability(self, ctx: _Ctx, keys: tuple, opp_vals: dict, earlier: list[int]) -> dict:
        """The chance each castle is still open at my raid: the raiders before me take, with
        their greedy chance, the castle they value most, otherwise any open castle. The
        chances after each raider depend only on the castles the raiders before valued most:
        memoised by those picks (the plays scouting compares mostly agree on them)."""
        picks = keys
        avail, cands = self._open_after(ctx, picks, None, None)
        for o in earlier:
            best_v = max(cands, key=opp_vals[o].get)
            picks += ((o, best_v),)
            avail, cands = self._open_after(ctx, picks, avail, o)
        return avail

    def _open_after(self, ctx: _Ctx, picks: tuple, before: dict | None, o: int | None):
        """(chance each castle is open, the likely open ones) after the raid of ``o``, who
        values most the castle of ``picks[-1]``; ``before``: the chances before its raid
        (``o`` None: no raid yet, ``picks`` is the castles). Shared: callers do not change
        them."""
        found = ctx.avails.get(picks)
        if found is None:
            if o is None:
                avail = {v: 1.0 for v in picks}
            else:
                best_v = picks[-1][1]
                q = self._greedy(ctx, o)
                mass = max(1.0, sum(before.values()))  # castles expected still open at its turn
                avail = {}
                for v, a in before.items():
                    take = (1 - q) / mass + (q if v == best_v else 0.0)
                    avail[v] = a * max(0.0, 1.0 - take)
            cands = [v for v in avail if avail[v] > 0.05] or list(avail)
            found = ctx.avails[picks] = (avail, cands)
        return found

    @staticmethod
    def _my_raid(my_vals: dict, avail: dict):
        """I raid the best castle still open: (expected value, chance of each castle)."""
        order = sorted(my_vals, key=my_vals.get, reverse=True)
        rest = 1.0
        expect = 0.0
        p_mine = {}
        for v in order:
            pr = rest * avail[v]
            p_mine[v] = pr
            expect += pr * my_vals[v]
            rest *= 1 - avail[v]
        return expect, p_mine

    # --- alms -------------------------------------------------------------------------------
    def _note_alms(self, v: dict, cell: int) -> None:
        if v["snake_last"] is None:
            self._visited = set()
            self._route = []
        self._visited.add(cell)
        if self._route and self._route[0] == cell:
            self._route.pop(0)
        else:
            self._route = []

    def _alms(self, ctx: _Ctx, legal: list[int]) -> int:
        v = ctx.v
        targets = [a - A.ALMS for a in legal]
        if v["snake_last"] is None:
            self._visited = set()
            self._route = []
        if not (self._route and self._route[0] in targets):
            left = min(v["snake_left"], MAX_CELLS)
            start = None if v["snake_last"] is None else CELL_INDEX[v["snake_last"]]
            # cells the mask forbids although they have room were visited this snake
            values = self._cell_values(ctx)
            visited = set(self._visited)
            if start is not None:
                visited |= {c for c in values if c in ADJ[start] and c not in targets}
            _, paths = self._route_search(ctx, start, frozenset(visited), left)
            path = list(paths[left])  # a copy: the memoised route is shared
            self._route = path if path and path[0] in targets else []
        if self._route and self._route[0] in targets:
            cell = self._route.pop(0)
        else:
            values = self._cell_values(ctx)
            cell = max(targets, key=lambda c: values.get(c, -1e9))
            self._route = []
        self._visited.add(cell)
        return A.ALMS + cell

    # --- Legendary: spy glass and key ------------------------------------------------------------
    def _spy(self, ctx: _Ctx, legal: list[int]) -> int:
        mine = self._my_castle_values(ctx)
        ranked = sorted(mine, key=lambda v: mine[v], reverse=True)
        top = set(ranked[:2])
        best, best_a = -1e9, legal[0]
        for a in legal:
            value = a - A.SPY + 1
            c = next(x for x in ctx.castles if x.value == value)
            score = c.unknown * (2.0 if value in top else 1.0) + 0.01 * mine.get(value, 0)
            if score > best:
                best, best_a = score, a
        return best_a

    def _key(self, ctx: _Ctx, legal: list[int]) -> int:
        """Force the raider off the castle it chose when that gains me (the castle I want)
        plus part of what it costs the raider beats keeping the key for later."""
        me, v = ctx.me, ctx.v
        raider = next((o for o in ctx.order if not ctx.players[o]["raided"]), None)
        open_castles = [c for c in ctx.castles if c.raided is None]
        chosen = v.get("key_pending")
        if raider is None or raider == me or len(open_castles) < 2:
            return A.KEY_PASS
        theirs = {c.value: self._opp_castle_value(ctx, raider, c) for c in open_castles}
        if chosen not in theirs:  # an older engine without key_pending: guess its best castle
            chosen = max(theirs, key=theirs.get)
        loss = theirs[chosen] - max(x for val, x in theirs.items() if val != chosen)
        gain = 0.0
        if not ctx.players[me]["raided"]:
            mine = self._my_castle_values(ctx)
            rest = [x for val, x in mine.items() if val != chosen]
            between = ctx.order.index(me) - ctx.order.index(raider) - 1
            gain = max(0.0, mine[chosen] - max(rest)) * (0.7 ** between) if rest else 0.0
        w = self.p["opp_weight"] * 2.0 / max(1, ctx.n - 1)
        use_value = gain + w * max(0.0, loss)
        keep = self.p["key_threshold"] if ctx.rounds_after else 0.5
        return A.KEY_USE if use_value > keep else A.KEY_PASS

    # --- Legendary: end of game ---------------------------------------------------------------
    def _base_scores(self, ctx: _Ctx):
        """Exact final glory by parts: loot + castles per seat, village awards per cell."""
        n = ctx.n
        loot = [loot_score(ctx.colls[q]) + sum(ctx.players[q]["castles_held"]) for q in range(n)]
        cells = {cell: village_awards(g, owners, n) if owners else [0] * n
                 for cell, (g, owners, _) in ctx.villages.items()}
        return loot, cells

    def _final_scores(self, ctx: _Ctx) -> list[float]:
        loot, cells = self._base_scores(ctx)
        totals = list(loot)
        for aw in cells.values():
            for q in range(ctx.n):
                totals[q] += aw[q]
        return totals

    @staticmethod
    def _margin(totals: list[float], me: int) -> float:
        others = max(t for q, t in enumerate(totals) if q != me)
        return (totals[me] - others) + 1e-3 * totals[me]

    @staticmethod
    def _beard_effect(colls, n: int) -> list[float]:
        """The fake beard still to come (resolved last): +3 to its holder if it holds a
        henchman, -3 spread over the others."""
        bonus = [0.0] * n
        for q in range(n):
            if colls[q][FAKE_BEARD] and colls[q][HENCHMAN]:
                bonus[q] += 3
                for o in range(n):
                    if o != q:
                        bonus[o] -= 3.0 / (n - 1)
        return bonus

    def _entertainers(self, ctx: _Ctx, legal: list[int], first: bool) -> int:
        if not first:
            plan, self._ent_plan = self._ent_plan, None
            if plan is not None and A.ENT_PICK + plan in legal:
                return A.ENT_PICK + plan
            return legal[0]
        me, n = ctx.me, ctx.n
        loot, cells = self._base_scores(ctx)
        bonus = self._beard_effect(ctx.colls, n)
        base = [loot[q] + bonus[q] + sum(aw[q] for aw in cells.values()) for q in range(n)]
        best = self._margin(base, me)
        # A moved alms keeps the time it was given; the view has no times across villages, so
        # my moved alms is taken as the earliest in its new village and an opponent's as the
        # latest (pessimistic on tie-breaks).
        villages = ctx.villages
        spaces = [(cell, s, o) for cell, (g, owners, _) in villages.items()
                  for s, o in enumerate(owners)]
        moved = {}

        def after(cell, s_from, owner_in):
            key = (cell, s_from, owner_in)
            if key not in moved:
                g, owners, _ = villages[cell]
                rest = owners[:s_from] + owners[s_from + 1:]
                lst = [owner_in] + rest if owner_in == me else rest + [owner_in]
                moved[key] = village_awards(g, lst, n)
            return moved[key]

        plan = None
        legal_set = set(legal)
        for ca, sa, oa in spaces:
            if A.ENT_PICK + ca * MAX_SPACES + sa not in legal_set:
                continue
            # each total is base - a's awards - b's awards + a's new + b's new, in this order
            minus_a = [t - x for t, x in zip(base, cells[ca])]
            for cb, sb, ob in spaces:
                if ob == oa or cb == ca:
                    continue
                totals = [t - x + y + z for t, x, y, z in
                          zip(minus_a, cells[cb], after(ca, sa, ob), after(cb, sb, oa))]
                m = self._margin(totals, me)
                if m > best + 1e-9:
                    best = m
                    plan = (ca * MAX_SPACES + sa, cb * MAX_SPACES + sb)
        if plan is None:
            return A.ENT_PASS
        self._ent_plan = plan[1]
        return A.ENT_PICK + plan[0]

    def _arrow(self, ctx: _Ctx, legal: list[int], give_phase: bool) -> int:
        me, n = ctx.me, ctx.n
        if not give_phase:
            plan, self._arrow_plan = self._arrow_plan, None
            if plan is not None:
                a = A.ARROW_TAKE + (plan[1] - 1) * NUM_TREASURE_KINDS + plan[2]
                if a in legal:
                    return a
        loot, cells = self._base_scores(ctx)
        vil = [sum(aw[q] for aw in cells.values()) for q in range(n)]
        castles = [sum(ctx.players[q]["castles_held"]) for q in range(n)]
        base = [loot[q] + vil[q] for q in range(n)]
        best_m = self._margin([b + x for b, x in zip(base, self._beard_effect(ctx.colls, n))], me)
        if not give_phase:
            best_m = -1e18  # the treasure is already given: take the best one
        plan = None
        mine = ctx.colls[me]
        gives = [k for k in range(NUM_TREASURE_KINDS) if mine[k]] if give_phase else [None]
        legal_set = set(legal)
        # the arrow moves treasure only: the fake beard's effect is the same for every swap
        bonus = self._beard_effect(ctx.colls, n)
        for give in gives:
            for r in range(1, n):
                o = (me + r) % n
                theirs = ctx.colls[o]
                for take in range(NUM_TREASURE_KINDS):
                    if theirs[take] == 0:
                        continue
                    if not give_phase and A.ARROW_TAKE + (r - 1) * NUM_TREASURE_KINDS + take not in legal_set:
                        continue
                    c_me, c_o = list(mine), list(theirs)
                    if give is not None:
                        c_me[give] -= 1
                        c_o[give] += 1
                    c_o[take] -= 1
                    c_me[take] += 1
                    totals = list(base)
                    totals[me] = _loot_score(tuple(c_me)) + castles[me] + vil[me]
                    totals[o] = _loot_score(tuple(c_o)) + castles[o] + vil[o]
                    m = self._margin([t + x for t, x in zip(totals, bonus)], me)
                    if m > best_m + 1e-9:
                        best_m, plan = m, (give, r, take)
        if give_phase:
            if plan is None:
                return A.ARROW_PASS
            self._arrow_plan = plan
            return A.ARROW_GIVE + plan[0]
        if plan is None:
            return legal[0]
        return A.ARROW_TAKE + (plan[1] - 1) * NUM_TREASURE_KINDS + plan[2]

    def _beard(self, ctx: _Ctx, legal: list[int]) -> int:
        me, n = ctx.me, ctx.n
        totals = self._final_scores(ctx)
        best, best_a = self._margin(totals, me), A.BEARD_PASS
        for r in range(1, n):
            a = A.BEARD_GIVE + r - 1
            if a not in legal:
                continue
            o = (me + r) % n
            t = list(totals)
            t[me] += 3
            t[o] -= 3
            m = self._margin(t, me)
            if m > best:
                best, best_a = m, a
        return best_a
