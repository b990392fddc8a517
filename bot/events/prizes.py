"""The prize split: whole coins, exactly the pool, ties sharing."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from itertools import groupby
from math import floor

from bot.events.model import Ranked


def split_prizes(pool: int, split: Sequence[int], ranking: Sequence[Ranked]) -> dict[int, int]:
    """Coins per member, summing exactly to ``pool`` whenever ``ranking`` is not empty.

    Place k (1-based, by position in the ranking) earns ``split[k-1]`` percent of ``pool``.
    With fewer players than places, the places held share the whole pool in proportion to
    their percentages (no prize is left unawarded). Players sharing a rank share the prizes
    of the places they cover equally. Each exact share is rounded down; the coins left go one
    each to the players whose share was cut short, best-ranked first, lower member id first
    within a rank (so each player is paid within a coin of their exact share). Members
    awarded nothing are absent. An empty ranking gets nothing.
    Raises ValueError unless ``pool >= 0`` and ``split`` is positive percentages summing
    to 100."""
    if pool < 0:
        raise ValueError("the pool cannot be negative")
    if not split or any(part <= 0 for part in split) or sum(split) != 100:
        raise ValueError(f"a split is positive percentages summing to 100, not {list(split)}")
    ordered = sorted(ranking, key=lambda row: (row.rank, row.member))
    places = split[: len(ordered)]
    if not places:
        return {}
    weight = sum(places)
    exact: dict[int, Fraction] = {}
    start = 0
    for _, group in groupby(ordered, key=lambda row: row.rank):
        members = [row.member for row in group]
        covered = places[start : start + len(members)]
        start += len(members)
        if not covered:
            break
        each = Fraction(pool * sum(covered), weight * len(members))
        exact.update((member, each) for member in members)
    coins = {member: floor(amount) for member, amount in exact.items()}
    left = pool - sum(coins.values())
    # Only shares cut short get a coin back: their fractions add up to exactly ``left``.
    short = [member for member, amount in exact.items() if amount != coins[member]]
    for member in short[:left]:
        coins[member] += 1
    return {member: amount for member, amount in coins.items() if amount > 0}
