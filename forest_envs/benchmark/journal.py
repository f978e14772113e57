"""A benchmark's games written down as they finish, so that a long benchmark continues where
it stopped. A search agent's 1,200 games take hours on two cores; Ctrl-C, a crash or a
machine that ends its processes would otherwise lose them all.

``forest-envs benchmark --json ENTRY`` keeps the journal ``ENTRY.games.jsonl`` beside the
entry: a first line that says which benchmark it is (``identity``), then one line per game
(the line-up's name and the game's result). Run again with the same ``--json``, the benchmark
plays only the games its journal lacks. Games are deterministic from their seeds (game ``i``
of a line-up from ``(seed, i)``: protocol.py), so the entry of a benchmark that was stopped
and continued equals the entry of one that was not, but for ``measured``. The journal is
removed once the entry is written.

A process killed while writing leaves at most its last line cut short; that line is dropped
(its game is played again). Any other line that does not read is an error, as is a journal of
another benchmark: the games of one are never counted in another.
"""

from __future__ import annotations

import dataclasses
import json
import os
from pathlib import Path

from ..core.errors import ConfigError
from ..evaluation import GameResult

JOURNAL_FORMAT = "forest_envs benchmark journal 1"
SUFFIX = ".games.jsonl"


def journal_path(entry_path: str | os.PathLike) -> Path:
    """The journal kept beside the entry ``entry_path``."""
    return Path(f"{os.fspath(entry_path)}{SUFFIX}")


class GameJournal:
    """``GameJournal(path, identity)``: the games already written in ``path`` (a journal of
    the benchmark ``identity``, or none yet), and ``write`` for each new one.

    ``identity``: what decides a benchmark's games (the env, its config, the agent and its
    file's digest, the games per line-up, the seed, the package version); the line-ups are
    not in it, so a benchmark of some line-ups continues into one of all of them."""

    def __init__(self, path: str | os.PathLike, identity: dict):
        self.path = Path(path)
        self.identity = identity
        self.played: dict[str, dict[int, GameResult]] = {}
        self.dropped_torn_line = False
        if self.path.exists():
            self._read()
        else:
            self._append({"journal": JOURNAL_FORMAT, "benchmark": identity})

    def games(self, lineup: str, games: int) -> list[GameResult]:
        """The games of ``lineup`` already played, in game order (those of index < games)."""
        played = self.played.get(lineup, {})
        return [played[i] for i in sorted(played) if i < games]

    def count(self) -> int:
        return sum(len(games) for games in self.played.values())

    def write(self, lineup: str, result: GameResult) -> None:
        """One finished game, on disk before this returns (a later kill keeps it)."""
        self._append({"lineup": lineup, "game": dataclasses.asdict(result)})
        self.played.setdefault(lineup, {})[result.index] = result

    def remove(self) -> None:
        self.path.unlink(missing_ok=True)

    # --- internals ------------------------------------------------------------------------
    def _append(self, line: dict) -> None:
        with open(self.path, "a") as f:
            f.write(json.dumps(line) + "\n")
            f.flush()

    def _read(self) -> None:
        raw = self.path.read_bytes()
        lines = raw.split(b"\n")
        # A file that does not end in a newline was cut while its last line was written.
        complete, torn = (lines[:-1], lines[-1]) if lines else ([], b"")
        if torn:
            self.dropped_torn_line = True
            with open(self.path, "r+b") as f:  # the next game starts on a line of its own
                f.truncate(len(raw) - len(torn))
        if not complete:
            raise ConfigError(f"{self.path} is no benchmark journal (it is empty); delete it to "
                              f"start the benchmark over")
        header = self._line(complete[0], 1)
        if header.get("journal") != JOURNAL_FORMAT or not isinstance(header.get("benchmark"), dict):
            raise ConfigError(f"{self.path} is no benchmark journal of this version "
                              f"({JOURNAL_FORMAT!r}); delete it to start the benchmark over")
        theirs = header["benchmark"]
        differs = [f"{key} {theirs.get(key)!r}, not {value!r}"
                   for key, value in self.identity.items() if theirs.get(key) != value]
        if differs:
            raise ConfigError(f"{self.path} holds the games of another benchmark ({'; '.join(differs)}); "
                              f"delete it, or give another --json, to start this one")
        for number, text in enumerate(complete[1:], start=2):
            line = self._line(text, number)
            try:
                result = GameResult(**line["game"])
                lineup = line["lineup"]
            except (KeyError, TypeError) as err:
                raise ConfigError(f"{self.path}, line {number}: not a game of a benchmark journal "
                                  f"({err}); delete the file to start the benchmark over") from None
            self.played.setdefault(lineup, {})[result.index] = result

    def _line(self, text: bytes, number: int) -> dict:
        try:
            line = json.loads(text)
        except ValueError as err:
            raise ConfigError(f"{self.path}, line {number}, does not read as JSON ({err}); delete "
                              f"the file to start the benchmark over") from None
        if not isinstance(line, dict):
            raise ConfigError(f"{self.path}, line {number}: expected a JSON object, got "
                              f"{type(line).__name__}; delete the file to start the benchmark over")
        return line
