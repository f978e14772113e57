"""A scripted Sherwood Forest player: ``HeuristicAgent``.

It reads only what its seat may know (``env.unwrapped.reading(agent)``: the facts of the
seat's ``view`` that it uses, as tuples, ``reading.py``) and the action mask (through
``choose``, the bare engine's ``state.reading(seat)`` and ``state.legal_action_mask()``);
where the mask leaves one action outside the preparation, that is its choice and nothing is
read. A face-down traveller it has not seen is judged as every card of its deck letter in
the game's card table (``components.deck_ids``), equally likely, the Sheriffs among them
when the reading says the additions are in play. Routes, strengths and loot are the
engine's tables.

Every decision kind has its rule (``HANDLERS``, checked against the game's decision kinds at
import), and each rule returns a legal action in every position: a rule that does not is a
bug, raised as an error naming the decision, never covered by a random move.

* Preparation: every action costs an outlaw and the first empty camp earns a fame point,
  so it prepares little: the church only when forced and, in the last round, with all its
  gold (gold held at the end is worth nothing); the market in the first two rounds; the
  merchant below two cards; never the inn (measured: one look is worth less than the
  outlaw) unless every ambush is taken. Then every outlaw into the free ambush with the
  most expected loot: every laid-out traveller drives this round and is robbed by the first
  ambush on its route strong enough; (additions) a Sheriff who would crush the ambush
  counts as a loss. With every ambush taken its idle outlaws go to the inn (it costs no
  gold), looking at a face-down traveller it has not seen.
* Offers: when a known traveller is too strong for it alone, it first offers a joint
  ambush on his route, asking the player with most outlaws in camp for the missing
  strength (a declined offer costs nothing, then it ambushes alone); with two outlaws or
  fewer left it offers a small joint ambush. Where somebody must be asked and it planned
  to ask nobody (an offer it did not plan: its plan is per turn), it asks for one outlaw.
  It accepts an offer only for at most half of its camp and when the joint ambush will rob
  a known traveller worth 2 fame or more.
* Attacks: leads the traveller worth most to it (its own ambush robs it: its loot; another
  player's: minus his fame; a Sheriff: the ambushes he crushes), plays the weakest card
  that closes the gap (only when its cards can close it), keeps loot shares and comrades;
  (additions) sends a coach with the messenger's clothes where the rest of the journey is
  worth more to it, stays with provisions and goes home under a forest cloak when it holds
  the card (plays none without), marks no target, names itself the informant and keeps an
  equipment promise while it holds weapons.
* Loot: keeps a share or comrade when it may, else gives it to the participant with least
  fame; takes its own share of a round as a bag where it is asked (the allies' later
  shares then leave more for it to keep); (additions) as an informant who cannot cover every promise, it withholds from the
  recipient with most fame; as a leader it calls first the ally with least fame to keep his
  equipment promise. It forms every joint ambush it offered (it asks for no cards).
"""

from __future__ import annotations

import numpy as np

from ..agents.base import SeededAgent
from . import actions as A
from .agent_reading import (
    TRAVELLERS,
    WEAPONS_WEAKEST_FIRST,
    Forces,
    Traveller,
    candidates,
    known_travellers,
    strength_here,
)
from .components import CARDS, CHURCH_FORCED_ABOVE, OUTLAWS_PER_COLOUR, ROUNDS, WEAPON_STRENGTH, reroute
from .observation import Kind
from .reading import UNSEEN, SeatReading

MARKET_ROUNDS = 2      # rounds in which a recruit is worth two bags (he fights in every later one)
ACCEPT_FAME = 2        # the fame a joint ambush must promise before it sends outlaws there
BUY_BELOW = 2          # it buys equipment while it holds fewer cards than this
SPARE_OUTLAWS = 3      # outlaws in camp before it spends one at the market or the merchant
SMALL_JOINT = 2        # with this many outlaws or fewer left it offers a small joint ambush,
                       # asking for this many from a camp that has them
TIE_JITTER = 0.01      # random tie-break between ambushes of equal expected loot
REROUTE_MARGIN = 0.5   # a messenger's clothes must gain this much over the journey as it is
PASSED_SHERIFF = 0.5   # share of a Sheriff's fame loss it gains when he crushes a rival
WEAPONS_STRONGEST_FIRST = WEAPONS_WEAKEST_FIRST[::-1]
# The preparation decision's actions are the space's first ids, below this one (checked).
_PREPARATION_BLOCKS = (A.CHURCH, A.INN, A.MERCHANT, A.MARKET, A.AMBUSH, A.JOINT)
PREPARATION_ACTIONS = sum(b.size for b in _PREPARATION_BLOCKS)
if any(b.stop > PREPARATION_ACTIONS for b in _PREPARATION_BLOCKS):
    raise TypeError("Sherwood's preparation actions are no longer the first ids of the action space")


class HeuristicAgent(SeededAgent):
    name = "heuristic"

    def __init__(self, seed: int | None = None):
        super().__init__(seed)
        self._asks: dict[int, int] = {}     # outlaws to ask of each seat for its pending offer

    def act(self, env, agent: str) -> int:
        game = env.unwrapped
        mask = game.action_mask(agent)
        forced = self._forced(mask)
        if forced is not None:
            return forced
        return self.choose(game.reading(agent), mask)

    @staticmethod
    def _forced(mask: np.ndarray) -> int | None:
        """The one legal action where there is one, outside the preparation (every rule
        returns a legal action, so it returns that one, and nothing need be read); a
        forced preparation action still goes through its rule, whose tie-break draws must
        be drawn."""
        if np.count_nonzero(mask) != 1:
            return None
        action = int(mask.argmax())
        return None if action < PREPARATION_ACTIONS else action

    # --- the decision -----------------------------------------------------------------------
    def choose(self, r: SeatReading, mask: np.ndarray) -> int:
        """The action for the pending decision of ``r`` (the seat's reading,
        ``State.reading``) under ``mask``."""
        if r.kind is None:
            raise ValueError("the game is over: there is no decision to take")
        action = HANDLERS[r.kind](self, r, mask)
        if action is None or not 0 <= action < mask.size or not mask[action]:
            raise RuntimeError(f"the heuristic chose {action!r}, not a legal action, at a {r.decision!r} "
                               f"decision of seat {r.seat} (legal: {np.flatnonzero(mask).tolist()})")
        return int(action)

    # --- preparation ------------------------------------------------------------------------
    # Every action costs an outlaw that would otherwise fight, and the first camp to empty
    # earns a fame point, so it spends few actions before its ambush (measured against random
    # players: the inn's look at one card was worth less than the outlaw, an early church
    # visit less than one visit for all the gold at the end).
    def _prep(self, r: SeatReading, mask):
        seat = r.seat
        gold, camp = r.gold[seat], r.camp[seat]
        # Gold held at the game's end is worth nothing: into the church when forced and, in
        # the last round, all of it at once.
        if gold > CHURCH_FORCED_ABOVE or (gold and r.round >= ROUNDS):
            return A.CHURCH.id(gold - 1)
        if r.round <= MARKET_ROUNDS and camp >= SPARE_OUTLAWS and mask[A.MARKET.start]:
            return A.MARKET.start
        if r.hand_count[seat] < BUY_BELOW and camp >= SPARE_OUTLAWS and mask[A.MERCHANT.start]:
            return A.MERCHANT.start
        forces = Forces(r)
        scores = self._ambush_scores(r, mask, camp, forces)
        if scores is None:
            return self._inn(r)
        best = self._best_ambush(scores)
        offer = self._offer(r, mask, camp, forces, scores)
        return A.AMBUSH.id(best, camp - 1) if offer is None else offer

    @staticmethod
    def _inn(r: SeatReading) -> int:
        """Every ambush is taken, so its outlaws cannot fight this round: to the inn (it
        costs no gold), at a face-down traveller it has not seen, else the first one. In the
        preparation phase every laid-out traveller lies there, so the inn is always open."""
        laid_out = [s for s, slot in enumerate(r.slots) if slot is not None]
        unseen = [s for s in laid_out if r.slots[s].card == UNSEEN]
        return A.INN.id((unseen or laid_out)[0])

    def _best_ambush(self, scores: dict[int, float]) -> int:
        """The free ambush with the most expected loot (``_ambush_scores``), ties broken by a
        small random jitter: one draw per free ambush, in ambush order, at every call."""
        jitter = self.rng.random(len(scores)).tolist()
        return max(zip(scores, jitter), key=lambda aj: scores[aj[0]] + TIE_JITTER * aj[1])[0]

    @staticmethod
    def _ambush_scores(r: SeatReading, mask, camp, forces: Forces) -> dict[int, float] | None:
        """The expected loot of each free ambush for all ``camp`` outlaws (None: none is
        free), the sum of every laid-out traveller's ``_loot_reached``, in place order.
        Face-down travellers of one deck letter are the same cards: their loot is followed
        once per letter and added for each of them."""
        first = A.AMBUSH.id(0, camp - 1)
        free_row = mask[first:A.AMBUSH.stop:OUTLAWS_PER_COLOUR].tolist()
        scores = {a: 0.0 for a, free in enumerate(free_row) if free}
        if not scores:
            return None
        strength, oak, additions = forces.own(camp), r.oak[r.seat], r.additions
        by_deck = {}
        for slot in r.slots:
            if slot is None:
                continue
            if slot.card != UNSEEN:
                reached = _loot_reached(candidates(slot, additions), strength, oak, scores, forces.public)
            else:
                reached = by_deck.get(slot.deck)
                if reached is None:
                    reached = by_deck[slot.deck] = _loot_reached(
                        candidates(slot, additions), strength, oak, scores, forces.public)
            for b, loot in reached:
                scores[b] += loot
        return scores

    # --- offers -----------------------------------------------------------------------------
    def _offer(self, r: SeatReading, mask, camp, forces: Forces, scores: dict[int, float]):
        """A joint ambush for a known traveller its own strength does not reach, asking the
        player with most outlaws in camp for the rest; or, with two outlaws or fewer left, a
        small joint ambush at the best free ambush (``scores``). Each offer is tried once per
        turn (a decline costs nothing)."""
        if r.data.offers_made > 0:
            return None
        others = [(c, q) for q, c in enumerate(r.camp) if q != r.seat and c >= 1]
        if not others:
            return None
        top, partner = max(others)
        strength = forces.own(camp)
        first = A.JOINT.id(0, camp - 1)
        free_row = mask[first:A.JOINT.stop:OUTLAWS_PER_COLOUR].tolist()      # by ambush
        best, best_value = None, 0.0
        for c in known_travellers(r):
            if c.sheriff or not strength < c.strength <= strength + top:
                continue
            for a in c.route:
                if not free_row[a]:
                    if forces.public[a] >= c.strength:
                        break
                    continue
                if c.loot > best_value:
                    best, best_value = (A.JOINT.id(a, camp - 1), c.strength - strength), c.loot
                break
        if best is None and camp <= SMALL_JOINT and top >= SMALL_JOINT:
            a = self._best_ambush(scores)
            best = (A.JOINT.id(a, camp - 1), SMALL_JOINT)
        if best is None:
            return None
        self._asks = {partner: best[1]}
        return best[0]

    def _ask(self, r: SeatReading, mask):
        """The outlaws it planned to ask of this ally (no cards); one outlaw where somebody
        must be asked and it planned nobody (the last ally with nobody asked yet, or an
        informant, who must take part: every asked ally has an outlaw in camp)."""
        ally = r.data.ally
        want = self._asks.get(ally, 0)
        c = min(want, r.camp[ally])
        action = A.ASK.id(c, 0)
        return action if mask[action] else A.ASK.id(1, 0)

    def _reveal(self, r, mask):
        return A.REVEAL_NONE.start

    def _target(self, r, mask):
        return A.TARGET_NONE.start

    def _terms(self, r, mask):
        return A.TERMS.id(0, 0, 0)

    def _informant(self, r, mask):
        return A.INFORMANT.start                 # itself

    def _confirm(self, r, mask):
        # It asks for the strength it needs (outlaws, no cards), so it forms what it offered.
        return A.CONFIRM.id(A.CONFIRM_FORM)

    def _call(self, r: SeatReading, mask):
        """(Additions) As leader of a planned attack, it calls first the ally with least fame
        (whose cards are spent if the strength is reached before the others are needed)."""
        return self._seat_action(r, mask, A.CALL)     # never itself: the leader promised nothing

    def _pledge(self, r: SeatReading, mask):
        # (Additions) Keep its promise with its strongest cards; renounce with none left.
        for k in WEAPONS_STRONGEST_FIRST:
            if r.hand[k]:
                return A.EQUIP.start + k
        return A.RENOUNCE.start

    def _answer(self, r: SeatReading, mask):
        """Join only an ambush that will rob a known traveller worth some fame, for at most
        half of its camp: every participant gains the fame, the performer most of the
        loot, and outlaws sent away are missing from its own ambush."""
        data, offer = r.data, r.offer
        outlaws = offer.own + sum(c for _, c, _ in offer.asked)
        legal = [a for a in range(A.ACCEPT.start, A.ACCEPT.stop) if mask[a]]
        if (not legal or data.outlaws * 2 > r.camp[r.seat]
                or self._fame_at(r, data.ambush, outlaws) < ACCEPT_FAME):
            return A.DECLINE.start
        return min(legal, key=lambda a: sum(w * s for w, s in zip(A.ACCEPT.index(a), WEAPON_STRENGTH)))

    @staticmethod
    def _fame_at(r: SeatReading, ambush: int, outlaws: int) -> int:
        """The most fame a known traveller gives an ambush of ``outlaws`` at ``ambush``,
        if it reaches it before any other ambush strong enough."""
        best = 0
        for c in known_travellers(r):
            if c.strength > outlaws:
                continue
            for b in c.route:
                if b == ambush:
                    best = max(best, c.fame)
                    break
                if strength_here(r.ambushes[b]) >= c.strength:
                    break
        return best

    # --- attacks ----------------------------------------------------------------------------
    def _lead(self, r: SeatReading, mask):
        """The laid-out traveller worth most to it (every one the mask offers lies there).
        Face-down travellers of one deck letter are the same cards, so they are worth the
        same: weighed once per letter."""
        fights, oak, additions = Forces(r).fights(), r.oak[r.seat], r.additions

        def worth(slot) -> float:
            return sum(w * self._drive_value(fights, oak, c, c.route) for c, w in candidates(slot, additions))

        scores, by_deck = {}, {}
        leads = mask[A.LEAD.start:A.LEAD.stop].tolist()
        for s, slot in enumerate(r.slots):
            if slot is None or not leads[s]:
                continue
            if slot.card != UNSEEN:
                scores[s] = worth(slot)
                continue
            deck = slot.deck
            if deck not in by_deck:
                by_deck[deck] = worth(slot)
            scores[s] = by_deck[deck]
        return A.LEAD.id(max(scores, key=scores.get))

    @staticmethod
    def _drive_value(fights, oak: int, c: Traveller, route) -> float:
        """Follow a traveller along ``route`` past the ambushes (``Forces.fights``): the first
        one strong enough robs it. (Additions) A Sheriff crushes every weaker ambush on his
        way."""
        value = 0.0
        for b in route:
            fight = fights[b]
            if fight is None:
                continue
            strength, mine, outlaws = fight
            if strength < c.strength:
                if c.sheriff:
                    value += -c.crush_loss(oak) if mine else PASSED_SHERIFF * c.fame_loss
                continue
            if c.sheriff:
                return value + (c.fame if mine else -c.fame)
            if mine:
                return c.loot * mine / outlaws + c.fame
            return -c.fame
        return value

    def _equip(self, r: SeatReading, mask):
        data, seat = r.data, r.seat
        need = data.strength - data.total
        e = r.ambushes[data.ambush]
        capacity = e.outlaws[seat] - sum(e.promised[seat]) - sum(r.played)
        weapons = sorted(self._weapons(r), reverse=True)[:max(capacity, 0)]
        if sum(weapons) < need:
            return A.EQUIP_PASS.start
        # The weakest card that closes the gap at once, else the strongest towards it.
        for k in WEAPONS_WEAKEST_FIRST:
            if r.hand[k] and WEAPON_STRENGTH[k] >= need:
                return A.EQUIP.start + k
        for k in WEAPONS_STRONGEST_FIRST:
            if r.hand[k]:
                return A.EQUIP.start + k
        return A.EQUIP_PASS.start

    def _weapons(self, r: SeatReading) -> list[int]:
        return [WEAPON_STRENGTH[k] for k in WEAPONS_WEAKEST_FIRST for _ in range(r.hand[k])]

    def _share(self, r: SeatReading, mask):
        # A leader's choice of who gets a short round's share: itself when it may, else the
        # participant with least fame (the share helps the weakest rival least). Asked about
        # its own share (``give a share to self`` or ``give a comrade to self``) it takes the
        # bag: fewer bags for the allies' later shares, more of the rest for itself.
        return self._seat_action(r, mask, A.SHARE)

    def _comrade(self, r: SeatReading, mask):
        return self._seat_action(r, mask, A.COMRADE)

    def _shortfall(self, r: SeatReading, mask):
        """(Additions) The informant withholds a promised bag (or comrade) from the recipient
        with most fame: the strongest rival leaves empty-handed."""
        kind = A.WITHHOLD_BAG if r.data.bags else A.WITHHOLD_COMRADE
        block = range(A.WITHHOLD.id(kind, 0), A.WITHHOLD.id(kind, 0) + A.MAX_SEATS)
        legal = [a for a in block if mask[a]]
        seat, n = r.seat, r.num_players
        return max(legal, key=lambda a: (r.fame[(seat + a - block.start) % n], -a))

    @staticmethod
    def _seat_action(r: SeatReading, mask, block) -> int:
        """Itself if legal, else the legal seat with least fame (ties: the nearest clockwise)."""
        if mask[block.start]:
            return block.start
        seat, n = r.seat, r.num_players
        legal = [a for a in range(block.start, block.stop) if mask[a]]
        return min(legal, key=lambda a: (r.fame[(seat + a - block.start) % n], a))

    def _provisions(self, r, mask):
        """Stay with provisions when it holds the card (and has not stayed here already)."""
        return A.PROVISIONS.start if mask[A.PROVISIONS.start] else A.PROVISIONS_NONE.start

    def _cloak(self, r, mask):
        """Home under a forest cloak when it holds one, else it takes the losses."""
        home = A.CLOAK.id(A.CLOAK_GO_HOME)
        return home if mask[home] else A.CLOAK_NONE.start

    def _messenger(self, r: SeatReading, mask):
        """(Additions) Send the coach where the rest of its journey is worth most to it (into
        its own ambush, away from another's), if that beats the journey it is on."""
        coach = r.coach
        passed = coach.step
        c, fights, oak = TRAVELLERS[coach.card], Forces(r).fights(), r.oak[r.seat]
        best = A.MESSENGER_PASS.start
        best_value = self._drive_value(fights, oak, c, coach.route[passed:])
        origin = CARDS[coach.card].origin
        for t in range(A.MESSENGER.size):
            if mask[A.MESSENGER.start + t]:
                rest = reroute(origin, passed, t)
                value = self._drive_value(fights, oak, c, rest)
                if value > best_value + REROUTE_MARGIN:
                    best, best_value = A.MESSENGER.start + t, value
        return best


def _loot_reached(cards, strength: int, oak: int, free, public: list[int]) -> list[tuple[int, float]]:
    """The expected loot one laid-out traveller (``cards``: what it may be, weighted) brings
    each ``free`` ambush of ``strength``, as (ambush, loot) in the order the scores add them
    (float sums depend on the order): it drives this round and robs the first ambush on its
    route strong enough (a fork passed twice is two chances); (additions) a Sheriff fights
    every ambush he passes: his fame where it beats him, a loss where he crushes it."""
    reached = []
    for c, weight in cards:
        if c.sheriff:
            gain = weight * (c.fame if strength >= c.strength else -c.crush_loss(oak))
            reached += [(b, gain) for b in c.stops if b in free]
        elif c.strength <= strength:
            loot = weight * c.loot
            for b in c.route:
                if b in free:
                    reached.append((b, loot))
                elif public[b] >= c.strength:
                    break               # robbed there before it reaches the rest
    return reached


# The rule of each decision kind, by the game's Kind (``observation.Kind``); checked at
# import, so a kind added to the game without a rule here fails at once.
HANDLERS = {
    Kind.PREP: HeuristicAgent._prep,
    Kind.ASK: HeuristicAgent._ask,
    Kind.REVEAL: HeuristicAgent._reveal,
    Kind.ANSWER: HeuristicAgent._answer,
    Kind.LEAD: HeuristicAgent._lead,
    Kind.EQUIP: HeuristicAgent._equip,
    Kind.SHARE: HeuristicAgent._share,
    Kind.COMRADE: HeuristicAgent._comrade,
    Kind.CLOAK: HeuristicAgent._cloak,
    Kind.PROVISIONS: HeuristicAgent._provisions,
    Kind.MESSENGER: HeuristicAgent._messenger,
    Kind.TARGET: HeuristicAgent._target,
    Kind.TERMS: HeuristicAgent._terms,
    Kind.INFORMANT: HeuristicAgent._informant,
    Kind.PLEDGE: HeuristicAgent._pledge,
    Kind.SHORTFALL: HeuristicAgent._shortfall,
    Kind.CALL: HeuristicAgent._call,
    Kind.CONFIRM: HeuristicAgent._confirm,
}
if list(HANDLERS) != list(Kind):
    raise TypeError(f"HeuristicAgent.HANDLERS lists {list(HANDLERS)}, but Sherwood's decision "
                    f"kinds are {list(Kind)}")
