// A seat's page: its view (GET the seat's API), its moves (POST .../move), and a server-sent
// event stream that says when the table changed. Everything shown comes from the seat's view.
"use strict";
const $ = (id) => document.getElementById(id);
const [, , tableId, token] = location.pathname.split("/");
const api = "/api/play/" + tableId + "/" + token;
let shown = -1;        // the version on screen
let fetching = null;   // the view being fetched
let again = false;     // a change was announced while it was
let sending = false;   // a move on its way

function el(tag, text, cls) {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (cls) e.className = cls;
  return e;
}

let placeFilter = null;  // the moves of the place clicked on the picture, if one was

function showPlaces(view) {
  // One button over the picture per place where a legal move is made; a place with one move
  // makes it, a place with several shows only those below.
  const groups = new Map();
  for (const m of view.moves) {
    if (!m.place) continue;
    const key = m.place.join(",");
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(m);
  }
  const [w, h] = view.picture_size || [1, 1];
  $("places").replaceChildren(...[...groups.values()].map((moves) => {
    const [x0, y0, x1, y1] = moves[0].place;
    const b = el("button", undefined, "place");
    b.type = "button";
    b.title = moves.length === 1 ? moves[0].label : moves.length + " moves here";
    b.setAttribute("aria-label", b.title);
    Object.assign(b.style, {left: (100 * x0 / w) + "%", top: (100 * y0 / h) + "%",
                            width: (100 * (x1 - x0) / w) + "%", height: (100 * (y1 - y0) / h) + "%"});
    b.addEventListener("click", () => {
      if (moves.length === 1) { send(moves[0].action); return; }
      placeFilter = new Set(moves.map((m) => m.action));
      $("place-note").textContent = b.title + ": ";
      showMoves(window.currentView);
    });
    return b;
  }));
}

function showMoves(view) {
  const moves = view.moves;
  const filter = $("filter").value.trim().toLowerCase();
  if (placeFilter && !moves.some((m) => placeFilter.has(m.action))) placeFilter = null;
  $("place-row").hidden = !placeFilter;
  $("filter-row").hidden = moves.length <= 12;
  $("moves").replaceChildren(...moves
    .filter((m) => !placeFilter || placeFilter.has(m.action))
    .filter((m) => !filter || m.label.toLowerCase().includes(filter))
    .map((m) => {
      const b = el("button", m.label);
      b.dataset.action = m.action;
      b.disabled = sending;
      b.addEventListener("click", () => send(m.action));
      return b;
    }));
}

function show(view) {
  const me = view.spectator ? "watching" : "P" + view.seat;
  document.title = view.game + ": " + me;
  $("title").textContent = view.game;
  $("watch").href = view.spectators;
  $("watch").hidden = view.spectator;
  $("who").textContent = view.spectator ? "you are watching (what every seat sees)" : "you are P" + view.seat;
  $("players").replaceChildren(...view.players.map((p) => {
    const who = p.seat === view.seat ? "you" : p.player === "person" ? "a person" : p.player;
    const cls = "player" + (p.seat === view.turn ? " turn" : "") + (p.seat === view.seat ? " you" : "");
    return el("span", p.name + ": " + who, cls);
  }));
  if (view.has_picture) {
    $("picture").src = api + "/picture.png?v=" + view.version;
    $("picture").hidden = false;
  } else {
    $("text-board").open = true;
  }
  $("board").textContent = view.board;
  $("thinking").textContent = view.thinking !== null ? "P" + view.thinking + " (" +
    view.players[view.thinking].player + ") is thinking..." : (view.trouble || "");
  $("prompt").textContent = view.over ? "" : (view.turn === view.seat ? "Your move: " : "") + (view.prompt || "");
  $("prompt").hidden = view.over;
  showMoves(view);
  showPlaces(view);
  const log = $("log");
  const atEnd = log.scrollTop + log.clientHeight >= log.scrollHeight - 4;
  log.replaceChildren(...view.log.map((line) => el("p", line)));
  if (atEnd) log.scrollTop = log.scrollHeight;
  if (view.over) {
    const r = $("result");
    r.replaceChildren(...view.result.map((line, i) => el("p", line, i === 0 ? "winner" : "")));
    const links = el("p");
    const replay = el("a", "the game's replay");
    replay.href = api + "/replay.html";
    const record = el("a", "its record (JSON)");
    record.href = api + "/record.json";
    links.append(replay, " and ", record);
    r.append(links);
    r.hidden = false;
  }
  if (view.over && view.thinking === null) events.close();   // nothing more will change
  window.currentView = view;   // for the tests and the curious
}

async function refresh() {
  // One fetch at a time; a change announced while one is on its way (its answer may be older
  // than the change) fetches again when it is back.
  if (fetching) { again = true; return fetching; }
  fetching = (async () => {
    try {
      do {
        again = false;
        const answer = await fetch(api, {cache: "no-store"});
        const view = await answer.json();
        if (!answer.ok) throw new Error(view.error || answer.statusText);
        if (view.version !== shown) { shown = view.version; show(view); }
      } while (again);
    } catch (err) {
      $("error").textContent = "could not load the table: " + (err.message || err);
    } finally {
      fetching = null;
    }
  })();
  return fetching;
}

async function send(action) {
  if (sending) return;
  sending = true;
  $("error").textContent = "";
  for (const b of document.querySelectorAll("#moves button")) b.disabled = true;
  try {
    const answer = await fetch(api + "/move", {
      method: "POST", headers: {"Content-Type": "application/json"},
      body: JSON.stringify({action}),
    });
    const data = await answer.json();
    if (!answer.ok) throw new Error(data.error || answer.statusText);
  } catch (err) {
    $("error").textContent = String(err.message || err);
  } finally {
    sending = false;
    await refresh();
    if (window.currentView) showMoves(window.currentView);
  }
}

$("filter").addEventListener("input", () => window.currentView && showMoves(window.currentView));
$("all-moves").addEventListener("click", () => {
  placeFilter = null;
  if (window.currentView) showMoves(window.currentView);
});
const events = new EventSource(api + "/events");
events.addEventListener("version", (e) => {
  if (JSON.parse(e.data).version !== shown) refresh();
});
refresh();
