"""The Sherwood Forest state: one mixin class per phase module of the rules (``rounds``,
``prepare``, ``negotiate``, ``agreements``, ``attacks``, ``planned_attack``, ``loot``,
``sheriff``, ``messenger``, ``scoring``), what every phase does at the table
(``seats_and_travellers``) and hidden information (``hidden``), over the declared attributes
and derived facts of ``facts.SherwoodFacts`` and the core's ``BufferState``.
"""

from __future__ import annotations

from typing import ClassVar

from ...core.presentation import Presentation
from ...core.state import BufferState
from .. import text
from ..observation import DECISIONS, block_names
from .agreements import Agreements
from .attacks import Attacks
from .facts import SherwoodFacts
from .game import SherwoodGame
from .handlers import HANDLERS
from .hidden import HiddenInformation
from .loot import LootSharing
from .messenger import Messenger
from .negotiate import Negotiation
from .planned_attack import PlannedAttack
from .prepare import Preparation
from .rounds import Rounds
from .scoring import Scoring
from .seats_and_travellers import SeatsAndTravellers
from .sheriff import Sheriff


class SherwoodState(Rounds, Preparation, Negotiation, Agreements, Attacks, PlannedAttack,
                    LootSharing, Sheriff, Messenger, Scoring, SeatsAndTravellers,
                    HiddenInformation, SherwoodFacts, BufferState):
    """One play of Sherwood Forest. Numbers live in the layout blocks (observation.py), the
    rest in ``FIELDS`` (both declared with their types, and what each field holds, in
    ``SherwoodFacts``); the decision stack says who decides what, and ``HANDLERS`` which
    phase handles each kind."""

    DECISIONS = DECISIONS
    HANDLERS = HANDLERS  # handlers.py: each decision kind's mask, apply and why
    RENDER: ClassVar[Presentation] = text
    FIELDS = ("pile", "box", "removed", "slots", "equip_deck", "leads", "coach", "fight",
              "loot", "offer", "tokens", "round_index", "crush", "provisioning", "window",
              "targets")
    __slots__ = FIELDS + block_names()


SherwoodGame.state_class = SherwoodState
