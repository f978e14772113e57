"""A toy game registered only in the tests, to prove core/ holds nothing of one game.

Players in turn take 1 or 2 sticks from a pile. After each take the next seat answers out of
turn: it agrees, or doubles (the taker must take one more stick, if any is left). Whoever takes
the last stick wins; the others rank by fewer sticks taken, equal counts sharing a place. There
are no points. Each player holds a secret number (hidden information) that does nothing but
must never leak; each take is remembered in a nested dict of lists, the last one in a typed
record.
"""

from __future__ import annotations

from enum import IntEnum

from forest_envs.core.actions import ActionSpace
from forest_envs.core.config import Option
from forest_envs.core.decisions import DecisionKind, Handlers, check_kind_ids
from forest_envs.core.game import Game, GameTraits
from forest_envs.core.plain import record
from forest_envs.core.results import competition_ranks
from forest_envs.core.state import BufferState
from forest_envs.envs.aec import ForestAECEnv

SPACE = ActionSpace()
TAKE = SPACE.add("take", 2, lambda i: f"take {i + 1}")
AGREE = SPACE.add("agree", (), lambda: "agree")
DOUBLE = SPACE.add("double", (), lambda: "double")
SPACE.freeze()


class Kind(IntEnum):
    """The decision kinds by name, as every game names them (``Kind.X``: the index in
    ``DECISIONS`` of the kind named ``x``)."""

    TAKE = 0
    ANSWER = 1

SECRET_HIGH = 3


class ToyGame(Game):
    env_id = "toy_v0"
    traits = GameTraits(name="Sticks", min_players=2, max_players=3, chance=True,
                        hidden_information=True, has_scores=False,
                        tie_break="the last taker first, then fewer sticks; equal counts share")
    options = {"num_players": Option(2, choices=(2, 3)), "pile": Option(7, choices=(5, 7))}

    action_space = SPACE

    @staticmethod
    def build_layout(layout):
        layout.add("pile", 1, high=7)
        layout.add("taken", layout.num_players, high=7, seats=0)
        layout.add("secret", layout.num_players, high=SECRET_HIGH, see="owner")


@record
class LastTake:
    """The latest take: who took how many, and whether the answer doubled it."""

    taker: int = -1
    amount: int = 0
    doubled: bool = False


class ToyState(BufferState):
    DECISIONS = (DecisionKind("take"), DecisionKind("answer", ints=(("amount", 2),), seats=("taker",)))
    FIELDS = ("takes", "last")
    __slots__ = FIELDS + ("pile", "taken", "secret")

    @classmethod
    def new(cls, game, rng):
        self = cls._blank(game)
        self.rng = rng
        self.pile[0] = game.config["pile"]
        self.secret[:] = rng.integers(0, SECRET_HIGH + 1, game.num_players)
        self.takes = {p: [] for p in range(game.num_players)}
        self.last = LastTake()
        self.set_turn(0)
        self.push(Kind.TAKE, 0)
        return self

    def _take(self, p: int, amount: int) -> None:
        self.pile[0] -= amount
        self.taken[p] += amount
        self.takes[p].append(amount)
        self.last = LastTake(p, amount)

    def _mask_take(self, d, mask):
        mask[TAKE.start:TAKE.start + min(2, int(self.pile[0]))] = 1

    def _apply_take(self, d, a):
        amount = TAKE.index(a)[0] + 1
        self._take(d.player, amount)
        if self.pile[0] == 0:
            self.end_game()
        else:
            self.push(Kind.ANSWER, (d.player + 1) % self.num_players, amount, d.player)

    def _mask_answer(self, d, mask):
        mask[AGREE.start] = mask[DOUBLE.start] = 1

    def _why_answer(self, d, a):
        return "the answer is agree or double" if a in TAKE else None

    def _apply_answer(self, d, a):
        _, taker = d.data
        self.pop()
        if a == DOUBLE.start:
            self._take(taker, 1)
            self.last.doubled = True
        if self.pile[0] == 0:
            self.end_game()
            return
        nxt = (taker + 1) % self.num_players
        self.set_turn(nxt)
        self.replace(Kind.TAKE, nxt)

    # The game's table of contents: each decision kind's handlers (the engine's dispatch).
    HANDLERS = {
        Kind.TAKE: Handlers(mask=_mask_take, apply=_apply_take),
        Kind.ANSWER: Handlers(mask=_mask_answer, apply=_apply_answer, why=_why_answer),
    }

    def ranks(self):
        return competition_ranks([(p == self.last.taker, -int(self.taken[p]))
                                  for p in range(self.num_players)])

    def breakdown(self):
        return [{"taken": int(self.taken[p]), "took_last": p == self.last.taker}
                for p in range(self.num_players)]

    def view(self, seat):
        out = {"pile": int(self.pile[0]), "taken": self.taken.tolist(),
               "decision": self.decision_name(), "to_move": self.current_player}
        if seat is None:
            out["secrets"] = self.secret.tolist()
        else:
            out["secret"] = int(self.secret[seat])
        return out

    def render(self, seat=None):
        return "\n".join(f"{k}: {v}" for k, v in self.view(seat).items())

    def resample_hidden(self, seat, rng):
        new = self.clone()
        for p in range(self.num_players):
            if p != seat:
                new.secret[p] = rng.integers(0, SECRET_HIGH + 1)
        return new


ToyGame.state_class = ToyState
check_kind_ids(Kind, ToyState.DECISIONS)


class ToyEnv(ForestAECEnv):
    game_class = ToyGame
    metadata = dict(ForestAECEnv.metadata, name="toy_v0")
