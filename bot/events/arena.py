"""Arena scoring and pairing, as Lichess's arenas: win 2, draw 1, loss 0, and a streak
doubles (lichess.org/tournament/help: "If you win two games consecutively you will start a
double point streak... The following games will continue to be worth double points until
you fail to win a game": two wins then a draw is 2 + 2 + 2). Lichess's berserk and its
draw-streak rule are about chess clocks and short draws; these games have neither."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from bot.events.model import MAX_SEATS, MIN_SEATS, ArenaPairing, ArenaRow, Entrant, TableResult
from bot.events.swiss import BLOCK, History, form_tables, pair_two

WIN, DRAW = 2, 1
STREAK = 2
"""Wins in a row after which every game counts double."""


def _outcome(result: TableResult, index: int) -> int:
    """A seat's base points: 2 alone in first place, 1 sharing it, 0 otherwise."""
    if result.places[index] != 1:
        return 0
    return WIN if result.places.count(1) == 1 else DRAW


def _replay(results: Sequence[TableResult]) -> tuple[dict[int, int], Counter[int], Counter[int]]:
    """Points, wins and the current run of wins of every member, in the order given."""
    points: dict[int, int] = {}
    wins: Counter[int] = Counter()
    run: Counter[int] = Counter()
    for result in results:
        for index, player in enumerate(result.players):
            base = _outcome(result, index)
            factor = 2 if run[player] >= STREAK else 1
            points[player] = points.get(player, 0) + base * factor
            if base == WIN:
                wins[player] += 1
                run[player] += 1
            else:
                run[player] = 0
    return points, wins, run


def arena_points(results: Sequence[TableResult]) -> dict[int, int]:
    """Each member's arena points, reading ``results`` in the order given (the order tables
    ended). A win is 2, a draw 1, a loss 0; after two wins in a row a player is on a streak and
    every game counts double (win 4, draw 2) until a game that is not a win ends the streak.
    At a table of 3–4 a win is finishing alone in first place, a shared first place a draw,
    anything else a loss (a forfeit too: points follow the places)."""
    return _replay(results)[0]


def arena_standings(
    entrants: Sequence[Entrant], results: Sequence[TableResult]
) -> tuple[ArenaRow, ...]:
    """Arena standings, best first: points, then rating; equal on both share a rank, listed
    by member id. ``games`` counts the member's tables in ``results``."""
    points, wins, run = _replay(results)
    games: Counter[int] = Counter(player for result in results for player in result.players)
    ordered = sorted(entrants, key=lambda e: (-points.get(e.member, 0), -e.rating, e.member))
    rows: list[ArenaRow] = []
    for position, entrant in enumerate(ordered):
        key = (points.get(entrant.member, 0), entrant.rating)
        shared = rows and (rows[-1].points, rows[-1].rating) == key
        rows.append(
            ArenaRow(
                rank=rows[-1].rank if shared else position + 1,
                member=entrant.member,
                points=key[0],
                games=games[entrant.member],
                wins=wins[entrant.member],
                on_streak=run[entrant.member] >= STREAK,
                rating=entrant.rating,
                dropped=entrant.dropped,
            )
        )
    return tuple(rows)


def last_opponents(results: Sequence[TableResult]) -> dict[int, frozenset[int]]:
    """Each member's opponents at their latest table in ``results`` (in the order given):
    what :func:`arena_pair` avoids."""
    latest: dict[int, frozenset[int]] = {}
    for result in results:
        for player in result.players:
            latest[player] = frozenset(result.players) - {player}
    return latest


def arena_pair(
    free: Sequence[int],
    scores: Mapping[int, int],
    last_opponents: Mapping[int, frozenset[int]],
    *,
    seats: int,
) -> ArenaPairing:
    """Tables for the free players now: players of near score together, avoiding the
    opponents of a player's last table when possible. Players who cannot fill a table wait
    (the lowest-scored first). ``free`` in the service's order of preference among equal
    scores (e.g. by rating); missing scores count 0.

    The same machinery as Swiss pairing (:mod:`bot.events.swiss`): at two seats a
    maximum-weight matching in blocks where "met before" means "met at their last table" and
    the bye is the wait; at 3–4 seats ranked tables improved by swaps."""
    if not MIN_SEATS <= seats <= MAX_SEATS:
        raise ValueError(f"seats must be {MIN_SEATS}–{MAX_SEATS}, not {seats}")
    position = {member: index for index, member in enumerate(free)}
    order = sorted(free, key=lambda member: (-scores.get(member, 0), position[member]))
    met = {
        frozenset((member, other))
        for member in order
        for other in last_opponents.get(member, frozenset())
        if other != member
    }
    history = History({m: scores.get(m, 0) for m in order}, met, set(), Counter())
    pairing = pair_two(order, history, BLOCK) if seats == 2 else form_tables(order, history, seats)
    return ArenaPairing(tables=pairing.tables, waiting=pairing.byes)
