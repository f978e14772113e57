"""A recorded game as one self-contained HTML file (``forest-envs replay RECORD --html OUT``).

The record (what ``env.record()``, ``rollout --records`` and ``evaluate --records`` write) is
replayed through the registry's ``replay``, so every position is exactly the game's. For each
position (the start and after every action) and each chosen view (the referee, ``None``, and
each seat) the file holds the game's picture (``state.picture(seat)``), or its text
(``state.render(seat)``) for a game without pictures, and each move's line as that view may
read it: the move and what it did (``after.narrate(before, action, seat)``, which leaves out
what the seat may not know). A seat's view is drawn from ``state.view(seat)`` alone, so what
the seat may not know is not in the file for that view (only the referee sees everything).
A replay is watched, not played: no seat is "(you)" in it.

Speed: a picture is drawn only for a (view, view data) not drawn before, and each view's data is
computed once; the drawing itself is fast because ``drawing/cache.py`` keeps what every
picture draws again (texts, boxes, stamps); on idle cores, forked workers draw the pictures
(``workers``; the page is the same byte for byte). A bar on stderr shows the drawing
(``progress``).

Size: the pictures are cut into square tiles; every distinct tile is stored once (the tiles of
most positions and of the different views are the same), packed into a few sheets that are
encoded as PNG (optionally quantised to a palette first, ``colors``), and each frame is the
list of tiles that differ from an earlier frame of the same view. The page draws the tiles on
a canvas; no network, no external file, works from ``file://``.
"""

from __future__ import annotations

import base64
import io
import json
import os
import sys
from dataclasses import dataclass, field

import numpy as np

from ..core.errors import ConfigError, ForestEnvError
from ..core.presentation import SPECTATOR
from ..envs.outcome import UNFINISHED
from .page import render_html
from .pool import draw_in_pool, worker_count

REFEREE = "referee"
TILE = 48                # tile side in pixels (after scaling)
SHEET_COLUMNS = 32       # tiles per row of a sheet
SHEET_ROWS = 48          # rows of tiles per sheet (a sheet is at most 1536 x 2304 pixels)


# --- reading records ------------------------------------------------------------------------------
def read_records(path: str) -> list[dict]:
    """Every game record in ``path``: JSON lines (one record per line, as ``rollout --records``
    writes), one JSON record, or a JSON list of records. Anything else is a ConfigError."""
    if not os.path.exists(path):
        raise ConfigError(f"record file {path!r} does not exist")
    if os.path.isdir(path):
        raise ConfigError(f"record file {path!r} is a folder; give a file")
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError) as err:
        raise ConfigError(f"cannot read record file {path!r}: {err}") from None
    if not text.strip():
        raise ConfigError(f"{path!r} is empty; expected game records (JSON lines)")
    try:
        whole = json.loads(text)
    except json.JSONDecodeError:
        whole = None
        records = []
        for number, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                records.append(json.loads(line))
            except json.JSONDecodeError:
                raise ConfigError(f"{path!r} is not a game record: line {number} is not JSON") from None
    else:
        records = whole if isinstance(whole, list) else [whole]
    for i, rec in enumerate(records):
        if not (isinstance(rec, dict) and {"env_id", "seed", "actions"} <= set(rec)
                and isinstance(rec["actions"], list)):
            where = f"game {i}" if len(records) > 1 else "its content"
            raise ConfigError(f"{path!r} is not a game record ({where} lacks 'env_id', 'seed' "
                              "and a list of 'actions')")
    if not records:
        raise ConfigError(f"{path!r} holds no game record")
    return records


def load_record(path: str, game: int = 0) -> dict:
    """Game number ``game`` (0 = the first) of a record file."""
    records = read_records(path)
    if not 0 <= game < len(records):
        raise ConfigError(f"--game {game}: {path!r} holds {len(records)} game(s), "
                          f"so --game must be 0..{len(records) - 1}")
    return records[game]


def parse_views(text: str | None, num_players: int) -> list[int | None]:
    """``referee,0,2,spectator`` -> [None, 0, 2, SPECTATOR]; None or ``all``: the referee, every seat."""
    if text is None or text.strip() == "all":
        return [None] + list(range(num_players))
    views: list[int | None] = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        if part.lower() in (REFEREE, "ref"):
            view = None
        elif part.lower() == "spectator":
            view = SPECTATOR
        else:
            seat = part[1:] if part[:1] in "pP" else part
            if not seat.isdigit() or int(seat) >= num_players:
                raise ConfigError(f"--views: {part!r} is not a view; give 'referee', 'spectator' or "
                                  f"seats 0..{num_players - 1}, comma-separated")
            view = int(seat)
        if view not in views:
            views.append(view)
    if not views:
        raise ConfigError("--views lists no view; give e.g. referee,0,1")
    return views


# --- replaying: positions and what each view sees -------------------------------------------------
@dataclass
class Position:
    step: int                      # 0 = the start; k = after the k-th action
    actor: int | None              # seat that made the action leading here (None at the start)
    texts: dict                    # view -> the move's line as that view may read it ('' at the start)


@dataclass
class Replay:
    record: dict
    env_id: str
    num_players: int
    views: list
    states: list = field(repr=False)          # engine state at every position (clones)
    positions: list = field(default_factory=list)
    result: str = ""


def replay_positions(record: dict, views: str | list | None = None) -> Replay:
    """Replay ``record`` through the registry's ``replay`` and keep every position, with each
    move narrated for each chosen view."""
    from ..core.registry import game_spec
    from ..envs.registration import replay

    if not isinstance(record, dict) or not {"env_id", "seed", "actions"} <= set(record):
        raise ConfigError("not a game record: it needs 'env_id', 'seed' and 'actions'")
    game_spec(record["env_id"])  # an unknown env id: ConfigError naming the valid ones
    try:
        replay(record)  # the whole record must replay (no action after the end, none illegal)
        env = replay(dict(record, actions=[]))
    except ForestEnvError as err:
        raise ConfigError(f"the record does not replay: {err}") from None
    except (ValueError, TypeError, KeyError) as err:
        raise ConfigError(f"the record does not replay: {err}") from None
    raw = env.unwrapped
    state = raw.engine_state
    n = raw.game.num_players
    chosen = views if isinstance(views, list) else parse_views(views, n)
    out = Replay(record, record["env_id"], n, chosen, [state.clone()])
    out.positions.append(Position(0, None, {v: "" for v in chosen}))
    for k, action in enumerate(record["actions"], 1):
        before = out.states[-1]               # a clone of the state the action is taken in
        actor = before.current_player
        legal = _legal(before, action)
        env.step(action)
        after = raw.engine_state
        if legal:
            texts = {v: after.narrate(before, int(action), v) for v in chosen}
        else:  # kept in the record under illegal_action="penalize": it ends the game
            texts = {v: f"illegal action {action!r}: the game ends" for v in chosen}
        out.states.append(after.clone())
        out.positions.append(Position(k, actor, texts))
    out.result = _result_text(raw)
    return out


def _legal(state, action) -> bool:
    if isinstance(action, bool) or not isinstance(action, (int, np.integer)):
        return False
    mask = state.legal_action_mask()
    return bool(0 <= action < len(mask)) and bool(mask[action])


def _result_text(raw) -> str:
    end = raw.outcome()
    cut_short = end.cut_short()
    if cut_short is not None:
        return cut_short
    if end.ending == UNFINISHED:
        return "The record ends before the game does."
    places = ", ".join(f"P{p.seat} {'wins' if p.rank == 1 else _ordinal(p.rank)}"
                       + ("" if p.total is None else f" ({p.total})") for p in end.places)
    return f"Game over: {places}"


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


# --- pictures: tiles, sheets and frames -----------------------------------------------------------
def _view_key(data):
    try:
        return json.dumps(data, sort_keys=True, default=_plain)
    except (TypeError, ValueError):
        return None


def _plain(x):
    if isinstance(x, np.ndarray):
        return x.tolist()
    if isinstance(x, np.generic):
        return x.item()
    if isinstance(x, (set, frozenset)):
        return sorted(x, key=repr)
    raise TypeError(type(x).__name__)


def _painter(state):
    """``paint(state, view, data)``: the picture of ``view`` whose ``state.view(view)`` is
    ``data``; from ``data`` itself (no second ``view`` call) unless the game draws its pictures
    some other way than the engine's ``picture``."""
    from ..core.state import BufferState

    if type(state).picture is BufferState.picture:
        module = type(state).picture_module()
        return lambda _state, _view, data: module.picture(data)
    return lambda state, view, _data: state.picture(view)


class _Tiler:
    """Cuts pictures into tiles, keeps each distinct tile once, and describes each frame by its
    differences from an earlier frame (``base``)."""

    def __init__(self, shape: tuple[int, int], tile: int):
        self.h, self.w = shape
        self.tile = tile
        self.rows, self.cols = -(-self.h // tile), -(-self.w // tile)
        self.tiles: list[np.ndarray] = []
        self.index: dict[bytes, int] = {}
        self.frames: list[tuple[int, list[int]]] = []   # (base frame or -1, [cell, tile, ...])
        self.maps: list[np.ndarray] = []                # tile id per cell, per frame
        self.last: dict = {}                            # lane -> (frame, as words, pixels)
        self.spare: dict = {}                           # lane -> a buffer free for its next frame
        # a tile's row of pixels compared as whole machine words (8, 4 or 1 bytes at a time)
        self.word = next(np.dtype(w) for w in (np.uint64, np.uint32, np.uint8)
                         if tile * 3 % np.dtype(w).itemsize == 0)

    def _pad(self, image: np.ndarray, lane) -> np.ndarray:
        """``image`` padded to whole tiles, in the buffer ``lane``'s frame before last used
        (two buffers per lane, reused: fresh memory for every frame was a good part of the
        cost)."""
        t = self.tile
        spare = self.spare.pop(lane, None)
        padded = spare if spare is not None else np.zeros((self.rows * t, self.cols * t, 3), np.uint8)
        padded[: self.h, : self.w] = image
        return padded

    def _tile_id(self, padded: np.ndarray, r: int, c: int) -> int:
        t = self.tile
        tile = padded[r * t:(r + 1) * t, c * t:(c + 1) * t]
        key = tile.tobytes()
        found = self.index.get(key)
        if found is None:
            found = self.index[key] = len(self.tiles)
            self.tiles.append(tile.copy())
        return found

    def add(self, image: np.ndarray, lane) -> int:
        """A new frame, described by its differences from the last frame added in ``lane``
        (one lane per view; only that frame's pixels are kept)."""
        padded = self._pad(image, lane)
        t = self.tile
        words = padded.reshape(self.rows, t, -1).view(self.word).reshape(self.rows, t, self.cols, -1)
        base, before, before_pixels = self.last.get(lane, (-1, None, None))
        if base >= 0:
            changed = (words != before).any(axis=(1, 3))
            ids = self.maps[base].copy()
        else:
            changed = np.ones((self.rows, self.cols), bool)
            ids = np.zeros((self.rows, self.cols), np.int64)
        diff: list[int] = []
        for r, c in zip(*np.nonzero(changed)):
            ids[r, c] = self._tile_id(padded, r, c)
            diff += [int(r * self.cols + c), int(ids[r, c])]
        self.frames.append((base, diff))
        self.maps.append(ids)
        self.last[lane] = (len(self.frames) - 1, words, padded)
        if before_pixels is not None:
            self.spare[lane] = before_pixels
        return len(self.frames) - 1

    def changed_tiles(self, image: np.ndarray) -> list[tuple[int, bytes]]:
        """The (cell, tile bytes) of ``image`` that differ from the image given before (all of
        them the first time), in the order of the cells; nothing is kept but that image."""
        padded = self._pad(image, None)
        t = self.tile
        words = padded.reshape(self.rows, t, -1).view(self.word).reshape(self.rows, t, self.cols, -1)
        before = self.last.get(None)
        if before is not None:
            changed = (words != before[0]).any(axis=(1, 3))
            self.spare[None] = before[1]
        else:
            changed = np.ones((self.rows, self.cols), bool)
        self.last[None] = (words, padded)
        return [(int(r * self.cols + c), padded[r * t:(r + 1) * t, c * t:(c + 1) * t].tobytes())
                for r, c in zip(*np.nonzero(changed))]

    def add_cells(self, cells: list[tuple[int, bytes]], lane) -> int:
        """A new frame from ``changed_tiles``' answer for it (its cells that may differ from the
        last frame of ``lane``; every cell for the lane's first), described as ``add`` does."""
        base = self.last.get(lane, -1)
        t = self.tile
        ids = self.maps[base].copy() if base >= 0 else np.zeros((self.rows, self.cols), np.int64)
        diff: list[int] = []
        for cell, raw in cells:
            found = self.index.get(raw)
            if found is None:
                found = self.index[raw] = len(self.tiles)
                self.tiles.append(np.frombuffer(raw, np.uint8).reshape(t, t, 3))
            r, c = divmod(cell, self.cols)
            if base < 0 or ids[r, c] != found:
                ids[r, c] = found
                diff += [cell, found]
        self.frames.append((base, diff))
        self.maps.append(ids)
        self.last[lane] = len(self.frames) - 1
        return len(self.frames) - 1

    def sheets(self, colors: int | None) -> list[str]:
        """The distinct tiles packed in PNG sheets, as data URLs."""
        from PIL import Image

        t, per = self.tile, SHEET_COLUMNS * SHEET_ROWS
        urls = []
        for start in range(0, len(self.tiles), per):
            chunk = self.tiles[start: start + per]
            rows = -(-len(chunk) // SHEET_COLUMNS)
            sheet = np.zeros((rows * t, min(len(chunk), SHEET_COLUMNS) * t, 3), np.uint8)
            for i, tile in enumerate(chunk):
                r, c = divmod(i, SHEET_COLUMNS)
                sheet[r * t:(r + 1) * t, c * t:(c + 1) * t] = tile
            image = Image.fromarray(sheet)
            if colors:
                image = image.quantize(colors, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
            buf = io.BytesIO()
            image.save(buf, "PNG", optimize=True)
            urls.append("data:image/png;base64," + base64.b64encode(buf.getvalue()).decode("ascii"))
        return urls


def build_data(rep: Replay, colors: int | None = None, tile: int = TILE, progress: bool = False,
               workers: int | None = None) -> dict:
    """Everything the page needs, as JSON-ready data (``progress``: a bar on stderr while the
    pictures are drawn; ``workers``: processes drawing the pictures, see ``pool.worker_count``;
    the data is the same whatever their number)."""
    from ..drawing.seats import watched

    state0 = rep.states[0]
    pictured = type(state0).has_picture()
    labels = _labels(rep)
    data = {
        "env_id": rep.env_id, "seed": rep.record.get("seed"), "num_players": rep.num_players,
        "steps": len(rep.positions) - 1, "result": rep.result,
        "views": [{"id": REFEREE if v is None else str(v), "label": labels[v]} for v in rep.views],
        "actor": [p.actor for p in rep.positions],
    }
    # Move lines: a table of distinct strings; per position, one index per view.
    strings: dict[str, int] = {}
    data["text"] = [[strings.setdefault(p.texts[v], len(strings)) for v in rep.views] for p in rep.positions]
    frame_of: list[list[int]] = []          # per position, per view: the frame
    _keep_freed_memory()
    if pictured:
        h, w, _ = state0.picture_shape()
        tiler = _Tiler((h, w), tile)
        paint = _painter(state0)
        with watched():                       # nobody plays a replay: no seat is "(you)"
            jobs, frame_of = _frame_jobs(rep)
            count = worker_count(workers, len(jobs))
            bar = _bar(len(jobs), progress, f"{rep.env_id}: drawing {len(jobs)} pictures"
                       + (f" in {count} processes" if count > 1 else ""))
            if count > 1:
                draw_in_pool(tiler, paint, jobs, count, bar)
            else:
                for state, v, view_data in jobs:
                    tiler.add(paint(state, v, view_data), v)
                    bar.update()
        bar.set_description(f"{rep.env_id}: packing {len(tiler.tiles)} tiles")
        data.update(mode="picture", width=w, height=h, tile=tile, cols=tiler.cols, rows=tiler.rows,
                    sheet_columns=SHEET_COLUMNS, sheet_tiles=SHEET_COLUMNS * SHEET_ROWS,
                    sheets=tiler.sheets(colors), frames=tiler.frames, tiles=len(tiler.tiles))
    else:
        bar = _bar(len(rep.states), progress, f"{rep.env_id}: drawing {len(rep.views)} views")
        pages: dict[str, int] = {}
        with watched():
            for state in rep.states:
                frame_of.append([pages.setdefault(state.render(v), len(pages)) for v in rep.views])
                bar.update()
        data.update(mode="text", pages=list(pages))
    bar.close()
    data["frame"] = frame_of
    data["strings"] = list(strings)
    return data


def _frame_jobs(rep: Replay):
    """The pictures to draw, in order, as (state, view, view data), and per position and view
    the frame (the index of its picture): a picture only for a (view, view data) not seen
    before, each view's data computed once."""
    jobs: list[tuple] = []
    seen: dict[tuple, int] = {}
    frame_of: list[list[int]] = []
    for state in rep.states:
        row = []
        for v in rep.views:
            view_data = state.view(v)
            key = _view_key(view_data)
            frame = seen.get((v, key)) if key is not None else None
            if frame is None:
                frame = len(jobs)
                jobs.append((state, v, view_data))
                if key is not None:
                    seen[(v, key)] = frame
            row.append(frame)
        frame_of.append(row)
    return jobs, frame_of


def _keep_freed_memory() -> None:
    """Each picture allocates and frees a few megabytes (the image, its pixels); glibc's malloc
    handed such blocks back to the system and faulted them in again for the next picture
    (half a million page faults, a third of the CPU time, for a 150-move game). Freeing one
    24 MB block raises its threshold for handing memory back above that (glibc adapts it to
    the largest block freed, up to 32 MB), so the pictures' blocks are reused; elsewhere it is
    a harmless allocation. ``np.empty`` touches no page of it."""
    block = np.empty(24 << 20, np.uint8)
    del block


class _NoBar:
    def update(self, n: int = 1) -> None:
        pass

    def set_description(self, text: str) -> None:
        pass

    def close(self) -> None:
        pass


def _bar(total: int, progress: bool, what: str):
    """A progress bar on stderr over the positions (nothing when ``progress`` is false)."""
    if not progress:
        return _NoBar()
    from tqdm import tqdm

    return tqdm(total=total, unit="position", desc=what, leave=False, file=sys.stderr)


def _labels(rep: Replay) -> dict:
    agents = rep.record.get("agents")
    labels: dict[int | None, str] = {}
    for v in rep.views:
        if v is None:
            labels[v] = "referee (sees everything)"
        elif v == SPECTATOR:   # what every seat sees
            labels[v] = "spectator (what every seat sees)"
        else:
            who = f" ({agents[v]})" if isinstance(agents, list) and v < len(agents) else ""
            labels[v] = f"P{v}{who}"
    return labels


def replay_html(record: dict, views: str | list | None = None, colors: int | None = None,
                title: str | None = None, progress: bool = False, workers: int | None = None) -> str:
    """The HTML page replaying ``record``: ``views`` as ``parse_views`` takes them (default:
    the referee and every seat); ``colors``: the pictures' palette size (None or 0:
    lossless); ``workers``: processes drawing the pictures (None: automatic, 1: this one)."""
    if colors is not None and not (colors == 0 or 2 <= colors <= 256):
        raise ConfigError(f"--colors must be 2..256 (or 0: lossless), got {colors}")
    rep = replay_positions(record, views)
    data = build_data(rep, colors=colors, progress=progress, workers=workers)
    if title is None:
        title = f"{rep.env_id}, seed {rep.record.get('seed')}: {data['steps']} moves"
    return render_html(data, title)


def write_replay_html(record: dict, path: str, **options) -> int:
    """Write the page; returns its size in bytes."""
    page = replay_html(record, **options)
    with open(path, "w", encoding="utf-8") as f:
        f.write(page)
    return len(page.encode("utf-8"))
