"""Sherwood Forest's table of contents: each decision kind's handlers, from which the engine
builds its dispatch (``core/decisions.py``: ``Handlers``; the mask marks the legal ids, the
apply plays one, the why says why an id is illegal). A kind added to
``observation.DECISIONS`` without its row here fails at import."""

from __future__ import annotations

from ...core.decisions import Handlers
from ..observation import Kind
from .agreements import Agreements
from .attacks import Attacks
from .loot import LootSharing
from .messenger import Messenger
from .negotiate import Negotiation
from .planned_attack import PlannedAttack
from .prepare import Preparation
from .sheriff import Sheriff

HANDLERS = {
    Kind.PREP: Handlers(Preparation._mask_prep, Preparation._apply_prep, Preparation._why_prep),
    Kind.ASK: Handlers(Negotiation._mask_ask, Negotiation._apply_ask, Negotiation._why_ask),
    Kind.REVEAL: Handlers(Negotiation._mask_reveal, Negotiation._apply_reveal),
    Kind.ANSWER: Handlers(Negotiation._mask_answer, Negotiation._apply_answer, Negotiation._why_answer),
    Kind.LEAD: Handlers(Attacks._mask_lead, Attacks._apply_lead, Attacks._why_lead),
    Kind.EQUIP: Handlers(Attacks._mask_equip, Attacks._apply_equip, Attacks._why_equip),
    Kind.SHARE: Handlers(LootSharing._mask_share, LootSharing._apply_share, LootSharing._why_share),
    Kind.COMRADE: Handlers(LootSharing._mask_comrade, LootSharing._apply_comrade, LootSharing._why_comrade),
    Kind.CLOAK: Handlers(Sheriff._mask_cloak, Sheriff._apply_cloak, Sheriff._why_cloak),
    Kind.PROVISIONS: Handlers(LootSharing._mask_provisions, LootSharing._apply_provisions,
                              LootSharing._why_provisions),
    Kind.MESSENGER: Handlers(Messenger._mask_messenger, Messenger._apply_messenger, Messenger._why_messenger),
    Kind.TARGET: Handlers(Agreements._mask_target, Agreements._apply_target, Agreements._why_target),
    Kind.TERMS: Handlers(Agreements._mask_terms, Agreements._apply_terms, Agreements._why_terms),
    Kind.INFORMANT: Handlers(Agreements._mask_informant, Agreements._apply_informant,
                             Agreements._why_informant),
    Kind.PLEDGE: Handlers(PlannedAttack._mask_pledge, PlannedAttack._apply_pledge, PlannedAttack._why_pledge),
    Kind.SHORTFALL: Handlers(PlannedAttack._mask_shortfall, PlannedAttack._apply_shortfall,
                             PlannedAttack._why_shortfall),
    Kind.CALL: Handlers(PlannedAttack._mask_call, PlannedAttack._apply_call, PlannedAttack._why_call),
    Kind.CONFIRM: Handlers(Negotiation._mask_confirm, Negotiation._apply_confirm),
}
