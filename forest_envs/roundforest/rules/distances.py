"""How near the tiles are to each other in moves: the ``near_*`` observation blocks.

What a player at the table sees at a glance and a flat network cannot work out from the
octagons one tile at a time: how far the wells, the Forest Spirit, the characters each
player owes and each player's piece are, in moves over the octagons. The blocks hold
nothing the other blocks do not (they are a function of ``cell_tile``, ``cell_orient``,
``cell_blocked``, ``cell_well``, ``cell_char``, ``debts`` and the pieces), so they are
written from those whenever the buffer is read whole (``show_near``), never by a rule.

How a route is counted (Roundforest rulebook, "a. Moving the playing piece" and "1. Rotate
the forest tile"): a piece that arrives on a tile turns it a quarter in its own direction
before it leaves again, so every step of a route leaves its tile as that tile lies *after
one turn* (a tile held by a blockade does not turn), except the first step of a piece that
already stands on its tile, which leaves it as it lies now. Pieces, tokens and the other
players' moves on the way are not counted: the fewest moves if nothing else changes.

* ``near_well[c]``, ``near_spirit[c]``, ``near_debt[p, c]``: for a piece that has just
  arrived on tile ``c``, the route to the nearest well, to the Forest Spirit's token, to
  the nearest token of a character that seat ``p`` owes (0 moves on the goal itself);
* ``near_piece[p, c]``: the route of seat ``p``'s piece from where it stands to tile ``c``
  (0 moves to its own tile; from the backpack, 1 to each of the two tiles beside it).

Each is observed as ``1 / (1 + moves)`` (stored as ``NEAR_SCALE / (1 + moves)``, rounded):
1 on the goal, 1/2 one move away, ...; 0 for a route of ``MOVES_CAP`` moves or more and
for none (no such goal, a goal out of reach, a cell of the frame that is no tile). Near
goals stand out and a missing goal is all zeros, as a network reads best.
"""

from __future__ import annotations

from ..components import MOVES_CAP, NEAR_SCALE, NUM_CELLS, NUM_CHARACTERS, SPIRIT
from .phase_base import PhaseBase
from .turn import octagon_targets

# The blocks, in declaration order (``observation.build_layout``): one run of the buffer,
# written in one slice assignment.
NEAR_BLOCKS = ("near_well", "near_spirit", "near_debt", "near_piece")


def near_span(layout) -> slice:
    """The run of the buffer the ``near_*`` blocks fill, checked to be one run."""
    blocks = [layout.blocks[name] for name in NEAR_BLOCKS]
    for a, b in zip(blocks, blocks[1:]):
        if a.offset + a.size != b.offset:
            raise RuntimeError(f"block {b.name} must follow {a.name} in the layout")
    return slice(blocks[0].offset, blocks[-1].offset + blocks[-1].size)


def near_sources(layout) -> tuple[slice, slice]:
    """The runs of the buffer the ``near_*`` blocks are computed from: ``cell_tile`` to
    ``piece_at`` (tiles, turn directions, orientations, blockades, wells, tokens, pieces) and
    ``debts``."""
    board = [layout.blocks[name] for name in ("cell_tile", "cell_turn", "cell_orient",
                                               "cell_blocked", "cell_well", "cell_char", "piece_at")]
    start, stop = min(b.offset for b in board), max(b.offset + b.size for b in board)
    debts = layout.blocks["debts"]
    return slice(start, stop), slice(debts.offset, debts.offset + debts.size)


# NEAR[d]: what a route of d moves is stored as (NEAR_SCALE / (1 + d), rounded; all distinct)
NEAR = tuple(round(NEAR_SCALE / (1 + d)) for d in range(MOVES_CAP))


def _spread(adjacency: list, frontier: list[int], start: int) -> list[int]:
    """Breadth-first from the cells of ``frontier`` (``start`` moves away) along
    ``adjacency`` (the cells each cell leads to): each cell's ``NEAR`` value, 0 for a cell
    ``MOVES_CAP`` or more moves away or out of reach. Cells are met nearest first, so the
    first value a cell gets is its own."""
    near = [0] * NUM_CELLS
    for c in frontier:
        near[c] = NEAR[start]
    d = start + 1
    while frontier and d < MOVES_CAP:
        value, reached = NEAR[d], []
        for c in frontier:
            for t in adjacency[c]:
                if not near[t]:
                    near[t] = value
                    reached.append(t)
        frontier = reached
        d += 1
    return near


class NearBlocks(PhaseBase):
    """Writing the ``near_*`` blocks (a mixin of ``RoundforestState``)."""

    __slots__ = ()

    def near_values(self) -> list[int]:
        """The ``near_*`` blocks' values, in buffer order (module doc)."""
        n, game = self.num_players, self.game
        tiles, orient = self.cell_tile.tolist(), self.cell_orient.tolist()
        turn, blocked = self.cell_turn.tolist(), self.cell_blocked.tolist()
        turned: list = [()] * NUM_CELLS    # where a piece may go from a tile once it turned
        back: list = [[] for _ in range(NUM_CELLS)]  # ... and from where it may come to one
        for c in game.tile_cells:
            o = orient[c] if blocked[c] else (orient[c] + turn[c]) % 4
            targets = turned[c] = octagon_targets(n, c, tiles[c], o)
            for t in targets:
                back[t].append(c)
        chars = self.cell_char.tolist()
        at: list = [[] for _ in range(NUM_CHARACTERS)]  # the cell of each character's token
        for c in game.tile_cells:
            if chars[c] >= 0:
                at[chars[c]].append(c)
        out = _spread(back, list(game.well_cells), 0) + _spread(back, at[SPIRIT], 0)
        for owed in self.debts.tolist():
            out += _spread(back, [c for k, d in enumerate(owed) if d for c in at[k]], 0)
        for p, cell in enumerate(self.pos):
            if game.is_tile[cell]:
                dist = _spread(turned, list(octagon_targets(n, cell, tiles[cell], orient[cell])), 1)
                dist[cell] = NEAR[0]
            else:
                dist = _spread(turned, list(game.starts[p]), 1)
            out += dist
        return out

    def show_near(self) -> None:
        """Write the ``near_*`` blocks from their sources (module doc). The game keeps the
        values of the last sources it saw: observing every seat of one position (OpenSpiel,
        the golden playthroughs, search) computes them once."""
        game, buf = self.game, self.buf
        key = buf[game.near_sources[0]].tobytes() + buf[game.near_sources[1]].tobytes()
        memo = game.near_memo
        if memo[0] != key:
            memo[:] = key, self.near_values()
        buf[game.near_span] = memo[1]
