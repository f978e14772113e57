"""The heuristic's tunable numbers.

``Params`` objects are interned (``Params.of``) and compared by identity, so one set of
numbers is one object: it is cheap to hash as part of the key of a memoised function, and
agents with the same numbers share those memos.
"""

from __future__ import annotations

from dataclasses import dataclass, fields


@dataclass(frozen=True, eq=False)
class Params:
    # --- loot ---------------------------------------------------------------------------
    chest_future: float = 0.35      # extra chests of the majority type expected per round left
    chest_future_cap: float = 2.0   # ... at most this many in all
    order_price: float = 0.35       # glory per castle value lost by raiding later next round
    dump_penalty: float = 1.5       # a face-down card left by an opponent who raided elsewhere
                                    # is worse than an average unseen card by this much
    # --- opponents ----------------------------------------------------------------------
    opp_weight: float = 0.5         # weight of the opponents' gains (3 players; x 2/(n-1))
    opp_alms_value: float = 1.5     # what an alms is worth to an opponent
    greedy_prob: float = 0.8        # chance a value-driven opponent raids its best castle
    greedy_prior: float = 0.6       # prior belief that an opponent raids by value (not at random)
    greedy_temp: float = 2.0        # softmax temperature of a value-driven opponent's raid choice
    deny_weight: float = 0.15       # raid: weight of what a castle would give the next raiders
    # --- alms ---------------------------------------------------------------------------
    unlock_weight: float = 0.2      # weight of the standing as if every row were unlocked
    alms_future: float = 0.3        # what an alms is worth beyond its current standing change
    # --- scouting: the cards kept for later turns ---------------------------------------
    keep_weight: float = 1.0        # credit for the cards kept in hand
    exposed_keep: float = 0.85      # ... when they will be played face up (seen by earlier raiders)
    keep_gift: float = 0.6          # ... a bad card kept to give away later
    # --- Legendary cards ----------------------------------------------------------------
    spy_value: float = 0.6          # spy glass, per round left
    key_value: float = 2.0
    key_threshold: float = 3.0      # use the key when that gains more (0.5 in the last round)
    ent_value: float = 7.0          # measured: the end-of-game swaps gain ~10 glory of margin
    arrow_value: float = 7.0
    beard_value: float = 3.0        # without a henchman to give away (with one: +3 more)

    def __post_init__(self):
        # chances: scouting's bounds (and the opponent model) rely on them
        if not (0.0 <= self.greedy_prob <= 1.0 and 0.0 < self.greedy_prior < 1.0):
            raise ValueError("greedy_prob must lie in [0, 1] and greedy_prior in (0, 1)")

    @classmethod
    def of(cls, **overrides: float) -> Params:
        """The one ``Params`` object with these overrides of the defaults."""
        unknown = set(overrides) - NAMES
        if unknown:
            raise TypeError(f"unknown HeuristicAgent parameters: {sorted(unknown)}")
        key = tuple(sorted(overrides.items()))
        found = _INTERNED.get(key)
        if found is None:
            found = _INTERNED[key] = cls(**overrides)
        return found

    def opponents_share(self, weight: float, num_players: int) -> float:
        """A weight set for 3 players, scaled to the table: what one opponent's gain counts
        against mine shrinks as the gains spread over more opponents."""
        return weight * 2.0 / max(1, num_players - 1)


NAMES = frozenset(f.name for f in fields(Params))
_INTERNED: dict[tuple, Params] = {}
