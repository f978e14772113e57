"""Sherwood Forest rules (basic game and additions): the configuration, the state and its
transitions.

A round (rulebook "Object of the Game"): the preparation phase, in turn order from the
holder of the starting player *figure*, one action per turn until every camp is empty
(church, inn, merchant, market, a simple ambush or a joint ambush negotiated with allies);
then the attack phase, in turn order from the holder of the starting player *card*, each
player leads one laid-out traveller along its route past the ambushes, until the laid-out
cards run out. Six rounds, then sixth-round loot turns into fame. The additions bring the
Sheriff, the special items (the forest cloak and provisions as questions to every
participant, the messenger's clothes as an interrupt window), binding agreements with gold
in offers, and the fork bonus outlaw.

Play runs on the core's stack of pending decisions (observation.DECISIONS). The turn
player's decision is the bottom of the stack; negotiation answers are decisions of the
asked allies pushed above the performer's, and an ambush's equipment choices are decisions
of its participants. Every draw comes from the state's own generator, so the state is fully
determined by its seed and the actions. docs/sherwood.md explains every reading.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import ClassVar

import numpy as np

from ..core.config import Option
from ..core.engine import BufferState, Game, GameTraits, competition_ranks
from . import actions as A
from . import render
from .components import (
    ALLIANCE_LETTERS,
    BAND_START,
    CARDS,
    CHURCH,
    CHURCH_FORCED_ABOVE,
    DECK_CARDS,
    EQUIPMENT_COUNTS,
    FINAL_COMRADE_FAME,
    FINAL_GOLD_FAME,
    FIRST_EMPTY_FAME,
    FOREST_CLOAK,
    GOLD_BAGS,
    GOLD_START,
    HAND_LIMIT,
    INN,
    LAID_OUT,
    MARKET,
    MARKET_COST,
    MERCHANT,
    MERCHANT_COST,
    MESSENGER,
    MIN_BAND,
    NUM_AMBUSHES,
    NUM_WEAPON_KINDS,
    OAK_START,
    PROVISIONS,
    RED_FORKS,
    REROUTE,
    ROUNDS,
    ROUTES,
    TOWNS,
    WEAPON_STRENGTH,
    deck_ids,
    equipment_deck,
)
from .observation import (
    ANSWER,
    ASK,
    COMRADE,
    DECISIONS,
    EQUIP,
    F_COMRADES,
    F_DECK_B,
    F_DEST,
    F_FAME,
    F_FAME_LOSS,
    F_GOLD,
    F_ORIGIN,
    F_OUTLAW_LOSS,
    F_SHERIFF,
    F_STRENGTH,
    FEATURES,
    LEAD,
    MAX_OFFERS,
    PREP,
    REVEAL,
    SHARE,
    block_names,
    build_layout,
)
from .observation import CALL as CALL_DECISION
from .observation import CLOAK as CLOAK_DECISION
from .observation import CONFIRM as CONFIRM_DECISION
from .observation import INFORMANT as INFORMANT_DECISION
from .observation import MESSENGER as MESSENGER_DECISION
from .observation import PLEDGE as PLEDGE_DECISION
from .observation import PROVISIONS as PROVISIONS_DECISION
from .observation import SHORTFALL as SHORTFALL_DECISION
from .observation import TARGET as TARGET_DECISION
from .observation import TERMS as TERMS_DECISION

MESSENGER_CLOTHES = MESSENGER
_UP_TO = np.tri(9, 8, -1, dtype=bool)  # row c: the first c entries (1..c outlaws)
# Action ranges read at every preparation turn, looked up once.
_CHURCH_START, _MERCHANT, _MARKET = A.CHURCH.start, A.MERCHANT.start, A.MARKET.start
_INN, _AMBUSH, _JOINT = (slice(b.start, b.stop) for b in (A.INN, A.AMBUSH, A.JOINT))


def _ask_patterns() -> np.ndarray:
    """The ask block's mask for every (must ask, outlaws in the ally's camp, cards he may
    be asked for): c outlaws (at least one when someone must be asked) with at most one card
    per outlaw; built once so a mask is one copy."""
    rows, cols = A.ASK.shape
    out = np.zeros((2, rows, cols, rows * cols), np.int8)
    for must in (0, 1):
        for top_c in range(rows):
            for top_e in range(cols):
                ask = out[must, top_c, top_e].reshape(rows, cols)
                for c in range(must, top_c + 1):
                    ask[c, :min(c, top_e) + 1] = 1
    return out


@functools.lru_cache(maxsize=4096)
def _ambush_pattern(occupied: tuple[bool, ...], camp: int) -> np.ndarray:
    """The ambush block's mask (flat, read-only): ambush a with k+1 outlaws when a is
    free and k < camp. Cached because copying it costs a tenth of building it with numpy
    on arrays this small, and the same occupancy recurs over the turns of a round."""
    block = np.zeros(A.AMBUSH.shape, np.int8)
    for a, taken in enumerate(occupied):
        if not taken:
            block[a] = _UP_TO[camp]
    block = block.ravel()
    block.flags.writeable = False
    return block


_ASK_PATTERNS = _ask_patterns()
_ASK_PATTERNS.flags.writeable = False
_ASK = slice(A.ASK.start, A.ASK.stop)
_WEAPON_STRENGTH = np.array(WEAPON_STRENGTH, np.int64)
# Built once: a game's setup shuffles these (the same draws as shuffling the lists).
_DECK_IDS = {(deck, sheriffs): np.array(deck_ids(deck, sheriffs), np.int64)
             for deck in ("A", "B") for sheriffs in (False, True)}
_SHERIFF_IDS = [i for i, c in enumerate(CARDS) if c.sheriff]
_EQUIPMENT_DECK = {additions: np.array(equipment_deck(additions), np.int64)
                   for additions in (False, True)}


def card_features(card_id: int) -> np.ndarray:
    """A traveller card as the FEATURES numbers of the observation."""
    c = CARDS[card_id]
    f = np.zeros(FEATURES, np.int16)
    f[F_STRENGTH], f[F_FAME], f[F_GOLD], f[F_COMRADES] = c.strength, c.fame, c.gold, c.comrades
    f[F_ORIGIN + c.origin] = 1
    f[F_DEST + c.destination] = 1
    f[F_SHERIFF], f[F_FAME_LOSS], f[F_OUTLAW_LOSS] = int(c.sheriff), c.fame_loss, c.outlaw_loss
    f[F_DECK_B] = int(c.deck == "B")
    return f


_FEATURES = np.stack([card_features(i) for i in range(len(CARDS))])


class SherwoodGame(Game):
    env_id = "sherwood_v0"
    traits = GameTraits(
        name="Sherwood Forest", min_players=3, max_players=6, chance=True,
        hidden_information=True, has_scores=True, score_scale=10.0,
        tie_break="most fame; then fewer outlaws under the oak; then more gold in camp")
    state_class: ClassVar[type]
    options = {
        "num_players": Option(4, choices=(3, 4, 5, 6)),
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


def new_game(config: dict | None = None, seed: int | None = None) -> SherwoodState:
    """A new game; Game objects are shared between games of one configuration."""
    return SherwoodGame.shared(config).new_initial_state(seed)


class SherwoodState(BufferState):
    """One play of Sherwood Forest. Numbers live in the layout blocks (observation.py), the
    rest in ``FIELDS``:

    ``pile`` traveller ids still to lay out (A cards first), ``box`` ids never used,
    ``removed`` ids that left the game, ``slots`` the laid-out card id of each place (-1
    none), ``equip_deck`` equipment kinds face down (top last), ``leads`` the seats still
    to lead a traveller this round, in order, ``coach`` the traveller on the road (card id,
    step) or None, ``fight`` the ambush being resolved, ``loot`` the loot being shared,
    ``offer`` the joint ambush under negotiation, ``tokens`` alliance letters in use
    (ambush, seat) -> letter index, ``crush`` the forest-cloak or provisions questions in
    progress, ``window`` the seats still to be asked about the messenger's clothes.
    """

    DECISIONS = DECISIONS
    RENDER = render
    FIELDS = ("pile", "box", "removed", "slots", "equip_deck", "leads", "coach", "fight",
              "loot", "offer", "tokens", "round_index", "crush", "window", "targets")
    __slots__ = FIELDS + block_names()

    # --- setup ----------------------------------------------------------------------------
    @classmethod
    def new(cls, game: SherwoodGame, rng: np.random.Generator) -> SherwoodState:
        self = cls._blank(game)
        self.rng = rng
        n = game.num_players
        sheriffs = game.additions
        pile, box = [], []
        for deck in ("A", "B"):
            ids = rng.permutation(_DECK_IDS[deck, sheriffs]).tolist()
            pile += ids[:game.deck_cards]
            box += ids[game.deck_cards:]
        if not sheriffs:
            box += _SHERIFF_IDS
        self.pile, self.box, self.removed = pile, sorted(box), []
        self.equip_deck = rng.permutation(_EQUIPMENT_DECK[game.additions]).tolist()
        self.slots = [-1] * A.MAX_SLOTS
        self.leads, self.coach, self.fight, self.loot, self.offer = [], None, None, None, None
        self.crush, self.window, self.targets = None, [], {}
        self.tokens = {}
        self.round_index = 0
        self.players_onehot[n - 3] = 1
        self.additions[0] = int(game.additions)
        self.camp[:] = BAND_START
        self.oak[:] = OAK_START
        self.gold[:] = GOLD_START
        self.pit[0] = GOLD_BAGS - GOLD_START * n
        self.equip_left[0] = len(self.equip_deck)
        self.figure[int(rng.integers(n))] = 1
        self.push(PREP, 0, 0)
        self._start_round()
        return self

    # --- small helpers --------------------------------------------------------------------
    @property
    def figure_seat(self) -> int:
        return int(self.figure.argmax())

    def card_holder_seat(self) -> int:
        return int(self.card_holder.argmax()) if self.card_holder.any() else -1

    def _seats_from(self, first: int) -> tuple[int, ...]:
        """Every seat clockwise from ``first`` (any int: taken modulo the player count)."""
        return self.game.seat_orders[first % self.num_players]

    def _lay_out(self) -> None:
        for s in range(self.game.laid_out):
            card = self.pile.pop(0)
            self.slots[s] = card
            self.slot_present[s] = 1
        self.slot_face_up[0] = 1   # one card face up (the pile is shuffled: any one will do)
        self.slot_card[0] = _FEATURES[self.slots[0]]
        self.pile_left[0] = len(self.pile)

    def _clear_slot(self, s: int) -> None:
        self.slots[s] = -1
        self.slot_present[s] = 0
        self.slot_face_up[s] = 0
        self.slot_card[s] = 0
        self.slot_told[s] = 0
        self.slot_marked[s] = 0
        self.peek[:, s] = 0

    # --- rounds ---------------------------------------------------------------------------
    def _start_round(self) -> None:
        self.round_index += 1
        self.round_no[0] = self.round_index
        self.attack_phase[0] = 0
        self.emptied[:] = 0
        self._lay_out()
        self.next_turn(PREP, self.figure_seat, 0)

    def _next_prep(self, after: int) -> None:
        """The next seat clockwise after ``after`` with outlaws in camp, or the attacks."""
        camps = self.camp.tolist()
        for p in self._seats_from(after + 1):
            if camps[p] > 0:
                self.next_turn(PREP, p, 0)
                return
        self._start_attacks()

    def _note_emptied(self, seats: Sequence[int]) -> None:
        """Seats whose camps may just have emptied, in the order the rewards go to them."""
        camps, emptied = self.camp.tolist(), self.emptied.tolist()
        rank = sum(1 for e in emptied if e)      # camps emptied before
        for p in seats:
            if camps[p] == 0 and emptied[p] == 0:
                rank += 1
                emptied[p] = rank
                self.emptied[p] = rank
                if rank == 1:
                    self.fame[p] += FIRST_EMPTY_FAME
                elif rank == 2:
                    self.card_holder[:] = 0
                    self.card_holder[p] = 1

    def _end_round(self) -> None:
        if self.game.additions:
            self._fork_bonus()
            self._end_agreements()
        self.camp += self.places.sum(axis=1) + self.ambush_outlaws.sum(axis=0)
        self.places[:] = 0
        self.ambush_outlaws[:] = 0
        self.ambush_leader[:] = 0
        self._return_promised(range(NUM_AMBUSHES))
        if self.round_index >= ROUNDS:
            self.fame += FINAL_GOLD_FAME * self.round_gold + FINAL_COMRADE_FAME * self.round_comrades
            # The converted bags leave the camp (README); bags already paid on (with an offer
            # of the additions) are no longer there to leave.
            leave = np.minimum(self.round_gold, self.gold)
            self.gold -= leave
            self.pit[0] += int(leave.sum())
            self.end_game()
            return
        self.round_gold[:] = 0
        self.round_comrades[:] = 0
        # The poorest player (the figure's holder excluded) takes the figure; ties go to the
        # first tied player clockwise from the previous holder.
        prev = self.figure_seat
        gold = self.gold.tolist()
        candidates = [p for p in self._seats_from(prev + 1) if p != prev]
        poorest = min(gold[p] for p in candidates)
        new = next(p for p in candidates if gold[p] == poorest)
        self.figure[:] = 0
        self.figure[new] = 1
        self._start_round()

    def _end_agreements(self) -> None:
        """(Additions) Provisions, agreements, loot laid out in advance and pledges end with
        the round (the basic game never sets them, so it skips this)."""
        self.provisioned[:] = 0
        for amb in list(self.targets):
            self._void_agreement(amb)
        self.pit[0] += int(self.advance.sum())
        self.advance[:] = 0
        self.oak += self.advance_comrades.sum(axis=0)
        self.advance_comrades[:] = 0
        self.pledged[:] = 0

    def _fork_bonus(self) -> None:
        """(Additions) The most outlaws in the four red-circled forks: one more outlaw from
        under the oak; every tied contender gets one (none without a figure under the oak)."""
        in_forks = self.ambush_outlaws[list(RED_FORKS)].sum(axis=0)
        top = int(in_forks.max())
        self.fork_bonus[:] = 0
        if top == 0:
            return
        for q in np.flatnonzero(in_forks == top).tolist():
            if self.oak[q] > 0:
                self.oak[q] -= 1
                self.camp[q] += 1
                self.fork_bonus[q] = 1

    def _return_promised(self, ambushes) -> None:
        if not self.tokens:
            return
        for a in ambushes:
            for p in range(self.num_players):
                if self.promised[a, p].any():
                    self.hand[p, :NUM_WEAPON_KINDS] += self.promised[a, p]
                    self.hand_count[p] += int(self.promised[a, p].sum())
                    self.promised[a, p] = 0
                self.tokens.pop((a, p), None)

    # --- preparation ------------------------------------------------------------------------
    def _equipment_available(self) -> bool:
        return bool(self.equip_deck) or bool(self.equip_discard.any())

    def _mask_prep(self, d, mask) -> None:
        p = d.player
        # .item() gives Python ints directly: this runs at every preparation turn.
        gold = self.gold.item(p)
        if gold > 0:
            mask[_CHURCH_START:_CHURCH_START + gold] = 1
        if gold > CHURCH_FORCED_ABOVE:
            return
        camps = self.camp.tolist()
        camp = camps[p]
        mask[_INN] = self.slot_present
        if (gold >= MERCHANT_COST and self.hand_count.item(p) < HAND_LIMIT
                and self._equipment_available()):
            mask[_MERCHANT] = 1
        if gold >= MARKET_COST and self.oak.item(p) > 0:
            mask[_MARKET] = 1
        ambush = _ambush_pattern(tuple(map(any, self.ambush_outlaws.tolist())), camp)
        mask[_AMBUSH] = ambush
        if d.data[0] < MAX_OFFERS and sum(camps) > camp:
            mask[_JOINT] = ambush

    def _why_prep(self, d, a: int) -> str | None:
        p = d.player
        if self.gold[p] > CHURCH_FORCED_ABOVE and a not in A.CHURCH:
            return f"with {int(self.gold[p])} gold (more than five) the church is the only action"
        if a in A.CHURCH:
            return f"the player has only {int(self.gold[p])} gold"
        if a in A.MERCHANT:
            return "the merchant needs 1 gold, fewer than three cards in hand and a card to sell"
        if a in A.MARKET:
            return "the market needs 2 gold and an outlaw of the player's colour under the oak"
        if a in A.AMBUSH or a in A.JOINT:
            return "the ambush must be unoccupied and the outlaws must be in the camp"
        if a in A.INN:
            return "no traveller lies in that place"
        return None

    def _apply_prep(self, d, a: int) -> None:
        p = d.player
        if a in A.CHURCH:
            k = a - A.CHURCH.start + 1
            self._place(p, CHURCH)
            self.gold[p] -= k
            self.pit[0] += k
            self.fame[p] += k
        elif a in A.INN:
            (s,) = A.INN.index(a)
            self._place(p, INN)
            self.peek[p, s] = _FEATURES[self.slots[s]]
            self.slot_marked[s, p] = 1
        elif a == A.MERCHANT.start:
            self._place(p, MERCHANT)
            self.gold[p] -= MERCHANT_COST
            self.pit[0] += MERCHANT_COST
            self._draw_equipment(p)
        elif a == A.MARKET.start:
            self._place(p, MARKET)
            self.oak[p] -= 1
            self.places[p, MARKET] += 1          # the recruit stands beside his recruiter
            self.gold[p] -= MARKET_COST
            self.pit[0] += MARKET_COST
        elif a in A.AMBUSH:
            amb, k = A.AMBUSH.index(a)
            self.camp[p] -= k + 1
            self.ambush_outlaws[amb, p] = k + 1
            self.ambush_leader[amb, p] = 1
        else:
            amb, k = A.JOINT.index(a)
            self._start_offer(p, amb, k + 1, d.data[0])
            return
        self._note_emptied([p])
        self._next_prep(p)

    def _place(self, p: int, place: int) -> None:
        self.camp[p] -= 1
        self.places[p, place] += 1

    def _draw_equipment(self, p: int) -> None:
        if not self.equip_deck:
            kinds = np.repeat(np.arange(self.equip_discard.size), self.equip_discard)
            self.equip_deck = [int(k) for k in self.rng.permutation(kinds)]
            self.equip_discard[:] = 0
        k = self.equip_deck.pop()
        self.hand[p, k] += 1
        self.hand_count[p] += 1
        self.equip_left[0] = len(self.equip_deck)

    # --- joint ambush negotiation ------------------------------------------------------------
    def _start_offer(self, p: int, amb: int, own: int, offers: int) -> None:
        allies = [q for q in self._seats_from(p + 1) if q != p and self.camp[q] > 0]
        self.offer = {"performer": p, "ambush": amb, "own": own, "offers": offers,
                      "allies": allies, "next": 0, "asked": [], "reveal": -1, "target": -1,
                      "terms": {}, "informant": p}
        self.offer_ambush[amb] = 1
        self.offer_own[0] = own
        self.offers_made[0] = offers
        self.offer_target[A.MAX_SLOTS] = 1
        if self.game.additions:
            self.replace(TARGET_DECISION, p, amb, own)
        else:
            self.replace(ASK, p, amb, own, offers, allies[0])

    # --- binding agreements (additions) ---------------------------------------------------------
    def _mask_target(self, d, mask) -> None:
        mask[A.TARGET_NONE.start] = 1
        if self._tokens_free() > 0:
            mask[A.TARGET.start:A.TARGET.stop] = self.slot_present

    def _why_target(self, d, a: int) -> str | None:
        return "the target must be a laid-out traveller and a token pair must be free"

    def _apply_target(self, d, a: int) -> None:
        o = self.offer
        if a in A.TARGET:
            (s,) = A.TARGET.index(a)
            o["target"] = s
            self.offer_target[:] = 0
            self.offer_target[s] = 1
            self.offer_informant[d.player] = 1
            if any(self.slot_marked[s, q] for q in o["allies"]):
                self.replace(INFORMANT_DECISION, d.player, o["ambush"], o["own"])
                return
        self.replace(ASK, d.player, o["ambush"], o["own"], o["offers"], o["allies"][0])

    def _mask_informant(self, d, mask) -> None:
        """The performer, or a seat he may ask who looked at the target in the inn (his
        marker lies on it: public)."""
        o = self.offer
        mask[A.INFORMANT.start] = 1
        self._mark_seats(mask, A.INFORMANT, d.player,
                         [q for q in o["allies"] if self.slot_marked[o["target"], q]])

    def _why_informant(self, d, a: int) -> str | None:
        return ("the informant is the performer or a player he may ask (outlaws in camp) who "
                "looked at the target in the inn")

    def _apply_informant(self, d, a: int) -> None:
        o = self.offer
        q = self._seat_named(A.INFORMANT, d.player, a)
        o["informant"] = q
        self.offer_informant[:] = 0
        self.offer_informant[q] = 1
        self.replace(ASK, d.player, o["ambush"], o["own"], o["offers"], o["allies"][0])

    def _mask_terms(self, d, mask) -> None:
        o, p, q = self.offer, d.player, d.data[2]
        promised = sum(t[0] for t in o["terms"].values())
        paid = sum(t[1] for t in o["terms"].values())
        # Loot is promised by the informant to the other participants (the performer too,
        # when the informant is an ally); gold now is paid by the performer to an ally.
        loot = o["target"] >= 0 and q != o["informant"]
        top_g = min(A.MAX_PROMISED_LOOT, int(self.pit[0]) - promised) if loot else 0
        top_c = min(A.MAX_PROMISED_COMRADES, int(self.oak[q])) if loot else 0
        top_k = min(A.MAX_PAYMENT, int(self.gold[p]) - paid) if q != p else 0
        terms = mask[A.TERMS.start:A.TERMS.stop].reshape(A.TERMS.shape)
        terms[:top_g + 1, :top_k + 1, :top_c + 1] = 1

    def _why_terms(self, d, a: int) -> str | None:
        return ("loot can be promised only for a marked target and not to the informant: bags "
                "only as far as the pit can advance them, comrades only from the recipient's own "
                "figures under the oak; gold paid now goes from the performer's camp to an ally")

    def _apply_terms(self, d, a: int) -> None:
        g, k, c = A.TERMS.index(a)
        q = d.data[2]
        self.offer["terms"][q] = (g, k, c)
        self.offer_terms[q] = (g, k, c)
        if q == d.player:
            self._after_asks(d.player)
        else:
            self._next_ally(d.player)

    def _tokens_free(self) -> int:
        return len(ALLIANCE_LETTERS) - len(self.tokens)

    def _mask_ask(self, d, mask) -> None:
        o = self.offer
        q = d.data[3]
        last = o["next"] == len(o["allies"]) - 1
        cards_free = (self._tokens_free() - (o["target"] >= 0)
                      - sum(1 for _, _, e in o["asked"] if e > 0))
        top_c = self.camp.item(q)
        if self.game.additions:
            # Unmarked promises need no tokens; they matter only at a planned attack.
            top_e = min(self.hand_count.item(q), A.MAX_ASK_CARDS) if o["target"] >= 0 else 0
        else:
            top_e = min(self.hand_count.item(q), A.MAX_ASK_CARDS) if cards_free > 0 else 0
        must = (last and not o["asked"]) or q == o["informant"]   # the informant takes part
        mask[_ASK] = _ASK_PATTERNS[int(must), top_c, top_e]

    def _why_ask(self, d, a: int) -> str | None:
        return ("an ally can be asked for at most the outlaws in his camp and at most one card "
                "per outlaw from his hand (and a free pair of alliance tokens); somebody must be asked")

    def _apply_ask(self, d, a: int) -> None:
        o = self.offer
        c, e = A.ASK.index(a)
        q = d.data[3]
        if c > 0:
            o["asked"].append((q, c, e))
            self.offer_ask[q] = (c, e)
            if self.game.additions:
                self.replace(TERMS_DECISION, d.player, o["ambush"], c, q)
                return
        self._next_ally(d.player)

    def _next_ally(self, p: int) -> None:
        o = self.offer
        o["next"] += 1
        if o["next"] < len(o["allies"]):
            self.replace(ASK, p, o["ambush"], o["own"], o["offers"], o["allies"][o["next"]])
            return
        self._after_asks(p)

    def _after_asks(self, p: int) -> None:
        """Every seat was asked: (additions) the informant's promise to the performer when
        the informant is an ally, then the reveal or the answers."""
        o = self.offer
        if o["informant"] != p and p not in o["terms"]:
            self.replace(TERMS_DECISION, p, o["ambush"], o["own"], p)
            return
        if self.peek[p].any():
            self.replace(REVEAL, p, o["ambush"], o["own"])
        else:
            self._ask_next_answer()

    def _mask_reveal(self, d, mask) -> None:
        mask[A.REVEAL.start:A.REVEAL.stop] = self.peek[d.player].any(axis=1) & (self.slot_present > 0)
        mask[A.REVEAL_NONE.start] = 1

    def _apply_reveal(self, d, a: int) -> None:
        if a in A.REVEAL:
            (s,) = A.REVEAL.index(a)
            f = _FEATURES[self.slots[s]]
            self.slot_told[s] = (1, f[F_FAME], f[F_GOLD], f[F_COMRADES])
            self.offer["reveal"] = s
        self._ask_next_answer()

    def _ask_next_answer(self) -> None:
        """Push the next asked ally's answer, or form the ambush once all have accepted."""
        o = self.offer
        answered = len(o.get("promise", ()))   # each acceptance records its promise
        if answered < len(o["asked"]):
            q, c, e = o["asked"][answered]
            if answered:
                self.replace(ANSWER, q, o["ambush"], c, e, o["performer"])
            else:
                self.push(ANSWER, q, o["ambush"], c, e, o["performer"])
            return
        self.pop()
        self._place_joint()
        if not self.game.additions and any(e for _, _, e in o["asked"]):
            # "If an ally has promised to send an outlaw with equipment, he now reveals and
            # places the equipment card ... If the allies' forces are insufficient, the
            # performer may give up this action and take another step."
            self.replace(CONFIRM_DECISION, o["performer"], o["ambush"])
            return
        self._joint_formed()

    def _mask_confirm(self, d, mask) -> None:
        mask[A.CONFIRM.start:A.CONFIRM.stop] = 1

    def _apply_confirm(self, d, a: int) -> None:
        if a == A.CONFIRM.start:
            self._joint_formed()
            return
        # Given up: everyone takes his outlaws and cards back; the performer decides again.
        o = self.offer
        amb = o["ambush"]
        self.camp += self.ambush_outlaws[amb]
        self.ambush_outlaws[amb] = 0
        self.ambush_leader[amb] = 0
        for q, _, e in o["asked"]:
            if e:
                self.hand[q, :NUM_WEAPON_KINDS] += self.promised[amb, q]
                self.hand_count[q] += e
                self.promised[amb, q] = 0
                self.tokens.pop((amb, q), None)
        self._offer_failed()

    def _mask_answer(self, d, mask) -> None:
        q, (_, c, e) = d.player, d.data[:3]
        mask[A.DECLINE.start] = 1
        if self.camp[q] < c:
            return
        if self.game.additions:
            # A promise of e cards is a public number; the cards stay hidden in hand.
            mask[A.ACCEPT.start] = 1
            return
        hand = self.hand[q, :NUM_WEAPON_KINDS].tolist()
        acc = mask[A.ACCEPT.start:A.ACCEPT.stop].reshape(A.ACCEPT.shape)
        for w0 in range(min(e, hand[0]) + 1):
            for w1 in range(min(e - w0, hand[1]) + 1):
                w2 = e - w0 - w1
                if w2 <= hand[2]:
                    acc[w0, w1, w2] = 1

    def _why_answer(self, d, a: int) -> str | None:
        if self.game.additions:
            return "with the additions an ally promises a number of cards, not which ones"
        return f"an accepting ally promises exactly {d.data[2]} weapon cards from his hand"

    def _apply_answer(self, d, a: int) -> None:
        q = d.player
        if a == A.DECLINE.start:
            self.offer_answer[q] = 2
            self.pop()
            self._offer_failed()
            return
        self.offer_answer[q] = 1
        self.offer.setdefault("promise", {})[q] = tuple(int(w) for w in A.ACCEPT.index(a))
        self._ask_next_answer()

    def _offer_failed(self) -> None:
        o = self.offer
        p, offers = o["performer"], o["offers"] + 1
        self._clear_offer()
        self.replace(PREP, p, offers)

    def _clear_offer(self) -> None:
        self.offer = None
        self.offer_ambush[:] = 0
        self.offer_own[0] = 0
        self.offers_made[0] = 0
        self.offer_ask[:] = 0
        self.offer_answer[:] = 0
        self.offer_target[:] = 0
        self.offer_terms[:] = 0
        self.offer_informant[:] = 0

    def _place_joint(self) -> None:
        o = self.offer
        p, amb = o["performer"], o["ambush"]
        self.camp[p] -= o["own"]
        self.ambush_outlaws[amb, p] = o["own"]
        self.ambush_leader[amb, p] = 1
        used = set(self.tokens.values())
        for q, c, e in o["asked"]:
            self.camp[q] -= c
            self.ambush_outlaws[amb, q] = c
            if e and self.game.additions:
                self.pledged[amb, q] = e          # unmarked: the cards stay in hand
            elif e:
                w = np.array(o["promise"][q], np.int16)
                self.hand[q, :NUM_WEAPON_KINDS] -= w
                self.hand_count[q] -= e
                self.promised[amb, q] = w
                letter = next(i for i in range(len(ALLIANCE_LETTERS)) if i not in used)
                used.add(letter)
                self.tokens[(amb, q)] = letter
        self._bind_agreement(o, used)

    def _joint_formed(self) -> None:
        o = self.offer
        p = o["performer"]
        self._clear_offer()
        # Camps emptied at once: the allies (clockwise from the performer) before him.
        self._note_emptied(self._seats_from(p + 1))
        self._next_prep(p)

    def _bind_agreement(self, o: dict, used: set) -> None:
        """(Additions) Gold paid with the offer changes hands; a marked target gets a token
        pair on it and the ambush, and the promised loot is laid out from the pit."""
        p, amb = o["performer"], o["ambush"]
        sixth = self.round_index >= ROUNDS
        for q, (g, k, c) in o["terms"].items():
            self.gold[p] -= k
            self.gold[q] += k
            if sixth:
                self.round_gold[q] += k
            self.advance[amb, q] = g
            self.pit[0] -= g
            self.advance_comrades[amb, q] = c     # the ally's own figures, from under the oak
            self.oak[q] -= c
        if o["target"] >= 0:
            letter = next(i for i in range(len(ALLIANCE_LETTERS)) if i not in used)
            self.tokens[(amb, -1)] = letter
            self.targets[amb] = self.slots[o["target"]]
            self.ambush_target[amb, o["target"]] = 1
            self.informant[amb, o["informant"]] = 1

    def _void_agreement(self, amb: int) -> None:
        """The binding agreement of an ambush ends: uncollected loot goes back to the pit
        and under the oak."""
        if not self.game.additions:     # only the additions make agreements: nothing to undo
            return
        self.pit[0] += int(self.advance[amb].sum())
        self.advance[amb] = 0
        self.oak += self.advance_comrades[amb]
        self.advance_comrades[amb] = 0
        self.pledged[amb] = 0
        self.targets.pop(amb, None)
        self.tokens.pop((amb, -1), None)
        self.ambush_target[amb] = 0
        self.informant[amb] = 0

    # --- attacks ------------------------------------------------------------------------------
    def _start_attacks(self) -> None:
        self.attack_phase[0] = 1
        holder = self.card_holder_seat()
        first = holder if holder >= 0 else self.figure_seat
        self.leads = [(first + i) % self.num_players for i in range(self.game.laid_out)]
        self.leads_left[:] = 0
        for p in self.leads:
            self.leads_left[p] += 1
        self._next_lead()

    def _next_lead(self) -> None:
        if self.coach is not None:
            for amb in [a for a, c in self.targets.items() if c == self.coach[0]]:
                self._void_agreement(amb)
        self.coach = None
        self.coach_card.fill(0)
        self.coach_at.fill(0)
        self.coach_step[0] = 0
        if not self.leads:
            self._end_round()
            return
        self.next_turn(LEAD, self.leads[0])

    def _mask_lead(self, d, mask) -> None:
        mask[A.LEAD.start:A.LEAD.stop] = self.slot_present

    def _why_lead(self, d, a: int) -> str | None:
        return "no traveller lies in that place" if a in A.LEAD else None

    def _apply_lead(self, d, a: int) -> None:
        (s,) = A.LEAD.index(a)
        card = self.slots[s]
        self._clear_slot(s)
        p = self.leads.pop(0)
        self.leads_left[p] -= 1
        self.coach = [card, 0, CARDS[card].destination]
        if self.targets:                 # a target is marked only with an agreement
            marked = self.ambush_target[:, s] > 0
            self.ambush_target[marked, s] = 0
            self.ambush_target[marked, A.MAX_SLOTS] = 1
        self.coach_card[:] = _FEATURES[card]
        self.messenger_used[0] = 0
        if not self._open_window():
            self._drive()

    # --- the messenger's clothes (additions) ----------------------------------------------------
    def _reroute_towns(self) -> tuple[int, ...]:
        """Towns the coach may be sent to now: ``coach[1]`` ambushes of its route are
        behind it, and the new route must start with them (no driving back)."""
        card, passed, dest = self.coach
        return REROUTE[CARDS[card].origin][dest][passed]

    def _open_window(self) -> bool:
        """(Additions) The interrupt window for the messenger's clothes, when the traveller
        is revealed (``coach[1]`` = 0) and each time it has passed an occupied ambush without
        being robbed (``coach[1]`` = ambushes passed): every seat that could hold the card
        (any card in hand: a public number) is asked, clockwise from the leading player.
        Not opened once a card was played on this traveller, while both cards lie in the
        discard pile, or when no new destination is legal (only public facts decide)."""
        if (not self.game.additions or self.messenger_used[0]
                or self.equip_discard[MESSENGER_CLOTHES] >= EQUIPMENT_COUNTS[MESSENGER_CLOTHES]
                or not self._reroute_towns()):
            return False
        seats = [q for q in self._seats_from(self.turn) if self.hand_count[q] > 0]
        if not seats:
            return False
        self.window = seats
        self.push(MESSENGER_DECISION, seats[0])
        return True

    def _mask_messenger(self, d, mask) -> None:
        mask[A.MESSENGER_PASS.start] = 1
        if self.hand[d.player, MESSENGER_CLOTHES] > 0:
            for t in self._reroute_towns():
                mask[A.MESSENGER.start + t] = 1

    def _why_messenger(self, d, a: int) -> str | None:
        return ("the player must hold the messenger's clothes and name a town other than the "
                "traveller's origin and destination that the coach reaches without driving "
                "back along the path already travelled") if a in A.MESSENGER else None

    def _apply_messenger(self, d, a: int) -> None:
        q = d.player
        if a in A.MESSENGER:
            (t,) = A.MESSENGER.index(a)
            self.hand[q, MESSENGER_CLOTHES] -= 1
            self.hand_count[q] -= 1
            self.equip_discard[MESSENGER_CLOTHES] += 1
            self.coach[2] = t
            self.coach_card[F_DEST:F_DEST + len(TOWNS)] = 0
            self.coach_card[F_DEST + t] = 1
            self.messenger_used[0] = 1
            self.window = []          # only one messenger's clothes per traveller
        else:
            self.window.pop(0)
        if self.window:
            self.replace(MESSENGER_DECISION, self.window[0])
            return
        self.pop()
        self._drive()

    # --- the coach on the road ------------------------------------------------------------------
    def _route(self) -> tuple[int, ...]:
        card, _, dest = self.coach
        return ROUTES[(CARDS[card].origin, dest)]

    def _drive(self) -> None:
        """Move the coach on until an ambush needs a decision, robs it, or it arrives."""
        route = self._route()
        strength = CARDS[self.coach[0]].strength
        step = self.coach[1]
        manned = self.ambush_outlaws.any(axis=1).tolist()   # changes only when a fight ends the drive
        while step < len(route):
            amb = route[step]
            if manned[amb]:
                self.coach[1] = step
                if self._open_fight(amb, strength):
                    return
                self.coach[1] = step + 1       # passed without being robbed
                if self._open_window():
                    return
            step += 1
        self.removed.append(self.coach[0])   # it left the forest: the card leaves the game
        self._next_lead()

    def _drive_on(self) -> None:
        """The coach has passed the ambush it was at without being robbed."""
        self.coach[1] += 1
        if not self._open_window():
            self._drive()

    def _participants(self, amb: int) -> list[int]:
        """The leader, then the allies clockwise from him."""
        leader = int(self.ambush_leader[amb].argmax())
        outs = self.ambush_outlaws[amb].tolist()
        return [q for q in self._seats_from(leader) if outs[q] > 0]

    def _promised_strength(self, amb: int) -> int:
        return int((self.promised[amb].astype(np.int64) @ _WEAPON_STRENGTH).sum())

    def _open_fight(self, amb: int, strength: int) -> bool:
        """Resolve the ambush the coach is passing; True when control left the drive (a
        decision is pending or the coach's journey ended)."""
        self.coach_step[0] = self.coach[1]
        self.coach_at.fill(0)
        self.coach_at[amb] = 1
        outs = self.ambush_outlaws[amb].tolist()
        outlaws = sum(outs)
        promised = self._promised_strength(amb) if self.tokens else 0
        if outlaws >= strength:
            self._win(amb, promised_needed=False)
            return True
        if self.game.additions and self.targets.get(amb) == self.coach[0] and self.pledged[amb].any():
            return self._start_pledges(amb, strength, outlaws)
        if outlaws + promised >= strength:
            self._win(amb, promised_needed=True)
            return True
        # Only public numbers decide whether anybody is asked (a hand card adds at most 3).
        hands = self.hand_count.tolist()
        if outlaws + promised + 3 * sum(min(o, h) for o, h in zip(outs, hands)) < strength:
            return self._fall_short(amb, played=False)
        order = self._participants(amb)
        reach = outlaws + promised + sum(3 * min(self._capacity(amb, q), hands[q]) for q in order)
        if reach >= strength:
            self.fight = {"ambush": amb, "strength": strength, "order": order, "idx": 0,
                          "total": outlaws + promised}
            if self._ask_equip():
                return True
        return self._fall_short(amb)

    # --- unmarked equipment promises at a planned attack (additions) ---------------------------
    def _start_pledges(self, amb: int, strength: int, outlaws: int) -> bool:
        """A planned attack the outlaws alone cannot carry: each ally with a promise plays
        his promised number of cards or renounces; a renounce calls the attack off. "If there
        are doubts, the leader says in what order the allies must confirm this agreement or
        renounce it": the leader calls them one by one (``call``); the last is called alone."""
        order = self._participants(amb)
        pledgers = [q for q in order if self.pledged[amb, q] > 0]
        self.fight = {"ambush": amb, "strength": strength, "order": order, "idx": 0,
                      "total": outlaws, "pledgers": pledgers}
        self._next_pledger()
        return True

    def _next_pledger(self) -> None:
        f = self.fight
        amb, leader, rest = f["ambush"], f["order"][0], f["pledgers"]
        if len(rest) > 1:
            kind, player = CALL_DECISION, leader
        else:
            kind, player = PLEDGE_DECISION, rest.pop()
        if self.decisions[-1].kind in (PLEDGE_DECISION, CALL_DECISION):
            self.replace(kind, player, amb, f["strength"], f["total"], leader)
        else:
            self.push(kind, player, amb, f["strength"], f["total"], leader)

    def _mask_call(self, d, mask) -> None:
        self._mark_seats(mask, A.CALL, d.player, self.fight["pledgers"])

    def _why_call(self, d, a: int) -> str | None:
        return "the leader calls an ally whose equipment promise is still to be confirmed"

    def _apply_call(self, d, a: int) -> None:
        f = self.fight
        q = self._seat_named(A.CALL, d.player, a)
        f["pledgers"].remove(q)
        self.replace(PLEDGE_DECISION, q, f["ambush"], f["strength"], f["total"], f["order"][0])

    def _mask_pledge(self, d, mask) -> None:
        mask[A.EQUIP.start:A.EQUIP.stop] = self.hand[d.player, :NUM_WEAPON_KINDS] > 0
        mask[A.RENOUNCE.start] = 1

    def _why_pledge(self, d, a: int) -> str | None:
        return ("the ally plays a weapon card of his hand towards his promise or renounces it"
                if a in A.EQUIP else None)

    def _apply_pledge(self, d, a: int) -> None:
        f, q = self.fight, d.player
        amb, leader = f["ambush"], f["order"][0]
        if a == A.RENOUNCE.start:
            # "The planned attack is called off if the equipment cards are not applied in
            # full. Cards already played go to the discard pile."
            self.pop()
            self.fight = None
            if not self._fall_short(amb):
                self._drive_on()
            return
        (k,) = A.EQUIP.index(a)
        self.hand[q, k] -= 1
        self.hand_count[q] -= 1
        self.played[q, k] += 1
        f["total"] += WEAPON_STRENGTH[k]
        if f["total"] >= f["strength"]:            # must attack: the strength is reached
            self.pop()
            self.fight = None
            self._win(amb, promised_needed=True)
            return
        if self.played[q].sum() < self.pledged[amb, q]:
            self.replace(PLEDGE_DECISION, q, amb, f["strength"], f["total"], leader)
            return
        if f["pledgers"]:
            self._next_pledger()
            return
        # Every promise kept and still short: cards from hand, as at any ambush.
        self.pop()
        hands = self.hand_count.tolist()
        reach = f["total"] + sum(3 * min(self._capacity(amb, x), hands[x]) for x in f["order"])
        if reach < f["strength"] or not self._ask_equip():
            self.fight = None
            if not self._fall_short(amb):
                self._drive_on()

    def _capacity(self, amb: int, q: int) -> int:
        """Cards seat q may still play here: one per outlaw, promised cards included."""
        return (self.ambush_outlaws.item(amb, q) - sum(self.promised[amb, q].tolist())
                - sum(self.played[q].tolist()))

    def _ask_equip(self) -> bool:
        """Push the equip decision of the next participant who could play a card; False
        when nobody is left."""
        f = self.fight
        amb = f["ambush"]
        while f["idx"] < len(f["order"]):
            q = f["order"][f["idx"]]
            if self._capacity(amb, q) > 0 and self.hand_count[q] > 0:
                leader = f["order"][0]
                if self.decisions[-1].kind == EQUIP:
                    self.replace(EQUIP, q, amb, f["strength"], f["total"], leader)
                else:
                    self.push(EQUIP, q, amb, f["strength"], f["total"], leader)
                return True
            f["idx"] += 1
        if self.decisions[-1].kind == EQUIP:
            self.pop()
        self.fight = None
        return False

    def _fall_short(self, amb: int, played: bool = True) -> bool:
        """The ambush did not reach the strength: cards played here are used up; a
        traveller drives on (False), the Sheriff crushes the ambush (True)."""
        if played:
            self.equip_discard[:NUM_WEAPON_KINDS] += self.played.sum(axis=0)
            self.played[:] = 0
        if not CARDS[self.coach[0]].sheriff:
            return False
        self._crush(amb)
        return True

    def _mask_equip(self, d, mask) -> None:
        mask[A.EQUIP.start:A.EQUIP.stop] = self.hand[d.player, :NUM_WEAPON_KINDS] > 0
        mask[A.EQUIP_PASS.start] = 1

    def _why_equip(self, d, a: int) -> str | None:
        return "that card is not in the player's hand" if a in A.EQUIP else None

    def _apply_equip(self, d, a: int) -> None:
        f, q = self.fight, d.player
        amb = f["ambush"]
        if a in A.EQUIP:
            (k,) = A.EQUIP.index(a)
            self.hand[q, k] -= 1
            self.hand_count[q] -= 1
            self.played[q, k] += 1
            f["total"] += WEAPON_STRENGTH[k]
            if f["total"] >= f["strength"]:
                self.pop()
                self.fight = None
                self._win(amb, promised_needed=True)
                return
            if self._capacity(amb, q) > 0 and self.hand_count[q] > 0:
                self.replace(EQUIP, q, amb, f["strength"], f["total"], f["order"][0])
                return
        f["idx"] += 1
        if not self._ask_equip() and not self._fall_short(amb):
            self._drive_on()

    # --- the Sheriff crushes an ambush (additions) ---------------------------------------------
    def _crush(self, amb: int) -> None:
        """Every participant is asked, in order, whether he plays a forest cloak (asking all
        of them reveals nothing about a hand); then the losses."""
        self._return_promised([amb])
        self._void_agreement(amb)
        order = self._participants(amb)
        self.crush = {"ambush": amb, "order": order, "idx": 0, "cloak": {}}
        self.push(CLOAK_DECISION, order[0], amb)

    def _mask_cloak(self, d, mask) -> None:
        mask[A.CLOAK_NONE.start] = 1
        if self.hand[d.player, FOREST_CLOAK] > 0:
            mask[A.CLOAK.start:A.CLOAK.stop] = 1

    def _why_cloak(self, d, a: int) -> str | None:
        return "the player holds no forest cloak" if a in A.CLOAK else None

    def _apply_cloak(self, d, a: int) -> None:
        c, q = self.crush, d.player
        if a in A.CLOAK:
            self.hand[q, FOREST_CLOAK] -= 1
            self.hand_count[q] -= 1
            self.equip_discard[FOREST_CLOAK] += 1
            c["cloak"][q] = A.CLOAK.index(a)[0] == 0      # True: stays in the ambush
        c["idx"] += 1
        if c["idx"] < len(c["order"]):
            self.replace(CLOAK_DECISION, c["order"][c["idx"]], c["ambush"])
            return
        self.pop()
        self._crush_losses()

    def _band(self, q: int) -> int:
        """Figures of q's colour in camp or on assignments (not under the oak)."""
        return int(self.camp[q] + self.places[q].sum() + self.ambush_outlaws[:, q].sum())

    def _crush_losses(self) -> None:
        c = self.crush
        amb, card = c["ambush"], CARDS[self.coach[0]]
        leader = c["order"][0]
        stays = [q for q in c["order"] if c["cloak"].get(q)]
        for q in c["order"]:
            if q in c["cloak"]:
                continue
            self.fame[q] = max(0, int(self.fame[q]) - card.fame_loss)
            lost = max(0, min(card.outlaw_loss, int(self.ambush_outlaws[amb, q]),
                              self._band(q) - MIN_BAND))
            self.ambush_outlaws[amb, q] -= lost
            self.oak[q] += lost                      # lost outlaws go under the oak (README)
        for q in c["order"]:
            if q not in stays:
                self.camp[q] += self.ambush_outlaws[amb, q]
                self.ambush_outlaws[amb, q] = 0
                self.provisioned[amb, q] = 0
        self.ambush_leader[amb] = 0
        if stays:
            self.ambush_leader[amb, leader if leader in stays else stays[0]] = 1
        self.crush = None
        self._drive_on()

    # --- a successful attack and the loot ---------------------------------------------------
    def _win(self, amb: int, promised_needed: bool) -> None:
        card = CARDS[self.coach[0]]
        order = self._participants(amb)
        if promised_needed:
            self.equip_discard[:NUM_WEAPON_KINDS] += self.promised[amb].sum(axis=0)
            self.promised[amb] = 0
            for q in order:
                self.tokens.pop((amb, q), None)
        else:
            self._return_promised([amb])
        self.equip_discard[:NUM_WEAPON_KINDS] += self.played.sum(axis=0)
        self.played[:] = 0
        for q in order:
            self.fame[q] += card.fame
        # The Sheriff brings fame only; a traveller's gold is what the pit still holds (with
        # the bags of an agreement laid out from it: they are part of this loot).
        self.loot = {"ambush": amb, "order": order, "gold": card.gold, "comrades": card.comrades}
        if self.targets.get(amb) == self.coach[0]:
            self._keep_agreement()
            return
        # A spontaneous attack, or beating the Sheriff, ends any agreement of the ambush:
        # its outlaws go home (provisions keep some there, bound by nothing).
        self._void_agreement(amb)
        self._share_loot()

    # --- (additions) a planned attack keeps the binding agreement first --------------------
    def _keep_agreement(self) -> None:
        """A planned attack: "first the informant must fulfil the requirements of the binding
        agreements, and only then divide the remainder of the loot". The traveller's gold
        covers the bags laid out first; the informant pays any shortfall from his camp; what
        he cannot pay, promises go without, the informant choosing whose (``shortfall``).
        The traveller's comrades cover the comrades laid out first; a comrade shortfall cannot
        be paid ("the informant cannot pay with outlaws"): he chooses whose laid-out comrades
        go back under the oak."""
        L = self.loot
        amb = L["ambush"]
        informant = int(self.informant[amb].argmax())
        owed = int(self.advance[amb].sum())
        covered = min(L["gold"], owed)
        L["gold"] -= covered
        pay = min(owed - covered, int(self.gold[informant]))
        self.gold[informant] -= pay
        self.pit[0] += pay
        owed_c = int(self.advance_comrades[amb].sum())
        covered_c = min(L["comrades"], owed_c)
        L["comrades"] -= covered_c
        L.update(informant=informant, short=owed - covered - pay, short_c=owed_c - covered_c)
        self._settle_shortfall()

    def _settle_shortfall(self) -> None:
        """Withdraw the promises the loot and the informant cannot cover. The informant
        decides whose promise goes without; the engine withdraws alone only where his choice
        cannot matter: a single recipient still owed, or a shortfall as large as everything
        still owed (every promise goes without in full)."""
        L = self.loot
        amb = L["ambush"]
        for key, laid in (("short", self.advance), ("short_c", self.advance_comrades)):
            while L[key] > 0:
                owed = laid[amb].tolist()
                due = [q for q in range(self.num_players) if owed[q] > 0]
                if len(due) > 1 and L[key] < sum(owed):
                    self._push_or_replace(SHORTFALL_DECISION, L["informant"], amb, L["short"], L["short_c"])
                    return
                for q in due:
                    self._withhold(laid, key, q, min(L[key], owed[q]))
        self._collect_promises()

    def _withhold(self, laid: np.ndarray, key: str, q: int, k: int) -> None:
        """k of q's laid-out bags go back to the pit (comrades: back under the oak)."""
        amb = self.loot["ambush"]
        laid[amb, q] -= k
        if key == "short":
            self.pit[0] += k
        else:
            self.oak[q] += k
        self.loot[key] -= k

    def _mask_shortfall(self, d, mask) -> None:
        amb, bags = d.data[0], d.data[1]
        laid = self.advance if bags else self.advance_comrades
        kind = 0 if bags else 1
        start = A.WITHHOLD.start + kind * A.MAX_SEATS
        for q in np.flatnonzero(laid[amb]).tolist():
            mask[start + (q - d.player) % self.num_players] = 1

    def _why_shortfall(self, d, a: int) -> str | None:
        return ("the informant withholds a promised bag (while bags are short, then a comrade) "
                "from a recipient still owed one")

    def _apply_shortfall(self, d, a: int) -> None:
        kind, r = A.WITHHOLD.index(a)
        q = (d.player + r) % self.num_players
        if kind == 0:
            self._withhold(self.advance, "short", q, 1)
        else:
            self._withhold(self.advance_comrades, "short_c", q, 1)
        self._settle_shortfall()

    def _collect_promises(self) -> None:
        """The recipients collect what is still laid out for them; the agreement ends."""
        amb = self.loot["ambush"]
        bags, comrades = self.advance[amb].copy(), self.advance_comrades[amb].copy()
        self.gold += bags
        self.camp += comrades          # collected comrades join the band
        if self.round_index >= ROUNDS:
            self.round_gold += bags
            self.round_comrades += comrades
        self.advance[amb] = 0
        self.advance_comrades[amb] = 0
        self._void_agreement(amb)
        self._share_loot()

    # --- sharing the loot by the basic rules ----------------------------------------------------
    # The loot is handed out one share at a time, a share being a bag or a comrade, a comrade
    # only to a player with a figure of his colour under the oak (README; rulebook "Of course,
    # the leader can give a new comrade only to a player who still has outlaw figures under
    # the oak"). Rounds: one share per participant whose outlaws are not all served (the allies
    # before the leader in the first round only); what is left once nobody else can take a
    # share the leader keeps ("the leader receives the loot"; "the leader keeps the rest"), a
    # comrade he cannot take stays under the oak.
    #
    # Which share counts can be filled is decided by counts alone: shares s (one per seat)
    # can be filled with the bags and comrades iff the shares beyond the bags (sum(s) - gold)
    # are at most the comrades and at most sum(min(s_q, oak_q)) (``_fits``). Those fillable
    # sets of single shares form a matroid (a flow network: each share to its seat, a seat to
    # the bags or, up to oak_q, to the comrades), so every way of adding shares while one
    # fits ends with the same number: all the bags and as many comrades as any distribution
    # could hand out. Hence no choice of the leader loses a share, and the engine decides
    # alone only where nothing is left to choose: a round's participants who can all take a
    # share get one each (the rule), a participant who cannot take any share that is left is
    # passed over (he could only be given a comrade without a figure under the oak), and a
    # comrade goes to the one participant who can take it or, when the comrades to place
    # equal the room for them, to every such share. Everything else is the leader's: who gets
    # the shares of a round that cannot serve every participant left in it (``share``), and
    # which shares are comrades (``comrade``).
    def _share_loot(self) -> None:
        L = self.loot
        gold = min(L["gold"], int(self.pit[0]))
        if gold + L["comrades"] == 0:
            self.loot = None
            self._after_success(L["ambush"])
            return
        n = self.num_players
        order, amb = L["order"], L["ambush"]
        outlaws = [0] * n
        for q in order:
            outlaws[q] = self.ambush_outlaws.item(amb, q)
        L.update(gold=gold, leader=order[0], outlaws=outlaws, oak=self.oak.tolist(),
                 shares=[0] * n, got=[0] * n, round=0, tier=[], tiers=[])
        if self._fits(outlaws):            # every outlaw brings his player one share
            L["shares"] = list(outlaws)
            self._leader_keeps_the_rest()
            return
        self._share_out()

    def _fits(self, shares: list[int]) -> bool:
        """Whether these share counts can all be filled with the loot's bags and comrades."""
        L = self.loot
        need = sum(shares) - L["gold"]      # shares that must be comrades
        if need <= 0:
            return True
        return need <= L["comrades"] and need <= sum(map(min, shares, L["oak"]))

    def _fits_one_more(self, q: int) -> bool:
        shares = self.loot["shares"]
        shares[q] += 1
        ok = self._fits(shares)
        shares[q] -= 1
        return ok

    def _share_out(self) -> None:
        """Hand out shares round by round until a choice is the leader's."""
        L = self.loot
        order, leader, outlaws, shares = L["order"], L["leader"], L["outlaws"], L["shares"]
        while True:
            tier = [q for q in L["tier"] if self._fits_one_more(q)]
            if not tier:
                if L["tiers"]:
                    L["tier"] = L["tiers"].pop(0)
                    continue
                unserved = [q for q in order if shares[q] < outlaws[q] and self._fits_one_more(q)]
                if not unserved:
                    break
                L["round"] += 1
                allies = [q for q in unserved if q != leader]
                if L["round"] == 1 and allies and leader in unserved:
                    L["tier"], L["tiers"] = allies, [[leader]]
                else:
                    L["tier"] = unserved
                continue
            picks = self._tier_room(tier)
            if picks == len(tier):
                for q in tier:
                    shares[q] += 1
                L["tier"] = []
                continue
            L["tier"] = tier
            self._push_or_replace(SHARE, leader, picks)
            return
        self._leader_keeps_the_rest()

    def _tier_room(self, tier: list[int]) -> int:
        """How many of the tier can still get a share (greedy is exact on a matroid)."""
        shares = list(self.loot["shares"])
        room = 0
        for q in tier:
            shares[q] += 1
            if self._fits(shares):
                room += 1
            else:
                shares[q] -= 1
        return room

    def _leader_keeps_the_rest(self) -> None:
        L = self.loot
        leader = L["leader"]
        while self._fits_one_more(leader):
            L["shares"][leader] += 1
        # The comrades handed out: the shares beyond the bags; the rest stay under the oak.
        L["comrades"] = sum(L["shares"]) - L["gold"]
        self._assign_comrades()

    def _push_or_replace(self, kind: int, player: int, *data: int) -> None:
        if self.decisions[-1].kind in (SHARE, COMRADE, PROVISIONS_DECISION, SHORTFALL_DECISION):
            self.replace(kind, player, *data)
        else:
            self.push(kind, player, *data)

    # Actions that name a seat count from the deciding player (0 = himself), as the
    # observation's seat axes do.
    def _mark_seats(self, mask, block, player: int, seats) -> None:
        n = self.num_players
        for q in seats:
            mask[block.start + (q - player) % n] = 1

    def _seat_named(self, block, player: int, a: int) -> int:
        return (player + a - block.start) % self.num_players

    def _mask_share(self, d, mask) -> None:
        self._mark_seats(mask, A.SHARE, d.player, self.loot["tier"])

    def _why_share(self, d, a: int) -> str | None:
        return ("this round's remaining shares go to participants not yet served in it who can "
                "still take one (a comrade only with a figure under the oak)")

    def _apply_share(self, d, a: int) -> None:
        L = self.loot
        q = self._seat_named(A.SHARE, d.player, a)
        L["shares"][q] += 1
        L["tier"].remove(q)
        self._share_out()

    def _comrade_room(self) -> list[int]:
        """How many more comrades each seat can take: shares not yet comrades, at most his
        figures under the oak."""
        L = self.loot
        return [min(s, o) - g for s, o, g in zip(L["shares"], L["oak"], L["got"])]

    def _assign_comrades(self) -> None:
        L = self.loot
        got = L["got"]
        if L["comrades"] > 0:
            room = self._comrade_room()
            takers = [q for q in L["order"] if room[q] > 0]
            if len(takers) > 1 and sum(room) > L["comrades"]:
                self._push_or_replace(COMRADE, L["leader"], L["comrades"])
                return
            for q in takers:               # no choice left: every taker fills his room
                k = min(room[q], L["comrades"])
                got[q] += k
                L["comrades"] -= k
        if self.decisions[-1].kind in (SHARE, COMRADE, SHORTFALL_DECISION):
            self.pop()
        self._pay_loot()

    def _mask_comrade(self, d, mask) -> None:
        room = self._comrade_room()
        self._mark_seats(mask, A.COMRADE, d.player, [q for q in self.loot["order"] if room[q] > 0])

    def _why_comrade(self, d, a: int) -> str | None:
        return ("a comrade goes to a participant with a share not yet a comrade and a figure "
                "under the oak")

    def _apply_comrade(self, d, a: int) -> None:
        L = self.loot
        q = self._seat_named(A.COMRADE, d.player, a)
        L["got"][q] += 1
        L["comrades"] -= 1
        self._assign_comrades()

    def _pay_loot(self) -> None:
        L = self.loot
        self.shares[:] = 0
        sixth = self.round_index >= ROUNDS
        for q in L["order"]:
            com = L["got"][q]
            bags = L["shares"][q] - com
            self.gold[q] += bags
            self.pit[0] -= bags
            self.oak[q] -= com
            self.camp[q] += com
            self.shares[q] = (bags + com, com)
            if sixth:
                self.round_gold[q] += bags
                self.round_comrades[q] += com
        self.loot = None
        self._after_success(L["ambush"])

    # --- after a successful attack: provisions (additions), home ---------------------------------
    def _after_success(self, amb: int) -> None:
        """With the additions every participant is asked, in order, whether he plays
        provisions to stay (asking all of them reveals nothing about a hand)."""
        order = self._participants(amb)
        if self.game.additions:
            self.crush = {"ambush": amb, "order": order, "idx": 0, "stay": []}
            self._push_or_replace(PROVISIONS_DECISION, order[0], amb)
            return
        self._go_home(amb, order, [])

    def _mask_provisions(self, d, mask) -> None:
        mask[A.PROVISIONS_NONE.start] = 1
        amb = d.data[0]
        if self.hand[d.player, PROVISIONS] > 0 and not self.provisioned[amb, d.player]:
            mask[A.PROVISIONS.start] = 1

    def _why_provisions(self, d, a: int) -> str | None:
        return ("the player holds no provisions, or his outlaws here already stayed once"
                if a in A.PROVISIONS else None)

    def _apply_provisions(self, d, a: int) -> None:
        c, q = self.crush, d.player
        if a == A.PROVISIONS.start:
            self.hand[q, PROVISIONS] -= 1
            self.hand_count[q] -= 1
            self.equip_discard[PROVISIONS] += 1
            c["stay"].append(q)
        c["idx"] += 1
        if c["idx"] < len(c["order"]):
            self.replace(PROVISIONS_DECISION, c["order"][c["idx"]], c["ambush"])
            return
        self.pop()
        self.crush = None
        self._go_home(c["ambush"], c["order"], c["stay"])

    def _go_home(self, amb: int, order: list[int], stays: list[int]) -> None:
        """Participants go home, except those who played provisions now (they stay until
        the next successful attack or the round's end); the card leaves the game."""
        leader = order[0]
        for q in order:
            if q in stays:
                self.provisioned[amb, q] = 1
            else:
                self.camp[q] += self.ambush_outlaws[amb, q]
                self.ambush_outlaws[amb, q] = 0
                self.provisioned[amb, q] = 0
        self.ambush_leader[amb] = 0
        if stays:
            self.ambush_leader[amb, leader if leader in stays else stays[0]] = 1
        self.removed.append(self.coach[0])
        self._next_lead()

    def _describe_for_others(self, action: int) -> str:
        """Which cards an accepting ally promises is shown only once the alliance forms
        (an offer another ally declines shows none): to others an acceptance is "accept"."""
        if action in A.ACCEPT:
            return "accept"
        return self.game.action_to_string(action)

    # --- results -----------------------------------------------------------------------------
    def scores(self) -> list[dict]:
        """Fame per seat with the tie-break numbers (final once the game is over)."""
        return [{"fame": int(self.fame[p]), "oak": int(self.oak[p]), "gold": int(self.gold[p]),
                 "total": int(self.fame[p])} for p in range(self.num_players)]

    def ranks(self) -> list[int]:
        """Most fame; ties: fewer outlaws under the oak, then more gold in camp."""
        return competition_ranks([(int(self.fame[p]), -int(self.oak[p]), int(self.gold[p]))
                                  for p in range(self.num_players)])

    # --- what a seat knows ---------------------------------------------------------------------
    def resample_hidden(self, seat: int, rng: np.random.Generator) -> SherwoodState:
        """A state ``seat`` cannot tell from this one: travellers it has not seen (the
        pile, the box, face-down laid-out cards it did not look at) are redealt within
        their deck letter, and the equipment it cannot see (the deck, others' hands) is
        redealt into the same places."""
        new = self.clone()
        hidden_slots = [s for s, c in enumerate(new.slots)
                        if c >= 0 and not new.slot_face_up[s] and not new.peek[seat, s].any()]
        for deck in ("A", "B"):
            places = ([("pile", i) for i, c in enumerate(new.pile) if CARDS[c].deck == deck]
                      + [("box", i) for i, c in enumerate(new.box) if CARDS[c].deck == deck
                         and (new.game.additions or not CARDS[c].sheriff)]
                      + [("slot", s) for s in hidden_slots if CARDS[new.slots[s]].deck == deck])
            # sorted first, so that the redeal depends only on what the seat knows
            cards = sorted(new._card_at(place) for place in places)
            for place, card in zip(places, rng.permutation(np.array(cards, np.int64)).tolist()):
                new._set_card_at(place, int(card))
        new.box.sort()
        for o in range(new.num_players):
            for s in range(A.MAX_SLOTS):
                if o != seat and new.peek[o, s].any():
                    new.peek[o, s] = _FEATURES[new.slots[s]]
        others = [o for o in range(new.num_players) if o != seat]
        pool = list(new.equip_deck)
        for o in others:
            pool += np.repeat(np.arange(new.hand.shape[1]), new.hand[o]).tolist()
        pool = rng.permutation(np.array(sorted(pool), np.int64)).tolist()
        new.equip_deck = [int(k) for k in pool[:len(new.equip_deck)]]
        pos = len(new.equip_deck)
        for o in others:
            count = int(new.hand[o].sum())
            new.hand[o] = np.bincount(np.array(pool[pos:pos + count], np.int64),
                                      minlength=new.hand.shape[1])
            pos += count
        return new._resampled(rng)

    def _card_at(self, place) -> int:
        where, i = place
        return {"pile": self.pile, "box": self.box, "slot": self.slots}[where][i]

    def _set_card_at(self, place, card: int) -> None:
        where, i = place
        {"pile": self.pile, "box": self.box, "slot": self.slots}[where][i] = card

    # --- bookkeeping ---------------------------------------------------------------------------
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


SherwoodGame.state_class = SherwoodState
