"""Sherwood Forest's flat action ids (the same ids for every configuration).

Opponents are named relative to the actor (+1 = the next seat clockwise, +0 = the actor),
so an id means the same whatever seat plays it. Laid-out travellers are numbered 1-6 by
their place beside the board.
"""

from __future__ import annotations

from ..core.actions import ActionSpace
from .components import (
    AMBUSHES,
    EQUIPMENT,
    GOLD_BAGS,
    MAX_COMRADES,
    MAX_LOOT_GOLD,
    NUM_AMBUSHES,
    NUM_WEAPON_KINDS,
    OUTLAWS_PER_COLOUR,
    TOWNS,
)

MAX_SLOTS = 6          # laid-out travellers
MAX_SEATS = 6
MAX_ASK_CARDS = 3      # cards an ally may be asked to promise (the hand limit)
MAX_PROMISED_LOOT = MAX_LOOT_GOLD  # bags of loot promised to one ally (the richest traveller carries 9)
MAX_PAYMENT = 5        # gold paid to one ally with an offer (more than 5 forces the church)
MAX_PROMISED_COMRADES = MAX_COMRADES  # comrades promised to one ally (the most a traveller carries)


def _accept_label(w0: int, w1: int, w2: int) -> str:
    if w0 + w1 + w2 == 0:
        return "accept"
    parts = [f"{w} {EQUIPMENT[k]}" for k, w in enumerate((w0, w1, w2)) if w]
    return "accept promising " + ", ".join(parts)


def _terms_label(g: int, k: int, c: int) -> str:
    comrades = f" and {c} comrades" if c else ""
    return f"promise {g} bags{comrades} of loot and pay {k} gold now"


def _seat(r: int) -> str:
    return "self" if r == 0 else f"+{r}"


SPACE = ActionSpace()
CHURCH = SPACE.add("church", GOLD_BAGS, lambda k: f"church: donate {k + 1} gold")
INN = SPACE.add("inn", MAX_SLOTS, lambda s: f"inn: look at traveller {s + 1}")
MERCHANT = SPACE.add("merchant", (), lambda: "merchant: buy equipment")
MARKET = SPACE.add("market", (), lambda: "market: recruit an outlaw")
AMBUSH = SPACE.add("ambush", (NUM_AMBUSHES, OUTLAWS_PER_COLOUR),
                   lambda a, k: f"ambush at {AMBUSHES[a]} with {k + 1}")
JOINT = SPACE.add("joint", (NUM_AMBUSHES, OUTLAWS_PER_COLOUR),
                  lambda a, k: f"offer a joint ambush at {AMBUSHES[a]} with {k + 1} own")
ASK = SPACE.add("ask", (OUTLAWS_PER_COLOUR + 1, MAX_ASK_CARDS + 1),
                lambda c, e: f"ask for {c} outlaws and {e} cards")
REVEAL = SPACE.add("reveal", MAX_SLOTS, lambda s: f"tell the loot of traveller {s + 1}")
REVEAL_NONE = SPACE.add("reveal_none", (), lambda: "tell nothing")
ACCEPT = SPACE.add("accept", (MAX_ASK_CARDS + 1,) * NUM_WEAPON_KINDS, _accept_label)
DECLINE = SPACE.add("decline", (), lambda: "decline")
LEAD = SPACE.add("lead", MAX_SLOTS, lambda s: f"lead traveller {s + 1}")
EQUIP = SPACE.add("equip", NUM_WEAPON_KINDS, lambda k: f"play {EQUIPMENT[k]}")
EQUIP_PASS = SPACE.add("equip_pass", (), lambda: "play no more cards")
SHARE = SPACE.add("share", MAX_SEATS, lambda r: f"give a share to {_seat(r)}")
COMRADE = SPACE.add("comrade", MAX_SEATS, lambda r: f"give a comrade to {_seat(r)}")
# The additions: the forest cloak against the Sheriff, provisions after a successful attack,
# the messenger's clothes when a traveller is revealed.
CLOAK_STAY, CLOAK_GO_HOME = range(2)       # the cloak block's two ids, in order
CLOAK = SPACE.add("cloak", 2, lambda i: ("forest cloak: stay in the ambush", "forest cloak: go home")[i])
CLOAK_NONE = SPACE.add("cloak_none", (), lambda: "no forest cloak")
PROVISIONS = SPACE.add("provisions", (), lambda: "provisions: stay in the ambush")
PROVISIONS_NONE = SPACE.add("provisions_none", (), lambda: "no provisions")
MESSENGER = SPACE.add("messenger", len(TOWNS), lambda t: f"messenger's clothes: send to {TOWNS[t]}")
MESSENGER_PASS = SPACE.add("messenger_pass", (), lambda: "no messenger's clothes")
# The additions' binding agreements: the informant marks a target traveller, promises allies
# bags of the loot (paid in advance from the pit) and may pay gold at once.
TARGET = SPACE.add("target", MAX_SLOTS, lambda s: f"mark traveller {s + 1} as the target")
TARGET_NONE = SPACE.add("target_none", (), lambda: "mark no target")
# Comrades promised are the ally's own figures from under the oak, laid out in the ambush.
TERMS = SPACE.add("terms", (MAX_PROMISED_LOOT + 1, MAX_PAYMENT + 1, MAX_PROMISED_COMRADES + 1),
                  _terms_label)
# The informant need not be the performer: the performer or an asked ally who looked at the
# target in the inn.
INFORMANT = SPACE.add("informant", MAX_SEATS, lambda r: f"name {_seat(r)} as the informant")
# (Additions) Equipment promises are a public number of cards kept hidden in hand: at the
# planned attack the ally plays them (the ``equip`` ids) or renounces.
RENOUNCE = SPACE.add("renounce", (), lambda: "renounce the promised cards")
# (Additions) When the loot and the informant's gold cannot cover the promises, the informant
# chooses whose promise goes without: one laid-out bag (0) or comrade (1) at a time.
WITHHOLD_BAG, WITHHOLD_COMRADE = range(2)  # the withhold block's first axis
WITHHOLD = SPACE.add("withhold", (2, MAX_SEATS),
                     lambda k, r: f"withhold a promised {('bag', 'comrade')[k]} from {_seat(r)}")
# (Additions) The leader of a planned attack says in what order the allies confirm their
# equipment promises: he calls the next one.
CALL = SPACE.add("call", MAX_SEATS, lambda r: f"call on {_seat(r)} to keep his promise")
# (Basic rules) Once the allies' promised cards are shown, the performer forms the joint
# ambush or gives it up ("If the allies' forces are insufficient, the performer may give up").
CONFIRM_FORM, CONFIRM_GIVE_UP = range(2)   # the confirm block's two ids, in order
CONFIRM = SPACE.add("confirm", 2, lambda i: ("form the joint ambush", "give up the joint ambush")[i])
SPACE.freeze()
NUM_ACTIONS = SPACE.size
