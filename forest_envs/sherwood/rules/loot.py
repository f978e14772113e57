"""Sharing the loot of a successful attack, and what follows it (Sherwood Forest rulebook,
"Successful attack": "Dividing loot and fame" 1-3 and its example; "After a successful
attack"; with the additions "Spontaneous attack" and "Special item cards: Provisions").

The loot is handed out one share at a time, a share being a bag or a comrade, a comrade only
to a player with a figure of his colour under the oak ("Of course, the leader can give a new
comrade only to a player who still has outlaw figures under the oak"; the project's reading,
docs/sherwood.md, item 11). Rounds: one share per participant whose outlaws are not all
served (the allies before the leader in the first round only); what is left once nobody
else can take a share the leader keeps ("the leader receives the loot"; "the leader keeps
the rest"), a comrade he cannot take stays under the oak.

**Counts.** Whether shares can be filled is a question of counts: shares s (one count per
seat) can be filled with the bags and comrades iff the shares beyond the bags
(sum(s) - gold) are at most the comrades and at most sum(min(s_q, oak_q)) (``_fits``). An
ally's share is given wherever the loot can still fill it ("to each ally (if possible)"),
whether it becomes a bag or a comrade being settled at the end (``comrade``): that keeps
every later ally's share possible wherever some choice of kinds would. The leader's own
share is his choice as he takes it (the reading: "a bag, or a comrade while he has figures
under the oak, also where that choice changes what an ally gets in a later round"): a bag he
takes is a bag for good (``own_bags``: his term of the sum above is min(s - own_bags, oak)),
a comrade a comrade (in ``comrades_got`` at once).

**Where the engine decides alone, and why that loses nothing.** With s fixed, write
slack = gold - own_bags - sum over seats of (shares beyond his figures under the oak), the
bags left for shares that can only be bags (the leader's counted without his own bags); a
further share fits iff slack stays >= 0 and some bag or comrade is left. A share to a seat
with room under the oak leaves slack as it is; any other takes one. So:

1. Leaving the leader's share open (a comrade or a bag, settled at the end) fits exactly
   where taking it as a comrade would: the comrade takes one of the loot's comrades and one
   of his figures, so both the shares beyond the bags and his room fall by one. His comrade
   now or at the end is the same hand-out.
2. Taking it as a bag lowers slack by one, and only while his shares not taken as bags are
   at most his figures under the oak (beyond that one of them has to be a bag anyway).
   The lower slack can refuse a later share only where slack binds: not where the loot's
   comrades run out first (the room for comrades, sum(min(s_q, oak_q)), above the comrades:
   it never falls, so every later check fails on the comrades alike), and not where the
   allies' shares still to come that can only be bags (each ally's outlaws beyond his
   figures under the oak, less those already served) are fewer than slack (each takes one,
   so none of them is refused). In those positions every later check gives the same answer
   either way, the same shares are handed out, and a bag of his among them is one of the
   ends the final ``comrade`` choice offers.

So the leader is asked about his own share (``share`` with ``own`` = 1: ``give a share to
self`` takes it as a bag, ``give a comrade to self`` as a comrade) at the end of each round
in which he took one, where a comrade is possible (one is left for him, and his shares not
taken as bags are more than those taken as comrades and at most his figures), a bag is
possible (slack >= 1) and neither case of 2. holds; elsewhere the engine leaves it open. In the rest the engine decides only where there
is nothing to choose, as before: a round whose participants can all take a share gives each
one (the rule); a participant who cannot take any share that is left is passed over (he
could only be given a comrade without a figure under the oak); a comrade goes to the one
participant who can take it or, when the comrades to place equal the room for them, to every
such share. Everything else is the leader's: who gets the shares of a round that cannot
serve every participant left in it (``share``), his own share's kind, and which shares are
comrades (``comrade``). tests/sherwood/test_loot.py compares every hand-out the engine
reaches, over every choice, with the rounds played with the leader asked at every share of
his own.
"""

from __future__ import annotations

from .. import actions as A
from ..components import PROVISIONS, Traveller
from ..observation import Kind
from .phase_base import PhaseBase
from .records import Loot, ProvisionsQuestions

# Decisions of the loot's hand-out that the next one replaces on the stack.
_LOOT_KINDS = (Kind.SHARE, Kind.COMRADE, Kind.PROVISIONS, Kind.SHORTFALL)
_SHARE_OUT_KINDS = (Kind.SHARE, Kind.COMRADE, Kind.SHORTFALL)


class LootSharing(PhaseBase):
    """The ``share``, ``comrade`` and ``provisions`` decisions (a mixin of ``SherwoodState``)."""

    __slots__ = ()

    def _take_loot(self, amb: int, order: list[int], card: Traveller) -> None:
        """"The leader of the ambush receives the loot": the traveller's gold is what the
        pit still holds (with the bags of an agreement laid out from it: they are part of
        this loot); the Sheriff brings fame only. A planned attack keeps its agreement first
        (``planned_attack.py``); a spontaneous attack, or beating the Sheriff, ends any
        agreement of the ambush ("the leader divides the loot as evenly as possible (by the
        basic rules)")."""
        assert self.coach is not None
        self.loot = Loot(ambush=amb, order=order, gold=card.gold, comrades=card.comrades)
        self.shares.fill(0)              # this robbery's shares, none given yet
        if self.targets.get(amb) == self.coach.card:
            self._keep_agreement()
            return
        self._void_agreement(amb)
        self._share_loot()

    def _ask_leader(self, kind: int, *data: int) -> None:
        """A decision of the leader's in the hand-out, with the shares so far shown."""
        assert self.loot is not None
        self._show_shares()
        self._push_or_replace(kind, self.loot.leader, *data)

    def _show_shares(self) -> None:
        """The ``shares`` block, written from the loot's record only: each participant's
        shares given so far, of which comrades (during the hand-out those the leader took as
        his own; once it is paid, every comrade)."""
        assert self.loot is not None
        L = self.loot
        for q in L.order:
            self.shares[q] = (L.shares[q], L.comrades_got[q])

    def _push_or_replace(self, kind: int, player: int, *data: int) -> None:
        if self.decisions[-1].kind in _LOOT_KINDS:
            self.replace(kind, player, *data)
        else:
            self.push(kind, player, *data)

    def _share_loot(self) -> None:
        """"If the number of shares in the loot equals the number of outlaws in the ambush,
        each outlaw brings his player one share of the loot"; else the share-out rounds."""
        assert self.loot is not None
        L = self.loot
        gold = min(L.gold, int(self.pit[0]))
        if gold + L.comrades == 0:       # nothing to share: the shares block stays empty
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
        """Whether these share counts can all be filled with the loot's bags and comrades
        (the leader's own bags are bags: they take no room for comrades)."""
        assert self.loot is not None
        L = self.loot
        need = sum(shares) - L.gold      # shares that must be comrades
        if need <= 0:
            return True
        return need <= L.comrades and need <= self._room_for_comrades(shares)

    def _room_for_comrades(self, shares: list[int]) -> int:
        """How many of these shares can be comrades: each seat's shares up to his figures
        under the oak, the leader's without those he took as bags."""
        assert self.loot is not None
        L = self.loot
        q = L.leader
        own = shares[q]
        shares[q] -= L.own_bags
        room = sum(map(min, shares, L.oak))
        shares[q] = own
        return room

    def _fits_one_more(self, q: int) -> bool:
        assert self.loot is not None
        shares = self.loot.shares
        shares[q] += 1
        ok = self._fits(shares)
        shares[q] -= 1
        return ok

    def _share_out(self) -> None:
        """"If there are fewer shares than outlaws, the leader gives one share of the loot to
        each ally (if possible) ... The procedure is repeated until all the loot has been
        handed out": rounds until a choice is the leader's."""
        assert self.loot is not None
        L = self.loot
        order, leader, outlaws, shares = L.order, L.leader, L.outlaws, L.shares
        while True:
            tier = [q for q in L.tier if self._fits_one_more(q)]
            if not tier:
                if L.tiers:
                    L.tier = L.tiers.pop(0)
                    continue
                if L.own_round < L.round and shares[leader] > L.leader_before:
                    L.own_round = L.round     # the round is over: his own share's kind
                    if self._own_share_matters():
                        self._ask_leader(Kind.SHARE, 0, 1)
                        return
                unserved = [q for q in order if shares[q] < outlaws[q] and self._fits_one_more(q)]
                if not unserved:
                    break
                L.round += 1
                L.leader_before = shares[leader]
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
            self._ask_leader(Kind.SHARE, picks, 0)
            return
        self._leader_keeps_the_rest()

    def _own_share_matters(self) -> bool:
        """Whether taking the share the leader took this round as a bag rather than a comrade
        can change what an ally can still get (the module's docstring, 2.); elsewhere it is
        left open and settled with the other comrades at the end. A comrade is possible when
        his open shares (not taken as bags) are at most his figures under the oak and the
        room for comrades, which counts them, is at most the loot's comrades: the share he
        just took is open, so his open shares outnumber those he took as comrades."""
        assert self.loot is not None
        L = self.loot
        q, shares, oak = L.leader, L.shares, L.oak
        room = self._room_for_comrades(shares)
        # The bags left for shares that can only be bags: a bag of his takes one, so he can
        # take one only while there is one; it refuses an ally's later share only where the
        # allies' bag-only shares still to come (none for a served ally) are as many.
        slack = room - (sum(shares) - L.gold)
        bag_only = sum(max(0, L.outlaws[a] - oak[a]) - max(0, shares[a] - oak[a])
                       for a in L.order if a != q)
        return (shares[q] - L.own_bags <= oak[q] and room <= L.comrades
                and 1 <= slack <= bag_only)

    def _tier_room(self, tier: list[int]) -> int:
        """How many of the tier can still get a share (greedy is exact on a matroid)."""
        assert self.loot is not None
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
        assert self.loot is not None
        L = self.loot
        while self._fits_one_more(L.leader):
            L.shares[L.leader] += 1
        # The comrades still to hand out: the shares beyond the bags, less those the leader
        # took as his own; the rest stay under the oak.
        L.comrades = sum(L.shares) - L.gold - sum(L.comrades_got)
        self._assign_comrades()

    def _mask_share(self, d, mask) -> None:
        """The example: "She may take the remaining bag of gold for herself or give it to
        Vasily as thanks for his help"; and the leader's own share of the round just ended:
        a bag (``give a share to self``) or a comrade (``give a comrade to self``)."""
        assert self.loot is not None
        picks, own = d.data
        if own:
            mask[A.SHARE.start] = 1
            mask[A.COMRADE.start] = 1
            return
        self._mark_seats(mask, A.SHARE, d.player, self.loot.tier)

    def _why_share(self, d, a: int) -> str | None:
        picks, own = d.data
        if own:
            return ("the leader takes his own share of this round as a bag (give a share to "
                    "self) or as a comrade (give a comrade to self); nobody else is named here")
        return ("this round's remaining shares go to participants not yet served in it who can "
                "still take one (a comrade only with a figure under the oak)")

    def _apply_share(self, d, a: int) -> None:
        assert self.loot is not None
        L = self.loot
        picks, own = d.data
        if own:
            if a in A.COMRADE:
                L.comrades_got[L.leader] += 1
            else:
                L.own_bags += 1
            self._share_out()
            return
        q = self._seat_named(A.SHARE, d.player, a)
        L.shares[q] += 1
        L.tier.remove(q)
        self._share_out()

    def _assign_comrades(self) -> None:
        assert self.loot is not None
        L = self.loot
        got = L.comrades_got
        if L.comrades > 0:
            room = self._comrade_room()
            takers = [q for q in L.order if room[q] > 0]
            if len(takers) > 1 and sum(room) > L.comrades:
                self._ask_leader(Kind.COMRADE, L.comrades)
                return
            for q in takers:               # no choice left: every taker fills his room
                k = min(room[q], L.comrades)
                got[q] += k
                L.comrades -= k
        if self.decisions[-1].kind in _SHARE_OUT_KINDS:
            self.pop()
        self._pay_loot()

    def _mask_comrade(self, d, mask) -> None:
        assert self.loot is not None
        room = self._comrade_room()
        self._mark_seats(mask, A.COMRADE, d.player, [q for q in self.loot.order if room[q] > 0])

    def _why_comrade(self, d, a: int) -> str | None:
        return ("a comrade goes to a participant with a share not yet a comrade and a figure "
                "under the oak")

    def _apply_comrade(self, d, a: int) -> None:
        assert self.loot is not None
        L = self.loot
        q = self._seat_named(A.COMRADE, d.player, a)
        L.comrades_got[q] += 1
        L.comrades -= 1
        self._assign_comrades()

    def _pay_loot(self) -> None:
        """The shares change hands: bags from the pit to the camps, comrades from under the
        oak into the camps (sixth round: counted for the end of the game)."""
        assert self.loot is not None
        L = self.loot
        self._show_shares()
        sixth = self.sixth_round
        for q in L.order:
            com = L.comrades_got[q]
            bags = L.shares[q] - com
            self.gold[q] += bags
            self.pit[0] -= bags
            self.oak[q] -= com
            self.camp[q] += com
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
        assert self.provisioning is not None
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
        assert self.coach is not None
        for q in stays:
            self.provisioned[amb, q] = 1
        self._leave_ambush(amb, order, stays)
        self.removed.append(self.coach.card)
        self._next_lead()
