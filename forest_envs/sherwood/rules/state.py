"""Sherwood Forest rules (basic game and additions): the configuration, the state and its
transitions, one module per part of the Sherwood Forest rulebook.

A round (rulebook, "Object of the Game and Sequence of Actions"): the preparation phase, in
turn order from the holder of the starting player *figure*, one action per turn until every
camp is empty (church, inn, merchant, market, a simple ambush or a joint ambush negotiated
with allies); then the attack phase, in turn order from the holder of the starting player
*card*, each player leads one laid-out traveller along its route past the ambushes, until
the laid-out cards run out. Six rounds, then sixth-round loot turns into fame. The additions
bring the Sheriff, the special items (the forest cloak and provisions as questions to every
participant, the messenger's clothes as an interrupt window), binding agreements with gold in
offers, and the fork bonus outlaw.

Where each rule is (``SherwoodState`` combines one mixin class per module):

========================  =====================================================  ==========================
module                    rulebook section                                       decisions
========================  =====================================================  ==========================
``rounds.py``             Setup; End of Preparation; END OF THE ROUND             (turn order)
``prepare.py``            PREPARATION PHASE: Preparation Actions 1-5, 5.1         ``prep``
``negotiate.py``          5.2 Preparing a joint attack                            ``ask`` ``reveal``
                                                                                  ``answer`` ``confirm``
``agreements.py``         (additions) Exchange; Agreements; Binding agreements    ``target`` ``informant``
                                                                                  ``terms``
``attacks.py``            ATTACKS: Movement of travellers, Equipment cards,       ``lead`` ``equip``
                          Successful attack, No attack takes place
``planned_attack.py``     (additions) Attacks: Planned attack, Shortage of loot   ``call`` ``pledge``
                                                                                  ``shortfall``
``loot.py``               Dividing loot and fame; After a successful attack;      ``share`` ``comrade``
                          (additions) Provisions                                  ``provisions``
``sheriff.py``            (additions) Defeat by the Sheriff; Forest Cloak         ``cloak``
``messenger.py``          (additions) Messenger's Clothes                         ``messenger``
``scoring.py``            END OF THE GAME                                         (the result)
``table.py``              seats and laid-out travellers, shared by every phase
``hidden.py``             what a seat cannot see (``resample_hidden``)
``records.py``            the sub-states in progress: offer, coach, fight, loot, questions
``tables.py``             tables built once: card features, masks, decks
========================  =====================================================  ==========================

Play runs on the core's stack of pending decisions (observation.DECISIONS). The turn
player's decision is the bottom of the stack; negotiation answers are decisions of the
asked allies pushed above the performer's, and an ambush's equipment choices are decisions
of its participants. Every draw comes from the state's own generator, so the state is fully
determined by its seed and the actions. docs/sherwood.md explains every reading.
"""

from __future__ import annotations

from typing import ClassVar

from ...core.config import Option
from ...core.game import Game, GameTraits
from ...core.state import BufferState
from .. import actions as A
from .. import render
from ..components import DECK_CARDS, LAID_OUT, PLAYER_COUNTS
from ..observation import DECISIONS, block_names, build_layout
from .agreements import Agreements
from .attacks import Attacks
from .handlers import HANDLERS
from .hidden import HiddenInformation
from .loot import LootSharing
from .messenger import Messenger
from .negotiate import Negotiation
from .planned_attack import PlannedAttack
from .prepare import Preparation
from .rounds import Rounds
from .scoring import Scoring
from .sheriff import Sheriff
from .table import Table
from .tables import card_features

__all__ = ["SherwoodGame", "SherwoodState", "card_features", "new_game"]


class SherwoodGame(Game):
    env_id = "sherwood_v0"
    traits = GameTraits(
        name="Sherwood Forest", min_players=min(PLAYER_COUNTS), max_players=max(PLAYER_COUNTS),
        chance=True, hidden_information=True, has_scores=True, score_scale=10.0,
        tie_break="most fame; then fewer outlaws under the oak; then more gold in camp")
    state_class: ClassVar[type]
    options = {
        "num_players": Option(4, choices=PLAYER_COUNTS),
        # The additions: the Sheriff, the special items, binding agreements and gold in
        # offers, the fork bonus (docs/sherwood.md).
        "additions": Option(False, choices=(False, True), doc="play with the additions"),
    }
    build_layout = build_layout
    action_space = A.SPACE

    def __init__(self, **config):
        super().__init__(**config)
        n = self.num_players
        self.additions = self.config["additions"]
        self.deck_cards = DECK_CARDS[n]
        self.laid_out = LAID_OUT[n]
        # Seats clockwise from each seat, built once (rules ask for them at every turn).
        self.seat_orders = tuple(tuple((first + i) % n for i in range(n)) for first in range(n))


def new_game(config: dict | None = None, seed: int | None = None) -> SherwoodState:
    """A new game; Game objects are shared between games of one configuration."""
    return SherwoodGame.shared(config).new_initial_state(seed)


class SherwoodState(Rounds, Preparation, Negotiation, Agreements, Attacks, PlannedAttack,
                    LootSharing, Sheriff, Messenger, Scoring, Table, HiddenInformation,
                    BufferState):
    """One play of Sherwood Forest. Numbers live in the layout blocks (observation.py), the
    rest in ``FIELDS``:

    ``pile`` traveller ids still to lay out (A cards first), ``box`` ids never used,
    ``removed`` ids that left the game, ``slots`` the laid-out card id of each place (-1
    none), ``equip_deck`` equipment kinds face down (top last), ``leads`` the seats still
    to lead a traveller this round, in order, ``coach`` the traveller on the road
    (``records.Coach``) or None, ``fight`` the ambush being resolved (``records.Fight``),
    ``loot`` the loot being shared (``records.Loot``), ``offer`` the joint ambush under
    negotiation (``records.Offer``), ``tokens`` alliance letters in use (ambush, seat) ->
    letter index (seat -1: an agreement's target), ``round_index`` the round (1-6),
    ``crush`` the forest-cloak questions of a crushed ambush (``records.CloakQuestions``),
    ``provisioning`` the provisions questions after a successful attack
    (``records.ProvisionsQuestions``), ``window`` the seats still to be asked about the
    messenger's clothes, ``targets`` (additions) ambush -> the card id of its agreement's
    target.
    """

    DECISIONS = DECISIONS
    HANDLERS = HANDLERS  # handlers.py: each decision kind's mask, apply and why
    RENDER = render
    FIELDS = ("pile", "box", "removed", "slots", "equip_deck", "leads", "coach", "fight",
              "loot", "offer", "tokens", "round_index", "crush", "provisioning", "window",
              "targets")
    __slots__ = FIELDS + block_names()


SherwoodGame.state_class = SherwoodState
