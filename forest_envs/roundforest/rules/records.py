"""Roundforest's records: the typed tuples the rules hand out.

The state's plain-data fields (``pos``, ``pile``) are lists of ints and hold no sub-state, so
no ``@record`` class (``core/plain.py``) is needed; what a result reads by name is a
``NamedTuple`` here instead of a dict with string keys.
"""

from __future__ import annotations

from typing import NamedTuple


class Progress(NamedTuple):
    """How far a player has come: the result's ``breakdown`` entry of one seat."""

    winner: bool
    apples: int
    debts: int
    coins: int   # copper, a silver coin counted as facts.SILVER_IN_COPPER
    item_count: int  # not "items": a dict method (Tianshou's Batch refuses such a key)

    def rank_key(self) -> tuple:
        """Higher is better: the winner, then more apples, fewer debts, more coins, more
        items."""
        return (self.winner, self.apples, -self.debts, self.coins, self.item_count)
