"""``forest-envs serve`` (forest_envs/serve/): tables set from the lobby's API, a seat's page and
API that only ever carry what that seat may know, moves refused with clear errors (another
seat's turn, an illegal or forged move, malformed or huge bodies) while the game goes on,
bots that move on their own, tables that survive a restart, abandoned tables removed, and the
event stream over a real socket."""

from __future__ import annotations

import json
import socket
import threading
import time

import numpy as np
import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
from starlette.testclient import TestClient  # noqa: E402

import forest_envs  # noqa: E402
from forest_envs.serve.app import MAX_BODY, create_app  # noqa: E402
from forest_envs.serve.store import TableStore  # noqa: E402
from forest_envs.serve.table import PERSON, MoveRefused, Seat, Table  # noqa: E402

GAMES = ["chickwood_v0", "roundforest_v0", "sherwood_v0"]


def client(store=None, pace=0.0) -> TestClient:
    return TestClient(create_app(store or TableStore(None), pace=pace))


def new_table(c: TestClient, env_id: str, players: list[str], config=None, seed: int = 7) -> list[str]:
    """The API paths of the table's person seats, in seat order."""
    r = c.post("/api/tables", json={"env_id": env_id, "config": config or {}, "players": players,
                                    "seed": seed})
    assert r.status_code == 201, r.json()
    return [f"/api/play/{link['url'].split('/')[2]}/{link['url'].split('/')[3]}" for link in r.json()["links"]]


def wait_turn(c: TestClient, api: str, timeout: float = 60.0) -> dict:
    """The seat's view once it is to move or the game is over (bots move meanwhile)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        view = c.get(api).json()
        if view["over"] or view["moves"]:
            return view
        time.sleep(0.01)
    raise TimeoutError(api)


def table_of(c: TestClient, api: str) -> Table:
    return c.app.state.server.store.get(api.split("/")[3])


# --- the lobby --------------------------------------------------------------------------------------
def test_the_lobby_its_assets_and_the_games_it_offers():
    with client() as c:
        page = c.get("/")
        assert page.status_code == 200 and 'id="setup"' in page.text and "/static/lobby.js" in page.text
        for asset, kind in (("lobby.js", "javascript"), ("table.js", "javascript"), ("style.css", "css")):
            r = c.get(f"/static/{asset}")
            assert r.status_code == 200 and kind in r.headers["content-type"], asset
        games = c.get("/api/games").json()
        # (the tests' toy game is registered too)
        assert [g["env_id"] for g in games["games"]][:3] == GAMES and games["person"] == PERSON
        chickwood = games["games"][0]
        assert chickwood["options"]["num_players"] == {"default": 3, "choices": [2, 3, 4, 5]}
        assert chickwood["bots"] == ["heuristic", "random", "ppo", "ismcts", "ismcts:sims=200"]
        r = c.post("/api/tables", json={"env_id": "chickwood_v0", "players": [PERSON, "ismcts:sims=50,depth=5",
                                                                              "random"]})
        assert r.status_code == 201   # a search bot with options of its own


@pytest.mark.parametrize("body, error", [
    ({"env_id": "nope_v0", "players": [PERSON]}, "unknown game 'nope_v0'"),
    ({"env_id": "chickwood_v0", "players": [PERSON, "random"]}, "has 3 seats, got 2 players"),
    ({"env_id": "chickwood_v0", "players": ["random"] * 3}, "needs at least one person"),
    ({"env_id": "chickwood_v0", "players": [PERSON, "random", "../../etc/passwd"]}, "unknown player"),
    ({"env_id": "chickwood_v0", "config": {"num_players": 9}, "players": [PERSON]}, "num_players"),
    ({"env_id": "chickwood_v0", "config": [], "players": [PERSON]}, "config must be an object"),
    ([1, 2], "expected a JSON object"),
    ({"env_id": "chickwood_v0", "players": [PERSON] * 3, "seed": -1}, "seed must be"),
    ({"env_id": "chickwood_v0", "players": [PERSON, "ismcts:prior=/tmp/x.zip", "random"]}, "never names a file"),
    ({"env_id": "chickwood_v0", "players": [PERSON, "ismcts:sims=10000000", "random"]}, "at most sims="),
    ({"env_id": "chickwood_v0", "players": [PERSON, "ismcts:bogus=1", "random"]}, "unknown ismcts option"),
    ({"env_id": "chickwood_v0", "players": [PERSON] * 3, "seed": "1"}, "seed must be"),
])
def test_a_table_that_cannot_be_set_is_refused_naming_why(body, error):
    with client() as c:
        r = c.post("/api/tables", json=body)
        assert r.status_code == 400 and error in r.json()["error"], r.json()
        assert not c.app.state.server.store.tables


# --- whole games ------------------------------------------------------------------------------------
@pytest.mark.parametrize("env_id", GAMES)
def test_a_whole_game_against_bots_through_the_api(env_id):
    """A person (the first legal move every time) against the heuristic: the bots move on their
    own, the seat's log is its own narration of every move, the result and the record come at
    the end, and the record replays to the same game."""
    with client() as c:
        n = {"chickwood_v0": 3, "roundforest_v0": 2, "sherwood_v0": 3}[env_id]
        (api,) = new_table(c, env_id, [PERSON] + ["heuristic"] * (n - 1), {"num_players": n})
        assert c.get(api + "/record.json").status_code == 409   # not before the end
        moves = 0
        while True:
            view = wait_turn(c, api)
            if view["over"]:
                break
            assert view["prompt"] and view["turn"] == 0
            r = c.post(api + "/move", json={"action": view["moves"][0]["action"]})
            assert r.status_code == 200, r.json()
            moves += 1
        record = c.get(api + "/record.json").json()
        assert record["env_id"] == env_id and moves > 0
        env = forest_envs.replay(record)
        state = env.unwrapped.engine_state
        assert state.is_terminal or any(env.truncations.values())
        # The log is seat 0's narration of every move, and nothing else.
        again = forest_envs.replay(dict(record, actions=[])).unwrapped
        lines = []
        for action in record["actions"]:
            before = again.engine_state.clone()
            actor = before.current_player
            again.step(action)
            lines.append(f"P{actor}: {again.engine_state.narrate(before, action, 0)}")
        log = [line.split(" (the only move")[0] for line in view["log"]]
        assert log == lines
        assert view["result"][0].startswith(("Winner", "Game over")) and view["moves"] == []
        page = c.get(api + "/replay.html")
        assert page.status_code == 200 and "<html" in page.text.lower()
        assert c.get(api + "/replay.html").text == page.text   # (built once: the game is over)
        assert len(c.app.state.server.replays) == 1


def test_a_persons_only_move_is_played_for_them_and_said_so():
    with client(pace=0.02) as c:
        (api,) = new_table(c, "chickwood_v0", [PERSON, "heuristic", "heuristic"], seed=0)  # one comes
        for _ in range(400):
            view = wait_turn(c, api)
            if view["over"] or any("played for you" in line for line in view["log"]):
                break
            if len(view["moves"]) > 1:   # (the only move is the server's to play)
                c.post(api + "/move", json={"action": view["moves"][0]["action"]})
            else:
                time.sleep(0.01)
        forced = [line for line in view["log"] if "played for you" in line]
        assert forced and all(line.startswith("P0: ") for line in forced)


# --- refused moves ----------------------------------------------------------------------------------
def test_moves_that_are_not_the_seats_to_make_are_refused_and_the_game_goes_on():
    with client() as c:
        seats = new_table(c, "chickwood_v0", [PERSON, PERSON, PERSON])   # no bot moves meanwhile
        table = table_of(c, seats[0])
        mover, waiter = seats[table.turn], seats[(table.turn + 1) % 3]
        legal = table.state.legal_actions()
        before = (table.version, list(table.record()["actions"]))
        illegal = next(a for a in range(table.env.game.num_actions) if a not in legal)
        bad = [
            (c.post(waiter + "/move", json={"action": legal[0]}), 409, "turn"),
            (c.post(mover + "/move", json={"action": illegal}), 409, "not one of"),
            (c.post(mover + "/move", json={"action": 10**9}), 409, "not one of"),
            (c.post(mover + "/move", json={"action": -1}), 409, "not one of"),
            (c.post(mover + "/move", json={"action": str(legal[0])}), 400, "number"),
            (c.post(mover + "/move", json={"action": True}), 400, "number"),
            (c.post(mover + "/move", json={"action": 1.0}), 400, "number"),
            (c.post(mover + "/move", json={"move": legal[0]}), 400, "expected"),
            (c.post(mover + "/move", content=b"{not json"), 400, "not JSON"),
            (c.post(mover + "/move", content=b"\xff\xfe"), 400, "not JSON"),
            (c.post(mover + "/move", content=b"[" * (MAX_BODY + 1)), 413, "over"),
            (c.post(mover.rsplit("/", 1)[0] + "/not-a-token/move", json={"action": legal[0]}), 404, "no such"),
            (c.post("/api/play/nope/nope/move", json={"action": legal[0]}), 404, "no such"),
            (c.get(mover.rsplit("/", 1)[0] + "/x" * 3), 404, None),
        ]
        for r, status, words in bad:
            assert r.status_code == status, (r.status_code, r.text)
            if words:
                assert words in r.json()["error"], r.json()
        assert (table.version, table.record()["actions"]) == before
        r = c.post(mover + "/move", json={"action": legal[0]})   # the game goes on
        assert r.status_code == 200 and table.record()["actions"] == before[1] + [legal[0]]
        page = c.get("/play/nope/nope")
        assert page.status_code == 404 and "No such seat" in page.text


def test_a_thousand_rapid_requests_leave_the_game_intact():
    with client() as c:
        (api,) = new_table(c, "sherwood_v0", [PERSON, "random", "random"], {"num_players": 3})
        table = table_of(c, api)
        played = 0
        for i in range(1000):
            if i % 4 == 0:
                view = c.get(api).json()
                if view["moves"]:
                    if c.post(api + "/move", json={"action": view["moves"][-1]["action"]}).status_code == 200:
                        played += 1
            elif i % 4 == 1:
                c.post(api + "/move", json={"action": 10**6})
            elif i % 4 == 2:
                c.get(api + "/picture.png")
            else:
                c.post(api + "/move", content=b"garbage")
        record = table.record()
        env = forest_envs.replay(record)   # every move taken is legal and in order
        assert len(record["actions"]) >= played > 0
        assert env.unwrapped.engine_state.to_dict() == table.state.to_dict()


# --- what a seat is shown ---------------------------------------------------------------------------
@pytest.mark.parametrize("env_id", GAMES)
def test_a_seats_view_and_picture_do_not_change_with_what_it_cannot_know(env_id):
    """Positions that differ only in what seat ``q`` may not know (resample_hidden) give it
    the same page: prompt, moves, text board and picture."""
    rng = np.random.default_rng(3)
    n = 3 if env_id != "roundforest_v0" else 2
    table = Table(env_id, {"num_players": n}, [Seat(PERSON) for _ in range(n)], seed=4)
    twin = Table(env_id, {"num_players": n}, [Seat(PERSON) for _ in range(n)], seed=4)
    shown = ("prompt", "moves", "board", "players", "turn", "over")
    checked = 0
    for step in range(120):
        if table.over:
            break
        if step % 10 == 0:
            for q in range(n):
                other = table.state.resample_hidden(q, rng)
                twin.env.reset(seed=4, options={"state": other})
                mine, theirs = table.seat_view(q), twin.seat_view(q)
                assert {k: mine[k] for k in shown} == {k: theirs[k] for k in shown}, (step, q)
                assert table.picture_png(q) == twin.picture_png(q), (step, q)
                checked += 1
        legal = table.state.legal_actions()
        table.move(table.turn, legal[int(rng.integers(len(legal)))])
    assert checked >= 6


# --- saved tables -----------------------------------------------------------------------------------
def test_a_table_survives_a_restart_and_abandoned_tables_are_removed(tmp_path):
    store = TableStore(tmp_path)
    with client(store) as c:
        (api,) = new_table(c, "roundforest_v0", [PERSON, "heuristic"], {"num_players": 2})
        for _ in range(5):
            view = wait_turn(c, api)
            c.post(api + "/move", json={"action": view["moves"][0]["action"]})
        view = wait_turn(c, api)
    (tmp_path / "broken.json").write_text("{not json")
    again = TableStore(tmp_path)
    assert len(again.unreadable) == 1 and again.unreadable[0].startswith("broken.json")
    with client(again) as c:
        restored = c.get(api).json()
        assert {k: v for k, v in restored.items() if k != "version"} == \
            {k: v for k, v in view.items() if k != "version"}
        table = table_of(c, api)
        server = c.app.state.server
        assert server.clean(now=table.updated + 71 * 3600) == []
        assert table.id in server.locks
        assert server.clean(now=table.updated + 73 * 3600) == [table.id]
        assert table.id not in server.locks and table.id not in server.drivers
        assert not (tmp_path / f"{table.id}.json").exists() and c.get(api).status_code == 404


def test_a_saved_table_that_does_not_replay_is_not_loaded(tmp_path):
    table = Table("chickwood_v0", {}, [Seat(PERSON), Seat("random"), Seat("random")], seed=1)
    data = table.to_json()
    data["record"]["actions"] = [10**6]
    (tmp_path / "t.json").write_text(json.dumps(data))
    store = TableStore(tmp_path)
    assert not store.tables and "not one of" in store.unreadable[0]


# --- over a real socket -----------------------------------------------------------------------------
def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def live_server():
    import uvicorn

    store = TableStore(None)
    config = uvicorn.Config(create_app(store, pace=0.0), host="127.0.0.1", port=_free_port(),
                            log_level="warning")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    yield f"http://127.0.0.1:{config.port}"
    server.should_exit = True
    thread.join(10)


def _events(lines, count: int) -> list[int]:
    """The versions of the next ``count`` events of a stream's line iterator."""
    versions = []
    for line in lines:
        if line.startswith("data: "):
            versions.append(json.loads(line[6:])["version"])
            if len(versions) == count:
                break
    return versions


def test_the_event_stream_says_when_the_table_changed_and_a_dropped_socket_harms_nothing(live_server):
    import httpx2 as httpx

    with httpx.Client(base_url=live_server, timeout=20) as c:
        r = c.post("/api/tables", json={"env_id": "chickwood_v0", "players": [PERSON, PERSON, "random"]})
        links = [link["url"].split("/") for link in r.json()["links"]]
        apis = [f"/api/play/{t}/{k}" for _, _, t, k in links]
        with c.stream("GET", apis[0] + "/events") as stream:
            lines = stream.iter_lines()
            (first,) = _events(lines, 1)
            view = c.get(apis[0]).json()
            if view["version"] > first or view["thinking"] is not None:
                pass                  # the bot was moving: its move is the next event
            else:                     # a person is to move: the move is the next event
                mover = apis[view["turn"]]
                action = c.get(mover).json()["moves"][0]["action"]
                assert c.post(mover + "/move", json={"action": action}).status_code == 200
            (second,) = _events(lines, 1)
            assert second > first
        # A page that goes mid-stream, and a move whose socket closes before the answer.
        with c.stream("GET", apis[1] + "/events") as stream:
            _events(stream.iter_lines(), 1)
        for _ in range(50):
            view = c.get(apis[0]).json()
            if view["turn"] in (0, 1):
                break
            time.sleep(0.05)
        mover = apis[view["turn"]]
        action = c.get(mover).json()["moves"][0]["action"]
        body = json.dumps({"action": action}).encode()
        host, port = live_server.rsplit("//", 1)[1].split(":")
        with socket.create_connection((host, int(port))) as raw:
            raw.sendall(f"POST {mover}/move HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
                        f"Content-Length: {len(body)}\r\n\r\n".encode() + body)
        time.sleep(0.3)
        record = None
        for _ in range(3):   # the game is intact whether or not that move was taken
            record = c.get(apis[0]).json()
            assert c.get(apis[0] + "/picture.png").status_code == 200
        assert record is not None and not record.get("error")


# --- in a browser, as a person plays -----------------------------------------------------------------
def _browser():
    from chromium import CHROMIUM, Chromium

    if not __import__("os").path.exists(CHROMIUM):
        pytest.skip(f"{CHROMIUM} is missing: install Debian's chromium (apt-get install chromium)")
    return Chromium()


def _click_until_over(browser, rng, limit: int = 3000) -> tuple[int, int]:
    """Click one of the seat's move buttons (drawn by ``rng``) whenever it has some, or half
    the time one of the places on the picture (a place with one move makes it, one with
    several leaves only those buttons), until the result shows; returns the clicks, and of
    them the places'."""
    clicks = places = 0
    for _ in range(limit):
        state = browser.wait_for_or_none(
            "(() => { const v = window.currentView; if (!v) return null;"
            " if (!document.getElementById('result').hidden) return 'over';"
            " const b = document.querySelectorAll('#moves button:not([disabled])');"
            " return b.length && v.turn === v.seat ? String(b.length) : null; })()", timeout=60)
        if state is None:
            page = browser.js("window.currentView")
            now = browser.js("fetch(location.pathname.replace('/play/', '/api/play/')).then(r => r.json())")
            raise AssertionError(f"stuck after {clicks} clicks: page {page['version'], page['turn'], page['thinking']}, "
                                 f"server {now['version'], now['turn'], now['thinking'], now['trouble']}")
        if state == "over":
            return clicks, places
        spots = browser.js("document.querySelectorAll('#places .place').length")
        if spots and rng.random() < 0.5:
            browser.js(f"document.querySelectorAll('#places .place')[{int(rng.integers(spots))}].click()")
            places += 1
            clicks += 1
            time.sleep(0.05)
            continue
        pick = int(rng.integers(int(state)))
        browser.js(f"document.querySelectorAll('#moves button')[{pick}].click()")
        browser.wait_for("!document.querySelector('#moves button') || "
                         "document.querySelector('#moves button').disabled === false", timeout=30)
        clicks += 1
    raise AssertionError("the game did not end")


@pytest.mark.slow
@pytest.mark.parametrize("env_id, players", [("chickwood_v0", 3), ("roundforest_v0", 2), ("sherwood_v0", 3)])
def test_a_whole_game_in_the_browser_from_the_lobby(live_server, env_id, players, tmp_path):
    """From the lobby (the game, its seat count, the heuristic at the other seats) to the
    result, by clicks on the move buttons; the page's picture is the seat's picture."""
    import base64

    browser = _browser()
    rng = np.random.default_rng(5)
    try:
        browser.open(live_server + "/")
        browser.wait_for("document.querySelectorAll('[data-seat]').length > 0")
        browser.js(f"const g = document.getElementById('game'); g.value = '{env_id}';"
                   "g.dispatchEvent(new Event('change'));"
                   "const n = document.querySelector('[data-option=num_players]');"
                   f"n.value = '{players}'; n.dispatchEvent(new Event('change'))")
        assert browser.js("document.querySelectorAll('[data-seat]').length") == players
        browser.js("document.getElementById('start').click()")
        browser.wait_for("location.pathname.startsWith('/play/')")
        browser.wait_for("window.currentView !== undefined")
        shot = base64.b64decode(browser.send("Page.captureScreenshot", format="png")["data"])
        (tmp_path / f"{env_id}.png").write_bytes(shot)
        clicks, places = _click_until_over(browser, rng)
        result = browser.js("document.getElementById('result').innerText")
        assert clicks > 0 and ("Winner" in result or "Game over" in result), result
        assert places > 0   # moves were made by clicking the board too
        assert "replay" in result and "record" in result
        log = browser.js("document.getElementById('log').children.length")
        view = browser.js("window.currentView")
        assert log == len(view["log"]) > clicks - places
    finally:
        browser.close()


@pytest.mark.slow
def test_two_people_at_one_table_from_two_browser_contexts(live_server):
    """Two browser contexts (each its own cookies and storage: two people's browsers), each
    opened on its own seat's link, play a whole game together with a bot: each page shows only
    its own seat's moves, and each move reaches the other page."""
    import httpx2 as httpx

    with httpx.Client(base_url=live_server) as c:
        r = c.post("/api/tables", json={"env_id": "chickwood_v0", "players": [PERSON, PERSON, "heuristic"],
                                        "seed": 11})
        links = [live_server + link["url"] for link in r.json()["links"]]
    chromium = _browser()
    rng = np.random.default_rng(2)
    try:
        browsers = [chromium.open_in_new_context(link) for link in links]
        for b in browsers:
            b.wait_for("window.currentView !== undefined")
        seen = "({v: window.currentView, buttons: document.querySelectorAll('#moves button').length," \
               " ready: !!document.querySelector('#moves button:not([disabled])')})"
        for _ in range(2000):
            pages = [b.js(seen) for b in browsers]   # each page's view and buttons, read at once
            if all(p["v"]["over"] for p in pages):
                break
            for seat, (b, p) in enumerate(zip(browsers, pages)):
                assert p["v"]["seat"] == seat
                if p["v"]["turn"] != seat:
                    assert p["buttons"] == 0      # never another seat's moves
                    continue
                if p["ready"]:
                    b.js(f"document.querySelectorAll('#moves button')[{int(rng.integers(p['buttons']))}].click()")
                    # the other page hears of the move through its event stream
                    other, before = browsers[1 - seat], pages[1 - seat]["v"]["version"]
                    other.wait_for(f"window.currentView.version > {before}", timeout=30)
            time.sleep(0.02)
        views = [b.js("window.currentView") for b in browsers]
        assert all(v["over"] for v in views)
        assert views[0]["result"] == views[1]["result"]
        assert len(views[0]["log"]) == len(views[1]["log"])
    finally:
        chromium.close()


# --- the command ------------------------------------------------------------------------------------
@pytest.mark.parametrize("argv, words", [
    (["--port", "70000"], "--port must be 0..65535"),
    (["--pace", "-1"], "--pace must be non-negative"),
    (["--keep-hours", "0"], "--keep-hours must be positive"),
    (["--policy", "noequals"], "--policy expects NAME=FILE"),
    (["--policy", "heuristic=x.npz"], "is taken"),
    (["--policy", "mine=/no/such/file.npz"], "no file"),
])
def test_bad_serve_options_are_one_line_before_anything_starts(argv, words, capsys, tmp_path):
    from forest_envs.cli import main as cli

    assert cli.main(["serve", "--dir", str(tmp_path), *argv]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("forest-envs: ") and words in err[0], err


def test_serve_warns_when_it_binds_beyond_this_machine_and_offers_policies(monkeypatch, capsys, tmp_path):
    import uvicorn

    from forest_envs.cli import main as cli

    started = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: started.update(kw, app=app))
    policy = tmp_path / "mine.npz"
    policy.write_bytes(b"")
    assert cli.main(["serve", "--dir", str(tmp_path / "t"), "--host", "0.0.0.0", "--port", "8123",
                     "--policy", f"mine={policy}"]) == 0
    out, err = capsys.readouterr()
    assert "warning: serving on 0.0.0.0" in err and "http://0.0.0.0:8123/" in out
    assert started["host"] == "0.0.0.0" and started["port"] == 8123
    assert started["app"].state.server.bot_names("chickwood_v0")[-1] == "mine"


def test_a_policy_offered_by_name_is_refused_where_it_does_not_fit_without_naming_its_file():
    from pathlib import Path

    shipped = Path(forest_envs.__file__).parent / "baselines" / "chickwood_v0.npz"
    with client(TableStore(None, policies={"mine": str(shipped)})) as c:
        ok = c.post("/api/tables", json={"env_id": "chickwood_v0", "players": [PERSON, "mine", "random"]})
        assert ok.status_code == 201
        bad = c.post("/api/tables", json={"env_id": "sherwood_v0", "config": {"num_players": 3},
                                          "players": [PERSON, "mine", "random"]})
        assert bad.status_code == 400 and "the policy 'mine'" in bad.json()["error"]
        assert str(shipped) not in bad.json()["error"]


# --- spectators -------------------------------------------------------------------------------------
@pytest.mark.parametrize("env_id", GAMES)
def test_the_spectators_link_shows_what_every_seat_sees_and_moves_nothing(env_id):
    """The spectators' page is unchanged by anything any seat keeps to itself (every seat's
    resample_hidden), holds no moves, and its move is refused (403)."""
    from forest_envs.core.presentation import SPECTATOR

    rng = np.random.default_rng(8)
    n = 3 if env_id != "roundforest_v0" else 2
    table = Table(env_id, {"num_players": n}, [Seat(PERSON) for _ in range(n)], seed=5)
    twin = Table(env_id, {"num_players": n}, [Seat(PERSON) for _ in range(n)], seed=5)
    assert table.seat_of(table.spectator_token) == SPECTATOR and table.seat_of("nope") is None
    shown = ("prompt", "moves", "board", "players", "turn", "over")
    for step in range(100):
        if table.over:
            break
        if step % 10 == 0:
            mine = table.seat_view(SPECTATOR)
            assert mine["moves"] == [] and mine["spectator"]
            for q in range(n):
                twin.env.reset(seed=5, options={"state": table.state.resample_hidden(q, rng)})
                theirs = twin.seat_view(SPECTATOR)
                assert {k: mine[k] for k in shown} == {k: theirs[k] for k in shown}, (step, q)
                assert table.picture_png(SPECTATOR) == twin.picture_png(SPECTATOR), (step, q)
        legal = table.state.legal_actions()
        with pytest.raises(MoveRefused, match="spectator") as refused:
            table.move(SPECTATOR, legal[0])
        assert refused.value.status == 403
        table.move(table.turn, legal[int(rng.integers(len(legal)))])
    # every move is in the spectators' log, in the words of an observer without a seat
    assert len(table.seat_view(SPECTATOR)["log"]) == len(table.record()["actions"]) > 0


def test_the_spectators_link_over_http_and_after_a_restart(tmp_path):
    store = TableStore(tmp_path)
    with client(store) as c:
        r = c.post("/api/tables", json={"env_id": "sherwood_v0", "config": {"num_players": 3},
                                        "players": [PERSON, "heuristic", "heuristic"], "seed": 2})
        watch = r.json()["spectators"].replace("/play/", "/api/play/")
        assert c.get(r.json()["spectators"]).status_code == 200    # the page
        (api,) = [f"/api/play/{u.split('/')[2]}/{u.split('/')[3]}" for u in [r.json()["links"][0]["url"]]]
        view = wait_turn(c, api)
        assert view["spectators"] == r.json()["spectators"]
        spectator = c.get(watch).json()
        assert spectator["spectator"] and spectator["seat"] == -1 and spectator["moves"] == []
        refused = c.post(watch + "/move", json={"action": view["moves"][0]["action"]})
        assert refused.status_code == 403 and "spectator" in refused.json()["error"]
        assert c.get(watch + "/picture.png").status_code == 200
    with client(TableStore(tmp_path)) as c:
        assert c.get(watch).json()["log"] == spectator["log"]


@pytest.mark.slow
def test_the_lobby_sets_a_search_bot_with_its_options(live_server):
    browser = _browser()
    try:
        browser.open(live_server + "/")
        browser.wait_for("document.querySelectorAll('[data-seat]').length === 3")
        assert browser.js("document.querySelector('[data-search-options=\"1\"]').hidden")
        browser.js("const s = document.getElementById('seat-1'); s.value = 'ismcts:';"
                   "s.dispatchEvent(new Event('change'));"
                   "document.querySelector('[data-search-options=\"1\"]').value = 'sims=20,depth=4';")
        assert not browser.js("document.querySelector('[data-search-options=\"1\"]').hidden")
        browser.js("document.getElementById('start').click()")
        browser.wait_for("location.pathname.startsWith('/play/')")
        browser.wait_for("window.currentView !== undefined")
        assert browser.js("window.currentView.players[1].player") == "ismcts:sims=20,depth=4"
    finally:
        browser.close()
