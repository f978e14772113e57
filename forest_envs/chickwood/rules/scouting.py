"""Chickwood Forest, "Sequence of Play: 1. Scout the Castles", and the spy glass (Legendary
variant) right before the first raid: a mixin of ``state.ChickwoodState``."""

from __future__ import annotations

from .. import actions as A
from ..components import KIND_NAMES, SPY_GLASS
from ..observation import Kind
from .phase_base import PhaseBase


class Scouting(PhaseBase):
    """Each player in turn order plays one hand card per turn to a castle below its limit,
    face up or down as the banner of their castle says; then the spy-glass holder may look
    at one castle's face-down cards."""

    __slots__ = ()

    def _set_scout_turn(self) -> None:
        n = self.num_players
        self.banner_pos[:] = 0
        self.banner_pos[self.step // n] = 1
        self.next_turn(Kind.SCOUT, self.order[self.step % n])

    def _mask_scout(self, d, mask) -> None:
        open_castles = self.castle_in_play & (self.castle_cards < self.game.capacity)
        plays = mask[A.PLAY.start:A.PLAY.stop].reshape(A.PLAY.shape)
        for kind in self.hand[d.player].nonzero()[0].tolist():  # at most a hand's few kinds
            plays[kind] = open_castles

    def _why_scout(self, d, a: int) -> str | None:
        if a not in A.PLAY:
            return None
        k, c = A.PLAY.index(a)
        if not self.castle_in_play[c]:
            return f"castle {c + 1} is not in this game"
        if self.hand[d.player, k] == 0:
            return f"{KIND_NAMES[k]} is not in the player's hand"
        return f"castle {c + 1} already holds its maximum of {self.game.capacity[c]} cards"

    def _apply_scout(self, d, a: int) -> None:
        kind, c = A.PLAY.index(a)
        p, n = d.player, self.num_players
        self.hand[p, kind] -= 1
        self.hand_count[p] -= 1
        if self.banner[p, self.step // n]:
            self.fd_own[p, c, kind] += 1
            self.castle_fd_count[c, p] += 1
        else:
            self.castle_faceup[c, kind] += 1
            self.castle_faceup_by[c, kind, p] += 1
        self.castle_cards[c] += 1
        self.step += 1
        if self.step < n * self.game.hand_size:
            self._set_scout_turn()
            return
        self.banner_pos[:] = 0
        spier = self._holder(SPY_GLASS)
        if spier >= 0 and self._spy_targets(spier).any():
            self.next_turn(Kind.SPY, spier)
        else:
            self._begin_raids()

    # --- the spy glass ------------------------------------------------------------------------
    def _spy_targets(self, p: int):
        """Castles holding face-down cards of another player than ``p``."""
        others = self.castle_fd_count.sum(axis=1) - self.castle_fd_count[:, p]
        return others > 0

    def _mask_spy(self, d, mask) -> None:
        mask[A.SPY.start:A.SPY.stop] = self._spy_targets(d.player)

    def _why_spy(self, d, a: int) -> str | None:
        return "only a castle holding others' face-down cards can be looked at" if a in A.SPY else None

    def _apply_spy(self, d, a: int) -> None:
        p, (c,) = d.player, A.SPY.index(a)
        self.spy_castle[c] = 1
        self.spy_view[p, c] = self.fd_own[:, c].sum(axis=0) - self.fd_own[p, c]
        self._begin_raids()
