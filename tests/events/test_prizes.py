"""The prize split: whole coins, exactly the pool, ties sharing, remainders to the best."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.events import split_prizes


@dataclass(frozen=True)
class Row:
    member: int
    rank: int


def ranking(*ranks: int) -> list[Row]:
    return [Row(member=10 + i, rank=r) for i, r in enumerate(ranks)]


def test_a_plain_split() -> None:
    assert split_prizes(1000, (50, 30, 20), ranking(1, 2, 3, 4)) == {10: 500, 11: 300, 12: 200}


def test_remainders_go_to_the_best_ranked() -> None:
    # 101 × 50% = 50.5, × 30% = 30.3, × 20% = 20.2: floors 50 + 30 + 20 = 100, one coin left.
    assert split_prizes(101, (50, 30, 20), ranking(1, 2, 3)) == {10: 51, 11: 30, 12: 20}
    # Only to a share cut short: 1 is exact for the first; 49½ twice for the tied seconds.
    assert split_prizes(100, (1, 99), ranking(1, 2, 2)) == {10: 1, 11: 50, 12: 49}


def test_tied_players_share_the_places_they_cover() -> None:
    # Two tie for second: (30 + 20)% of 1000 shared, 250 each.
    assert split_prizes(1000, (50, 30, 20), ranking(1, 2, 2, 4)) == {10: 500, 11: 250, 12: 250}
    # Three tie for first over a two-place split: 1000 / 3 = 333⅓ each, the coin left to the
    # lowest member id.
    assert split_prizes(1000, (60, 40), ranking(1, 1, 1)) == {10: 334, 11: 333, 12: 333}


def test_fewer_players_than_places_share_the_whole_pool() -> None:
    # Places 1 and 2 hold 50 and 30: the pool in proportion 5:3.
    assert split_prizes(800, (50, 30, 20), ranking(1, 2)) == {10: 500, 11: 300}
    assert split_prizes(800, (50, 30, 20), []) == {}


def test_a_bad_split_is_refused() -> None:
    with pytest.raises(ValueError, match="100"):
        split_prizes(100, (50, 30), ranking(1))
    with pytest.raises(ValueError, match="100"):
        split_prizes(100, (110, -10), ranking(1))
    with pytest.raises(ValueError, match="negative"):
        split_prizes(-1, (100,), ranking(1))


splits = st.lists(st.integers(1, 100), min_size=1, max_size=6).filter(lambda s: sum(s) <= 100)


@given(
    pool=st.integers(0, 10**9),
    parts=splits,
    ranks=st.lists(st.integers(1, 8), min_size=1, max_size=12),
)
def test_the_split_pays_exactly_the_pool_within_a_coin_of_each_share(
    pool: int, parts: list[int], ranks: list[int]
) -> None:
    split = [*parts[:-1], parts[-1] + 100 - sum(parts)]
    rows = [Row(member=i, rank=r) for i, r in enumerate(sorted(ranks))]
    # Ranks as standings give them: a shared rank, then the position after the tie.
    rows = [Row(member=r.member, rank=1 + sorted(ranks).index(r.rank)) for r in rows]
    paid = split_prizes(pool, split, rows)
    assert sum(paid.values()) == pool
    assert all(coins > 0 for coins in paid.values())
    # Equal ranks get within one coin of each other, and of the exact share.
    places = split[: len(rows)]
    for rank in {r.rank for r in rows}:
        tied = [r.member for r in rows if r.rank == rank]
        start = rank - 1
        exact = Fraction(pool * sum(places[start : start + len(tied)]), sum(places) * len(tied))
        for member in tied:
            assert abs(paid.get(member, 0) - exact) < 1
