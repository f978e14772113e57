"""Chickwood Forest, "End of Game": the Legendary cards resolved right before the final
scoring (travelling entertainers, golden arrow, fake beard), a mixin of
``state.ChickwoodState``. Scoring itself is ``facts.ChickwoodFacts.scores``."""

from __future__ import annotations

from .. import actions as A
from ..components import ENTERTAINERS, FAKE_BEARD, GOLDEN_ARROW, HENCHMAN, MAX_SPACES, NUM_TREASURE_KINDS
from ..observation import Kind
from .phase_base import PhaseBase

# Each end stage and the Legendary card whose holder decides it, in the order they resolve.
END_STAGES = ((Kind.ENTERTAINERS_FIRST, ENTERTAINERS), (Kind.ARROW_GIVE, GOLDEN_ARROW), (Kind.FAKE_BEARD, FAKE_BEARD))
_CARD_OF_STAGE: dict[int, int] = dict(END_STAGES)


class GameEnd(PhaseBase):
    """In the Legendary variant the holders of the end cards act in turn, each only when
    the card can change something; then the game ends."""

    __slots__ = ()

    def _end_game(self) -> None:
        # plain ints in the field (state data), compared with the Kind members below
        self.end_stages = tuple(int(stage) for stage, _ in END_STAGES) if self.game.legendary else ()
        self._next_end_stage()

    def _next_end_stage(self) -> None:
        while self.end_stages:
            stage, self.end_stages = self.end_stages[0], self.end_stages[1:]
            holder = self._holder(_CARD_OF_STAGE[stage])
            if holder < 0:
                continue
            if stage == Kind.ENTERTAINERS_FIRST:
                owners = self._space_owners()
                if len(set(owners[owners >= 0].tolist())) < 2:
                    continue
            elif stage == Kind.ARROW_GIVE:
                treasure = self.collection[:, :NUM_TREASURE_KINDS].sum(axis=1) > 0
                if not treasure[holder] or treasure.sum() < 2:
                    continue
            elif stage == Kind.FAKE_BEARD and self.collection[holder, HENCHMAN] == 0:
                continue
            self.next_turn(stage, holder)
            return
        self.end_game()

    # --- the travelling entertainers ----------------------------------------------------------
    def _mask_entertainers_first(self, d, mask) -> None:
        owners = self._space_owners()
        occupied = owners >= 0
        picks = mask[A.ENT_PICK.start:A.ENT_PICK.stop]
        for o in range(self.num_players):
            if (occupied & (owners != o)).any():
                picks[(owners == o).ravel()] = 1
        mask[A.ENT_PASS.start] = 1

    def _apply_entertainers_first(self, d, a: int) -> None:
        if a == A.ENT_PASS.start:
            self._next_end_stage()
        else:
            self.replace(Kind.ENTERTAINERS_SECOND, d.player, a - A.ENT_PICK.start)

    def _mask_entertainers_second(self, d, mask) -> None:
        owners = self._space_owners().ravel()
        first_pick, = d.data
        first = owners[first_pick]
        mask[A.ENT_PICK.start:A.ENT_PICK.stop] = (owners >= 0) & (owners != first)

    def _apply_entertainers_second(self, d, a: int) -> None:
        first_pick, = d.data
        self._swap_alms(divmod(first_pick, MAX_SPACES), A.ENT_PICK.index(a))
        self._next_end_stage()

    def _swap_alms(self, a: tuple, b: tuple) -> None:
        """Swap two alms: each takes the space, and so the rank, of the one it replaces."""
        (ca, sa), (cb, sb) = a, b
        oa, ob = self.alms_owner[ca, sa].copy(), self.alms_owner[cb, sb].copy()
        self.alms_owner[ca, sa], self.alms_owner[cb, sb] = ob, oa
        for cell in {ca, cb}:
            self.alms_count[cell] = self.alms_owner[cell].sum(axis=0)

    # --- the golden arrow -----------------------------------------------------------------------
    def _mask_arrow_give(self, d, mask) -> None:
        mask[A.ARROW_GIVE.start:A.ARROW_GIVE.stop] = self.collection[d.player, :NUM_TREASURE_KINDS] > 0
        mask[A.ARROW_PASS.start] = 1

    def _apply_arrow_give(self, d, a: int) -> None:
        if a == A.ARROW_PASS.start:
            self._next_end_stage()
        else:
            self.replace(Kind.ARROW_TAKE, d.player, A.ARROW_GIVE.index(a)[0])

    def _mask_arrow_take(self, d, mask) -> None:
        p, n = d.player, self.num_players
        for r in range(n - 1):
            lo = A.ARROW_TAKE.id(r, 0)
            mask[lo:lo + NUM_TREASURE_KINDS] = self.collection[(p + r + 1) % n, :NUM_TREASURE_KINDS] > 0

    def _apply_arrow_take(self, d, a: int) -> None:
        give, = d.data
        p = d.player
        r, take = A.ARROW_TAKE.index(a)
        o = (p + r + 1) % self.num_players
        self.collection[p, give] -= 1
        self.collection[o, give] += 1
        self.collection[o, take] -= 1
        self.collection[p, take] += 1
        self._next_end_stage()

    # --- the fake beard -------------------------------------------------------------------------
    def _mask_fake_beard(self, d, mask) -> None:
        mask[A.BEARD_GIVE.start:A.BEARD_GIVE.start + self.num_players - 1] = 1
        mask[A.BEARD_PASS.start] = 1

    def _apply_fake_beard(self, d, a: int) -> None:
        if a in A.BEARD_GIVE:
            p = d.player
            o = (p + A.BEARD_GIVE.index(a)[0] + 1) % self.num_players
            self.collection[p, HENCHMAN] -= 1
            self.collection[o, HENCHMAN] += 1
        self._next_end_stage()
