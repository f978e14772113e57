"""(Additions) A planned attack: a traveller with an alliance token falls into the ambush
with the same token (Sherwood Forest rulebook, "Attacks (with the additions)": "Planned
attack", its "Equipment cards", "No attack", "Successful attack / division of loot" and
"Shortage of loot").

The allies' equipment promises (a number of cards kept in hand) are called in, the leader
saying the order (``call``), each ally playing his cards or renouncing (``pledge``); a
renounce calls the attack off. After a successful planned attack the informant first pays
the promised loot, from the traveller's loot and then his own camp's gold; what neither
covers, promises go without, the informant choosing whose (``shortfall``).
"""

from __future__ import annotations

import numpy as np

from .. import actions as A
from ..components import MAX_WEAPON_STRENGTH, NUM_WEAPON_KINDS, WEAPON_STRENGTH
from ..observation import Kind
from .phase_base import PhaseBase
from .records import Fight


class PlannedAttack(PhaseBase):
    """The ``call``, ``pledge`` and ``shortfall`` decisions (a mixin of ``SherwoodState``)."""

    __slots__ = ()

    # --- the equipment promises ---------------------------------------------------------------
    def _start_pledges(self, amb: int, strength: int, outlaws: int) -> bool:
        """A planned attack the outlaws alone cannot carry: each ally with a promise plays
        his promised number of cards or renounces; a renounce calls the attack off. "If there
        are doubts, the leader says in what order the allies must confirm this agreement or
        renounce it": the leader calls them one by one (``call``); the last is called alone."""
        order = self._participants(amb)
        pledgers = [q for q in order if self.pledged[amb, q] > 0]
        self.fight = Fight(ambush=amb, strength=strength, order=order, total=outlaws,
                           pledgers=pledgers)
        self._next_pledger()
        return True

    def _next_pledger(self) -> None:
        assert self.fight is not None
        f = self.fight
        leader, rest = f.order[0], f.pledgers
        if len(rest) > 1:
            kind, player = Kind.CALL, leader
        else:
            kind, player = Kind.PLEDGE, rest.pop()
        if self.decisions[-1].kind in (Kind.PLEDGE, Kind.CALL):
            self.replace(kind, player, f.ambush, f.strength, f.total, leader)
        else:
            self.push(kind, player, f.ambush, f.strength, f.total, leader)

    def _mask_call(self, d, mask) -> None:
        assert self.fight is not None
        self._mark_seats(mask, A.CALL, d.player, self.fight.pledgers)

    def _why_call(self, d, a: int) -> str | None:
        return "the leader calls an ally whose equipment promise is still to be confirmed"

    def _apply_call(self, d, a: int) -> None:
        assert self.fight is not None
        f = self.fight
        q = self._seat_named(A.CALL, d.player, a)
        f.pledgers.remove(q)
        self.replace(Kind.PLEDGE, q, f.ambush, f.strength, f.total, f.order[0])

    def _mask_pledge(self, d, mask) -> None:
        """"The time has come to find out whether the obligations will be fulfilled": a
        weapon card of his hand towards his promise, or renounce it."""
        mask[A.EQUIP.start:A.EQUIP.stop] = self.hand[d.player, :NUM_WEAPON_KINDS] > 0
        mask[A.RENOUNCE.start] = 1

    def _why_pledge(self, d, a: int) -> str | None:
        return ("the ally plays a weapon card of his hand towards his promise or renounces it"
                if a in A.EQUIP else None)

    def _apply_pledge(self, d, a: int) -> None:
        assert self.fight is not None
        f, q = self.fight, d.player
        amb, leader = f.ambush, f.order[0]
        if a == A.RENOUNCE.start:
            # "The planned attack is called off if the equipment cards are not applied in
            # full. Cards already played go to the discard pile."
            self.pop()
            self.fight = None
            if not self._fall_short(amb):
                self._drive_on()
            return
        (k,) = A.EQUIP.index(a)
        self.hand[q, k] -= 1
        self.hand_count[q] -= 1
        self.played[q, k] += 1
        f.total += WEAPON_STRENGTH[k]
        if f.total >= f.strength:            # must attack: the strength is reached
            self.pop()
            self.fight = None
            self._win(amb, promised_needed=True)
            return
        if self.played[q].sum() < self.pledged[amb, q]:
            self.replace(Kind.PLEDGE, q, amb, f.strength, f.total, leader)
            return
        if f.pledgers:
            self._next_pledger()
            return
        # Every promise kept and still short: cards from hand, as at any ambush.
        self.pop()
        hands = self.hand_count.tolist()
        reach = f.total + sum(MAX_WEAPON_STRENGTH * min(self._capacity(amb, x), hands[x])
                              for x in f.order)
        if reach < f.strength or not self._ask_equip():
            self.fight = None
            if not self._fall_short(amb):
                self._drive_on()

    # --- the binding agreement kept -----------------------------------------------------------
    def _keep_agreement(self) -> None:
        """A planned attack: "first the informant must fulfil the requirements of the binding
        agreements, and only then divide the remainder of the loot". The traveller's gold
        covers the bags laid out first; the informant pays any shortfall from his camp; what
        he cannot pay, promises go without, the informant choosing whose (``shortfall``).
        The traveller's comrades cover the comrades laid out first; a comrade shortfall cannot
        be paid ("the informant cannot pay with outlaws"): he chooses whose laid-out comrades
        go back under the oak."""
        assert self.loot is not None
        L = self.loot
        amb = L.ambush
        informant = int(self.informant[amb].argmax())
        owed = int(self.advance[amb].sum())
        covered = min(L.gold, owed)
        L.gold -= covered
        pay = min(owed - covered, int(self.gold[informant]))
        self.gold[informant] -= pay
        self.pit[0] += pay
        owed_c = int(self.advance_comrades[amb].sum())
        covered_c = min(L.comrades, owed_c)
        L.comrades -= covered_c
        L.informant = informant
        L.short_bags = owed - covered - pay
        L.short_comrades = owed_c - covered_c
        self._settle_shortfall()

    def _settle_shortfall(self) -> None:
        """Withdraw the promises the loot and the informant cannot cover ("If he has no gold
        in his camp either, the allies may leave empty-handed"). The informant decides whose
        promise goes without; the engine withdraws alone only where his choice cannot
        matter: a single recipient still owed, or a shortfall as large as everything still
        owed (every promise goes without in full)."""
        assert self.loot is not None
        L = self.loot
        amb = L.ambush
        for bags in (True, False):
            laid = self.advance if bags else self.advance_comrades
            while self._short(bags) > 0:
                owed = laid[amb].tolist()
                due = [q for q in range(self.num_players) if owed[q] > 0]
                if len(due) > 1 and self._short(bags) < sum(owed):
                    self._push_or_replace(Kind.SHORTFALL, L.informant, amb, L.short_bags,
                                          L.short_comrades)
                    return
                for q in due:
                    self._withhold(bags, q, min(self._short(bags), owed[q]))
        self._collect_promises()

    def _short(self, bags: bool) -> int:
        """Promised bags (or comrades) still to withhold."""
        assert self.loot is not None
        return self.loot.short_bags if bags else self.loot.short_comrades

    def _withhold(self, bags: bool, q: int, k: int) -> None:
        """k of q's laid-out bags go back to the pit (comrades: back under the oak)."""
        assert self.loot is not None
        L = self.loot
        if bags:
            self.advance[L.ambush, q] -= k
            self.pit[0] += k
            L.short_bags -= k
        else:
            self.advance_comrades[L.ambush, q] -= k
            self.oak[q] += k
            L.short_comrades -= k

    def _mask_shortfall(self, d, mask) -> None:
        """A recipient still owed a laid-out bag while bags are short, then a comrade."""
        ambush, bags, _ = d.data
        laid = self.advance if bags else self.advance_comrades
        start = A.WITHHOLD.id(A.WITHHOLD_BAG if bags else A.WITHHOLD_COMRADE, 0)
        for q in np.flatnonzero(laid[ambush]).tolist():
            mask[start + (q - d.player) % self.num_players] = 1

    def _why_shortfall(self, d, a: int) -> str | None:
        return ("the informant withholds a promised bag (while bags are short, then a comrade) "
                "from a recipient still owed one")

    def _apply_shortfall(self, d, a: int) -> None:
        kind, r = A.WITHHOLD.index(a)
        self._withhold(kind == A.WITHHOLD_BAG, (d.player + r) % self.num_players, 1)
        self._settle_shortfall()

    def _collect_promises(self) -> None:
        """The recipients collect what is still laid out for them; the agreement ends, and
        the rest of the loot is shared by the basic rules."""
        assert self.loot is not None
        amb = self.loot.ambush
        bags, comrades = self.advance[amb].copy(), self.advance_comrades[amb].copy()
        self.gold += bags
        self.camp += comrades          # collected comrades join the band
        if self.sixth_round:
            self.round_gold += bags
            self.round_comrades += comrades
        self.advance[amb] = 0
        self.advance_comrades[amb] = 0
        self._void_agreement(amb)
        self._share_loot()
