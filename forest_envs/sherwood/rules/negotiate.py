"""The joint ambush (Sherwood Forest rulebook, "5.2 Preparing a joint attack": "a)
Negotiating an alliance" and "b) Alliance agreement"; the additions' "Negotiating an
alliance" and "Agreements": ``agreements.py`` adds the target, the informant and the terms).

The performer names the ambush and his own outlaws (a ``joint`` action), then asks each seat
with outlaws in camp, clockwise from him, for outlaws and cards (``ask``); he may tell the
loot of a traveller he looked at (``reveal``); the asked allies answer in turn (``answer``),
and one decline ends the offer. Once everyone accepted, the outlaws go into the ambush; in
the basic game promised cards are shown and the performer forms the ambush or gives it up
(``confirm``). A failed offer costs nothing: the performer decides again (at most
``MAX_OFFERS`` failed offers a turn).

The offer lives in one record (``records.Offer``); its observation blocks are written from it
by ``_show_offer`` only.
"""

from __future__ import annotations

import numpy as np

from .. import actions as A
from ..components import ALLIANCE_LETTERS, NUM_WEAPON_KINDS
from ..observation import F_COMRADES, F_FAME, F_GOLD, Kind
from .phase_base import PhaseBase
from .precomputed import ASK_IDS, ASK_PATTERNS, CARD_FEATURES
from .records import Offer

ACCEPTED = 1        # offer_answer: the seat accepted (a decline ends the offer at once)
NO_TARGET = A.MAX_SLOTS     # offer_target's last entry: no target marked
TOLD = 1            # slot_told's flag: the loot of this traveller was told in an offer


class Negotiation(PhaseBase):
    """The ``ask``, ``reveal``, ``answer`` and ``confirm`` decisions (a mixin of
    ``SherwoodState``)."""

    __slots__ = ()

    def _start_offer(self, p: int, amb: int, own: int, offers: int) -> None:
        allies = [q for q in self._seats_from(p + 1) if q != p and self.camp[q] > 0]
        self.offer = Offer(performer=p, ambush=amb, own=own, offers=offers, allies=allies,
                           informant=p)
        # No offer was under way: the blocks of what nobody has answered yet are clear.
        self._show_offer("ambush", "own", "offers", "target")
        if self.game.additions:
            self.replace(Kind.TARGET, p, amb, own)
        else:
            self._ask_ally(p)

    def _show_offer(self, *changed: str) -> None:
        """Write the offer's observation blocks from ``self.offer``; nothing else writes
        them. With no field named, every block (no offer: all of them cleared); else only
        the blocks of the ``changed`` record fields ("ambush", "own", "offers", "asked",
        "promise", "target", "informant", "terms"), which is all a rule changing one field
        needs."""
        o = self.offer
        if o is None:
            for block in (self.offer_ambush, self.offer_own, self.offers_made, self.offer_ask,
                          self.offer_answer, self.offer_target, self.offer_terms,
                          self.offer_informant):
                block.fill(0)
            return
        every = not changed
        if every or "ambush" in changed:
            self.offer_ambush.fill(0)
            self.offer_ambush[o.ambush] = 1
        if every or "own" in changed:
            self.offer_own[0] = o.own
        if every or "offers" in changed:
            self.offers_made[0] = o.offers
        if every or "asked" in changed:
            ask = self.offer_ask
            ask.fill(0)
            for q, c, e in o.asked:
                ask[q] = (c, e)
        if every or "promise" in changed:
            answer = self.offer_answer
            answer.fill(0)
            for q in o.promise:
                answer[q] = ACCEPTED
        if every or "target" in changed:
            self.offer_target.fill(0)
            self.offer_target[NO_TARGET if o.target < 0 else o.target] = 1
        if every or "target" in changed or "informant" in changed:
            # The informant is named with the target (a binding agreement needs one).
            self.offer_informant.fill(0)
            if o.target >= 0:
                self.offer_informant[o.informant] = 1
        if every or "terms" in changed:
            terms = self.offer_terms
            terms.fill(0)
            for q, t in o.terms.items():
                terms[q] = t

    # --- asking the allies (rulebook, "a) Negotiating an alliance") -------------------------
    def _ask_ally(self, p: int) -> None:
        """The performer's ``ask`` of the ally at ``offer.next_ally``."""
        assert self.offer is not None
        o = self.offer
        self.replace(Kind.ASK, p, o.ambush, o.own, o.offers, o.allies[o.next_ally])

    def _mask_ask(self, d, mask) -> None:
        """"The performer is free to ask an ally for exactly as many points of strength as he
        thinks he needs": outlaws up to the ally's camp, at most one card per outlaw (and a
        free token pair for the cards); somebody must be asked, the informant always."""
        assert self.offer is not None
        o = self.offer
        _, _, _, ally = d.data
        q = ally
        last = o.next_ally == len(o.allies) - 1
        cards_free = (self._tokens_free() - (o.target >= 0)
                      - sum(1 for _, _, e in o.asked if e > 0))
        top_c = self.camp.item(q)
        if self.game.additions:
            # Unmarked promises need no tokens; they matter only at a planned attack.
            top_e = min(self.hand_count.item(q), A.MAX_ASK_CARDS) if o.target >= 0 else 0
        else:
            top_e = min(self.hand_count.item(q), A.MAX_ASK_CARDS) if cards_free > 0 else 0
        must = (last and not o.asked) or q == o.informant   # the informant takes part
        mask[ASK_IDS] = ASK_PATTERNS[int(must), top_c, top_e]

    def _why_ask(self, d, a: int) -> str | None:
        return ("an ally can be asked for at most the outlaws in his camp and at most one card "
                "per outlaw from his hand (and a free pair of alliance tokens); somebody must be asked")

    def _apply_ask(self, d, a: int) -> None:
        assert self.offer is not None
        o = self.offer
        c, e = A.ASK.index(a)
        _, _, _, ally = d.data
        q = ally
        if c > 0:
            o.asked.append((q, c, e))
            self._show_offer("asked")
            if self.game.additions:
                self.replace(Kind.TERMS, d.player, o.ambush, c, q)
                return
        self._next_ally(d.player)

    def _next_ally(self, p: int) -> None:
        assert self.offer is not None
        o = self.offer
        o.next_ally += 1
        if o.next_ally < len(o.allies):
            self._ask_ally(p)
            return
        self._after_asks(p)

    def _after_asks(self, p: int) -> None:
        """Every seat was asked: (additions) the informant's promise to the performer when
        the informant is an ally, then the reveal or the answers."""
        assert self.offer is not None
        o = self.offer
        if o.informant != p and p not in o.terms:
            self.replace(Kind.TERMS, p, o.ambush, o.own, p)
            return
        if self.peek[p].any():
            self.replace(Kind.REVEAL, p, o.ambush, o.own)
        else:
            self._ask_next_answer()

    def _mask_reveal(self, d, mask) -> None:
        """"If the performer has information about a particular traveller, it can be used to
        draw players into the alliance": a traveller he looked at, still laid out."""
        mask[A.REVEAL.start:A.REVEAL.stop] = self.peek[d.player].any(axis=1) & (self.slot_present > 0)
        mask[A.REVEAL_NONE.start] = 1

    def _apply_reveal(self, d, a: int) -> None:
        """"In negotiations the performer only reveals the size of the loot, not how it is
        distributed": its fame, gold and comrades, never its strength."""
        assert self.offer is not None
        if a in A.REVEAL:
            (s,) = A.REVEAL.index(a)
            f = CARD_FEATURES[self.slots[s]]
            self.slot_told[s] = (TOLD, f[F_FAME], f[F_GOLD], f[F_COMRADES])
            self.offer.told = s
        self._ask_next_answer()

    # --- the answers (rulebook, "b) Alliance agreement") ------------------------------------
    def _ask_next_answer(self) -> None:
        """Push the next asked ally's answer, or form the ambush once all have accepted."""
        assert self.offer is not None
        o = self.offer
        answered = len(o.promise)   # each acceptance records its promise
        if answered < len(o.asked):
            q, c, e = o.asked[answered]
            if answered:
                self.replace(Kind.ANSWER, q, o.ambush, c, e, o.performer)
            else:
                self.push(Kind.ANSWER, q, o.ambush, c, e, o.performer)
            return
        self.pop()
        self._place_joint()
        if not self.game.additions and any(e for _, _, e in o.asked):
            # "If an ally has promised to send an outlaw with equipment, he now reveals and
            # places the equipment card ... If the allies' forces are insufficient, the
            # performer may give up this action and take another step."
            self.replace(Kind.CONFIRM, o.performer, o.ambush)
            return
        self._joint_formed()

    def _mask_answer(self, d, mask) -> None:
        """The ally accepts the performer's terms or declines ("The other players cannot
        agree on anything among themselves: the performer is the main party to any
        agreement"); accepting promises exactly the cards asked for, from his hand."""
        _, outlaws, cards, _ = d.data
        q, c, e = d.player, outlaws, cards
        mask[A.DECLINE.start] = 1
        if self.camp.item(q) < c:
            return
        if self.game.additions:
            # A promise of e cards is a public number; the cards stay hidden in hand.
            mask[A.ACCEPT.start] = 1
            return
        hand = self.hand[q, :NUM_WEAPON_KINDS].tolist()
        acc = mask[A.ACCEPT.start:A.ACCEPT.stop].reshape(A.ACCEPT.shape)
        for w0 in range(min(e, hand[0]) + 1):
            for w1 in range(min(e - w0, hand[1]) + 1):
                w2 = e - w0 - w1
                if w2 <= hand[2]:
                    acc[w0, w1, w2] = 1

    def _why_answer(self, d, a: int) -> str | None:
        if self.game.additions:
            return "with the additions an ally promises a number of cards, not which ones"
        _, _, cards, _ = d.data
        return f"an accepting ally promises exactly {cards} weapon cards from his hand"

    def _apply_answer(self, d, a: int) -> None:
        """"An alliance is formed only with the consent of all its participants" (the
        additions' "Agreements"): a decline ends the offer."""
        assert self.offer is not None
        q = d.player
        if a == A.DECLINE.start:
            self.pop()
            self._offer_failed()
            return
        self.offer.promise[q] = A.ACCEPT.index(a)      # the weapon cards by kind
        self._show_offer("promise")
        self._ask_next_answer()

    def _mask_confirm(self, d, mask) -> None:
        mask[A.CONFIRM.start:A.CONFIRM.stop] = 1

    def _apply_confirm(self, d, a: int) -> None:
        """"If the allies' forces are insufficient, the performer may give up this action and
        take another step": everyone takes his outlaws and cards back."""
        assert self.offer is not None
        if a == A.CONFIRM.id(A.CONFIRM_FORM):
            self._joint_formed()
            return
        o = self.offer
        amb = o.ambush
        self.camp += self.ambush_outlaws[amb]
        self.ambush_outlaws[amb] = 0
        self.ambush_leader[amb] = 0
        for q, _, e in o.asked:
            if e:
                self.hand[q, :NUM_WEAPON_KINDS] += self.promised[amb, q]
                self.hand_count[q] += e
                self.promised[amb, q] = 0
                self.tokens.pop((amb, q), None)
        self._offer_failed()

    def _offer_failed(self) -> None:
        """The performer decides again, with one more failed offer this turn."""
        assert self.offer is not None
        o = self.offer
        self.offer = None
        self._show_offer()
        self.replace(Kind.PREP, o.performer, o.offers + 1)

    def _place_joint(self) -> None:
        """"The allies place their outlaws from their camps into the ambush. One of the
        performer's outlaws is placed on the square leader's space"; promised cards are laid
        out marked with a lettered token pair (with the additions they stay in hand)."""
        assert self.offer is not None
        o = self.offer
        p, amb = o.performer, o.ambush
        self.camp[p] -= o.own
        self.ambush_outlaws[amb, p] = o.own
        self.ambush_leader[amb, p] = 1
        used = set(self.tokens.values())
        for q, c, e in o.asked:
            self.camp[q] -= c
            self.ambush_outlaws[amb, q] = c
            if e and self.game.additions:
                self.pledged[amb, q] = e          # unmarked: the cards stay in hand
            elif e:
                w = np.array(o.promise[q], np.int16)
                self.hand[q, :NUM_WEAPON_KINDS] -= w
                self.hand_count[q] -= e
                self.promised[amb, q] = w
                letter = next(i for i in range(len(ALLIANCE_LETTERS)) if i not in used)
                used.add(letter)
                self.tokens[(amb, q)] = letter
        self._bind_agreement(o, used)

    def _joint_formed(self) -> None:
        assert self.offer is not None
        o = self.offer
        p = o.performer
        self.offer = None
        self._show_offer()
        # Camps emptied at once: the allies (clockwise from the performer) before him.
        self._note_emptied(self._seats_from(p + 1))
        self._next_prep(p)
