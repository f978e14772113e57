"""What a seat may know, once: ``reading(state, seat)``, a typed record of tuples, and
``view(state, seat)``, the same record as plain JSON data (``SeatReading.as_json``, plus the
pending decision as a sentence, ``words.sentence`` of the record, the legal actions and, once
the game is over, the scores).

The record is what everything that reads a seat's knowledge starts from: the heuristic
(``agents/``, through ``agents.seat_view.SeatView``), the text board and the prompt
(``render.py``, ``words.py``), the move labels (``labels.py``), and through its JSON form the
picture (``../picture.py``), which is what a replay page stores and redraws without a state.

It is indexed as the game's data is: seats by seat number, ambushes by ambush id
(``components.AMBUSHES``; None where nobody lies), laid-out travellers by place 0-5 (None
where no card lies), travellers by card id (the JSON gives a card's numbers, ``card``),
equipment as counts by kind (``components.EQUIPMENT``). A face-down traveller shows only
what the seat knows: its deck letter, and its card if the seat looked at it in the inn
(``peeked``), or the loot an offer told. A seat's hand and the travellers it looked at are
read at its own row only, and appear in its own record (every hand in the referee's,
``seat=None``). Whether the additions are in play (``additions``) is public, as the box on
the table is.
"""

from __future__ import annotations

from typing import Any, NamedTuple, TypeVar

from ...core.decisions import DecisionReading, pending_reading
from ...core.presentation import SPECTATOR, check_observer, holds_seat
from ..components import AMBUSHES, CARDS, WEAPON_STRENGTH
from ..observation import DECISIONS, Kind
from .words import sentence

_Part = TypeVar("_Part")
_CUDGEL, _BOW, _SWORD = WEAPON_STRENGTH   # the strength each weapon kind adds
_DECK = tuple(c.deck for c in CARDS)   # each card's deck letter, as a plain tuple: read per slot per decision


class ToldReading(NamedTuple):
    """The loot an offer told of a face-down traveller."""

    fame: int
    gold: int
    comrades: int


class SlotReading(NamedTuple):
    """A laid-out traveller as the seat knows it."""

    face_up: bool
    deck: str                      # its deck letter (A or B), which every seat sees on its back
    marked_by: tuple[int, ...]     # the seats whose inn markers lie on it
    card: int | None               # its card id where the seat knows it (face up, looked at,
                                   # or the referee's), else None
    peeked: bool                   # face down, and the seat looked at it in the inn
    told: ToldReading | None

    def as_json(self) -> dict:
        out: dict[str, Any] = {"face_up": self.face_up, "deck": self.deck,
                               "marked_by": list(self.marked_by)}
        if self.card is not None:
            out["card"] = card(self.card)
        if self.peeked:
            out["peeked"] = True
        if self.told is not None:
            out["told"] = self.told._asdict()
        return out

    @classmethod
    def from_json(cls, data: dict) -> SlotReading:
        told = data.get("told")
        return cls(data["face_up"], data["deck"], tuple(data["marked_by"]),
                   data["card"]["id"] if "card" in data else None, data.get("peeked", False),
                   None if told is None else ToldReading(**told))


class AgreementReading(NamedTuple):
    """(Additions) A binding agreement at an ambush."""

    target: int                       # the target's place, -1: the traveller on the road
    informant: int
    advance: tuple[int, ...]          # the bags laid out for each recipient, by seat
    advance_comrades: tuple[int, ...]  # ... and the comrades


class AmbushReading(NamedTuple):
    """An ambush somebody lies in, by seat."""

    leader: int
    outlaws: tuple[int, ...]                    # each seat's outlaws lying there
    promised: tuple[tuple[int, ...], ...]       # each seat's cards promised there, by weapon kind
    pledged: tuple[int, ...]                    # (additions) each seat's cards pledged there
    agreement: AgreementReading | None

    @property
    def promised_strength(self) -> int:
        """The strength of the cards promised here (each seat's by weapon kind)."""
        return sum(c * _CUDGEL + b * _BOW + x * _SWORD for c, b, x in self.promised)

    @property
    def strength(self) -> int:
        """The public strength: the outlaws lying here and the cards promised to them."""
        return sum(self.outlaws) + self.promised_strength

    def as_json(self) -> dict:
        out: dict[str, Any] = {"leader": self.leader, "outlaws": list(self.outlaws),
                               "promised": [list(w) for w in self.promised],
                               "pledged": list(self.pledged)}
        if self.agreement is not None:
            g = self.agreement
            out["agreement"] = {"target": g.target, "informant": g.informant,
                                "advance": list(g.advance),
                                "advance_comrades": list(g.advance_comrades)}
        return out

    @classmethod
    def from_json(cls, data: dict) -> AmbushReading:
        g = data.get("agreement")
        return cls(data["leader"], tuple(data["outlaws"]), tuple(map(tuple, data["promised"])),
                   tuple(data["pledged"]),
                   None if g is None else AgreementReading(g["target"], g["informant"],
                                                           tuple(g["advance"]),
                                                           tuple(g["advance_comrades"])))


class PlayerReading(NamedTuple):
    """One seat's public standing."""

    camp: int                     # outlaws in camp
    places: tuple[int, ...]       # outlaws at each place of the preparation board
    oak: int                      # outlaws under the oak
    gold: int
    fame: int
    hand_count: int               # equipment cards in hand
    emptied: int
    round_gold: int
    round_comrades: int
    fork_bonus: bool              # (additions) took the last round's fork bonus outlaw


class CoachReading(NamedTuple):
    """The traveller on the road."""

    card: int
    step: int                 # the ambushes of its route it has passed
    destination: int          # its town now (a messenger's clothes may have changed it)
    route: tuple[int, ...]    # its route now

    def as_json(self) -> dict:
        return {"card": card(self.card), "step": self.step, "destination": self.destination,
                "route": list(self.route)}


class OfferReading(NamedTuple):
    """The joint-ambush offer on the table."""

    performer: int
    ambush: int
    own: int                                  # the performer's own outlaws
    allies: tuple[int, ...]                   # the seats he may ask, clockwise from him
    asked: tuple[tuple[int, int, int], ...]   # (ally, outlaws, cards) asked of each ally
    told: int                                 # the place whose loot it told, -1 none
    answers: tuple[int, ...]                  # each seat's answer so far
    target: int                               # (additions) the target's place, -1 none
    informant: int
    terms: tuple[tuple[int, tuple[int, ...]], ...]  # (seat, (bags, gold now, comrades))

    def as_json(self) -> dict:
        return {"performer": self.performer, "ambush": self.ambush, "own": self.own,
                "allies": list(self.allies), "asked": [list(x) for x in self.asked], "told": self.told,
                "answers": list(self.answers), "target": self.target,
                "informant": self.informant, "terms": {q: list(t) for q, t in self.terms}}

    @classmethod
    def from_json(cls, data: dict) -> OfferReading:
        return cls(data["performer"], data["ambush"], data["own"], tuple(data["allies"]),
                   tuple(map(tuple, data["asked"])),
                   data["told"], tuple(data["answers"]), data["target"], data["informant"],
                   tuple((int(q), tuple(t)) for q, t in data["terms"].items()))


class FightReading(NamedTuple):
    """An ambush the coach is passing that may still reach the traveller's strength with
    cards from hand."""

    ambush: int
    strength: int                 # the traveller's
    total: int                    # the strength reached so far
    order: tuple[int, ...]        # the participants, the leader first, then clockwise
    pledgers: tuple[int, ...]     # (additions) allies whose card promise is still open

    def as_json(self) -> dict:
        return dict(self._asdict(), order=list(self.order), pledgers=list(self.pledgers))

    @classmethod
    def from_json(cls, data: dict) -> FightReading:
        return cls(**dict(data, order=tuple(data["order"]), pledgers=tuple(data["pledgers"])))


class LootReading(NamedTuple):
    """The loot of a successful attack being handed out."""

    ambush: int
    order: tuple[int, ...]        # the participants, the leader first, then clockwise
    gold: int                     # bags still to share
    comrades: int                 # comrades still to share (then: still to hand out)
    shares: tuple[int, ...]       # shares given, by seat
    round: int                    # the share-out round
    tier: tuple[int, ...]         # seats still to serve in this round
    room: tuple[int, ...]         # comrades each seat may still take (empty until shared out)

    def as_json(self) -> dict:
        return dict(self._asdict(), order=list(self.order), shares=list(self.shares),
                    tier=list(self.tier), room=list(self.room))

    @classmethod
    def from_json(cls, data: dict) -> LootReading:
        return cls(data["ambush"], tuple(data["order"]), data["gold"], data["comrades"],
                   tuple(data["shares"]), data["round"], tuple(data["tier"]), tuple(data["room"]))


class StayReading(NamedTuple):
    """An ambush's participants asked in turn whether they play a card to stay in it: a
    forest cloak after the Sheriff crushed it (``crush``), provisions after a robbery
    (``provisioning``, the additions)."""

    ambush: int
    order: tuple[int, ...]        # the participants, the leader first, then clockwise
    asking: int                   # index in ``order`` of the seat asked
    stay: tuple[int, ...]         # the seats that played the card to stay, in order

    def as_json(self) -> dict:
        return dict(self._asdict(), order=list(self.order), stay=list(self.stay))

    @classmethod
    def from_json(cls, data: dict) -> StayReading:
        return cls(data["ambush"], tuple(data["order"]), data["asking"], tuple(data["stay"]))


class SeatReading(NamedTuple):
    """What ``seat`` may know (``seat`` None: the referee): per-seat entries by seat,
    travellers by place, ambushes by ambush id, cards by kind."""

    seat: int | None
    num_players: int
    additions: bool
    round: int
    attacks: bool                 # the attacks phase (else the preparation)
    turn: int | None              # the seat whose turn it is
    decision: DecisionReading | None  # None: the game is over
    figure: int                   # the starting player figure's holder
    card_holder: int              # the starting player card's holder, -1 nobody yet
    pit: int                      # gold in the pit
    pile_left: int                # travellers left in the pile
    equipment_left: int           # equipment cards left in the deck
    equipment_discard: tuple[int, ...]  # the discard pile by kind
    slots: tuple[SlotReading | None, ...]
    ambushes: tuple[AmbushReading | None, ...]
    players: tuple[PlayerReading, ...]
    leads: tuple[int, ...]
    coach: CoachReading | None
    offer: OfferReading | None
    fight: FightReading | None
    loot: LootReading | None
    crush: StayReading | None
    provisioning: StayReading | None
    removed: tuple[int, ...]      # the travellers that left the game (each was face up), in order
    played: tuple[tuple[int, ...], ...]  # each seat's cards played at the ambush fighting now
    hands: tuple[tuple[int, ...] | None, ...]  # each seat's hand by kind where the reader may
                                  # see it (its own; every one for the referee), else None

    # --- the parts a decision or a move implies (``the_...``): each returns the part, which
    # the caller knows is there (a decision's sentence reads the offer it answers, a move's
    # narration the fight it was part of), and raises a ValueError naming it otherwise.
    def the_coach(self) -> CoachReading:
        return _there(self.coach, "no traveller is on the road")

    def the_offer(self) -> OfferReading:
        return _there(self.offer, "no joint ambush is offered")

    def the_fight(self) -> FightReading:
        return _there(self.fight, "no ambush is fighting a traveller")

    def the_loot(self) -> LootReading:
        return _there(self.loot, "no loot is being handed out")

    def the_crush(self) -> StayReading:
        return _there(self.crush, "no ambush is being crushed")

    def the_provisioning(self) -> StayReading:
        return _there(self.provisioning, "nobody is asked about provisions")

    def the_ambush(self, a: int) -> AmbushReading:
        return _there(self.ambushes[a], f"nobody lies in ambush {AMBUSHES[a]}")

    def the_agreement(self, a: int) -> AgreementReading:
        return _there(self.the_ambush(a).agreement, f"no binding agreement at {AMBUSHES[a]}")

    def the_slot(self, s: int) -> SlotReading:
        return _there(self.slots[s], f"no traveller lies in place {s + 1}")

    def as_json(self) -> dict:
        """The record as plain JSON data; ``view``'s but for the sentence, the legal actions
        and the scores."""
        out = {
            "seat": self.seat, "num_players": self.num_players, "additions": self.additions,
            "round": self.round, "phase": "attacks" if self.attacks else "preparation",
            "turn": self.turn, "decision": None if self.decision is None else self.decision.as_json(),
            "figure": self.figure, "card_holder": self.card_holder, "pit": self.pit,
            "pile_left": self.pile_left, "equipment_left": self.equipment_left,
            "equipment_discard": list(self.equipment_discard),
            "slots": [None if s is None else s.as_json() for s in self.slots],
            "ambushes": [None if a is None else a.as_json() for a in self.ambushes],
            "players": [dict(p._asdict(), places=list(p.places)) for p in self.players],
            "leads": list(self.leads),
            "coach": None if self.coach is None else self.coach.as_json(),
            "offer": None if self.offer is None else self.offer.as_json(),
            "fight": None if self.fight is None else self.fight.as_json(),
            "loot": None if self.loot is None else self.loot.as_json(),
            "crush": None if self.crush is None else self.crush.as_json(),
            "provisioning": None if self.provisioning is None else self.provisioning.as_json(),
            "removed": list(self.removed),
            "played": [list(p) for p in self.played],
        }
        if self.seat is None:
            out["hands"] = [list(h or ()) for h in self.hands]
        elif self.seat != SPECTATOR:
            out["hand"] = list(self.hands[self.seat] or ())
        return out

    @classmethod
    def from_json(cls, data: dict) -> SeatReading:
        """The record of a view's JSON (``as_json``'s, or ``view``'s: its extras are left
        out), as a replay page holds it (its keys may be strings)."""
        seat, n = data["seat"], data["num_players"]
        hands: tuple[tuple[int, ...] | None, ...]
        if seat is None:
            hands = tuple(map(tuple, data["hands"]))
        else:   # a seat's own hand ("hand"), or none (a spectator's)
            hands = tuple(tuple(data["hand"]) if q == seat and "hand" in data else None for q in range(n))
        coach, offer, fight, loot = data["coach"], data["offer"], data["fight"], data["loot"]
        crush, provisioning = data["crush"], data["provisioning"]
        return cls(
            seat, n, data["additions"], data["round"], data["phase"] == "attacks", data["turn"],
            (None if data["decision"] is None
             else DecisionReading.from_json(data["decision"], Kind, DECISIONS)),
            data["figure"], data["card_holder"], data["pit"], data["pile_left"],
            data["equipment_left"], tuple(data["equipment_discard"]),
            tuple(None if s is None else SlotReading.from_json(s) for s in data["slots"]),
            tuple(None if a is None else AmbushReading.from_json(a) for a in data["ambushes"]),
            tuple(PlayerReading(**dict(p, places=tuple(p["places"]))) for p in data["players"]),
            tuple(data["leads"]),
            None if coach is None else CoachReading(coach["card"]["id"], coach["step"],
                                                    coach["destination"], tuple(coach["route"])),
            None if offer is None else OfferReading.from_json(offer),
            None if fight is None else FightReading.from_json(fight),
            None if loot is None else LootReading.from_json(loot),
            None if crush is None else StayReading.from_json(crush),
            None if provisioning is None else StayReading.from_json(provisioning),
            tuple(data["removed"]), tuple(map(tuple, data["played"])), hands)


def _there(part: _Part | None, missing: str) -> _Part:
    if part is None:
        raise ValueError(f"the reading holds no such part: {missing}")
    return part


def card(card_id: int) -> dict:
    """A traveller's numbers as the view shows them: a fresh dict (and route list) each time,
    so whoever reads a view may change it."""
    return dict(_CARD_FIELDS[card_id], route=list(CARDS[card_id].route))


def _card_fields(card_id: int) -> dict:
    c = CARDS[card_id]
    out = {"id": card_id, "deck": c.deck, "strength": c.strength, "fame": c.fame,
           "gold": c.gold, "comrades": c.comrades, "origin": c.origin,
           "destination": c.destination, "route": None}
    if c.sheriff:
        out.update(sheriff=True, fame_loss=c.fame_loss, outlaw_loss=c.outlaw_loss)
    return out


# Each card's numbers, built once (``card`` copies them): the route's key is kept in its place.
_CARD_FIELDS = tuple(_card_fields(i) for i in range(len(CARDS)))


def view(state, seat: int | None) -> dict:
    """What ``seat`` may know as plain JSON data (``seat=None``: the referee's view of every
    card and hand): ``reading``'s record, plus the pending decision as a sentence
    (``prompt``), the legal actions for the seat to move (and the referee), and once the
    game is over the scores and ranks."""
    record = reading(state, seat)
    out: dict[str, Any] = {}
    for key, value in record.as_json().items():
        out[key] = value
        if key == "decision":  # the sentence right after the decision it words
            out["prompt"] = sentence(record)
    if not state.is_terminal and (seat is None or seat == state.current_player):
        out["legal_actions"] = state.legal_actions()
    if state.is_terminal:
        out["scores"] = state.scores()
        out["ranks"] = state.ranks()
    return out


def reading(state, seat: int | None) -> SeatReading:
    """What ``seat`` may know, as the typed record (``seat=None``: the referee). Each block
    is read into Python lists at once (one ``tolist`` each; the promised cards only of the
    ambushes somebody lies in): a record is taken at every scripted decision."""
    n = state.num_players
    check_observer(seat, n)
    referee, own = seat is None, holds_seat(seat)
    face_up_row, marked_rows, told_rows = (state.slot_face_up.tolist(), state.slot_marked.tolist(),
                                           state.slot_told.tolist())
    peeked_rows = state.peek[seat].tolist() if own else None
    slots: list[SlotReading | None] = []
    for s, cid in enumerate(state.slots):
        if cid < 0:
            slots.append(None)
            continue
        face_up = bool(face_up_row[s])
        peeked = not face_up and peeked_rows is not None and any(peeked_rows[s])
        told = told_rows[s]
        slots.append(SlotReading(
            face_up, _DECK[cid], tuple([q for q in range(n) if marked_rows[s][q]]),
            cid if face_up or referee or peeked else None, peeked,
            ToldReading(told[1], told[2], told[3]) if told[0] else None))
    ambushes: list[AmbushReading | None] = [None] * len(AMBUSHES)
    outlaw_rows = state.ambush_outlaws.tolist()
    occupied = [a for a, outlaws in enumerate(outlaw_rows) if any(outlaws)]
    if occupied:  # the promised cards only of the ambushes somebody lies in
        leader_rows, informant_rows = state.ambush_leader.tolist(), state.informant.tolist()
        pledged_rows, promised = state.pledged.tolist(), state.promised
        for a in occupied:
            leader, informant = leader_rows[a], informant_rows[a]
            agreement = None
            if any(informant):
                # (Additions) a binding agreement: the target's place (-1: on the road), the
                # informant, the bags and comrades laid out for each recipient.
                where = state.ambush_target[a].tolist()
                agreement = AgreementReading(-1 if where[-1] else where.index(1),
                                             informant.index(max(informant)),
                                             tuple(state.advance[a].tolist()),
                                             tuple(state.advance_comrades[a].tolist()))
            ambushes[a] = AmbushReading(leader.index(max(leader)), tuple(outlaw_rows[a]),
                                        tuple(map(tuple, promised[a].tolist())),
                                        tuple(pledged_rows[a]), agreement)
    players = tuple([PlayerReading(camp, tuple(places), oak, gold, fame, hand_count, emptied,
                                   round_gold, round_comrades, bool(fork_bonus))
                     for camp, places, oak, gold, fame, hand_count, emptied, round_gold, round_comrades,
                     fork_bonus
                     in zip(state.camp.tolist(), state.places.tolist(), state.oak.tolist(),
                            state.gold.tolist(), state.fame.tolist(), state.hand_count.tolist(),
                            state.emptied.tolist(), state.round_gold.tolist(),
                            state.round_comrades.tolist(), state.fork_bonus.tolist())])
    coach, offer, fight, loot = state.coach, state.offer, state.fight, state.loot
    crush, provisioning = state.crush, state.provisioning
    hands: tuple[tuple[int, ...] | None, ...]
    if referee:
        hands = tuple(map(tuple, state.hand.tolist()))
    elif own:
        mine = tuple(state.hand[seat].tolist())
        hands = tuple([mine if q == seat else None for q in range(n)])
    else:   # a spectator sees no hand
        hands = (None,) * n
    return SeatReading(
        seat, n, bool(state.game.additions), state.round_index, bool(state.attack_phase[0]),
        state.turn_player, pending_reading(state, Kind), state.figure_seat, state.card_holder_seat(),
        int(state.pit[0]), len(state.pile), len(state.equip_deck),
        tuple(state.equip_discard.tolist()), tuple(slots), tuple(ambushes), players,
        tuple(state.leads),
        None if coach is None else CoachReading(coach.card, coach.step, coach.destination,
                                                tuple(state._route())),
        None if offer is None else OfferReading(
            offer.performer, offer.ambush, offer.own, tuple(offer.allies),
            tuple(map(tuple, offer.asked)), offer.told,
            tuple(state.offer_answer.tolist()), offer.target, offer.informant,
            tuple((q, tuple(t)) for q, t in offer.terms.items())),
        None if fight is None else FightReading(fight.ambush, fight.strength, fight.total,
                                                tuple(fight.order), tuple(fight.pledgers)),
        None if loot is None else LootReading(loot.ambush, tuple(loot.order), loot.gold,
                                              loot.comrades, tuple(loot.shares), loot.round,
                                              tuple(loot.tier),
                                              # (the shares are set out once the promises
                                              # of a planned attack are settled)
                                              tuple(state._comrade_room()) if loot.shares else ()),
        None if crush is None else StayReading(crush.ambush, tuple(crush.order), crush.asking,
                                                tuple([q for q in crush.order if crush.cloaks.get(q)])),
        None if provisioning is None else StayReading(
            provisioning.ambush, tuple(provisioning.order), provisioning.asking,
            tuple(provisioning.stay)),
        tuple(state.removed), tuple(map(tuple, state.played.tolist())), hands)
