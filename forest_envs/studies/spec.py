"""The study file: which algorithms, on which game configurations, with which seeds, under
which budget tier, evaluated how often (docs/studies.md gives the format;
forest_envs/configs/studies/small.yaml is one). ``load_study`` reads and checks it whole
before anything runs; every error names the field.

    name: NAME
    tier: small
    seeds: [0, 1, 2, 3, 4]
    algorithms:
      - {name: maskable_ppo}                       # settings: {...}, label: ... optional
    games:
      - {env: ENV_ID, config: {num_players: 3}}    # label optional
    evaluation: {points: 10, games: 30, final_games: 300}
    statistics: {reps: 10000, curve_reps: 2000, seed: 0}
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from ..core.errors import ConfigError
from .tiers import BudgetTier, budget_tier

LABEL = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")  # a label names a folder of the results
STUDY_KEYS = ("name", "tier", "seeds", "algorithms", "games", "evaluation", "statistics")
CHECKPOINT_LINEUPS = ("random", "heuristic")  # the line-ups of the evaluations along the way


@dataclass(frozen=True)
class AlgorithmEntry:
    label: str          # the name in the results (the algorithm's name unless given)
    name: str           # the adapter (algorithms.ALGORITHMS)
    settings: dict


@dataclass(frozen=True)
class GameEntry:
    label: str          # the name in the results (the env id unless given)
    env: str
    config: dict
    num_players: int


@dataclass(frozen=True)
class EvaluationSchedule:
    points: int         # evaluations along the way, at every points-th of the budget
    games: int          # games per line-up (random, heuristic) at each of them
    final_games: int    # games per line-up of the full protocol on the final policy


@dataclass(frozen=True)
class StatisticsSettings:
    reps: int           # bootstrap resamples of each interval of the final scores
    curve_reps: int     # of each point of the learning curves and performance profiles
    seed: int           # the bootstrap's random state


@dataclass(frozen=True)
class Study:
    name: str
    tier: BudgetTier
    seeds: tuple[int, ...]
    algorithms: tuple[AlgorithmEntry, ...]
    games: tuple[GameEntry, ...]
    evaluation: EvaluationSchedule
    statistics: StatisticsSettings
    source: str         # the file it was read from
    selection: str | None = None  # what ``selected`` kept of the file's runs (None: all of them)

    @property
    def cited_source(self) -> str:
        """The study file as its results name it: a shipped study by its place in the package
        (``forest_envs/configs/studies/NAME.yaml``, the same wherever it is installed), any
        other by the path it was read from."""
        from ..train.config import SHIPPED_CONFIGS

        path = Path(self.source)
        shipped = shipped_studies().get(path.stem)
        if shipped is not None and path.resolve() == shipped.resolve():
            return f"forest_envs/{SHIPPED_CONFIGS}/{SHIPPED_STUDIES}/{path.name}"
        return self.source

    def point_steps(self) -> list[int]:
        """The learner steps of the evaluations along the way (the last one is the budget)."""
        every = self.tier.learner_steps // self.evaluation.points  # (points divide it: checked)
        return [every * k for k in range(1, self.evaluation.points + 1)]

    def selected(self, games: Sequence[str] = (), algorithms: Sequence[str] = (),
                 seeds: Sequence[int] = ()) -> Study:
        """The study cut to the games and algorithms of these labels and these seeds (each:
        all of the study's when empty), in the study's order. Its runs are the study's own
        (the same plans and folders), so a cut run first and the whole study later share their
        finished runs; its report covers the cut only and says so. A label or seed the study
        does not have is a ConfigError naming the ones it has."""
        def keep(kind: str, given: Sequence, have: list) -> list:
            unknown = [x for x in given if x not in have]
            if unknown:
                raise ConfigError(f"study {self.name} has no {kind} {', '.join(map(str, unknown))}; "
                                  f"its {kind}s are {', '.join(map(str, have))}")
            return [x for x in have if x in given] if given else have

        kept_games = keep("game", games, [g.label for g in self.games])
        kept_algorithms = keep("algorithm", algorithms, [a.label for a in self.algorithms])
        kept_seeds = keep("seed", seeds, list(self.seeds))
        if not (games or algorithms or seeds):
            return self
        parts = [f"{kind} {', '.join(map(str, kept))}" for kind, given, kept in (
            ("games", games, kept_games), ("algorithms", algorithms, kept_algorithms),
            ("seeds", seeds, kept_seeds)) if given]
        return replace(self, games=tuple(g for g in self.games if g.label in kept_games),
                       algorithms=tuple(a for a in self.algorithms if a.label in kept_algorithms),
                       seeds=tuple(kept_seeds), selection="; ".join(parts))


# --- reading ------------------------------------------------------------------------------------

def _mapping(value: object, where: str, keys: tuple[str, ...], required: tuple[str, ...] = ()) -> dict:
    if not isinstance(value, dict):
        raise ConfigError(f"{where} must be a mapping with keys {', '.join(keys)}, not "
                          f"{type(value).__name__}")
    unknown = sorted(set(map(str, value)) - set(keys))
    if unknown:
        raise ConfigError(f"{where}: unknown key(s) {', '.join(unknown)}; the keys are {', '.join(keys)}")
    missing = [k for k in required if k not in value]
    if missing:
        raise ConfigError(f"{where}: missing {', '.join(missing)}")
    return value


def _int(value: object, where: str, low: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        raise ConfigError(f"{where} must be an integer >= {low}, not {value!r}")
    return value


def _label(value: object, where: str) -> str:
    if not isinstance(value, str) or not LABEL.fullmatch(value):
        raise ConfigError(f"{where} must be a name of letters, digits, _ . - (it names a folder), "
                          f"not {value!r}")
    return value


def _unique(labels: list[str], where: str) -> None:
    twice = sorted({x for x in labels if labels.count(x) > 1})
    if twice:
        raise ConfigError(f"{where}: {', '.join(twice)} named twice; give each entry its own label")


def _algorithms(raw: object) -> tuple[AlgorithmEntry, ...]:
    from .algorithms import algorithm

    if not isinstance(raw, list) or not raw:
        raise ConfigError("algorithms must be a non-empty list of {name: ..., settings: {...}}")
    out = []
    for i, item in enumerate(raw):
        where = f"algorithms[{i}]"
        item = _mapping(item, where, ("name", "label", "settings"), ("name",))
        algorithm(item["name"], f"{where}.name")
        settings = item.get("settings") or {}
        if not isinstance(settings, dict):
            raise ConfigError(f"{where}.settings must be a mapping, not {type(settings).__name__}")
        out.append(AlgorithmEntry(_label(item.get("label", item["name"]), f"{where}.label"),
                                  item["name"], dict(settings)))
    _unique([a.label for a in out], "algorithms")
    return tuple(out)


def _games(raw: object) -> tuple[GameEntry, ...]:
    from ..core.registry import env_ids, game_spec
    from ..envs.registration import make_raw

    if not isinstance(raw, list) or not raw:
        raise ConfigError("games must be a non-empty list of {env: ENV_ID, config: {...}}")
    out = []
    for i, item in enumerate(raw):
        where = f"games[{i}]"
        item = _mapping(item, where, ("env", "config", "label"), ("env",))
        env = item["env"]
        if env not in env_ids():
            raise ConfigError(f"{where}.env: {env!r} is not a registered env id; they are "
                              f"{', '.join(env_ids())}")
        config = item.get("config") or {}
        if not isinstance(config, dict):
            raise ConfigError(f"{where}.config must be a mapping of game options")
        try:
            game = make_raw(env, **config).game
        except ConfigError as err:
            raise ConfigError(f"{where}.config: {err}") from None
        if game_spec(env).heuristic is None:
            raise ConfigError(f"{where}: {env} has no heuristic agent, and a study's scores are "
                              "measured against the heuristic line-up (heuristic = 1)")
        out.append(GameEntry(_label(item.get("label", env), f"{where}.label"), env, dict(config),
                             game.num_players))
    _unique([g.label for g in out], "games")
    return tuple(out)


def _seeds(raw: object) -> tuple[int, ...]:
    if not isinstance(raw, list) or not raw:
        raise ConfigError("seeds must be a non-empty list of integers >= 0")
    seeds = tuple(_int(s, f"seeds[{i}]", 0) for i, s in enumerate(raw))
    if len(set(seeds)) != len(seeds):
        raise ConfigError(f"seeds lists a seed twice: {list(seeds)}")
    return seeds


def _evaluation(raw: object, tier: BudgetTier, games: tuple[GameEntry, ...]) -> EvaluationSchedule:
    from ..benchmark import DEFAULT_GAMES

    raw = _mapping(raw if raw is not None else {}, "evaluation", ("points", "games", "final_games"))
    schedule = EvaluationSchedule(_int(raw.get("points", 10), "evaluation.points", 1),
                                  _int(raw.get("games", 30), "evaluation.games", 1),
                                  _int(raw.get("final_games", DEFAULT_GAMES), "evaluation.final_games", 1))
    if tier.learner_steps % schedule.points:
        # the trainers checkpoint every budget/points steps: the points must be its multiples
        raise ConfigError(f"evaluation.points={schedule.points} does not divide the {tier.name} "
                          f"tier's {tier.learner_steps:,} learner steps into equal parts")
    for field in ("games", "final_games"):
        count = getattr(schedule, field)
        for g in games:
            if count % g.num_players:
                raise ConfigError(f"evaluation.{field}={count} is not a multiple of {g.num_players}, "
                                  f"the player count of {g.label}: the candidate would not sit "
                                  "equally often at every seat")
    return schedule


def _statistics(raw: object) -> StatisticsSettings:
    raw = _mapping(raw if raw is not None else {}, "statistics", ("reps", "curve_reps", "seed"))
    return StatisticsSettings(_int(raw.get("reps", 10_000), "statistics.reps", 100),
                              _int(raw.get("curve_reps", 2_000), "statistics.curve_reps", 100),
                              _int(raw.get("seed", 0), "statistics.seed", 0))


def parse_study(raw: object, source: str = "<study>") -> Study:
    """A study from its YAML's data; a ConfigError names the first bad field."""
    raw = _mapping(raw, "the study file", STUDY_KEYS, ("name", "tier", "seeds", "algorithms", "games"))
    name = _label(raw["name"], "name")
    tier = budget_tier(raw["tier"], "tier")
    games = _games(raw["games"])
    study = Study(name, tier, _seeds(raw["seeds"]), _algorithms(raw["algorithms"]), games,
                  _evaluation(raw.get("evaluation"), tier, games), _statistics(raw.get("statistics")),
                  source)
    from .algorithms import algorithm

    for i, entry in enumerate(study.algorithms):
        for game in games:
            algorithm(entry.name).check(entry.settings, game.env, game.config,
                                        f"algorithms[{i}].settings (on {game.label})")
    return study


SHIPPED_STUDIES = "studies"  # under the package's configs folder


def shipped_studies() -> dict[str, Path]:
    """The studies that ship inside the package, by name (forest_envs/configs/studies/)."""
    from importlib.resources import files

    from ..train.config import SHIPPED_CONFIGS

    folder = Path(str(files("forest_envs") / SHIPPED_CONFIGS / SHIPPED_STUDIES))
    return {p.stem: p for p in sorted(folder.glob("*.yaml"))}


def resolve_study(given: str | Path) -> Path:
    """A study file: a path, or the name of a shipped one (forest_envs/configs/studies/)."""
    path = Path(given)
    if path.is_file():
        return path
    shipped = shipped_studies()
    name = path.name.removesuffix(".yaml")
    if str(given) in (name, f"{name}.yaml") and name in shipped:
        return shipped[name]
    raise ConfigError(f"study file {str(given)!r} does not exist; give a YAML file or the name of "
                      f"a shipped study: {', '.join(shipped)}")


def load_study(given: str | Path) -> Study:
    import yaml

    path = resolve_study(given)
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        where = f", line {mark.line + 1}" if mark is not None else ""
        raise ConfigError(f"study file {str(path)!r} is not valid YAML{where}: "
                          f"{getattr(err, 'problem', None) or err}") from None
    except (OSError, UnicodeDecodeError) as err:
        raise ConfigError(f"cannot read study file {str(path)!r}: {err}") from None
    try:
        return parse_study(raw, str(path))
    except ConfigError as err:
        raise ConfigError(f"study file {str(path)!r}: {err}") from None
