"""Chickwood Forest rules: one module per part of the rulebook, and the state they make up.

Turn structure (rulebook "Sequence of Play"): each round every player scouts (plays one hand
card per turn to a castle, in turn order, face up or down as their castle's banner says),
then (Legendary variant) the spy-glass holder may look at one castle, then each player in
turn order raids one castle not yet raided this round (the key holder may force a raider to
choose again), resolving benefactors at once as a snake of alms placed village by village.
When a full deal is impossible the game ends; Legendary end cards resolve, then scoring.

Where each rule lives:

* ``game``: the configuration ("Setup": deck, castles, banners, the grid) and ``new_game``;
* ``state``: the setup, the round cycle, the discards, hidden information;
* ``scouting``: "1. Scout the Castles", and the spy glass right before the first raid;
* ``raiding``: "2. Steal the Loot" (the key too) and "3. Give Alms" (the alms snake);
* ``endgame``: "End of Game", the Legendary cards resolved before the final scoring;
* ``scoring``: the glory of loot, castle cards and villages ("Scoring");
* ``facts``: the state's declared blocks and fields, and what follows from them (the spy,
  the alms spaces, scores, ranks);
* ``records``: the secret discards; ``handlers``: each decision kind's mask, apply and why,
  the table the engine dispatches on.

Play runs on the core's stack of pending decisions (observation.py lists the kinds): the
key holder's answer is pushed above the raid it interrupts, and each decision carries what
it is about (the castle chosen, the alms left, the first pick), so nothing of a pending
decision hides in other fields.
"""

from .facts import grid_spaces
from .game import ChickwoodGame, new_game
from .records import SecretDiscard
from .state import ChickwoodState

__all__ = ["ChickwoodGame", "ChickwoodState", "SecretDiscard", "grid_spaces", "new_game"]
