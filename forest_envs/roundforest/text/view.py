"""What a seat may know, once: ``reading(state, seat)``, a typed record of tuples, and
``view(state, seat)``, the same record as plain JSON data (``SeatReading.as_json``, plus the
legal actions and the standings).

The record is what everything that shows or reads a seat's knowledge starts from: the
heuristic (``agents/``), the text board, the prompt, the narration and the move labels
(``render.py``, ``words.py``, ``narration.py``, ``labels.py``). The picture (``../picture.py``)
draws from the JSON form, which is what a replay page stores and redraws without a state.

It is indexed as the game's data is: the tile columns by cell id over all cells, as the
state's blocks are (only the cells of ``tile_cells`` hold a tile; the JSON's ``cells`` has
those only, one dict per tile), items by kind (``components.ITEM_NAMES``), characters by
index (``components.CHARACTERS``), players by seat. Another seat's face-down character card
and the Prince's draws appear only in that seat's own record (and the referee's,
``seat=None``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, NamedTuple

from ...core.decisions import DecisionReading, pending_reading
from ...core.presentation import check_observer
from ..components import NUM_CELLS, TILES, open_sides
from ..observation import APPLES, COPPER, DECISIONS, SILVER, Kind


class CellReading(NamedTuple):
    """One tile (the JSON's ``cells`` entry; ``SeatReading.cell``)."""

    tile: int
    well: bool
    turn: int                 # the way it turns: 1 clockwise, -1 counter-clockwise
    orientation: int          # quarter turns clockwise from printed
    inner: tuple[bool, ...]   # per side N E S W: the inner octagon is filled
    outer: tuple[bool, ...]   # ... the outer one
    blocked: int
    chip: int                 # none / blue / yellow / red (components' chip ids)
    item: int                 # the item lying there, -1 none
    character: int            # the character standing there, -1 none

    def as_json(self) -> dict:
        out = self._asdict()
        out["inner"], out["outer"] = list(self.inner), list(self.outer)
        return out

    @classmethod
    def from_json(cls, data: dict) -> CellReading:
        fields: dict = dict(data, inner=tuple(data["inner"]), outer=tuple(data["outer"]))
        return cls(**fields)


class PlayerReading(NamedTuple):
    """One seat, as the reader sees it: ``drawn_card`` and ``prince_items`` only where the
    reader may see them (``secrets_shown``: its own seat, or the referee)."""

    cell: int                       # where the piece stands (its corner: in the backpack)
    in_backpack: bool
    backpack: tuple[int, ...]       # items by kind
    copper: int
    silver: int
    apples: int
    compasses: int
    debts: tuple[int, ...]          # the characters this seat owes a task, ascending
    winner: bool
    drawn_card: int | None          # the character card drawn face down (None: none, or hidden)
    prince_items: tuple[int, ...] | None  # the Prince's secret draw by kind (None: hidden)

    @property
    def secrets_shown(self) -> bool:
        """The reader may see this seat's secrets (its own seat, or the referee): the
        Prince's draw is then shown, empty or not."""
        return self.prince_items is not None

    def as_json(self) -> dict:
        out = {"cell": self.cell, "in_backpack": self.in_backpack, "backpack": list(self.backpack),
               "copper": self.copper, "silver": self.silver, "apples": self.apples,
               "compasses": self.compasses, "debts": list(self.debts), "winner": self.winner}
        if self.secrets_shown:
            out["drawn_card"] = self.drawn_card
            out["prince_items"] = list(self.prince_items or ())
        return out

    @classmethod
    def from_json(cls, data: dict) -> PlayerReading:
        shown = "prince_items" in data
        return cls(data["cell"], data["in_backpack"], tuple(data["backpack"]), data["copper"],
                   data["silver"], data["apples"], data["compasses"], tuple(data["debts"]),
                   data["winner"], data.get("drawn_card"),
                   tuple(data["prince_items"]) if shown else None)


class SupplyReading(NamedTuple):
    copper: int
    silver: int
    apples: int


class SeatReading(NamedTuple):
    """What ``seat`` may know (``seat`` None: the referee). The tile columns are indexed by
    cell id over all cells, as the state's blocks are (``cell(c)`` gathers one tile's); only
    the cells of ``tile_cells`` hold a tile."""

    seat: int | None
    num_players: int
    grid: int
    round: int
    turn: int | None              # the seat whose turn it is
    decision: DecisionReading | None  # None: the game is over
    tile_cells: tuple[int, ...]   # the cells that hold a tile (the forest)
    tile: tuple[int, ...]         # per cell: the tile id
    well: tuple[bool, ...]
    orientation: tuple[int, ...]  # quarter turns clockwise from printed (with the tile, it
                                  # gives the way a tile turns and its open octagons: ``cell``)
    blocked: tuple[int, ...]
    chip: tuple[int, ...]         # none / blue / yellow / red (components' chip ids)
    item: tuple[int, ...]         # the item lying there, -1 none
    character: tuple[int, ...]    # the character standing there, -1 none
    gaps: tuple[tuple[int, int], ...]   # (gap, item) of each blockade set
    fairy: tuple[tuple[int, ...], ...]  # [row][slot]: the item the fairy offers, -1 none
    bag_items: tuple[int, ...]    # the blue bag's items by kind
    drawn_item: int               # the item in the mover's hand, -1 none
    black_bag: tuple[int, ...]
    used_chips: tuple[int, ...]
    supply: SupplyReading
    pile_size: int
    laid_out: tuple[int, ...]     # the characters laid out
    players: tuple[PlayerReading, ...]

    # --- tiles, JSON ------------------------------------------------------------------------------
    def cell(self, c: int) -> CellReading:
        """The tile on cell ``c`` (a cell of ``tile_cells``): the way it turns and its open
        octagons are its printed tile's, turned (``components.open_sides``), as the rules
        write the state's ``cell_turn`` and ``cell_open``."""
        tile, o = self.tile[c], self.orientation[c]
        inner, outer = _open_sides(tile, o)
        return CellReading(tile, self.well[c], TILES[tile].turn, o, inner, outer, self.blocked[c],
                           self.chip[c], self.item[c], self.character[c])

    def cells(self) -> dict[int, CellReading]:
        """Every tile by cell id, in cell order."""
        return {c: self.cell(c) for c in self.tile_cells}

    def as_json(self) -> dict:
        """The record as plain JSON data (the tiles as a dict by cell id, the blockades by
        gap); ``view``'s."""
        return {
            "seat": self.seat, "num_players": self.num_players, "grid": self.grid,
            "round": self.round, "turn": self.turn,
            "decision": None if self.decision is None else self.decision.as_json(),
            "cells": {c: info.as_json() for c, info in self.cells().items()},
            "gaps": dict(self.gaps),
            "fairy": [list(row) for row in self.fairy],
            "bag_items": list(self.bag_items), "drawn_item": self.drawn_item,
            "black_bag": list(self.black_bag), "used_chips": list(self.used_chips),
            "supply": self.supply._asdict(), "pile_size": self.pile_size,
            "laid_out": list(self.laid_out),
            "players": [p.as_json() for p in self.players],
        }

    @classmethod
    def from_json(cls, data: dict) -> SeatReading:
        """The record of a view's JSON (``as_json``'s, or ``view``'s: its legal actions and
        standings are left out), as a replay page holds it (its keys may be strings)."""
        cells = {int(c): CellReading.from_json(info) for c, info in data["cells"].items()}
        players = tuple(PlayerReading.from_json(p) for p in data["players"])

        def column(entry: Callable[[CellReading], Any], empty) -> tuple:
            """One field of every cell's tile; a cell without one (a corner) gives ``empty``."""
            return tuple(entry(cells[c]) if c in cells else empty for c in range(NUM_CELLS))

        return cls(
            data["seat"], data["num_players"], data["grid"], data["round"], data["turn"],
            (None if data["decision"] is None
             else DecisionReading.from_json(data["decision"], Kind, DECISIONS)),
            tuple(sorted(cells)), column(lambda t: t.tile, -1), column(lambda t: t.well, False),
            column(lambda t: t.orientation, 0), column(lambda t: t.blocked, 0),
            column(lambda t: t.chip, 0), column(lambda t: t.item, -1),
            column(lambda t: t.character, -1),
            tuple(sorted((int(g), k) for g, k in data["gaps"].items())),
            tuple(map(tuple, data["fairy"])), tuple(data["bag_items"]), data["drawn_item"],
            tuple(data["black_bag"]), tuple(data["used_chips"]), SupplyReading(**data["supply"]),
            data["pile_size"], tuple(data["laid_out"]), players)


def view(state, seat: int | None) -> dict:
    """What ``seat`` may know as plain JSON data (``seat=None``: the referee's view of
    everything): ``reading``'s record, plus the legal actions for the seat to move (and the
    referee) and every seat's standing (``progress``: ``state.breakdown()``, a function of the
    public blocks)."""
    out = reading(state, seat).as_json()
    out["progress"] = state.breakdown()
    if not state.is_terminal and (seat is None or seat == state.current_player):
        out["legal_actions"] = state.legal_actions()
    return out


def reading(state, seat: int | None) -> SeatReading:
    """What ``seat`` may know, as the typed record (``seat=None``: the referee). A scripted
    agent takes a record at every decision, and in this game its decision is cheap, so the
    record is too: one ``tolist`` per block, the seats' secrets only where the reader may see
    them."""
    game = state.game
    n = state.num_players
    check_observer(seat, n)   # (a spectator, SPECTATOR, is no seat: it sees no seat's secrets)
    pos, corner = state.pos, game.corner
    backpack, copper, silver = state.backpack.tolist(), state.copper.tolist(), state.silver.tolist()
    apples, compasses = state.apples.tolist(), state.compasses.tolist()
    debts, winner = state.debts.tolist(), state.winner.tolist()
    players = []
    for p in range(n):
        shown = seat is None or seat == p
        drawn = _drawn(state.drawn_card[p].tolist()) if shown else None
        prince = tuple(state.prince_items[p].tolist()) if shown else None
        players.append(PlayerReading(
            pos[p], pos[p] == corner[p], tuple(backpack[p]), copper[p], silver[p], apples[p],
            compasses[p], tuple([c for c, owed in enumerate(debts[p]) if owed]), bool(winner[p]),
            drawn, prince))
    supply = state.supply.tolist()
    return SeatReading(
        seat, n, game.grid, int(state.round_no[0]), state.turn_player, pending_reading(state, Kind),
        game.tile_cells, tuple(state.cell_tile.tolist()), tuple(map(bool, state.cell_well.tolist())),
        tuple(state.cell_orient.tolist()), tuple(state.cell_blocked.tolist()), tuple(state.chips()),
        tuple(state.cell_item.tolist()), tuple(state.cell_char.tolist()),
        tuple([(g, k) for g, k in enumerate(state.gap_item.tolist()) if k >= 0]),
        tuple(map(tuple, state.fairy.tolist())), tuple(state.bag_items.tolist()),
        int(state.drawn_item[0]), tuple(state.black_bag.tolist()), tuple(state.used_chips.tolist()),
        SupplyReading(supply[COPPER], supply[SILVER], supply[APPLES]), int(state.pile_size[0]),
        tuple([c for c, shown in enumerate(state.laid_out.tolist()) if shown]), tuple(players))


def _drawn(card: list[int]) -> int | None:
    """The character card of a seat's one-hot ``drawn_card`` row, None: none drawn."""
    return card.index(1) if 1 in card else None


@functools.cache
def _open_sides(tile: int, orientation: int) -> tuple[tuple[bool, ...], tuple[bool, ...]]:
    return open_sides(tile, orientation)
