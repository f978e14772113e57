"""Roundforest rules: the game configuration, the state and its transitions, one module per
part of the rulebook.

A turn (Roundforest rulebook, "Playing the Game"): optionally set or remove a blockade
(variant), then move or pause; the tile the piece stands on turns 90 degrees in its own
direction (unless blockaded); the vacated tile gets a new chip from the black bag unless a
token was left there; then whatever lies on the new tile acts (well, item token, character
token, blue, yellow or red chip). The turn ends with the chance to open a treasure chest
(also offered at the turn's start), the Forest Spirit's appearance (placed by the left
neighbour of the first qualified player) and the end-of-turn blockade chance.

Where each rule lives (each module's docstring quotes its sections):

* ``turn``: "a. Moving the playing piece" (the compass too), "b. Pausing", "1. Rotate the
  forest tile", "2. Fill the vacated forest tile", "3. Carry out the action", turn order;
* ``items``: "Blue colour chip" (keep, leave, trade with the Fairy, coin tokens), "Yellow
  colour chip", "Item tokens", the treasure chest ("Meeting the Forest Spirit");
* ``wells``: "Magic well";
* ``characters``: "Red colour chip: draw a character card", "Character tokens", "Friendly
  characters", "Hostile characters" (tasks and debts);
* ``helpful_characters``: "Helpful characters" (Prince, Merchant, Goblin, Beggar, Unicorn,
  Forest Spirit);
* ``blockade``: "Setting and removing a blockade (optional!)";
* ``ending``: "Meeting the Forest Spirit" (its appearance), "End of the Game";
* ``bags``: the chips, bags, backpacks and supply every rule draws from and fills;
* ``distances``: the ``near_*`` blocks (moves between tiles), written from the forest;
* ``game``: the configuration ("Setup"); ``state``: the setup, hidden information and the
  combined state;
* ``facts``: the state's declared blocks and fields, and what only reads them (what lies
  where, backpacks, the Goal, progress and ranks, what other seats read of an action);
* ``records``: ``Progress``, a seat's entry of the result; ``handlers``: each decision
  kind's mask, apply and why, the table the engine dispatches on.

Play runs on the core's decision stack (``observation.DECISIONS``, named by
``observation.Kind``): each sub-decision of a turn replaces the one before it, so the stack
holds one decision at a time. Every draw (chips, items, character cards) is made at the
moment of drawing from the state's own generator, so the state is fully determined by its
seed and the actions.
"""

from ..observation import APPLES, COPPER, SILVER
from .bags import CHIP_ORDER, NO_CHAR, NO_ITEM
from .game import RoundforestGame, new_game
from .records import Progress
from .state import RoundforestState

__all__ = ["APPLES", "CHIP_ORDER", "COPPER", "NO_CHAR", "NO_ITEM", "SILVER", "Progress",
           "RoundforestGame", "RoundforestState", "new_game"]
