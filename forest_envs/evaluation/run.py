"""Seat-rotated evaluation of any agents on any game, optionally in worker processes.

Every game's seed and every agent's seed derive from (seed, game index) alone, so results
are identical whatever the number of workers.
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Callable, Collection
from dataclasses import dataclass, field

import numpy as np

from ..agents import make_agent
from ..agents.policy import check_agent_fits
from ..core.errors import ConfigError
from ..envs.registration import make_raw
from .workers import map_in_ray, map_in_workers, one_blas_thread, ray_cluster


def _seed(*parts: int) -> int:
    return int(np.random.SeedSequence(list(parts)).generate_state(1, np.uint64)[0] % 2**62)


@dataclass
class GameResult:
    index: int
    seats: list[int]            # seats[s] = index (in the agent list) of the agent at seat s
    scores: list[int] | None    # by seat; None in games without points
    win_shares: list[float]     # by seat: 1/k for each of k winners; all 0 when truncated
    ranks: list[int]            # by seat, the game's own ranking (ties share a place)
    steps: int
    truncated: bool
    breakdowns: list[dict] = field(default_factory=list)
    record: dict = field(default_factory=dict)  # env.record(): replays this very game


def play_game(env_id: str, agent_specs: list[str], index: int, seed: int, config: dict) -> GameResult:
    """Game ``index``: the agent list is rotated by ``index`` seats."""
    n = len(agent_specs)
    env = make_raw(env_id, **config)
    seats = [(s + index) % n for s in range(n)]
    agents = [make_agent(env_id, agent_specs[i], seed=_seed(seed, index, i)) for i in seats]
    for a in agents:
        if hasattr(a, "reset"):
            a.reset()
    env.reset(seed=_seed(seed, index))
    state = env.engine_state
    steps = 0
    truncated = False
    while not state.is_terminal:
        p = state.current_player
        env.step(agents[p].act(env, env.possible_agents[p]))
        steps += 1
        if env.truncations[env.possible_agents[p]]:
            truncated = True
            break
    # The env's own end infos are the result (ranks; nobody wins a truncated game).
    infos = [env.infos[a] for a in env.possible_agents]
    winners = [info["winner"] for info in infos]
    k = sum(winners)
    return GameResult(index, seats, state.totals(), [1.0 / k if w else 0.0 for w in winners],
                      [info["rank"] for info in infos], steps, truncated,
                      [info["breakdown"] for info in infos], env.record())


class GamesInterrupted(KeyboardInterrupt):
    """Ctrl-C while ``run_games`` played: ``results`` holds the games that finished, in game
    order (not necessarily the first ones: workers finish games out of order)."""

    def __init__(self, results: list[GameResult]):
        super().__init__()
        self.results = results


def _play_chunk(args) -> list[GameResult]:
    env_id, specs, indices, seed, config = args
    return [play_game(env_id, specs, i, seed, config) for i in indices]


def run_games(env_id: str, agent_specs: list[str], games: int, seed: int = 0,
              config: dict | None = None, workers: int = 1, progress: bool = False,
              address: str | None = None, played: Collection[int] = (),
              on_game: Callable[[GameResult], None] | None = None) -> list[GameResult]:
    """``games`` seat-rotated games, in ``workers`` processes, or as Ray tasks on the cluster
    at ``address`` (``"local"``: a private Ray instance of ``workers`` CPUs); the results, in
    game order, are the same whichever runs them. Ctrl-C stops at once and raises
    GamesInterrupted with the games that finished.

    ``played``: indices of games already played elsewhere (a benchmark's journal), which are
    skipped: the results are then those of the other games. ``on_game`` is called with each
    game as it finishes (in this process, in the order they finish), before the next."""
    config = dict(config or {})
    config.setdefault("num_players", len(agent_specs))
    if config["num_players"] != len(agent_specs):
        # ConfigError (a ValueError): the CLI reports it as a usage error, not a traceback.
        raise ConfigError(f"{len(agent_specs)} agents given for {config['num_players']} players")
    env = make_raw(env_id, **config)  # validate the config before starting workers
    for spec in set(agent_specs):
        check_agent_fits(make_agent(env_id, spec, seed=0), env)  # a policy for another game
    skipped = set(played)
    indices = [i for i in range(games) if i not in skipped]
    if address:
        with ray_cluster(address, num_cpus=workers) as cpus:
            # about four jobs per CPU, at most 50 games each: a task costs more than a job
            jobs = _chunks(env_id, agent_specs, indices, seed, config,
                           max(1, min(50, len(indices) // (cpus * 4))))
            return _collect(map_in_ray(_play_chunk, jobs), len(indices), progress, on_game)
    # One game a job, so that a Ctrl-C keeps every game that finished: 10% slower than jobs of
    # 50 games for 400 random games on 2 workers of the game with the cheapest games.
    jobs = _chunks(env_id, agent_specs, indices, seed, config, 1)
    if workers <= 1:
        # In this process, with one BLAS thread as a worker process has (workers.py,
        # one_blas_thread): a policy's matrix products are one observation each. With
        # OpenBLAS's thread per core, on a machine whose other core was busy, the forward
        # pass of a policy reading 3,062 floats took 8 ms instead of 0.3 ms, and a study's
        # checkpoint evaluation 6 minutes (2026-12-05). The games are the same either way.
        with one_blas_thread():
            return _collect(map(_play_chunk, jobs), len(indices), progress, on_game)
    return _collect(map_in_workers(_play_chunk, jobs, workers, ordered=False), len(indices),
                    progress, on_game)


def _chunks(env_id, agent_specs, indices: list[int], seed, config, per_job: int) -> list[tuple]:
    """The games as jobs of ``per_job`` indices each, in order; how they are cut never
    changes a result."""
    return [(env_id, agent_specs, indices[i:i + per_job], seed, config)
            for i in range(0, len(indices), per_job)]


def _collect(parts, games: int, progress: bool,
             on_game: Callable[[GameResult], None] | None = None) -> list[GameResult]:
    bar = _progress(games) if progress else None
    results: list[GameResult] = []
    try:
        for part in parts:
            results += part
            if on_game is not None:
                for result in part:
                    on_game(result)
            if bar:
                bar.update(len(part))
    except KeyboardInterrupt:
        raise GamesInterrupted(sorted(results, key=lambda r: r.index)) from None
    finally:
        if bar:
            bar.close()
    return sorted(results, key=lambda r: r.index)


def _progress(total: int):
    try:
        from tqdm import tqdm
    except ImportError:
        return None
    return tqdm(total=total, unit="game", leave=False)


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def has_winner(result: GameResult) -> bool:
    """False for a game nobody won: cut at max_steps, or ended by an illegal action."""
    return sum(result.win_shares) > 0


def summarize(agent_specs: list[str], results: list[GameResult]) -> list[dict]:
    """One row per listed agent: win rate with 95% Wilson interval, the share of its games
    another agent won (``lost``) and nobody won (``no_winner``: truncated at max_steps or
    ended by an illegal action), so win_rate + lost + no_winner = 1; mean score and rank."""
    rows = []
    no_winner = sum(not has_winner(r) for r in results) / len(results) if results else 0.0
    truncated = sum(r.truncated for r in results)
    for i, spec in enumerate(agent_specs):
        wins, scores, ranks = [], [], []
        for r in results:
            seat = r.seats.index(i)
            wins.append(r.win_shares[seat])
            if r.scores is not None:
                scores.append(r.scores[seat])
            ranks.append(r.ranks[seat])
        lo, hi = wilson(sum(wins), len(wins))
        win_rate = float(np.mean(wins)) if wins else 0.0
        rows.append({"agent": f"{i}:{spec}", "games": len(results),
                     "win_rate": win_rate, "win_ci95": (lo, hi),
                     "lost": max(0.0, 1.0 - win_rate - no_winner) if results else 0.0,
                     "no_winner": no_winner, "truncated": truncated,
                     "mean_score": float(np.mean(scores)) if scores else None,
                     "score_sd": float(np.std(scores)) if scores else None,
                     "mean_rank": float(np.mean(ranks)) if ranks else 0.0})
    return rows


def format_table(rows: list[dict]) -> str:
    """The results table: one row per agent (win rate + lost + no winner = 1 in each row),
    then, when the rows carry skills (OpenSkill ratings among these agents: not the
    benchmark's rating scale, hence another word), what they are and whether they are settled."""
    rated = all("skill_mu" in r for r in rows)
    width = max([12] + [len(r["agent"]) for r in rows])  # long policy paths stay aligned
    head = (f"{'agent':<{width}} {'games':>5} {'win rate':>8} {'95% CI':>14} {'lost':>5} "
            f"{'no winner':>9} {'mean score':>10} {'mean rank':>9}"
            + (f" {'skill (mu ± sigma)':>19}" if rated else ""))
    lines = [head, "-" * len(head)]
    for r in rows:
        lo, hi = r["win_ci95"]
        no_winner = r.get("no_winner", 0.0)
        lost = r.get("lost", max(0.0, 1.0 - r["win_rate"] - no_winner))
        score = "-" if r["mean_score"] is None else f"{r['mean_score']:.2f}"
        line = (f"{r['agent']:<{width}} {r['games']:>5} {r['win_rate']:>8.3f} "
                f"{f'[{lo:.3f}, {hi:.3f}]':>14} {lost:>5.3f} {no_winner:>9.3f} {score:>10} "
                f"{r['mean_rank']:>9.2f}")
        if rated:
            rating = f"{r['skill_mu']:.2f} ± {r['skill_sigma']:.2f}"
            line += f" {rating:>19}"
        lines.append(line)
    if rows and rows[0].get("no_winner"):
        truncated = rows[0].get("truncated")
        why = (f"{truncated} truncated at max_steps" if truncated is not None else "truncated")
        lines.append(textwrap.fill(f"no winner: the share of games nobody won ({why}; an "
                                   "illegal action also ends a game without winner)", 99,
                                   subsequent_indent="  "))
    if rated:
        lines += ratings_notes(rows)
    return "\n".join(lines)


# A skill whose sigma is still above this share of OpenSkill's starting sigma (25/3) is
# called not settled: the games have not yet pinned it down.
UNSETTLED_SIGMA_SHARE = 2 / 3
START_SIGMA = 25 / 3


def ratings_notes(rows: list[dict]) -> list[str]:
    """What the skill column is, and why it is not yet settled when it is not: a sigma
    still large, or two agents the skills order against both their win rates and ranks."""
    rated_games = rows[0].get("skill_games")
    over = f" over the {rated_games} games with a winner" if rated_games is not None else ""
    lines = [f"skill: OpenSkill (Plackett-Luce) mu ± sigma among these agents only, updated game "
             f"by game in game order{over}; not comparable with forest-envs benchmark's ratings, "
             "which are on a fixed scale"]
    limit = UNSETTLED_SIGMA_SHARE * START_SIGMA
    wide = [f"{r['agent']} ({r['skill_sigma']:.2f})" for r in rows if r["skill_sigma"] > limit]
    reasons = [f"sigma above {limit:.2f} (2/3 of the starting {START_SIGMA:.2f}) for "
               + ", ".join(wide)] if wide else []
    for a in rows:
        for b in rows:
            if (a["skill_mu"] > b["skill_mu"] and a["win_rate"] < b["win_rate"]
                    and a["mean_rank"] > b["mean_rank"]):
                reasons.append(f"{a['agent']} has a higher skill than {b['agent']}, whose win "
                               "rate and mean rank are better")
    if reasons:
        lines.append("skills not yet settled (play more games): " + "; ".join(reasons))
    return [textwrap.fill(line, 99, subsequent_indent="  ", break_on_hyphens=False)
            for line in lines]


def format_game(result: GameResult, agent_specs: list[str]) -> str:
    """One played game as a short table: each seat (P0, P1, ...), its agent, score and place;
    a game cut at max_steps or by an illegal action says nobody wins, and its places are
    only the standing when it stopped."""
    finished = has_winner(result)
    if result.truncated:
        head = f"game {result.index}: {result.steps} steps, truncated at max_steps: nobody wins"
    elif not finished:
        head = f"game {result.index}: {result.steps} steps, ended by an illegal action: nobody wins"
    else:
        winners = [f"P{s}" for s, share in enumerate(result.win_shares) if share > 0]
        head = (f"game {result.index}: {result.steps} steps, "
                f"{'winner' if len(winners) == 1 else 'winners (shared)'} {', '.join(winners)}")
    names = [f"{i}:{agent_specs[i]}" for i in result.seats]
    width = max([5] + [len(n) for n in names])
    place = "place" if finished else "standing"
    lines = [head, f"  seat {'agent':<{width}}" + ("  score" if result.scores is not None else "")
             + f"  {place}"]
    for seat, name in enumerate(names):
        score = "" if result.scores is None else f"  {result.scores[seat]:>5}"
        won = "  won" if finished and result.win_shares[seat] > 0 else ""
        lines.append(f"  P{seat:<3} {name:<{width}}{score}  {result.ranks[seat]:>{len(place)}}{won}")
    return "\n".join(lines)


def ratings(agent_specs: list[str], results: list[GameResult]) -> list[dict]:
    """OpenSkill (Plackett-Luce) ratings per listed agent, updated game by game in index
    order, so the same games give the same ratings however they were scheduled. A game
    nobody won (truncated, or ended by an illegal action) is left out: its places are only
    the standing when it stopped. ``games``: how many games were rated."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    rated = [model.rating(name=f"{i}:{spec}") for i, spec in enumerate(agent_specs)]
    finished = [r for r in sorted(results, key=lambda g: g.index) if has_winner(r)]
    for r in finished:
        teams = [[rated[r.seats[s]]] for s in range(len(r.seats))]
        new = model.rate(teams, ranks=list(r.ranks))
        for s, team in enumerate(new):
            rated[r.seats[s]] = team[0]
    return [{"agent": f"{i}:{spec}", "mu": float(x.mu), "sigma": float(x.sigma),
             "ordinal": float(x.ordinal()), "games": len(finished)}
            for i, (spec, x) in enumerate(zip(agent_specs, rated))]


def write_csv(path, rows: list[dict]) -> None:
    import csv

    flat = []
    for row in rows:
        row = dict(row)
        if "win_ci95" in row:
            row["win_ci_low"], row["win_ci_high"] = row.pop("win_ci95")
        flat.append(row)
    with open(path, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(flat[0]))
        writer.writeheader()
        writer.writerows(flat)


def short_labels(agents: list[str], width: int = 16) -> list[str]:
    """Axis labels for agent names ("<index>:<spec>"): a policy path is cut to its file name
    (with as many parent folders as it takes to tell equal file names apart) and wrapped at
    ``width`` characters, so long paths neither overlap nor crowd a chart."""
    import textwrap
    from pathlib import PurePath

    split = [a.partition(":") if ":" in a else ("", "", a) for a in agents]
    parts = [PurePath(spec).parts or (spec,) for _, _, spec in split]
    depth = 1
    while depth < max(len(p) for p in parts):
        tails = ["/".join(p[-depth:]) for p in parts]
        if len(set(tails)) == len(tails):
            break
        depth += 1
    labels = []
    for (index, colon, _), p in zip(split, parts):
        tail = "/".join(p[-depth:])
        text = f"{index}{colon}{'…/' if len(p) > depth else ''}{tail}"
        labels.append("\n".join(textwrap.wrap(text, width, break_on_hyphens=False)) or text)
    return labels


def ratings_figure(rows: list[dict]):
    """The ratings bar chart as a matplotlib figure (``plot_ratings`` saves it)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    labels = short_labels([r["agent"] for r in rows])
    lines = max(label.count("\n") + 1 for label in labels)
    fig, ax = plt.subplots(figsize=(max(4.0, 1.5 * len(rows)), 3.0 + 0.25 * lines))
    x = np.arange(len(rows))
    ax.bar(x, [r["mu"] for r in rows], yerr=[2 * r["sigma"] for r in rows], capsize=4,
           color="#4a7f4a")
    ax.set_xticks(x)
    # Slanted when there are many: each label then takes the room of its height, not width.
    many = len(rows) > 4
    ax.set_xticklabels(labels, fontsize=8, rotation=30 if many else 0,
                       ha="right" if many else "center", rotation_mode="anchor")
    ax.set_ylabel("OpenSkill mu (±2σ)")
    ax.set_title("Skill (OpenSkill, among these agents)")
    fig.tight_layout()
    return fig


def plot_ratings(rows: list[dict], path) -> None:
    """Bar chart of ratings (mu with a 2-sigma bar) to a PNG."""
    import matplotlib.pyplot as plt

    fig = ratings_figure(rows)
    fig.savefig(path, dpi=120)
    plt.close(fig)


LEARNING_CURVE_COLUMNS = ("opponent", "timesteps", "win_rate", "ci_low", "ci_high")


def read_learning_curve(eval_csv) -> dict[str, list[tuple]]:
    """A run's eval.csv as {opponent: [(timesteps, win_rate, ci_low, ci_high), ...]}; a file
    that is missing, not a CSV, without these columns or with a bad value is a ConfigError
    naming the file (and line)."""
    import csv
    from pathlib import Path

    path = Path(eval_csv)
    if not path.is_file():
        raise ConfigError(f"{str(path)!r} does not exist" if not path.exists()
                          else f"{str(path)!r} is not a file")
    expected = ", ".join(LEARNING_CURVE_COLUMNS)
    series: dict[str, list[tuple]] = {}
    try:
        with path.open(newline="", encoding="utf-8") as f:
            reader = csv.DictReader(f)
            missing = [c for c in LEARNING_CURVE_COLUMNS if c not in (reader.fieldnames or [])]
            if missing:
                raise ConfigError(f"{str(path)!r} is not a training run's eval.csv (columns "
                                  f"{expected}): it has no column(s) {', '.join(missing)}")
            for row in reader:
                try:
                    point = (int(float(row["timesteps"])), float(row["win_rate"]),
                             float(row["ci_low"]), float(row["ci_high"]))
                except (TypeError, ValueError):
                    raise ConfigError(f"{str(path)!r} line {reader.line_num}: expected numbers in "
                                      f"timesteps, win_rate, ci_low, ci_high") from None
                series.setdefault(row["opponent"], []).append(point)
    except (UnicodeDecodeError, csv.Error) as err:
        raise ConfigError(f"{str(path)!r} is not a CSV text file ({type(err).__name__})") from None
    except OSError as err:
        raise ConfigError(f"cannot read {str(path)!r}: {err.strerror or err}") from None
    if not series:
        raise ConfigError(f"{str(path)!r} holds no evaluation rows")
    return series


def plot_learning_curve(eval_csv, path) -> None:
    """Win rate against each opponent over training time, from a run's eval.csv."""
    series = read_learning_curve(eval_csv)  # checked before matplotlib is even imported

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 3.5))
    for name, pts in sorted(series.items()):
        pts.sort()
        t = [p[0] for p in pts]
        ax.plot(t, [p[1] for p in pts], marker="o", label=f"vs {name}")
        ax.fill_between(t, [p[2] for p in pts], [p[3] for p in pts], alpha=0.2)
    ax.set_xlabel("timesteps")
    ax.set_ylabel("win rate")
    ax.set_ylim(0, 1)
    ax.legend()
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
