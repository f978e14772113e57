"""Tables the rules read at every turn, precomputed once at import: traveller cards as
observation numbers, the masks of the ambush and ask blocks, the decks by configuration,
action ranges.

Nothing here changes during play; the rule modules beside this one only read it.
"""

from __future__ import annotations

import functools

import numpy as np

from .. import actions as A
from ..components import (
    CARDS,
    OUTLAWS_PER_COLOUR,
    WEAPON_STRENGTH,
    deck_ids,
    equipment_deck,
)
from ..observation import (
    F_COMRADES,
    F_DECK_B,
    F_DEST,
    F_FAME,
    F_FAME_LOSS,
    F_GOLD,
    F_ORIGIN,
    F_OUTLAW_LOSS,
    F_SHERIFF,
    F_STRENGTH,
    FEATURES,
)


def card_features(card_id: int) -> np.ndarray:
    """A traveller card as the FEATURES numbers of the observation."""
    c = CARDS[card_id]
    f = np.zeros(FEATURES, np.int16)
    f[F_STRENGTH], f[F_FAME], f[F_GOLD], f[F_COMRADES] = c.strength, c.fame, c.gold, c.comrades
    f[F_ORIGIN + c.origin] = 1
    f[F_DEST + c.destination] = 1
    f[F_SHERIFF], f[F_FAME_LOSS], f[F_OUTLAW_LOSS] = int(c.sheriff), c.fame_loss, c.outlaw_loss
    f[F_DECK_B] = int(c.deck == "B")
    return f


CARD_FEATURES = np.stack([card_features(i) for i in range(len(CARDS))])

# Row c: True for the first c entries (an ambush with 1..c outlaws out of a camp of c).
UP_TO = np.tri(OUTLAWS_PER_COLOUR + 1, OUTLAWS_PER_COLOUR, -1, dtype=bool)
# Action ranges read at every preparation turn, looked up once.
CHURCH_START, MERCHANT_ID, MARKET_ID = A.CHURCH.start, A.MERCHANT.start, A.MARKET.start
INN_IDS, AMBUSH_IDS, JOINT_IDS, ASK_IDS = (slice(b.start, b.stop)
                                           for b in (A.INN, A.AMBUSH, A.JOINT, A.ASK))


def _ask_patterns() -> np.ndarray:
    """The ask block's mask for every (must ask, outlaws in the ally's camp, cards he may
    be asked for): c outlaws (at least one when someone must be asked) with at most one card
    per outlaw; built once so a mask is one copy."""
    rows, cols = A.ASK.shape
    out = np.zeros((2, rows, cols, rows * cols), np.int8)
    for must in (0, 1):
        for top_c in range(rows):
            for top_e in range(cols):
                ask = out[must, top_c, top_e].reshape(rows, cols)
                for c in range(must, top_c + 1):
                    ask[c, :min(c, top_e) + 1] = 1
    return out


ASK_PATTERNS = _ask_patterns()
ASK_PATTERNS.flags.writeable = False


@functools.lru_cache(maxsize=4096)
def ambush_pattern(occupied: tuple[bool, ...], camp: int) -> np.ndarray:
    """The ambush block's mask (flat, read-only): ambush a with k+1 outlaws when a is
    free and k < camp. Cached because copying it costs a tenth of building it with numpy
    on arrays this small, and the same occupancy recurs over the turns of a round."""
    block = np.zeros(A.AMBUSH.shape, np.int8)
    for a, taken in enumerate(occupied):
        if not taken:
            block[a] = UP_TO[camp]
    block = block.ravel()
    block.flags.writeable = False
    return block


WEAPON_STRENGTHS = np.array(WEAPON_STRENGTH, np.int64)
# Built once: a game's setup shuffles these (the same draws as shuffling the lists).
DECK_IDS = {(deck, sheriffs): np.array(deck_ids(deck, sheriffs), np.int64)
            for deck in ("A", "B") for sheriffs in (False, True)}
SHERIFF_IDS = [i for i, c in enumerate(CARDS) if c.sheriff]
EQUIPMENT_DECK = {additions: np.array(equipment_deck(additions), np.int64)
                  for additions in (False, True)}
