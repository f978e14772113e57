"""What a Sherwood Forest state is made of, and what follows from it without changing it.

``SherwoodFacts`` declares the state's attributes with their types: the blocks of the state
buffer (``observation.build_layout`` adds them, in this order; each a numpy view) and the
plain-data ``FIELDS``. Its methods only read them: the holders of the two starting player
tokens, the seats in clockwise order, the coach's route, an ambush's participants, the alliance
tokens free, the comrades each seat may still take of a loot, what another seat reads of an
action, the scores and ranks, and the conservation totals. The Python state (``state.py``)
inherits it, and so can a compiled state that supplies the same attributes.

Shapes below: n seats, S places of laid-out travellers (6), A ambushes (12), F card features
(16), W weapon kinds (3), E equipment kinds (6).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ...core.layout import BlockView
from ...core.results import competition_ranks
from .. import actions as A
from ..components import ALLIANCE_LETTERS, CARDS, ROUNDS, ROUTES
from . import checks
from .records import CloakQuestions, Coach, Fight, Loot, Offer, ProvisionsQuestions

if TYPE_CHECKING:
    from ...core.game import Game
    from ...core.state_checks import LoadedState
    from .game import SherwoodGame


class SherwoodFacts:
    """The state's declared attributes and the facts derived from them (reads only)."""

    __slots__ = ()
    # What a state dict must hold (rules/checks.py), checked by every engine's from_dict.
    @staticmethod
    def check_fields(game: Game, loaded: LoadedState) -> None:
        checks.check_fields(game, loaded)

    def check_consistent(self) -> None:
        checks.check_consistent(self)

    # What the facts read of the engine (``GameState`` has it; any state that combines the
    # facts with an engine does), declared here for a type checker only: the facts'
    # annotations at run time are exactly the state's blocks and fields. ``game`` is this
    # game's class, where ``GameState`` has the base ``Game``: a class that combines the two
    # declares it again (``phase_base.PhaseBase``).
    if TYPE_CHECKING:
        game: SherwoodGame
        num_players: int

    # --- the blocks of the state buffer, public: the table ----------------------------------
    players_onehot: BlockView    # [4]: 3..6 players
    additions: BlockView         # [1]: played with the additions
    round_no: BlockView          # [1]: the round, from 1
    attack_phase: BlockView      # [1]: 1 in the attack phase, 0 in the preparation
    pit: BlockView               # [1]: bags of gold in the money pit
    pile_left: BlockView         # [1]: travellers still to lay out
    equip_left: BlockView        # [1]: equipment cards in the deck
    equip_discard: BlockView     # [E]: discarded equipment cards by kind
    slot_present: BlockView      # [S]: a traveller lies in the place
    slot_face_up: BlockView      # [S]
    slot_card: BlockView         # [S, F]: the face-up travellers' features
    slot_told: BlockView         # [S, 4]: loot told in an offer: flag, fame, gold, comrades
    coach_card: BlockView        # [F]: the traveller on the road
    coach_at: BlockView          # [A]: one-hot ambush it is passing
    coach_step: BlockView        # [1]: ambushes of its route passed
    offer_ambush: BlockView      # [A]: one-hot ambush of the offer under negotiation
    offer_own: BlockView         # [1]: the performer's own outlaws in it
    offers_made: BlockView       # [1]: failed offers the performer made this turn
    # --- public, by seat ----------------------------------------------------------------------
    figure: BlockView            # [n]: one-hot holder of the starting player figure
    card_holder: BlockView       # [n]: one-hot holder of the starting player card (or none)
    emptied: BlockView           # [n]: 1st, 2nd, ... to empty the camp this round
    camp: BlockView              # [n]: outlaws in camp
    places: BlockView            # [n, 4]: outlaws at the church, inn, merchant, market
    oak: BlockView               # [n]: figures under the oak
    gold: BlockView              # [n]: bags of gold in camp
    fame: BlockView              # [n]
    hand_count: BlockView        # [n]: equipment cards in hand
    round_gold: BlockView        # [n]: gold gained in round 6 (fame at the end)
    round_comrades: BlockView    # [n]: comrades gained in round 6
    ambush_outlaws: BlockView    # [A, n]
    ambush_leader: BlockView     # [A, n]: one-hot leader of each ambush
    promised: BlockView          # [A, n, W]: cards promised to each ambush (basic rules)
    slot_marked: BlockView       # [S, n]: inn markers
    leads_left: BlockView        # [n]: travellers each seat still leads this round
    offer_ask: BlockView         # [n, 2]: outlaws and cards asked of each seat
    offer_answer: BlockView      # [n]: 1 accepted
    played: BlockView            # [n, W]: cards played at the ambush fighting now
    shares: BlockView            # [n, 2]: this robbery's loot shares given, of which comrades
    # --- public, the additions ----------------------------------------------------------------
    provisioned: BlockView       # [A, n]: outlaws kept in an ambush by provisions
    messenger_used: BlockView    # [1]: this traveller's destination was changed
    fork_bonus: BlockView        # [n]: took the last round's fork bonus outlaw
    ambush_target: BlockView     # [A, S + 1]: place of an agreement's target (S: on the road)
    advance: BlockView           # [A, n]: promised bags laid out for each ally
    advance_comrades: BlockView  # [A, n]: promised comrades laid out for each ally
    informant: BlockView         # [A, n]: one-hot informant of each agreement
    offer_target: BlockView      # [S + 1]: the offer's target (S: none)
    offer_terms: BlockView       # [n, 3]: promised bags, gold paid now, promised comrades
    offer_informant: BlockView   # [n]: the informant named in the offer
    pledged: BlockView           # [A, n]: equipment cards promised (a number)
    # --- seen by their owner only -------------------------------------------------------------
    hand: BlockView              # [n, E]: equipment cards by kind
    peek: BlockView              # [n, S, F]: travellers looked at in the inn
    # --- the plain-data fields (FIELDS) -------------------------------------------------------
    pile: list[int]              # traveller ids still to lay out (A cards first)
    box: list[int]               # traveller ids never used, sorted
    removed: list[int]           # traveller ids that left the game
    slots: list[int]             # the laid-out card id of each place (-1: none)
    equip_deck: list[int]        # equipment kinds face down (top last)
    leads: list[int]             # the seats still to lead a traveller this round, in order
    coach: Coach | None          # the traveller on the road
    fight: Fight | None          # the ambush being resolved
    loot: Loot | None            # the loot being shared
    offer: Offer | None          # the joint ambush under negotiation
    tokens: dict[tuple[int, int], int]  # (ambush, seat) -> alliance letter in use (seat -1:
                                        # an agreement's target)
    round_index: int             # the round (1-6)
    crush: CloakQuestions | None  # the forest-cloak questions of a crushed ambush
    provisioning: ProvisionsQuestions | None  # the provisions questions after a robbery
    window: list[int]            # the seats still to be asked about the messenger's clothes
    targets: dict[int, int]      # (additions) ambush -> the card id of its agreement's target

    # --- seats (rulebook, "Setup" and "Object of the Game and Sequence of Actions") -----------
    @property
    def figure_seat(self) -> int:
        """The holder of the starting player figure: he opens the preparation phase."""
        row = self.figure.tolist()        # a list's first maximum is argmax, without numpy's call
        return row.index(max(row))

    def card_holder_seat(self) -> int:
        """The holder of the starting player card (-1: nobody yet this round): he leads the
        first traveller (rulebook, "End of Preparation")."""
        row = self.card_holder.tolist()
        return row.index(max(row)) if any(row) else -1

    def _seats_from(self, first: int) -> tuple[int, ...]:
        """Every seat clockwise from ``first`` (any int: taken modulo the player count)."""
        return self.game.seat_orders[first % self.num_players]

    @property
    def sixth_round(self) -> bool:
        """Gold and comrades gained now turn into fame at the end of the game."""
        return self.round_index >= ROUNDS

    # --- the coach and the ambushes -------------------------------------------------------------
    def _route(self) -> tuple[int, ...]:
        """The ambushes the coach passes, in order (a messenger's clothes may have changed its
        destination)."""
        assert self.coach is not None
        coach = self.coach
        return ROUTES[(CARDS[coach.card].origin, coach.destination)]

    def _participants(self, amb: int) -> list[int]:
        """The leader, then the allies clockwise from him."""
        leader = int(self.ambush_leader[amb].argmax())
        outs = self.ambush_outlaws[amb].tolist()
        return [q for q in self._seats_from(leader) if outs[q] > 0]

    def _tokens_free(self) -> int:
        """Pairs of alliance tokens not in use (rulebook, "b) Alliance agreement": promised
        cards and, with the additions, a target are marked with a lettered pair)."""
        return len(ALLIANCE_LETTERS) - len(self.tokens)

    def _comrade_room(self) -> list[int]:
        """How many more comrades each seat can take: shares not yet comrades, at most his
        figures under the oak (the leader's without those he took as bags)."""
        assert self.loot is not None
        L = self.loot
        room = [min(s, o) - g for s, o, g in zip(L.shares, L.oak, L.comrades_got)]
        q = L.leader
        room[q] = min(L.shares[q] - L.own_bags, L.oak[q]) - L.comrades_got[q]
        return room

    def _describe_for_others(self, action: int) -> str:
        """Which cards an accepting ally promises is shown only once the alliance forms
        (an offer another ally declines shows none): to others an acceptance is "accept"."""
        if action in A.ACCEPT:
            return "accept"
        return self.game.action_to_string(action)

    # --- the result (rulebook, "END OF THE GAME") ---------------------------------------------
    def scores(self) -> list[dict]:
        """Fame per seat with the tie-break numbers (final once the game is over)."""
        return [{"fame": int(self.fame[p]), "oak": int(self.oak[p]), "gold": int(self.gold[p]),
                 "total": int(self.fame[p])} for p in range(self.num_players)]

    def ranks(self) -> list[int]:
        """Most fame; ties: fewer outlaws under the oak, then more gold in camp."""
        return competition_ranks([(int(self.fame[p]), -int(self.oak[p]), int(self.gold[p]))
                                  for p in range(self.num_players)])

    # --- bookkeeping (the tests' conservation checks) -----------------------------------------
    def outlaw_totals(self) -> np.ndarray:
        """Figures of each colour in every place they can be; always 8 each."""
        return (self.camp + self.places.sum(axis=1) + self.ambush_outlaws.sum(axis=0)
                + self.oak + self.advance_comrades.sum(axis=0)).astype(np.int64)

    def gold_total(self) -> int:
        return int(self.gold.sum() + self.pit[0] + self.advance.sum())

    def equipment_total(self) -> int:
        return int(len(self.equip_deck) + self.equip_discard.sum() + self.hand.sum()
                   + self.promised.sum() + self.played.sum())

    def traveller_total(self) -> int:
        coach = 1 if self.coach is not None else 0
        return (len(self.pile) + len(self.box) + len(self.removed) + coach
                + sum(1 for c in self.slots if c >= 0))
