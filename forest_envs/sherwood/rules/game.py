"""Sherwood Forest's configuration: options, traits and the tables every state of one
configuration shares (Sherwood Forest rulebook, "Setup"), and ``new_game``."""

from __future__ import annotations

from typing import ClassVar

from ...core.config import Option
from ...core.game import Game, GameTraits
from .. import actions as A
from ..components import DECK_CARDS, LAID_OUT, PLAYER_COUNTS
from ..observation import build_layout


class SherwoodGame(Game):
    env_id = "sherwood_v0"
    traits = GameTraits(
        name="Sherwood Forest", min_players=min(PLAYER_COUNTS), max_players=max(PLAYER_COUNTS),
        chance=True, hidden_information=True, has_scores=True, score_scale=10.0,
        tie_break="most fame; then fewer outlaws under the oak; then more gold in camp")
    state_class: ClassVar[type]
    options = {
        "num_players": Option(4, choices=PLAYER_COUNTS),
        # The additions: the Sheriff, the special items, binding agreements and gold in
        # offers, the fork bonus (docs/sherwood.md).
        "additions": Option(False, choices=(False, True), doc="play with the additions"),
    }
    build_layout = build_layout
    action_space = A.SPACE

    def __init__(self, **config):
        super().__init__(**config)
        n = self.num_players
        self.additions = self.config["additions"]
        self.deck_cards = DECK_CARDS[n]
        self.laid_out = LAID_OUT[n]
        # Seats clockwise from each seat, built once (rules ask for them at every turn).
        self.seat_orders = tuple(tuple((first + i) % n for i in range(n)) for first in range(n))


def new_game(config: dict | None = None, seed: int | None = None):
    """A new game (a ``SherwoodState``); Game objects are shared between games of one
    configuration."""
    return SherwoodGame.shared(config).new_initial_state(seed)
