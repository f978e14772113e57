"""The observer of a forest game's OpenSpiel states (``make_py_observer``): a seat's
observation tensor and text view, with perfect recall of the actions as the seat read them,
or the referee's."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import pyspiel

from .parameters import short_name

if TYPE_CHECKING:
    from .configuration import _Setup


class ForestObserver:
    """Observer, conforming to the PyObserver interface (see observation.py).

    A seat's observation (``private_info=SINGLE_PLAYER``): the tensor is the layout's
    observation of the seat (``tensor`` with one named piece per observed layout block in
    ``dict``), the string its text view; with ``perfect_recall`` the string starts with every
    action so far as the seat read it, and there is no tensor. ``ALL_PLAYERS``: the referee's
    (``global_state`` and the full view). Public-only observations are not offered: the
    contract has no public text view.
    """

    def __init__(self, setup: _Setup, iig_obs_type, params):
        """Initializes an empty observation tensor."""
        if params:
            raise ValueError(f"Observation parameters not supported; passed {params}")
        private = iig_obs_type.private_info
        if not iig_obs_type.public_info or private == pyspiel.PrivateInfoType.NONE:
            raise ValueError(f"{short_name(setup.env_id)} offers a seat's observation (private_info="
                             "SINGLE_PLAYER) and the referee's (ALL_PLAYERS), both with public_info; "
                             f"got {iig_obs_type}")
        self._referee = private == pyspiel.PrivateInfoType.ALL_PLAYERS
        self._recall = iig_obs_type.perfect_recall
        layout = setup.engine.layout
        if self._recall:
            pieces = []
        elif self._referee:
            pieces = [(b.name, b.offset, b.offset + b.size, b.shape) for b in layout.blocks.values()]
        else:
            pieces = [(name, start, stop, shape)
                      for name, (start, stop, shape) in layout.observation_slices().items()]
        # Build the single flat tensor and the named, reshaped views of its pieces.
        self.tensor = None if self._recall else np.zeros(
            layout.size if self._referee else layout.observation_size, np.float32)
        self.dict = {}
        for name, start, stop, shape in pieces:
            if stop > start:  # an empty block adds nothing (and OpenSpiel wants no empty piece)
                assert self.tensor is not None  # (no pieces without a tensor)
                self.dict[name] = self.tensor[start:stop].reshape(shape or (1,))

    def set_from(self, state, player):
        """Updates `tensor` and `dict` to reflect `state` from PoV of `player`."""
        if self.tensor is None:
            raise ValueError("a perfect-recall observation has no tensor")
        engine = state._play.observed_engine()
        self.tensor[:] = engine.global_state() if self._referee else engine.observation(player)

    def string_from(self, state, player):
        """Observation of `state` from the PoV of `player`, as a string."""
        play = state._play
        seat = None if self._referee else player
        view = play.view(seat)
        if not self._recall:
            return view
        who = "referee" if seat is None else f"player {seat}"
        return f"{who} after {len(play.log)} action(s)\n{play.recalled(seat)}{view}"
