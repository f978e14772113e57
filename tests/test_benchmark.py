"""``forest-envs benchmark``: the line-ups, the ratings on the frozen scale, the leaderboard
entry and its table, the calibration, and the same results on Ray as in local workers."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from forest_envs.agents import baselines
from forest_envs.benchmark import (
    calibration_lineups,
    chosen_lineups,
    config_key,
    default_references,
    format_benchmark,
    format_calibration,
    load_ratings,
    protocol,
    rating,
    reference_lineups,
    run_benchmark,
    run_calibration,
    store_entry,
)
from forest_envs.benchmark.rating import Rating, rate_one
from forest_envs.cli import main as cli
from forest_envs.core.errors import ConfigError
from forest_envs.evaluation import GameResult

SHIPPED_FOLDER = baselines.FOLDER


@pytest.fixture(scope="module", autouse=True)
def no_baseline_ships(tmp_path_factory):
    """These tests pin the protocol as it is before a game's baseline ships, whatever ships
    (an empty baselines folder); test_a_shipped_baseline_adds_its_line_up sees the real one."""
    with pytest.MonkeyPatch.context() as m:
        m.setattr(baselines, "FOLDER", tmp_path_factory.mktemp("no_baselines"))
        yield


PPO_SKIPPED = ("no shipped baseline policy 'ppo' fits this configuration yet: no ppo baseline "
               "ships for chickwood_v0 yet")


# --- line-ups ---------------------------------------------------------------------------------
def test_the_line_ups_of_a_three_player_game():
    lineups, skipped = reference_lineups("chickwood_v0")
    assert [(lu.name, lu.opponents) for lu in lineups] == [
        ("random", ("random", "random")), ("heuristic", ("heuristic", "heuristic")),
        ("mixed", ("heuristic", "random"))]
    assert [s["name"] for s in skipped] == ["ppo"] and skipped[0]["reason"].startswith(PPO_SKIPPED)


def test_a_shipped_baseline_adds_its_line_up(monkeypatch):
    """With Chickwood's baseline shipped, ``ppo`` is a line-up (before ``mixed``, which never
    holds it) and a reference; another player count, which it does not fit, still skips it."""
    monkeypatch.setattr(baselines, "FOLDER", SHIPPED_FOLDER)
    assert "chickwood_v0" in baselines.shipped_env_ids()
    lineups, skipped = reference_lineups("chickwood_v0")
    assert [(lu.name, lu.opponents) for lu in lineups] == [
        ("random", ("random", "random")), ("heuristic", ("heuristic", "heuristic")),
        ("ppo", ("ppo", "ppo")), ("mixed", ("heuristic", "random"))]
    assert skipped == []
    assert default_references("chickwood_v0") == ["random", "heuristic", "ppo"]
    lineups, skipped = reference_lineups("chickwood_v0", {"num_players": 4})
    assert [lu.name for lu in lineups] == ["random", "heuristic", "mixed"]
    assert skipped[0]["name"] == "ppo" and "num_players=3" in skipped[0]["reason"]


def test_the_mixed_line_up_alternates_heuristic_and_random():
    lineups, _ = reference_lineups("sherwood_v0")  # 4 players by default
    assert lineups[-1].name == "mixed" and lineups[-1].opponents == ("heuristic", "random", "heuristic")
    lineups, _ = reference_lineups("chickwood_v0", {"num_players": 5})
    assert lineups[-1].opponents == ("heuristic", "random", "heuristic", "random")


def test_a_game_without_a_heuristic_has_only_the_random_line_up():
    lineups, skipped = reference_lineups("toy_v0")
    assert [lu.name for lu in lineups] == ["random"]
    assert [(s["name"], s["reason"]) for s in skipped if s["name"] != "ppo"] == [
        ("heuristic", "toy_v0 has no heuristic agent"), ("mixed", "toy_v0 has no heuristic agent")]
    assert default_references("toy_v0") == ["random"]
    with pytest.raises(ValueError, match="at least two reference agents"):
        run_calibration("toy_v0", games=2)


def test_the_command_in_the_entry_replays_the_options():
    assert protocol.benchmark_command("sherwood_v0", "ismcts:sims=50", 8, 3, {"additions": True, "x": "a b"}) == (
        "forest-envs benchmark --env sherwood_v0 --agent ismcts:sims=50 --games 8 --seed 3 --set additions=true "
        "--set 'x=a b'")
    assert protocol._file_digest(__file__) is not None and protocol._file_digest("heuristic") is None


def test_lineups_plays_only_the_line_ups_named_and_says_which_it_left_out(tiny_scale):
    """``--lineups`` (for a candidate too slow for every line-up): only the named line-ups are
    played and rated, in the protocol's order; the rest are skipped with the reason, and the
    entry's command names them, so it replays exactly these games."""
    e = run_benchmark("chickwood_v0", "random", games=3, seed=4, ratings_path=tiny_scale[0],
                      lineups=["mixed", "heuristic"])
    assert [r["name"] for r in e["lineups"]] == ["heuristic", "mixed"]
    assert {s["name"]: s["reason"] for s in e["skipped"]}["random"] == "not played: --lineups mixed,heuristic"
    assert e["overall"]["games"] == 6
    assert e["command"].endswith("--games 3 --seed 4 --lineups mixed,heuristic")
    full = run_benchmark("chickwood_v0", "random", games=3, seed=4, ratings_path=tiny_scale[0])
    assert [r for r in full["lineups"] if r["name"] != "random"] == e["lineups"]  # the same games


def test_lineups_refuses_a_line_up_the_configuration_does_not_offer():
    with pytest.raises(ConfigError, match=r"--lineups names 'ppo', which chickwood_v0 does not offer here "
                                          r"\(no shipped baseline.*; it offers random, heuristic, mixed"):
        chosen_lineups("chickwood_v0", None, ["ppo"])
    with pytest.raises(ConfigError, match="--lineups names 'nope'"):
        chosen_lineups("chickwood_v0", None, ["nope"])
    with pytest.raises(ConfigError, match="--lineups lists a line-up twice: random,random"):
        chosen_lineups("chickwood_v0", None, ["random", "random"])


def test_the_config_key_fills_in_the_defaults_and_the_step_limit():
    assert config_key("chickwood_v0", {}) == {"num_players": 3, "legendary": False, "max_steps": None}
    assert config_key("roundforest_v0", {"max_steps": 500}) == {
        "num_players": 3, "no_silver": False, "blockade": False, "max_steps": 500}


def test_calibration_line_ups_rate_each_reference_against_the_others_only():
    assert calibration_lineups(["random", "heuristic"], 3) == [
        ["random", "heuristic", "heuristic"], ["heuristic", "random", "random"]]
    assert calibration_lineups(["random", "heuristic", "ismcts"], 3) == [
        ["random", "heuristic", "heuristic"], ["random", "heuristic", "ismcts"], ["random", "ismcts", "ismcts"],
        ["heuristic", "random", "random"], ["heuristic", "random", "ismcts"], ["heuristic", "ismcts", "ismcts"],
        ["ismcts", "random", "random"], ["ismcts", "random", "heuristic"], ["ismcts", "heuristic", "heuristic"]]
    assert default_references("sherwood_v0") == ["random", "heuristic"]


# --- ratings ----------------------------------------------------------------------------------
def _result(index, seats, ranks, truncated=False):
    return GameResult(index, seats, None, [0.0] * len(seats), ranks, 10, truncated)


def _log_posterior(games, mu: dict, free: list[str]) -> float:
    """The model's log posterior, written again from the docs' sentence: place by place, a
    seat of the place drawn by weight exp(mu / (beta sqrt n)) over the seats not yet placed."""
    total = 0.0
    for names, ranks in games:
        c = rating.BETA * math.sqrt(len(names))
        for rank in sorted(set(ranks)):
            left = [math.exp(mu[n] / c) for n, r in zip(names, ranks) if r >= rank]
            for n, r in zip(names, ranks):
                if r == rank:
                    total += mu[n] / c - math.log(sum(left))
    return total - sum((mu[n] - 25.0) ** 2 for n in free) / (2 * rating.PRIOR_SIGMA ** 2)


GAMES = [(("candidate", "a", "b"), (1, 2, 3)), (("a", "b", "candidate"), (1, 2, 3)),
         (("b", "candidate", "a"), (2, 1, 2)), (("candidate", "a", "b"), (1, 1, 1))]
FROZEN = {"a": Rating(30.0, 2.0), "b": Rating(20.0, 1.0)}


def test_one_agent_is_rated_by_its_most_likely_skill_against_ratings_held_fixed():
    got = rate_one(GAMES, FROZEN)
    mu = {"a": 30.0, "b": 20.0}

    def at(x):
        return _log_posterior(GAMES, {**mu, "candidate": x}, ["candidate"])

    h = 1e-3
    slope = (at(got.mu + h) - at(got.mu - h)) / (2 * h)
    curve = (at(got.mu + h) - 2 * at(got.mu) + at(got.mu - h)) / h ** 2
    assert slope == pytest.approx(0.0, abs=1e-6)          # the maximum ...
    assert got.sigma == pytest.approx(1 / math.sqrt(-curve), rel=1e-4)  # ... and its curvature
    assert got.ordinal == pytest.approx(got.mu - 3 * got.sigma)
    assert rate_one(list(reversed(GAMES)), FROZEN) == got  # the order of the games does not matter
    assert rate_one([], FROZEN) is None


def test_a_game_of_an_agent_without_a_rating_is_refused():
    with pytest.raises(ConfigError, match="no rating for c: it is neither frozen nor fitted"):
        rate_one([(("candidate", "a", "c"), (1, 2, 3))], FROZEN)


def test_a_truncated_game_is_a_tie_of_every_seat():
    assert rating.game_ranks(_result(0, [0, 1, 2], [1, 2, 3], truncated=True)) == [1, 1, 1]
    assert rating.game_ranks(_result(0, [0, 1, 2], [1, 2, 2])) == [1, 2, 2]
    # seat s held agent seats[s] of the line-up's list
    assert rating.played_games([_result(0, [2, 0, 1], [1, 2, 3])], ["x", "y", "z"]) == [(("z", "x", "y"), (1, 2, 3))]


def _plackett_luce_games(skills: dict, lineups, games: int, seed: int = 0):
    """Games drawn from the model itself: places drawn one by one by weight."""
    rng = np.random.default_rng(seed)
    out = []
    for k in range(games):
        names = list(lineups[k % len(lineups)])
        rng.shuffle(names)
        c = rating.BETA * math.sqrt(len(names))
        left, ranks = list(range(len(names))), [0] * len(names)
        for place in range(1, len(names) + 1):
            w = np.array([math.exp(skills[names[s]] / c) for s in left])
            ranks[left.pop(int(rng.choice(len(left), p=w / w.sum())))] = place
        out.append((tuple(names), tuple(ranks)))
    return out


def _tournament(games):
    """Played games as calibrate reads them: one line-up of one game each."""
    def result(names, ranks):
        return [GameResult(0, list(range(len(names))), None, [0.0] * len(names), list(ranks), 10, False)]

    return [(list(names), result(names, ranks)) for names, ranks in games]


def test_the_calibration_recovers_the_skills_the_games_were_drawn_from():
    skills = {"random": 25.0, "good": 35.0, "better": 38.0}
    games = _plackett_luce_games(skills, [("random", "good", "better"), ("good", "random", "random"),
                                          ("better", "good", "good"), ("better", "random", "random")], 6000)
    fitted = rating.calibrate(["random", "good", "better"], _tournament(games))
    r = fitted["ratings"]
    assert r["random"].mu == rating.ANCHOR_MU
    for name in ("good", "better"):
        assert abs(r[name].mu - skills[name]) < 4 * r[name].sigma, (name, r[name])
    assert fitted["check"]["random"] == pytest.approx(25.0, abs=4 * r["random"].sigma)
    # each frozen rating is what a candidate gets from the same games, the others held
    renamed = [(tuple("candidate" if n == "good" else n for n in names), ranks) for names, ranks in games
               if "good" in names]
    again = rate_one(renamed, {n: x for n, x in r.items() if n != "good"})
    assert again.mu == pytest.approx(r["good"].mu, abs=1e-6) and again.sigma == pytest.approx(r["good"].sigma, abs=1e-6)


def test_two_strong_references_the_anchor_never_beats_get_finite_ratings():
    """Sherwood's case: heuristic and ppo nearly equal, random always last. One reference at
    a time, they drifted up together for ever; fitted together they are held."""
    games = []
    for k in range(2000):
        strong = ("h", "p") if k % 2 else ("p", "h")
        games.append((("random", "random", *strong), (3, 3, 1, 2)))
        games.append((("random", strong[0], strong[1], strong[1]), (4, 1, 2, 3) if k % 3 else (4, 2, 1, 3)))
    fitted = rating.calibrate(["random", "h", "p"], _tournament(games))
    h, p = fitted["ratings"]["h"], fitted["ratings"]["p"]
    assert 25.0 < h.mu < 100.0 and 25.0 < p.mu < 100.0 and fitted["steps"] < 50
    # Results that are certain fix a gap only as far as the prior lets the games push it: twice
    # the games lift both by less than c ln 2 (c = beta sqrt 4), and their own gap stays.
    more = rating.calibrate(["random", "h", "p"], _tournament(games + games))["ratings"]
    c = rating.BETA * 2
    assert 0 < more["h"].mu - h.mu < c * math.log(2) and 0 < more["p"].mu - p.mu < c * math.log(2)
    assert (more["p"].mu - more["h"].mu) == pytest.approx(p.mu - h.mu, abs=0.5)


# --- the benchmark and its entry ----------------------------------------------------------------
@pytest.fixture(scope="module")
def tiny_scale(tmp_path_factory):
    """A 6-game-per-line-up calibration of 3-player Chickwood, in a file of its own."""
    path = tmp_path_factory.mktemp("ratings") / "ratings.json"
    entry = run_calibration("chickwood_v0", games=6, seed=1)
    store_entry(entry, path)
    return path, entry


def test_the_calibration_table_says_how_the_scale_was_fitted(tiny_scale):
    _, entry = tiny_scale
    assert (f"the anchor fitted like the others (they held at theirs): {entry['anchor_check_mu']:.2f} "
            f"(one joint fit, {entry['fit_steps']} Newton steps)") in format_calibration(entry)


def test_the_calibration_entry(tiny_scale):
    path, entry = tiny_scale
    assert entry["env"] == "chickwood_v0" and entry["anchor"] == "random"
    assert entry["config"] == {"num_players": 3, "legendary": False, "max_steps": None}
    assert list(entry["ratings"]) == ["random", "heuristic"] and entry["ratings"]["random"]["mu"] == 25.0
    assert entry["tournament"] == {"references": ["random", "heuristic"],
                                   "lineups": [["random", "heuristic", "heuristic"], ["heuristic", "random", "random"]],
                                   "games_per_lineup": 6, "games": 12, "seed": 1, "truncated": 0}
    assert entry["command"] == "forest-envs benchmark --calibrate --env chickwood_v0 --games 6 --seed 1"
    stored = load_ratings(path)
    assert stored["format"] == rating.RATINGS_FORMAT and stored["entries"] == [json.loads(json.dumps(entry))]


@pytest.fixture(scope="module")
def random_entry(tiny_scale):
    return run_benchmark("chickwood_v0", "random", games=6, seed=4, ratings_path=tiny_scale[0])


def test_the_leaderboard_entry(random_entry, tiny_scale):
    e = random_entry
    assert set(e) == {"format", "env", "config", "agent", "agent_sha256", "version", "games_per_lineup", "seed", "seeds",
                      "lineups", "skipped", "overall", "scale", "notes", "command", "measured"}
    assert (e["format"], e["env"], e["agent"], e["version"]) == (protocol.ENTRY_FORMAT, "chickwood_v0", "random", "0.1.0")
    assert e["agent_sha256"] is None  # an agent by name; a policy file's digest says which policy played
    assert e["command"] == "forest-envs benchmark --env chickwood_v0 --agent random --games 6 --seed 4"
    assert [r["name"] for r in e["lineups"]] == ["random", "heuristic", "mixed"]
    for row in e["lineups"]:
        assert row["games"] == 6 and row["games_by_seat"] == [2, 2, 2] and row["fair_share"] == 1 / 3
        assert row["win_rate"] == row["wins"] / 6 and row["truncated"] == 0
        lo, hi = row["win_ci95"]
        assert lo <= row["win_rate"] <= hi and 1 <= row["mean_rank"] <= 3
        assert set(row["rating"]) == {"mu", "sigma", "ordinal"}
    assert e["overall"]["games"] == 18 and e["overall"]["rating"]["sigma"] < e["lineups"][0]["rating"]["sigma"]
    assert e["scale"]["ratings"] == tiny_scale[1]["ratings"] and e["scale"]["tournament"]["games"] == 12
    assert e["notes"] == [] and e["skipped"][0]["name"] == "ppo"
    assert set(e["measured"]) == {"date", "wall_seconds", "load_average_1min"}


def test_the_same_seed_gives_the_same_entry_in_worker_processes(random_entry, tiny_scale):
    again = run_benchmark("chickwood_v0", "random", games=6, seed=4, workers=2, ratings_path=tiny_scale[0])
    assert {k: v for k, v in again.items() if k != "measured"} == \
        {k: v for k, v in random_entry.items() if k != "measured"}


def test_without_frozen_ratings_the_entry_says_how_to_make_them(tmp_path):
    e = run_benchmark("chickwood_v0", "random", games=4, seed=0, ratings_path=tmp_path / "none.json")
    assert e["scale"] is None and e["overall"]["rating"] is None
    assert all(row["rating"] is None for row in e["lineups"])
    assert e["notes"] == [
        "no frozen reference ratings for chickwood_v0 {'num_players': 3, 'legendary': False, 'max_steps': None}: "
        "calibrate them with forest-envs benchmark --calibrate --env chickwood_v0 --games 2000 --seed 1",
        "4 games per line-up is not a multiple of the player count: the candidate does not sit equally often "
        "at every seat"]


def test_the_table_shows_the_entry():
    entry = {"env": "g_v0", "config": {"num_players": 3}, "agent": "x.npz", "games_per_lineup": 300, "seed": 0,
             "lineups": [{"name": "random", "opponents": ["random", "random"], "games": 300, "win_rate": 0.9,
                          "win_ci95": [0.86, 0.93], "fair_share": 1 / 3, "truncated": 2, "mean_rank": 1.125,
                          "rating": {"mu": 40.0, "sigma": 1.5}},
                         {"name": "mixed", "opponents": ["heuristic", "random"], "games": 300, "win_rate": 0.5,
                          "win_ci95": [0.44, 0.56], "fair_share": 1 / 3, "truncated": 0, "mean_rank": 1.6,
                          "rating": None}],
             "overall": {"games": 600, "truncated": 2, "rating": {"mu": 38.25, "sigma": 1.0}},
             "skipped": [{"name": "ppo", "reason": "none ships"}],
             "scale": {"ratings": {"random": {"mu": 25.0, "sigma": 0.5}, "heuristic": {"mu": 33.0, "sigma": 0.25}},
                       "tournament": {"games": 4000}, "command": "forest-envs benchmark --calibrate --env g_v0"},
             "notes": ["a note"]}
    assert format_benchmark(entry).splitlines() == [
        "g_v0 (num_players=3): x.npz, 300 seat-rotated games per line-up, seed 0",
        "line-up   opponents          games  win rate          95% CI fair share truncated mean rank  rating (mu ± sigma)",
        "-" * 112,
        "random    random, random       300     0.900  [0.860, 0.930]      0.333         2      1.12         40.00 ± 1.50",
        "mixed     heuristic, random    300     0.500  [0.440, 0.560]      0.333         0      1.60                    -",
        "all                            600                                              2                   38.25 ± 1.00",
        "skipped line-up ppo: none ships",
        "rating scale (frozen): random 25.00 ± 0.50, heuristic 33.00 ± 0.25; from 4000 games of "
        "`forest-envs benchmark --calibrate --env g_v0`",
        "note: a note"]


# --- the shipped scale ------------------------------------------------------------------------------


@pytest.mark.parametrize("env_id", ["chickwood_v0", "roundforest_v0", "sherwood_v0"])
def test_the_package_ships_frozen_ratings_for_each_default_config(env_id, monkeypatch):
    monkeypatch.setattr(baselines, "FOLDER", SHIPPED_FOLDER)  # the shipped ppo is a reference
    entry = rating.find_entry(load_ratings(), env_id, config_key(env_id, {}))
    assert entry is not None, f"no frozen ratings for {env_id}'s default config"
    assert entry["ratings"]["random"]["mu"] == 25.0 and entry["anchor"] == "random"
    references = default_references(env_id)  # the shipped ppo among them
    assert "ppo" in references
    assert list(entry["ratings"]) == entry["tournament"]["references"] == references
    assert entry["ratings"]["heuristic"]["mu"] > 25.0
    assert entry["command"].startswith(f"forest-envs benchmark --calibrate --env {env_id} --games ")


# --- the command ----------------------------------------------------------------------------------
def test_the_command_prints_the_table_and_writes_the_entry(capsys, tmp_path, tiny_scale):
    out_json = tmp_path / "entry.json"
    code = cli.main(["benchmark", "--env", "chickwood_v0", "--agent", "random", "--games", "6", "--seed", "4",
                     "--ratings", str(tiny_scale[0]), "--json", str(out_json), "--quiet"])
    assert code == 0
    entry = json.loads(out_json.read_text())
    assert capsys.readouterr().out == format_benchmark(entry) + "\n"
    assert entry["command"] == "forest-envs benchmark --env chickwood_v0 --agent random --games 6 --seed 4"


def test_the_calibration_command_writes_the_ratings_file(capsys, tmp_path):
    path = tmp_path / "r.json"
    assert cli.main(["benchmark", "--calibrate", "--env", "chickwood_v0", "--games", "3", "--ratings", str(path),
                     "--quiet"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("chickwood_v0 (num_players=3, legendary=False, max_steps=None): reference ratings "
                          "frozen from 6 games (3 per line-up, seed 1, 0 truncated)\n  random")
    assert out.endswith(f"wrote the frozen ratings into {path}\n")
    assert [e["env"] for e in load_ratings(path)["entries"]] == ["chickwood_v0"]


@pytest.mark.parametrize("argv, message", [
    (["--agent", "nope"], "unknown agent 'nope'; expected one of random, heuristic"),
    (["--agent", "ismcts:sims=0"], "sims"),
    (["--agent", "no_such_policy.npz"], "no_such_policy.npz"),
    ([], "give --agent SPEC (the agent to benchmark) or --calibrate"),
    (["--agent", "random", "--calibrate"], "give --agent SPEC (benchmark an agent) or --calibrate"),
    (["--agent", "random", "--references", "random,heuristic"], "--references is for --calibrate"),
    (["--calibrate", "--references", "random,random"], "--references lists an agent twice: random,random"),
    (["--agent", "random", "--games", "0"], "--games must be at least 1, got 0"),
    (["--agent", "random", "--lineups", "robots"], "--lineups names 'robots'"),
    (["--agent", "random", "--lineups", ","], "--lineups lists no line-up"),
    (["--calibrate", "--lineups", "random"], "--lineups is for a benchmark"),
    (["--agent", "random", "--set", "num_players=9"], "num_players"),
    (["--agent", "random", "--json", "/no/such/folder/x.json"], "--json '/no/such/folder/x.json': folder"),
])
def test_bad_input_is_one_line_and_exit_2(argv, message, capsys, tmp_path):
    games = [] if "--games" in argv else ["--games", "3"]
    code = cli.main(["benchmark", "--env", "chickwood_v0", "--ratings", str(tmp_path / "r.json"), *games, *argv])
    err = capsys.readouterr().err
    assert code == 2 and err.startswith("forest-envs: ") and message in err and err.count("\n") == 1
    assert not (tmp_path / "r.json").exists()


# --- Ray ----------------------------------------------------------------------------------------------
@pytest.mark.slow
def test_ray_tasks_give_the_results_of_local_workers():
    """A private local Ray instance (``--address local``) against two worker processes: the
    same games, the same entry. About 45 s on the loaded 2-core machine, most of it Ray
    starting up."""
    pytest.importorskip("ray")
    local = run_benchmark("chickwood_v0", "random", games=6, seed=5, workers=2)
    on_ray = run_benchmark("chickwood_v0", "random", games=6, seed=5, workers=2, address="local")
    assert {k: v for k, v in on_ray.items() if k != "measured"} == {k: v for k, v in local.items() if k != "measured"}


def test_an_address_without_ray_installed_is_a_clear_error(monkeypatch, capsys):
    import sys

    monkeypatch.setitem(sys.modules, "ray", None)  # import ray: ImportError
    code = cli.main(["evaluate", "--env", "chickwood_v0", "--agents", "random,random,random", "--games", "2",
                     "--address", "local", "--quiet"])
    assert code == 2
    assert capsys.readouterr().err == ("forest-envs: --address 'local' needs ray: "
                                       "pip install 'forest_envs[rllib]'\n")


def test_a_ratings_file_of_another_kind_is_refused(tmp_path, capsys):
    path = tmp_path / "other.json"
    path.write_text('{"rows": []}')
    code = cli.main(["benchmark", "--env", "chickwood_v0", "--agent", "random", "--games", "3",
                     "--ratings", str(path), "--quiet"])
    assert code == 2
    assert capsys.readouterr().err == (f"forest-envs: {str(path)!r} is not a reference ratings file "
                                       "(format 'forest_envs reference ratings 2')\n")
    path.write_text('{"format": "forest_envs reference ratings 1", "entries": []}')
    code = cli.main(["benchmark", "--env", "chickwood_v0", "--agent", "random", "--games", "3",
                     "--ratings", str(path), "--quiet"])
    assert code == 2
    assert ("holds reference ratings of another rating model ('forest_envs reference ratings 1', this "
            "version reads 'forest_envs reference ratings 2')") in capsys.readouterr().err
