"""The rules in a screen or two, for a person about to play (``forest-envs play``'s ``rules``):
the goal, a round, scoring and the card values, with this table's numbers (players, rounds,
hand size, castles in play) taken from components.py, so they are the engine's."""

from __future__ import annotations

import textwrap

from ..components import (
    ALMS_PER_PLAYER,
    CASTLE_CAPACITY,
    CHESTS,
    GARMENTS,
    JEWELRY,
    JEWELRY_VALUE,
    banners,
    castle_values,
    hand_size,
    num_rounds,
)

WIDTH = 78  # within an 80-column terminal


def rules_summary(game) -> str:
    n, legendary = game.num_players, game.legendary
    values = castle_values(n)
    capacities = ", ".join(f"castle {c} holds at most {k} cards" for c, k in CASTLE_CAPACITY.items())
    banner = ", ".join(f"{c} {b}" for c, b in banners(n).items() if c in values)
    jewels = ", ".join(f"{name} {value}" for name, value in zip(JEWELRY, JEWELRY_VALUE))
    paragraphs = [
        f"CHICKWOOD FOREST, {n} players{' (Legendary cards)' if legendary else ''}: the most "
        f"glory wins. {num_rounds(n, legendary)} rounds; a tie shares the win.",
        f"A ROUND. 1. Scout: {hand_size(n)} cards each; in turn you play one card at a time in "
        f"front of a castle ({values[0]}-{values[-1]} in play; {capacities}). Your castle's "
        f"banner says which of your plays are face up (U) and face down (D): {banner}. "
        "2. Raid: in turn order each player takes one castle not yet raided this round with all "
        "the cards before it (face-down ones included); that castle becomes yours and sets your "
        "place in the next round's order (lowest first). 3. Alms: benefactors you took give 1-3 "
        "alms each, placed at once as a snake: one alms per village, each village next to the "
        "last (not diagonally, not through forests or full villages); alms you cannot place "
        f"stay in your store ({ALMS_PER_PLAYER} in all).",
        f"LOOT AT THE END. Busts: each one discards a chest of your largest kind. Chests "
        f"({', '.join(CHESTS)}): your largest kind scores its count squared, every other chest "
        f"-1. Garments ({', '.join(GARMENTS)}): 5 for each kind you hold exactly once. Jewelry: "
        f"{jewels} each. Maid Marihen: +1 for each treasure kind you hold. Henchman: -3 each.",
        "CASTLES: each castle card you took (your first included) scores its value.",
        "VILLAGES: a row's glory counts only once an alms lies in that row. Most alms in a "
        "village takes its highest such glory, the second most the next, and so on; a tie goes "
        "to whoever placed alms there later.",
    ]
    if legendary:
        paragraphs.append(
            "LEGENDARY CARDS: spy glass (look at one castle's face-down cards before the raids, "
            "every round), key (once, make a raider choose another castle), and at the end, in "
            "this order: travelling entertainers (swap two alms), golden arrow (swap a treasure "
            "with an opponent's), fake beard (give a henchman away).")
    return "\n\n".join(textwrap.fill(p, WIDTH, break_on_hyphens=False) for p in paragraphs)
