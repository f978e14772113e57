"""Sherwood Forest component data: the map, the traveller, sheriff and equipment cards,
and every count of the box.

Numbers the rulebook does not print are reconstructed here (and only here); the reasons are
in docs/sherwood.md. Every rulebook example is consistent with this data (tests prove it).

The map (reconstructed; rules/README.md fixes its shape). Two roads cross in the middle of
the forest: York (north) to Nottingham (south) and Derby (west) to Lincoln (east). Each of
the four road arms carries two ambushes of its own, a *gate* close to its town (it strikes
early) and a *wood* half-way to the crossing. Four *fork* ambushes lie in the angles of the
crossing; each touches two arms and so covers two roads; they are the four circled in red.

A traveller drives from its town along its arm to the crossing, then along the arm of its
destination out to that town. On an arm a coach passes, in this order: the gate, the wood,
then the two forks touching the arm, the one on the driver's right first (going in; the
reverse going out). A traveller that turns at the crossing therefore passes the fork in the
angle of its turn twice (once on each arm), as the rulebook's "Ambushes at forks" says it
can; a traveller that goes straight on passes every fork once.
"""

from __future__ import annotations

from dataclasses import dataclass

# --- players, pieces, the box ------------------------------------------------------------
PLAYER_COUNTS = (3, 4, 5, 6)   # six colours in the box
OUTLAWS_PER_COLOUR = 8          # 48 outlaws in the box
BAND_START = 4                  # outlaws in each camp at the start
OAK_START = OUTLAWS_PER_COLOUR - BAND_START   # 4 more of each colour under the oak
MIN_BAND = 4                    # (additions) a band never drops below four outlaws
GOLD_BAGS = 42
GOLD_START = 2                  # bags in each camp at the start
CHURCH_FORCED_ABOVE = 5         # more than this in camp: the church is the only action
MERCHANT_COST = 1
MARKET_COST = 2
HAND_LIMIT = 3                  # the merchant sells nothing to a player holding three cards
ROUNDS = 6
FIRST_EMPTY_FAME = 1            # the first player to empty his camp gains one fame point
ALLIANCE_LETTERS = ("A", "B", "C", "D", "E", "F")   # 12 tokens: six lettered pairs
FINAL_GOLD_FAME = 1             # each bag of sixth-round gold: 1 fame point at the end
FINAL_COMRADE_FAME = 2          # each sixth-round comrade: 2 fame points at the end

# Deck sizes (printed table of the setup): A and B cards taken per player count, and the
# number of travellers laid out each round (A cards first, then B).
DECK_CARDS = {3: 12, 4: 15, 5: 18, 6: 18}
LAID_OUT = {3: 4, 4: 5, 5: 6, 6: 6}

# --- the map ----------------------------------------------------------------------------
TOWNS = ("Derby", "Nottingham", "Lincoln", "York")
DERBY, NOTTINGHAM, LINCOLN, YORK = range(4)
# Ambush ids: gate and wood of each town (by town id), then the four forks.
AMBUSHES = (
    "Derby Gate", "Derby Wood",
    "Nottingham Gate", "Nottingham Wood",
    "Lincoln Gate", "Lincoln Wood",
    "York Gate", "York Wood",
    "North-East Fork", "South-East Fork", "South-West Fork", "North-West Fork",
)
NUM_AMBUSHES = len(AMBUSHES)  # 12
FORK_NE, FORK_SE, FORK_SW, FORK_NW = 8, 9, 10, 11
RED_FORKS = (FORK_NE, FORK_SE, FORK_SW, FORK_NW)   # circled in red on the board


def gate(town: int) -> int:
    return 2 * town


def wood(town: int) -> int:
    return 2 * town + 1


# The forks touching each arm, the driver's right first when driving in towards the
# crossing (north arm driving south: right is west).
ARM_FORKS = {
    YORK: (FORK_NW, FORK_NE),
    LINCOLN: (FORK_NE, FORK_SE),
    NOTTINGHAM: (FORK_SE, FORK_SW),
    DERBY: (FORK_SW, FORK_NW),
}


def arm_in(town: int) -> tuple[int, ...]:
    """Ambushes a coach passes on ``town``'s arm driving from the town to the crossing."""
    return (gate(town), wood(town)) + ARM_FORKS[town]


def route(origin: int, destination: int) -> tuple[int, ...]:
    """Ambushes passed, in order, from ``origin`` to ``destination`` (a fork may repeat)."""
    if origin == destination:
        raise ValueError("a route needs two different towns")
    return arm_in(origin) + tuple(reversed(arm_in(destination)))


ROUTES = {(o, d): route(o, d) for o in range(4) for d in range(4) if o != d}
ROUTE_LEN = 8  # every route passes eight ambushes (two gates, two woods, four fork passes)


def reroute(origin: int, passed: int, destination: int) -> tuple[int, ...] | None:
    """(Additions: messenger's clothes.) The rest of the route from ``origin`` to
    ``destination`` after the coach has passed ``passed`` ambushes of its route (to any
    destination), or None if it would have to drive back along the path already travelled:
    the new route must begin with the ambushes already passed. With this map that holds
    while the coach is still on its origin's arm (at most its gate, wood and two forks
    passed, whatever its old destination)."""
    if destination == origin or passed > len(arm_in(origin)):
        return None
    return route(origin, destination)[passed:]


def reroute_towns(origin: int, destination: int, passed: int) -> tuple[int, ...]:
    """Towns a messenger's clothes card may name for a coach from ``origin`` to
    ``destination`` that has passed ``passed`` ambushes: not the origin, not the present
    destination, and only where the new route starts with the ambushes already passed."""
    done = ROUTES[(origin, destination)][:passed]
    return tuple(t for t in range(len(TOWNS)) if t not in (origin, destination)
                 and ROUTES[(origin, t)][:passed] == done)


# REROUTE[origin][destination][passed]: the towns the messenger's clothes may name.
REROUTE = tuple(tuple(tuple(reroute_towns(o, d, k) if o != d else () for k in range(ROUTE_LEN + 1))
                      for d in range(len(TOWNS))) for o in range(len(TOWNS)))


# --- traveller and sheriff cards --------------------------------------------------------
@dataclass(frozen=True)
class Traveller:
    deck: str           # "A" or "B", the letter on the back
    strength: int       # 1..14
    fame: int           # fame per participant of a successful attack (sheriff: white number)
    gold: int           # bags of gold
    comrades: int       # new comrades
    origin: int         # town id
    destination: int    # town id
    sheriff: bool = False
    fame_loss: int = 0      # (sheriff, large red number, B cards only) fame each loser loses
    outlaw_loss: int = 0    # (sheriff, small red number) outlaws each loser loses

    @property
    def route(self) -> tuple[int, ...]:
        return ROUTES[(self.origin, self.destination)]

    @property
    def loot_value(self) -> int:
        """2 x fame + gold + 2 x comrades: every traveller's is its strength + 1."""
        return 2 * self.fame + self.gold + 2 * self.comrades


def _t(deck, strength, fame, gold, comrades, origin, destination):
    return Traveller(deck, strength, fame, gold, comrades, origin, destination)


def _s(deck, strength, fame, fame_loss, outlaw_loss, origin, destination):
    return Traveller(deck, strength, fame, 0, 0, origin, destination, True, fame_loss, outlaw_loss)


# The 45 travellers (22 A, 23 B) then the 10 sheriffs (5 A, 5 B). Reconstructed: every
# traveller's 2 x fame + gold + 2 x comrades equals its strength + 1 (the rulebook's example
# card, strength 12 with 1 fame, 9 gold and 1 comrade, is card 40); A cards are strengths
# 1-10 (the first three rounds), B cards 3-14; the twelve routes are spread evenly (card k
# drives route (7k + 3) mod 12 of the list in docs/sherwood.md).
CARDS = (
    _t("A", 1, 1, 0, 0, LINCOLN, DERBY),
    _t("A", 2, 1, 1, 0, NOTTINGHAM, DERBY),
    _t("A", 2, 1, 1, 0, LINCOLN, YORK),
    _t("A", 3, 1, 2, 0, YORK, NOTTINGHAM),
    _t("A", 3, 1, 0, 1, DERBY, YORK),
    _t("A", 3, 2, 0, 0, DERBY, LINCOLN),
    _t("A", 4, 1, 3, 0, LINCOLN, NOTTINGHAM),
    _t("A", 4, 2, 1, 0, YORK, LINCOLN),
    _t("A", 4, 1, 1, 1, DERBY, NOTTINGHAM),
    _t("A", 5, 1, 4, 0, YORK, DERBY),
    _t("A", 5, 2, 2, 0, NOTTINGHAM, YORK),
    _t("A", 5, 1, 2, 1, NOTTINGHAM, LINCOLN),
    _t("A", 6, 1, 5, 0, LINCOLN, DERBY),
    _t("A", 6, 2, 3, 0, NOTTINGHAM, DERBY),
    _t("A", 6, 3, 1, 0, LINCOLN, YORK),
    _t("A", 7, 1, 4, 1, YORK, NOTTINGHAM),
    _t("A", 7, 2, 4, 0, DERBY, YORK),
    _t("A", 8, 1, 7, 0, DERBY, LINCOLN),
    _t("A", 8, 2, 3, 1, LINCOLN, NOTTINGHAM),
    _t("A", 9, 3, 4, 0, YORK, LINCOLN),
    _t("A", 9, 1, 6, 1, DERBY, NOTTINGHAM),
    _t("A", 10, 2, 5, 1, YORK, DERBY),
    _t("B", 3, 1, 2, 0, NOTTINGHAM, YORK),
    _t("B", 4, 2, 1, 0, NOTTINGHAM, LINCOLN),
    _t("B", 5, 1, 4, 0, LINCOLN, DERBY),
    _t("B", 5, 1, 2, 1, NOTTINGHAM, DERBY),
    _t("B", 6, 2, 3, 0, LINCOLN, YORK),
    _t("B", 6, 1, 3, 1, YORK, NOTTINGHAM),
    _t("B", 7, 3, 2, 0, DERBY, YORK),
    _t("B", 7, 1, 6, 0, DERBY, LINCOLN),
    _t("B", 8, 2, 5, 0, LINCOLN, NOTTINGHAM),
    _t("B", 8, 1, 5, 1, YORK, LINCOLN),
    _t("B", 9, 2, 6, 0, DERBY, NOTTINGHAM),
    _t("B", 9, 3, 4, 0, YORK, DERBY),
    _t("B", 9, 1, 4, 2, NOTTINGHAM, YORK),
    _t("B", 10, 2, 7, 0, NOTTINGHAM, LINCOLN),
    _t("B", 10, 4, 3, 0, LINCOLN, DERBY),
    _t("B", 10, 1, 7, 1, NOTTINGHAM, DERBY),
    _t("B", 11, 2, 6, 1, LINCOLN, YORK),
    _t("B", 11, 3, 6, 0, YORK, NOTTINGHAM),
    _t("B", 12, 1, 9, 1, DERBY, YORK),
    _t("B", 12, 3, 5, 1, DERBY, LINCOLN),
    _t("B", 13, 2, 8, 1, LINCOLN, NOTTINGHAM),
    _t("B", 13, 4, 6, 0, YORK, LINCOLN),
    _t("B", 14, 3, 7, 1, DERBY, NOTTINGHAM),
    # Sheriffs: A cards print no fame loss (the rulebook: the larger red number is "only on
    # the B card"); each loser loses one outlaw (A) or one to two (B).
    _s("A", 6, 2, 0, 1, YORK, NOTTINGHAM),
    _s("A", 7, 2, 0, 1, NOTTINGHAM, YORK),
    _s("A", 7, 3, 0, 1, DERBY, LINCOLN),
    _s("A", 8, 3, 0, 1, LINCOLN, DERBY),
    _s("A", 9, 3, 0, 1, NOTTINGHAM, LINCOLN),
    _s("B", 9, 3, 1, 1, LINCOLN, YORK),
    _s("B", 10, 3, 2, 1, YORK, DERBY),
    _s("B", 11, 4, 2, 1, DERBY, NOTTINGHAM),
    _s("B", 12, 4, 2, 2, LINCOLN, NOTTINGHAM),
    _s("B", 13, 5, 3, 2, YORK, LINCOLN),
)
NUM_CARDS = len(CARDS)  # 55
NUM_TRAVELLERS = 45
NUM_SHERIFFS = 10
EXAMPLE_CARD = 40       # the rulebook's negotiation/loot example: strength 12, 1 fame, 9 gold, 1 comrade
MAX_STRENGTH = 14
MAX_LOOT_GOLD = max(c.gold for c in CARDS)
MAX_COMRADES = max(c.comrades for c in CARDS)


def deck_ids(deck: str, sheriffs: bool) -> list[int]:
    """Card ids with ``deck`` on the back (sheriffs only with the additions)."""
    return [i for i, c in enumerate(CARDS) if c.deck == deck and (sheriffs or not c.sheriff)]


# --- equipment --------------------------------------------------------------------------
# Kinds 0-2 are weapons (strength 1, 2, 3), 3-5 the special items of the additions.
EQUIPMENT = ("cudgel", "bow", "sword", "provisions", "forest cloak", "messenger's clothes")
NUM_EQUIPMENT_KINDS = len(EQUIPMENT)
NUM_WEAPON_KINDS = 3
WEAPON_STRENGTH = (1, 2, 3)
MAX_WEAPON_STRENGTH = max(WEAPON_STRENGTH)   # the most one card adds to an outlaw
CUDGEL, BOW, SWORD, PROVISIONS, FOREST_CLOAK, MESSENGER = range(6)
# 18 weapons: more light ones than heavy ones (reconstructed split, docs/sherwood.md).
EQUIPMENT_COUNTS = (8, 6, 4, 2, 2, 2)
NUM_EQUIPMENT = sum(EQUIPMENT_COUNTS)  # 24


def equipment_deck(additions: bool) -> list[int]:
    """Equipment kinds in play, one entry per card (the special items only with the additions)."""
    kinds = range(NUM_EQUIPMENT_KINDS) if additions else range(NUM_WEAPON_KINDS)
    return [k for k in kinds for _ in range(EQUIPMENT_COUNTS[k])]


# --- preparation places ------------------------------------------------------------------
PLACES = ("church", "inn", "merchant", "market")
CHURCH, INN, MERCHANT, MARKET = range(4)
