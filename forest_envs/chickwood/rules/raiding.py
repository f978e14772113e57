"""Chickwood Forest, "Sequence of Play: 2. Steal the Loot" and "3. Give Alms", with the key
(Legendary variant): a mixin of ``state.ChickwoodState``."""

from __future__ import annotations

import numpy as np

from .. import actions as A
from ..components import BENEFACTOR0, BENEFACTOR_ALMS, KEY, MAX_CELLS
from ..observation import Kind
from .phase_base import PhaseBase

# The alms each benefactor card gives, in kind order (kinds BENEFACTOR0 .. BENEFACTOR0 + 2).
BENEFACTOR_VALUE = np.array([BENEFACTOR_ALMS[BENEFACTOR0 + i] for i in range(3)], dtype=np.int16)
NO_LAST_CELL = MAX_CELLS  # the alms snake has not started (row MAX_CELLS of ``adjacent``)


class Raiding(PhaseBase):
    """Each player in turn order raids one castle not yet raided this round (the key holder
    may force another choice), takes its castle card and its loot, and gives the benefactors'
    alms at once, village by village."""

    __slots__ = ()

    def _begin_raids(self) -> None:
        self.step = 0
        self.next_turn(Kind.RAID, self.order[0])

    def _raidable(self) -> np.ndarray:
        return (self.castle_in_play & (self.castle_raided_by.sum(axis=1) == 0)
                & (self.key_blocked == 0))

    def _mask_raid(self, d, mask) -> None:
        mask[A.RAID.start:A.RAID.stop] = self._raidable()

    def _why_raid(self, d, a: int) -> str | None:
        if a not in A.RAID:
            return None
        (c,) = A.RAID.index(a)
        if not self.castle_in_play[c]:
            return f"castle {c + 1} is not in this game"
        if self.key_blocked[c]:
            return f"the key forces the raider to choose a castle other than {c + 1}"
        return f"castle {c + 1} was already raided this round"

    def _apply_raid(self, d, a: int) -> None:
        raider, (c,) = d.player, A.RAID.index(a)
        key_holder = self._holder(KEY)
        if key_holder >= 0 and key_holder != raider:
            self.push(Kind.KEY, key_holder, c, raider)
        else:
            self._raid(raider, c)

    # --- the key ----------------------------------------------------------------------------
    def _mask_key(self, d, mask) -> None:
        mask[A.KEY_USE.start] = mask[A.KEY_PASS.start] = 1

    def _apply_key(self, d, a: int) -> None:
        castle, raider = d.data
        self.pop()
        if a == A.KEY_USE.start:
            self.collection[d.player, KEY] -= 1
            self.box[KEY] += 1
            self.key_blocked[castle] = 1
        else:
            self._raid(raider, castle)

    def _raid(self, p: int, c: int) -> None:
        if self.pile_left[c] > 0:
            self.pile_left[c] -= 1
            self.castles_held[p, c] += 1
        # An exhausted pile leaves its place on the table: its raider takes the loot and that
        # place's value for turn order and banner, but no castle card (docs/chickwood.md).
        self.player_castle[p] = 0
        self.player_castle[p, c] = 1
        self.castle_raided_by[c, p] = 1
        self.has_raided[p] = 1
        self.raids[p].append(c + 1)
        self.key_blocked[:] = 0
        loot = self.castle_faceup[c] + self.fd_own[:, c].sum(axis=0)
        self._clear_castle(c)
        benefactors = loot[BENEFACTOR0:BENEFACTOR0 + 3]
        alms = int(benefactors @ BENEFACTOR_VALUE)
        self.discard_public[BENEFACTOR0:BENEFACTOR0 + 3] += benefactors
        loot[BENEFACTOR0:BENEFACTOR0 + 3] = 0
        self.collection[p] += loot
        gives = min(alms, int(self.alms_left[p]))
        if gives > 0 and (self.cell_filled < self.cell_spaces).any():
            self.replace(Kind.ALMS, p, gives, NO_LAST_CELL)
        else:
            self._next_raider()

    def _next_raider(self) -> None:
        self.step += 1
        if self.step < self.num_players:
            self.next_turn(Kind.RAID, self.order[self.step])
        else:
            self._end_round()

    # --- the alms snake -----------------------------------------------------------------------
    def _alms_targets(self, last: int) -> np.ndarray:
        """Villages the next alms may go to: a free space, not given to by this snake, and
        next to the ``last`` one (any village before the first alms: ``NO_LAST_CELL``)."""
        return ((self.cell_filled < self.cell_spaces) & (self.snake_visited == 0)
                & self.game.adjacent[last])

    def _mask_alms(self, d, mask) -> None:
        _, last_cell = d.data
        mask[A.ALMS.start:A.ALMS.stop] = self._alms_targets(last_cell)

    def _why_alms(self, d, a: int) -> str | None:
        if a not in A.ALMS:
            return None
        return ("the village must be a village with a free space, not yet given to this "
                "round, and orthogonally next to the previous one")

    def put_alms(self, cell: int, p: int) -> None:
        """One alms of player p into the cell's first free space."""
        space = int(self.cell_filled[cell])
        self.alms_owner[cell, space, p] = 1
        self.cell_filled[cell] += 1
        self.alms_count[cell, p] += 1
        self.alms_left[p] -= 1

    def _apply_alms(self, d, a: int) -> None:
        alms_left, _ = d.data
        (cell,), p, left = A.ALMS.index(a), d.player, alms_left - 1
        self.put_alms(cell, p)
        self.snake_visited[cell] = 1
        if left > 0 and self._alms_targets(cell).any():
            self.replace(Kind.ALMS, p, left, cell)
        else:
            self.snake_visited[:] = 0
            self._next_raider()
