"""A scripted Roundforest player: ``HeuristicAgent``.

It reads only what its seat may know (``env.unwrapped.reading(agent)``: the seat's typed
record, ``text.view.SeatReading``, taken as ``seat_view.SeatView`` at each decision; and the
action mask) plus the public component data, and plays for the ring:

* Golden apples first (``wells``, ``helpful_characters``, ``items``): silver is turned into
  apples at wells (or bought from the Merchant), copper into silver, spare items into
  copper; the treasure chest and its key are kept together and the chest is opened as soon
  as it can be; a drawn or traded coin token is exchanged for its coin.
* Characters (``characters``): lower tasks (an apple) beat upper ones; debts are settled
  when possible (never with an apple while apples are short), and a helper is used when it
  helps now.
* Moving (``turn``): each legal target is scored by what lies there for this player now,
  plus how close it brings the piece to where it wants to be (a well while it holds coins
  to exchange, the Forest Spirit once qualified), by a breadth-first search over the tiles'
  current octagons (``valuation``). Compasses are spent only for a clearly better target.

Each decision kind has its handler in ``heuristic.HANDLERS`` (checked against the game's
decisions at import), one module per part of the rulebook as in ``rules/``; a handler picks
one of the legal actions for every position its decision can arise in, and raises
``ImpossibleDecision`` naming the decision when handed a set of legal actions the rules
cannot produce. There is no random or first-legal fallback. ``params.Params`` holds every
weight.
"""

from .heuristic import HANDLERS, HeuristicAgent
from .impossible import ImpossibleDecision
from .params import Params

__all__ = ["HANDLERS", "HeuristicAgent", "ImpossibleDecision", "Params"]
