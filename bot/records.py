"""A member's records from their results at finished tables (one row per table, oldest
first): the best single win, the longest winning streak, and the running net coins that
/stats draws. Pure functions: the results come from `player_results`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import accumulate
from typing import Protocol

CHART_TABLES = 100
"""The chart covers a member's last hundred tables."""


class Result(Protocol):
    @property
    def game(self) -> str: ...
    @property
    def net(self) -> int: ...
    @property
    def won(self) -> bool: ...


@dataclass(frozen=True, slots=True)
class Records:
    best_win: int
    """The most coins won at one table (0 when never ahead)."""
    longest_streak: int
    """The most tables won one after another."""


def records(results: Sequence[Result]) -> Records:
    best = max((r.net for r in results), default=0)
    streak = longest = 0
    for result in results:
        streak = streak + 1 if result.won else 0
        longest = max(longest, streak)
    return Records(max(best, 0), longest)


def records_by_game(results: Sequence[Result]) -> dict[str, Records]:
    by_game: dict[str, list[Result]] = {}
    for result in results:
        by_game.setdefault(result.game, []).append(result)
    return {game: records(rows) for game, rows in by_game.items()}


def running_net(results: Sequence[Result], last: int = CHART_TABLES) -> list[tuple[str, int]]:
    """Over the last `last` tables: each table's game and the member's net coins summed
    from the first of them up to it."""
    recent = list(results)[-last:] if last > 0 else []
    totals = accumulate(r.net for r in recent)
    return [(r.game, total) for r, total in zip(recent, totals, strict=True)]
