"""Swiss standings: points, then Buchholz, then Sonneborn-Berger, then rating."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from bot.events.model import Entrant, StandingRow, TableResult


def table_points(result: TableResult) -> dict[int, Fraction]:
    """Each player's points at one table: the mean, over their opponents at the table, of 1
    for finishing ahead, ½ for the same place, 0 behind. Two seats: win 1, draw ½, loss 0;
    n seats without ties: (n − place)/(n − 1). A bye is worth 1."""
    raise NotImplementedError


def scores(results: Sequence[TableResult]) -> dict[int, Fraction]:
    """Each member's total points over ``results``."""
    raise NotImplementedError


def standings(
    entrants: Sequence[Entrant], results: Sequence[TableResult]
) -> tuple[StandingRow, ...]:
    """The standings, best first: points, then Buchholz, then Sonneborn-Berger, then rating;
    players equal on all four share a rank (1, 2, 2, 4), listed by member id.

    - Buchholz: the sum over a player's games of the mean final score of their opponents at
      that table (two seats: the opponent's score).
    - Sonneborn-Berger: the sum over games of, for each opponent, the result against them
      (1 ahead, ½ same place, 0 behind) times that opponent's final score, divided by the
      table's opponents (two seats: the scores of beaten opponents plus half of those drawn).
    - An unplayed game (a bye, or a forfeit: the no-show's game and their opponents' game
      against them) counts against a virtual opponent whose score is the player's own final
      score (the FIDE rule for unplayed games, simplified): it neither helps nor hurts.
      A dropped player's own results still count for their opponents."""
    raise NotImplementedError
