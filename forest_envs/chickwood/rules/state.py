"""The Chickwood Forest state: the setup, the round cycle and hidden information, with the
phases mixed in (``scouting``, ``raiding``, ``endgame``) and the declared attributes and
derived facts of ``facts.ChickwoodFacts``.

One source for each fact: a field that an observation block shows (the undealt deck and
``deck_left``, the turn order and ``order_pos``, the village grid and ``cell_card``, the
secret discards and ``discard_known``) is the source, and the block is written from it in
one place; a block that sums up others (``castle_cards``, ``castle_fd_count``,
``hand_count``, ``cell_filled``, ``alms_count``, ``pile_left``) is written in the same
statements that change what it sums up (tests/chickwood/invariants.py checks that they
agree after every fuzzed action). What follows from other data is derived, not stored: the
spaces of each cell (from the grid), the spy (from the spy glass), the round (``round_no``).
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np

from ...core.presentation import Presentation
from ...core.state import BufferState
from .. import text
from ..components import (
    ALMS_PER_PLAYER,
    CASTLE_CARDS,
    FOREST,
    MAX_CASTLE,
    MAX_CELLS,
    NO_CARD,
    NUM_KINDS,
    village_cards,
)
from ..observation import ABSENT_CELL, DECISIONS, FOREST_CELL, Kind, block_names
from .endgame import GameEnd
from .facts import ChickwoodFacts
from .game import ChickwoodGame
from .handlers import HANDLERS
from .raiding import Raiding
from .records import SecretDiscard
from .scouting import Scouting


class ChickwoodState(Scouting, Raiding, GameEnd, ChickwoodFacts, BufferState):
    """One play of Chickwood Forest. Numbers live in the layout blocks (observation.py),
    the rest in ``FIELDS`` (both declared with their types in ``ChickwoodFacts``); the
    decision stack says who decides what, and ``HANDLERS`` which phase handles each kind."""

    DECISIONS = DECISIONS
    HANDLERS = HANDLERS  # handlers.py: each decision kind's mask, apply and why
    RENDER: ClassVar[Presentation] = text
    FIELDS = ("deck", "order", "step", "end_stages", "discard_fd", "grid", "raids")
    __slots__ = FIELDS + block_names()

    # --- setup ----------------------------------------------------------------------------
    # (A state is made for its own game only: the override narrows ``game``.)
    @classmethod
    def new(cls, game: ChickwoodGame, rng: np.random.Generator) -> ChickwoodState:  # type: ignore[override]
        self = cls._blank(game)
        self.rng = rng
        n = game.num_players
        kinds = np.repeat(np.arange(NUM_KINDS, dtype=np.int8), game.composition)
        self.deck = rng.permutation(kinds)
        cards = village_cards(n)
        order = rng.permutation(len(cards))
        grid = [NO_CARD] * MAX_CELLS
        for cell, i in enumerate(order):
            grid[cell] = cards[i]
        self.lay_grid(tuple(grid))
        self.players_onehot[n - 2] = 1
        self.legendary[0] = int(game.legendary)
        self.castle_in_play[:] = game.in_play
        for v in game.castle_values:
            self.pile_left[v - 1] = CASTLE_CARDS[v]
        # One castle of each value, shuffled; one to each player, the spare goes back.
        starts = rng.permutation(np.array(game.castle_values))[:n]
        for p, v in enumerate(starts):
            self.pile_left[v - 1] -= 1
            self.castles_held[p, v - 1] = 1
            self.player_castle[p, v - 1] = 1
        self.alms_left[:] = ALMS_PER_PLAYER
        self.order = ()
        self.step = 0
        self.end_stages = ()
        self.discard_fd = []
        self.raids = [[] for _ in range(n)]
        self.round_no[0] = 1
        self.push(Kind.SCOUT, 0)
        self._start_round()
        return self

    def lay_grid(self, grid: tuple[int, ...]) -> None:
        """The village cards on the grid (``grid``) and the ``cell_card`` block showing them."""
        self.grid = grid
        self.cell_card[:] = 0
        for cell, g in enumerate(grid):
            self.cell_card[cell, g if g >= 0 else (FOREST_CELL if g == FOREST else ABSENT_CELL)] = 1

    # --- rounds ---------------------------------------------------------------------------
    def _start_round(self) -> None:
        """Deal the hands, then the turn order and banners follow the castles held."""
        game, n, h = self.game, self.num_players, self.game.hand_size
        dealt = self.deck[:n * h].tolist()
        for p in range(n):
            for k in dealt[p * h:(p + 1) * h]:
                self.hand[p, k] += 1
        self.deck = self.deck[n * h:]
        self.hand_count[:] = h
        self.deck_left[0] = len(self.deck)
        values = self.player_castle.argmax(axis=1)
        self.order = tuple(int(p) for p in np.argsort(values, kind="stable"))
        self.order_pos[:] = 0
        for pos, p in enumerate(self.order):
            self.order_pos[p, pos] = 1
            self.banner[p, :] = 0
            b = game.banner[int(values[p]) + 1]
            self.banner[p, :len(b)] = b
        self.step = 0
        self._set_scout_turn()

    def _end_round(self) -> None:
        for c in range(MAX_CASTLE):
            if self.castle_cards[c]:
                self._discard_castle(c)
        self.castle_raided_by[:] = 0
        self.has_raided[:] = 0
        self.spy_castle[:] = 0
        self.spy_view[:] = 0
        if len(self.deck) >= self.num_players * self.game.hand_size:
            self.round_no[0] += 1
            self._start_round()
        else:
            self._end_game()

    def _discard_castle(self, c: int) -> None:
        """Leftover loot is set aside: face-up cards publicly, face-down ones still secret
        from all but their owner (and the spy who looked at that castle)."""
        self.discard_public += self.castle_faceup[c]
        spier = self.spier() if self.spy_castle[c] else -1
        for o in range(self.num_players):
            spied_by = spier if spier != o else -1
            for k in np.flatnonzero(self.fd_own[o, c]).tolist():
                for _ in range(int(self.fd_own[o, c, k])):
                    self.discard_fd.append(SecretDiscard(k, o, spied_by))
        self._show_discards()
        self._clear_castle(c)

    def _show_discards(self) -> None:
        """The ``discard_known`` block, written from ``discard_fd`` (its only writer)."""
        self.discard_known[:] = 0
        for card in self.discard_fd:
            self.discard_known[card.owner, card.kind] += 1
            if card.spied_by >= 0:
                self.discard_known[card.spied_by, card.kind] += 1

    def _clear_castle(self, c: int) -> None:
        self.castle_faceup[c] = 0
        self.castle_faceup_by[c] = 0
        self.fd_own[:, c] = 0
        self.castle_fd_count[c] = 0
        self.castle_cards[c] = 0
        self.spy_view[:, c] = 0

    # --- hidden information -----------------------------------------------------------------
    def resample_hidden(self, seat: int, rng: np.random.Generator) -> ChickwoodState:
        """A state the seat cannot tell from this one: every card whose kind it does not
        know (deck, other hands, others' face-down cards it did not spy, secret discards) is
        redealt at random into the same places."""
        new = self.clone()
        n = self.num_players
        spier = self.spier()
        pool = [new.deck.tolist()]
        others = [o for o in range(n) if o != seat]
        for o in others:
            pool.append(np.repeat(np.arange(NUM_KINDS), new.hand[o]).tolist())
        hidden_castles = [c for c in range(MAX_CASTLE)
                          if not (spier == seat and self.spy_castle[c])]
        for o in others:
            for c in hidden_castles:
                pool.append(np.repeat(np.arange(NUM_KINDS), new.fd_own[o, c]).tolist())
        secret = [card for card in new.discard_fd if not card.known_to(seat)]
        pool.append([card.kind for card in secret])
        # sorted first, so that the redeal depends only on what the seat knows (two states it
        # cannot tell apart give the same redeal for the same generator)
        kinds = rng.permutation(np.sort(np.array([k for part in pool for k in part], dtype=np.int8)))
        pos = 0

        def take(count: int) -> np.ndarray:
            nonlocal pos
            out = kinds[pos:pos + count]
            pos += count
            return out

        new.deck = take(len(new.deck)).copy()
        for o in others:
            new.hand[o] = np.bincount(take(int(new.hand[o].sum())), minlength=NUM_KINDS)
        for o in others:
            for c in hidden_castles:
                new.fd_own[o, c] = np.bincount(take(int(new.fd_own[o, c].sum())),
                                               minlength=NUM_KINDS)
        for card, k in zip(secret, take(len(secret)).tolist()):
            card.kind = k
        new._show_discards()
        if spier >= 0 and spier != seat:
            for spied in np.flatnonzero(new.spy_castle):
                new.spy_view[spier, spied] = (new.fd_own[:, spied].sum(axis=0)
                                              - new.fd_own[spier, spied])
        return new._resampled(rng)


ChickwoodGame.state_class = ChickwoodState
