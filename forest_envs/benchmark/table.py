"""The benchmark's printed tables, computed from its JSON entries alone (what a leaderboard
stores is what is shown)."""

from __future__ import annotations


def _config_text(config: dict) -> str:
    return ", ".join(f"{k}={v}" for k, v in config.items())


def _rating_text(rating: dict | None) -> str:
    return "-" if rating is None else f"{rating['mu']:.2f} ± {rating['sigma']:.2f}"


def format_benchmark(entry: dict) -> str:
    """One row per line-up and a row for all of them: games, win rate with its 95% Wilson
    interval, the fair share, truncated games, mean rank (1 = first) and the candidate's
    rating on the frozen scale; then the skipped line-ups, the scale and the notes."""
    rows = entry["lineups"]
    width = max([9] + [len(r["name"]) for r in rows])
    opp = max([9] + [len(", ".join(r["opponents"])) for r in rows])
    head = (f"{'line-up':<{width}} {'opponents':<{opp}} {'games':>6} {'win rate':>9} "
            f"{'95% CI':>15} {'fair share':>10} {'truncated':>9} {'mean rank':>9} "
            f"{'rating (mu ± sigma)':>20}")
    lines = [f"{entry['env']} ({_config_text(entry['config'])}): {entry['agent']}, "
             f"{entry['games_per_lineup']} seat-rotated games per line-up, seed {entry['seed']}",
             head, "-" * len(head)]
    for r in rows:
        lo, hi = r["win_ci95"]
        lines.append(f"{r['name']:<{width}} {', '.join(r['opponents']):<{opp}} {r['games']:>6} "
                     f"{r['win_rate']:>9.3f} {f'[{lo:.3f}, {hi:.3f}]':>15} {r['fair_share']:>10.3f} "
                     f"{r['truncated']:>9} {r['mean_rank']:>9.2f} {_rating_text(r['rating']):>20}")
    total = entry["overall"]
    lines.append(f"{'all':<{width}} {'':<{opp}} {total['games']:>6} {'':>9} {'':>15} {'':>10} "
                 f"{total['truncated']:>9} {'':>9} {_rating_text(total['rating']):>20}")
    for s in entry["skipped"]:
        lines.append(f"skipped line-up {s['name']}: {s['reason']}")
    scale = entry["scale"]
    if scale:
        refs = ", ".join(f"{name} {r['mu']:.2f} ± {r['sigma']:.2f}" for name, r in scale["ratings"].items())
        t = scale["tournament"]
        lines.append(f"rating scale (frozen): {refs}; from {t['games']} games of `{scale['command']}`")
    lines += [f"note: {n}" for n in entry["notes"]]
    return "\n".join(lines)


def format_calibration(entry: dict) -> str:
    t = entry["tournament"]
    lines = [f"{entry['env']} ({_config_text(entry['config'])}): reference ratings frozen from "
             f"{t['games']} games ({t['games_per_lineup']} per line-up, seed {t['seed']}, "
             f"{t['truncated']} truncated)"]
    for name, r in entry["ratings"].items():
        anchor = f" (anchor, held at {r['mu']:.2f})" if name == entry["anchor"] else ""
        lines.append(f"  {name:<20} {r['mu']:>7.2f} ± {r['sigma']:.2f}{anchor}")
    lines.append(f"  the anchor fitted like the others (they held at theirs): "
                 f"{entry['anchor_check_mu']:.2f} (one joint fit, {entry['fit_steps']} Newton steps)")
    return "\n".join(lines)
