"""Scouting: which card to play to which castle.

Every legal play is scored by what it leaves me:

* my expected raid: the raiders before me take castles as the opponent model says
  (``open_chances``, with the played card shown to them if it lies face up), and I raid the
  best castle still open (``raid_outlook``), valuing the castle I played to with the card;
* minus what the card is worth to the opponents, in proportion to the chance one of them
  gets it: it is not my raid, nor the castle they leave over (``left_over_chance``);
* plus the cards kept in hand, worth what they will be on a later turn: on my likely target
  (fully if a later play is face down, hidden from earlier raiders), or given away before
  the opponents if bad for me; nothing on a target that may fill up first (castles 1, 2).

So good cards go where I mean to raid, preferably face down; henchmen go where the
others will raid.

Plays are scored best bound first and the rest skipped once no bound can beat the best
score: my expected raid is at most my best castle value and the chance an opponent gets
the card at most 1, so the choice is the one scoring every play would make.
"""

from __future__ import annotations

from typing import NamedTuple

from ..actions import PLAY
from .opponent_model import OpponentModel, left_over_chance, open_chances, raid_outlook
from .valuation import Valuer

SLACK = 1e-9  # float noise allowed when a bound is compared with the best score


class Play(NamedTuple):
    bound: float       # no score of the play is higher
    action: int
    kind: int          # the card's kind
    castle: int        # the castle's value
    my_value: float    # my value of that castle after the play (the others' are unchanged)


class Scouting:
    """What every play of one scouting decision shares."""

    def __init__(self, val: Valuer, model: OpponentModel):
        sv, p = val.sv, val.p
        self.val, self.sv, self.p = val, sv, p
        self.face_down = bool(sv.face_down_now)
        self.opponents = sv.opponents()
        self.earlier = sv.order[:sv.order.index(sv.me)]
        self.greedy_earlier = tuple(model.greedy(o) for o in self.earlier)
        self.greedy_mean = sum(model.greedy(o) for o in self.opponents) / len(self.opponents)
        self.castles = tuple(val.mine)  # every castle is open while scouting
        self.mean_seen = {v: sum(val.seen[o][v] for o in self.opponents) / len(self.opponents)
                          for v in self.castles}
        self.gift_weight = p.opponents_share(p.opp_weight, sv.n)
        # what a card of each kind in hand is worth to the opponents, on average
        self.gifts = {k: sum(val.marginals[o][k] for o in self.opponents) / len(self.opponents)
                      for k, x in enumerate(sv.hand) if x}
        self.kept = self.kept_in_hand()
        self.kept_total = sum(self.kept[k] * sv.hand[k] for k in self.kept)
        self.after_face_down: dict[int, tuple[dict, dict]] = {}  # seen_after by castle

    def kept_in_hand(self) -> dict:
        """What a card of each kind in hand is worth if kept for a later turn: played on my
        likely target (less if that play is face up: earlier raiders see it), or, if bad
        for me, given to the opponents; never below 0."""
        val, sv, p = self.val, self.sv, self.p
        chances = open_chances(self.castles, [val.seen[o] for o in self.earlier],
                               self.greedy_earlier)
        _, mine = raid_outlook(val.mine, chances)
        target = max(mine, key=mine.__getitem__)
        c = sv.castles[target]
        sure = mine[target]
        if c.capacity is not None and c.capacity - c.cards <= sv.n:
            sure = 0.0  # it may be full before my next turn: good cards are played now
        hidden = any(sv.banner[sv.played + 1:sv.hand_size])
        exposure = 1.0 if hidden else p.exposed_keep
        return {k: max(sure * val.marginals[sv.me][k] * exposure,
                       -self.gift_weight * p.keep_gift * gift, 0.0)
                for k, gift in self.gifts.items()}

    def plays(self, legal: list[int]) -> list[Play]:
        """Every play, best bound first. My expected raid is at most my best castle value
        and the chance an opponent gets the card at most 1."""
        val, castles, mine = self.val, self.sv.castles, self.val.mine
        # a play changes my value of one castle: the best of the others bounds the rest
        best_other = {v: max([x for u, x in mine.items() if u != v], default=float("-inf"))
                      for v in mine}
        rest = {k: max(0.0, -self.gift_weight * gift) + self.kept_after(k)
                for k, gift in self.gifts.items()}
        plays = [(a, *PLAY.index(a)) for a in legal]
        # my value of each castle played to, with each kind played there
        kinds_to: dict[int, list[int]] = {}
        for _, k, c in plays:
            kinds_to.setdefault(c + 1, []).append(k)
        after = {v: val.my_castle_values(castles[v], kinds) for v, kinds in kinds_to.items()}
        out = []
        for a, k, c in plays:
            value = c + 1
            my_value = after[value][k]
            bound = max(0.0, best_other[value], my_value) + rest[k]
            out.append(Play(bound, a, k, value, my_value))
        out.sort(key=lambda play: -play.bound)
        return out

    def kept_after(self, k: int) -> float:
        """Credit for the cards still in hand after playing one of kind ``k``."""
        return self.p.keep_weight * (self.kept_total - self.kept[k])

    def seen_after(self, castle: int, kind: int) -> tuple[dict, dict]:
        """(each opponent's value of ``castle`` after the play, the chance each castle is
        still open at my raid). A face-down play shows no kind: its castle decides both."""
        if self.face_down and castle in self.after_face_down:
            return self.after_face_down[castle]
        val = self.val
        seen_after = val.seen_after_play(self.sv.castles[castle], kind, self.face_down)
        chances = open_chances(self.castles, [{**val.seen[o], castle: seen_after[o]}
                                              for o in self.earlier], self.greedy_earlier)
        if self.face_down:
            self.after_face_down[castle] = seen_after, chances
        return seen_after, chances

    def score(self, play: Play, best: float) -> float | None:
        """The play's score, or None once it is sure not to beat ``best``."""
        k, value = play.kind, play.castle
        seen_after, chances = self.seen_after(value, k)
        expect, mine = raid_outlook({**self.val.mine, value: play.my_value}, chances)
        gift = self.gift_weight * self.gifts[k]
        kept = self.kept_after(k)
        if expect + max(0.0, -(1.0 - mine[value]) * gift) + kept < best - SLACK:
            return None
        mean_after = sum(seen_after.values()) / len(self.opponents)
        left_over = left_over_chance({**self.mean_seen, value: mean_after}, value,
                                     self.greedy_mean, self.p.greedy_temp)
        to_opponents = (1.0 - mine[value]) * (1.0 - left_over)
        return expect - to_opponents * gift + kept


def choose_play(val: Valuer, model: OpponentModel, legal: list[int]) -> int:
    """The best play (the first in action order among equal scores)."""
    scouting = Scouting(val, model)
    best, best_a = float("-inf"), None
    for play in scouting.plays(legal):
        if play.bound < best - SLACK:
            break  # the plays left are bounded lower still
        score = scouting.score(play, best)
        if score is not None and (score > best or (score == best and best_a is not None
                                                   and play.action < best_a)):
            best, best_a = score, play.action
    if best_a is None:  # the first play's score is never refused (it is not bounded yet)
        raise RuntimeError(f"the heuristic scored no play among {legal}")
    return best_a
