"""Roundforest rules: the game configuration, the state and its transitions.

A turn (rulebook "Playing the Game"): optionally set or remove a blockade (variant), then
move or pause; the tile the piece stands on turns 90 degrees in its own direction (unless
blockaded); the vacated tile gets a new chip from the black bag unless a token was left
there; then whatever lies on the new tile acts (well, item token, character token, blue,
yellow or red chip). The turn ends with the chance to open a treasure chest (also offered
at the turn's start), the Forest Spirit's appearance (placed by the left neighbour of the
first qualified player) and the end-of-turn blockade chance.

Play runs on the core's decision stack (observation.DECISIONS): each sub-decision of a turn
replaces the one before it, so the stack holds one decision at a time. Every draw (chips,
items, character cards) is made at the moment of drawing from the state's own generator, so
the state is fully determined by its seed and the actions.
"""

from __future__ import annotations

import functools
from typing import ClassVar

import numpy as np

from ..core.config import Option
from ..core.engine import BufferState, Game, GameTraits, competition_ranks
from . import actions as A
from . import render
from .components import (
    APPLE_SUPPLY,
    APPLES_TO_WIN,
    BACKPACK_ITEMS,
    BEGGAR,
    BEGGAR_FEE,
    BLUE,
    CHARACTER_NAMES,
    CHARACTERS,
    CHEST,
    CHIPS,
    COIN_TOKENS,
    COMPASSES_EACH,
    COPPER_SUPPLY,
    COPPER_TOKEN,
    DEFAULT_MAX_STEPS,
    FAIRY_COST,
    FAIRY_ROWS,
    FAIRY_SLOTS,
    GOBLIN,
    HELPFUL,
    IS_HEAVY,
    KEY,
    MAX_GRID,
    MERCHANT,
    MERCHANT_MAX_SALES,
    NUM_CELLS,
    NUM_CHARACTERS,
    NUM_ITEMS,
    PLAIN_TILES,
    PRINCE,
    PRINCE_DRAWS,
    RED,
    ROUND_CAP,
    SADDLE,
    SILVER_SUPPLY,
    SPIRIT,
    TILES,
    UNICORN,
    WELL_COPPER_IN,
    WELL_COPPER_OUT,
    WELL_ITEMS_IN,
    WELL_TILES,
    YELLOW,
    Task,
    backpack_corner,
    cell_name,
    grid_size,
    item_counts,
    open_sides,
    pattern_targets,
    start_targets,
    tile_cells,
    well_cells,
)
from .observation import (
    BEGGAR_D,
    BLOCK_END,
    BLOCK_START,
    CHARACTER_D,
    CHEST_D,
    COIN_D,
    DECISIONS,
    DRAWN,
    GOBLIN_GIVE,
    GOBLIN_TAKE,
    MEET,
    MERCHANT_D,
    PRINCE_D,
    SADDLE_D,
    SPIRIT_PLACE,
    TOKEN_ITEM,
    TURN,
    UNICORN_D,
    WELL,
    WELL_GIVE,
    YELLOW_D,
    block_names,
    build_layout,
)

COPPER, SILVER, APPLES = 0, 1, 2  # supply entries
NO_ITEM = -1
NO_CHAR = -1
CHIP_ORDER = (BLUE, YELLOW, RED)  # index order of black_bag / used_chips


class RoundforestGame(Game):
    env_id = "roundforest_v0"
    traits = GameTraits(
        name="Roundforest", min_players=2, max_players=4, chance=True,
        hidden_information=True, has_scores=False,
        tie_break="the winner (who brings 3 golden apples and no debts to the Forest Spirit) "
                  "ranks first; the others, and everybody in an unfinished game, by progress: "
                  "more golden apples, then fewer debts, then more coins (a silver coin "
                  "counts 3 copper), then more items; equal progress shares the place")
    state_class: ClassVar[type]
    options = {
        "num_players": Option(3, choices=(2, 3, 4)),
        "no_silver": Option(False, choices=(False, True),
                            doc="remove the silver-coin item tokens (harder game)"),
        "blockade": Option(False, choices=(False, True),
                           doc="the optional blockade rule with heavy items"),
    }
    default_max_steps = DEFAULT_MAX_STEPS  # stalled positions exist (docs/roundforest.md)
    build_layout = build_layout
    action_space = A.SPACE

    def __init__(self, **config):
        super().__init__(**config)
        n = self.num_players
        self.no_silver = self.config["no_silver"]
        self.blockade = self.config["blockade"]
        self.grid = grid_size(n)
        self.tile_cells = tile_cells(n)
        self.well_cells = well_cells(n)
        self.plain_cells = tuple(c for c in self.tile_cells if c not in self.well_cells)
        self.items = item_counts(self.no_silver)
        self.is_tile = np.zeros(NUM_CELLS, bool)
        self.is_tile[list(self.tile_cells)] = True
        self.corner = tuple(backpack_corner(n, p) for p in range(n))
        self.starts = tuple(tuple(start_targets(n, p)) for p in range(n))
        # gap (r, c) lies between cells (r, c), (r, c+1), (r+1, c), (r+1, c+1)
        self.gap_cells: dict[int, tuple[int, ...]] = {}
        for r in range(self.grid - 1):
            for c in range(self.grid - 1):
                cells = tuple(rr * MAX_GRID + cc for rr in (r, r + 1) for cc in (c, c + 1)
                              if self.is_tile[rr * MAX_GRID + cc])
                self.gap_cells[r * (MAX_GRID - 1) + c] = cells
        # gaps next to at least one tile, where a blockade can lie (one mask write per turn)
        self.gap_usable = np.zeros((MAX_GRID - 1) ** 2, bool)
        self.gap_usable[[g for g, cells in self.gap_cells.items() if cells]] = True


def new_game(config: dict | None = None, seed: int | None = None) -> RoundforestState:
    return RoundforestGame.shared(config).new_initial_state(seed)


# _OPEN[tile, orientation] = the cell_open block's (4 sides x inner/outer) entries
_OPEN = np.array([[np.array(open_sides(t, o)).T for o in range(4)] for t in range(len(TILES))],
                 dtype=np.int16)


@functools.cache
def _targets(n: int, cell: int, tile: int, orientation: int, compass: bool) -> tuple[int, ...]:
    return tuple(pattern_targets(n, cell, tile, orientation, compass))


class RoundforestState(BufferState):
    DECISIONS = DECISIONS
    RENDER = render
    FIELDS = ("pos", "pile", "winner_seat")
    __slots__ = FIELDS + block_names()

    # --- setup ---------------------------------------------------------------------------------
    @classmethod
    def new(cls, game: RoundforestGame, rng: np.random.Generator) -> RoundforestState:
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
        self.drawn_item[0] = NO_ITEM
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
            self.cell_turn[cell] = TILES[self.cell_tile[cell]].turn
            self.cell_orient[cell] = int(rng.integers(4))
            self._show_open(cell)
        # One chip on each tile without a well, from the black bag.
        self.black_bag[:] = [CHIPS[c] for c in CHIP_ORDER]
        self.cell_chip[:, 0] = 1
        for cell in game.plain_cells:
            self._set_chip(cell, self._draw_chip())
        self.bag_items[:] = game.items
        for r in range(FAIRY_ROWS):
            self._fill_fairy_row(r)
        self.pile = list(range(NUM_CHARACTERS))
        self.pile_size[0] = NUM_CHARACTERS
        self.supply[:] = (COPPER_SUPPLY, SILVER_SUPPLY, APPLE_SUPPLY)
        self.compasses[:] = COMPASSES_EACH
        self.pos = list(game.corner)
        for p in range(n):
            self.piece_at[p, game.corner[p]] = 1
        self.winner_seat = -1
        self.round_no[0] = 1
        self.push(TURN, 0)
        self._start_turn(0)
        return self

    # --- small helpers --------------------------------------------------------------------------
    def _show_open(self, cell: int) -> None:
        self.cell_open[cell] = _OPEN[int(self.cell_tile[cell]), int(self.cell_orient[cell])]

    def chip(self, cell: int) -> int:
        return int(self.cell_chip[cell].argmax())

    def _set_chip(self, cell: int, chip: int) -> None:
        self.cell_chip[cell] = 0
        self.cell_chip[cell, chip] = 1

    def _use_chip(self, cell: int) -> None:
        """A chip leaves its tile for the pile beside the playing area."""
        chip = self.chip(cell)
        if chip:
            self.used_chips[CHIP_ORDER.index(chip)] += 1
            self._set_chip(cell, 0)

    def _draw_chip(self) -> int:
        """A random chip from the black bag; the used chips go back in only when it is empty."""
        if self.black_bag.sum() == 0:
            self.black_bag += self.used_chips
            self.used_chips[:] = 0
        counts = self.black_bag.tolist()
        total = sum(counts)
        if total == 0:
            return 0
        r = int(self.rng.integers(total))
        i = 0
        while r >= counts[i]:
            r -= counts[i]
            i += 1
        self.black_bag[i] -= 1
        return CHIP_ORDER[i]

    def _draw_item(self) -> int:
        counts = self.bag_items.tolist()
        total = sum(counts)
        if total == 0:
            return NO_ITEM
        r = int(self.rng.integers(total))
        k = 0
        while r >= counts[k]:
            r -= counts[k]
            k += 1
        self.bag_items[k] -= 1
        return k

    def _peek_items(self, rng: np.random.Generator, count: int) -> np.ndarray:
        """Counts by kind of up to ``count`` tokens drawn at random from the bag without
        taking them out of ``bag_items``."""
        bag = self.bag_items.astype(np.int64)
        out = np.zeros(NUM_ITEMS, np.int16)
        for _ in range(min(count, int(bag.sum()))):
            k = int(np.searchsorted(np.cumsum(bag), int(rng.integers(int(bag.sum()))), side="right"))
            bag[k] -= 1
            out[k] += 1
        return out

    def _fill_fairy_row(self, r: int) -> None:
        for s in range(FAIRY_SLOTS):
            self.fairy[r, s] = self._draw_item()

    def items_of(self, p: int) -> int:
        return sum(self.backpack[p].tolist())

    def heavy_of(self, p: int) -> int:
        return int(self.backpack[p, :5].sum())  # the five heavy kinds come first

    def fits(self, p: int, k: int) -> bool:
        """Whether item token k (a coin token too: a light item) has room in p's backpack."""
        return self.items_of(p) < BACKPACK_ITEMS and not (IS_HEAVY[k] and self.heavy_of(p) > 0)

    def can_exchange(self, k: int) -> bool:
        """Whether token k shows a coin that the supply still has (rulebook, "Trade with the
        Fairy": a drawn or traded coin token "may immediately be exchanged"; offered only in
        the decision where the token arrives, never later)."""
        return k in COIN_TOKENS and self.supply[COPPER if k == COPPER_TOKEN else SILVER] > 0

    def _add_item(self, p: int, k: int) -> None:
        self.backpack[p, k] += 1

    def _exchange(self, p: int, k: int) -> None:
        """Coin token k for its coin from the supply; the token goes back into the bag."""
        which = COPPER if k == COPPER_TOKEN else SILVER
        self.supply[which] -= 1
        (self.copper if which == COPPER else self.silver)[p] += 1
        self.bag_items[k] += 1

    def _give_apple(self, p: int) -> None:
        if self.supply[APPLES] > 0:
            self.supply[APPLES] -= 1
            self.apples[p] += 1

    def qualified(self, p: int) -> bool:
        return bool(self.apples[p] >= APPLES_TO_WIN and not self.debts[p].any())

    def debtor_of(self, c: int) -> int:
        owners = np.flatnonzero(self.debts[:, c])
        return int(owners[0]) if owners.size else -1

    def spirit_on_forest(self) -> bool:
        return bool((self.cell_char == SPIRIT).any())

    def _move_piece(self, p: int, cell: int) -> int:
        src = self.pos[p]
        self.piece_at[p, src] = 0
        self.piece_at[p, cell] = 1
        self.pos[p] = cell
        return src

    def _occupied(self, cell: int) -> bool:
        return cell in self.pos

    def _rotate(self, cell: int) -> None:
        """The tile turns 90 degrees in its own direction, unless a blockade holds it."""
        if self.game.is_tile[cell] and not self.cell_blocked[cell]:
            self.cell_orient[cell] = (int(self.cell_orient[cell]) + int(self.cell_turn[cell])) % 4
            self._show_open(cell)

    def _refill(self, cell: int) -> None:
        """A vacated tile gets a chip unless it is a well or a token (or chip) lies there."""
        if (self.game.is_tile[cell] and not self.cell_well[cell] and self.cell_item[cell] < 0
                and self.cell_char[cell] < 0 and self.chip(cell) == 0):
            self._set_chip(cell, self._draw_chip())

    # --- entering tiles ---------------------------------------------------------------------------
    def can_enter(self, p: int, cell: int, full: bool | None = None) -> bool:
        """Whether p may move onto ``cell`` (``full``: p's backpack is full, if known)."""
        if not self.game.is_tile[cell] or cell in self.pos:
            return False
        if self.cell_item[cell] >= 0 and (self.items_of(p) >= BACKPACK_ITEMS if full is None else full):
            return False
        c = int(self.cell_char[cell])
        if c >= 0:
            return self._can_meet(p, c)
        return True

    def move_targets(self, p: int) -> tuple[list[int], list[int]]:
        """(normal moves, moves that need a compass) for p now."""
        cell = self.pos[p]
        game = self.game
        if not game.is_tile[cell]:  # still in the backpack
            normal, wider = game.starts[p], ()
        else:
            tile, orient = int(self.cell_tile[cell]), int(self.cell_orient[cell])
            normal = _targets(self.num_players, cell, tile, orient, False)
            wider = _targets(self.num_players, cell, tile, orient, True) if self.compasses[p] > 0 else ()
        # candidates are always tiles of this forest; check what lies on them
        full = self.items_of(p) >= BACKPACK_ITEMS
        items, chars, pos = self.cell_item.tolist(), self.cell_char.tolist(), self.pos

        def ok(t: int) -> bool:
            if t in pos or (full and items[t] >= 0):
                return False
            return chars[t] < 0 or self._can_meet(p, chars[t])

        return [t for t in normal if ok(t)], [t for t in wider if t not in normal and ok(t)]

    # --- turns ------------------------------------------------------------------------------------
    def _blockade_options(self, p: int) -> bool:
        if not self.game.blockade or self.blockade_used[0]:  # game.blockade: a Python bool
            return False
        setting, taking = self._blockade_gaps(p)
        return bool(setting.any() or taking.any())

    def _start_turn(self, p: int) -> None:
        self.blockade_used[0] = 0
        if self.can_open_chest(p):
            self.next_turn(CHEST_D, p, 0)
        else:
            self.next_turn(BLOCK_START if self._blockade_options(p) else TURN, p)

    def can_open_chest(self, p: int) -> bool:
        """p holds the treasure chest and the key, and the supply has the apple inside."""
        bp = self.backpack[p]
        return bool(bp[CHEST] and bp[KEY] and self.supply[APPLES] > 0)

    def _end_action(self) -> None:
        """After the turn's action: the chance to open a treasure chest (only the turn
        player's backpack can have changed), the Forest Spirit may appear, the end-of-turn
        blockade chance, then the next player."""
        p = self.turn
        if self.can_open_chest(p):
            self.replace(CHEST_D, p, 1)
            return
        self._after_chest()

    def _after_chest(self) -> None:
        if (max(self.apples.tolist()) >= APPLES_TO_WIN and not self.spirit_on_forest()
                and self._spirit_cells().any()):
            n, t = self.num_players, self.turn
            for i in range(n):
                q = (t + i) % n
                if self.qualified(q):
                    self.replace(SPIRIT_PLACE, (q + 1) % n, q)
                    return
        p = self.turn
        if self._blockade_options(p):
            self.replace(BLOCK_END, p)
            return
        self._next_player()

    def _next_player(self) -> None:
        q = (self.turn + 1) % self.num_players
        if q == 0 and self.round_no[0] < ROUND_CAP:
            self.round_no[0] += 1
        self._start_turn(q)

    def _win(self, p: int) -> None:
        """The Emerald Ring for 3 golden apples: the game ends."""
        self.apples[p] -= APPLES_TO_WIN
        self.supply[APPLES] += APPLES_TO_WIN
        self.winner[p] = 1
        self.winner_seat = p
        self.end_game()

    def _mask_turn(self, d, mask) -> None:
        p = d.player
        moves, compass = self.move_targets(p)
        for t in moves:
            mask[A.MOVE.start + t] = 1
        for t in compass:
            mask[A.COMPASS.start + t] = 1
        # Pausing is remaining on one's tile (and turning it). A piece still in its backpack
        # stands on no tile: it must move onto an adjacent tile, and only when both are
        # barred does it wait in the backpack ("pause" then turns nothing).
        mask[A.PAUSE.start] = bool(self.game.is_tile[self.pos[p]]) or not moves

    def _why_turn(self, d, a: int) -> str | None:
        if a in A.MOVE or a in A.COMPASS:
            t = a - (A.MOVE.start if a in A.MOVE else A.COMPASS.start)
            if not self.game.is_tile[t]:
                return f"{cell_name(t)} is not a forest tile"
            if self._occupied(t):
                return f"another piece stands on {cell_name(t)}"
            if self.cell_item[t] >= 0 and self.items_of(d.player) >= BACKPACK_ITEMS:
                return f"{cell_name(t)} holds an item token and the backpack is full"
            if self.cell_char[t] >= 0 and not self._can_meet(d.player, int(self.cell_char[t])):
                return (f"the {CHARACTER_NAMES[self.cell_char[t]]} on {cell_name(t)} can be met only "
                        "to use its ability or fulfil its task")
            if a in A.COMPASS and self.compasses[d.player] == 0:
                return "no compass token is left"
            return f"the octagons of the current tile do not lead to {cell_name(t)}"
        if a == A.PAUSE.start:
            return ("a piece still in its backpack stands on no forest tile to remain on: it "
                    "must move onto an adjacent tile (it waits only when both are barred)")
        return None

    def _apply_turn(self, d, a: int) -> None:
        p = d.player
        if a == A.PAUSE.start:
            self._rotate(self.pos[p])
            self._end_action()
            return
        if a in A.COMPASS:
            self.compasses[p] -= 1
            target = a - A.COMPASS.start
        else:
            target = a - A.MOVE.start
        src = self._move_piece(p, target)
        self._rotate(target)
        self._refill(src)
        self._arrive(p, target)

    def _arrive(self, p: int, cell: int) -> None:
        if self.cell_well[cell]:
            if self._well_options(p).any():
                self.replace(WELL, p)
            else:
                self._end_action()
            return
        if self.cell_item[cell] >= 0:
            self.replace(TOKEN_ITEM, p, cell)
            return
        c = int(self.cell_char[cell])
        if c >= 0:
            self._meet(p, c, cell)
            return
        self._chip_action(p, cell)

    def _chip_action(self, p: int, cell: int) -> None:
        chip = self.chip(cell)
        if chip == 0:
            self._end_action()
            return
        self._use_chip(cell)
        if chip == RED:
            if not self.pile:
                self._end_action()
                return
            c = self.pile.pop(int(self.rng.integers(len(self.pile))))
            self.pile_size[0] = len(self.pile)
            self._resolve_card(p, c, beggar=0)
            return
        k = self._draw_item()
        if k < 0:  # an empty blue bag: the chip is used up and gives nothing
            self._end_action()
            return
        if chip == BLUE:
            self.drawn_item[0] = k
            self.replace(DRAWN, p, k)
            return
        if not self._yellow_targets(p).any():  # nowhere to place it: back into the bag
            self.bag_items[k] += 1
            self._end_action()
            return
        self.drawn_item[0] = k
        self.replace(YELLOW_D, p, k)

    # --- blockades ----------------------------------------------------------------------------------
    def _blockade_gaps(self, p: int) -> tuple[np.ndarray, np.ndarray]:
        """Gaps where p may set a blockade (p carries a heavy item: an empty gap) and gaps
        whose blockade p may take (room in the backpack and no heavy item yet)."""
        usable, empty = self.game.gap_usable, self.gap_item < 0
        heavy = self.heavy_of(p) > 0
        room = not heavy and self.items_of(p) < BACKPACK_ITEMS
        none = np.zeros_like(usable)
        return (usable & empty if heavy else none), (usable & ~empty if room else none)

    def _mask_blockade(self, p: int, mask) -> None:
        setting, taking = self._blockade_gaps(p)
        mask[A.GAP_SET.start:A.GAP_SET.stop] = setting
        mask[A.GAP_TAKE.start:A.GAP_TAKE.stop] = taking
        mask[A.DONE.start] = 1

    def _mask_blockade_start(self, d, mask) -> None:
        self._mask_blockade(d.player, mask)

    def _mask_blockade_end(self, d, mask) -> None:
        self._mask_blockade(d.player, mask)

    def _blockade_act(self, p: int, a: int) -> None:
        if a in A.GAP_SET:
            g = a - A.GAP_SET.start
            k = int(np.flatnonzero(self.backpack[p, :5])[0])
            self.backpack[p, k] -= 1
            self.gap_item[g] = k
            for cell in self.game.gap_cells[g]:
                self.cell_blocked[cell] += 1
            self.blockade_used[0] = 1
        elif a in A.GAP_TAKE:
            g = a - A.GAP_TAKE.start
            self.backpack[p, int(self.gap_item[g])] += 1
            self.gap_item[g] = NO_ITEM
            for cell in self.game.gap_cells[g]:
                self.cell_blocked[cell] -= 1
            self.blockade_used[0] = 1

    def _apply_blockade_start(self, d, a: int) -> None:
        self._blockade_act(d.player, a)
        self.replace(TURN, d.player)

    def _apply_blockade_end(self, d, a: int) -> None:
        self._blockade_act(d.player, a)
        self._next_player()

    # --- items: keep, drop, trade -------------------------------------------------------------------
    def can_pay_fairy(self, p: int, row: int) -> bool:
        cost = FAIRY_COST[row]
        return cost == 0 or self.copper[p] >= cost or (self.copper[p] == 0 and self.silver[p] > 0)

    def _mask_trades(self, p: int, mask) -> None:
        """A fairy item is on offer if it has room in the backpack, or is a coin token the
        player can exchange at once (it then never enters the backpack)."""
        for r in range(FAIRY_ROWS):
            if not self.can_pay_fairy(p, r):
                continue
            for s in range(FAIRY_SLOTS):
                k = int(self.fairy[r, s])
                if k >= 0 and (self.fits(p, k) or self.can_exchange(k)):
                    mask[A.TRADE.start + r * FAIRY_SLOTS + s] = 1

    def _trade(self, p: int, a: int) -> None:
        """The offered token is already back in the bag; pay, take, slide, refill; the
        traded token goes into the backpack, a coin token by the player's choice (end of
        the action either way)."""
        r, s = A.TRADE.index(a)
        cost = FAIRY_COST[r]
        if cost:
            if self.copper[p] >= cost:
                self.copper[p] -= cost
                self.supply[COPPER] += cost
            else:  # silver from a player without copper: the fairy keeps the change
                self.silver[p] -= 1
                self.supply[SILVER] += 1
        k = int(self.fairy[r, s])
        self.fairy[r, s] = NO_ITEM
        removed = [int(x) for x in self.fairy[r] if x >= 0]
        for rr in range(r, 0, -1):
            self.fairy[rr] = self.fairy[rr - 1]
        self._fill_fairy_row(0)
        for x in removed:
            self.bag_items[x] += 1
        self._receive(p, k)

    def _receive(self, p: int, k: int) -> None:
        """A traded token or the Prince's choice (both with room, or an exchangeable coin
        token); a coin token may be exchanged at once or kept as an item."""
        keep, exchange = self.fits(p, k), self.can_exchange(k)
        if keep and exchange:
            self.drawn_item[0] = k
            self.replace(COIN_D, p, k)
            return
        if exchange:
            self._exchange(p, k)
        else:
            self._add_item(p, k)
        self._end_action()

    def _mask_coin_token(self, d, mask) -> None:
        mask[A.KEEP.start] = 1  # offered only when both are possible (_receive)
        mask[A.EXCHANGE.start] = 1

    def _apply_coin_token(self, d, a: int) -> None:
        p, k = d.player, d.data[0]
        self.drawn_item[0] = NO_ITEM
        if a == A.EXCHANGE.start:
            self._exchange(p, k)
        else:
            self._add_item(p, k)
        self._end_action()

    def _mask_chest(self, d, mask) -> None:
        mask[A.OPEN_CHEST.start] = 1
        mask[A.DONE.start] = 1

    def _apply_chest(self, d, a: int) -> None:
        p, at_end = d.player, d.data[0]
        if a == A.OPEN_CHEST.start:
            self.backpack[p, CHEST] -= 1
            self.backpack[p, KEY] -= 1
            self.bag_items[CHEST] += 1
            self.bag_items[KEY] += 1
            self._give_apple(p)
        if at_end:
            self._after_chest()
        else:
            self.replace(BLOCK_START if self._blockade_options(p) else TURN, p)

    def _mask_drawn(self, d, mask) -> None:
        p, k = d.player, d.data[0]
        mask[A.KEEP.start] = self.fits(p, k)
        mask[A.EXCHANGE.start] = self.can_exchange(k)
        mask[A.DROP.start] = 1
        self._mask_trades(p, mask)

    def _apply_drawn(self, d, a: int) -> None:
        p, k = d.player, d.data[0]
        self.drawn_item[0] = NO_ITEM
        if a in A.TRADE:
            self.bag_items[k] += 1
            self._trade(p, a)
            return
        if a == A.KEEP.start:
            self._add_item(p, k)
        elif a == A.EXCHANGE.start:
            self._exchange(p, k)
        else:
            self.cell_item[self.pos[p]] = k
        self._end_action()

    def _mask_token_item(self, d, mask) -> None:
        """A token found on a tile: take it into the backpack or trade it to the fairy "as
        described above" (rulebook, "Item tokens"), which includes the coin note: a coin
        token may be exchanged at once too; or leave it."""
        p, cell = d.player, d.data[0]
        k = int(self.cell_item[cell])
        mask[A.KEEP.start] = self.fits(p, k)
        mask[A.EXCHANGE.start] = self.can_exchange(k)
        mask[A.DROP.start] = 1
        self._mask_trades(p, mask)

    def _apply_token_item(self, d, a: int) -> None:
        p, cell = d.player, d.data[0]
        k = int(self.cell_item[cell])
        if a != A.DROP.start:
            self.cell_item[cell] = NO_ITEM
            if a == A.KEEP.start:
                self._add_item(p, k)
            elif a == A.EXCHANGE.start:
                self._exchange(p, k)
            else:
                self.bag_items[k] += 1
                self._trade(p, a)
                return
        self._end_action()

    def _yellow_targets(self, p: int) -> np.ndarray:
        here = self.pos[p]
        for chip in (YELLOW, BLUE):
            ok = self.cell_chip[:, chip].astype(bool).copy()
            ok[here] = False
            if ok.any():
                return ok
        return np.zeros(NUM_CELLS, bool)

    def _mask_yellow(self, d, mask) -> None:
        mask[A.TILE.start:A.TILE.stop] = self._yellow_targets(d.player)

    def _apply_yellow(self, d, a: int) -> None:
        cell = a - A.TILE.start
        self._use_chip(cell)
        self.cell_item[cell] = d.data[0]
        self.drawn_item[0] = NO_ITEM
        self._end_action()

    # --- wells ----------------------------------------------------------------------------------------
    def _well_options(self, p: int) -> np.ndarray:
        return np.array([
            self.items_of(p) >= WELL_ITEMS_IN and self.supply[COPPER] >= WELL_COPPER_OUT,
            self.copper[p] >= WELL_COPPER_IN and self.supply[SILVER] > 0,
            self.silver[p] >= 1 and self.supply[APPLES] > 0,
        ])

    def _mask_well(self, d, mask) -> None:
        opts = self._well_options(d.player)
        mask[A.WELL_ITEMS.start] = opts[0]
        mask[A.WELL_COPPER.start] = opts[1]
        mask[A.WELL_SILVER.start] = opts[2]
        mask[A.WELL_NONE.start] = 1

    def _apply_well(self, d, a: int) -> None:
        p = d.player
        if a == A.WELL_ITEMS.start:
            self.replace(WELL_GIVE, p, WELL_ITEMS_IN)
            return
        if a == A.WELL_COPPER.start:
            self.copper[p] -= WELL_COPPER_IN
            self.supply[COPPER] += WELL_COPPER_IN
            self.supply[SILVER] -= 1
            self.silver[p] += 1
        elif a == A.WELL_SILVER.start:
            self.silver[p] -= 1
            self.supply[SILVER] += 1
            self._give_apple(p)
        self._end_action()

    def _mask_well_give(self, d, mask) -> None:
        mask[A.ITEM.start:A.ITEM.stop] = self.backpack[d.player] > 0

    def _apply_well_give(self, d, a: int) -> None:
        p, left = d.player, d.data[0] - 1
        k = a - A.ITEM.start
        self.backpack[p, k] -= 1
        self.bag_items[k] += 1
        if left:
            self.replace(WELL_GIVE, p, left)
            return
        self.supply[COPPER] -= WELL_COPPER_OUT
        self.copper[p] += WELL_COPPER_OUT
        self._end_action()

    # --- characters: tasks and debts -------------------------------------------------------------------
    def can_do(self, p: int, task: Task | None) -> bool:
        if task is None:
            return False
        bp = self.backpack[p]
        need = np.zeros(NUM_ITEMS, np.int64)
        for k in task.give + task.need:
            need[k] += 1
        if (bp < need).any():
            return False
        if any(bp[k] > 0 for k in task.without):
            return False
        return self.copper[p] >= task.copper and self.silver[p] >= task.silver

    def _fulfil(self, p: int, task: Task) -> None:
        for k in task.give:
            self.backpack[p, k] -= 1
            self.bag_items[k] += 1
        self.copper[p] -= task.copper
        self.silver[p] -= task.silver
        self.supply[COPPER] += task.copper
        self.supply[SILVER] += task.silver
        if task.reward_item >= 0 and self.bag_items[task.reward_item] > 0:
            self.bag_items[task.reward_item] -= 1
            self._add_item(p, task.reward_item)
        for _ in range(task.apples):
            self._give_apple(p)

    def _return_card(self, c: int) -> None:
        """A character card is shuffled back into the pile (draws are uniform, so the pile
        keeps no order)."""
        self.pile.append(c)
        self.pile_size[0] = len(self.pile)

    def _resolve_card(self, p: int, c: int, beggar: int) -> None:
        """A card drawn face down (red chip) or chosen with the Beggar."""
        if c == SPIRIT:
            if self.qualified(p):
                self._return_card(c)
                self._win(p)
                return
            self.laid_out[c] = 1
            if not self.spirit_on_forest():
                self.cell_char[self.pos[p]] = c
            self._end_action()
            return
        self.drawn_card[p, c] = 1
        self.replace(CHARACTER_D, p, beggar)

    def drawn_of(self, p: int) -> int:
        return int(self.drawn_card[p].argmax())

    def _mask_character(self, d, mask) -> None:
        p = d.player
        c = self.drawn_of(p)
        ch = CHARACTERS[c]
        if ch.kind == HELPFUL:
            mask[A.USE.start] = self._can_use(p, c)
            mask[A.DEFER.start] = 1
        else:
            mask[A.UPPER.start] = self.can_do(p, ch.upper)
            mask[A.LOWER.start] = self.can_do(p, ch.lower)
            mask[A.APPLE.start] = self.apples[p] > 0
            mask[A.DEBT.start] = 1

    def _apply_character(self, d, a: int) -> None:
        p = d.player
        c = self.drawn_of(p)
        self.drawn_card[p, c] = 0
        ch = CHARACTERS[c]
        if a == A.UPPER.start or a == A.LOWER.start:
            self._fulfil(p, ch.upper if a == A.UPPER.start else ch.lower)
            self._return_card(c)
        elif a == A.APPLE.start:
            self.apples[p] -= 1
            self.supply[APPLES] += 1
            self._return_card(c)
        elif a == A.DEBT.start:
            self.debts[p, c] = 1
            self.cell_char[self.pos[p]] = c
        elif a == A.DEFER.start:
            self.laid_out[c] = 1
            self.cell_char[self.pos[p]] = c
        else:  # USE
            self._return_card(c)
            self._start_ability(p, c)
            return
        self._end_action()

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

    def _can_meet(self, p: int, c: int) -> bool:
        ch = CHARACTERS[c]
        if ch.kind == HELPFUL:
            return self._can_use(p, c)
        if self.can_do(p, ch.upper) or self.can_do(p, ch.lower):
            return True
        return bool(self.debts[p, c] and self.apples[p] > 0)

    def _meet(self, p: int, c: int, cell: int) -> None:
        if CHARACTERS[c].kind == HELPFUL:
            self.cell_char[cell] = NO_CHAR
            if self.laid_out[c]:
                self.laid_out[c] = 0
                self._return_card(c)
            self._start_ability(p, c)
        else:
            self.replace(MEET, p, c, cell)

    def _mask_meet(self, d, mask) -> None:
        p, c = d.player, d.data[0]
        ch = CHARACTERS[c]
        mask[A.UPPER.start] = self.can_do(p, ch.upper)
        mask[A.LOWER.start] = self.can_do(p, ch.lower)
        mask[A.APPLE.start] = bool(self.debts[p, c]) and self.apples[p] > 0

    def _apply_meet(self, d, a: int) -> None:
        p, (c, cell) = d.player, d.data
        ch = CHARACTERS[c]
        if a == A.APPLE.start:
            self.apples[p] -= 1
            self.supply[APPLES] += 1
        else:
            self._fulfil(p, ch.upper if a == A.UPPER.start else ch.lower)
        debtor = self.debtor_of(c)
        if debtor >= 0:
            self.debts[debtor, c] = 0
        self._return_card(c)
        self.cell_char[cell] = NO_CHAR
        self._end_action()

    # --- helpers' abilities ----------------------------------------------------------------------------
    def _goblin_pairs(self, p: int) -> list[tuple[int, int]]:
        """(given, taken) swaps the Goblin allows p: a backpack item for a non-coin item
        from the bag, with at most one heavy item afterwards."""
        heavy = self.heavy_of(p)
        pairs = []
        for g in np.flatnonzero(self.backpack[p]).tolist():
            for k in range(NUM_ITEMS):
                if k in COIN_TOKENS or k == g:
                    continue
                if self.bag_items[k] and heavy - IS_HEAVY[g] + IS_HEAVY[k] <= 1:
                    pairs.append((g, k))
        return pairs

    def _unicorn_cells(self, p: int) -> np.ndarray:
        """Where the Unicorn may set p's piece: "any free forest tile", free meaning no
        piece on it, that p could also enter by a move: so an item token's tile unless p's
        backpack is full (the token then stays: no action without a saddle), never a
        character token's tile (entered only to meet the character). With a saddle also a
        token's tile p may enter once the saddle is back in the bag (its action is then
        carried out: the rulebook's "a chip or a token"). The Unicorn's own token is never
        a target (meeting it removes it)."""
        free = self.game.is_tile & (self.cell_char < 0)
        if self.items_of(p) >= BACKPACK_ITEMS:
            free &= self.cell_item < 0
        free[self.pos] = False
        if not self.backpack[p, SADDLE]:
            return free
        tokens = self.game.is_tile & ~free & ((self.cell_item >= 0) | (self.cell_char >= 0))
        tokens &= self.cell_char != UNICORN
        tokens[self.pos] = False
        if not tokens.any():
            return free
        self.backpack[p, SADDLE] -= 1  # judged as after the saddle's return (restored below)
        self.bag_items[SADDLE] += 1
        try:
            for cell in np.flatnonzero(tokens).tolist():
                free[cell] = self.can_enter(p, cell)
        finally:
            self.backpack[p, SADDLE] += 1
            self.bag_items[SADDLE] -= 1
        return free

    def _can_use(self, p: int, c: int) -> bool:
        if c == PRINCE:
            return self.items_of(p) < BACKPACK_ITEMS and self.bag_items.sum() > 0
        if c == MERCHANT:
            return bool((self.items_of(p) > 0 and self.supply[COPPER] > 0)
                        or (self.silver[p] > 0 and self.supply[APPLES] > 0))
        if c == GOBLIN:
            return bool(self._goblin_pairs(p))
        if c == BEGGAR:
            return self.copper[p] >= BEGGAR_FEE and any(x != BEGGAR for x in self.pile)
        if c == UNICORN:
            return bool(self._unicorn_cells(p).any())
        if c == SPIRIT:
            return self.qualified(p)
        return False

    def _start_ability(self, p: int, c: int) -> None:
        if c == SPIRIT:
            self._win(p)
        elif c == PRINCE:
            # The three tokens are looked at in secret; until one is chosen they count as
            # still in the bag, so the public bag count reveals nothing of them.
            self.prince_items[p] = self._peek_items(self.rng, PRINCE_DRAWS)
            if any(self.fits(p, k) for k in np.flatnonzero(self.prince_items[p]).tolist()):
                self.replace(PRINCE_D, p)
            else:
                self.prince_items[p] = 0
                self._end_action()
        elif c == MERCHANT:
            self.replace(MERCHANT_D, p, 0)
        elif c == GOBLIN:
            self.replace(GOBLIN_GIVE, p)
        elif c == BEGGAR:
            self.copper[p] -= BEGGAR_FEE
            self.supply[COPPER] += BEGGAR_FEE
            self.replace(BEGGAR_D, p)
        elif c == UNICORN:
            self.replace(UNICORN_D, p)

    def _mask_prince(self, d, mask) -> None:
        p = d.player
        for k in np.flatnonzero(self.prince_items[p]).tolist():
            mask[A.BAG.start + k] = self.fits(p, k)

    def _apply_prince(self, d, a: int) -> None:
        p, k = d.player, a - A.BAG.start
        self.prince_items[p] = 0
        self.bag_items[k] -= 1
        self._receive(p, k)

    def _mask_merchant(self, d, mask) -> None:
        p, sold = d.player, d.data[0]
        if sold < MERCHANT_MAX_SALES and self.supply[COPPER] > 0:
            mask[A.ITEM.start:A.ITEM.stop] = self.backpack[p] > 0
        if sold == 0 and self.silver[p] > 0 and self.supply[APPLES] > 0:
            mask[A.MERCHANT_APPLE.start] = 1
        if sold > 0:
            mask[A.DONE.start] = 1

    def _apply_merchant(self, d, a: int) -> None:
        p, sold = d.player, d.data[0]
        if a == A.MERCHANT_APPLE.start:
            self.silver[p] -= 1
            self.supply[SILVER] += 1
            self._give_apple(p)
        elif a in A.ITEM:
            k = a - A.ITEM.start
            self.backpack[p, k] -= 1
            self.bag_items[k] += 1
            self.supply[COPPER] -= 1
            self.copper[p] += 1
            sold += 1
            if sold < MERCHANT_MAX_SALES and self.supply[COPPER] > 0 and self.items_of(p) > 0:
                self.replace(MERCHANT_D, p, sold)
                return
        self._end_action()

    def _mask_goblin_give(self, d, mask) -> None:
        for g, _ in self._goblin_pairs(d.player):
            mask[A.ITEM.start + g] = 1

    def _apply_goblin_give(self, d, a: int) -> None:
        p, g = d.player, a - A.ITEM.start
        self.backpack[p, g] -= 1
        self.bag_items[g] += 1
        self.replace(GOBLIN_TAKE, p, g)

    def _mask_goblin_take(self, d, mask) -> None:
        p = d.player
        heavy = self.heavy_of(p)
        for k in range(NUM_ITEMS):
            if (k not in COIN_TOKENS and k != d.data[0] and self.bag_items[k] > 0
                    and heavy + IS_HEAVY[k] <= 1):
                mask[A.BAG.start + k] = 1

    def _apply_goblin_take(self, d, a: int) -> None:
        p, k = d.player, a - A.BAG.start
        self.bag_items[k] -= 1
        self.backpack[p, k] += 1
        self._end_action()

    def _mask_beggar(self, d, mask) -> None:
        for c in self.pile:
            if c != BEGGAR:
                mask[A.CHARACTER.start + c] = 1

    def _apply_beggar(self, d, a: int) -> None:
        c = a - A.CHARACTER.start
        self.pile.remove(c)
        self.pile_size[0] = len(self.pile)
        self._resolve_card(d.player, c, beggar=1)

    def _mask_unicorn(self, d, mask) -> None:
        mask[A.TILE.start:A.TILE.stop] = self._unicorn_cells(d.player)

    def _apply_unicorn(self, d, a: int) -> None:
        p, cell = d.player, a - A.TILE.start
        src = self._move_piece(p, cell)
        self._refill(src)
        self._rotate(cell)
        if self.backpack[p, SADDLE] and (self.chip(cell) or self.cell_item[cell] >= 0
                                         or self.cell_char[cell] >= 0):
            self.replace(SADDLE_D, p, cell)
        else:
            self._end_action()

    def _mask_saddle(self, d, mask) -> None:
        p, cell = d.player, d.data[0]
        mask[A.USE.start] = 1
        # keeping the saddle is standing on the tile without its action: not on a character
        # token (entered only to meet it), nor on an item token with a full backpack
        mask[A.DONE.start] = self.cell_char[cell] < 0 and (
            self.cell_item[cell] < 0 or self.items_of(p) < BACKPACK_ITEMS)

    def _apply_saddle(self, d, a: int) -> None:
        p, cell = d.player, d.data[0]
        if a == A.USE.start:
            self.backpack[p, SADDLE] -= 1
            self.bag_items[SADDLE] += 1
            self._arrive(p, cell)  # the token's action, else the chip's (never a well here)
        else:
            self._end_action()

    # --- the Forest Spirit appears --------------------------------------------------------------------
    def _spirit_cells(self) -> np.ndarray:
        """Tiles the Forest Spirit may be placed on: "any forest tile with a red colour
        chip", else one with a blue chip (a piece standing there does not matter: only the
        Unicorn leaves a piece on a chip); else, the engine's own rule, any tile without a
        piece, chip, token or well (docs/roundforest.md)."""
        for chip in (RED, BLUE):
            ok = self.cell_chip[:, chip].astype(bool)
            if ok.any():
                return ok
        free = self.game.is_tile & (self.cell_item < 0) & (self.cell_char < 0) & (self.cell_well == 0)
        free[self.pos] = False
        return free

    def _mask_spirit_place(self, d, mask) -> None:
        mask[A.TILE.start:A.TILE.stop] = self._spirit_cells()

    def _apply_spirit_place(self, d, a: int) -> None:
        cell = a - A.TILE.start
        self._use_chip(cell)
        self.cell_char[cell] = SPIRIT
        self._end_action()

    # --- results ---------------------------------------------------------------------------------------
    def progress(self, p: int) -> dict:
        return {
            "winner": bool(self.winner[p]),
            "apples": int(self.apples[p]),
            "debts": int(self.debts[p].sum()),
            "coins": int(self.copper[p]) + 3 * int(self.silver[p]),
            "item_count": self.items_of(p),  # not "items": a dict method (Tianshou's Batch refuses it)
        }

    def breakdown(self) -> list[dict]:
        return [self.progress(p) for p in range(self.num_players)]

    def ranks(self) -> list[int]:
        keys = []
        for b in self.breakdown():
            keys.append((b["winner"], b["apples"], -b["debts"], b["coins"], b["item_count"]))
        return competition_ranks(keys)

    # --- hidden information ------------------------------------------------------------------------------
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
                beggar = new.decision is not None and new.decision.kind == CHARACTER_D \
                    and new.decision.data[0] == 1
                pool = sorted(x for x in new.pile + [c]
                              if x != SPIRIT and not (beggar and x == BEGGAR))
                pick = pool[int(rng.integers(len(pool)))]
                new.pile = [x for x in new.pile if x != pick] + ([c] if pick != c else [])
                new.drawn_card[o] = 0
                new.drawn_card[o, pick] = 1
            if new.prince_items[o].any():
                # other draws of as many tokens, at least one of which fits (else the
                # Prince's choice would not be pending)
                for _ in range(50):
                    draw = new._peek_items(rng, int(new.prince_items[o].sum()))
                    if any(new.fits(o, k) for k in np.flatnonzero(draw).tolist()):
                        new.prince_items[o] = draw
                        break
        # Cards are drawn from the pile at random, so its order means nothing; sorted, the
        # result depends only on what the seat knows.
        new.pile.sort()
        return new._resampled(rng)

    # --- bookkeeping -------------------------------------------------------------------------------------
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


RoundforestGame.state_class = RoundforestState
