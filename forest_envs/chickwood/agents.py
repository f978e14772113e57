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
"""

from __future__ import annotations

import functools

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


def _cell_index(name: str) -> int:
    return (int(name[1]) - 1) * GRID_COLS + int(name[3]) - 1


def _vec(named: dict) -> list[int]:
    out = [0] * NUM_KINDS
    for name, c in named.items():
        out[KIND[name]] += c
    return out


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
    s += 5 * sum(1 for g in coll[GARMENT0:GARMENT0 + 4] if g == 1)
    s += sum(n * v for n, v in zip(coll[JEWEL0:JEWEL0 + 3], JEWELRY_VALUE))
    if coll[MAID]:
        s += sum(1 for t in ch if t) + sum(1 for t in coll[GARMENT0:NUM_TREASURE_KINDS] if t)
    return s - 3 * coll[HENCHMAN]


class _Ctx:
    """Everything one decision needs, parsed from the seat's view."""

    __slots__ = (
        "alms_left",
        "cache",
        "castles",
        "colls",
        "fchest",
        "hand_size",
        "legendary",
        "me",
        "n",
        "order",
        "players",
        "pool",
        "pool_total",
        "rounds_after",
        "v",
        "villages",
    )


class HeuristicAgent:
    """Scripted Chickwood Forest player; see the module docstring for how it decides."""

    name = "heuristic"

    def __init__(self, seed: int | None = None, **params):
        unknown = set(params) - set(DEFAULTS)
        if unknown:
            raise TypeError(f"unknown HeuristicAgent parameters: {sorted(unknown)}")
        self.p = dict(DEFAULTS, **params)
        self.rng = np.random.default_rng(seed)
        self._shaped_cache: dict = {}
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
        legal = np.flatnonzero(raw.action_mask(agent)).tolist()
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
        ctx = _Ctx()
        ctx.v = v
        ctx.me = me = v["seat"]
        ctx.n = n = v["num_players"]
        ctx.legendary = bool(game.legendary)
        ctx.hand_size = hs = game.hand_size
        ctx.rounds_after = v["deck_left"] // (n * hs)
        ctx.fchest = min(self.p["chest_future_cap"], self.p["chest_future"] * ctx.rounds_after)
        ctx.players = v["players"]
        ctx.colls = [_vec(pl["collection"]) for pl in v["players"]]
        ctx.alms_left = [pl["alms_left"] for pl in v["players"]]
        ctx.order = v["order"]
        seen = [0] * NUM_KINDS
        for part in (v.get("hand", {}), v["discard_public"], v.get("discard_known", {})):
            for name, c in part.items():
                seen[KIND[name]] += c
        for coll in ctx.colls:
            for k in range(NUM_KINDS):
                seen[k] += coll[k]
        castles = []
        for c in v["castles"]:
            up = _vec(c["face_up"])
            mine = _vec(c.get("my_face_down", {}))
            spied = _vec(c.get("spied_face_down", {}))
            for k in range(NUM_KINDS):
                seen[k] += up[k] + mine[k] + spied[k]
            fd_total = sum(c["face_down_by"].values())
            unknown = fd_total - c["face_down_by"].get(me, 0) - sum(spied)
            # face-down cards left by opponents who already raided another castle: they did
            # not want them (a scripted opponent dumps henchmen there)
            dumped = 0 if sum(spied) else sum(
                x for o, x in c["face_down_by"].items() if o != me and v["players"][o]["raided"])
            known = [up[k] + mine[k] + spied[k] for k in range(NUM_KINDS)]
            castles.append({"value": c["value"], "pile": c["pile_left"], "cap": c["capacity"],
                                "raided": c["raided_by"], "up": up, "known": known,
                                "unknown": max(0, unknown), "dumped": dumped,
                                "fd_total": fd_total, "cards": sum(up) + fd_total})
        ctx.castles = castles
        comp = [int(x) for x in game.composition]
        pool = [max(0, comp[k] - seen[k]) for k in range(NUM_KINDS)]
        # (a used key goes to the box, which the view does not show; it then stays in the
        # pool of unseen cards, a negligible error)
        ctx.pool = pool
        ctx.pool_total = sum(pool)
        villages = {}
        for vil in v["villages"]:
            if vil["card"] == "forest":
                continue
            g = VILLAGE_INDEX[vil["card"]]
            owners = [o for o in vil["alms"] if o is not None]
            villages[_cell_index(vil["cell"])] = (g, owners, len(vil["alms"]))
        ctx.villages = villages
        ctx.cache = {}
        return ctx

    # --- opponent model -----------------------------------------------------------------------
    def _greedy(self, seat: int) -> float:
        """Chance that ``seat`` raids the castle it values most (else a uniform one)."""
        b = self._belief.get(seat, self._prior_logodds)
        return self.p["greedy_prob"] / (1.0 + np.exp(-b))

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
                if not snap["raided"][o] and (new_round or ctx.players[o]["raided"]):
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
                vals = {val: self._snap_value(ctx, snap, o, snap["castles"][val]) for val in avail}
                top = max(vals.values())
                w = {val: np.exp((x - top) / temp) for val, x in vals.items()}
                lg = 0.15 / len(avail) + 0.85 * w[taken[o]] / sum(w.values())
                lr = 1.0 / len(avail)
                b = self._belief.get(o, self._prior_logodds) + float(np.log(lg / lr))
                self._belief[o] = min(6.0, max(-6.0, b))
        self._snap = {
            "round": rnd, "deck": v["deck_left"], "n": ctx.n, "order": list(ctx.order),
            "raided": [pl["raided"] for pl in ctx.players],
            "colls": [list(c) for c in ctx.colls], "alms": list(ctx.alms_left),
            "castles": {c["value"]: {"value": c["value"], "pile": c["pile"], "up": c["up"],
                                      "fd_total": c["fd_total"]}
                     for c in ctx.castles if c["raided"] is None}}

    def _snap_value(self, ctx: _Ctx, snap: dict, o: int, c: dict) -> float:
        """What ``o`` could see a castle was worth at the snapshot."""
        saved = ctx.colls[o], ctx.alms_left[o]
        ctx.colls[o], ctx.alms_left[o] = snap["colls"][o], snap["alms"][o]
        try:
            coll = ctx.colls[o]
            up = c["up"]
            new = [coll[k] + (0 if IS_BENEFACTOR[k] else up[k]) for k in range(NUM_KINDS)]
            alms = min(snap["alms"][o], sum(ALMS_OF[k] * up[k] for k in range(NUM_KINDS)))
            val = self._shaped(ctx, new) - self._shaped(ctx, coll) + self.p["opp_alms_value"] * alms
            m = self._marginals_raw(ctx, coll)
            total = ctx.pool_total
            ev = sum(x * y for x, y in zip(ctx.pool, m)) / total if total else 0.0
            val += c["fd_total"] * ev
        finally:
            ctx.colls[o], ctx.alms_left[o] = saved
        return self._castle_term(ctx, c) + val

    # --- valuation ----------------------------------------------------------------------------
    def _shaped(self, ctx: _Ctx, coll) -> float:
        """Shaped final value of a collection (benefactors excluded: they become alms)."""
        key = (tuple(coll), ctx.rounds_after, ctx.legendary)
        val = self._shaped_cache.get(key)
        if val is None:
            if len(self._shaped_cache) > 200_000:
                self._shaped_cache.clear()
            val = self._shaped_cache[key] = self._shaped_raw(ctx, coll)
        return val

    def _shaped_raw(self, ctx: _Ctx, coll) -> float:
        p = self.p
        f = ctx.fchest
        ch = [coll[0], coll[1], coll[2], coll[3]]
        for _ in range(coll[BUST]):
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
        s = chest
        s += 5 * sum(1 for g in coll[GARMENT0:GARMENT0 + 4] if g == 1)
        s += sum(n * v for n, v in zip(coll[JEWEL0:JEWEL0 + 3], JEWELRY_VALUE))
        if coll[MAID]:
            s += sum(1 for t in ch if t) + sum(1 for t in coll[GARMENT0:NUM_TREASURE_KINDS] if t)
            s += min(2.0, 0.5 * ctx.rounds_after)
        s -= 3 * coll[HENCHMAN]
        if ctx.legendary:
            if coll[SPY_GLASS]:
                s += p["spy_value"] * ctx.rounds_after
            if coll[KEY]:
                s += p["key_value"] if ctx.rounds_after else 0.5 * p["key_value"]
            if coll[ENTERTAINERS]:
                s += p["ent_value"]
            if coll[GOLDEN_ARROW]:
                s += p["arrow_value"]
            if coll[FAKE_BEARD]:
                s += p["beard_value"] + (3 if coll[HENCHMAN] else 0)
        return s

    def _marginals(self, ctx: _Ctx, seat: int) -> list[float]:
        """Value to ``seat`` of one more card of each kind (benefactors: alms value)."""
        key = ("marg", seat)
        if key in ctx.cache:
            return ctx.cache[key]
        coll = ctx.colls[seat]
        base = self._shaped(ctx, coll)
        out = [0.0] * NUM_KINDS
        routes = self._routes(ctx) if seat == ctx.me else None
        for k in range(NUM_KINDS):
            if IS_BENEFACTOR[k]:
                a = min(ALMS_OF[k], ctx.alms_left[seat])
                out[k] = routes[a] if seat == ctx.me else self.p["opp_alms_value"] * a
                continue
            coll[k] += 1
            out[k] = self._shaped(ctx, coll) - base
            coll[k] -= 1
        ctx.cache[key] = out
        return out

    def _marginals_raw(self, ctx: _Ctx, coll) -> list[float]:
        """Loot value of one more card of each kind (benefactors: opponents' alms value)."""
        base = self._shaped(ctx, coll)
        out = [0.0] * NUM_KINDS
        for k in range(NUM_KINDS):
            if IS_BENEFACTOR[k]:
                out[k] = self.p["opp_alms_value"] * ALMS_OF[k]
                continue
            coll[k] += 1
            out[k] = self._shaped(ctx, coll) - base
            coll[k] -= 1
        return out

    def _unknown_ev(self, ctx: _Ctx, seat: int) -> float:
        key = ("ev", seat)
        if key not in ctx.cache:
            m = self._marginals(ctx, seat)
            total = ctx.pool_total
            ctx.cache[key] = (sum(c * x for c, x in zip(ctx.pool, m)) / total) if total else 0.0
        return ctx.cache[key]

    def _bundle(self, ctx: _Ctx, seat: int, cards, unknown: int) -> float:
        """Value to ``seat`` of taking ``cards`` (counts) plus ``unknown`` unseen cards."""
        coll = ctx.colls[seat]
        alms = 0
        changed = False
        for k in range(NUM_KINDS):
            c = cards[k]
            if c:
                if IS_BENEFACTOR[k]:
                    alms += ALMS_OF[k] * c
                else:
                    changed = True
        val = 0.0
        if changed:
            base = self._shaped(ctx, coll)
            new = [coll[k] + (0 if IS_BENEFACTOR[k] else cards[k]) for k in range(NUM_KINDS)]
            val = self._shaped(ctx, new) - base
        if alms:
            alms = min(alms, ctx.alms_left[seat])
            if seat == ctx.me:
                val += self._routes(ctx)[alms]
            else:
                val += self.p["opp_alms_value"] * alms
        if unknown:
            val += unknown * self._unknown_ev(ctx, seat)
        return val

    def _castle_term(self, ctx: _Ctx, c: dict) -> float:
        pts = c["value"] if c["pile"] > 0 else 0
        if ctx.rounds_after:
            pts -= self.p["order_price"] * c["value"]
        return pts

    # --- villages -----------------------------------------------------------------------------
    def _cell_values(self, ctx: _Ctx) -> dict[int, float]:
        """Value to me of giving one alms to each village with a free space."""
        if "cells" in ctx.cache:
            return ctx.cache["cells"]
        me, n, p = ctx.me, ctx.n, self.p
        lam = p["unlock_weight"] if ctx.rounds_after else 0.0
        w = p["opp_weight"] * 2.0 / max(1, n - 1)
        out = {}
        for cell, (g, owners, spaces) in ctx.villages.items():
            if len(owners) >= spaces:
                continue
            after = owners + [me]
            d = [0.0] * n
            for full, weight in ((False, 1.0 - lam), (True, lam)):
                if weight == 0:
                    continue
                b = village_awards(g, owners, n, full)
                a = village_awards(g, after, n, full)
                for q in range(n):
                    d[q] += weight * (a[q] - b[q])
            val = d[me] - w * sum(d[q] for q in range(n) if q != me)
            if ctx.rounds_after:
                val += p["alms_future"]
            out[cell] = val
        ctx.cache["cells"] = out
        return out

    def _route_search(self, ctx: _Ctx, start_from: int | None, visited: set, max_len: int):
        """Best routes: returns (best value per number of alms 0..max_len, best path per
        number). ``start_from``: the snake's last cell (None: start anywhere)."""
        values = self._cell_values(ctx)
        if max_len <= 0:
            return [0.0], [[]]
        exact = [-1e9] * (max_len + 1)
        stuck = [-1e9] * (max_len + 1)
        exact_path: list = [None] * (max_len + 1)
        stuck_path: list = [None] * (max_len + 1)
        exact[0] = 0.0
        exact_path[0] = []

        def dfs(cell, path, total, seen):
            L = len(path)
            if total > exact[L]:
                exact[L] = total
                exact_path[L] = list(path)
            if L == max_len:
                return
            extended = False
            for nb in ADJ[cell]:
                if nb in values and nb not in seen:
                    extended = True
                    seen.add(nb)
                    path.append(nb)
                    dfs(nb, path, total + values[nb], seen)
                    path.pop()
                    seen.discard(nb)
            if not extended and total > stuck[L]:
                stuck[L] = total
                stuck_path[L] = list(path)

        starts = [c for c in values if c not in visited] if start_from is None else None
        if start_from is None:
            if not starts:
                stuck[0] = 0.0
                stuck_path[0] = []
            for c in starts:
                dfs(c, [c], values[c], set(visited) | {c})
        else:
            dfs(start_from, [], 0.0, set(visited) | {start_from})
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

    def _routes(self, ctx: _Ctx) -> list[float]:
        """Value of giving a alms this round (a = 0..15), best route."""
        if "routes" not in ctx.cache:
            max_len = min(ctx.alms_left[ctx.me], MAX_CELLS)
            best, _ = self._route_search(ctx, None, set(), max_len)
            best = best + [best[-1]] * (16 - len(best))
            ctx.cache["routes"] = best
        return ctx.cache["routes"]

    # --- raid -----------------------------------------------------------------------------
    def _my_castle_values(self, ctx: _Ctx) -> dict[int, float]:
        me = ctx.me
        out = {}
        for c in ctx.castles:
            if c["raided"] is not None:
                continue
            out[c["value"]] = (self._castle_term(ctx, c) + self._bundle(ctx, me, c["known"], c["unknown"])
                               - self.p["dump_penalty"] * c["dumped"])
        return out

    def _opp_castle_value(self, ctx: _Ctx, o: int, c: dict, extra_up=None, extra_fd: int = 0) -> float:
        up = c["up"] if extra_up is None else [x + (1 if k == extra_up else 0) for k, x in enumerate(c["up"])]
        return self._castle_term(ctx, c) + self._bundle(ctx, o, up, c["fd_total"] + extra_fd)

    def _raid(self, ctx: _Ctx, legal: list[int]) -> int:
        mine = self._my_castle_values(ctx)
        me, n = ctx.me, ctx.n
        later = [o for o in ctx.order if o != me and not ctx.players[o]["raided"]]
        w = self.p["deny_weight"] * 2.0 / max(1, n - 1)
        best, best_a = -1e9, legal[0]
        for a in legal:
            value = a - A.RAID + 1
            c = next(x for x in ctx.castles if x["value"] == value)
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
        earlier = ctx.order[:ctx.order.index(me)]
        opponents = [o for o in range(n) if o != me]
        castles = {c["value"]: c for c in ctx.castles}
        my_vals = self._my_castle_values(ctx)
        opp_vals = {o: {v: self._opp_castle_value(ctx, o, c) for v, c in castles.items()}
                    for o in opponents}
        w = p["opp_weight"] * 2.0 / max(1, n - 1)
        opp_marg = [self._marginals(ctx, o) for o in opponents]
        greedy = sum(self._greedy(o) for o in opponents) / len(opponents)
        temp = p["greedy_temp"]
        # what a card kept in hand is worth when played on a later turn: on its likely target
        # (hidden if a later play is face down) or, if bad for it, before the opponents
        _, p_now = self._expected_raid(my_vals, opp_vals, earlier)
        target = max(p_now, key=p_now.get)
        p_best = p_now[target]
        room = castles[target]["cap"]
        if room is not None and room - castles[target]["cards"] <= n:
            p_best = 0.0  # the target may be full before its next turn: play good cards now
        later_down = "D" in banner[played + 1:ctx.hand_size]
        marg_me = self._marginals(ctx, me)
        hand = _vec(ctx.v["hand"])
        keep = {}
        for k in range(NUM_KINDS):
            if hand[k]:
                gift = sum(m[k] for m in opp_marg) / len(opp_marg)
                keep[k] = max(p_best * marg_me[k] * (1.0 if later_down else p["exposed_keep"]),
                              -w * p["keep_gift"] * gift, 0.0)
        kept_total = sum(keep[k] * hand[k] for k in keep)
        best, best_a = -1e9, legal[0]
        cache = {}
        for a in legal:
            k, slot = divmod(a - A.PLAY, MAX_CASTLE)
            value = slot + 1
            c = castles[value]
            known = list(c["known"])
            known[k] += 1
            mv = dict(my_vals)
            mv[value] = self._castle_term(ctx, c) + self._bundle(ctx, me, known, c["unknown"])
            ov = {}
            for o in opponents:
                d = dict(opp_vals[o])
                key = (o, value, -1 if face_down else k)
                if key not in cache:
                    cache[key] = (self._opp_castle_value(ctx, o, c, extra_fd=1) if face_down
                                  else self._opp_castle_value(ctx, o, c, extra_up=k))
                d[value] = cache[key]
                ov[o] = d
            expect, p_mine = self._expected_raid(mv, ov, earlier)
            # the chance an opponent ends up with the card: not mine, and not the castle left
            # over (by value-driven opponents the one they like least, else any)
            mean = {v: sum(ov[o][v] for o in opponents) / len(opponents) for v in castles}
            low = min(mean.values())
            weights = {v: np.exp((low - x) / temp) for v, x in mean.items()}
            total = sum(weights.values())
            left = greedy * weights[value] / total + (1 - greedy) / len(castles)
            p_opp = (1.0 - p_mine[value]) * (1.0 - left)
            gift = sum(m[k] for m in opp_marg) / len(opp_marg)
            score = expect - w * p_opp * gift + p["keep_weight"] * (kept_total - keep[k])
            if score > best:
                best, best_a = score, a
        return best_a

    def _expected_raid(self, my_vals: dict, opp_vals: dict, earlier: list[int]):
        """Expected value of my raid given the earlier raiders' likely picks, and the chance
        I raid each castle."""
        avail = {v: 1.0 for v in my_vals}
        for o in earlier:
            q = self._greedy(o)
            vals = opp_vals[o]
            mass = max(1.0, sum(avail.values()))  # castles expected still open at its turn
            cands = [v for v in avail if avail[v] > 0.05] or list(avail)
            best_v = max(cands, key=vals.get)
            for v, a in avail.items():
                take = (1 - q) / mass + (q if v == best_v else 0.0)
                avail[v] = a * max(0.0, 1.0 - take)
        order = sorted(my_vals, key=lambda v: my_vals[v], reverse=True)
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
            start = None if v["snake_last"] is None else _cell_index(v["snake_last"])
            # cells the mask forbids although they have room were visited this snake
            values = self._cell_values(ctx)
            visited = set(self._visited)
            if start is not None:
                visited |= {c for c in values if c in ADJ[start] and c not in targets}
            _, paths = self._route_search(ctx, start, visited, left)
            path = [c for c in paths[left] if True]
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
            c = next(x for x in ctx.castles if x["value"] == value)
            score = c["unknown"] * (2.0 if value in top else 1.0) + 0.01 * mine.get(value, 0)
            if score > best:
                best, best_a = score, a
        return best_a

    def _key(self, ctx: _Ctx, legal: list[int]) -> int:
        """Force the raider off the castle it chose when that gains me (the castle I want)
        plus part of what it costs the raider beats keeping the key for later."""
        me, v = ctx.me, ctx.v
        raider = next((o for o in ctx.order if not ctx.players[o]["raided"]), None)
        open_castles = [c for c in ctx.castles if c["raided"] is None]
        chosen = v.get("key_pending")
        if raider is None or raider == me or len(open_castles) < 2:
            return A.KEY_PASS
        theirs = {c["value"]: self._opp_castle_value(ctx, raider, c) for c in open_castles}
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
        spaces = [(cell, s, o) for cell, (g, owners, _) in ctx.villages.items()
                  for s, o in enumerate(owners)]
        moved = {}

        def after(cell, s_from, owner_in):
            key = (cell, s_from, owner_in)
            if key not in moved:
                g, owners, _ = ctx.villages[cell]
                rest = owners[:s_from] + owners[s_from + 1:]
                lst = [owner_in] + rest if owner_in == me else rest + [owner_in]
                moved[key] = village_awards(g, lst, n)
            return moved[key]

        plan = None
        legal_set = set(legal)
        for ca, sa, oa in spaces:
            if A.ENT_PICK + ca * MAX_SPACES + sa not in legal_set:
                continue
            for cb, sb, ob in spaces:
                if ob == oa or cb == ca:
                    continue
                na, nb = after(ca, sa, ob), after(cb, sb, oa)
                oa_aw, ob_aw = cells[ca], cells[cb]
                totals = [base[q] - oa_aw[q] - ob_aw[q] + na[q] + nb[q] for q in range(n)]
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
                    totals[me] = loot_score(c_me) + castles[me] + vil[me]
                    totals[o] = loot_score(c_o) + castles[o] + vil[o]
                    colls = list(ctx.colls)
                    colls[me], colls[o] = c_me, c_o
                    bonus = self._beard_effect(colls, n)
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
