"""The policies a study's algorithms already published (``Algorithm.published``: the
``shipped_recipe``'s is the shipped ``ppo`` baseline), each evaluated as a run's final policy
is (the full protocol, its seeds, the study's references), so the report can say where the
published seed falls among the study's seeds of the same recipe:

    OUT/published/<algorithm>/<game>/final.json   the benchmark entry, with a ``published`` block

Evaluated once every run has finished, before the report; a folder that holds one keeps it.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path

from .references import read_references
from .results import FINAL, ProtocolFigures, write_atomic
from .spec import Study

FOLDER = "published"   # in the study's folder; each policy's entry is a FINAL there as a run's is
BLOCK = "published"    # the entry's key of its PublishedScores (a run's final.json has "study")


@dataclass(frozen=True, kw_only=True)
class PublishedScores(ProtocolFigures):
    """The ``published`` block of its final.json: whose policy, its own budget, its figures."""

    algorithm: str              # the study's label of the algorithm that published it
    game: str                   # the study's label of the game configuration
    agent: str                  # what ``make_agent`` played
    what: str                   # the algorithm's name for it
    learner_steps: int          # its own training budget


def published_path(out: Path, algorithm: str, game: str) -> Path:
    return out / FOLDER / algorithm / game / FINAL


def read_published(out: Path, algorithm: str, game: str) -> PublishedScores | None:
    path = published_path(out, algorithm, game)
    if not path.is_file():
        return None
    return PublishedScores(**json.loads(path.read_text())[BLOCK])


def write_published(out: Path, entry: dict, scores: PublishedScores) -> None:
    path = published_path(out, scores.algorithm, scores.game)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, json.dumps({**entry, BLOCK: asdict(scores)}, indent=1) + "\n")


def evaluate_published(study: Study, out: Path, workers: int = 1, say=print) -> list[PublishedScores]:
    """Every published policy of the study's algorithms on its games, evaluated where ``out``
    does not hold it yet (``workers`` processes: the entry is the same whatever their number)."""
    from .algorithms import algorithm
    from .run_one import full_protocol

    references = read_references(out / "references.json")
    found = []
    for a in study.algorithms:
        for game in study.games:
            policy = algorithm(a.name).published(game.env, game.config)
            if policy is None:
                continue
            scores = read_published(out, a.label, game.label)
            if scores is None:
                games = study.evaluation.final_games
                say(f"{FOLDER}/{a.label}/{game.label}: {policy.what}, {games} games per line-up")
                entry, figures = full_protocol(game.env, policy.agent, games, game.config,
                                               references[game.label], workers)
                scores = PublishedScores(algorithm=a.label, game=game.label, agent=policy.agent,
                                         what=policy.what, learner_steps=policy.learner_steps,
                                         **asdict(figures))
                write_published(out, entry, scores)
            found.append(scores)
    return found
