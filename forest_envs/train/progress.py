"""Training's progress display: each stage's lines and bars (``Progress``, also used by the warm
start) and PPO's progress toward whichever limit ends the run first (``LimitProgress``)."""

from __future__ import annotations

import sys
import time
from typing import TYPE_CHECKING

import numpy as np
from tqdm import tqdm

if TYPE_CHECKING:
    from .runs import Run


class Progress:
    """What a person sees while a run works: tqdm bars when stderr is a terminal, and plain
    lines on stdout (flushed, so a log file shows them as they come) for every stage."""

    def __init__(self, enabled: bool = True):
        self.enabled = enabled
        self.tty = enabled and sys.stderr.isatty()

    def line(self, text: str) -> None:
        if self.enabled:
            tqdm.write(text, file=sys.stdout)  # keeps a bar on the terminal intact
            sys.stdout.flush()

    def bar(self, total: int, desc: str, unit: str, **kwargs) -> tqdm:
        """A bar (a no-op one when not on a terminal): ``with progress.bar(...) as b: b.update()``."""
        return tqdm(total=total, desc=desc, unit=unit, disable=not self.tty, leave=False,
                    dynamic_ncols=True, **kwargs)


def _minutes(seconds: float) -> str:
    seconds = max(0, int(seconds))
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


class LimitProgress:
    """PPO's progress toward whichever limit ends the run first. At a steady step rate that is
    the one further along, so the bar counts time when the time limit binds (and its ETA is
    the time left) and steps otherwise; in a log it writes a line at every tenth of the run."""

    def __init__(self, progress: Progress, run: Run, start_steps: int):
        self.progress, self.run, self.cfg = progress, run, run.cfg
        limit = self.cfg["time_limit_minutes"]
        progress.line(f"ppo: from step {start_steps:,} until total_timesteps={self.cfg['total_timesteps']:,}"
                      + (f" or time_limit_minutes={limit:g}, whichever comes first" if limit else ""))
        self.start_steps, self.started = start_steps, time.time()
        # Per mille of the run; the postfix says which limit that is and what is left.
        self.bar = progress.bar(1000, "ppo", "", bar_format="{desc} {percentage:3.0f}%|{bar}| {elapsed}{postfix}")
        self.last_shown, self.next_line = 0.0, 0.1

    def status(self, t: int, rate: float) -> tuple[str, float, float | None]:
        """(binding limit, fraction of the run done, seconds left or None if unknown)."""
        total, limit = self.cfg["total_timesteps"], self.cfg["time_limit_minutes"]
        if limit is not None:
            elapsed = self.run.clock.total()
            if elapsed / (limit * 60) > t / total:
                return f"time limit {limit:g} min", elapsed / (limit * 60), limit * 60 - elapsed
        return f"step budget {total:,}", t / total, (total - t) / rate if rate > 0 else None

    def update(self, t: int) -> None:
        now = time.time()
        if now - self.last_shown < 0.5:
            return
        self.last_shown = now
        rate = (t - self.start_steps) / max(now - self.started, 1e-9)
        why, done, left = self.status(t, rate)
        text = f"{t:,} steps, {rate:,.0f} steps/s, {_minutes(left) if left is not None else '?'} left"
        if self.progress.tty:
            self.bar.n = min(1000, int(done * 1000))
            self.bar.set_postfix_str(f"{text} ({why})", refresh=False)
            self.bar.refresh()
        elif done >= self.next_line:
            self.progress.line(f"ppo: {min(done, 1.0):.0%} of the {why}: {text}")
            self.next_line = np.floor(done * 10 + 1) / 10

    def close(self) -> None:
        self.bar.close()
