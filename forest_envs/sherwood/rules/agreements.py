"""(Additions) Binding agreements made with an offer (Sherwood Forest rulebook, ADDITIONS:
"Exchange", "Agreements" and "Binding agreements").

With the additions an offer may mark a laid-out traveller as its target (``target``); the
informant, the performer or an asked ally who looked at the target in the inn, insists on it
(``informant``); and each asked ally's terms are settled (``terms``): bags and comrades of the
loot promised to him, laid out in advance, and gold the performer pays him at once. A formed
alliance binds: a token pair on the ambush and the target, the promised loot laid out from
the pit and from under the oak. The agreement ends when its target has driven, when the
ambush is crushed or robs another traveller, and at the round's end
(``planned_attack.py`` keeps it).
"""

from __future__ import annotations

from .. import actions as A
from ..components import ALLIANCE_LETTERS
from ..observation import Kind
from .phase_base import PhaseBase
from .records import Offer

NO_SEAT = -1        # the token pair of an agreement lies on (ambush, NO_SEAT) in ``tokens``


class Agreements(PhaseBase):
    """The ``target``, ``informant`` and ``terms`` decisions and the binding agreement they
    make (a mixin of ``SherwoodState``)."""

    __slots__ = ()

    def _mask_target(self, d, mask) -> None:
        """"The informant uses a pair of identical alliance tokens to mark the ambush and the
        chosen traveller card (face up or face down)": any laid-out traveller, while a token
        pair is free; or no target."""
        mask[A.TARGET_NONE.start] = 1
        if self._tokens_free() > 0:
            mask[A.TARGET.start:A.TARGET.stop] = self.slot_present

    def _why_target(self, d, a: int) -> str | None:
        return "the target must be a laid-out traveller and a token pair must be free"

    def _apply_target(self, d, a: int) -> None:
        assert self.offer is not None
        o = self.offer
        if a in A.TARGET:
            (s,) = A.TARGET.index(a)
            o.target = s
            self._show_offer("target")
            if any(self.slot_marked[s, q] for q in o.allies):
                self.replace(Kind.INFORMANT, d.player, o.ambush, o.own)
                return
        self._ask_ally(d.player)

    def _mask_informant(self, d, mask) -> None:
        """"The informant is the player who has information about a certain traveller and
        insists on forming an alliance to attack that traveller. The informant may also
        become the leader, although this is not obligatory": the performer, or a seat he may
        ask who looked at the target in the inn (his marker lies on it: public)."""
        assert self.offer is not None
        o = self.offer
        mask[A.INFORMANT.start] = 1
        self._mark_seats(mask, A.INFORMANT, d.player,
                         [q for q in o.allies if self.slot_marked[o.target, q]])

    def _why_informant(self, d, a: int) -> str | None:
        return ("the informant is the performer or a player he may ask (outlaws in camp) who "
                "looked at the target in the inn")

    def _apply_informant(self, d, a: int) -> None:
        assert self.offer is not None
        self.offer.informant = self._seat_named(A.INFORMANT, d.player, a)
        self._show_offer("informant")
        self._ask_ally(d.player)

    def _mask_terms(self, d, mask) -> None:
        """"An exchange of gold and shares of future loot between players is possible ...
        Outlaws, fame points and equipment cards cannot be exchanged": loot is promised by
        the informant to the other participants (the performer too, when the informant is an
        ally), only with a marked target, bags as far as the pit can lay them out and
        comrades from the recipient's own figures under the oak; gold now is paid by the
        performer to an ally ("the performer is the main party to any agreement")."""
        assert self.offer is not None
        _, _, ally = d.data
        o, p, q = self.offer, d.player, ally
        promised = sum(t[0] for t in o.terms.values())
        paid = sum(t[1] for t in o.terms.values())
        loot = o.target >= 0 and q != o.informant
        top_g = min(A.MAX_PROMISED_LOOT, int(self.pit[0]) - promised) if loot else 0
        top_c = min(A.MAX_PROMISED_COMRADES, int(self.oak[q])) if loot else 0
        top_k = min(A.MAX_PAYMENT, int(self.gold[p]) - paid) if q != p else 0
        terms = mask[A.TERMS.start:A.TERMS.stop].reshape(A.TERMS.shape)
        terms[:top_g + 1, :top_k + 1, :top_c + 1] = 1

    def _why_terms(self, d, a: int) -> str | None:
        return ("loot can be promised only for a marked target and not to the informant: bags "
                "only as far as the pit can advance them, comrades only from the recipient's own "
                "figures under the oak; gold paid now goes from the performer's camp to an ally")

    def _apply_terms(self, d, a: int) -> None:
        assert self.offer is not None
        _, _, ally = d.data
        q = ally
        self.offer.terms[q] = A.TERMS.index(a)
        self._show_offer("terms")
        if q == d.player:
            self._after_asks(d.player)
        else:
            self._next_ally(d.player)

    def _bind_agreement(self, o: Offer, used: set) -> None:
        """"All items (outlaws, alliance markers, gold, etc.) are laid out in the places
        agreed in advance": gold paid with the offer changes hands; a marked target gets a
        token pair on it and the ambush, and "the informant takes the loot (gold from the pit
        and comrades from under the oak) and hands out the agreed shares"."""
        p, amb = o.performer, o.ambush
        sixth = self.sixth_round
        for q, (g, k, c) in o.terms.items():
            self.gold[p] -= k
            self.gold[q] += k
            if sixth:
                self.round_gold[q] += k
            self.advance[amb, q] = g
            self.pit[0] -= g
            self.advance_comrades[amb, q] = c     # the ally's own figures, from under the oak
            self.oak[q] -= c
        if o.target >= 0:
            letter = next(i for i in range(len(ALLIANCE_LETTERS)) if i not in used)
            self.tokens[(amb, NO_SEAT)] = letter
            self.targets[amb] = self.slots[o.target]
            self.ambush_target[amb, o.target] = 1
            self.informant[amb, o.informant] = 1

    def _void_agreement(self, amb: int) -> None:
        """The binding agreement of an ambush ends: uncollected loot goes back to the pit
        and under the oak."""
        if not self.game.additions:     # only the additions make agreements: nothing to undo
            return
        self.pit[0] += int(self.advance[amb].sum())
        self.advance[amb] = 0
        self.oak += self.advance_comrades[amb]
        self.advance_comrades[amb] = 0
        self.pledged[amb] = 0
        self.targets.pop(amb, None)
        self.tokens.pop((amb, NO_SEAT), None)
        self.ambush_target[amb] = 0
        self.informant[amb] = 0
