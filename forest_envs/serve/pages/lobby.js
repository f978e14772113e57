// The lobby: choose a game, its options and each seat, then POST /api/tables.
"use strict";
const $ = (id) => document.getElementById(id);
let games = [];
let person = "person";

function game() { return games.find((g) => g.env_id === $("game").value); }

function seatCount() {
  const n = document.querySelector('[data-option="num_players"]');
  return n ? Number(n.value) : game().options.num_players.default;
}

function showOptions() {
  const g = game();
  $("options").replaceChildren(...Object.entries(g.options).map(([name, o]) => {
    const row = document.createElement("div");
    row.className = "row";
    const label = document.createElement("label");
    label.textContent = name.replaceAll("_", " ");
    const select = document.createElement("select");
    select.dataset.option = name;
    label.htmlFor = select.id = "option-" + name;
    for (const c of o.choices) {
      const opt = new Option(String(c), JSON.stringify(c), false, c === o.default);
      select.add(opt);
    }
    select.addEventListener("change", showSeats);
    row.append(label, select);
    return row;
  }));
  showSeats();
}

function showSeats() {
  const g = game();
  const kept = [...document.querySelectorAll("[data-seat]")].map((s) => s.value);
  const rows = [];
  for (let q = 0; q < seatCount(); q++) {
    const row = document.createElement("div");
    row.className = "row";
    const label = document.createElement("label");
    label.textContent = "P" + q;
    const select = document.createElement("select");
    select.dataset.seat = q;
    label.htmlFor = select.id = "seat-" + q;
    select.add(new Option("you", "you"));
    select.add(new Option("another person", person));
    for (const b of g.bots) select.add(new Option("bot: " + b, b));
    select.add(new Option("bot: ismcts with options...", "ismcts:"));
    select.value = kept[q] && [...select.options].some((o) => o.value === kept[q]) ? kept[q]
      : (q === 0 ? "you" : g.bots[0]);
    // the search's options (docs/search.md), e.g. sims=400,depth=10
    const options = document.createElement("input");
    options.dataset.searchOptions = q;
    options.placeholder = "sims=400,depth=10";
    options.setAttribute("aria-label", "P" + q + "'s search options");
    options.hidden = select.value !== "ismcts:";
    select.addEventListener("change", () => { options.hidden = select.value !== "ismcts:"; });
    row.append(label, select, options);
    rows.push(row);
  }
  $("seats").replaceChildren(...rows);
}

async function start(event) {
  event.preventDefault();
  $("error").textContent = "";
  const config = {};
  for (const s of document.querySelectorAll("[data-option]")) config[s.dataset.option] = JSON.parse(s.value);
  const choices = [...document.querySelectorAll("[data-seat]")].map((s) => s.value === "ismcts:"
    ? "ismcts:" + document.querySelector(`[data-search-options="${s.dataset.seat}"]`).value.trim() : s.value);
  const mine = choices.indexOf("you");
  const players = choices.map((c) => (c === "you" ? person : c));
  $("start").disabled = true;
  try {
    const answer = await fetch("/api/tables", {
      method: "POST", headers: {"Content-Type": "application/json"},
      body: JSON.stringify({env_id: game().env_id, config, players}),
    });
    const data = await answer.json();
    if (!answer.ok) throw new Error(data.error || answer.statusText);
    const own = data.links.find((l) => l.seat === mine);
    if (own && data.links.length === 1) { location.href = own.url; return; }
    const watch = {seat: -1, url: data.spectators};
    $("links").replaceChildren(...data.links.concat([watch]).map((l) => {
      const li = document.createElement("li");
      const a = document.createElement("a");
      a.href = l.url;
      a.textContent = l.seat === -1 ? "spectators (what every seat sees, no moves)"
        : l.seat === mine ? "your seat, P" + l.seat : "P" + l.seat + "'s link";
      const code = document.createElement("code");
      code.textContent = new URL(l.url, location.href).href;
      li.append(a, " ", code);
      return li;
    }));
    $("made").hidden = false;
  } catch (err) {
    $("error").textContent = String(err.message || err);
  } finally {
    $("start").disabled = false;
  }
}

async function load() {
  const data = await (await fetch("/api/games")).json();
  games = data.games;
  person = data.person;
  for (const g of games) $("game").add(new Option(g.name + " (" + g.env_id + ")", g.env_id));
  $("game").addEventListener("change", showOptions);
  $("setup").addEventListener("submit", start);
  showOptions();
}
load().catch((err) => { $("error").textContent = "could not load the games: " + err; });
