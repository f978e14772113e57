"""Setup and the round (Sherwood Forest rulebook, "Setup", "Object of the Game and Sequence
of Actions", "End of Preparation", "END OF THE ROUND"; with the additions "Before the Game"
and "End of the Round (with the additions)").

A round: the preparation phase, in turn order from the holder of the starting player
*figure*, one action per turn until every camp is empty; then the attack phase, in turn
order from the holder of the starting player *card*, each player leading one laid-out
traveller, until the laid-out cards run out. The sixth round's end is the game's
(``scoring.py``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .. import actions as A
from ..components import (
    BAND_START,
    FIRST_EMPTY_FAME,
    GOLD_BAGS,
    GOLD_START,
    NUM_AMBUSHES,
    OAK_START,
    PLAYER_COUNTS,
    RED_FORKS,
    ROUNDS,
)
from ..observation import Kind
from .phase_base import PhaseBase
from .precomputed import DECK_IDS, EQUIPMENT_DECK, SHERIFF_IDS

# Places in the order the camps emptied that the end of preparation rewards.
FIRST_TO_EMPTY, SECOND_TO_EMPTY = 1, 2


class Rounds(PhaseBase):
    """Setup, the turn order of the preparation phase and the end of a round (a mixin of
    ``SherwoodState``)."""

    __slots__ = ()

    @classmethod
    def new(cls, game, rng: np.random.Generator):
        """Setup (rulebook, "Setup"; the additions' "Before the Game" shuffles the Sheriffs
        into the decks and the special items into the equipment)."""
        self = cls._blank(game)
        self.rng = rng
        n = game.num_players
        sheriffs = game.additions
        pile, box = [], []
        for deck in ("A", "B"):
            ids = rng.permutation(DECK_IDS[deck, sheriffs]).tolist()
            pile += ids[:game.deck_cards]
            box += ids[game.deck_cards:]
        if not sheriffs:
            box += SHERIFF_IDS
        self.pile, self.box, self.removed = pile, sorted(box), []
        self.equip_deck = rng.permutation(EQUIPMENT_DECK[game.additions]).tolist()
        self.slots = [-1] * A.MAX_SLOTS
        self.leads, self.coach, self.fight, self.loot, self.offer = [], None, None, None, None
        self.crush, self.provisioning, self.window, self.targets = None, None, [], {}
        self.tokens = {}
        self.round_index = 0
        self.players_onehot[PLAYER_COUNTS.index(n)] = 1
        self.additions[0] = int(game.additions)
        self.camp[:] = BAND_START
        self.oak[:] = OAK_START
        self.gold[:] = GOLD_START
        self.pit[0] = GOLD_BAGS - GOLD_START * n
        self.equip_left[0] = len(self.equip_deck)
        self.figure[int(rng.integers(n))] = 1
        self.push(Kind.PREP, 0, 0)
        self._start_round()
        return self

    def _start_round(self) -> None:
        self.round_index += 1
        self.round_no[0] = self.round_index
        self.attack_phase[0] = 0
        self.emptied.fill(0)
        self._lay_out()
        self.next_turn(Kind.PREP, self.figure_seat, 0)

    def _next_prep(self, after: int) -> None:
        """The next seat clockwise after ``after`` with outlaws in camp, or the attacks
        ("End: the preparation phase ends when all camps are empty")."""
        camps = self.camp.tolist()
        for p in self._seats_from(after + 1):
            if camps[p] > 0:
                self.next_turn(Kind.PREP, p, 0)
                return
        self._start_attacks()

    def _note_emptied(self, seats: Sequence[int]) -> None:
        """Seats whose camps may just have emptied, in the order the rewards go to them
        (rulebook, "End of Preparation": the first a fame point, the second the starting
        player card; "Tie: ... clockwise starting from the one who acted during another
        player's turn")."""
        camps, emptied = self.camp.tolist(), self.emptied.tolist()
        rank = None
        for p in seats:
            if camps[p] == 0 and emptied[p] == 0:
                if rank is None:
                    rank = sum(1 for e in emptied if e)      # camps emptied before
                rank += 1
                emptied[p] = rank
                self.emptied[p] = rank
                if rank == FIRST_TO_EMPTY:
                    self.fame[p] += FIRST_EMPTY_FAME
                elif rank == SECOND_TO_EMPTY:
                    self.card_holder.fill(0)
                    self.card_holder[p] = 1

    def _end_round(self) -> None:
        """Rulebook, "END OF THE ROUND": everyone home, new travellers, the figure to the
        poorest (the additions first give the fork bonus and clear the agreements)."""
        if self.game.additions:
            self._fork_bonus()
            self._end_agreements()
        self.camp += self.places.sum(axis=1) + self.ambush_outlaws.sum(axis=0)
        self.places.fill(0)
        self.ambush_outlaws.fill(0)
        self.ambush_leader.fill(0)
        self._return_promised(range(NUM_AMBUSHES))
        if self.round_index >= ROUNDS:
            self._end_of_the_game()
            return
        self.round_gold.fill(0)
        self.round_comrades.fill(0)
        # The poorest player (the figure's holder excluded) takes the figure; ties go to the
        # first tied player clockwise from the previous holder.
        prev = self.figure_seat
        gold = self.gold.tolist()
        candidates = [p for p in self._seats_from(prev + 1) if p != prev]
        poorest = min(gold[p] for p in candidates)
        new = next(p for p in candidates if gold[p] == poorest)
        self.figure.fill(0)
        self.figure[new] = 1
        self._start_round()

    def _end_agreements(self) -> None:
        """(Additions) Provisions, agreements, loot laid out in advance and pledges end with
        the round (rulebook, "End of the Round (with the additions)", 2: "promised shares of
        loot that were not collected are returned to the money pit or under the oak"; the
        basic game never sets them, so it skips this)."""
        self.provisioned.fill(0)
        for amb in list(self.targets):
            self._void_agreement(amb)
        self.pit[0] += int(self.advance.sum())
        self.advance.fill(0)
        self.oak += self.advance_comrades.sum(axis=0)
        self.advance_comrades.fill(0)
        self.pledged.fill(0)

    def _fork_bonus(self) -> None:
        """(Additions) The most outlaws in the four red-circled forks: one more outlaw from
        under the oak; every tied contender gets one, none without a figure under the oak
        (rulebook, "End of the Round (with the additions)", 1)."""
        in_forks = self.ambush_outlaws[list(RED_FORKS)].sum(axis=0)
        top = int(in_forks.max())
        self.fork_bonus.fill(0)
        if top == 0:
            return
        for q in np.flatnonzero(in_forks == top).tolist():
            if self.oak[q] > 0:
                self.oak[q] -= 1
                self.camp[q] += 1
                self.fork_bonus[q] = 1
