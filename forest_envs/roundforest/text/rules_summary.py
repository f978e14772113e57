"""The rules in a screen or two, for a person about to play (``forest-envs play``'s ``rules``):
the goal, a turn, what each tile does, the characters, with this table's numbers (tiles,
compasses, fairy prices, the wells' rates, every task) taken from components.py and the
tasks and abilities worded as the prompts word them (``words.task_text``, ``words.ABILITIES``),
so they are the engine's."""

from __future__ import annotations

import textwrap

from ..components import (
    APPLES_TO_WIN,
    BACKPACK_HEAVY,
    BACKPACK_ITEMS,
    CHARACTERS,
    COMPASSES_EACH,
    FAIRY_COST,
    FRIENDLY,
    HEAVY,
    HELPFUL,
    HOSTILE,
    WELL_COPPER_IN,
    WELL_COPPER_OUT,
    WELL_ITEMS_IN,
    tiles_in_play,
)
from .words import ABILITIES, WIDTH, item_name, listing, task_text


def _characters(kind: str) -> str:
    """The friendly or hostile characters with their two tasks (a helpful one has none)."""
    tasks = [(c.name, c.upper, c.lower) for c in CHARACTERS if c.kind == kind]
    return "; ".join(f"{name}: {task_text(upper)}, or {task_text(lower)}"
                     for name, upper, lower in tasks if upper is not None and lower is not None)


def rules_summary(game) -> str:
    n = game.num_players
    heavy = listing([item_name(k) for k in sorted(HEAVY)])
    top, middle, bottom = FAIRY_COST
    helpers = "; ".join(f"{c.name}: {ABILITIES[c.name]}" for c in CHARACTERS if c.kind == HELPFUL
                        and c.name != "Forest Spirit")
    variants = [v for v, on in (("without the silver-coin item tokens (no_silver)", game.no_silver),
                                ("with blockades (blockade)", game.blockade)) if on]
    paragraphs = [
        f"ROUNDFOREST, {n} players{', ' + ' and '.join(variants) if variants else ''}: the "
        f"first to bring {APPLES_TO_WIN} golden apples, free of debts, to the Forest Spirit "
        "wins the Emerald Ring. Nothing else scores (an unfinished game ranks players by golden "
        "apples, then fewer debts, then coins).",
        f"A TURN. Move your piece or pause. The forest is {tiles_in_play(n)} tiles named by row "
        "and column (A1 top left). A tile's exits show where a piece may go: 1 the next tile "
        "that way, 2 the tile two away (jumping over the next); only one piece a tile; pieces "
        f"start in their backpacks at the corners. A compass (you have {COMPASSES_EACH}, each "
        "used once) also opens the closed exits. Then the tile you stand on turns 90 degrees "
        "its own way (cw or ccw on the board), and the tile you left gets a new colour chip "
        "unless you left a token there. Pausing ends the turn there.",
        "WHAT YOU FIND where you move: BLUE chip: draw an item; keep it, leave it on the tile, "
        "or trade it with the fairy for an item of her rows (top row "
        f"{top} copper, middle {middle} copper, bottom free; the traded row's other items go "
        "back into the bag and the rows above move down). YELLOW chip: draw an item and put it "
        "on another tile with a yellow chip (else a blue one). RED chip: draw a character "
        f"card face down (below). WELL: {WELL_ITEMS_IN} items for "
        f"{WELL_COPPER_OUT} copper, {WELL_COPPER_IN} copper for 1 silver, or 1 silver for 1 "
        "golden apple. ITEM token: take it (keep or trade). CHARACTER token: enter only to "
        "fulfil its task or use its ability. A coin token may be exchanged at once for the "
        f"coin. Your backpack holds {BACKPACK_ITEMS} items, at most {BACKPACK_HEAVY} heavy "
        f"({heavy}); you may not enter a tile with an item when it is full.",
        "CHARACTERS. A friendly or hostile card sets two tasks: the upper one settles it, the "
        "lower one also pays a golden apple. Fulfil one now, pay a golden apple, or take the "
        "debt: the card lies by you and its token on your tile until someone fulfils the task "
        "there (or you pay an apple there). While you owe a debt the Forest Spirit will not "
        f"give you the ring. Friendly: {_characters(FRIENDLY)}. Hostile: "
        f"{_characters(HOSTILE)}.",
        "A helpful card's ability is used at once or laid out, its token on your tile for "
        f"anyone: {helpers}. Other golden apples: open the treasure chest with the key.",
        f"THE FOREST SPIRIT. Once a player has {APPLES_TO_WIN} golden apples and no debt, the "
        "player to their left puts the Forest Spirit's token on a tile with a red chip (else "
        "blue); moving onto it with the apples and no debt wins. Drawing the Forest Spirit's "
        "card from a red chip (or choosing it with the Beggar) with the apples and no debt "
        "wins at once.",
    ]
    if game.blockade:
        paragraphs.append(
            "BLOCKADES. Once a turn, before moving or at its end, you may set a heavy item from "
            "your backpack in a gap between tiles or take one back: the tiles around a "
            "blockade do not turn.")
    return "\n\n".join(textwrap.fill(p, WIDTH - 2, break_on_hyphens=False) for p in paragraphs)
