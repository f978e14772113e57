"""The rules in a screen or two, for a person about to play (``forest-envs play``'s ``rules``):
the goal, a round's two phases, the four places and the ambushes, the loot and the end, with
this table's numbers (rounds, travellers laid out, prices, the equipment) taken from
components.py, so they are the engine's."""

from __future__ import annotations

import textwrap

from ..components import (
    BAND_START,
    CHURCH_FORCED_ABOVE,
    EQUIPMENT,
    FINAL_COMRADE_FAME,
    FINAL_GOLD_FAME,
    FIRST_EMPTY_FAME,
    GOLD_START,
    HAND_LIMIT,
    LAID_OUT,
    MARKET_COST,
    MERCHANT_COST,
    MIN_BAND,
    NUM_WEAPON_KINDS,
    OAK_START,
    ROUNDS,
    WEAPON_STRENGTH,
)
from ..observation import MAX_OFFERS
from .words import WIDTH


def rules_summary(game) -> str:
    n, additions = game.num_players, game.additions
    weapons = ", ".join(f"{EQUIPMENT[k]} +{WEAPON_STRENGTH[k]}" for k in range(NUM_WEAPON_KINDS))
    paragraphs = [
        f"SHERWOOD FOREST, {n} players{' with the additions' if additions else ''}: the most "
        f"fame after {ROUNDS} rounds wins (a tie: fewer outlaws under the oak, then more gold). "
        f"You start with {BAND_START} outlaws and {GOLD_START} gold in camp, {OAK_START} more "
        f"outlaws under the oak. Each round {LAID_OUT[n]} travellers are laid out by the board, "
        "one face up.",
        "PREPARATION. From the starting player figure on, each player in turn sends outlaws out "
        "of camp, one action a turn, until every camp is empty. CHURCH: one outlaw; give any "
        f"gold to the pit, 1 fame a bag (forced with more than {CHURCH_FORCED_ABOVE} gold in "
        "camp). INN: one outlaw; look at a laid-out traveller in secret. MERCHANT: one outlaw "
        f"and {MERCHANT_COST} gold; draw an equipment card (not with {HAND_LIMIT} in hand). "
        f"MARKET: one outlaw and {MARKET_COST} gold; recruit an outlaw from under the oak (both "
        "work from next round). AMBUSH: any number of outlaws into a free ambush on the roads; "
        "you lead it. JOINT AMBUSH: offer an ambush with your own outlaws and ask other players "
        "for outlaws and equipment cards; each accepts or declines, then you form it or give "
        f"it up (at most {MAX_OFFERS} failed offers a turn). The first to empty his camp gains "
        f"{FIRST_EMPTY_FAME} fame, the second takes the starting player card.",
        "ATTACKS. From the holder of the starting player card on, each player in turn leads a "
        "laid-out traveller along its route, town to town past the ambushes (with fewer than 6 "
        "players the card's holder leads two). An ambush whose outlaws (1 each) and promised "
        "cards reach the traveller's strength must attack; weapons from hand may be added, one "
        f"card an outlaw ({weapons}). A successful attack: every player in the ambush gains "
        "the traveller's fame; the leader takes its gold and comrades and hands them out one "
        "share (a bag or a comrade) an outlaw, round by round; the outlaws go home and the "
        "traveller is gone. A traveller no ambush stops leaves the forest.",
        f"END. After round {ROUNDS}, its new gold and comrades become fame ({FINAL_GOLD_FAME} "
        f"a bag, {FINAL_COMRADE_FAME} a comrade). Between rounds outlaws come home, new "
        "travellers are laid out and the starting player figure goes to the poorest player.",
    ]
    if additions:
        paragraphs.append(
            "ADDITIONS. Sheriff cards among the travellers: every ambush he passes fights him "
            "until he is beaten; an ambush he beats loses fame and outlaws (a band never drops "
            f"below {MIN_BAND}). Special cards: provisions (stay in the ambush after a success), "
            "forest cloak (no loss to the Sheriff), messenger's clothes (send a traveller to "
            "another town). Binding agreements: a joint ambush may mark a target traveller, "
            "name an informant who promises each ally bags and comrades of the loot (laid out "
            "in advance from the pit and the oak), and pay gold now; allies promise a number of "
            "cards kept in hand. The player with the most outlaws at the four red forks gets an "
            "outlaw from under the oak at the round's end.")
    return "\n\n".join(textwrap.fill(p, WIDTH - 2, break_on_hyphens=False) for p in paragraphs)
