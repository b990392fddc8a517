"""Swiss standings: points, then Buchholz, then Sonneborn-Berger, then rating.

Everything is counted in whole units and turned into fractions at the end, so equal totals
compare equal (a 4-seat table scores thirds): a point is ``POINT`` units (12 covers the
halves, quarters and sixths that tables of 2–4 give), Buchholz is counted in 1/72 (a mean
over 1–3 opponents) and Sonneborn-Berger in 1/144 of a point."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from bot.events.model import Entrant, StandingRow, TableResult

POINT = 12
"""Units in a point: every table of 2–4 seats scores a whole number of them."""

_MEAN = 6
"""Buchholz takes a mean over 1–3 opponents: one more factor of 6 keeps it whole."""


def _half_results(result: TableResult, index: int, against: Sequence[int]) -> int:
    """Twice the sum of the results of ``players[index]`` against the given seats
    (2 for finishing ahead, 1 for the same place, 0 behind)."""
    place = result.places[index]
    return sum(
        2 if place < result.places[j] else 1 if place == result.places[j] else 0 for j in against
    )


def _unit_points(result: TableResult) -> list[int]:
    """Each seat's points at the table, in units (see :func:`table_points`)."""
    size = len(result.players)
    if size == 1:
        return [POINT]
    if size == 2:
        first, second = result.places
        return (
            [POINT, 0]
            if first < second
            else [0, POINT]
            if first > second
            else [POINT // 2, POINT // 2]
        )
    scale = POINT // (2 * (size - 1))
    others = range(size)
    return [_half_results(result, i, [j for j in others if j != i]) * scale for i in range(size)]


def table_points(result: TableResult) -> dict[int, Fraction]:
    """Each player's points at one table: the mean, over their opponents at the table, of 1
    for finishing ahead, ½ for the same place, 0 behind. Two seats: win 1, draw ½, loss 0;
    n seats without ties: (n − place)/(n − 1). A bye is worth 1."""
    return {
        player: Fraction(units, POINT)
        for player, units in zip(result.players, _unit_points(result), strict=True)
    }


def unit_scores(results: Sequence[TableResult]) -> dict[int, int]:
    """Each member's total points over ``results``, in units of 1/``POINT``."""
    return _unit_scores(results, [_unit_points(result) for result in results])


def _unit_scores(results: Sequence[TableResult], points: Sequence[list[int]]) -> dict[int, int]:
    totals: dict[int, int] = defaultdict(int)
    for result, table in zip(results, points, strict=True):
        for player, units in zip(result.players, table, strict=True):
            totals[player] += units
    return dict(totals)


def scores(results: Sequence[TableResult]) -> dict[int, Fraction]:
    """Each member's total points over ``results``."""
    return {member: Fraction(units, POINT) for member, units in unit_scores(results).items()}


@dataclass
class _Tally:
    buchholz: int = 0  # in 1/(POINT * _MEAN)
    sonneborn_berger: int = 0  # in 1/(POINT * POINT)
    games: int = 0
    byes: int = 0


def _tally_table(
    result: TableResult, points: list[int], score: dict[int, int], tallies: dict[int, _Tally]
) -> None:
    """Adds one table's share of each seat's tie breaks (see :func:`standings`)."""
    forfeited = result.forfeit_losers
    if len(points) == 2 and not forfeited:
        # The common case, in short: the opponent's score, and it again times the result.
        a, b = result.players
        for player, own, opponent in ((a, points[0], b), (b, points[1], a)):
            tally = tallies[player]
            tally.games += 1
            theirs = score[opponent]
            tally.buchholz += theirs * _MEAN
            tally.sonneborn_berger += own * theirs
        return
    played = [i for i, p in enumerate(result.players) if p not in forfeited]
    for i, player in enumerate(result.players):
        tally = tallies[player]
        own = score[player]
        opponents = [] if player in forfeited else [j for j in played if j != i]
        if result.is_bye:
            tally.byes += 1
        else:
            tally.games += 1
        if not opponents:
            # Unplayed: a virtual opponent with the player's own final score.
            tally.buchholz += own * _MEAN
            tally.sonneborn_berger += points[i] * own
            continue
        share = _MEAN // len(opponents)
        tally.buchholz += sum(score[result.players[j]] for j in opponents) * share
        tally.sonneborn_berger += (
            sum(_half_results(result, i, [j]) * score[result.players[j]] for j in opponents) * share
        )


def standings(
    entrants: Sequence[Entrant], results: Sequence[TableResult]
) -> tuple[StandingRow, ...]:
    """The standings, best first: points, then Buchholz, then Sonneborn-Berger, then rating;
    players equal on all four share a rank (1, 2, 2, 4), listed by member id.

    - Buchholz: the sum over a player's games of the mean final score of their opponents at
      that table (two seats: the opponent's score).
    - Sonneborn-Berger: the sum over games of, for each opponent, the result against them
      (1 ahead, ½ same place, 0 behind) times that opponent's final score, divided by the
      number of opponents at the table (two seats: the scores of the opponents beaten plus
      half the scores of those drawn).
    - An unplayed game counts against a virtual opponent whose score is the player's own
      final score (the FIDE idea for unplayed games, simplified), with the points the player
      got: a bye (1 point: Buchholz + own score, Sonneborn-Berger + own score), a no-show's
      forfeit loss (0 to Sonneborn-Berger), and the opponent's forfeit win. At a table of 3–4
      a no-show is left out of the others' tie breaks, who did play each other.
      A dropped player's results still count for their opponents."""
    points = [_unit_points(result) for result in results]
    score = _unit_scores(results, points)
    tallies: dict[int, _Tally] = defaultdict(_Tally)
    for result, table in zip(results, points, strict=True):
        _tally_table(result, table, score, tallies)
    rows = []
    for entrant in entrants:
        tally = tallies[entrant.member]
        rows.append(
            (
                (
                    -score.get(entrant.member, 0),
                    -tally.buchholz,
                    -tally.sonneborn_berger,
                    -entrant.rating,
                ),
                entrant,
                tally,
            )
        )
    rows.sort(key=lambda row: (row[0], row[1].member))
    ranked: list[StandingRow] = []
    for position, (key, entrant, tally) in enumerate(rows):
        shared = ranked and rows[position - 1][0] == key
        # Built from values made here: pydantic's validation would cost more than the sums.
        ranked.append(
            StandingRow.model_construct(
                rank=ranked[-1].rank if shared else position + 1,
                member=entrant.member,
                points=Fraction(-key[0], POINT),
                buchholz=Fraction(tally.buchholz, POINT * _MEAN),
                sonneborn_berger=Fraction(tally.sonneborn_berger, POINT * POINT),
                rating=entrant.rating,
                games=tally.games,
                byes=tally.byes,
                dropped=entrant.dropped,
            )
        )
    return tuple(ranked)
