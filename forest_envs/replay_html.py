"""A recorded game as one self-contained HTML file (``forest-envs replay RECORD --html OUT``).

The record (what ``env.record()``, ``rollout --records`` and ``evaluate --records`` write) is
replayed through the registry's ``replay``, so every position is exactly the game's. For each
position (the start and after every action) and each chosen view (the referee, ``None``, and
each seat) the file holds the game's picture (``state.picture(seat)``), or its text
(``state.render(seat)``) for a game without pictures, and each action as that view may read it
(``state.describe_action(action, seat)``). A seat's view is drawn from ``state.view(seat)``
alone, so what the seat may not know is not in the file for that view (only the referee
sees everything).

Size: the pictures are cut into square tiles; every distinct tile is stored once (the tiles of
most positions and of the different views are the same), packed into a few sheets that are
encoded as PNG (optionally quantised to a palette first, ``colors``), and each frame is the
list of tiles that differ from an earlier frame of the same view. The page draws the tiles on
a canvas; no network, no external file, works from ``file://``.
"""

from __future__ import annotations

import base64
import html
import io
import json
import os
from dataclasses import dataclass, field

import numpy as np

from .core.errors import ConfigError, ForestEnvError

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
    """``referee,0,2`` -> [None, 0, 2]; None or ``all`` -> the referee and every seat."""
    if text is None or text.strip() == "all":
        return [None] + list(range(num_players))
    views: list[int | None] = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        if part.lower() in (REFEREE, "ref"):
            view = None
        else:
            seat = part[1:] if part[:1] in "pP" else part
            if not seat.isdigit() or int(seat) >= num_players:
                raise ConfigError(f"--views: {part!r} is not a view; give 'referee' or seats "
                                  f"0..{num_players - 1}, comma-separated")
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
    texts: dict                    # view -> the action as that view may read it ('' at the start)


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
    """Replay ``record`` through the registry's ``replay`` and keep every position."""
    from .core.registry import game_spec, replay

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
        state = raw.engine_state
        actor = state.current_player
        if _legal(state, action):
            texts = {v: state.describe_action(int(action), v) for v in chosen}
        else:  # kept in the record under illegal_action="penalize": it ends the game
            texts = {v: f"illegal action {action!r}: the game ends" for v in chosen}
        env.step(action)
        out.states.append(raw.engine_state.clone())
        out.positions.append(Position(k, actor, texts))
    out.result = _result_text(raw)
    return out


def _legal(state, action) -> bool:
    if isinstance(action, bool) or not isinstance(action, (int, np.integer)):
        return False
    mask = state.legal_action_mask()
    return 0 <= action < len(mask) and bool(mask[action])


def _result_text(raw) -> str:
    state = raw.engine_state
    infos = [raw.infos.get(a, {}) for a in raw.possible_agents]
    illegal = next((info["illegal_action"] for info in infos if "illegal_action" in info), None)
    if illegal is not None:
        seat = raw.possible_agents.index(illegal["agent"])
        return f"Game over: P{seat} made an illegal move ({illegal['action']!r}) and is penalised."
    if any(info.get("truncated") for info in infos):
        return f"Game over after {len(raw.record()['actions'])} moves (max_steps): truncated, nobody wins."
    if not state.is_terminal:
        return "The record ends before the game does."
    ranks, totals, _ = state.result()
    places = ", ".join(f"P{s} {'wins' if r == 1 else _ordinal(r)}" + ("" if totals is None else f" ({totals[s]})")
                       for s, r in sorted(enumerate(ranks), key=lambda x: (x[1], x[0])))
    return f"Game over: {places}"


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


# --- pictures: tiles, sheets and frames -----------------------------------------------------------
def _view_key(state, view):
    try:
        return json.dumps(state.view(view), sort_keys=True, default=_plain)
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
        self.last: dict = {}                            # lane -> (frame, its cut-up pixels)

    def _cut(self, image: np.ndarray) -> np.ndarray:
        t = self.tile
        padded = np.zeros((self.rows * t, self.cols * t, 3), np.uint8)
        padded[: self.h, : self.w] = image
        return padded.reshape(self.rows, t, self.cols, t, 3).swapaxes(1, 2)

    def _tile_id(self, tile: np.ndarray) -> int:
        key = tile.tobytes()
        found = self.index.get(key)
        if found is None:
            found = self.index[key] = len(self.tiles)
            self.tiles.append(tile.copy())
        return found

    def add(self, image: np.ndarray, lane) -> int:
        """A new frame, described by its differences from the last frame added in ``lane``
        (one lane per view; only that frame's pixels are kept)."""
        cells = self._cut(image)
        base, before = self.last.get(lane, (-1, None))
        if base >= 0:
            changed = (cells != before).any(axis=(2, 3, 4))
            ids = self.maps[base].copy()
        else:
            changed = np.ones((self.rows, self.cols), bool)
            ids = np.zeros((self.rows, self.cols), np.int64)
        diff: list[int] = []
        for r, c in zip(*np.nonzero(changed)):
            ids[r, c] = self._tile_id(cells[r, c])
            diff += [int(r * self.cols + c), int(ids[r, c])]
        self.frames.append((base, diff))
        self.maps.append(ids)
        self.last[lane] = (len(self.frames) - 1, cells)
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


def build_data(rep: Replay, colors: int | None = None, tile: int = TILE, progress: bool = False) -> dict:
    """Everything the page needs, as JSON-ready data (``progress``: a bar on stderr while the
    pictures are drawn, ~40 ms each)."""
    state0 = rep.states[0]
    pictured = type(state0).has_picture()
    labels = _labels(rep)
    data = {
        "env_id": rep.env_id, "seed": rep.record.get("seed"), "num_players": rep.num_players,
        "steps": len(rep.positions) - 1, "result": rep.result,
        "views": [{"id": REFEREE if v is None else str(v), "label": labels[v]} for v in rep.views],
        "actor": [p.actor for p in rep.positions],
    }
    # Action texts: a table of distinct strings; per position, one index per view.
    strings: dict[str, int] = {}
    data["text"] = [[strings.setdefault(p.texts[v], len(strings)) for v in rep.views] for p in rep.positions]
    frame_of: list[list[int]] = []          # per position, per view: the frame
    if pictured:
        h, w, _ = state0.picture_shape()
        tiler = _Tiler((h, w), tile)
        seen: dict[tuple, int] = {}          # (view, view data) -> frame: no picture drawn twice
        for state in _bar(rep.states, progress):
            row = []
            for v in rep.views:
                key = _view_key(state, v)
                frame = seen.get((v, key)) if key is not None else None
                if frame is None:
                    frame = tiler.add(state.picture(v), v)
                    if key is not None:
                        seen[(v, key)] = frame
                row.append(frame)
            frame_of.append(row)
        data.update(mode="picture", width=w, height=h, tile=tile, cols=tiler.cols, rows=tiler.rows,
                    sheet_columns=SHEET_COLUMNS, sheet_tiles=SHEET_COLUMNS * SHEET_ROWS,
                    sheets=tiler.sheets(colors), frames=tiler.frames, tiles=len(tiler.tiles))
    else:
        pages: dict[str, int] = {}
        for state in rep.states:
            frame_of.append([pages.setdefault(state.render(v), len(pages)) for v in rep.views])
        data.update(mode="text", pages=list(pages))
    data["frame"] = frame_of
    data["strings"] = list(strings)
    return data


def _bar(items: list, progress: bool):
    if not progress:
        return items
    try:
        from tqdm import tqdm
    except ImportError:
        return items
    return tqdm(items, unit="position", desc="drawing", leave=False)


def _labels(rep: Replay) -> dict:
    agents = rep.record.get("agents")
    labels = {}
    for v in rep.views:
        if v is None:
            labels[v] = "referee (sees everything)"
        else:
            who = f" ({agents[v]})" if isinstance(agents, list) and v < len(agents) else ""
            labels[v] = f"P{v}{who}"
    return labels


# --- the page --------------------------------------------------------------------------------------
_CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:12px;background:#f4f1ea;color:#222}
h1{font-size:1.15em;margin:0 0 8px}
#bar{display:flex;flex-wrap:wrap;gap:6px;align-items:center;margin-bottom:6px}
#bar button{font-size:1em;min-width:2.6em}
#slider{flex:1 1 240px}
#step{font-variant-numeric:tabular-nums;min-width:7em}
#action{min-height:1.4em;margin:4px 0 8px;font-weight:600}
#board{max-width:100%;height:auto;border:1px solid #999;background:#fff;display:block}
#textboard{background:#fff;border:1px solid #999;padding:8px;overflow:auto;max-width:100%}
.hint{color:#666;font-size:.85em;margin-top:6px}
#result{margin-top:6px}
"""

_JS = r"""
"use strict";
const D = JSON.parse(document.getElementById("replay-data").textContent);
const $ = (id) => document.getElementById(id);
const N = D.steps;
let step = 0, view = 0, shown = null, sheets = [], maps = [];

function decodeFrames() {
  for (const [base, diff] of D.frames) {
    const m = base >= 0 ? Int32Array.from(maps[base]) : new Int32Array(D.cols * D.rows).fill(-1);
    for (let i = 0; i < diff.length; i += 2) m[diff[i]] = diff[i + 1];
    maps.push(m);
  }
}

function draw(frame) {
  if (D.mode === "text") { $("textboard").textContent = D.pages[frame]; return; }
  const ctx = $("board").getContext("2d");
  const m = maps[frame], t = D.tile;
  for (let cell = 0; cell < m.length; cell++) {
    const id = m[cell];
    if (shown && shown[cell] === id) continue;
    const sheet = sheets[Math.floor(id / D.sheet_tiles)], k = id % D.sheet_tiles;
    const sx = (k % D.sheet_columns) * t, sy = Math.floor(k / D.sheet_columns) * t;
    const dx = (cell % D.cols) * t, dy = Math.floor(cell / D.cols) * t;
    ctx.clearRect(dx, dy, t, t);
    ctx.drawImage(sheet, sx, sy, t, t, dx, dy, t, t);
  }
  shown = m;
}

function show() {
  step = Math.max(0, Math.min(N, step));
  const frame = D.frame[step][view];
  draw(frame);
  $("slider").value = step;
  $("step").textContent = "step " + step + " / " + N;
  const actor = D.actor[step];
  const text = D.strings[D.text[step][view]];
  $("action").textContent = step === 0 ? "Start of the game" : "P" + actor + ": " + text;
  $("result").textContent = step === N ? D.result : "";
  for (const b of ["first", "prev"]) $(b).disabled = step === 0;
  for (const b of ["next", "last"]) $(b).disabled = step === N;
  const ds = document.body.dataset;
  ds.step = step; ds.view = D.views[view].id; ds.frame = frame;
}

function go(s) { step = s; show(); }

function init() {
  $("slider").max = N;
  const sel = $("view");
  D.views.forEach((v, i) => { const o = document.createElement("option"); o.value = i; o.textContent = v.label; sel.appendChild(o); });
  sel.addEventListener("change", () => { view = +sel.value; show(); });
  $("first").onclick = () => go(0);
  $("prev").onclick = () => go(step - 1);
  $("next").onclick = () => go(step + 1);
  $("last").onclick = () => go(N);
  $("slider").addEventListener("input", (e) => go(+e.target.value));
  document.addEventListener("keydown", (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const to = {ArrowRight: step + 1, ArrowLeft: step - 1, Home: 0, End: N}[e.key];
    if (to === undefined) return;
    e.preventDefault();
    go(to);
  });
  show();
  document.body.dataset.ready = "1";
}

if (D.mode === "picture") {
  $("board").width = D.width; $("board").height = D.height;
  decodeFrames();
  Promise.all(D.sheets.map((url) => { const img = new Image(); img.src = url; sheets.push(img); return img.decode(); }))
    .then(init, (err) => { $("action").textContent = "cannot draw the pictures: " + err; });
} else {
  init();
}
"""


def render_html(data: dict, title: str) -> str:
    payload = json.dumps(data, separators=(",", ":")).replace("</", "<\\/")
    board = ('<canvas id="board" role="img" aria-label="the table"></canvas>' if data["mode"] == "picture"
             else '<pre id="textboard"></pre>')
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{html.escape(title)}</title>
<style>{_CSS}</style>
</head>
<body>
<h1>{html.escape(title)}</h1>
<div id="bar">
<button id="first" title="first position (Home)" aria-label="first">|&#x25C0;</button>
<button id="prev" title="previous position (left arrow)" aria-label="previous">&#x25C0;</button>
<button id="next" title="next position (right arrow)" aria-label="next">&#x25B6;</button>
<button id="last" title="last position (End)" aria-label="last">&#x25B6;|</button>
<input id="slider" type="range" min="0" max="0" value="0" aria-label="position">
<span id="step"></span>
<label>view <select id="view"></select></label>
</div>
<div id="action"></div>
{board}
<div id="result"></div>
<div class="hint">Keys: &larr; / &rarr; step, Home / End first / last. A seat's view shows only what that seat may know; the referee sees everything.</div>
<script id="replay-data" type="application/json">{payload}</script>
<script>{_JS}</script>
</body>
</html>
"""


def replay_html(record: dict, views: str | list | None = None, colors: int | None = None,
                title: str | None = None, progress: bool = False) -> str:
    """The HTML page replaying ``record``: ``views`` as ``parse_views`` takes them (default:
    the referee and every seat); ``colors``: the pictures' palette size (None or 0:
    lossless)."""
    if colors is not None and not (colors == 0 or 2 <= colors <= 256):
        raise ConfigError(f"--colors must be 2..256 (or 0: lossless), got {colors}")
    rep = replay_positions(record, views)
    data = build_data(rep, colors=colors, progress=progress)
    if title is None:
        title = f"{rep.env_id}, seed {rep.record.get('seed')}: {data['steps']} moves"
    return render_html(data, title)


def write_replay_html(record: dict, path: str, **options) -> int:
    """Write the page; returns its size in bytes."""
    page = replay_html(record, **options)
    with open(path, "w", encoding="utf-8") as f:
        f.write(page)
    return len(page.encode("utf-8"))
