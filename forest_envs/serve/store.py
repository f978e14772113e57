"""The server's tables, kept in memory and saved as they go: one JSON file per table in the
server's folder (``Table.to_json``, written whole to a temporary name and renamed, so a crash
never leaves half a file), read back when the server starts again. A table nobody has moved
at for ``keep_hours`` is abandoned: it is dropped from memory and its file deleted."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

from ..core.errors import ConfigError, ForestEnvError
from .table import MoveRefused, Table


class TableStore:
    def __init__(self, folder: str | Path | None, keep_hours: float = 72.0,
                 policies: dict[str, str] | None = None):
        """``folder``: where tables are saved (None: in memory only, for tests)."""
        if keep_hours <= 0:
            raise ConfigError(f"keep_hours must be positive, got {keep_hours}")
        self.folder = None if folder is None else Path(folder)
        self.keep_seconds = keep_hours * 3600.0
        self.policies = dict(policies or {})
        self.tables: dict[str, Table] = {}
        self.unreadable: list[str] = []     # saved files that did not load (left in place)
        if self.folder is not None:
            self.folder.mkdir(parents=True, exist_ok=True)
            self._load()

    def add(self, table: Table) -> Table:
        self.tables[table.id] = table
        self.save(table)
        return table

    def get(self, table_id: str) -> Table | None:
        return self.tables.get(table_id)

    def save(self, table: Table) -> None:
        if self.folder is None:
            return
        path = self._path(table.id)
        tmp = path.with_suffix(".json.tmp")
        tmp.write_text(json.dumps(table.to_json()))
        os.replace(tmp, path)

    def clean(self, now: float | None = None) -> list[str]:
        """Drop the abandoned tables (no move for ``keep_hours``); returns their ids."""
        now = time.time() if now is None else now
        gone = [t for t, table in self.tables.items() if now - table.updated > self.keep_seconds]
        for table_id in gone:
            del self.tables[table_id]
            if self.folder is not None:
                self._path(table_id).unlink(missing_ok=True)
        return gone

    def _path(self, table_id: str) -> Path:
        assert self.folder is not None
        return self.folder / f"{table_id}.json"

    def _load(self) -> None:
        assert self.folder is not None
        for path in sorted(self.folder.glob("*.json")):
            try:
                table = Table.from_json(json.loads(path.read_text()), policies=self.policies)
            except (OSError, ValueError, KeyError, TypeError, ForestEnvError, MoveRefused) as err:
                self.unreadable.append(f"{path.name}: {err}")
                continue
            self.tables[table.id] = table
        self.clean()
