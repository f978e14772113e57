"""``forest-envs serve``: play in the browser, against bots or with other people
(``forest_envs/serve/``). It binds 127.0.0.1 unless asked for another address, prints the
lobby's address, and keeps its tables in ``--dir`` so that games survive a restart."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from ..core.errors import ConfigError
from .args import require_extra

LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")


def default_folder() -> Path:
    """Where tables are kept: $XDG_STATE_HOME/forest_envs/tables (~/.local/state/...)."""
    base = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    return Path(base) / "forest_envs" / "tables"


def parse_policies(pairs: list[str] | None) -> dict[str, str]:
    """``NAME=FILE`` pairs: policy files the lobby offers as bots by NAME (a page never names
    a file on the server's disk)."""
    from ..serve.server import BOT_NAMES
    from ..serve.table import PERSON

    out: dict[str, str] = {}
    for pair in pairs or []:
        name, eq, path = pair.partition("=")
        name = name.strip()
        if not eq or not name or not path:
            raise ConfigError(f"--policy expects NAME=FILE, got {pair!r}")
        if name in BOT_NAMES or name == PERSON or name in out:
            raise ConfigError(f"--policy name {name!r} is taken; choose another")
        if not os.path.isfile(path):
            raise ConfigError(f"--policy {name}: no file {path!r}")
        out[name] = os.path.abspath(path)
    return out


def cmd_serve(args) -> int:
    require_extra("serve")
    import uvicorn

    from ..serve.app import create_app
    from ..serve.store import TableStore

    if not 0 <= args.port <= 65535:
        raise ConfigError(f"--port must be 0..65535, got {args.port}")
    if args.pace < 0:
        raise ConfigError(f"--pace must be non-negative seconds, got {args.pace}")
    if args.keep_hours <= 0:
        raise ConfigError(f"--keep-hours must be positive, got {args.keep_hours}")
    policies = parse_policies(args.policy)
    store = TableStore(args.dir or default_folder(), keep_hours=args.keep_hours, policies=policies)
    for problem in store.unreadable:
        print(f"forest-envs: a saved table did not load and is left as it is: {problem}", file=sys.stderr)
    if args.host not in LOCAL_HOSTS:
        print(f"forest-envs: warning: serving on {args.host}: anyone who reaches this machine can "
              "set tables; seat links are secrets, but the traffic is plain HTTP", file=sys.stderr)
    shown = f"[{args.host}]" if ":" in args.host else args.host
    print(f"forest-envs serve: open http://{shown}:{args.port}/ (tables kept in {store.folder}; "
          f"{len(store.tables)} restored). Ctrl-C stops.", flush=True)
    uvicorn.run(create_app(store, pace=args.pace), host=args.host, port=args.port,
                log_level="warning")
    return 0


def add_serve_parser(sub) -> None:
    q = sub.add_parser("serve", help="play in the browser against bots or with other people")
    q.add_argument("--host", default="127.0.0.1",
                   help="address to bind (default 127.0.0.1: this machine only)")
    q.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    q.add_argument("--dir", default=None,
                   help="folder the tables are kept in (default: $XDG_STATE_HOME/forest_envs/tables)")
    q.add_argument("--pace", type=float, default=0.8,
                   help="seconds at least between two bot moves, so a person can follow (default 0.8)")
    q.add_argument("--keep-hours", type=float, default=72.0,
                   help="a table nobody moved at for this long is removed (default 72)")
    q.add_argument("--policy", action="append", metavar="NAME=FILE",
                   help="offer a policy file (.npz or SB3 .zip) as a bot named NAME (repeatable)")
    q.set_defaults(func=cmd_serve)
