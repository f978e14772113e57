"""The sixth round and the result (Sherwood Forest rulebook, "END OF THE GAME": "The gold
received in the sixth round is turned into fame"; "The player who has advanced furthest along
the road to fame wins"; ties: fewer outlaws under the oak, then more gold).

Gold and comrades gained in the sixth round are counted as they come in (``round_gold``,
``round_comrades``: the loot, collected promises and gold paid with an offer) and turned into
fame when the last traveller has been played.
"""

from __future__ import annotations

import numpy as np

from ...core.results import competition_ranks
from ..components import FINAL_COMRADE_FAME, FINAL_GOLD_FAME, ROUNDS


class Scoring:
    """The sixth round's conversion and the ranking (a mixin of ``SherwoodState``)."""

    __slots__ = ()

    @property
    def sixth_round(self) -> bool:
        """Gold and comrades gained now turn into fame at the end of the game."""
        return self.round_index >= ROUNDS

    def _end_of_the_game(self) -> None:
        """Each new bag of gold of the sixth round becomes one fame point, each new comrade
        two; the converted bags leave the camp (a reading, docs/sherwood.md); bags already
        paid on (with an offer of the additions) are no longer there to leave."""
        self.fame += FINAL_GOLD_FAME * self.round_gold + FINAL_COMRADE_FAME * self.round_comrades
        leave = np.minimum(self.round_gold, self.gold)
        self.gold -= leave
        self.pit[0] += int(leave.sum())
        self.end_game()

    def scores(self) -> list[dict]:
        """Fame per seat with the tie-break numbers (final once the game is over)."""
        return [{"fame": int(self.fame[p]), "oak": int(self.oak[p]), "gold": int(self.gold[p]),
                 "total": int(self.fame[p])} for p in range(self.num_players)]

    def ranks(self) -> list[int]:
        """Most fame; ties: fewer outlaws under the oak, then more gold in camp."""
        return competition_ranks([(int(self.fame[p]), -int(self.oak[p]), int(self.gold[p]))
                                  for p in range(self.num_players)])
