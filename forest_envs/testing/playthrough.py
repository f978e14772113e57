"""Golden playthroughs: whole games kept as text, so a change that alters a game shows up in
review as a diff (the idea of OpenSpiel's integration-test playthroughs).

A playthrough file holds a header (env id, configuration, env options, seed and the agents
that chose the actions, with their seeds), then one block per action: who decides what, a
digest of each seat's observation, of the legal-action mask and of the global state, the
action by id and name, and what every other seat reads of it (``describe_action`` from that
seat: what it may not know stays hidden). Non-zero rewards, the result (ranks, scores,
breakdown, terminated or truncated) and the referee's board at the start and at the end
follow. The referee's lines show everything and say so; the per-seat lines never do.

``replay_text(text)`` rebuilds the game from a file's header, plays its recorded actions by
name and writes the text again: the file is current when the two are equal. ``generate``
plays a fresh game with the agents the header names; ``write_all`` regenerates every file.

    python -m forest_envs.testing.playthrough --write tests/playthroughs            # every game
    python -m forest_envs.testing.playthrough --write tests/playthroughs --env ID   # one env id
    python -m forest_envs.testing.playthrough --check tests/playthroughs            # replay, diff

(``forest-envs playthrough`` takes the same options; ``make playthroughs`` runs the first,
``make playthroughs ENV=ID`` the second.)
This module names no game: games come from the registry.
"""

from __future__ import annotations

import argparse
import difflib
import hashlib
import json
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

FORMAT = 1
DIGEST_BYTES = 4  # 8 hex digits: a changed vector goes unnoticed once in 4 billion
# Random players can wander for thousands of actions in a game that never forces progress;
# their playthroughs stop at this many actions (the env's own max_steps truncation, written
# in the header) so that the files stay small. The heuristic's games run to their end.
RANDOM_MAX_STEPS = 400
DIFF_LINES = 40

_STEP_LINE = re.compile(r"^(\d+) P\d+ ")
_ACTION_LINE = re.compile(r"^   P(\d+) chose (\d+) ")


@dataclass(frozen=True)
class Playthrough:
    """How one golden game is made: the game and its configuration, env options, the
    env's seed and, per seat, the agent that chooses (``forest_envs.agents`` names) with
    its own seed."""

    env_id: str
    config: dict
    seed: int
    agents: tuple[str, ...]
    agent_seeds: tuple[int, ...]
    env_options: dict = field(default_factory=dict)

    @property
    def file_name(self) -> str:
        """``<env id>/<option=value,...>.<agents>-<seed>.txt``: one file per game, named by
        what makes it, so a configuration's files sort together."""
        options = ",".join(f"{k}={json.dumps(v)}" for k, v in self.config.items()) or "default"
        kinds = sorted(set(self.agents))
        who = kinds[0] if len(kinds) == 1 else "+".join(self.agents)
        return f"{self.env_id}/{options}.{_slug(who)}-{self.seed}.txt"


def _slug(text: str) -> str:
    return re.sub(r"[^\w=+.-]+", "_", text)


def default_playthroughs(env_ids=None) -> list[Playthrough]:
    """The golden set: for every shipped configuration (``Game.all_configs()``) of every
    game, one game of random players (seed 1, stopped after ``RANDOM_MAX_STEPS`` actions
    if it has not ended) and, for a game with a heuristic agent, one game of heuristic
    players (seed 2, played to the end or to the game's own truncation); without a
    heuristic, a second random game (seed 2)."""
    from .. import ENV_IDS
    from ..core.registry import game_spec

    out = []
    for env_id in ENV_IDS if env_ids is None else env_ids:
        spec = game_spec(env_id)
        for config in spec.game_class.all_configs():
            n = spec.game_class.shared(config).num_players
            default = spec.game_class.default_max_steps
            cap = RANDOM_MAX_STEPS if default is None else min(default, RANDOM_MAX_STEPS)
            out.append(Playthrough(env_id, dict(config), 1, ("random",) * n,
                                   tuple(1000 + s for s in range(n)), {"max_steps": cap}))
            second = "heuristic" if spec.heuristic is not None else "random"
            options = {} if second == "heuristic" else {"max_steps": cap}
            out.append(Playthrough(env_id, dict(config), 2, (second,) * n,
                                   tuple(2000 + s for s in range(n)), options))
    return out


# --- writing a game ---------------------------------------------------------------------------

def _digest(array: np.ndarray) -> str:
    return hashlib.blake2b(np.ascontiguousarray(array).tobytes(), digest_size=DIGEST_BYTES).hexdigest()


def seat_label(i: int) -> str:
    """A seat as a playthrough names it: P0, P1, ..."""
    return f"P{i}"


def _number(x: float) -> str:
    return f"{float(x):+.6g}"


def _plain(value):
    """JSON's default for the numpy scalars a game's breakdown may hold."""
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.floating):
        return float(value)
    if isinstance(value, np.bool_):
        return bool(value)
    raise TypeError(f"a playthrough cannot write {type(value).__name__} {value!r}")


def dump(value) -> str:
    """Plain data as a playthrough writes it: JSON, keys sorted."""
    return json.dumps(value, sort_keys=True, default=_plain)


class _Mismatch(Exception):
    """A recorded action that the game no longer takes: the text says so at that step."""


def _header(pt: Playthrough, env) -> list[str]:
    game = env.game
    t = game.traits
    limit = env.steps_left()
    ends = "never truncated" if limit is None else f"truncated after {limit} actions (max_steps)"
    return [
        f"# Golden playthrough (format {FORMAT}): one whole game, replayed by "
        "tests/test_playthroughs.py.",
        "# Regenerate every file: make playthroughs  (one env id: make playthroughs ENV=<env id>)",
        f"env_id: {json.dumps(pt.env_id)}",
        f"config: {dump(pt.config)}",
        f"env_options: {dump(pt.env_options)}",
        f"seed: {pt.seed}",
        f"agents: {json.dumps(list(pt.agents))}",
        f"agent_seeds: {json.dumps(list(pt.agent_seeds))}",
        "# The actions were chosen by these agents (forest_envs.agents.make_agent(env_id, agent, "
        "seed), one per seat), each through the public env API only.",
        f"# game: {t.name}; {game.num_players} players; chance {t.chance}; hidden information "
        f"{t.hidden_information}; scores {t.has_scores}; {game.num_actions} actions; observation "
        f"{game.observation_size} floats; {ends}",
        "# Each action is two lines or more:",
        "#   <step> P<seat> <decision kind>(<what it carries>) | turn P<t> | legal <count> <mask digest> "
        "| state <digest> | obs <digest per seat, P0 first>",
        "#      P<seat> chose <id> \"<name>\"   (the name as its actor and the referee know it)",
        "#      <seats> read \"<text>\"   (describe_action as those seats may read it)",
        "#      rewards ...   (only when one is not zero)",
        "# Digests are the first 8 hex digits of BLAKE2b over the float32 observation, the int8 mask "
        "and the float32 global state (env.state(), which holds hidden information).",
    ]


def _board(env, when: str) -> list[str]:
    try:
        text = env.render_text(None)
    except NotImplementedError:
        return [f"referee's board {when}: the game draws no board text"]
    return [f"referee's board {when} (the referee sees everything, hidden information included):"] + [
        f"  | {line}".rstrip() for line in text.splitlines()]


def _position(env) -> str:
    state = env.engine_state
    view = state.decision_view()
    data = ",".join(f"{k}={v}" for k, v in view["data"].items())
    kind = view["kind"] + (f"({data})" if data else "")
    mask = state.legal_action_mask()
    obs = " ".join(_digest(env.observe(a)["observation"]) for a in env.possible_agents)
    return (f"{env.num_steps} {seat_label(view['player'])} {kind} | turn {seat_label(state.turn_player)} | "
            f"legal {int(mask.sum())} {_digest(mask)} | state {_digest(env.state())} | obs {obs}")


def _action_lines(env, actor: str, action: int) -> list[str]:
    me = env.possible_agents.index(actor)
    lines = [f"   {seat_label(me)} chose {action} {json.dumps(env.action_to_string(action))}"]
    readers: dict[str, list[str]] = {}
    for i, other in enumerate(env.possible_agents):
        if i != me:
            readers.setdefault(env.describe_action(action, other), []).append(seat_label(i))
    for text, seats in readers.items():
        verb = "reads" if len(seats) == 1 else "read"
        lines.append(f"   {' '.join(seats)} {verb} {json.dumps(text)}")
    return lines


def _ending(env) -> list[str]:
    truncated = any(env.truncations.values())
    how = "truncated (max_steps reached; nobody wins)" if truncated else "terminated by the rules"
    obs = " ".join(_digest(env.observe(a)["observation"]) for a in env.possible_agents)
    lines = [f"end after {env.num_steps} actions: {how} | state {_digest(env.state())} | obs {obs}"]
    infos = [env.infos[a] for a in env.possible_agents]
    lines.append("ranks: " + ", ".join(f"{seat_label(i)} {info['rank']}" for i, info in enumerate(infos)))
    if env.game.traits.has_scores:
        lines.append("scores: " + ", ".join(f"{seat_label(i)} {info['score']}" for i, info in enumerate(infos)))
    lines.append("winners: " + (", ".join(seat_label(i) for i, info in enumerate(infos) if info["winner"])
                                or "none"))
    state = env.engine_state
    if state.is_terminal:
        for mode in env.game.traits.reward_modes:
            returns = state.returns(mode)
            lines.append(f"returns ({mode}): " + ", ".join(
                f"{seat_label(i)} {_number(r)}" for i, r in enumerate(returns)))
    for i, info in enumerate(infos):
        lines.append(f"breakdown {seat_label(i)}: {dump(info['breakdown'])}")
    return lines


def _over(env) -> bool:
    return any(env.terminations.values()) or any(env.truncations.values())


def _play(pt: Playthrough, choose: Callable, on_step: Callable | None = None) -> list[str]:
    """The text of ``pt``'s game with ``choose(env, agent, step)`` picking each action;
    ``on_step(env)`` (tests) sees every position before its action. A ``_Mismatch`` from
    ``choose`` ends the text with a line that says what went wrong."""
    from ..envs.registration import make_raw

    env = make_raw(pt.env_id, **pt.config, **pt.env_options)
    env.reset(seed=pt.seed)
    lines = _header(pt, env) + _board(env, "at the start")
    while not _over(env):
        lines.append(_position(env))
        agent = env.agent_selection
        try:
            action = choose(env, agent, env.num_steps)
        except _Mismatch as err:
            lines.append(f"!! {err}")
            return lines
        if on_step is not None:
            on_step(env)
        lines += _action_lines(env, agent, action)
        env.step(action)
        if any(env.rewards.values()):
            lines.append("   rewards " + " ".join(
                f"{seat_label(i)} {_number(env.rewards[a])}" for i, a in enumerate(env.possible_agents)))
    lines += _ending(env) + _board(env, "at the end")
    try:
        choose(env, None, env.num_steps)  # a replay says whether recorded actions are left over
    except _Mismatch as err:
        lines.append(f"!! {err}")
    return lines


def generate(pt: Playthrough) -> str:
    """A fresh game of ``pt``: its agents choose every action."""
    from ..agents import make_agent

    agents = {f"player_{i}": make_agent(pt.env_id, kind, seed=seed)
              for i, (kind, seed) in enumerate(zip(pt.agents, pt.agent_seeds))}
    if len(agents) != _num_players(pt):
        raise ValueError(f"{pt.file_name}: {len(agents)} agents for {_num_players(pt)} seats")

    def choose(env, agent, step):
        return None if agent is None else int(agents[agent].act(env, agent))

    return "\n".join(_play(pt, choose)) + "\n"


def _num_players(pt: Playthrough) -> int:
    from ..core.registry import game_spec

    return game_spec(pt.env_id).game_class.shared(pt.config).num_players


# --- reading a file back ----------------------------------------------------------------------

_HEADER_KEYS = ("env_id", "config", "env_options", "seed", "agents", "agent_seeds")


def parse(text: str) -> tuple[Playthrough, list[tuple[int, int, str]]]:
    """A file's header and its recorded actions as (seat, id, name)."""
    fields: dict[str, Any] = {}
    actions = []
    in_body = False
    for number, line in enumerate(text.splitlines(), 1):
        in_body = in_body or bool(_STEP_LINE.match(line))
        key, sep, value = line.partition(": ")
        if not in_body and sep and key in _HEADER_KEYS:
            try:
                fields[key] = json.loads(value)
            except json.JSONDecodeError:
                raise ValueError(f"line {number}: {key} is not JSON: {value!r}") from None
            continue
        m = _ACTION_LINE.match(line)
        if m:
            try:
                name, _ = json.JSONDecoder().raw_decode(line, m.end())
            except json.JSONDecodeError:
                raise ValueError(f"line {number}: the action's name is not a JSON string: {line!r}") from None
            actions.append((int(m.group(1)), int(m.group(2)), name))
    missing = [k for k in _HEADER_KEYS if k not in fields]
    if missing:
        raise ValueError(f"the playthrough header lacks {', '.join(missing)}")
    pt = Playthrough(fields["env_id"], fields["config"], fields["seed"], tuple(fields["agents"]),
                     tuple(fields["agent_seeds"]), fields["env_options"])
    return pt, actions


def replay_text(text: str, on_step: Callable | None = None) -> str:
    """The text a file's recorded actions give now: equal to the file when the game has not
    changed. Actions are looked up by name (``string_to_action``), so renumbered ids show
    as a diff of ids, not as a different game."""
    pt, recorded = parse(text)

    def choose(env, agent, step):
        if agent is None:
            if step < len(recorded):
                raise _Mismatch(f"the game ended after {step} actions; the file records "
                                f"{len(recorded) - step} more")
            return None
        if step >= len(recorded):
            raise _Mismatch(f"step {step}: the file's actions end here, the game goes on")
        seat, _, name = recorded[step]
        try:
            action = env.string_to_action(name)
        except Exception as err:  # the game's own error names the problem
            raise _Mismatch(f"step {step}: recorded action {name!r}: {err}") from None
        if not env.action_mask(agent)[action]:
            raise _Mismatch(f"step {step}: recorded action {name!r} ({action}) is not legal now "
                            f"for {seat_label(env.possible_agents.index(agent))}")
        return action

    return "\n".join(_play(pt, choose, on_step)) + "\n"


def first_difference(expected: str, actual: str) -> str | None:
    """Where two playthrough texts first differ ("step 17", "the header", "the end"), or None."""
    a, b = expected.splitlines(), actual.splitlines()
    for i in range(max(len(a), len(b))):
        if i >= len(a) or i >= len(b) or a[i] != b[i]:
            for line in reversed(a[:i + 1]):
                m = _STEP_LINE.match(line)
                if m:
                    return f"step {m.group(1)}"
                if line.startswith("end after"):
                    return "the end"
            return "the header or the starting board"
    return None


def diff_report(name: str, expected: str, actual: str, lines: int = DIFF_LINES) -> str | None:
    """None when equal; else which file differs, from which step, and the first ``lines``
    lines of a unified diff (the file against what its actions give now)."""
    where = first_difference(expected, actual)
    if where is None:
        return None
    diff = list(difflib.unified_diff(expected.splitlines(), actual.splitlines(), fromfile=name,
                                     tofile=f"{name} (replayed now)", lineterm="", n=2))
    more = f"\n... ({len(diff) - lines} more diff lines)" if len(diff) > lines else ""
    return (f"{name}: the game differs from its golden playthrough, first at {where}. If the "
            "change is intended, regenerate: make playthroughs\n" + "\n".join(diff[:lines]) + more)


def check_file(path: Path, root: Path | None = None) -> str | None:
    """``diff_report`` of one file against a replay of its actions."""
    expected = path.read_text(encoding="utf-8")
    name = str(path.relative_to(root)) if root is not None else str(path)
    return diff_report(name, expected, replay_text(expected))


# --- the whole set ----------------------------------------------------------------------------

def write_all(folder, env_ids=None, progress=None) -> tuple[list[Path], list[Path]]:
    """Regenerate the golden set (every shipped game, or ``env_ids``) into ``folder``; files
    of those env ids that the set no longer makes are deleted. Returns (written, deleted)."""
    folder = Path(folder)
    playthroughs = default_playthroughs(env_ids)
    written = []
    for pt in playthroughs:
        path = folder / pt.file_name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(generate(pt), encoding="utf-8")
        written.append(path)
        if progress:
            progress(path)
    envs = {pt.env_id for pt in playthroughs}
    keep = set(written)
    deleted = [p for env_id in sorted(envs) for p in sorted((folder / env_id).glob("*.txt"))
               if p not in keep]
    for p in deleted:
        p.unlink()
    return written, deleted


def golden_files(folder) -> list[Path]:
    return sorted(Path(folder).glob("*/*.txt"))


def add_arguments(parser: argparse.ArgumentParser) -> None:
    what = parser.add_mutually_exclusive_group(required=True)
    what.add_argument("--write", metavar="DIR", help="regenerate the golden playthroughs into DIR "
                      "(e.g. tests/playthroughs); stale files of those env ids are deleted")
    what.add_argument("--check", metavar="DIR", help="replay every file in DIR and print a diff "
                      "where a game differs (exit status 1)")
    parser.add_argument("--env", action="append", metavar="ENV_ID",
                        help="only this env id (repeatable; default: every shipped game)")


def run(args) -> int:
    from ..core.registry import game_spec

    for env_id in args.env or ():
        game_spec(env_id)  # an unknown id: ConfigError naming the valid ones
    if args.write:
        written, deleted = write_all(args.write, args.env)
        size = sum(p.stat().st_size for p in written)
        print(f"wrote {len(written)} playthroughs ({size / 1024:.0f} KB) to {args.write}")
        for p in deleted:
            print(f"deleted {p} (no longer made)")
        return 0
    root = Path(args.check)
    files = [p for p in golden_files(root) if not args.env or p.parent.name in args.env]
    if not files:
        print(f"no playthroughs in {root}", file=sys.stderr)
        return 1
    bad = [r for r in (check_file(p, root) for p in files) if r]
    for report in bad:
        print(report + "\n")
    print(f"{len(files) - len(bad)} of {len(files)} playthroughs match")
    return 1 if bad else 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m forest_envs.testing.playthrough",
                                     description=__doc__.split("\n\n")[0])
    add_arguments(parser)
    args = parser.parse_args(argv)
    from ..core.errors import ForestEnvError

    try:
        return run(args)
    except ForestEnvError as err:  # bad input (an unknown env id): one line, as the CLI says it
        print(f"{parser.prog}: {err}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
