"""Sherwood Forest's state buffer layout, which is also its observation layout.

The standard decision blocks come first (core), then these blocks in observation order.
Card features (``FEATURES``) describe a traveller as numbers: strength, fame, gold,
comrades, origin and destination (one-hot over the towns), sheriff flag, fame and outlaw
losses, and whether it is a B card. A laid-out card's features are public once it lies face
up (or is led); a card looked at in the inn is in its looker's ``peek`` block only.
"""

from __future__ import annotations

from enum import IntEnum

from ..core.decisions import DecisionKind, check_kind_ids
from ..core.layout import Layout
from .actions import MAX_ASK_CARDS, MAX_PROMISED_COMRADES, MAX_SEATS, MAX_SLOTS
from .components import (
    GOLD_BAGS,
    MAX_COMRADES,
    MAX_STRENGTH,
    NUM_AMBUSHES,
    NUM_CARDS,
    NUM_EQUIPMENT,
    NUM_EQUIPMENT_KINDS,
    NUM_WEAPON_KINDS,
    OAK_START,
    OUTLAWS_PER_COLOUR,
    ROUNDS,
    ROUTE_LEN,
)

# Failed joint-ambush offers (declined or given up) a performer may make in one turn. Not in
# the rulebook: without a cap a performer could offer for ever and a game need not end
# (docs/sherwood.md, item 7, says why 3).
MAX_OFFERS = 3
MAX_TOTAL = 99          # bound of an ambush's running strength in decision data
MAX_FAME_SEEN = 300     # the fame track keeps counting past 30 (a bound, never reached)

DECISIONS = (
    DecisionKind("prep", ints=(("offers_made", MAX_OFFERS),)),
    DecisionKind("ask", ints=(("ambush", NUM_AMBUSHES - 1), ("own", OUTLAWS_PER_COLOUR),
                              ("offers_made", MAX_OFFERS)), seats=("ally",)),
    DecisionKind("reveal", ints=(("ambush", NUM_AMBUSHES - 1), ("own", OUTLAWS_PER_COLOUR))),
    DecisionKind("answer", ints=(("ambush", NUM_AMBUSHES - 1), ("outlaws", OUTLAWS_PER_COLOUR),
                                 ("cards", MAX_ASK_CARDS)), seats=("performer",)),
    DecisionKind("lead"),
    DecisionKind("equip", ints=(("ambush", NUM_AMBUSHES - 1), ("strength", MAX_STRENGTH),
                                ("total", MAX_TOTAL)), seats=("leader",)),
    # Who gets the shares left in a round that cannot serve every participant in it
    # (``picks`` of them); or, ``own`` = 1, the leader's own share of the round just ended:
    # a bag or a comrade (rules/loot.py).
    DecisionKind("share", ints=(("picks", MAX_SEATS), ("own", 1))),
    DecisionKind("comrade", ints=(("comrades", MAX_COMRADES),)),
    DecisionKind("cloak", ints=(("ambush", NUM_AMBUSHES - 1),)),
    DecisionKind("provisions", ints=(("ambush", NUM_AMBUSHES - 1),)),
    DecisionKind("messenger"),
    DecisionKind("target", ints=(("ambush", NUM_AMBUSHES - 1), ("own", OUTLAWS_PER_COLOUR))),
    DecisionKind("terms", ints=(("ambush", NUM_AMBUSHES - 1), ("outlaws", OUTLAWS_PER_COLOUR)),
                 seats=("ally",)),
    DecisionKind("informant", ints=(("ambush", NUM_AMBUSHES - 1), ("own", OUTLAWS_PER_COLOUR))),
    DecisionKind("pledge", ints=(("ambush", NUM_AMBUSHES - 1), ("strength", MAX_STRENGTH),
                                 ("total", MAX_TOTAL)), seats=("leader",)),
    # (Additions) the informant cannot cover the promised loot: bags (then comrades) still
    # to withhold from the recipients, one at a time.
    DecisionKind("shortfall", ints=(("ambush", NUM_AMBUSHES - 1), ("bags", GOLD_BAGS),
                                    ("comrades", MAX_PROMISED_COMRADES * (MAX_SEATS - 1)))),
    # (Additions) the leader of a planned attack calls the next ally to keep his promise.
    DecisionKind("call", ints=(("ambush", NUM_AMBUSHES - 1), ("strength", MAX_STRENGTH),
                               ("total", MAX_TOTAL)), seats=("leader",)),
    # (Basic rules) the promised cards are shown: the performer forms the ambush or gives up.
    DecisionKind("confirm", ints=(("ambush", NUM_AMBUSHES - 1),)),
)


class Kind(IntEnum):
    """Each decision kind by name: ``Kind.X`` is the index in ``DECISIONS`` (and in the
    ``decision_kind`` block) of the kind named ``x``; ``Kind.CLOAK`` stays apart from the
    action block ``actions.CLOAK`` and the card ``components.PROVISIONS``."""

    PREP = 0
    ASK = 1
    REVEAL = 2
    ANSWER = 3
    LEAD = 4
    EQUIP = 5
    SHARE = 6
    COMRADE = 7
    CLOAK = 8
    PROVISIONS = 9
    MESSENGER = 10
    TARGET = 11
    TERMS = 12
    INFORMANT = 13
    PLEDGE = 14
    SHORTFALL = 15
    CALL = 16
    CONFIRM = 17


check_kind_ids(Kind, DECISIONS)
# A view names the pending decision's kind (``"kind": "turn"``): words and agents key by Kind.
KIND_OF_NAME = {spec.name: Kind(i) for i, spec in enumerate(DECISIONS)}

# Card features.
F_STRENGTH, F_FAME, F_GOLD, F_COMRADES, F_ORIGIN, F_DEST = 0, 1, 2, 3, 4, 8
F_SHERIFF, F_FAME_LOSS, F_OUTLAW_LOSS, F_DECK_B = 12, 13, 14, 15
FEATURES = 16


def build_layout(L: Layout) -> None:
    n, S, A = L.num_players, MAX_SLOTS, NUM_AMBUSHES
    most = OUTLAWS_PER_COLOUR
    # --- public: the table
    L.add("players_onehot", 4, high=1)                    # 3..6 players
    L.add("additions", 1, high=1)
    L.add("round_no", 1, high=ROUNDS)
    L.add("attack_phase", 1, high=1)
    L.add("pit", 1, high=GOLD_BAGS, scale=1 / 10)
    L.add("pile_left", 1, high=NUM_CARDS, scale=1 / 10)
    L.add("equip_left", 1, high=NUM_EQUIPMENT, scale=1 / 10)
    L.add("equip_discard", NUM_EQUIPMENT_KINDS, high=NUM_EQUIPMENT)
    L.add("slot_present", S, high=1)
    L.add("slot_face_up", S, high=1)
    L.add("slot_card", (S, FEATURES), high=MAX_STRENGTH)  # face-up cards only
    L.add("slot_told", (S, 4), high=MAX_STRENGTH)         # told in an offer: flag, fame, gold, comrades
    L.add("coach_card", FEATURES, high=MAX_STRENGTH)      # the traveller on the road
    L.add("coach_at", A, high=1)                          # the ambush it is passing
    L.add("coach_step", 1, high=ROUTE_LEN)
    L.add("offer_ambush", A, high=1)
    L.add("offer_own", 1, high=most)
    L.add("offers_made", 1, high=MAX_OFFERS)
    # --- public, with seat axes (rotated: observer first)
    L.add("figure", n, high=1, seats=0)                   # the starting player figure
    L.add("card_holder", n, high=1, seats=0)              # the starting player card
    L.add("emptied", n, high=n, seats=0)                  # 1st, 2nd, ... to empty the camp
    L.add("camp", n, high=most, seats=0)
    L.add("places", (n, 4), high=most, seats=0)           # church, inn, merchant, market
    L.add("oak", n, high=OAK_START, seats=0)
    L.add("gold", n, high=GOLD_BAGS, seats=0, scale=1 / 5)
    L.add("fame", n, high=MAX_FAME_SEEN, seats=0, scale=1 / 10)
    L.add("hand_count", n, high=NUM_EQUIPMENT, seats=0)
    L.add("round_gold", n, high=GOLD_BAGS, seats=0)       # gold gained in round 6 (fame at the end)
    L.add("round_comrades", n, high=OAK_START, seats=0)   # comrades gained in round 6
    L.add("ambush_outlaws", (A, n), high=most, seats=1)
    L.add("ambush_leader", (A, n), high=1, seats=1)
    L.add("promised", (A, n, NUM_WEAPON_KINDS), high=MAX_ASK_CARDS, seats=1)
    L.add("slot_marked", (S, n), high=1, seats=1)         # inn markers
    L.add("leads_left", n, high=2, seats=0)
    L.add("offer_ask", (n, 2), high=most, seats=0)        # outlaws, cards asked of each seat
    L.add("offer_answer", n, high=2, seats=0)             # 1 accepted (a decline ends the offer)
    L.add("played", (n, NUM_WEAPON_KINDS), high=most, seats=0)  # cards played at this ambush
    L.add("shares", (n, 2), high=GOLD_BAGS, seats=0)      # loot shares given, of which comrades
    # --- the additions
    L.add("provisioned", (A, n), high=1, seats=1)         # outlaws kept in an ambush by provisions
    L.add("messenger_used", 1, high=1)                    # this traveller's destination was changed
    L.add("fork_bonus", n, high=1, seats=0)               # took the last round's fork bonus outlaw
    L.add("ambush_target", (A, S + 1), high=1)            # binding token: place of the target (S: on the road)
    L.add("advance", (A, n), high=GOLD_BAGS, seats=1)     # promised loot laid out for each ally
    L.add("advance_comrades", (A, n), high=MAX_PROMISED_COMRADES, seats=1)  # promised comrades laid out
    L.add("informant", (A, n), high=1, seats=1)
    L.add("offer_target", S + 1, high=1)                  # the offer's target (S: none)
    L.add("offer_terms", (n, 3), high=GOLD_BAGS, seats=0)  # promised bags, gold paid now, promised comrades
    L.add("offer_informant", n, high=1, seats=0)          # the informant named in the offer
    L.add("pledged", (A, n), high=MAX_ASK_CARDS, seats=1)  # equipment cards promised (a number)
    # --- seen by its owner only
    L.add("hand", (n, NUM_EQUIPMENT_KINDS), high=NUM_EQUIPMENT, see="owner")
    L.add("peek", (n, S, FEATURES), high=MAX_STRENGTH, see="owner")


def block_names() -> tuple[str, ...]:
    layout = Layout(3)
    build_layout(layout)
    return tuple(layout.blocks)
