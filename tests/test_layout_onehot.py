"""core.layout's one-hot blocks: ids stored as one int each, observed one-hot over their
classes (all zeros for "none"), after the blocks of numbers; and a policy trained on an
older (scaled-id) Roundforest layout is refused by name and size."""

from __future__ import annotations

import numpy as np
import pytest

from forest_envs.agents.policy import PolicyAgent
from forest_envs.core.errors import ConfigError
from forest_envs.core.layout import Layout


def id_layout(n: int = 3, numbers: bool = True) -> Layout:
    L = Layout(n)
    if numbers:
        L.add("count", 2, high=9, scale=0.5)
    L.add("thing", 3, low=-1, high=3, onehot=True)                     # 4 classes
    L.add("kind", 2, low=-1, high=4, onehot=(0, 0, 1, 1, 2))            # 5 ids, 3 classes
    if numbers:
        L.add("per_seat", n, high=7, seats=0)
    L.add("held", (n, 2), low=-1, high=2, onehot=True, see="owner")      # 3 classes
    L.add("hidden", 2, low=-1, high=2, onehot=True, see="nobody")
    return L.freeze()


def test_one_hot_blocks_come_after_the_numbers_with_one_row_per_id():
    L = id_layout()
    s = L.observation_slices()
    assert list(s) == ["count", "per_seat", "thing", "kind", "held"]
    assert s["count"] == (0, 2, (2,)) and s["per_seat"] == (2, 5, (3,))
    assert s["thing"] == (5, 17, (3, 4)) and s["kind"] == (17, 23, (2, 3))
    assert s["held"] == (23, 29, (2, 3))
    assert L.observation_size == 29
    lo, hi, _ = s["thing"]
    assert L.obs_low[lo:].tolist() == [0.0] * (29 - lo) and L.obs_high[lo:].tolist() == [1.0] * (29 - lo)
    assert L.state_low[L.blocks["thing"].offset] == -1 and L.state_high[L.blocks["kind"].offset] == 4


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_each_id_is_one_row_of_its_class_and_none_is_all_zeros(seat):
    L = id_layout()
    buf = L.new_buffer()
    v = L.views(buf)
    v["count"][:] = (3, 9)
    v["thing"][:] = (2, -1, 0)
    v["kind"][:] = (3, -1)
    v["per_seat"][:] = (5, 6, 7)
    v["held"][:] = ((0, -1), (2, 1), (1, 1))
    v["hidden"][:] = (2, 2)
    obs = L.observe(buf, seat)
    assert obs.dtype == np.float32 and obs.shape == (29,)
    s = L.observation_slices()

    def part(name):
        lo, hi, shape = s[name]
        return obs[lo:hi].reshape(shape).tolist()

    assert part("count") == [1.5, 4.5]                              # scaled as before
    assert part("per_seat") == [(5, 6, 7)[(seat + i) % 3] for i in range(3)]
    assert part("thing") == [[0, 0, 1, 0], [0, 0, 0, 0], [1, 0, 0, 0]]
    assert part("kind") == [[0, 1, 0], [0, 0, 0]]                    # id 3 is class 1
    own = ([[1, 0, 0], [0, 0, 0]], [[0, 0, 1], [0, 1, 0]], [[0, 1, 0], [0, 1, 0]])[seat]
    assert part("held") == own                                       # an owner's own row only
    assert ((obs >= L.obs_low) & (obs <= L.obs_high)).all()


def test_a_layout_of_ids_only_observes_them_too():
    L = id_layout(2, numbers=False)
    buf = L.new_buffer()
    buf[:] = -1
    assert not L.observe(buf, 0).any() and L.observe(buf, 0).shape == (L.observation_size,)
    L.views(buf)["thing"][2] = 3
    obs = L.observe(buf, 1)
    assert obs.tolist() == [0] * 11 + [1] + [0] * (L.observation_size - 12)


@pytest.mark.parametrize("kwargs, words", [
    ({"low": -2, "high": 3, "onehot": True}, "ids 0..high or -1"),
    ({"low": -1, "high": 3, "onehot": True, "scale": 0.5}, "unscaled"),
    ({"low": -1, "high": 2, "onehot": (0, 1)}, "a class 0..K-1 to each id 0..2"),
    ({"low": -1, "high": 2, "onehot": (0, 2, 2)}, "every class used"),
])
def test_a_bad_one_hot_declaration_says_what_is_wrong(kwargs, words):
    with pytest.raises(ValueError, match=words):
        Layout(2).add("ids", 4, **kwargs)


def test_roundforest_observes_tiles_by_design_and_items_one_hot():
    from forest_envs.roundforest.components import TILES
    from forest_envs.roundforest.rules.game import RoundforestGame

    game = RoundforestGame(num_players=3)
    state = game.new_initial_state(seed=3)
    s = game.layout.observation_slices()
    assert s["cell_tile"][2] == (36, 8) and s["cell_item"][2] == (36, 22)
    assert s["cell_char"][2] == (36, 12) and s["gap_item"][2] == (25, 5)
    assert s["fairy"][2] == (3, 3, 22) and s["drawn_item"][2] == (1, 22)
    assert game.observation_size == 3062
    obs = state.observation(0)
    lo, hi, shape = s["cell_tile"]
    tiles = obs[lo:hi].reshape(shape)
    for cell, tile in enumerate(state.cell_tile.tolist()):
        if tile < 0:
            assert not tiles[cell].any()
        else:   # one row per design: the four tiles named "<design>-1..4" share it
            design = [t.name.rsplit("-", 1)[0] for t in TILES]
            assert tiles[cell].tolist().index(1) == list(dict.fromkeys(design)).index(design[tile])
    lo, hi, shape = s["fairy"]
    assert obs[lo:hi].reshape(shape).argmax(axis=2).tolist() == state.fairy.tolist()


def test_a_policy_of_the_old_scaled_id_layout_is_refused(tmp_path):
    """The clear error policies of another layout get: 1,060 floats (the scaled-id layout of
    3 players) against the 3,062 the game now gives."""
    import forest_envs

    rng = np.random.default_rng(0)
    path = tmp_path / "old.npz"
    np.savez(path, w0=rng.normal(size=(1060, 8)).astype(np.float32), b0=np.zeros(8, np.float32),
             w_out=rng.normal(size=(8, 240)).astype(np.float32), b_out=np.zeros(240, np.float32),
             activation=np.array("Tanh"))
    env = forest_envs.make("roundforest_v0", num_players=3)
    with pytest.raises(ConfigError, match=r"expects observations of 1060 floats and 240 actions; "
                                          r"roundforest_v0 with .* gives 3062 and 240"):
        PolicyAgent(path, env=env)
