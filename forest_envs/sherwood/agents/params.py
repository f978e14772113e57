"""Every weight and threshold of the Sherwood Forest heuristic, by name (the phase modules
beside this one read them; nothing else tunes the player)."""

from __future__ import annotations

from ..components import FINAL_COMRADE_FAME

# --- what loot and losses are worth, in fame (``valuation.py``) -------------------------------
COMRADE_FAME = FINAL_COMRADE_FAME   # a comrade's worth in fame (his sixth-round value)
OUTLAW_FAME = 2        # an outlaw lost to the Sheriff, in fame (he fights no more)

# --- preparation (``preparation.py``) -----------------------------------------------------------
MARKET_ROUNDS = 2      # rounds in which a recruit is worth two bags (he fights in every later one)
BUY_BELOW = 2          # it buys equipment while it holds fewer cards than this
SPARE_OUTLAWS = 3      # outlaws in camp before it spends one at the market or the merchant
SMALL_JOINT = 2        # with this many outlaws or fewer left it offers a small joint ambush,
                       # asking for this many from a camp that has them
TIE_JITTER = 0.01      # random tie-break between ambushes of equal expected loot

# --- negotiation (``negotiation.py``) -----------------------------------------------------------
ACCEPT_FAME = 2        # the fame a joint ambush must promise before it sends outlaws there

# --- attacks (``attacks.py``) -------------------------------------------------------------------
REROUTE_MARGIN = 0.5   # a messenger's clothes must gain this much over the journey as it is
PASSED_SHERIFF = 0.5   # share of a Sheriff's fame loss it gains when he crushes a rival
