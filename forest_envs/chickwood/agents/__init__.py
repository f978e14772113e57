"""A scripted Chickwood Forest player: ``HeuristicAgent``.

How it plays
------------
* Loot (``valuation``): a collection is worth a *shaped* final score: the rules' loot glory
  plus what it promises for the rounds to come, plus values for the Legendary cards. A card
  is worth the change it makes; a benefactor the alms it gives; an unseen card the mean over
  the cards this seat has not seen. A castle is worth its glory, a little less for raiding
  later next round, plus its cards as the seat knows them.
* Scouting (``scouting``): each legal play is scored by my expected raid after it (the
  raiders before me take castles as the opponent model says), minus the card's worth to
  whoever else will likely get it, plus the cards kept in hand. Good cards go where it means
  to raid, preferably face down; henchmen go where the others will raid.
* Opponents (``opponent_model``): each is value-driven or random; the belief is learnt from
  every raid it makes during the game.
* Raids, spy glass, key (``raiding``): the best castle for me with a little denial; spy where
  most is unknown among my likely targets; use the key when forcing the raider off its
  castle gains more than keeping the key.
* Alms (``alms_routes``): each village's worth for one alms is the change of standing it
  makes (ties broken by position, as the rules do); the snake follows the best route found
  by searching every legal one.
* End of game (``endgame``): entertainers, golden arrow and fake beard are scored exactly by
  my final margin over the best opponent; it passes when nothing improves it.

The parts are small modules; ``params.Params`` holds every tunable number.

Memoisation: one scheme. Expensive pure functions (shaped values and marginals of a
collection, a seat's marginals and card values with its alms, village alms values, best
snake routes, exact final glory, a castle's and its cards' records as a seat reads them)
take hashable arguments (tuples, the interned ``Params``; public facts and the seat's own
only) and are wrapped in ``functools.lru_cache``, shared by every agent and game of the
process. Nothing else is cached, but for the opponent model's greedy chance of each seat,
kept until its belief changes: a decision reads the seat's reading once (``SeatView`` of
``env.unwrapped.reading``) and computes the values it shares once (``Valuer``).
"""

from .heuristic import HeuristicAgent
from .params import Params

__all__ = ["HeuristicAgent", "Params"]
