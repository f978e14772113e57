"""The page of ``forest-envs replay --html``: its style, its script and the HTML around the
data ``html.build_data`` makes (the script draws each frame's tiles on a canvas, or the
text of a game without pictures, and shows each move's line as the chosen view may read it)."""

from __future__ import annotations

import html
import json

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
