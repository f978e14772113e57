"""The sub-states of a round in progress, as typed records (``core.plain.record``): each is
plain state data, deep-copied by ``clone`` and written to JSON by name. ``SherwoodState``
holds each in its own field while it lasts, else None: ``offer``, ``coach``, ``fight``,
``loot``, ``crush`` (``CloakQuestions``) and ``provisioning`` (``ProvisionsQuestions``).
"""

from __future__ import annotations

from dataclasses import field

from ...core.plain import record


@record
class Offer:
    """A joint ambush under negotiation (Sherwood Forest rulebook, "5.2 Preparing a joint
    attack"; with the additions "Negotiating an alliance" and "Binding agreements"). The
    one source of the offer: the ``offer_*`` observation blocks are written from it
    (``Negotiation._show_offer``)."""

    performer: int
    ambush: int
    own: int                    # the performer's outlaws in it
    offers: int                 # offers the performer made before this one in this turn
    allies: list[int]           # the seats he may ask (outlaws in camp), clockwise from him
    informant: int              # (additions) the performer unless he names an ally
    next_ally: int = 0          # index in ``allies`` of the seat being asked
    asked: list[tuple[int, int, int]] = field(default_factory=list)   # (seat, outlaws, cards)
    told: int = -1              # the laid-out traveller whose loot he told (-1: none)
    target: int = -1            # (additions) the place of the marked target (-1: none)
    # (additions) seat -> (bags promised, gold paid now, comrades promised)
    terms: dict[int, tuple[int, ...]] = field(default_factory=dict)
    # The allies who accepted, in the order asked -> the weapon cards each promised by kind
    # (with the additions only their number is promised: the cards are named at the attack).
    promise: dict[int, tuple[int, ...]] = field(default_factory=dict)


@record
class Coach:
    """The traveller on the road (rulebook, "ATTACKS": "Movement of travellers")."""

    card: int
    step: int                   # ambushes of its route passed (or the one it is at)
    destination: int            # (additions) changed by the messenger's clothes


@record
class Fight:
    """An ambush the coach is passing that may still reach the traveller's strength with
    cards from hand (rulebook, "ATTACKS": "Equipment cards"; with the additions "Planned
    attack": the promised cards)."""

    ambush: int
    strength: int               # the traveller's
    order: list[int]            # the participants, the leader first, then clockwise
    total: int                  # the strength reached so far
    asking: int = 0             # index in ``order`` of the participant asked for cards
    # (additions) allies of a planned attack whose promise is still to be kept or renounced
    pledgers: list[int] = field(default_factory=list)


@record
class Loot:
    """The loot of a successful attack being handed out (rulebook, "Successful attack":
    "Dividing loot and fame"; with the additions "Planned attack": "first the informant must
    fulfil the requirements of the binding agreements")."""

    ambush: int
    order: list[int]            # the participants, the leader first, then clockwise
    gold: int                   # bags still to share
    comrades: int               # comrades still to share (then: still to hand out)
    # (additions) a planned attack: the informant, the promised bags and comrades that the
    # loot and his gold cannot cover
    informant: int = -1
    short_bags: int = 0
    short_comrades: int = 0
    # the shares (``Loot._share_out``), each list by seat
    leader: int = -1
    outlaws: list[int] = field(default_factory=list)    # outlaws in the ambush
    oak: list[int] = field(default_factory=list)        # figures under the oak
    shares: list[int] = field(default_factory=list)     # shares given
    comrades_got: list[int] = field(default_factory=list)   # of which comrades
    round: int = 0              # the share-out round ("the procedure is repeated")
    tier: list[int] = field(default_factory=list)       # seats still to serve in this round
    tiers: list[list[int]] = field(default_factory=list)    # tiers after it in this round
    # the leader's own shares: those he took as bags (a comrade he took is in
    # ``comrades_got``), his shares when this round began, the last round whose own share
    # was settled (asked, or left open where its kind cannot matter)
    own_bags: int = 0
    leader_before: int = 0
    own_round: int = 0


@record
class CloakQuestions:
    """The Sheriff crushed an ambush: every participant in turn is asked whether he plays a
    forest cloak (rulebook, "Defeat by the Sheriff" and "Special item cards: Forest Cloak")."""

    ambush: int
    order: list[int]            # the participants, the leader first, then clockwise
    asking: int = 0             # index in ``order`` of the seat asked
    cloaks: dict[int, bool] = field(default_factory=dict)   # seat -> stays in the ambush


@record
class ProvisionsQuestions:
    """After a successful attack with the additions every participant in turn is asked
    whether he plays provisions (rulebook, "Special item cards: Provisions")."""

    ambush: int
    order: list[int]            # the participants, the leader first, then clockwise
    asking: int = 0             # index in ``order`` of the seat asked
    stay: list[int] = field(default_factory=list)   # seats whose outlaws stay
