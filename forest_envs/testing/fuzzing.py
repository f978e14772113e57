"""Fuzzing that seeks the rare: coverage of (decision kind, action block) pairs, agents that
steer play towards the pairs seen least, and a runner that checks invariants after every action.

Uniform random play reaches a game's common situations thousands of times and its rare ones
(an interrupt inside an interrupt, an option that needs three earlier choices) hardly ever:
most of its legal actions at most decisions are ordinary ones. The pieces here, for every
registered game (nothing in this module names one):

* ``Coverage``: a tally of every action taken, by the decision kind it answered and its
  action id (so by action block too), across all games of a run, with the game in which
  each pair was first reached; ``Coverage.table()`` prints it.
* Seat policies, each choosing one legal action of the state's pending decision from what
  the deciding seat knows (its mask and the public decision kind):
  ``coverage`` picks an action block with probability falling with how often that
  (decision kind, block) pair was taken in the run, then an id within the block the same
  way, and credits each pair with how rare the decisions were that followed it, so that
  the actions leading to rare decisions are taken more often (seeded, never greedy);
  ``avoid_pass`` takes any legal action that is not pass-like when one exists (see
  ``pass_blocks``); ``random`` is uniform; ``heuristic`` is the game's scripted agent.
* ``fuzz``: plays games with a line-up of these policies (rotated across the seats from
  game to game), calls a check after every action, and stops each game at its end, its
  step cap, or a budget of actions.
* ``declared_pairs`` (``coverage_docs.py``): reads a doc's ``<!-- table:decision-coverage -->`` table (decision
  kind | action blocks reachable from it), so a test can fail on a declared pair never
  reached and on a reached pair the doc does not list.

``python -m forest_envs.testing.fuzzing --env <env_id> --games 500`` prints the table (with
``--docs docs/<game>.md``: what the doc declares and was not reached, and the reverse).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..core.errors import ConfigError
from ..core.registry import game_spec
from .coverage_docs import check_declared_names, declared_pairs, markdown_table

# Block names that count as passing (declining, saying no, doing nothing more) unless a Game
# class declares its own ``pass_blocks``: a whole name, or a suffix.
PASS_NAMES = frozenset({"pass", "pause", "decline", "done", "renounce"})
PASS_SUFFIXES = ("_pass", "_none")

ROLES = ("coverage", "avoid_pass", "random", "heuristic")


def pass_blocks(game) -> frozenset[str]:
    """The action blocks of ``game`` (a Game or Game class) that pass: its ``pass_blocks``
    class attribute if it declares one, else the blocks named by ``PASS_NAMES`` or ending in
    one of ``PASS_SUFFIXES``."""
    blocks = game.action_space.blocks
    declared = getattr(game, "pass_blocks", None)
    if declared is None:
        return frozenset(name for name in blocks
                         if name in PASS_NAMES or name.endswith(PASS_SUFFIXES))
    unknown = sorted(set(declared) - set(blocks))
    if unknown:
        raise ValueError(f"{game.env_id}.pass_blocks names no action block: {unknown}")
    return frozenset(declared)


class Coverage:
    """How often each (decision kind, action id) was taken, across the games of a run.

    ``actions[k, a]``: times action ``a`` answered a decision of kind ``k``; ``pairs[k, b]``:
    the same by action block; ``first_game[k, b]``: the index of the game (counted by
    ``end_game``) in which the pair was first taken, -1 never. One tally serves every
    configuration of a game (they share the decision kinds and the action space)."""

    def __init__(self, game):
        space = game.action_space
        self.env_id = game.env_id
        self.kind_names = [k.name for k in game.state_class.DECISIONS]
        self.block_names = list(space.blocks)
        self.block_of = np.empty(space.size, np.intp)
        self.block_start = np.empty(len(self.block_names), np.intp)
        for i, block in enumerate(space.blocks.values()):
            self.block_of[block.start:block.stop] = i
            self.block_start[i] = block.start
        self.block_sizes = np.array([b.size for b in space.blocks.values()], np.intp)
        shape = (len(self.kind_names), len(self.block_names))
        self.actions = np.zeros((len(self.kind_names), space.size), np.int64)
        self.pairs = np.zeros(shape, np.int64)
        self.first_game = np.full(shape, -1, np.int64)
        self.games = 0

    def record(self, kind: int, action: int) -> None:
        b = self.block_of[action]
        self.actions[kind, action] += 1
        if not self.pairs[kind, b]:
            self.first_game[kind, b] = self.games
        self.pairs[kind, b] += 1

    def end_game(self) -> None:
        self.games += 1

    @property
    def steps(self) -> int:
        return int(self.pairs.sum())

    def reached(self) -> dict[tuple[str, str], int]:
        """(decision kind, action block) -> times taken, for every pair taken at least once."""
        return {(self.kind_names[k], self.block_names[b]): int(self.pairs[k, b])
                for k, b in zip(*np.nonzero(self.pairs))}

    def first_reached(self) -> dict[tuple[str, str], int]:
        """(decision kind, action block) -> the game in which it was first taken (0-based)."""
        return {(self.kind_names[k], self.block_names[b]): int(self.first_game[k, b])
                for k, b in zip(*np.nonzero(self.pairs))}

    def games_to_reach(self, pairs: Iterable[tuple[str, str]]) -> int | None:
        """Games played until every pair of ``pairs`` had been taken (None: some never were)."""
        first = self.first_reached()
        games = [first.get(p) for p in pairs]
        reached = [g for g in games if g is not None]
        return None if len(reached) < len(games) else max(reached, default=-1) + 1

    def compare(self, declared: dict[str, set[str]]) -> tuple[list, list]:
        """(declared pairs never taken, pairs taken that ``declared`` does not list)."""
        want = {(k, b) for k, blocks in declared.items() for b in blocks}
        got = set(self.reached())
        return sorted(want - got), sorted(got - want)

    def merge(self, other: Coverage) -> None:
        """Add another run's tally (of the same game) to this one, as if played after it."""
        if other.env_id != self.env_id:
            raise ValueError(f"cannot merge coverage of {other.env_id} into {self.env_id}")
        later = (other.first_game >= 0) & (self.first_game < 0)
        self.first_game[later] = other.first_game[later] + self.games
        self.actions += other.actions
        self.pairs += other.pairs
        self.games += other.games

    def table(self, declared: dict[str, set[str]] | None = None) -> str:
        """One line per (decision kind, action block) taken: times taken, the game that
        first took it and how many of the block's ids were taken; with ``declared``, the
        declared pairs never taken are listed too (0 times) and pairs it lacks are flagged."""
        want = {(k, b) for k, blocks in (declared or {}).items() for b in blocks}
        rows = []
        for k, kind in enumerate(self.kind_names):
            for b, block in enumerate(self.block_names):
                count = int(self.pairs[k, b])
                if not count and (kind, block) not in want:
                    continue
                lo = self.block_start[b]
                ids = int(np.count_nonzero(self.actions[k, lo:lo + self.block_sizes[b]]))
                note = ""
                if declared is not None:
                    note = "NEVER REACHED" if not count else (
                        "" if (kind, block) in want else "not in the doc")
                first = int(self.first_game[k, b])
                rows.append((kind, block, str(count), str(first + 1) if first >= 0 else "-",
                             f"{ids}/{self.block_sizes[b]}", note))
        header = ("decision kind", "action block", "times", "first game", "ids", "")
        widths = [max(len(r[i]) for r in rows + [header]) for i in range(len(header))]
        lines = [f"{self.env_id}: {self.games} games, {self.steps} actions"]
        for r in [header] + rows:
            lines.append("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip())
        return "\n".join(lines)


# --- seat policies --------------------------------------------------------------------------------
class UniformPolicy:
    """Uniform over the legal actions."""

    name = "random"

    def __init__(self, rng: np.random.Generator):
        self.rng = rng

    def choose(self, state) -> int:
        legal = np.flatnonzero(state.legal_action_mask())
        return int(legal[self.rng.integers(legal.size)])


class PassAvoidingPolicy:
    """Uniform over the legal actions that are not pass-like, when there is one."""

    name = "avoid_pass"

    def __init__(self, rng: np.random.Generator, game):
        self.rng = rng
        passing = np.zeros(game.action_space.size, bool)
        for name in pass_blocks(game):
            block = game.action_space.blocks[name]
            passing[block.start:block.stop] = True
        self.passing = passing

    def choose(self, state) -> int:
        legal = np.flatnonzero(state.legal_action_mask())
        active = legal[~self.passing[legal]]
        pool = active if active.size else legal
        return int(pool[self.rng.integers(pool.size)])


class CoveragePolicy:
    """Towards what a run has seen least: at a decision of kind ``k`` a legal block ``b`` is
    drawn with weight ``1 / (1 + pairs[k, b]) + credit * lead[k, b]``, then an id of it with
    weight ``1 / (1 + actions[k, a])``; with probability ``explore`` the action is uniform
    instead. ``lead[k, b]`` is a running mean, over the times (k, b) was taken, of how rare
    the next decision's kind was (``1 / (1 + its decisions so far)``): actions that open
    rare decisions (an interrupt, an ability) are drawn more often. All draws come from
    ``rng``; the tally is shared by every seat and game that uses the same ``coverage``."""

    name = "coverage"

    def __init__(self, rng: np.random.Generator, coverage: Coverage, explore: float = 0.1,
                 credit: float = 1.0):
        if not 0.0 <= explore <= 1.0:
            raise ValueError(f"explore must lie in [0, 1], got {explore}")
        self.rng = rng
        self.coverage = coverage
        self.explore = explore
        self.credit = credit
        self.lead = np.zeros_like(coverage.pairs, dtype=np.float64)
        self._taken = np.zeros_like(coverage.pairs)
        self._last: tuple[int, int] | None = None

    def observe(self, kind: int) -> None:
        """The next decision (of any seat) has kind ``kind`` (-1: the game ended): credit
        the pair this policy took last, if the action just taken was its."""
        if self._last is None:
            return
        k, b = self._last
        self._last = None
        if kind < 0:
            return
        seen = self.coverage.pairs[kind].sum()
        self._taken[k, b] += 1
        self.lead[k, b] += (1.0 / (1.0 + seen) - self.lead[k, b]) / self._taken[k, b]

    def choose(self, state) -> int:
        legal = np.flatnonzero(state.legal_action_mask())
        kind = state.decisions[-1].kind
        cov = self.coverage
        rng = self.rng
        if legal.size == 1:
            action = int(legal[0])
        elif rng.random() < self.explore:
            action = int(legal[rng.integers(legal.size)])
        else:
            # legal ids ascend, so each block's ids are one run of them
            owner = cov.block_of[legal]
            if owner[0] == owner[-1]:
                ids = legal
            else:
                cuts = np.flatnonzero(owner[1:] != owner[:-1]) + 1
                blocks = owner[np.concatenate(([0], cuts))]
                weights = 1.0 / (1.0 + cov.pairs[kind, blocks]) + self.credit * self.lead[kind, blocks]
                i = _draw(rng, weights)
                ids = legal[(cuts[i - 1] if i else 0):(cuts[i] if i < cuts.size else legal.size)]
            action = int(ids[_draw(rng, 1.0 / (1.0 + cov.actions[kind, ids]))] if ids.size > 1
                         else ids[0])
        self._last = (kind, int(cov.block_of[action]))
        return action


def _draw(rng: np.random.Generator, weights: np.ndarray) -> int:
    cumulative = np.cumsum(weights)
    return int(np.searchsorted(cumulative, rng.random() * cumulative[-1], side="right"))


class HeuristicPolicy:
    """The game's scripted agent, reading only its seat's view and mask of the state."""

    name = "heuristic"

    def __init__(self, rng: np.random.Generator, make_heuristic: Callable, num_players: int):
        from ..agents.search.ismcts import _StateEnv  # the env-like view of a bare state the search uses too

        self.agent = make_heuristic(seed=int(rng.integers(2**31)))
        self.env = _StateEnv(num_players)

    def choose(self, state) -> int:
        self.env.state = state
        return int(self.agent.act(self.env, self.env.possible_agents[state.current_player]))


def default_lineup(env_id: str) -> tuple[str, ...]:
    """Every role, the heuristic only for a game that has one."""
    has_heuristic = game_spec(env_id).heuristic is not None
    return tuple(r for r in ROLES if r != "heuristic" or has_heuristic)


# --- the runner ---------------------------------------------------------------------------------
@dataclass
class FuzzRun:
    """What ``fuzz`` played: games, actions, games stopped at the step cap, seconds, the tally."""

    coverage: Coverage
    games: int = 0
    actions: int = 0
    truncated: int = 0
    seconds: float = 0.0
    roles: dict = field(default_factory=dict)   # role -> actions it chose

    def summary(self) -> str:
        rate = self.actions / self.seconds if self.seconds else float("inf")
        return (f"{self.coverage.env_id}: {self.games} games ({self.truncated} at the step "
                f"cap), {self.actions} actions in {self.seconds:.1f} s ({rate:,.0f} actions/s, "
                f"{self.games / max(self.seconds, 1e-9):,.1f} games/s); actions by role: "
                + ", ".join(f"{r} {n}" for r, n in self.roles.items()))


class FuzzFailure(AssertionError):
    """A fuzzed game raised or broke a check. ``record`` holds its actions up to and
    including the one that failed: ``forest_envs.replay(record)`` raises again when applying
    it failed, and rebuilds the state the check refused otherwise."""

    def __init__(self, record: dict, game_index: int, error: BaseException):
        self.record = record
        self.error = error
        super().__init__(
            f"{record['env_id']} fuzz game {game_index} (config {record['config']}, seed "
            f"{record['seed']}) failed after {len(record['actions'])} actions: "
            f"{type(error).__name__}: {error}\nrecord: {json.dumps(record)}")


def fuzz(env_id: str, games: int, seed: int = 0, *, configs: list[dict] | None = None,
         lineup: Iterable[str] | None = None, coverage: Coverage | None = None,
         check: Callable | None = None, max_steps: int | None = None,
         action_budget: int | None = None, explore: float = 0.1,
         make_state: Callable | None = None) -> FuzzRun:
    """Play up to ``games`` games of ``env_id``, cycling through ``configs`` (default: every
    configuration of the game). Seat ``s`` of game ``g`` plays role
    ``lineup[(g + s) % len(lineup)]`` (roles: ``ROLES``; default ``default_lineup``).
    ``check(state)`` runs on the initial state and after every action. A game stops at its
    end, at ``max_steps`` actions or at the game's ``default_max_steps``, whichever is first;
    no new game starts once ``action_budget`` actions were played. Every action is tallied
    in ``coverage`` (a new one unless given), and the run is fully determined by ``seed``.
    ``make_state(game, seed, game_index)`` makes each game's first state (default:
    ``game.new_initial_state(seed)``; the differential test passes twin states)."""
    spec = game_spec(env_id)
    game_class = spec.game_class
    configs = list(configs) if configs is not None else game_class.all_configs()
    lineup = tuple(lineup) if lineup is not None else default_lineup(env_id)
    if not configs or not lineup:
        raise ConfigError("fuzz needs at least one configuration and one role")
    for role in lineup:
        if role not in ROLES:
            raise ConfigError(f"unknown fuzz role {role!r}; expected one of {ROLES}")
        if role == "heuristic" and spec.heuristic is None:
            raise ConfigError(f"{env_id} has no heuristic agent for the fuzz role 'heuristic'")
    coverage = coverage if coverage is not None else Coverage(game_class)
    rng = np.random.default_rng(seed)
    run = FuzzRun(coverage, roles={r: 0 for r in dict.fromkeys(lineup)})
    # One coverage policy per run: its credit table learns across games and seats.
    seeker = CoveragePolicy(np.random.default_rng(rng.integers(2**63)), coverage, explore)
    start = time.perf_counter()
    for g in range(games):
        if action_budget is not None and run.actions >= action_budget:
            break
        game = game_class.shared(configs[g % len(configs)])
        cap = min(max_steps or 10**9, game.default_max_steps or 10**9)
        policies = [_policy(lineup[(g + s) % len(lineup)], rng, game, spec, seeker)
                    for s in range(game.num_players)]
        game_seed = int(rng.integers(2**31))
        state = (game.new_initial_state(game_seed) if make_state is None
                 else make_state(game, game_seed, g))
        actions: list[int] = []
        try:
            if check is not None:
                check(state)
            while not state.is_terminal and len(actions) < cap:
                kind = state.decisions[-1].kind
                seeker.observe(kind)
                policy = policies[state.current_player]
                action = policy.choose(state)
                coverage.record(kind, action)
                run.roles[policy.name] += 1
                actions.append(action)
                state.apply(action)
                if check is not None:
                    check(state)
        except Exception as err:
            record = {"env_id": env_id, "config": dict(game.config), "seed": game_seed,
                      "actions": actions}
            raise FuzzFailure(record, g, err) from err
        seeker.observe(-1)  # the game ended: the last action led to no decision
        run.truncated += not state.is_terminal
        run.actions += len(actions)
        run.games += 1
        coverage.end_game()
    run.seconds = time.perf_counter() - start
    return run


def _policy(role: str, rng: np.random.Generator, game, spec, seeker: CoveragePolicy):
    if role == "coverage":
        return seeker
    sub = np.random.default_rng(rng.integers(2**63))
    if role == "avoid_pass":
        return PassAvoidingPolicy(sub, game)
    if role == "random":
        return UniformPolicy(sub)
    return HeuristicPolicy(sub, spec.heuristic, game.num_players)


# --- command line -----------------------------------------------------------------------------
def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``python -m forest_envs.testing.fuzzing`` and ``forest-envs fuzz``."""
    parser.add_argument("--env", required=True, help="a registered env id (forest-envs list)")
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--lineup", default=None,
                        help=f"comma-separated roles rotated over the seats ({', '.join(ROLES)}); "
                             "default: every role the game has")
    parser.add_argument("--max-steps", type=int, default=None,
                        help="stop each game after this many actions (default: the game's cap)")
    parser.add_argument("--docs", default=None,
                        help="a doc with a decision-coverage table to compare with (exit "
                             "status 1 when they differ)")
    parser.add_argument("--markdown", action="store_true",
                        help="also print the reached pairs as a decision-coverage table")


def command(args) -> int:
    """Run the fuzz ``args`` describe and print the coverage table (exit status 1 when the
    table differs from ``--docs`` or a game raised: then its replayable record is printed);
    bad input raises ConfigError naming it."""
    if args.games < 1:
        raise ConfigError(f"--games must be at least 1, got {args.games}")
    if args.max_steps is not None and args.max_steps < 1:
        raise ConfigError(f"--max-steps must be at least 1, got {args.max_steps}")
    game_class = game_spec(args.env).game_class
    declared = None
    if args.docs:
        try:
            declared = declared_pairs(Path(args.docs).read_text(encoding="utf-8"))
        except (OSError, ValueError) as err:
            raise ConfigError(f"--docs {args.docs}: {err}") from None
        bad = check_declared_names(game_class, declared)
        if bad:
            raise ConfigError(f"--docs {args.docs} names unknown {', '.join(bad)}")
    lineup = [r.strip() for r in args.lineup.split(",") if r.strip()] if args.lineup else None
    try:
        run = fuzz(args.env, args.games, args.seed, lineup=lineup, max_steps=args.max_steps)
    except FuzzFailure as failure:   # the engine raised: that is the finding, not bad input
        print(failure)
        return 1
    print(run.summary())
    print(run.coverage.table(declared))
    if args.markdown:
        print(markdown_table(run.coverage))
    if declared is not None:
        missing, extra = run.coverage.compare(declared)
        print(f"declared and never reached: {missing or 'none'}")
        print(f"reached and not declared: {extra or 'none'}")
        return 1 if missing or extra else 0
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m forest_envs.testing.fuzzing",
        description="Play coverage-seeking fuzz games and print (decision kind x action "
                    "block: times reached).")
    add_arguments(parser)
    args = parser.parse_args(argv)
    try:
        return command(args)
    except ConfigError as err:
        print(f"fuzzing: {err}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    import forest_envs  # noqa: F401  (registers the games)

    sys.exit(main())
