"""(Additions) The Sheriff crushes an ambush too weak for him (Sherwood Forest rulebook,
"Attacks (with the additions)": "Sheriff cards" and "Defeat by the Sheriff"; "Special item
cards: Forest Cloak").

"The Sheriff will be subjected to attacks from every ambush he passes, until he is
defeated." An ambush that does not reach his strength is crushed: each participant in turn
is asked whether he plays a forest cloak (``cloak``: stay in the ambush or go home, losing
nothing); everyone else loses fame and outlaws; then the outlaws go home and the Sheriff
drives on. Beating him is a successful attack worth fame only (``attacks.py``).
"""

from __future__ import annotations

from .. import actions as A
from ..components import CARDS, FOREST_CLOAK, MIN_BAND
from ..observation import Kind
from .phase_base import PhaseBase
from .records import CloakQuestions


class Sheriff(PhaseBase):
    """The ``cloak`` decision and the losses of a crushed ambush (a mixin of
    ``SherwoodState``)."""

    __slots__ = ()

    def _crush(self, amb: int) -> None:
        """Every participant is asked, in order, whether he plays a forest cloak (asking all
        of them reveals nothing about a hand); then the losses. Promised cards go back to
        hand and the agreement ends."""
        self._return_promised([amb])
        self._void_agreement(amb)
        order = self._participants(amb)
        self.crush = CloakQuestions(ambush=amb, order=order)
        self.push(Kind.CLOAK, order[0], amb)

    def _mask_cloak(self, d, mask) -> None:
        """"By playing this card you lose neither outlaws nor fame points if your ambush is
        defeated by the Sheriff": "You may leave your outlaws in the ambush ... or you may
        return your subordinates to camp"."""
        mask[A.CLOAK_NONE.start] = 1
        if self.hand[d.player, FOREST_CLOAK] > 0:
            mask[A.CLOAK.start:A.CLOAK.stop] = 1

    def _why_cloak(self, d, a: int) -> str | None:
        return "the player holds no forest cloak" if a in A.CLOAK else None

    def _apply_cloak(self, d, a: int) -> None:
        assert self.crush is not None
        c, q = self.crush, d.player
        if a in A.CLOAK:
            self.hand[q, FOREST_CLOAK] -= 1
            self.hand_count[q] -= 1
            self.equip_discard[FOREST_CLOAK] += 1
            c.cloaks[q] = A.CLOAK.index(a)[0] == A.CLOAK_STAY
        c.asking += 1
        if c.asking < len(c.order):
            self.replace(Kind.CLOAK, c.order[c.asking], c.ambush)
            return
        self.pop()
        self._crush_losses()

    def _band(self, q: int) -> int:
        """Figures of q's colour in camp or on assignments ("but not under the oak")."""
        return int(self.camp[q] + self.places[q].sum() + self.ambush_outlaws[:, q].sum())

    def _crush_losses(self) -> None:
        """"Loss of fame points ... One cannot fall back further than zero"; "Loss of
        outlaws: ... a player cannot lose more outlaws than he had in this ambush, and in a
        player's band ... there must be at least four outlaws" (lost outlaws go under the
        oak: the project's reading, docs/sherwood.md); "Return of outlaws to camp", except
        those a forest cloak keeps there (the leader's place to one of them)."""
        assert self.coach is not None
        assert self.crush is not None
        c = self.crush
        amb, card = c.ambush, CARDS[self.coach.card]
        stays = [q for q in c.order if c.cloaks.get(q)]
        for q in c.order:
            if q in c.cloaks:
                continue
            self.fame[q] = max(0, int(self.fame[q]) - card.fame_loss)
            lost = max(0, min(card.outlaw_loss, int(self.ambush_outlaws[amb, q]),
                              self._band(q) - MIN_BAND))
            self.ambush_outlaws[amb, q] -= lost
            self.oak[q] += lost
        self._leave_ambush(amb, c.order, stays)
        self.crush = None
        self._drive_on()
