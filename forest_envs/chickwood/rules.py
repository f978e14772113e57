"""Chickwood Forest rules: the game configuration, the state and its transitions.

Turn structure (rulebook "Sequence of Play"): each round every player scouts (plays one hand
card per turn to a castle, in turn order, face up or down as their castle's banner says),
then (Legendary variant) the spy-glass holder may look at one castle, then each player in
turn order raids one castle not yet raided this round (the key holder may force a raider to
choose again), resolving benefactors at once as a snake of alms placed village by village.
When a full deal is impossible the game ends; Legendary end cards resolve, then scoring.

Play runs on the core's stack of pending decisions (observation.py lists the kinds): the
key holder's answer is pushed above the raid it interrupts, and each decision carries what
it is about (the castle chosen, the alms left, the first pick), so nothing of a pending
decision hides in other fields.
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np

from ..core.config import Option
from ..core.engine import BufferState, Game, GameTraits, competition_ranks
from . import actions as A
from . import render
from .components import (
    ALMS_PER_PLAYER,
    BENEFACTOR0,
    CASTLE_CAPACITY,
    CASTLE_CARDS,
    ENTERTAINERS,
    FAKE_BEARD,
    GOLDEN_ARROW,
    GRID_COLS,
    HENCHMAN,
    KEY,
    KIND_NAMES,
    MAX_CASTLE,
    MAX_CELLS,
    MAX_SPACES,
    NUM_KINDS,
    NUM_TREASURE_KINDS,
    SPY_GLASS,
    VILLAGES,
    banners,
    castle_values,
    deck_composition,
    grid_rows,
    hand_size,
    village_cards,
)
from .observation import (
    ABSENT_CELL,
    ALMS,
    ARROW_A,
    ARROW_B,
    BEARD,
    DECISIONS,
    ENT_A,
    ENT_B,
    FOREST_CELL,
    RAID,
    SCOUT,
    SPY,
    block_names,
    build_layout,
)
from .observation import KEY as KEY_DECISION
from .scoring import castle_score, loot_scores, village_awards

NO_CARD = -2   # grid cell without a card (2-player games use two rows)
FOREST = -1
BENEFACTOR_VALUE = np.array([1, 2, 3], dtype=np.int16)
NO_LAST_CELL = MAX_CELLS  # the alms snake has not started (row MAX_CELLS of ``adjacent``)


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


class ChickwoodState(BufferState):
    """One play of Chickwood Forest. Numbers live in the layout blocks (observation.py),
    the rest in ``FIELDS``; the decision stack says who decides what."""

    DECISIONS = DECISIONS
    RENDER = render
    FIELDS = ("deck", "deck_pos", "order", "step", "end_stages", "spier", "discard_fd",
              "round_index", "grid", "cell_spaces", "raids")
    __slots__ = FIELDS + block_names()

    # --- setup ----------------------------------------------------------------------------
    @classmethod
    def new(cls, game: ChickwoodGame, rng: np.random.Generator) -> ChickwoodState:
        self = cls._blank(game)
        self.rng = rng
        n = game.num_players
        kinds = np.repeat(np.arange(NUM_KINDS, dtype=np.int8), game.composition)
        self.deck = rng.permutation(kinds)
        self.deck_pos = 0
        cards = village_cards(n)
        order = rng.permutation(len(cards))
        grid = [NO_CARD] * MAX_CELLS
        for cell, i in enumerate(order):
            grid[cell] = cards[i]
        self.grid = tuple(grid)
        self.cell_spaces = np.array([VILLAGES[g].spaces if g >= 0 else 0 for g in grid], np.int16)
        for cell, g in enumerate(grid):
            self.cell_card[cell, g if g >= 0 else (FOREST_CELL if g == FOREST else ABSENT_CELL)] = 1
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
        self.spier = -1
        self.discard_fd = []
        self.round_index = 0
        self.raids = [[] for _ in range(n)]   # castle values each player raided, in order
        self.push(SCOUT, 0)
        self._start_round()
        return self

    # --- rounds ---------------------------------------------------------------------------
    def _start_round(self) -> None:
        game, n = self.game, self.num_players
        for p in range(n):
            for _ in range(game.hand_size):
                k = self.deck[self.deck_pos]
                self.deck_pos += 1
                self.hand[p, k] += 1
        self.hand_count[:] = game.hand_size
        self.deck_left[0] = len(self.deck) - self.deck_pos
        self.round_no[0] = self.round_index + 1
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

    def _set_scout_turn(self) -> None:
        n = self.num_players
        self.banner_pos[:] = 0
        self.banner_pos[self.step // n] = 1
        self.next_turn(SCOUT, self.order[self.step % n])

    def _end_round(self) -> None:
        for c in range(MAX_CASTLE):
            if self.castle_cards[c]:
                self._discard_castle(c)
        self.castle_raided_by[:] = 0
        self.has_raided[:] = 0
        self.spy_castle[:] = 0
        self.spy_view[:] = 0
        self.spier = -1
        self.round_index += 1
        if len(self.deck) - self.deck_pos >= self.num_players * self.game.hand_size:
            self._start_round()
        else:
            self._end_game()

    def _discard_castle(self, c: int) -> None:
        """Leftover loot is set aside: face-up cards publicly, face-down ones still secret
        from all but their owner (and the spy who looked at that castle)."""
        self.discard_public += self.castle_faceup[c]
        spier_saw = self.spier if self.spy_castle[c] else -1
        for o in range(self.num_players):
            for k in np.flatnonzero(self.fd_own[o, c]):
                mask = (1 << o) | ((1 << spier_saw) if spier_saw >= 0 else 0)
                for _ in range(int(self.fd_own[o, c, k])):
                    self.discard_fd.append((int(k), mask))
        self._recount_discard_known()
        self._clear_castle(c)

    def _recount_discard_known(self) -> None:
        self.discard_known[:] = 0
        for k, mask in self.discard_fd:
            for s in range(self.num_players):
                if mask >> s & 1:
                    self.discard_known[s, k] += 1

    def _clear_castle(self, c: int) -> None:
        self.castle_faceup[c] = 0
        self.castle_faceup_by[c] = 0
        self.fd_own[:, c] = 0
        self.castle_fd_count[c] = 0
        self.castle_cards[c] = 0
        self.spy_view[:, c] = 0

    def _raidable(self) -> np.ndarray:
        return (self.castle_in_play & (self.castle_raided_by.sum(axis=1) == 0)
                & (self.key_blocked == 0))

    def _alms_targets(self, last: int) -> np.ndarray:
        return ((self.cell_filled < self.cell_spaces) & (self.snake_visited == 0)
                & self.game.adjacent[last])

    def _spy_targets(self, p: int) -> np.ndarray:
        others = self.castle_fd_count.sum(axis=1) - self.castle_fd_count[:, p]
        return others > 0

    def _space_owners(self) -> np.ndarray:
        """[cell, space] -> owner seat, -1 where empty."""
        occupied = self.alms_owner.any(axis=2)
        return np.where(occupied, self.alms_owner.argmax(axis=2), -1)

    # --- scouting -----------------------------------------------------------------------------
    def _mask_scout(self, d, mask) -> None:
        open_castles = self.castle_in_play & (self.castle_cards < self.game.capacity)
        plays = mask[A.PLAY.start:A.PLAY.stop].reshape(A.PLAY.shape)
        for kind in self.hand[d.player].nonzero()[0].tolist():  # at most a hand's few kinds
            plays[kind] = open_castles

    def _why_scout(self, d, a: int) -> str | None:
        if a not in A.PLAY:
            return None
        k, c = A.PLAY.index(a)
        if not self.castle_in_play[c]:
            return f"castle {c + 1} is not in this game"
        if self.hand[d.player, k] == 0:
            return f"{KIND_NAMES[k]} is not in the player's hand"
        return f"castle {c + 1} already holds its maximum of {self.game.capacity[c]} cards"

    def _face_down_now(self, player: int) -> bool:
        """Whether ``player``'s scouting play now goes face down (their castle's banner)."""
        return bool(self.banner[player, self.step // self.num_players])

    def _apply_scout(self, d, a: int) -> None:
        kind, c = A.PLAY.index(a)
        p, n = d.player, self.num_players
        self.hand[p, kind] -= 1
        self.hand_count[p] -= 1
        if self.banner[p, self.step // n]:
            self.fd_own[p, c, kind] += 1
            self.castle_fd_count[c, p] += 1
        else:
            self.castle_faceup[c, kind] += 1
            self.castle_faceup_by[c, kind, p] += 1
        self.castle_cards[c] += 1
        self.step += 1
        if self.step < n * self.game.hand_size:
            self._set_scout_turn()
            return
        self.banner_pos[:] = 0
        spier = self._holder(SPY_GLASS)
        if spier >= 0 and self._spy_targets(spier).any():
            self.next_turn(SPY, spier)
        else:
            self._begin_raids()

    def _describe_for_others(self, a: int) -> str:
        """A card played face down is, to everybody else, a card at that castle."""
        if a in A.PLAY and self._face_down_now(self.current_player):
            return f"play a card face down to castle {A.PLAY.index(a)[1] + 1}"
        return self.game.action_to_string(a)

    def _holder(self, kind: int) -> int:
        if not self.game.legendary:
            return -1
        held = np.flatnonzero(self.collection[:, kind])
        return int(held[0]) if held.size else -1

    # --- spy glass ------------------------------------------------------------------------------
    def _mask_spy(self, d, mask) -> None:
        mask[A.SPY.start:A.SPY.stop] = self._spy_targets(d.player)

    def _why_spy(self, d, a: int) -> str | None:
        return "only a castle holding others' face-down cards can be looked at" if a in A.SPY else None

    def _apply_spy(self, d, a: int) -> None:
        p, (c,) = d.player, A.SPY.index(a)
        self.spier = p
        self.spy_castle[c] = 1
        self.spy_view[p, c] = self.fd_own[:, c].sum(axis=0) - self.fd_own[p, c]
        self._begin_raids()

    def _begin_raids(self) -> None:
        self.step = 0
        self.next_turn(RAID, self.order[0])

    # --- raids and the key ------------------------------------------------------------------------
    def _mask_raid(self, d, mask) -> None:
        mask[A.RAID.start:A.RAID.stop] = self._raidable()

    def _why_raid(self, d, a: int) -> str | None:
        if a not in A.RAID:
            return None
        (c,) = A.RAID.index(a)
        if not self.castle_in_play[c]:
            return f"castle {c + 1} is not in this game"
        if self.key_blocked[c]:
            return f"the key forces the raider to choose a castle other than {c + 1}"
        return f"castle {c + 1} was already raided this round"

    def _apply_raid(self, d, a: int) -> None:
        raider, (c,) = d.player, A.RAID.index(a)
        key_holder = self._holder(KEY)
        if key_holder >= 0 and key_holder != raider:
            self.push(KEY_DECISION, key_holder, c, raider)
        else:
            self._raid(raider, c)

    def _mask_key(self, d, mask) -> None:
        mask[A.KEY_USE.start] = mask[A.KEY_PASS.start] = 1

    def _apply_key(self, d, a: int) -> None:
        holder, (c, raider) = d.player, d.data
        self.pop()
        if a == A.KEY_USE.start:
            self.collection[holder, KEY] -= 1
            self.box[KEY] += 1
            self.key_blocked[c] = 1
        else:
            self._raid(raider, c)

    def _raid(self, p: int, c: int) -> None:
        if self.pile_left[c] > 0:
            self.pile_left[c] -= 1
            self.castles_held[p, c] += 1
        # An exhausted pile leaves its place on the table: its raider takes the loot and that
        # place's value for turn order and banner, but no castle card (docs/chickwood.md).
        self.player_castle[p] = 0
        self.player_castle[p, c] = 1
        self.castle_raided_by[c, p] = 1
        self.has_raided[p] = 1
        self.raids[p].append(c + 1)
        self.key_blocked[:] = 0
        loot = self.castle_faceup[c] + self.fd_own[:, c].sum(axis=0)
        self._clear_castle(c)
        benefactors = loot[BENEFACTOR0:BENEFACTOR0 + 3]
        alms = int(benefactors @ BENEFACTOR_VALUE)
        self.discard_public[BENEFACTOR0:BENEFACTOR0 + 3] += benefactors
        loot[BENEFACTOR0:BENEFACTOR0 + 3] = 0
        self.collection[p] += loot
        gives = min(alms, int(self.alms_left[p]))
        if gives > 0 and (self.cell_filled < self.cell_spaces).any():
            self.replace(ALMS, p, gives, NO_LAST_CELL)
        else:
            self._next_raider()

    # --- the alms snake ---------------------------------------------------------------------------
    def _mask_alms(self, d, mask) -> None:
        mask[A.ALMS.start:A.ALMS.stop] = self._alms_targets(d.data[1])

    def _why_alms(self, d, a: int) -> str | None:
        if a not in A.ALMS:
            return None
        return ("the village must be a village with a free space, not yet given to this "
                "round, and orthogonally next to the previous one")

    def put_alms(self, cell: int, p: int) -> None:
        """One alms of player p into the cell's first free space."""
        space = int(self.cell_filled[cell])
        self.alms_owner[cell, space, p] = 1
        self.cell_filled[cell] += 1
        self.alms_count[cell, p] += 1
        self.alms_left[p] -= 1

    def _apply_alms(self, d, a: int) -> None:
        (cell,), p, left = A.ALMS.index(a), d.player, d.data[0] - 1
        self.put_alms(cell, p)
        self.snake_visited[cell] = 1
        if left > 0 and self._alms_targets(cell).any():
            self.replace(ALMS, p, left, cell)
        else:
            self.snake_visited[:] = 0
            self._next_raider()

    def _next_raider(self) -> None:
        self.step += 1
        if self.step < self.num_players:
            self.next_turn(RAID, self.order[self.step])
        else:
            self._end_round()

    # --- end of game ----------------------------------------------------------------------
    def _end_game(self) -> None:
        self.end_stages = (ENT_A, ARROW_A, BEARD) if self.game.legendary else ()
        self._next_end_stage()

    def _next_end_stage(self) -> None:
        while self.end_stages:
            stage, self.end_stages = self.end_stages[0], self.end_stages[1:]
            holder = self._holder({ENT_A: ENTERTAINERS, ARROW_A: GOLDEN_ARROW,
                                   BEARD: FAKE_BEARD}[stage])
            if holder < 0:
                continue
            if stage == ENT_A:
                owners = self._space_owners()
                if len(set(owners[owners >= 0].tolist())) < 2:
                    continue
            elif stage == ARROW_A:
                treasure = self.collection[:, :NUM_TREASURE_KINDS].sum(axis=1) > 0
                if not treasure[holder] or treasure.sum() < 2:
                    continue
            elif stage == BEARD and self.collection[holder, HENCHMAN] == 0:
                continue
            self.next_turn(stage, holder)
            return
        self.end_game()

    def _mask_entertainers_first(self, d, mask) -> None:
        owners = self._space_owners()
        occupied = owners >= 0
        picks = mask[A.ENT_PICK.start:A.ENT_PICK.stop]
        for o in range(self.num_players):
            if (occupied & (owners != o)).any():
                picks[(owners == o).ravel()] = 1
        mask[A.ENT_PASS.start] = 1

    def _apply_entertainers_first(self, d, a: int) -> None:
        if a == A.ENT_PASS.start:
            self._next_end_stage()
        else:
            self.replace(ENT_B, d.player, a - A.ENT_PICK.start)

    def _mask_entertainers_second(self, d, mask) -> None:
        owners = self._space_owners().ravel()
        first = owners[d.data[0]]
        mask[A.ENT_PICK.start:A.ENT_PICK.stop] = (owners >= 0) & (owners != first)

    def _apply_entertainers_second(self, d, a: int) -> None:
        self._swap_alms(divmod(d.data[0], MAX_SPACES), A.ENT_PICK.index(a))
        self._next_end_stage()

    def _swap_alms(self, a: tuple, b: tuple) -> None:
        """Swap two alms: each takes the space, and so the rank, of the one it replaces."""
        (ca, sa), (cb, sb) = a, b
        oa, ob = self.alms_owner[ca, sa].copy(), self.alms_owner[cb, sb].copy()
        self.alms_owner[ca, sa], self.alms_owner[cb, sb] = ob, oa
        for cell in {ca, cb}:
            self.alms_count[cell] = self.alms_owner[cell].sum(axis=0)

    def _mask_arrow_give(self, d, mask) -> None:
        mask[A.ARROW_GIVE.start:A.ARROW_GIVE.stop] = self.collection[d.player, :NUM_TREASURE_KINDS] > 0
        mask[A.ARROW_PASS.start] = 1

    def _apply_arrow_give(self, d, a: int) -> None:
        if a == A.ARROW_PASS.start:
            self._next_end_stage()
        else:
            self.replace(ARROW_B, d.player, A.ARROW_GIVE.index(a)[0])

    def _mask_arrow_take(self, d, mask) -> None:
        p, n = d.player, self.num_players
        for r in range(n - 1):
            lo = A.ARROW_TAKE.id(r, 0)
            mask[lo:lo + NUM_TREASURE_KINDS] = self.collection[(p + r + 1) % n, :NUM_TREASURE_KINDS] > 0

    def _apply_arrow_take(self, d, a: int) -> None:
        p, give = d.player, d.data[0]
        r, take = A.ARROW_TAKE.index(a)
        o = (p + r + 1) % self.num_players
        self.collection[p, give] -= 1
        self.collection[o, give] += 1
        self.collection[o, take] -= 1
        self.collection[p, take] += 1
        self._next_end_stage()

    def _mask_fake_beard(self, d, mask) -> None:
        mask[A.BEARD_GIVE.start:A.BEARD_GIVE.start + self.num_players - 1] = 1
        mask[A.BEARD_PASS.start] = 1

    def _apply_fake_beard(self, d, a: int) -> None:
        if a in A.BEARD_GIVE:
            p = d.player
            o = (p + A.BEARD_GIVE.index(a)[0] + 1) % self.num_players
            self.collection[p, HENCHMAN] -= 1
            self.collection[o, HENCHMAN] += 1
        self._next_end_stage()

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
        pool = [new.deck[new.deck_pos:].tolist()]
        others = [o for o in range(n) if o != seat]
        for o in others:
            pool.append(np.repeat(np.arange(NUM_KINDS), new.hand[o]).tolist())
        hidden_castles = [c for c in range(MAX_CASTLE)
                          if not (self.spier == seat and self.spy_castle[c])]
        for o in others:
            for c in hidden_castles:
                pool.append(np.repeat(np.arange(NUM_KINDS), new.fd_own[o, c]).tolist())
        secret = [i for i, (_, mask) in enumerate(new.discard_fd) if not mask >> seat & 1]
        pool.append([new.discard_fd[i][0] for i in secret])
        # sorted first, so that the redeal depends only on what the seat knows (two states it
        # cannot tell apart give the same redeal for the same generator)
        kinds = rng.permutation(np.sort(np.array([k for part in pool for k in part], dtype=np.int8)))
        pos = 0

        def take(count: int) -> np.ndarray:
            nonlocal pos
            out = kinds[pos:pos + count]
            pos += count
            return out

        rest = len(new.deck) - new.deck_pos
        new.deck = new.deck.copy()
        new.deck[new.deck_pos:] = take(rest)
        for o in others:
            new.hand[o] = np.bincount(take(int(new.hand[o].sum())), minlength=NUM_KINDS)
        for o in others:
            for c in hidden_castles:
                new.fd_own[o, c] = np.bincount(take(int(new.fd_own[o, c].sum())),
                                               minlength=NUM_KINDS)
        for i, k in zip(secret, take(len(secret))):
            new.discard_fd[i] = (int(k), new.discard_fd[i][1])
        new._recount_discard_known()
        if new.spier >= 0 and new.spier != seat:
            for c in np.flatnonzero(new.spy_castle):
                new.spy_view[new.spier, c] = (new.fd_own[:, c].sum(axis=0)
                                              - new.fd_own[new.spier, c])
        return new._resampled(rng)

    # --- bookkeeping --------------------------------------------------------------------------
    def card_totals(self) -> np.ndarray:
        """Cards of each kind in every place they can be; equals the composition always."""
        total = np.bincount(self.deck[self.deck_pos:], minlength=NUM_KINDS).astype(np.int64)
        total += self.hand.sum(axis=0) + self.castle_faceup.sum(axis=0)
        total += self.fd_own.sum(axis=(0, 1)) + self.collection.sum(axis=0)
        total += self.discard_public + self.box
        for k, _ in self.discard_fd:
            total[k] += 1
        return total


ChickwoodGame.state_class = ChickwoodState
