"""Arena scoring and pairing, as Lichess's arenas: win 2, draw 1, loss 0, and a streak
doubles. See :func:`arena_points`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.events.model import ArenaPairing, ArenaRow, Entrant, TableResult


def arena_points(results: Sequence[TableResult]) -> dict[int, int]:
    """Each member's arena points, reading ``results`` in the order given (the order tables
    ended). A win is 2, a draw 1, a loss 0; after two wins in a row a player is on a streak and
    every game counts double (win 4, draw 2) until a game that is not a win ends the streak.
    At a table of 3–4 a win is finishing alone in first place, a shared first place a draw,
    anything else a loss."""
    raise NotImplementedError


def arena_standings(
    entrants: Sequence[Entrant], results: Sequence[TableResult]
) -> tuple[ArenaRow, ...]:
    """Arena standings, best first: points, then rating; equal on both share a rank."""
    raise NotImplementedError


def arena_pair(
    free: Sequence[int],
    scores: Mapping[int, int],
    last_opponents: Mapping[int, frozenset[int]],
    *,
    seats: int,
) -> ArenaPairing:
    """Tables for the free players now: players of near score together, avoiding the
    opponents of a player's last table when possible. Players who cannot fill a table wait."""
    raise NotImplementedError
