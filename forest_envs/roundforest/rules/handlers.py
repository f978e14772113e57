"""Roundforest's table of contents: each decision kind's handlers, from which the engine
builds its dispatch (``core/decisions.py``: ``Handlers``; the mask marks the legal ids, the
apply plays one, the optional why says why an id is illegal). A kind added to
``observation.DECISIONS`` without its row here fails at import."""

from __future__ import annotations

from ...core.decisions import Handlers
from ..observation import Kind
from .blockade import BlockadeRules
from .characters import CharacterRules
from .ending import EndingRules
from .helpers import HelperRules
from .items import ItemRules
from .turn import TurnRules
from .wells import WellRules

HANDLERS = {
    Kind.TURN: Handlers(TurnRules._mask_turn, TurnRules._apply_turn, TurnRules._why_turn),
    Kind.BLOCKADE_START: Handlers(BlockadeRules._mask_blockade_start, BlockadeRules._apply_blockade_start),
    Kind.BLOCKADE_END: Handlers(BlockadeRules._mask_blockade_end, BlockadeRules._apply_blockade_end),
    Kind.DRAWN: Handlers(ItemRules._mask_drawn, ItemRules._apply_drawn),
    Kind.TOKEN_ITEM: Handlers(ItemRules._mask_token_item, ItemRules._apply_token_item),
    Kind.YELLOW: Handlers(ItemRules._mask_yellow, ItemRules._apply_yellow),
    Kind.CHARACTER: Handlers(CharacterRules._mask_character, CharacterRules._apply_character),
    Kind.MEET: Handlers(CharacterRules._mask_meet, CharacterRules._apply_meet),
    Kind.WELL: Handlers(WellRules._mask_well, WellRules._apply_well),
    Kind.WELL_GIVE: Handlers(WellRules._mask_well_give, WellRules._apply_well_give),
    Kind.MERCHANT: Handlers(HelperRules._mask_merchant, HelperRules._apply_merchant),
    Kind.PRINCE: Handlers(HelperRules._mask_prince, HelperRules._apply_prince),
    Kind.GOBLIN_GIVE: Handlers(HelperRules._mask_goblin_give, HelperRules._apply_goblin_give),
    Kind.GOBLIN_TAKE: Handlers(HelperRules._mask_goblin_take, HelperRules._apply_goblin_take),
    Kind.BEGGAR: Handlers(HelperRules._mask_beggar, HelperRules._apply_beggar),
    Kind.UNICORN: Handlers(HelperRules._mask_unicorn, HelperRules._apply_unicorn),
    Kind.SADDLE: Handlers(HelperRules._mask_saddle, HelperRules._apply_saddle),
    Kind.SPIRIT_PLACE: Handlers(EndingRules._mask_spirit_place, EndingRules._apply_spirit_place),
    Kind.COIN_TOKEN: Handlers(ItemRules._mask_coin_token, ItemRules._apply_coin_token),
    Kind.CHEST: Handlers(ItemRules._mask_chest, ItemRules._apply_chest),
}
