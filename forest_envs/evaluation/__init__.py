"""Evaluation: seat-rotated games between any agents on any game, their summary with
confidence intervals and ratings, and the worker pools that play games in parallel.

``run.py`` plays and summarises; ``workers.py`` holds the process pools (and Ray tasks) that
evaluation, the benchmark, the HTML replay's pictures and training all use.
"""

from .run import (
    GameResult,
    GamesInterrupted,
    format_game,
    format_table,
    has_winner,
    play_game,
    plot_learning_curve,
    plot_ratings,
    ratings,
    ratings_figure,
    ratings_notes,
    read_learning_curve,
    run_games,
    short_labels,
    summarize,
    wilson,
    write_csv,
)

__all__ = ["GameResult", "GamesInterrupted", "format_game", "format_table", "has_winner", "play_game", "plot_learning_curve",
           "plot_ratings", "ratings", "ratings_figure", "ratings_notes", "read_learning_curve", "run_games",
           "short_labels", "summarize", "wilson", "write_csv"]
