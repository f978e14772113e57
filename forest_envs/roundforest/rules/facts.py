"""What a Roundforest state is made of, and what follows from it without changing it.

``RoundforestFacts`` declares the state's attributes with their types: the blocks of the
state buffer (``observation.build_layout`` adds them, in this order; each a numpy view) and
the plain-data ``FIELDS``. Its methods only read them: what lies on a tile, what a backpack
holds and has room for, the card a seat drew, who owes a character, whether a seat has met
the Goal, each seat's progress, the ranks and the shaping potential, what another seat
reads of an action, the conservation totals. The Python state (``state.py``) inherits it,
and so can a compiled state that supplies the same attributes.

The phases keep the conditions of their own decisions (what a mask offers: a task's items,
the fairy's price, the chest, a well's exchanges, the blockade gaps, where a piece may go
and whom it may meet): they are the rules a phase's module quotes.

Shapes below: n seats, X cells of the 6 x 6 frame (36), G gaps between them (25), I item
kinds (22), C characters (12), R fairy rows (3) of S slots (3).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ...core.layout import BlockView
from ...core.results import competition_ranks
from .. import actions as A
from ..components import (
    APPLES_TO_WIN,
    BACKPACK_HEAVY,
    BACKPACK_ITEMS,
    CHARACTER_NAMES,
    COIN_TOKENS,
    COPPER_TOKEN,
    HEAVY_KINDS,
    IS_HEAVY,
    SPIRIT,
    WELL_COPPER_IN,
)
from ..observation import COPPER, SILVER
from . import checks
from .records import Progress

if TYPE_CHECKING:
    from ...core.game import Game
    from .game import RoundforestGame

# In the ranking of the players without the ring a silver coin counts as much copper as a
# well asks for it.
SILVER_IN_COPPER = WELL_COPPER_IN


def _progress(winner, apples, owed: list, copper, silver, items: list) -> Progress:
    """One seat's ``Progress`` from its entries of the blocks (``owed``, ``items``: its rows)."""
    return Progress(winner=bool(winner), apples=int(apples), debts=sum(owed),
                    coins=int(copper) + SILVER_IN_COPPER * int(silver), item_count=sum(items))


class RoundforestFacts:
    """The state's declared attributes and the facts derived from them (reads only)."""

    __slots__ = ()

    # What the facts read of the engine (``GameState`` has it; any state that combines the
    # facts with an engine does), declared here for a type checker only: the facts'
    # annotations at run time are exactly the state's blocks and fields. ``game`` is this
    # game's class, where ``GameState`` has the base ``Game``: a class that combines the two
    # declares it again (``phase_base.PhaseBase``).
    if TYPE_CHECKING:
        game: RoundforestGame
        num_players: int

        @property
        def current_player(self) -> int: ...

        def decision_name(self) -> str | None: ...

    # What a state dict's fields must hold (checks.py), whichever engine reads it.
    @staticmethod
    def check_fields(game: Game, loaded) -> None:
        checks.check_fields(game, loaded)

    # --- the blocks of the state buffer: the configuration ----------------------------------
    players_onehot: BlockView    # [3]: 2, 3, 4 players
    no_silver: BlockView         # [1]: the variant without silver-coin tokens
    blockade_rule: BlockView     # [1]: the blockade variant
    # --- the forest (public) -----------------------------------------------------------------
    cell_tile: BlockView         # [X]: the tile on each cell, -1 none
    cell_well: BlockView         # [X]: a well tile
    cell_turn: BlockView         # [X]: +1 the tile turns clockwise, -1 counter-clockwise
    cell_orient: BlockView       # [X]: quarter turns clockwise from printed
    cell_open: BlockView         # [X, 4, 2]: side N/E/S/W x inner/outer octagon filled, now
    cell_blocked: BlockView      # [X]: blockades next to the tile
    cell_chip: BlockView         # [X, 4]: one-hot no chip / blue / yellow / red
    cell_item: BlockView         # [X]: the item token lying there, -1 none
    cell_char: BlockView         # [X]: the character token standing there, -1 none
    gap_item: BlockView          # [G]: the heavy item blockading each gap, -1 none
    piece_at: BlockView          # [n, X]: each seat's piece (a corner: still in the backpack)
    near_well: BlockView         # [X]: NEAR of the route to the nearest well (distances.py)
    near_spirit: BlockView       # [X]: ... to the Forest Spirit's token
    near_debt: BlockView         # [n, X]: ... to a character each seat owes
    near_piece: BlockView        # [n, X]: ... from each seat's piece
    # --- the table (public) ------------------------------------------------------------------
    fairy: BlockView             # [R, S]: the items on the fairy board, -1 none
    bag_items: BlockView         # [I]: item tokens in the blue bag
    drawn_item: BlockView        # [1]: the item in the deciding seat's hand, -1 none
    black_bag: BlockView         # [3]: colour chips in the black bag, in CHIP_ORDER
    used_chips: BlockView        # [3]: used chips beside the playing area, in CHIP_ORDER
    supply: BlockView            # [3]: COPPER, SILVER, APPLES left in the supply
    pile_size: BlockView         # [1]: character cards in the pile
    laid_out: BlockView          # [C]: helpers' cards laid out beside the fairy board
    blockade_used: BlockView     # [1]: this turn's blockade action is done
    round_no: BlockView          # [1]: the round, from 1 (capped at ROUND_CAP)
    # --- the players (public) ----------------------------------------------------------------
    backpack: BlockView          # [n, I]: the items each seat carries
    copper: BlockView            # [n]
    silver: BlockView            # [n]
    apples: BlockView            # [n]: golden apples
    compasses: BlockView         # [n]: compass tokens left
    debts: BlockView             # [n, C]: the characters each seat owes a task
    winner: BlockView            # [n]: the seat that won the Emerald Ring
    # --- seen by their owner only ------------------------------------------------------------
    drawn_card: BlockView        # [n, C]: the character card drawn face down
    prince_items: BlockView      # [n, I]: the Prince's secret draws
    # --- the plain-data fields (FIELDS) ------------------------------------------------------
    pos: list[int]               # each seat's piece: its cell (``piece_at`` shows it)
    pile: list[int]              # the character cards in the pile (``pile_size`` counts them)

    # --- what lies on the tiles ----------------------------------------------------------------
    def chip(self, cell: int) -> int:
        """The colour chip on ``cell`` (NO_CHIP, BLUE, YELLOW or RED)."""
        return int(self.cell_chip[cell].argmax())

    def chips(self) -> list[int]:
        """``chip`` of every cell, by cell id: one argmax over the one-hot rows (the view and
        the reading show them all at every decision)."""
        return self.cell_chip.argmax(axis=1).tolist()

    def spirit_on_forest(self) -> bool:
        return bool((self.cell_char == SPIRIT).any())

    # --- backpacks and coins -------------------------------------------------------------------
    def items_of(self, p: int) -> int:
        return sum(self.backpack[p].tolist())

    def heavy_of(self, p: int) -> int:
        return sum(self.backpack[p, HEAVY_KINDS].tolist())

    def fits(self, p: int, k: int) -> bool:
        """Whether item token k (a coin token too: a light item) has room in p's backpack:
        "A backpack has room for at most 3 items, of which at most one may be heavy"."""
        return self.items_of(p) < BACKPACK_ITEMS and not (
            IS_HEAVY[k] and self.heavy_of(p) >= BACKPACK_HEAVY)

    def can_exchange(self, k: int) -> bool:
        """Whether token k shows a coin that the supply still has (Roundforest rulebook, "Blue
        colour chip", c. Trade with the Fairy: "If a drawn or traded token shows a coin, it
        may immediately be exchanged"; offered only in the decision where the token arrives,
        never later)."""
        return k in COIN_TOKENS and self.supply[COPPER if k == COPPER_TOKEN else SILVER] > 0

    # --- characters ----------------------------------------------------------------------------
    def drawn_of(self, p: int) -> int:
        """The card p holds face down."""
        return int(self.drawn_card[p].argmax())

    def debtor_of(self, c: int) -> int:
        """The seat in debt to character c (-1: none)."""
        owners = np.flatnonzero(self.debts[:, c])
        return int(owners[0]) if owners.size else -1

    def _describe_for_others(self, a: int) -> str:
        """The drawn card stays secret until it is laid out; the Beggar's choice too."""
        name = self.decision_name()
        if name == "character" and a in (A.USE.start, A.DEFER.start, A.UPPER.start,
                                         A.LOWER.start, A.APPLE.start, A.DEBT.start):
            c = CHARACTER_NAMES[self.drawn_of(self.current_player)]
            if a in (A.DEBT.start, A.DEFER.start):
                return f"{self.game.action_to_string(a)} (the {c})"
            return f"{self.game.action_to_string(a)} of the character card drawn"
        if name == "beggar":
            return "beggar: lead me to a character"
        if name == "prince":
            return "prince: keep one of the items drawn"
        return self.game.action_to_string(a)

    # --- the Goal and the result ---------------------------------------------------------------
    def qualified(self, p: int) -> bool:
        """"they must no longer be in debt to any character, and they must have collected 3
        golden apples"."""
        return bool(self.apples[p] >= APPLES_TO_WIN and not self.debts[p].any())

    @property
    def winner_seat(self) -> int:
        """The seat that won (-1: nobody yet)."""
        seats = np.flatnonzero(self.winner)
        return int(seats[0]) if seats.size else -1

    def progress_all(self) -> list[Progress]:
        """Every seat's ``progress``, each block read once as Python lists and summed in
        Python (the view shows them at every decision; on blocks this small a numpy
        reduction costs more than the sums)."""
        return [_progress(*rows) for rows in zip(
            self.winner.tolist(), self.apples.tolist(), self.debts.tolist(),
            self.copper.tolist(), self.silver.tolist(), self.backpack.tolist())]

    def progress(self, p: int) -> Progress:
        """Seat ``p``'s ``progress``, from its own rows only (shaping asks it at every step)."""
        return _progress(self.winner[p], self.apples[p], self.debts[p].tolist(),
                         self.copper[p], self.silver[p], self.backpack[p].tolist())

    def potential(self, p: int) -> float:
        """How far ``p`` has come toward the ring, for reward shaping in training: golden apples
        plus the coins that buy them at wells (a silver coin, or 3 copper, per apple; counted at
        half, as they still need a well), at most the 3 apples the ring asks for, less half an
        apple per debt, divided by 3 (a qualified player stands at 1). The engine's own reading:
        the rulebook has no points."""
        now = self.progress(p)
        toward = min(APPLES_TO_WIN, now.apples + 0.5 * now.coins / SILVER_IN_COPPER)
        return (toward - 0.5 * now.debts) / APPLES_TO_WIN

    def breakdown(self) -> list[dict]:
        return [now._asdict() for now in self.progress_all()]

    def ranks(self) -> list[int]:
        """The winner first; the others by ``Progress.rank_key`` (the engine's own order:
        the rulebook ranks only the winner); equal progress shares the place."""
        return competition_ranks([now.rank_key() for now in self.progress_all()])

    # --- bookkeeping (the tests' conservation checks) ------------------------------------------
    def item_totals(self) -> np.ndarray:
        """Item tokens of each kind wherever they are; always equals the game's counts."""
        total = self.bag_items.astype(np.int64) + self.backpack.sum(axis=0)
        for k in self.cell_item.tolist() + self.gap_item.tolist() + self.fairy.ravel().tolist():
            if k >= 0:
                total[k] += 1
        if self.drawn_item[0] >= 0:
            total[self.drawn_item[0]] += 1
        return total

    def chip_totals(self) -> np.ndarray:
        on_tiles = self.cell_chip[:, 1:].sum(axis=0)
        return self.black_bag + self.used_chips + on_tiles
