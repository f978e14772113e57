"""The attack phase (Sherwood Forest rulebook, "ATTACKS": "Playing a traveller", "Movement
of travellers", "Equipment cards", "Successful attack", "No attack takes place", "Ambushes
at forks"; with the additions "Attacks (with the additions)").

In turn order from the holder of the starting player card each player leads a laid-out
traveller (``lead``); its coach drives along its route, and every occupied ambush it passes
fights it: an ambush whose outlaws and promised cards reach the traveller's strength must
attack; one that could reach it with cards from hand asks its participants, leader first,
for cards (``equip``); one that cannot lets it pass. A robbed traveller's loot is shared
(``loot.py``); the Sheriff crushes an ambush too weak for him (``sheriff.py``).
"""

from __future__ import annotations

from typing import cast

import numpy as np

from .. import actions as A
from ..components import CARDS, MAX_WEAPON_STRENGTH, NUM_WEAPON_KINDS, WEAPON_STRENGTH
from ..observation import Kind
from .phase_base import PhaseBase
from .precomputed import CARD_FEATURES, WEAPON_STRENGTHS
from .records import Coach, Fight

PLACE_ON_THE_ROAD = A.MAX_SLOTS     # ambush_target's last entry: the target is on the road


class Attacks(PhaseBase):
    """The ``lead`` and ``equip`` decisions and the coach's drive (a mixin of
    ``SherwoodState``)."""

    __slots__ = ()

    def _start_attacks(self) -> None:
        """"The starting player acts first, then his left-hand neighbour, and so on
        clockwise ... until the laid-out cards run out" (the starting player card; the
        figure when no camp emptied second)."""
        self.attack_phase[0] = 1
        holder = self.card_holder_seat()
        first = holder if holder >= 0 else self.figure_seat
        self.leads = [(first + i) % self.num_players for i in range(self.game.laid_out)]
        self.leads_left.fill(0)
        for p in self.leads:
            self.leads_left[p] += 1
        self._next_lead()

    def _next_lead(self) -> None:
        """The traveller has left the forest: agreements targeting it end (additions); the
        next player leads, or the round ends."""
        if self.coach is not None:
            for amb in [a for a, c in self.targets.items() if c == self.coach.card]:
                self._void_agreement(amb)
        self.coach = None
        self.coach_card.fill(0)
        self.coach_at.fill(0)
        self.coach_step[0] = 0
        if not self.leads:
            self._end_round()
            return
        self.next_turn(Kind.LEAD, self.leads[0])

    def _mask_lead(self, d, mask) -> None:
        """"Choose one of the traveller cards laid out by the board -- either face down or
        face up. You cannot take a card from the deck!\""""
        mask[A.LEAD.start:A.LEAD.stop] = self.slot_present

    def _why_lead(self, d, a: int) -> str | None:
        return "no traveller lies in that place" if a in A.LEAD else None

    def _apply_lead(self, d, a: int) -> None:
        (s,) = A.LEAD.index(a)
        card = self.slots[s]
        self._clear_slot(s)
        p = self.leads.pop(0)
        self.leads_left[p] -= 1
        self.coach = Coach(card, 0, CARDS[card].destination)
        if self.targets:                 # a target is marked only with an agreement
            marked = self.ambush_target[:, s] > 0
            self.ambush_target[marked, s] = 0
            self.ambush_target[marked, PLACE_ON_THE_ROAD] = 1
        self.coach_card[:] = CARD_FEATURES[card]
        self.messenger_used[0] = 0
        if not self._open_window():
            self._drive()

    # --- the coach on the road (rulebook, "Movement of travellers") -------------------------
    def _drive(self) -> None:
        """Move the coach on until an ambush needs a decision, robs it, or it arrives ("Even
        if nobody attacked the traveller and he finished his journey safe and sound, the card
        is removed from the game all the same")."""
        assert self.coach is not None
        coach = self.coach
        route = self._route()
        strength = CARDS[coach.card].strength
        step = coach.step
        manned = cast("list[bool]", self.ambush_outlaws.any(axis=1).tolist())   # changes only when a fight ends the drive
        while step < len(route):
            amb = route[step]
            if manned[amb]:
                coach.step = step
                if self._open_fight(amb, strength):
                    return
                coach.step = step + 1       # passed without being robbed
                if self._open_window():
                    return
            step += 1
        self.removed.append(coach.card)   # it left the forest: the card leaves the game
        self._next_lead()

    def _drive_on(self) -> None:
        """The coach has passed the ambush it was at without being robbed ("The traveller
        passes the ambush and goes on along the route")."""
        assert self.coach is not None
        self.coach.step += 1
        if not self._open_window():
            self._drive()

    def _promised_strength(self, amb: int) -> int:
        return int((self.promised[amb].astype(np.int64) @ WEAPON_STRENGTHS).sum())

    def _open_fight(self, amb: int, strength: int) -> bool:
        """Resolve the ambush the coach is passing; True when control left the drive (a
        decision is pending or the coach's journey ended). "If the total strength of the
        ambush (taking into account the equipment cards promised by allies) equals or
        exceeds the strength of the traveller, you must attack"; a planned attack first
        calls in the promises (additions, ``planned_attack.py``)."""
        assert self.coach is not None
        self.coach_step[0] = self.coach.step
        self.coach_at.fill(0)
        self.coach_at[amb] = 1
        outs = self.ambush_outlaws[amb].tolist()
        outlaws = sum(outs)
        promised = self._promised_strength(amb) if self.tokens else 0
        if outlaws >= strength:
            self._win(amb, promised_needed=False)
            return True
        if (self.game.additions and self.targets.get(amb) == self.coach.card
                and self.pledged[amb].any()):
            return self._start_pledges(amb, strength, outlaws)
        if outlaws + promised >= strength:
            self._win(amb, promised_needed=True)
            return True
        # Only public numbers decide whether anybody is asked (a hand card adds at most
        # MAX_WEAPON_STRENGTH).
        hands = self.hand_count.tolist()
        if outlaws + promised + MAX_WEAPON_STRENGTH * sum(map(min, outs, hands)) < strength:
            return self._fall_short(amb, played=False)
        order = self._participants(amb)
        reach = outlaws + promised + sum(MAX_WEAPON_STRENGTH * min(self._capacity(amb, q), hands[q])
                                         for q in order)
        if reach >= strength:
            self.fight = Fight(ambush=amb, strength=strength, order=order, total=outlaws + promised)
            if self._ask_equip():
                return True
        return self._fall_short(amb)

    def _capacity(self, amb: int, q: int) -> int:
        """Cards seat q may still play here: "one card per outlaw, no more!", promised cards
        included."""
        return (self.ambush_outlaws.item(amb, q) - sum(self.promised[amb, q].tolist())
                - sum(self.played[q].tolist()))

    def _ask_equip(self) -> bool:
        """Push the equip decision of the next participant who could play a card; False
        when nobody is left."""
        assert self.fight is not None
        f = self.fight
        amb = f.ambush
        while f.asking < len(f.order):
            q = f.order[f.asking]
            if self._capacity(amb, q) > 0 and self.hand_count[q] > 0:
                leader = f.order[0]
                if self.decisions[-1].kind == Kind.EQUIP:
                    self.replace(Kind.EQUIP, q, amb, f.strength, f.total, leader)
                else:
                    self.push(Kind.EQUIP, q, amb, f.strength, f.total, leader)
                return True
            f.asking += 1
        if self.decisions[-1].kind == Kind.EQUIP:
            self.pop()
        self.fight = None
        return False

    def _fall_short(self, amb: int, played: bool = True) -> bool:
        """The ambush did not reach the strength ("No attack takes place"): cards played here
        are used up; a traveller drives on (False), the Sheriff crushes the ambush (True)."""
        assert self.coach is not None
        if played:
            self.equip_discard[:NUM_WEAPON_KINDS] += self.played.sum(axis=0)
            self.played.fill(0)
        if not CARDS[self.coach.card].sheriff:
            return False
        self._crush(amb)
        return True

    def _mask_equip(self, d, mask) -> None:
        """"Only when it comes to the attack does the player choose which equipment cards he
        will play and in what order (and whether at all)": one weapon card of his hand at a
        time, or no more."""
        mask[A.EQUIP.start:A.EQUIP.stop] = self.hand[d.player, :NUM_WEAPON_KINDS] > 0
        mask[A.EQUIP_PASS.start] = 1

    def _why_equip(self, d, a: int) -> str | None:
        return "that card is not in the player's hand" if a in A.EQUIP else None

    def _apply_equip(self, d, a: int) -> None:
        assert self.fight is not None
        f, q = self.fight, d.player
        amb = f.ambush
        if a in A.EQUIP:
            (k,) = A.EQUIP.index(a)
            self.hand[q, k] -= 1
            self.hand_count[q] -= 1
            self.played[q, k] += 1
            f.total += WEAPON_STRENGTH[k]
            if f.total >= f.strength:
                self.pop()
                self.fight = None
                self._win(amb, promised_needed=True)
                return
            if self._capacity(amb, q) > 0 and self.hand_count[q] > 0:
                self.replace(Kind.EQUIP, q, amb, f.strength, f.total, f.order[0])
                return
        f.asking += 1
        if not self._ask_equip() and not self._fall_short(amb):
            self._drive_on()

    # --- a successful attack (rulebook, "Successful attack") --------------------------------
    def _win(self, amb: int, promised_needed: bool) -> None:
        """"Each participant of the ambush receives as much fame as is indicated on the
        traveller card"; played cards are discarded, and promised cards too unless "for a
        successful attack none of the promised equipment cards is needed"; then the loot."""
        assert self.coach is not None
        card = CARDS[self.coach.card]
        order = self._participants(amb)
        if promised_needed:
            self.equip_discard[:NUM_WEAPON_KINDS] += self.promised[amb].sum(axis=0)
            self.promised[amb] = 0
            for q in order:
                self.tokens.pop((amb, q), None)
        else:
            self._return_promised([amb])
        self.equip_discard[:NUM_WEAPON_KINDS] += self.played.sum(axis=0)
        self.played.fill(0)
        for q in order:
            self.fame[q] += card.fame
        self._take_loot(amb, order, card)

    def _return_promised(self, ambushes) -> None:
        """Promised cards not needed go back to their owners' hands (rulebook, "Equipment
        cards": "the players take them back into their hands"; at the round's end too)."""
        if not self.tokens:
            return
        for a in ambushes:
            for p in range(self.num_players):
                if self.promised[a, p].any():
                    self.hand[p, :NUM_WEAPON_KINDS] += self.promised[a, p]
                    self.hand_count[p] += int(self.promised[a, p].sum())
                    self.promised[a, p] = 0
                self.tokens.pop((a, p), None)
