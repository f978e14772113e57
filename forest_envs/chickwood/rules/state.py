"""Chickwood Forest rules: the game configuration, the state, setup and the round cycle.

Turn structure (rulebook "Sequence of Play"): each round every player scouts (plays one hand
card per turn to a castle, in turn order, face up or down as their castle's banner says),
then (Legendary variant) the spy-glass holder may look at one castle, then each player in
turn order raids one castle not yet raided this round (the key holder may force a raider to
choose again), resolving benefactors at once as a snake of alms placed village by village.
When a full deal is impossible the game ends; Legendary end cards resolve, then scoring.

The phases live in their own modules, mixed into ``ChickwoodState`` (the core's dispatch
finds each decision's ``_mask_/_apply_/_why_`` methods by name, wherever they are defined):
``scouting.py`` (scouting and the spy glass), ``raiding.py`` (raids, the key, the alms
snake) and ``endgame.py`` (the Legendary cards at the end). This module holds what spans
them: setup, rounds, scoring, hidden information and bookkeeping.

Play runs on the core's stack of pending decisions (observation.py lists the kinds): the
key holder's answer is pushed above the raid it interrupts, and each decision carries what
it is about (the castle chosen, the alms left, the first pick), so nothing of a pending
decision hides in other fields.

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

import functools
from typing import ClassVar

import numpy as np

from ..core.config import Option
from ..core.game import Game, GameTraits
from ..core.plain import record
from ..core.results import competition_ranks
from ..core.state import BufferState
from . import actions as A
from . import render
from .components import (
    ALMS_PER_PLAYER,
    CASTLE_CAPACITY,
    CASTLE_CARDS,
    FOREST,
    GRID_COLS,
    MAX_CASTLE,
    MAX_CELLS,
    NO_CARD,
    NUM_KINDS,
    SPY_GLASS,
    VILLAGES,
    banners,
    castle_values,
    deck_composition,
    grid_rows,
    hand_size,
    village_cards,
)
from .endgame import GameEnd
from .handlers import HANDLERS
from .observation import ABSENT_CELL, DECISIONS, FOREST_CELL, Kind, block_names, build_layout
from .raiding import NO_LAST_CELL, Raiding
from .scoring import castle_score, loot_scores, village_awards
from .scouting import Scouting


class ChickwoodGame(Game):
    env_id = "chickwood_v0"
    traits = GameTraits(
        name="Chickwood Forest", min_players=2, max_players=5, chance=True,
        hidden_information=True, has_scores=True, score_scale=10.0,
        tie_break="none: players with the most glory share first place (and the win)")
    state_class: ClassVar[type]
    options = {
        "num_players": Option(3, choices=(2, 3, 4, 5)),
        "legendary": Option(False, choices=(False, True), doc="play with the Legendary cards"),
    }
    build_layout = build_layout
    action_space = A.SPACE

    def __init__(self, **config):
        super().__init__(**config)
        n = self.num_players
        self.legendary = self.config["legendary"]
        self.hand_size = hand_size(n)
        self.composition = np.array(deck_composition(n, self.legendary), dtype=np.int16)
        self.castle_values = castle_values(n)
        self.rows = grid_rows(n)
        self.in_play = np.zeros(MAX_CASTLE, bool)
        self.in_play[[v - 1 for v in self.castle_values]] = True
        caps = np.full(MAX_CASTLE, 10_000, np.int16)
        for v, cap in CASTLE_CAPACITY.items():
            caps[v - 1] = cap
        self.capacity = caps
        self.banner = {v: tuple(int(ch == "D") for ch in b) for v, b in banners(n).items()}
        self.adjacent = np.zeros((MAX_CELLS + 1, MAX_CELLS), bool)  # row MAX_CELLS: "no last"
        self.adjacent[NO_LAST_CELL, :] = True
        for cell in range(MAX_CELLS):
            r, c = divmod(cell, GRID_COLS)
            for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                rr, cc = r + dr, c + dc
                if 0 <= rr < 3 and 0 <= cc < GRID_COLS:
                    self.adjacent[cell, rr * GRID_COLS + cc] = True


def new_game(config: dict | None = None, seed: int | None = None) -> ChickwoodState:
    """A new game; Game objects (layouts, names) are shared between games of one config."""
    return ChickwoodGame.shared(config).new_initial_state(seed)


@record
class SecretDiscard:
    """A face-down card set aside at the end of a round: its kind stays known to its owner
    and to the other seat that looked at its castle with the spy glass that round (-1: no
    other seat looked)."""

    kind: int
    owner: int
    spied_by: int = -1

    def known_to(self, seat: int) -> bool:
        return seat == self.owner or seat == self.spied_by


@functools.lru_cache(maxsize=4096)
def grid_spaces(grid: tuple[int, ...]) -> np.ndarray:
    """The alms spaces of each cell of a grid (0 on a forest or no card), read-only."""
    spaces = np.array([VILLAGES[g].spaces if g >= 0 else 0 for g in grid], np.int16)
    spaces.flags.writeable = False
    return spaces


class ChickwoodState(Scouting, Raiding, GameEnd, BufferState):
    """One play of Chickwood Forest. Numbers live in the layout blocks (observation.py),
    the rest in ``FIELDS``; the decision stack says who decides what.

    ``deck``: the undealt cards, next first. ``order``: this round's turn order (seats).
    ``step``: plays made this round while scouting, raids made while raiding.
    ``end_stages``: the Legendary end cards still to resolve. ``discard_fd``: the secret
    discards (``SecretDiscard``). ``grid``: the village card of each cell. ``raids``: the
    castle values each player raided, in order."""

    DECISIONS = DECISIONS
    HANDLERS = HANDLERS  # handlers.py: each decision kind's mask, apply and why
    RENDER = render
    FIELDS = ("deck", "order", "step", "end_stages", "discard_fd", "grid", "raids")
    __slots__ = FIELDS + block_names()

    # --- setup ----------------------------------------------------------------------------
    @classmethod
    def new(cls, game: ChickwoodGame, rng: np.random.Generator) -> ChickwoodState:
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

    @property
    def cell_spaces(self) -> np.ndarray:
        """The alms spaces of each cell (0 on a forest or no card)."""
        return grid_spaces(self.grid)

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

    def _space_owners(self) -> np.ndarray:
        """[cell, space] -> owner seat, -1 where empty."""
        occupied = self.alms_owner.any(axis=2)
        return np.where(occupied, self.alms_owner.argmax(axis=2), -1)

    # --- scoring --------------------------------------------------------------------------
    def scores(self) -> list[dict]:
        """Per-player glory with its breakdown (valid at any time; final when terminal).

        ``village_glory`` maps each village's cell ("r1c2") to the glory it gives the player
        and ``villages`` is its sum; ``total`` counts every part once (``busts`` and
        ``village_glory`` are information only)."""
        n = self.num_players
        owners = self._space_owners()
        village_glory = [{} for _ in range(n)]
        for cell, g in enumerate(self.grid):
            if g >= 0:
                awards = village_awards(g, owners[cell].tolist(), n)
                for p in range(n):
                    village_glory[p][A.cell_name(cell)] = awards[p]
        out = []
        for p in range(n):
            s = loot_scores(self.collection[p].tolist())
            s["castles"] = castle_score(self.castles_held[p].tolist())
            s["villages"] = sum(village_glory[p].values())
            s["village_glory"] = village_glory[p]
            s["total"] = sum(v for k, v in s.items() if k not in ("busts", "village_glory"))
            out.append(s)
        return out

    def ranks(self) -> list[int]:
        """Most glory first; equal glory shares the place (the rulebook breaks no tie)."""
        return competition_ranks(self.totals())

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
            for c in np.flatnonzero(new.spy_castle):
                new.spy_view[spier, c] = new.fd_own[:, c].sum(axis=0) - new.fd_own[spier, c]
        return new._resampled(rng)

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


ChickwoodGame.state_class = ChickwoodState
