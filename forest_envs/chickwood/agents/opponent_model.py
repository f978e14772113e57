"""How the opponents raid, as the agent models them.

An opponent is either value-driven or random. A value-driven one raids, with chance
``greedy_prob``, the open castle it values most on what it can see
(``Valuer.seen_castle_value``), otherwise any open castle. The agent's belief that an
opponent is value-driven starts at ``greedy_prior`` and is learnt during the game: every
raid it sees is scored against the table at the agent's previous decision (a softmax of the
raider's values against a uniform pick). From this follow the chance each castle is still
open at my raid and the chance it is the castle the opponents leave over.
"""

from __future__ import annotations

import functools
import math

from .params import Params
from .valuation import Valuer

LOG_ODDS_LIMIT = 6.0  # a belief never becomes certain: players change


class OpponentModel:
    """The belief per opponent; it remembers the previous decision's values to judge the
    raids made since."""

    def __init__(self, p: Params):
        self.p = p
        self.prior = math.log(p.greedy_prior / (1 - p.greedy_prior))  # as log-odds
        self.reset()

    def reset(self) -> None:
        self.log_odds: dict[int, float] = {}
        self.greedy_of: dict[int, float] = {}  # greedy() by seat, until its belief changes
        self.previous: Valuer | None = None

    def greedy(self, seat: int) -> float:
        """The chance that ``seat`` raids the castle it values most (else a random one)."""
        found = self.greedy_of.get(seat)
        if found is None:
            found = self.greedy_of[seat] = self.p.greedy_prob / (
                1.0 + math.exp(-self.log_odds.get(seat, self.prior)))
        return found

    def observe(self, val: Valuer) -> None:
        """Learn from the raids made since the previous decision, then remember this one."""
        prev = self.previous
        sv = val.sv
        if prev is not None and (sv.n != prev.sv.n or sv.round < prev.sv.round or (
                sv.round == prev.sv.round and sv.deck_left != prev.sv.deck_left)):
            self.reset()  # another game began without a reset: forget this one
            prev = None
        if prev is not None and sv.round - prev.sv.round in (0, 1):
            for raider, castle, open_values in raids_since(prev, val):
                self._judge(raider, castle, open_values, prev)
        self.previous = val

    def _judge(self, raider: int, castle: int, open_values: list[int], prev: Valuer) -> None:
        """Bayes update: how much likelier the raid is by value than at random."""
        values = [prev.seen[raider][v] for v in open_values]
        top = max(values)
        weights = [math.exp((x - top) / self.p.greedy_temp) for x in values]
        chosen = weights[open_values.index(castle)] / sum(weights)
        uniform = 1.0 / len(open_values)
        by_value = 0.15 * uniform + 0.85 * chosen  # a value-driven player errs sometimes
        odds = self.log_odds.get(raider, self.prior) + math.log(by_value / uniform)
        self.log_odds[raider] = max(-LOG_ODDS_LIMIT, min(LOG_ODDS_LIMIT, odds))
        self.greedy_of.pop(raider, None)


def raids_since(prev: Valuer, val: Valuer):
    """(raider, castle value, the castles open at its turn that the previous decision
    valued) of each opponent's raid since ``prev``, in turn order. A raid is judged only
    among two or more castles."""
    before, now = prev.sv, val.sv
    new_round = now.round != before.round
    taken = {o: now.castle_of[o] for o in before.order
             if not before.raided[o] and (new_round or now.raided[o])}
    gone = set()
    for o in before.order:
        if o not in taken:
            continue
        castle = taken[o]
        open_values = [v for v in prev.mine if v not in gone]
        gone.add(castle)
        if o != before.me and castle in open_values and len(open_values) > 1:
            yield o, castle, open_values


def open_chances(castles: tuple, earlier_values: list[dict], greedy: tuple) -> dict:
    """The chance each castle is still open at my raid (a shared dict: not to be changed).

    Each raider before me (its values of the castles, its greedy chance) takes with its
    greedy chance the castle it values most among those likely still open (chance > 5%),
    otherwise any castle, each as likely as the castles expected open. The chances depend
    on the raiders' picks alone, which most plays compared while scouting leave the same."""
    picks: tuple[int, ...] = ()
    chances, likely = _open_after(castles, (), picks)
    for i, values in enumerate(earlier_values):
        picks += (max(likely, key=values.__getitem__),)
        chances, likely = _open_after(castles, greedy[:i + 1], picks)
    return chances


@functools.lru_cache(maxsize=1 << 12)
def _open_after(castles: tuple, greedy: tuple, picks: tuple) -> tuple[dict, tuple]:
    """(chance each castle is open, the castles likely open) after the raiders with these
    greedy chances, each of whom values most its castle in ``picks``."""
    if not picks:
        return dict.fromkeys(castles, 1.0), castles
    before, _ = _open_after(castles, greedy[:-1], picks[:-1])
    q, best = greedy[-1], picks[-1]
    spread = (1 - q) / max(1.0, sum(before.values()))
    chances = {v: x * max(0.0, 1.0 - spread - (q if v == best else 0.0))
               for v, x in before.items()}
    return chances, tuple(v for v in castles if chances[v] > 0.05) or castles


def raid_outlook(my_values: dict, open_chance: dict) -> tuple[float, dict]:
    """I raid the best castle still open: (expected value, chance I raid each castle)."""
    expect, rest = 0.0, 1.0
    mine = {}
    for v in sorted(my_values, key=my_values.__getitem__, reverse=True):
        mine[v] = rest * open_chance[v]
        expect += mine[v] * my_values[v]
        rest *= 1 - open_chance[v]
    return expect, mine


def left_over_chance(mean_values: dict, castle: int, greedy: float, temp: float) -> float:
    """The chance ``castle`` is the one the opponents leave over: value-driven opponents
    (chance ``greedy``) leave the one they like least (a softmax on their mean values),
    random ones any."""
    low = min(mean_values.values())
    weights = {v: math.exp((low - x) / temp) for v, x in mean_values.items()}
    return greedy * weights[castle] / sum(weights.values()) + (1 - greedy) / len(mean_values)
