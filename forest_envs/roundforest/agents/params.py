"""Every number the Roundforest heuristic weighs with.

``Params`` holds the weights (``HeuristicAgent(seed, **overrides)`` changes any of them); the
module constants below it are the sentinels the handlers rank with, not weights.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..components import GOBLIN, MERCHANT, PRINCE, UNICORN


@dataclass(frozen=True)
class Params:
    # --- what an item is worth keeping (valuation.item_worth) ---------------------------------
    item_base: float = 1.0          # any item
    chest_key_pair: float = 6.0     # the treasure chest or its key, the other one held
    chest_key_alone: float = 3.0    # ... the other one not held
    prized_item: float = 3.0        # a cross, a sword or a magic potion
    debt_item: float = 3.0          # added per task of a character owed that gives or needs it
    heavy_gift: float = 1.0         # added for a heavy item but the chest (friendly characters' gifts)
    # --- what arriving on a tile brings (valuation.tile_value) --------------------------------
    spirit_tile: float = 1000.0     # the Forest Spirit's token (entered only when qualified)
    merchant_with_silver: float = 8.0  # the Merchant's token while holding silver (an apple)
    helper_tile: float = 3.0        # any other helper's token
    owed_character_tile: float = 12.0  # a character this seat owes
    task_character_tile: float = 9.0   # another character: entering means a task can be done
    well_with_silver: float = 20.0  # a well while holding silver (an apple)
    well_with_copper: float = 10.0  # ... while holding the copper for a silver coin
    well_with_items: float = 4.0    # ... while holding the items for copper
    item_token_bonus: float = 1.0   # an item token, with room: this plus the item's worth
    blue_chip: float = 3.0          # a blue chip (an item), with room in the backpack
    blue_chip_full: float = 1.5     # ... with a full backpack (the fairy may still trade)
    red_chip: float = 2.5           # a red chip (a character card) ...
    red_chip_many_debts: float = 0.5  # ... once this seat owes red_chip_debts or more
    red_chip_debts: int = 2
    yellow_chip: float = 1.0
    # --- moving (turn.choose_turn, helpful_characters.choose_unicorn) --------------------------
    goal_pull: float = 6.0          # a target d moves from a goal gains goal_pull / (1 + d)
    compass_cost: float = 6.0       # a move that spends a compass, with more than one left
    last_compass_cost: float = 9.0  # ... that spends the last one
    pause_value: float = 0.2        # pausing (a move must beat it)
    move_noise: float = 0.1         # a uniform draw times this breaks ties between moves
    unicorn_tile_weight: float = 0.2  # the Unicorn: a tile's value counts this much beside goal_pull
    # --- items in hand and the fairy (items) --------------------------------------------------
    copper_worth: float = 1.0       # what a copper paid to the fairy costs, in item worth
    copper_token_worth: float = 1.0  # a copper-coin token traded for, before its price
    silver_token_worth: float = 3.5  # a silver-coin token traded for, before its price
    exchange_copper_floor: float = 3.5  # a coin token in hand is exchanged unless a trade beats
    exchange_silver_floor: float = 5.0  # ... this (a copper token) or this (a silver token)
    keep_floor: float = 0.5         # an item is kept, traded or left: a trade must beat the
    trade_margin: float = 0.5       # ... larger of its worth and keep_floor by trade_margin
    # --- wells and the Merchant -----------------------------------------------------------
    well_items_max_worth: float = 3.0  # two items go for copper when worth this much or less
    merchant_sell_max_worth: float = 2.0  # the Merchant buys the items worth this or less
    # --- the Beggar: the helpers to lead to, the most often useful first ------------------------
    beggar_helpers: tuple[int, ...] = (PRINCE, MERCHANT, UNICORN, GOBLIN)


DEFAULT = Params()

# Sentinels, not weights.
NO_KEEP = -1.0          # an item that cannot be kept: below every floor
NO_TASK_SHORTFALL = 99  # what a character without that task lacks: more than any task
UNREACHED = 99          # the distance of a tile that reaches no goal
