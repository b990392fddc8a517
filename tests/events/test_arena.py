"""Arena scoring as Lichess's (win 2, draw 1, a streak after two wins doubles) on hand
examples, and arena pairing."""

from __future__ import annotations

from bot.events import (
    Entrant,
    TableResult,
    arena_pair,
    arena_points,
    arena_standings,
    last_opponents,
)

WIN, DRAW, LOSS = "W", "D", "L"


def games(member: int, outcomes: str) -> list[TableResult]:
    """``member``'s games against a fresh opponent each (ids 1000+), in order."""
    places = {WIN: (1, 2), DRAW: (1, 1), LOSS: (2, 1)}
    return [
        TableResult(table_id=i, round=i + 1, players=(member, 1000 + i), places=places[o])
        for i, o in enumerate(outcomes)
    ]


def test_lichess_example_two_wins_then_a_draw_is_six() -> None:
    assert arena_points(games(7, "WWD"))[7] == 2 + 2 + 2 * 1


def test_a_streak_doubles_until_a_game_that_is_not_a_win() -> None:
    # W W W W L W: 2 + 2 + 4 + 4 + 0 + 2 (the loss ended the streak).
    assert arena_points(games(7, "WWWWLW"))[7] == 14
    # W D W W W D W: 2 + 1 + 2 + 2 + 4 + 2 + 2 (the streak's draw counts 2, then ends it).
    assert arena_points(games(7, "WDWWWDW"))[7] == 15
    # Losers score nothing and an opponent's streak is its own.
    assert arena_points(games(7, "WWW"))[1002] == 0


def test_three_seats_a_win_is_first_place_alone() -> None:
    results = [
        TableResult(table_id=1, round=1, players=(1, 2, 3), places=(1, 2, 3)),
        TableResult(table_id=2, round=2, players=(1, 2, 3), places=(1, 1, 3)),
        TableResult(table_id=3, round=3, players=(1, 2, 3), places=(1, 2, 3)),
        TableResult(table_id=4, round=4, players=(1, 2, 3), places=(1, 2, 3)),
    ]
    # 1: W D W W = 2 + 1 + 2 + 2 (the draw broke the run; two wins make a streak for later).
    # 2: L D L L = 1. 3: nothing.
    assert arena_points(results) == {1: 7, 2: 1, 3: 0}


def test_arena_standings_rank_by_points_then_rating_and_show_the_streak() -> None:
    results = [*games(7, "WW"), *games(8, "WWL")]
    field = [Entrant(member=7, rating=1500), Entrant(member=8, rating=1600)]
    rows = arena_standings(field, results)
    assert [(r.rank, r.member, r.points, r.games, r.wins, r.on_streak) for r in rows] == [
        (1, 8, 4, 3, 2, False),
        (2, 7, 4, 2, 2, True),
    ]


def test_arena_pairs_near_scores_and_avoids_the_last_opponent() -> None:
    scores = {1: 10, 2: 10, 3: 0, 4: 0}
    assert arena_pair([1, 2, 3, 4], scores, {}, seats=2).tables == ((1, 2), (3, 4))
    last = {1: frozenset({2}), 2: frozenset({1})}
    tables = arena_pair([1, 2, 3, 4], scores, last, seats=2).tables
    assert {frozenset(t) for t in tables} in (
        {frozenset({1, 3}), frozenset({2, 4})},
        {frozenset({1, 4}), frozenset({2, 3})},
    )
    # Only the two of them free: they meet again rather than wait.
    assert arena_pair([1, 2], scores, last, seats=2).tables == ((1, 2),)


def test_arena_leaves_the_lowest_scored_waiting() -> None:
    pairing = arena_pair([5, 1, 2], {1: 6, 2: 4, 5: 0}, {}, seats=2)
    assert pairing.tables == ((1, 2),)
    assert pairing.waiting == (5,)
    pairing = arena_pair([1, 2, 3, 4, 5], {m: m for m in range(1, 6)}, {}, seats=3)
    assert pairing.tables == ((5, 4, 3),)
    assert set(pairing.waiting) == {1, 2}


def test_last_opponents_are_those_of_the_latest_table() -> None:
    results = [
        *games(7, "WL"),
        TableResult(table_id=9, round=9, players=(7, 8, 9), places=(1, 2, 3)),
    ]
    assert last_opponents(results) == {
        7: frozenset({8, 9}),
        8: frozenset({7, 9}),
        9: frozenset({7, 8}),
        1000: frozenset({7}),
        1001: frozenset({7}),
    }
