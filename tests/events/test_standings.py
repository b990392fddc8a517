"""Swiss standings: each tie break deciding on its own, tables of 3–4, forfeits there."""

from __future__ import annotations

from fractions import Fraction as F

from hypothesis import given
from hypothesis import strategies as st

from bot.events import Entrant, TableResult, bye_result, standings, table_points


def result(
    table_id: int,
    round: int,
    players: tuple[int, ...],
    places: tuple[int, ...],
    forfeit: tuple[int, ...] = (),
) -> TableResult:
    return TableResult(
        table_id=table_id, round=round, players=players, places=places, forfeit_losers=forfeit
    )


def test_table_points_by_place() -> None:
    assert table_points(result(1, 1, (1, 2), (1, 2))) == {1: 1, 2: 0}
    assert table_points(result(1, 1, (1, 2), (1, 1))) == {1: F(1, 2), 2: F(1, 2)}
    assert table_points(result(1, 1, (1, 2, 3), (2, 1, 3))) == {1: F(1, 2), 2: 1, 3: 0}
    # Two share first at three seats: each ahead of one and level with one: (1 + ½)/2.
    assert table_points(result(1, 1, (1, 2, 3), (1, 1, 3))) == {1: F(3, 4), 2: F(3, 4), 3: 0}
    assert table_points(result(1, 1, (1, 2, 3, 4), (4, 3, 2, 1))) == {
        1: 0,
        2: F(1, 3),
        3: F(2, 3),
        4: 1,
    }
    assert table_points(bye_result(7, 1)) == {7: 1}


def test_sonneborn_berger_decides_when_buchholz_is_equal() -> None:
    # Round 1: 1 beats 2, 3 draws 4. Round 2: 1 draws 3, 2 beats 4.
    # Scores 1: 1½, 2: 1, 3: 1, 4: ½. Buchholz 2: 1½ + ½ = 2; 3: ½ + 1½ = 2.
    # SB 2: 0×1½ + 1×½ = ½; 3: ½×½ + ½×1½ = 1. So 3 above 2, whose rating is higher.
    # 1: Buchholz 1 + 1 = 2, SB 1×1 + ½×1 = 1½; 4: Buchholz 1 + 1 = 2, SB ½×1 + 0 = ½.
    results = [
        result(1, 1, (1, 2), (1, 2)),
        result(2, 1, (3, 4), (1, 1)),
        result(3, 2, (1, 3), (1, 1)),
        result(4, 2, (2, 4), (1, 2)),
    ]
    field = [Entrant(member=m, rating=r) for m, r in ((1, 0), (2, 2000), (3, 1000), (4, 0))]
    rows = standings(field, results)
    assert [(r.member, r.points, r.buchholz, r.sonneborn_berger) for r in rows] == [
        (1, F(3, 2), F(2), F(3, 2)),
        (3, F(1), F(2), F(1)),
        (2, F(1), F(2), F(1, 2)),
        (4, F(1, 2), F(2), F(1, 2)),
    ]


def test_players_equal_on_everything_share_a_rank() -> None:
    results = [result(1, 1, (1, 2), (1, 1)), result(2, 1, (3, 4), (1, 2))]
    rows = standings([Entrant(member=m, rating=1500) for m in (4, 3, 2, 1)], results)
    assert [(r.rank, r.member) for r in rows] == [(1, 3), (2, 1), (2, 2), (4, 4)]


def test_rating_is_the_last_tie_break() -> None:
    results = [result(1, 1, (1, 2), (1, 1)), result(2, 1, (3, 4), (1, 1))]
    field = [Entrant(member=m, rating=r) for m, r in ((1, 1500), (2, 1600), (3, 1550), (4, 10))]
    rows = standings(field, results)
    assert [(r.rank, r.member) for r in rows] == [(1, 2), (2, 3), (3, 1), (4, 4)]


def test_a_no_show_at_three_seats_is_left_out_of_the_others_tie_breaks() -> None:
    # Round 1: 1 first, 2 second, 3 did not show (last). Round 2: 3 first, 4 second,
    # 5 third. Scores: 1: 1, 2: ½, 3: 0 + 1 = 1, 4: ½, 5: 0.
    results = [
        result(1, 1, (1, 2, 3), (1, 2, 3), forfeit=(3,)),
        result(2, 2, (3, 4, 5), (1, 2, 3)),
    ]
    rows = {r.member: r for r in standings([Entrant(member=m) for m in range(1, 6)], results)}
    # 1 played only 2 (½): Buchholz ½, SB 1 × ½ = ½.
    assert (rows[1].buchholz, rows[1].sonneborn_berger) == (F(1, 2), F(1, 2))
    # 3: round 1 unplayed (own score 1; points 0 → SB 0); round 2 mean of 4 and 5 = ¼,
    # SB (1×½ + 1×0)/2 = ¼.
    assert (rows[3].buchholz, rows[3].sonneborn_berger) == (F(5, 4), F(1, 4))
    assert rows[3].points == 1


@st.composite
def events(draw: st.DrawFn) -> list[TableResult]:
    players = list(range(1, draw(st.integers(2, 12)) + 1))
    results: list[TableResult] = []
    for round in range(1, draw(st.integers(1, 4)) + 1):
        order = draw(st.permutations(players))
        seats = draw(st.integers(1, 4))
        for start in range(0, len(order), seats):
            table = tuple(order[start : start + seats])
            places = tuple(draw(st.integers(1, len(table))) for _ in table)
            results.append(result(len(results) + 1, round, table, places))
    return results


@given(events())
def test_points_add_up_to_half_a_point_a_seat(results: list[TableResult]) -> None:
    """A table of n gives out n/2 points (each pair of seats shares 1), a bye 1."""
    members = sorted({p for r in results for p in r.players})
    rows = standings([Entrant(member=m) for m in members], results)
    expected = sum(F(len(r.players), 2) if len(r.players) > 1 else F(1) for r in results)
    assert sum(r.points for r in rows) == expected
    assert sorted(r.member for r in rows) == members
