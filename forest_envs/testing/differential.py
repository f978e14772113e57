"""The differential test of a game's two engines: the Python rules (the readable reference)
and the native C++ rules step together on fuzzed games, and everything either shows is
compared after every action.

After each action: the state buffer, the decision stack, whose turn it is, the generator's
state, the legal mask, every seat's observation, the global state and ``to_dict()``; when
an action is refused, both engines refuse it with the same text. Along the way, with small
probabilities: an illegal action is tried on both (same error, nothing changed), a
determinization is drawn from equal generators (same state, the generators advanced alike),
both states are cloned and the clones played on (the originals unchanged), a native state is
rebuilt from the Python state's dict (the same state), and each seat's ``view`` and
``reading`` are compared. At a game's end: ranks, scores, breakdowns and returns.

Play comes from ``fuzz`` (its seat policies: rare-seeking, pass-avoiding, uniform, the
game's heuristic); each game reads one engine for the policies' decisions (alternating), so
the agents' reads of native states are exercised too.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, cast

import numpy as np

from ..core.errors import IllegalActionError
from ..core.registry import game_spec
from .fuzzing import FuzzRun, fuzz


class EnginesDisagree(AssertionError):
    """The engines showed something different; the message says what, and where."""


@dataclass
class DiffOptions:
    """How often the extra checks run (per action), and whether views are compared."""

    illegal: float = 0.05
    resample: float = 0.03
    clone: float = 0.02
    round_trip: float = 0.02
    views: float = 0.01


def _same(what: str, a, b, where: str) -> None:
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        a, b = np.asarray(a), np.asarray(b)
        if a.shape != b.shape or a.dtype != b.dtype or not np.array_equal(a, b):
            detail = ""
            if a.shape == b.shape:
                bad = np.flatnonzero(a.ravel() != b.ravel())[:8].tolist()
                detail = f" (first differences at {bad})"
            raise EnginesDisagree(f"{where}: {what} differs{detail}")
        return
    if a != b:
        raise EnginesDisagree(f"{where}: {what} differs:\n  python {a!r}\n  native {b!r}")


def _dict_difference(a: dict, b: dict) -> str:
    keys = [k for k in dict.fromkeys([*a, *b]) if a.get(k) != b.get(k)]
    return ", ".join(keys)


def compare_states(py, nt, where: str = "") -> None:
    """Everything the two states show, equal (raises ``EnginesDisagree``). The buffer is
    compared after the global state: a game may write blocks derived from others only when
    its buffer is read whole (distances found by a search), and a new state, a loaded one and a
    played one have written them at different times."""
    _same("the decisions", list(py.decisions), list(nt.decisions), where)
    _same("the turn", py.turn, nt.turn, where)
    _same("the current player", py.current_player, nt.current_player, where)
    _same("is_terminal", py.is_terminal, nt.is_terminal, where)
    _same("the legal mask", py.legal_action_mask(), nt.legal_action_mask(), where)
    for seat in range(py.num_players):
        _same(f"seat {seat}'s observation", py.observation(seat), nt.observation(seat), where)
    _same("the global state", py.global_state(), nt.global_state(), where)
    _same("the buffer", py.buf, nt.buf, where)
    a, b = py.to_dict(), nt.to_dict()
    if a != b:
        raise EnginesDisagree(f"{where}: to_dict differs in {_dict_difference(a, b)}")
    if py.is_terminal:
        _same("the ranks", list(py.ranks()), list(nt.ranks()), where)
        _same("the breakdown", py.breakdown(), nt.breakdown(), where)
        for mode in py.game.traits.reward_modes:
            _same(f"the {mode} returns", py.returns(mode), nt.returns(mode), where)


def apply_both(py, nt, action: int, where: str) -> None:
    """Apply ``action`` to both: both accept it, or both refuse it with the same text (and
    neither changes)."""
    errors: list[str | None] = []
    for state in (py, nt):
        try:
            state.apply(action)
            errors.append(None)
        except IllegalActionError as err:
            errors.append(str(err))
    _same(f"the answer to action {action!r}", errors[0], errors[1], where)


class TwinState:
    """A Python state and a native state of one game, stepped together: reads go to one of
    them (``reader``), ``apply`` goes to both and compares everything afterwards."""

    def __init__(self, py, nt, reader: str, rng: np.random.Generator, options: DiffOptions, label: str):
        self._py, self._nt = py, nt
        self._reader = nt if reader == "native" else py
        self._rng = rng
        self._options = options
        self._label = label
        self._actions: list[int] = []
        self.checked = 0
        compare_states(py, nt, self._where())

    def __getattr__(self, name: str):
        return getattr(self._reader, name)

    def _where(self) -> str:
        return f"{self._label} after {len(self._actions)} actions {json.dumps(self._actions)}"

    def apply(self, action: int) -> None:
        py, nt, rng, opt = self._py, self._nt, self._rng, self._options
        where = self._where()
        if rng.random() < opt.illegal:
            self._try_illegal(where)
        if rng.random() < opt.views:
            for seat in range(py.num_players):
                _same(f"seat {seat}'s view", py.view(seat), nt.view(seat), where)
                _same(f"what seat {seat} reads of action {action}", py.describe_action(action, seat),
                      nt.describe_action(action, seat), where)
        apply_both(py, nt, action, where)
        self._actions.append(int(action))
        where = self._where()
        compare_states(py, nt, where)
        self.checked += 1
        if rng.random() < opt.resample and not py.is_terminal:
            self._resample(where)
        if rng.random() < opt.clone and not py.is_terminal:
            self._clones(where)
        if rng.random() < opt.round_trip:
            rebuilt = type(nt).from_dict(nt.game, py.to_dict())
            compare_states(py, rebuilt, where + " (native rebuilt from the Python dict)")

    def _try_illegal(self, where: str) -> None:
        py, nt = self._py, self._nt
        if py.is_terminal:
            candidates = [0]
        else:
            mask = py.legal_action_mask()
            candidates = np.flatnonzero(mask == 0).tolist() or [-1]
        action = int(self._rng.choice(candidates + [-1, py.game.num_actions]))
        before = py.to_dict()
        apply_both(py, nt, action, where + f" (trying illegal action {action})")
        _same("the state after a refused action", before, py.to_dict(), where)
        compare_states(py, nt, where + " (after a refused action)")

    def _resample(self, where: str) -> None:
        py, nt = self._py, self._nt
        seat = int(self._rng.integers(py.num_players))
        seed = int(self._rng.integers(2**63))
        r1, r2 = np.random.default_rng(seed), np.random.default_rng(seed)
        a, b = py.resample_hidden(seat, r1), nt.resample_hidden(seat, r2)
        compare_states(a, b, where + f" (determinized for seat {seat})")
        _same("the generator after a determinization", r1.bit_generator.state, r2.bit_generator.state, where)

    def _clones(self, where: str) -> None:
        py, nt = self._py, self._nt
        before = py.to_dict()
        c1, c2 = py.clone(), nt.clone()
        compare_states(c1, c2, where + " (clones)")
        rng = np.random.default_rng(int(self._rng.integers(2**63)))
        for _ in range(int(rng.integers(1, 20))):
            if c1.is_terminal:
                break
            legal = np.flatnonzero(c1.legal_action_mask())
            apply_both(c1, c2, int(rng.choice(legal)), where + " (playing clones)")
        compare_states(c1, c2, where + " (played clones)")
        _same("the Python state after its clone was played", before, py.to_dict(), where)
        compare_states(py, nt, where + " (originals after their clones were played)")


def differential_fuzz(env_id: str, games: int, seed: int = 0, *, configs: list[dict] | None = None,
                      lineup=None, action_budget: int | None = None, max_steps: int | None = None,
                      options: DiffOptions | None = None) -> tuple[FuzzRun, int]:
    """Play ``games`` fuzzed games of ``env_id`` on both engines at once (``fuzz``'s
    policies, seats and budgets), comparing after every action; returns the fuzz run and the
    number of actions compared. Raises ``EnginesDisagree`` (inside a ``FuzzFailure`` naming
    the game's record) at the first difference."""
    spec = game_spec(env_id)
    native = spec.game_class.native_state_class
    if native is None:
        raise ValueError(f"{env_id} has no native engine built: {spec.game_class.native_unavailable}")
    options = options or DiffOptions()
    rng = np.random.default_rng([seed, 1])
    twins: list[TwinState] = []

    def make_state(game, game_seed: int, index: int) -> TwinState:
        py = game.state_class.new(game, np.random.Generator(np.random.PCG64(game_seed)))
        nt = cast(Any, native).new_from_seed(game, game_seed)  # (a native state class)
        reader = "native" if index % 2 else "python"
        twin = TwinState(py, nt, reader, np.random.default_rng(rng.integers(2**63)), options,
                         f"{env_id} {game.config} seed {game_seed} (agents read the {reader} state)")
        twins.append(twin)
        return twin

    run = fuzz(env_id, games, seed, configs=configs, lineup=lineup, action_budget=action_budget,
               max_steps=max_steps, make_state=make_state)
    return run, sum(t.checked for t in twins)
