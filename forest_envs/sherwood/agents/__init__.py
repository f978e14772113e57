"""A scripted Sherwood Forest player: ``HeuristicAgent``.

It reads only what its seat may know (``env.unwrapped.reading(agent)``: the seat's typed
record, ``text.view.SeatReading``, taken as ``seat_view.SeatView`` at each decision) and the
action mask (through ``choose``, the bare engine's ``state.reading(seat)`` and
``state.legal_action_mask()``); where the mask leaves one action outside the preparation,
that is its choice and nothing is read. A face-down traveller it has not seen is judged as every card of its deck letter in
the game's card table (``components.deck_ids``), equally likely, the Sheriffs among them
when the reading says the additions are in play. Routes, strengths and loot are the
engine's tables.

Every decision kind has its rule (``heuristic.RULES``, checked against the game's decision
kinds at import), and each rule returns a legal action in every position: a rule that does
not is a bug, raised as an error naming the decision, never covered by a random move.

* Preparation: every action costs an outlaw and the first empty camp earns a fame point,
  so it prepares little: the church only when forced and, in the last round, with all its
  gold (gold held at the end is worth nothing); the market in the first two rounds; the
  merchant below two cards; never the inn (measured: one look is worth less than the
  outlaw) unless every ambush is taken. Then every outlaw into the free ambush with the
  most expected loot: every laid-out traveller drives this round and is robbed by the first
  ambush on its route strong enough; (additions) a Sheriff who would crush the ambush
  counts as a loss. With every ambush taken its idle outlaws go to the inn (it costs no
  gold), looking at a face-down traveller it has not seen.
* Offers: when a known traveller is too strong for it alone, it first offers a joint
  ambush on his route, asking the player with most outlaws in camp for the missing
  strength (a declined offer costs nothing, then it ambushes alone); with two outlaws or
  fewer left it offers a small joint ambush. Where somebody must be asked and it planned
  to ask nobody (an offer it did not plan: its plan is per turn), it asks for one outlaw.
  It accepts an offer only for at most half of its camp and when the joint ambush will rob
  a known traveller worth 2 fame or more.
* Attacks: leads the traveller worth most to it (its own ambush robs it: its loot; another
  player's: minus his fame; a Sheriff: the ambushes he crushes), plays the weakest card
  that closes the gap (only when its cards can close it), keeps loot shares and comrades;
  (additions) sends a coach with the messenger's clothes where the rest of the journey is
  worth more to it, stays with provisions and goes home under a forest cloak when it holds
  the card (plays none without), marks no target, names itself the informant and keeps an
  equipment promise while it holds weapons.
* Loot: keeps a share or comrade when it may, else gives it to the participant with least
  fame; takes its own share of a round as a bag where it is asked (the allies' later
  shares then leave more for it to keep); (additions) as an informant who cannot cover
  every promise, it withholds from the recipient with most fame; as a leader it calls first
  the ally with least fame to keep his equipment promise. It forms every joint ambush it
  offered (it asks for no cards).

The parts are small modules: ``heuristic`` (the agent and its dispatch by ``Kind``),
``seat_view`` (the record as the rules read it at one decision), ``preparation``,
``negotiation``, ``attacks`` and ``loot`` (the rules of each phase's decisions), ``valuation`` (what it makes of a reading: travellers as numbers, the cards a
face-down one may be, the strength of every ambush) and ``params`` (every weight and
threshold, by name).
"""

from .heuristic import RULES, HeuristicAgent

__all__ = ["RULES", "HeuristicAgent"]

