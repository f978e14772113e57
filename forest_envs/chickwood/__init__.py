"""Chickwood Forest: card drafting, hidden cards and alms on a village grid (2-5 players)."""

from .env import env, raw_env
from .rules import ChickwoodGame, ChickwoodState, new_game

__all__ = ["ChickwoodGame", "ChickwoodState", "env", "new_game", "raw_env"]
