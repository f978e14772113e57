"""The sixth round and the result (Sherwood Forest rulebook, "END OF THE GAME": "The gold
received in the sixth round is turned into fame"; "The player who has advanced furthest along
the road to fame wins"; ties: fewer outlaws under the oak, then more gold).

Gold and comrades gained in the sixth round are counted as they come in (``round_gold``,
``round_comrades``: the loot, collected promises and gold paid with an offer) and turned into
fame when the last traveller has been played. The result itself only reads the state:
``facts.SherwoodFacts.scores`` and ``ranks``.
"""

from __future__ import annotations

import numpy as np

from ..components import FINAL_COMRADE_FAME, FINAL_GOLD_FAME
from .phase_base import PhaseBase


class Scoring(PhaseBase):
    """The sixth round's conversion, which ends the game (a mixin of ``SherwoodState``)."""

    __slots__ = ()

    def _end_of_the_game(self) -> None:
        """Each new bag of gold of the sixth round becomes one fame point, each new comrade
        two; the converted bags leave the camp (a reading, docs/sherwood.md); bags already
        paid on (with an offer of the additions) are no longer there to leave."""
        self.fame += FINAL_GOLD_FAME * self.round_gold + FINAL_COMRADE_FAME * self.round_comrades
        leave = np.minimum(self.round_gold, self.gold)
        self.gold -= leave
        self.pit[0] += int(leave.sum())
        self.end_game()
