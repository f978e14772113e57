"""``core/cells.py``: a game's cells as a policy reads them, checked on a layout built here
(the core names no game) and on every game that declares cells."""

from __future__ import annotations

import pytest

from forest_envs.core.actions import ActionSpace
from forest_envs.core.cells import CellSpec, cell_structure
from forest_envs.core.layout import Layout
from forest_envs.envs.registration import make_raw

CELLS = 4
SPACE = ActionSpace()
GO = SPACE.add("go", CELLS, lambda c: f"go to {c}")
WAIT = SPACE.add("wait", (), lambda: "wait")
MARK = SPACE.add("mark", CELLS, lambda c: f"mark {c}")
SPACE.freeze()


def _layout() -> Layout:
    L = Layout(2)
    L.add("score", 2, high=9, seats=0)                       # no cell axis
    L.add("height", CELLS, high=9)
    L.add("token", (2, CELLS), high=9, seats=0)               # a seat axis before the cells
    L.add("colour", CELLS, low=-1, high=2, onehot=True)       # one-hot: 3 entries per cell
    return L.freeze()


SPEC = CellSpec(CELLS, blocks=(("height", 0), ("token", 1), ("colour", 0)), actions=(GO, MARK))


def test_each_cell_reads_its_own_entries_of_every_block_in_order():
    L = _layout()
    buf = L.new_buffer()
    v = L.views(buf)
    v["height"][:] = [1, 2, 3, 4]
    v["token"][0] = [5, 6, 7, 8]
    v["token"][1] = [0, 9, 0, 9]
    v["colour"][:] = [-1, 0, 1, 2]
    cells = cell_structure(L, SPEC)
    assert cells.features.shape == (CELLS, 1 + 2 + 3) and cells.num_cells == CELLS
    for seat, other in ((0, 1), (1, 0)):
        obs = L.observe(buf, seat)
        for c in range(CELLS):
            colour = [0.0, 0.0, 0.0]
            if v["colour"][c] >= 0:
                colour[v["colour"][c]] = 1.0
            # the observer's token first (seat axes rotate), then the other seat's
            expected = [v["height"][c], v["token"][seat][c], v["token"][other][c], *colour]
            assert obs[cells.features[c]].tolist() == expected
    assert cells.actions.tolist() == [[GO.id(c), MARK.id(c)] for c in range(CELLS)]


@pytest.mark.parametrize("spec, words", [
    (CellSpec(CELLS, (("nowhere", 0),), (GO,)), "'nowhere' is not an observed block"),
    (CellSpec(CELLS, (("token", 0),), (GO,)), "axis 0 of its observed shape (2, 4)"),
    (CellSpec(CELLS, (("height", 1),), (GO,)), "axis 1"),
    (CellSpec(CELLS, (("height", 0),), (WAIT,)), "cell action block 'wait' has 1 ids"),
])
def test_a_wrong_declaration_names_the_block_and_the_problem(spec, words):
    with pytest.raises(ValueError, match=None) as err:
        cell_structure(_layout(), spec)
    assert words in str(err.value)


def test_a_game_that_declares_no_cells_says_so():
    assert make_raw("chickwood_v0").game.cells() is None
    assert make_raw("sherwood_v0").game.cells() is None
