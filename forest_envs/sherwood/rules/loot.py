"""Sharing the loot of a successful attack, and what follows it (Sherwood Forest rulebook,
"Successful attack": "Dividing loot and fame" 1-3 and its example; "After a successful
attack"; with the additions "Spontaneous attack" and "Special item cards: Provisions").

The loot is handed out one share at a time, a share being a bag or a comrade, a comrade only
to a player with a figure of his colour under the oak ("Of course, the leader can give a new
comrade only to a player who still has outlaw figures under the oak"; the project's reading,
docs/sherwood.md). Rounds: one share per participant whose outlaws are not all served (the
allies before the leader in the first round only); what is left once nobody else can take a
share the leader keeps ("the leader receives the loot"; "the leader keeps the rest"), a
comrade he cannot take stays under the oak.

Which share counts can be filled is decided by counts alone: shares s (one per seat) can be
filled with the bags and comrades iff the shares beyond the bags (sum(s) - gold) are at most
the comrades and at most sum(min(s_q, oak_q)) (``_fits``). Those fillable sets of single
shares form a matroid (a flow network: each share to its seat, a seat to the bags or, up to
oak_q, to the comrades), so every way of adding shares while one fits ends with the same
number: all the bags and as many comrades as any distribution could hand out. Hence no
choice of the leader loses a share, and the engine decides alone only where nothing is left
to choose: a round's participants who can all take a share get one each (the rule), a
participant who cannot take any share that is left is passed over (he could only be given a
comrade without a figure under the oak), and a comrade goes to the one participant who can
take it or, when the comrades to place equal the room for them, to every such share.
Everything else is the leader's: who gets the shares of a round that cannot serve every
participant left in it (``share``), and which shares are comrades (``comrade``).
"""

from __future__ import annotations

from .. import actions as A
from ..components import PROVISIONS, Traveller
from ..observation import Kind
from .records import Loot, ProvisionsQuestions

# Decisions of the loot's hand-out that the next one replaces on the stack.
_LOOT_KINDS = (Kind.SHARE, Kind.COMRADE, Kind.PROVISIONS, Kind.SHORTFALL)
_SHARE_OUT_KINDS = (Kind.SHARE, Kind.COMRADE, Kind.SHORTFALL)


class LootSharing:
    """The ``share``, ``comrade`` and ``provisions`` decisions (a mixin of ``SherwoodState``)."""

    __slots__ = ()

    def _take_loot(self, amb: int, order: list[int], card: Traveller) -> None:
        """"The leader of the ambush receives the loot": the traveller's gold is what the
        pit still holds (with the bags of an agreement laid out from it: they are part of
        this loot); the Sheriff brings fame only. A planned attack keeps its agreement first
        (``planned_attack.py``); a spontaneous attack, or beating the Sheriff, ends any
        agreement of the ambush ("the leader divides the loot as evenly as possible (by the
        basic rules)")."""
        self.loot = Loot(ambush=amb, order=order, gold=card.gold, comrades=card.comrades)
        if self.targets.get(amb) == self.coach.card:
            self._keep_agreement()
            return
        self._void_agreement(amb)
        self._share_loot()

    def _push_or_replace(self, kind: int, player: int, *data: int) -> None:
        if self.decisions[-1].kind in _LOOT_KINDS:
            self.replace(kind, player, *data)
        else:
            self.push(kind, player, *data)

    def _share_loot(self) -> None:
        """"If the number of shares in the loot equals the number of outlaws in the ambush,
        each outlaw brings his player one share of the loot"; else the share-out rounds."""
        L = self.loot
        gold = min(L.gold, int(self.pit[0]))
        if gold + L.comrades == 0:
            self.loot = None
            self._after_success(L.ambush)
            return
        n = self.num_players
        outlaws = [0] * n
        for q in L.order:
            outlaws[q] = self.ambush_outlaws.item(L.ambush, q)
        L.gold, L.leader, L.outlaws, L.oak = gold, L.order[0], outlaws, self.oak.tolist()
        L.shares, L.comrades_got = [0] * n, [0] * n
        if self._fits(outlaws):            # every outlaw brings his player one share
            L.shares = list(outlaws)
            self._leader_keeps_the_rest()
            return
        self._share_out()

    def _fits(self, shares: list[int]) -> bool:
        """Whether these share counts can all be filled with the loot's bags and comrades."""
        L = self.loot
        need = sum(shares) - L.gold      # shares that must be comrades
        if need <= 0:
            return True
        return need <= L.comrades and need <= sum(map(min, shares, L.oak))

    def _fits_one_more(self, q: int) -> bool:
        shares = self.loot.shares
        shares[q] += 1
        ok = self._fits(shares)
        shares[q] -= 1
        return ok

    def _share_out(self) -> None:
        """"If there are fewer shares than outlaws, the leader gives one share of the loot to
        each ally (if possible) ... The procedure is repeated until all the loot has been
        handed out": rounds until a choice is the leader's."""
        L = self.loot
        order, leader, outlaws, shares = L.order, L.leader, L.outlaws, L.shares
        while True:
            tier = [q for q in L.tier if self._fits_one_more(q)]
            if not tier:
                if L.tiers:
                    L.tier = L.tiers.pop(0)
                    continue
                unserved = [q for q in order if shares[q] < outlaws[q] and self._fits_one_more(q)]
                if not unserved:
                    break
                L.round += 1
                allies = [q for q in unserved if q != leader]
                if L.round == 1 and allies and leader in unserved:
                    L.tier, L.tiers = allies, [[leader]]
                else:
                    L.tier = unserved
                continue
            picks = self._tier_room(tier)
            if picks == len(tier):
                for q in tier:
                    shares[q] += 1
                L.tier = []
                continue
            L.tier = tier
            self._push_or_replace(Kind.SHARE, leader, picks)
            return
        self._leader_keeps_the_rest()

    def _tier_room(self, tier: list[int]) -> int:
        """How many of the tier can still get a share (greedy is exact on a matroid)."""
        shares = list(self.loot.shares)
        room = 0
        for q in tier:
            shares[q] += 1
            if self._fits(shares):
                room += 1
            else:
                shares[q] -= 1
        return room

    def _leader_keeps_the_rest(self) -> None:
        L = self.loot
        while self._fits_one_more(L.leader):
            L.shares[L.leader] += 1
        # The comrades handed out: the shares beyond the bags; the rest stay under the oak.
        L.comrades = sum(L.shares) - L.gold
        self._assign_comrades()

    def _mask_share(self, d, mask) -> None:
        """The example: "She may take the remaining bag of gold for herself or give it to
        Vasily as thanks for his help"."""
        self._mark_seats(mask, A.SHARE, d.player, self.loot.tier)

    def _why_share(self, d, a: int) -> str | None:
        return ("this round's remaining shares go to participants not yet served in it who can "
                "still take one (a comrade only with a figure under the oak)")

    def _apply_share(self, d, a: int) -> None:
        L = self.loot
        q = self._seat_named(A.SHARE, d.player, a)
        L.shares[q] += 1
        L.tier.remove(q)
        self._share_out()

    def _comrade_room(self) -> list[int]:
        """How many more comrades each seat can take: shares not yet comrades, at most his
        figures under the oak."""
        L = self.loot
        return [min(s, o) - g for s, o, g in zip(L.shares, L.oak, L.comrades_got)]

    def _assign_comrades(self) -> None:
        L = self.loot
        got = L.comrades_got
        if L.comrades > 0:
            room = self._comrade_room()
            takers = [q for q in L.order if room[q] > 0]
            if len(takers) > 1 and sum(room) > L.comrades:
                self._push_or_replace(Kind.COMRADE, L.leader, L.comrades)
                return
            for q in takers:               # no choice left: every taker fills his room
                k = min(room[q], L.comrades)
                got[q] += k
                L.comrades -= k
        if self.decisions[-1].kind in _SHARE_OUT_KINDS:
            self.pop()
        self._pay_loot()

    def _mask_comrade(self, d, mask) -> None:
        room = self._comrade_room()
        self._mark_seats(mask, A.COMRADE, d.player, [q for q in self.loot.order if room[q] > 0])

    def _why_comrade(self, d, a: int) -> str | None:
        return ("a comrade goes to a participant with a share not yet a comrade and a figure "
                "under the oak")

    def _apply_comrade(self, d, a: int) -> None:
        L = self.loot
        q = self._seat_named(A.COMRADE, d.player, a)
        L.comrades_got[q] += 1
        L.comrades -= 1
        self._assign_comrades()

    def _pay_loot(self) -> None:
        """The shares change hands: bags from the pit to the camps, comrades from under the
        oak into the camps (sixth round: counted for the end of the game)."""
        L = self.loot
        self.shares.fill(0)
        sixth = self.sixth_round
        for q in L.order:
            com = L.comrades_got[q]
            bags = L.shares[q] - com
            self.gold[q] += bags
            self.pit[0] -= bags
            self.oak[q] -= com
            self.camp[q] += com
            self.shares[q] = (bags + com, com)
            if sixth:
                self.round_gold[q] += bags
                self.round_comrades[q] += com
        self.loot = None
        self._after_success(L.ambush)

    # --- after a successful attack (rulebook, "After a successful attack") -------------------
    def _after_success(self, amb: int) -> None:
        """With the additions every participant is asked, in order, whether he plays
        provisions to stay (asking all of them reveals nothing about a hand)."""
        order = self._participants(amb)
        if self.game.additions:
            self.provisioning = ProvisionsQuestions(ambush=amb, order=order)
            self._push_or_replace(Kind.PROVISIONS, order[0], amb)
            return
        self._go_home(amb, order, [])

    def _mask_provisions(self, d, mask) -> None:
        """"By playing the provisions card you may leave your outlaws in the ambush after a
        successful attack. Return them to camp only after a second successful robbery": once
        per stay."""
        mask[A.PROVISIONS_NONE.start] = 1
        ambush, = d.data
        amb = ambush
        if self.hand[d.player, PROVISIONS] > 0 and not self.provisioned[amb, d.player]:
            mask[A.PROVISIONS.start] = 1

    def _why_provisions(self, d, a: int) -> str | None:
        return ("the player holds no provisions, or his outlaws here already stayed once"
                if a in A.PROVISIONS else None)

    def _apply_provisions(self, d, a: int) -> None:
        c, q = self.provisioning, d.player
        if a == A.PROVISIONS.start:
            self.hand[q, PROVISIONS] -= 1
            self.hand_count[q] -= 1
            self.equip_discard[PROVISIONS] += 1
            c.stay.append(q)
        c.asking += 1
        if c.asking < len(c.order):
            self.replace(Kind.PROVISIONS, c.order[c.asking], c.ambush)
            return
        self.pop()
        self.provisioning = None
        self._go_home(c.ambush, c.order, c.stay)

    def _go_home(self, amb: int, order: list[int], stays: list[int]) -> None:
        """"All allies lead their outlaws from the ambush back to their camps", except those
        who played provisions now (they stay until the next successful attack or the round's
        end); "The card of the robbed traveller is removed from the game"."""
        for q in stays:
            self.provisioned[amb, q] = 1
        self._leave_ambush(amb, order, stays)
        self.removed.append(self.coach.card)
        self._next_lead()
