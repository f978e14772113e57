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
from .helpful_characters import HelpfulCharacterRules as Helpful
from .items import ItemRules
from .turn import TurnRules
from .wells import WellRules

HANDLERS = {
    # Playing the Game: a. Moving, b. Pausing (then 1. Rotate, 2. Fill, 3. Carry out the action)
    Kind.TURN: Handlers(TurnRules._mask_turn, TurnRules._apply_turn, TurnRules._why_turn),
    # Setting and removing a blockade (optional!), at a turn's start or end
    Kind.BLOCKADE_START: Handlers(BlockadeRules._mask_blockade_start, BlockadeRules._apply_blockade_start),
    Kind.BLOCKADE_END: Handlers(BlockadeRules._mask_blockade_end, BlockadeRules._apply_blockade_end),
    # Blue and yellow colour chips, item tokens, the fairy, coin tokens, the treasure chest
    Kind.DRAWN: Handlers(ItemRules._mask_drawn, ItemRules._apply_drawn),
    Kind.TOKEN_ITEM: Handlers(ItemRules._mask_token_item, ItemRules._apply_token_item),
    Kind.YELLOW: Handlers(ItemRules._mask_yellow, ItemRules._apply_yellow),
    # Red colour chip: a character card; character tokens
    Kind.CHARACTER: Handlers(CharacterRules._mask_character, CharacterRules._apply_character),
    Kind.MEET: Handlers(CharacterRules._mask_meet, CharacterRules._apply_meet),
    # Magic well
    Kind.WELL: Handlers(WellRules._mask_well, WellRules._apply_well),
    Kind.WELL_GIVE: Handlers(WellRules._mask_well_give, WellRules._apply_well_give),
    # Helpful characters
    Kind.MERCHANT: Handlers(Helpful._mask_merchant, Helpful._apply_merchant),
    Kind.PRINCE: Handlers(Helpful._mask_prince, Helpful._apply_prince),
    Kind.GOBLIN_GIVE: Handlers(Helpful._mask_goblin_give, Helpful._apply_goblin_give),
    Kind.GOBLIN_TAKE: Handlers(Helpful._mask_goblin_take, Helpful._apply_goblin_take),
    Kind.BEGGAR: Handlers(Helpful._mask_beggar, Helpful._apply_beggar),
    Kind.UNICORN: Handlers(Helpful._mask_unicorn, Helpful._apply_unicorn),
    Kind.SADDLE: Handlers(Helpful._mask_saddle, Helpful._apply_saddle),
    # Meeting the Forest Spirit: its appearance
    Kind.SPIRIT_PLACE: Handlers(EndingRules._mask_spirit_place, EndingRules._apply_spirit_place),
    # the coin note of "c. Trade with the Fairy"; the treasure chest
    Kind.COIN_TOKEN: Handlers(ItemRules._mask_coin_token, ItemRules._apply_coin_token),
    Kind.CHEST: Handlers(ItemRules._mask_chest, ItemRules._apply_chest),
}
