"""What every phase does at the table: seats named in actions, the laid-out travellers laid
out and cleared, outlaws leaving an ambush (Sherwood Forest rulebook, "Setup" and "Object of
the Game and Sequence of Actions"). What only reads the table (the starting players, the
seats in clockwise order) is in ``facts.py``."""

from __future__ import annotations

from .phase_base import PhaseBase
from .precomputed import CARD_FEATURES


class SeatsAndTravellers(PhaseBase):
    """Seats named in actions, laid-out travellers, outlaws leaving an ambush (a mixin of
    ``SherwoodState``)."""

    __slots__ = ()

    # Actions that name a seat count from the deciding player (0 = himself), as the
    # observation's seat axes do.
    def _mark_seats(self, mask, block, player: int, seats) -> None:
        n = self.num_players
        for q in seats:
            mask[block.start + (q - player) % n] = 1

    def _seat_named(self, block, player: int, a: int) -> int:
        return (player + a - block.start) % self.num_players

    # --- the laid-out travellers (rulebook, "Setup", 8, and "END OF THE ROUND", 2) -------------
    def _lay_out(self) -> None:
        for s in range(self.game.laid_out):
            card = self.pile.pop(0)
            self.slots[s] = card
            self.slot_present[s] = 1
        self.slot_face_up[0] = 1   # one card face up (the pile is shuffled: any one will do)
        self.slot_card[0] = CARD_FEATURES[self.slots[0]]
        self.pile_left[0] = len(self.pile)

    def _clear_slot(self, s: int) -> None:
        self.slots[s] = -1
        self.slot_present[s] = 0
        self.slot_face_up[s] = 0
        self.slot_card[s] = 0
        self.slot_told[s] = 0
        self.slot_marked[s] = 0
        self.peek[:, s] = 0

    def _leave_ambush(self, amb: int, order: list[int], stays: list[int]) -> None:
        """Everyone in ``order`` but ``stays`` leads his outlaws from the ambush back to his
        camp; the leader's place goes to one who stays (the leader himself if he does)."""
        for q in order:
            if q not in stays:
                self.camp[q] += self.ambush_outlaws[amb, q]
                self.ambush_outlaws[amb, q] = 0
                self.provisioned[amb, q] = 0
        self.ambush_leader[amb] = 0
        if stays:
            self.ambush_leader[amb, order[0] if order[0] in stays else stays[0]] = 1
