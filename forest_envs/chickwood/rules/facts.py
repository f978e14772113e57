"""What a Chickwood Forest state is made of, and what follows from it without changing it.

``ChickwoodFacts`` declares the state's attributes with their types: the blocks of the state
buffer (``observation.build_layout`` adds them, in this order; each a numpy view) and the
plain-data ``FIELDS``. Its methods only read them: who holds a Legendary card, the spy, the
alms spaces of each cell and who holds them, the scores and ranks, what another seat reads
of an action, the conservation totals. The Python state (``state.py``) inherits it, and so
can a compiled state that supplies the same attributes.

Shapes below: n seats, K card kinds (22), C castle values (6), V grid cells (9), S alms
spaces of a village (7).
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

import numpy as np

from ...core.layout import BlockView
from ...core.results import competition_ranks
from .. import actions as A
from ..components import NUM_KINDS, SPY_GLASS, VILLAGES
from . import checks
from .records import SecretDiscard
from .scoring import castle_score, loot_scores, village_awards

if TYPE_CHECKING:
    from ...core.game import Game
    from .game import ChickwoodGame


@functools.lru_cache(maxsize=4096)
def grid_spaces(grid: tuple[int, ...]) -> np.ndarray:
    """The alms spaces of each cell of a grid (0 on a forest or no card), read-only."""
    spaces = np.array([VILLAGES[g].spaces if g >= 0 else 0 for g in grid], np.int16)
    spaces.flags.writeable = False
    return spaces


class ChickwoodFacts:
    """The state's declared attributes and the facts derived from them (reads only)."""

    __slots__ = ()

    # What the facts read of the engine (``GameState`` has it; any state that combines the
    # facts with an engine does), declared here for a type checker only: the facts'
    # annotations at run time are exactly the state's blocks and fields. ``game`` is this
    # game's class, where ``GameState`` has the base ``Game``: a class that combines the two
    # declares it again (``phase_base.PhaseBase``).
    if TYPE_CHECKING:
        game: ChickwoodGame
        num_players: int

        @property
        def current_player(self) -> int: ...

        def totals(self) -> list[int]: ...  # (Chickwood counts points)

    # What a state dict must hold (checks.py), whichever engine reads it.
    @staticmethod
    def check_fields(game: Game, loaded) -> None:
        checks.check_fields(game, loaded)

    def check_consistent(self) -> None:
        checks.check_consistent(self)

    # --- the blocks of the state buffer, public --------------------------------------------
    players_onehot: BlockView    # [4]: 2..5 players
    legendary: BlockView         # [1]: the Legendary variant
    round_no: BlockView          # [1]: the round, from 1
    deck_left: BlockView         # [1]: loot cards not dealt
    banner_pos: BlockView        # [4]: which banner icon the current scouting play uses
    castle_in_play: BlockView    # [C]
    pile_left: BlockView         # [C]: castle cards left in each pile
    castle_cards: BlockView      # [C]: loot cards lying before each castle
    castle_faceup: BlockView     # [C, K]
    spy_castle: BlockView        # [C]: looked at with the spy glass this round
    key_blocked: BlockView       # [C]: the castle the key forbids the raider to choose
    box: BlockView               # [K]: cards returned to the box during play (the key)
    discard_public: BlockView    # [K]
    cell_card: BlockView         # [V, 9]: one-hot village id, forest, no card
    cell_filled: BlockView       # [V]: alms on each cell
    snake_visited: BlockView     # [V]: given to by the alms snake in progress
    # --- public, by seat ----------------------------------------------------------------------
    castle_raided_by: BlockView  # [C, n]
    castle_faceup_by: BlockView  # [C, K, n]: who played each face-up card
    castle_fd_count: BlockView   # [C, n]: face-down cards of each seat at each castle
    alms_owner: BlockView        # [V, S, n]: one-hot owner of each alms space
    alms_count: BlockView        # [V, n]
    player_castle: BlockView     # [n, C]: one-hot castle in front of each seat
    castles_held: BlockView      # [n, C]: castle cards held, by value - 1
    order_pos: BlockView         # [n, n]: one-hot place in this round's turn order
    has_raided: BlockView        # [n]
    banner: BlockView            # [n, 4]: 1 = that scouting play goes face down
    collection: BlockView        # [n, K]: the loot each seat took
    alms_left: BlockView         # [n]
    hand_count: BlockView        # [n]
    # --- seen by their owner only -------------------------------------------------------------
    hand: BlockView              # [n, K]
    fd_own: BlockView            # [n, C, K]: each seat's own face-down cards at each castle
    spy_view: BlockView          # [n, C, K]: others' face-down cards seen with the spy glass
    discard_known: BlockView     # [n, K]: face-down discards the seat knows
    # --- the plain-data fields (FIELDS) -------------------------------------------------------
    deck: np.ndarray             # int8 [cards not dealt]: their kinds, next first
    order: tuple[int, ...]       # this round's turn order (seats)
    step: int                    # plays made this round while scouting, raids while raiding
    end_stages: tuple[int, ...]  # the Legendary end cards still to resolve (Kind values)
    discard_fd: list[SecretDiscard]  # the secret discards
    grid: tuple[int, ...]        # the village card of each cell (FOREST, NO_CARD)
    raids: list[list[int]]       # the castle values each seat raided, in order

    # --- who holds what -----------------------------------------------------------------------
    def _holder(self, kind: int) -> int:
        """The seat holding the Legendary card ``kind`` (-1: nobody, or not Legendary)."""
        if not self.game.legendary:
            return -1
        held = np.flatnonzero(self.collection[:, kind])
        return int(held[0]) if held.size else -1

    def spier(self) -> int:
        """The seat that looked at a castle with the spy glass this round, -1 if nobody did:
        the glass, once taken, stays with its holder, and only its holder looks."""
        return self._holder(SPY_GLASS) if self.spy_castle.any() else -1

    @property
    def cell_spaces(self) -> np.ndarray:
        """The alms spaces of each cell (0 on a forest or no card)."""
        return grid_spaces(self.grid)

    def _space_owners(self) -> np.ndarray:
        """[cell, space] -> owner seat, -1 where empty."""
        occupied = self.alms_owner.any(axis=2)
        return np.where(occupied, self.alms_owner.argmax(axis=2), -1)

    def _face_down_now(self, player: int) -> bool:
        """Whether ``player``'s scouting play now goes face down (their castle's banner)."""
        return bool(self.banner[player, self.step // self.num_players])

    def _describe_for_others(self, a: int) -> str:
        """A card played face down is, to everybody else, a card at that castle."""
        if a in A.PLAY and self._face_down_now(self.current_player):
            return f"play a card face down to castle {A.PLAY.index(a)[1] + 1}"
        return self.game.action_to_string(a)

    # --- scoring ------------------------------------------------------------------------------
    def scores(self) -> list[dict]:
        """Per-player glory with its breakdown (valid at any time; final when terminal).

        ``village_glory`` maps each village's cell ("r1c2") to the glory it gives the player
        and ``villages`` is its sum; ``total`` counts every part once (``busts`` and
        ``village_glory`` are information only)."""
        n = self.num_players
        owners = self._space_owners()
        village_glory: list[dict[str, int]] = [{} for _ in range(n)]
        for cell, g in enumerate(self.grid):
            if g >= 0:
                awards = village_awards(g, owners[cell].tolist(), n)
                for p in range(n):
                    village_glory[p][A.cell_name(cell)] = awards[p]
        out = []
        for p in range(n):
            s: dict[str, Any] = loot_scores(self.collection[p].tolist())
            s["castles"] = castle_score(self.castles_held[p].tolist())
            s["villages"] = sum(village_glory[p].values())
            s["village_glory"] = village_glory[p]
            s["total"] = sum(v for k, v in s.items() if k not in ("busts", "village_glory"))
            out.append(s)
        return out

    def ranks(self) -> list[int]:
        """Most glory first; equal glory shares the place (the rulebook breaks no tie)."""
        return competition_ranks(self.totals())

    # --- bookkeeping --------------------------------------------------------------------------
    def card_totals(self) -> np.ndarray:
        """Cards of each kind in every place they can be; equals the composition always."""
        total = np.bincount(self.deck, minlength=NUM_KINDS).astype(np.int64)
        total += self.hand.sum(axis=0) + self.castle_faceup.sum(axis=0)
        total += self.fd_own.sum(axis=(0, 1)) + self.collection.sum(axis=0)
        total += self.discard_public + self.box
        for card in self.discard_fd:
            total[card.kind] += 1
        return total
