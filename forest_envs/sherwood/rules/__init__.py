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

Where each rule is (``SherwoodState`` combines one mixin class per phase module):

============================  ===================================================  ========================
module                        rulebook section                                     decisions
============================  ===================================================  ========================
``rounds.py``                 Setup; End of Preparation; END OF THE ROUND          (turn order)
``prepare.py``                PREPARATION PHASE: Preparation Actions 1-5, 5.1      ``prep``
``negotiate.py``              5.2 Preparing a joint attack                         ``ask`` ``reveal``
                                                                                   ``answer`` ``confirm``
``agreements.py``             (additions) Exchange; Agreements; Binding            ``target`` ``informant``
                              agreements                                           ``terms``
``attacks.py``                ATTACKS: Movement of travellers, Equipment cards,    ``lead`` ``equip``
                              Successful attack, No attack takes place
``planned_attack.py``         (additions) Attacks: Planned attack, Shortage of     ``call`` ``pledge``
                              loot                                                 ``shortfall``
``loot.py``                   Dividing loot and fame; After a successful attack;   ``share`` ``comrade``
                              (additions) Provisions                               ``provisions``
``sheriff.py``                (additions) Defeat by the Sheriff; Forest Cloak      ``cloak``
``messenger.py``              (additions) Messenger's Clothes                      ``messenger``
``scoring.py``                END OF THE GAME: sixth-round loot into fame          (the result)
``seats_and_travellers.py``   seats named in actions, the laid-out travellers, outlaws leaving
                              an ambush: what every phase does at the table
``hidden.py``                 what a seat cannot see (``resample_hidden``)
============================  ===================================================  ========================

And what they make up: ``game.py`` the configuration ("Setup": decks, laid-out travellers,
seat orders) and ``new_game``; ``state.py`` ``SherwoodState``, the phases over
``facts.SherwoodFacts`` (the declared blocks and fields, and what only reads them: the
starting players, seats in order, the coach's route, a robbery's participants, scores and
ranks, the conservation totals); ``records.py`` the sub-states in progress (offer, coach,
fight, loot, questions); ``precomputed.py`` tables built once at import (card features, the
ambush and ask masks, decks); ``handlers.py`` each decision kind's mask, apply and why, the
table the engine dispatches on.

Play runs on the core's stack of pending decisions (observation.DECISIONS). The turn
player's decision is the bottom of the stack; negotiation answers are decisions of the
asked allies pushed above the performer's, and an ambush's equipment choices are decisions
of its participants. Every draw comes from the state's own generator, so the state is fully
determined by its seed and the actions. docs/sherwood.md explains every reading.
"""

from .game import SherwoodGame, new_game
from .precomputed import card_features
from .state import SherwoodState

__all__ = ["SherwoodGame", "SherwoodState", "card_features", "new_game"]
