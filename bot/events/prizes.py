"""The prize split: whole coins, exactly the pool, ties sharing."""

from __future__ import annotations

from collections.abc import Sequence

from bot.events.model import Ranked


def split_prizes(pool: int, split: Sequence[int], ranking: Sequence[Ranked]) -> dict[int, int]:
    """Coins per member: place k (1-based) earns ``split[k-1]`` percent of ``pool``.
    Players sharing a rank share the prizes of the places they cover equally. Whole coins,
    summing exactly to ``pool`` when the split sums to 100 and there are enough players;
    otherwise what is not awarded stays with the caller (never a coin created). Remainders
    (from percentages and from sharing) go one coin at a time to the best-ranked first, then
    the lowest member id. Members not awarded are absent from the result."""
    raise NotImplementedError
