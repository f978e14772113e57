"""What a seat may know, as the light typed record the scripted agent reads (``reading``).

The facts of ``view.view(state, seat)`` that ``agents.HeuristicAgent`` reads, and no others
(tests/roundforest/test_reading.py compares them with the view): the pending decision, the
forest's tiles, the fairy board, where the pieces stand, and this seat's own backpack,
coins, apples, compasses and debts. The view builds a ten-key dict per tile at every
decision, which cost more than the decision itself; here each block is one list.

Every block read is public (``observation.build_layout``): the seat's own entries are read
from the per-seat public blocks at its row only because the agent reads no other. The blocks
only the owner sees (``drawn_card``, ``prince_items``) are not read at all, so nothing
another seat hides can reach the record.
"""

from __future__ import annotations

from typing import NamedTuple

from ...core.decisions import DecisionRecord
from ..observation import Kind

_KINDS = tuple(Kind)  # Kind by index: a decision holds its kind as a plain int


class SeatReading(NamedTuple):
    """What ``seat`` reads (``view``'s entries, as tuples). The tile columns are indexed by
    cell id over all cells, as the state's blocks are; only the cells of ``tile_cells`` hold
    a tile (``view``'s ``cells`` has those only)."""

    seat: int
    num_players: int
    decision: str | None          # the pending decision's kind name (None: the game is over)
    kind: Kind | None             # ... the same kind as the game's Kind (agents dispatch on it)
    data: DecisionRecord | None   # ... and what it carries: its kind's record, fields by name
    tile_cells: tuple[int, ...]   # the cells that hold a tile (the forest)
    tile: tuple[int, ...]         # per cell: the tile id
    orientation: tuple[int, ...]  # quarter turns clockwise from printed
    well: tuple[bool, ...]
    chip: tuple[int, ...]         # none / blue / yellow / red (components' chip ids)
    item: tuple[int, ...]         # the item lying there, -1 none
    character: tuple[int, ...]    # the character standing there, -1 none
    fairy: tuple[tuple[int, ...], ...]  # [row][slot]: the item offered, -1 none
    piece_cells: tuple[int, ...]  # each seat's piece (a corner cell: still in the backpack)
    backpack: tuple[int, ...]     # this seat's items by kind
    copper: int
    silver: int
    apples: int
    compasses: int
    debts: tuple[int, ...]        # the characters this seat owes a task, ascending


def reading(state, seat: int) -> SeatReading:
    """What ``seat`` (not the referee: the agent plays a seat) reads, as ``view(state, seat)``
    says it."""
    return SeatReading(
        seat=seat,
        num_players=state.num_players,
        decision=state.decision_name(),
        kind=_KINDS[state.decision.kind] if state.decisions else None,
        data=state.decision_record(),
        tile_cells=state.game.tile_cells,
        tile=tuple(state.cell_tile.tolist()),
        orientation=tuple(state.cell_orient.tolist()),
        well=tuple(map(bool, state.cell_well.tolist())),
        chip=tuple(state.chips()),
        item=tuple(state.cell_item.tolist()),
        character=tuple(state.cell_char.tolist()),
        fairy=tuple(map(tuple, state.fairy.tolist())),
        piece_cells=tuple(state.pos),
        backpack=tuple(state.backpack[seat].tolist()),
        copper=int(state.copper[seat]),
        silver=int(state.silver[seat]),
        apples=int(state.apples[seat]),
        compasses=int(state.compasses[seat]),
        debts=tuple(c for c, owed in enumerate(state.debts[seat].tolist()) if owed),
    )
