"""Chickwood Forest's table of contents: each decision kind's handlers, from which the engine
builds its dispatch (``core/decisions.py``: ``Handlers``; the mask marks the legal ids, the
apply plays one, the optional why says why an id is illegal). A kind added to
``observation.DECISIONS`` without its row here fails at import."""

from __future__ import annotations

from ...core.decisions import Handlers
from ..observation import Kind
from .endgame import GameEnd
from .raiding import Raiding
from .scouting import Scouting

HANDLERS = {
    # Sequence of Play, 1. Scout the Castles; the spy glass (Legendary)
    Kind.SCOUT: Handlers(Scouting._mask_scout, Scouting._apply_scout, Scouting._why_scout),
    Kind.SPY: Handlers(Scouting._mask_spy, Scouting._apply_spy, Scouting._why_spy),
    # 2. Steal the Loot (the key, Legendary), 3. Give Alms
    Kind.RAID: Handlers(Raiding._mask_raid, Raiding._apply_raid, Raiding._why_raid),
    Kind.KEY: Handlers(Raiding._mask_key, Raiding._apply_key),
    Kind.ALMS: Handlers(Raiding._mask_alms, Raiding._apply_alms, Raiding._why_alms),
    # End of Game: the Legendary cards
    Kind.ENTERTAINERS_FIRST: Handlers(GameEnd._mask_entertainers_first, GameEnd._apply_entertainers_first),
    Kind.ENTERTAINERS_SECOND: Handlers(GameEnd._mask_entertainers_second, GameEnd._apply_entertainers_second),
    Kind.ARROW_GIVE: Handlers(GameEnd._mask_arrow_give, GameEnd._apply_arrow_give),
    Kind.ARROW_TAKE: Handlers(GameEnd._mask_arrow_take, GameEnd._apply_arrow_take),
    Kind.FAKE_BEARD: Handlers(GameEnd._mask_fake_beard, GameEnd._apply_fake_beard),
}
