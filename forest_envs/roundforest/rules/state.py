"""The Roundforest state: every rule module's mixin combined with the declared attributes
and read-only facts of ``facts.RoundforestFacts``, the setup, the blocks written from their
sources, and hidden information redrawn for search.

Roundforest rulebook, "Setup": tiles face up in random order (the four wells on their
places), one chip from the black bag on each tile without a well, all item tokens in the
blue bag, the fairy board's rows filled at random, the character cards shuffled face down,
2 compass tokens each, the pieces on their backpacks.
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np

from ...core.presentation import Presentation
from ...core.state import BufferState
from .. import text
from ..components import (
    APPLE_SUPPLY,
    BEGGAR,
    CHIPS,
    COMPASSES_EACH,
    COPPER_SUPPLY,
    FAIRY_ROWS,
    NUM_CHARACTERS,
    PLAIN_TILES,
    SILVER_SUPPLY,
    SPIRIT,
    WELL_TILES,
)
from ..observation import DECISIONS, Kind, block_names
from .bags import CHIP_ORDER, NO_CHAR, NO_ITEM, BagRules
from .blockade import BlockadeRules
from .characters import CharacterRules
from .distances import NearBlocks
from .ending import EndingRules
from .facts import RoundforestFacts
from .game import RoundforestGame
from .handlers import HANDLERS
from .helpful_characters import HelpfulCharacterRules
from .items import ItemRules
from .turn import TurnRules
from .wells import WellRules

# Redraws of the Prince's secret tokens tried in ``resample_hidden`` until one has a token
# that fits (the Prince's choice would not be pending otherwise).
PRINCE_REDRAWS = 50


class RoundforestState(TurnRules, ItemRules, WellRules, CharacterRules, HelpfulCharacterRules,
                       BlockadeRules, EndingRules, BagRules, NearBlocks, RoundforestFacts,
                       BufferState):
    """One play of Roundforest. The rules live in the mixins, one per part of the rulebook:
    ``turn`` (moving, pausing, rotating, refilling, the order of a turn), ``items`` (drawn
    items, item tokens, the fairy, coin tokens, the treasure chest), ``wells``,
    ``characters`` (cards, tasks, debts, tokens), ``helpful_characters`` (the six helpful
    characters' abilities), ``blockade`` (the variant), ``ending`` (the Forest Spirit, the
    winner) and ``bags`` (chips, bags, backpacks, the supply); ``distances`` writes the
    ``near_*`` blocks. The blocks and fields are declared with their types in
    ``RoundforestFacts``, with what only reads them (the result among it)."""

    DECISIONS = DECISIONS
    HANDLERS = HANDLERS  # handlers.py: each decision kind's mask, apply and why
    RENDER: ClassVar[Presentation] = text
    # Plain fields beside the buffer: each piece's cell (``piece_at`` shows it) and the
    # character cards in the pile (``pile_size`` shows how many).
    FIELDS = ("pos", "pile")
    __slots__ = FIELDS + block_names()

    # (A state is made for its own game only: the override narrows ``game``.)
    @classmethod
    def new(cls, game: RoundforestGame, rng: np.random.Generator) -> RoundforestState:  # type: ignore[override]
        self = cls._blank(game)
        self.rng = rng
        n = game.num_players
        self.players_onehot[n - 2] = 1
        self.no_silver[0] = int(game.no_silver)
        self.blockade_rule[0] = int(game.blockade)
        self.cell_tile[:] = -1
        self.cell_item[:] = NO_ITEM
        self.cell_char[:] = NO_CHAR
        self.gap_item[:] = NO_ITEM
        self._put_down()
        self.fairy[:] = NO_ITEM
        # Tiles face up in random order and orientation; the four well tiles on the wells.
        wells = rng.permutation(np.array(WELL_TILES))
        plain = rng.permutation(np.array(PLAIN_TILES))[:len(game.plain_cells)]
        for cell, tile in zip(game.well_cells, wells):
            self.cell_tile[cell] = tile
            self.cell_well[cell] = 1
        for cell, tile in zip(game.plain_cells, plain):
            self.cell_tile[cell] = tile
        for cell in game.tile_cells:
            self.cell_orient[cell] = int(rng.integers(4))
        self._show_tiles()
        # One chip on each tile without a well, from the black bag.
        self.black_bag[:] = [CHIPS[c] for c in CHIP_ORDER]
        self.cell_chip[:, 0] = 1
        for cell in game.plain_cells:
            self._set_chip(cell, self._draw_chip())
        self.bag_items[:] = game.items
        for r in range(FAIRY_ROWS):
            self._fill_fairy_row(r)
        self.pile = list(range(NUM_CHARACTERS))
        self._show_pile()
        self.supply[:] = (COPPER_SUPPLY, SILVER_SUPPLY, APPLE_SUPPLY)
        self.compasses[:] = COMPASSES_EACH
        self.pos = list(game.corner)
        self._show_pieces()
        self.round_no[0] = 1
        self.push(Kind.TURN, 0)
        self._start_turn(0)
        return self

    # --- the plain fields' observation blocks -------------------------------------------------------
    def _show_derived(self) -> None:
        """Write every block that shows another fact from its one source: ``piece_at`` from
        ``pos``, ``pile_size`` from ``pile``, ``cell_turn`` and ``cell_open`` from the tiles
        and their orientations, the ``near_*`` blocks from the forest and the pieces."""
        self._show_pieces()
        self._show_pile()
        self._show_tiles()
        self.show_near()

    # The near_* blocks follow every change of the forest and the pieces; rather than at
    # every rule that changes one, they are written whenever the buffer is read whole.
    def observation(self, seat: int) -> np.ndarray:
        self.show_near()
        return super().observation(seat)

    def global_state(self) -> np.ndarray:
        self.show_near()
        return super().global_state()

    def to_dict(self) -> dict:
        self.show_near()
        return super().to_dict()

    def edited(self) -> None:
        """After a position is edited by hand: the derived blocks are written again from
        their sources (``_show_derived``), then the core's ``edited``."""
        self._show_derived()
        super().edited()

    # (A state is made for its own game only: the override narrows ``game``.)
    @classmethod
    def from_dict(cls, game: RoundforestGame, data: dict) -> RoundforestState:  # type: ignore[override]
        """As the core's, with the derived blocks written from their sources rather than
        taken from the stored buffer."""
        self = super().from_dict(game, data)
        self._show_derived()
        return self

    # --- hidden information -------------------------------------------------------------------------
    def resample_hidden(self, seat: int, rng: np.random.Generator) -> RoundforestState:
        """Another seat's face-down card is redrawn from the cards it could be (the pile and
        that card); the Prince's secret draws from the bag and those draws; the generator is
        reseeded (future draws are unknown)."""
        new = self.clone()
        for o in range(self.num_players):
            if o == seat:
                continue
            if new.drawn_card[o].any():
                # the card it could be: any in the pile but the Forest Spirit (which resolves
                # itself when drawn) and, when chosen with the Beggar, the Beggar
                c = new.drawn_of(o)
                beggar = False
                if new.decision is not None and new.decision.kind == Kind.CHARACTER:
                    beggar, = new.decision.data
                    beggar = beggar == 1
                pool = sorted(x for x in new.pile + [c]
                              if x != SPIRIT and not (beggar and x == BEGGAR))
                pick = pool[int(rng.integers(len(pool)))]
                new.pile = [x for x in new.pile if x != pick] + ([c] if pick != c else [])
                new.drawn_card[o] = 0
                new.drawn_card[o, pick] = 1
            if new.prince_items[o].any():
                # other draws of as many tokens, at least one of which fits (else the
                # Prince's choice would not be pending)
                for _ in range(PRINCE_REDRAWS):
                    draw = new._peek_items(rng, int(new.prince_items[o].sum()))
                    if any(new.fits(o, k) for k in np.flatnonzero(draw).tolist()):
                        new.prince_items[o] = draw
                        break
        # Cards are drawn from the pile at random, so its order means nothing; sorted, the
        # result depends only on what the seat knows.
        new.pile.sort()
        return new._resampled(rng)


RoundforestGame.state_class = RoundforestState
