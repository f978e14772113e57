"""A turn: move or pause, turn the tile, refill the vacated tile, then the new tile's action;
and the order of turns.

Roundforest rulebook, "Playing the Game": "a. Moving the playing piece" (the first move
from the backpack, the octagons, one piece per tile, the compass), "b. Pausing", then "1.
Rotate the forest tile", "2. Fill the vacated forest tile" and "3. Carry out the action"
(a well, an item token, a character token, a blue, yellow or red chip: the other modules).
After the action: the chance to open a treasure chest ("Meeting the Forest Spirit"), the
Forest Spirit's appearance, the end-of-turn blockade chance, then the next player
clockwise.

A piece's cell lives in ``pos``; the ``piece_at`` block is its observation, written only by
``_show_pieces`` (all of it, from ``pos``) and ``_move_piece`` (the one change a move makes).
A tile's ``cell_tile`` and ``cell_orient`` are the source of its ``cell_turn`` and
``cell_open`` blocks, written only by ``_show_tiles`` and ``_show_open``.
"""

from __future__ import annotations

import functools

import numpy as np

from .. import actions as A
from ..components import (
    APPLES_TO_WIN,
    BACKPACK_ITEMS,
    BLUE,
    CHARACTER_NAMES,
    RED,
    ROUND_CAP,
    TILES,
    cell_name,
    open_sides,
    pattern_targets,
)
from ..observation import Kind
from .phase_base import PhaseBase

# _OPEN[tile, orientation] = the cell_open block's (4 sides x inner/outer) entries
_OPEN = np.array([[np.array(open_sides(t, o)).T for o in range(4)] for t in range(len(TILES))],
                 dtype=np.int16)


@functools.cache
def octagon_targets(n: int, cell: int, tile: int, orientation: int,
                    compass: bool = False) -> tuple[int, ...]:
    """``components.pattern_targets``, cached: the tiles the octagons (every one with
    ``compass``) let a piece on ``cell`` reach, for the moves and the near_* blocks."""
    return tuple(pattern_targets(n, cell, tile, orientation, compass))


class TurnRules(PhaseBase):
    """Moving, pausing, rotating, refilling and the order of turns (a mixin of
    ``RoundforestState``)."""

    __slots__ = ()

    # --- the pieces ---------------------------------------------------------------------------
    def _show_pieces(self) -> None:
        """Write the ``piece_at`` block from ``pos`` (setup, and positions edited by hand)."""
        self.piece_at[:] = 0
        for p, cell in enumerate(self.pos):
            self.piece_at[p, cell] = 1

    def _move_piece(self, p: int, cell: int) -> int:
        """p's piece goes to ``cell``; returns the cell it left."""
        src = self.pos[p]
        self.piece_at[p, src] = 0
        self.piece_at[p, cell] = 1
        self.pos[p] = cell
        return src

    def _occupied(self, cell: int) -> bool:
        """"Only one playing piece may stand on each forest tile"."""
        return cell in self.pos

    # --- the tiles ------------------------------------------------------------------------------
    def _show_tiles(self) -> None:
        """Write ``cell_turn`` and ``cell_open`` of every tile from its tile and orientation
        (setup, and positions edited by hand)."""
        for cell in self.game.tile_cells:
            self.cell_turn[cell] = TILES[self.cell_tile[cell]].turn
            self._show_open(cell)

    def _show_open(self, cell: int) -> None:
        """Write the ``cell_open`` block of ``cell`` from its tile and orientation."""
        self.cell_open[cell] = _OPEN[int(self.cell_tile[cell]), int(self.cell_orient[cell])]

    def _rotate(self, cell: int) -> None:
        """"1. Rotate the forest tile": it turns 90 degrees in its own direction, unless a
        blockade holds it ("Setting and removing a blockade")."""
        if self.game.is_tile[cell] and not self.cell_blocked[cell]:
            self.cell_orient[cell] = (int(self.cell_orient[cell]) + int(self.cell_turn[cell])) % 4
            self._show_open(cell)

    def _refill(self, cell: int) -> None:
        """"2. Fill the vacated forest tile": a chip from the black bag, unless it is a well
        or a token (or a chip: only the Unicorn leaves a piece on one) lies there."""
        if (self.game.is_tile[cell] and not self.cell_well[cell] and self.cell_item[cell] < 0
                and self.cell_char[cell] < 0 and self.chip(cell) == 0):
            self._set_chip(cell, self._draw_chip())

    # --- where a piece may go ("a. Moving the playing piece") -------------------------------------
    def can_enter(self, p: int, cell: int, full: bool | None = None) -> bool:
        """Whether p may move onto ``cell`` (``full``: p's backpack is full, if known): a free
        tile; an item token's only with room in the backpack ("Item tokens"); a character
        token's only to meet the character ("Character tokens")."""
        if not self.game.is_tile[cell] or cell in self.pos:
            return False
        if self.cell_item[cell] >= 0 and (self.items_of(p) >= BACKPACK_ITEMS if full is None else full):
            return False
        c = int(self.cell_char[cell])
        if c >= 0:
            return self._can_meet(p, c)
        return True

    def move_targets(self, p: int) -> tuple[list[int], list[int]]:
        """(normal moves, moves that need a compass) for p now: from the backpack the
        adjacent tiles, else what the octagons open ("The compass" opens every empty one)."""
        cell = self.pos[p]
        game = self.game
        wider: tuple[int, ...]
        if not game.is_tile[cell]:  # still in the backpack
            normal, wider = game.starts[p], ()
        else:
            tile, orient = int(self.cell_tile[cell]), int(self.cell_orient[cell])
            normal = octagon_targets(self.num_players, cell, tile, orient)
            wider = octagon_targets(self.num_players, cell, tile, orient, True) if self.compasses[p] > 0 else ()
        # candidates are always tiles of this forest; check what lies on them
        full = self.items_of(p) >= BACKPACK_ITEMS
        items, chars, pos = self.cell_item.tolist(), self.cell_char.tolist(), self.pos

        def ok(t: int) -> bool:
            if t in pos or (full and items[t] >= 0):
                return False
            return chars[t] < 0 or self._can_meet(p, chars[t])

        return [t for t in normal if ok(t)], [t for t in wider if t not in normal and ok(t)]

    # --- the order of a turn ----------------------------------------------------------------------
    def _start_turn(self, p: int) -> None:
        """p's turn begins: the treasure chest may be opened, a blockade set or removed."""
        self.blockade_used[0] = 0
        if self.can_open_chest(p):
            self.next_turn(Kind.CHEST, p, 0)
        else:
            self.next_turn(Kind.BLOCKADE_START if self._blockade_options(p) else Kind.TURN, p)

    def _end_action(self) -> None:
        """After the turn's action: the chance to open a treasure chest (only the turn
        player's backpack can have changed), the Forest Spirit may appear, the end-of-turn
        blockade chance, then the next player."""
        p = self.turn
        if self.can_open_chest(p):
            self.replace(Kind.CHEST, p, 1)
            return
        self._after_chest()

    def _after_chest(self) -> None:
        """"Meeting the Forest Spirit": once a player fulfils all conditions and the Spirit's
        token is not out, the player to the left of the first such player (clockwise from
        the turn player) places it; then the end-of-turn blockade, then the next player."""
        if (max(self.apples.tolist()) >= APPLES_TO_WIN and not self.spirit_on_forest()
                and self._spirit_cells().any()):
            n, t = self.num_players, self.turn
            for i in range(n):
                q = (t + i) % n
                if self.qualified(q):
                    self.replace(Kind.SPIRIT_PLACE, (q + 1) % n, q)
                    return
        p = self.turn
        if self._blockade_options(p):
            self.replace(Kind.BLOCKADE_END, p)
            return
        self._next_player()

    def _next_player(self) -> None:
        """"Play then proceeds clockwise" (seat order)."""
        q = (self.turn + 1) % self.num_players
        if q == 0 and self.round_no[0] < ROUND_CAP:
            self.round_no[0] += 1
        self._start_turn(q)

    # --- the turn decision: move, compass or pause -----------------------------------------------
    def _mask_turn(self, d, mask) -> None:
        """"a. Move the playing piece, or b. Pause and remain on the forest tile"."""
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
        """A pause turns the tile and ends the turn ("If the player has paused, their turn
        ends here"); a move turns the new tile, refills the old one, then acts."""
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

    # --- "3. Carry out the action" ------------------------------------------------------------------
    def _arrive(self, p: int, cell: int) -> None:
        """What lies on the tile acts: a well ("Magic well"), an item token ("Item tokens"),
        a character token ("Character tokens"), else its chip."""
        if self.cell_well[cell]:
            if self._well_options(p).any():
                self.replace(Kind.WELL, p)
            else:
                self._end_action()
            return
        if self.cell_item[cell] >= 0:
            self.replace(Kind.TOKEN_ITEM, p, cell)
            return
        c = int(self.cell_char[cell])
        if c >= 0:
            self._meet(p, c, cell)
            return
        self._chip_action(p, cell)

    def _chip_action(self, p: int, cell: int) -> None:
        """The chip goes beside the playing area; a red one draws a character card, a blue or
        yellow one an item (an empty blue bag gives nothing)."""
        chip = self.chip(cell)
        if chip == 0:
            self._end_action()
            return
        self._use_chip(cell)
        if chip == RED:
            if not self.pile:
                self._end_action()
                return
            self._resolve_card(p, self._draw_card(), beggar=0)
            return
        k = self._draw_item()
        if k < 0:  # an empty blue bag: the chip is used up and gives nothing
            self._end_action()
            return
        if chip == BLUE:
            self._hold(Kind.DRAWN, p, k)
            return
        if not self._yellow_targets(p).any():  # nowhere to place it: back into the bag
            self.bag_items[k] += 1
            self._end_action()
            return
        self._hold(Kind.YELLOW, p, k)
