"""Skill ratings (``bot/ratings.py`` computes them): one row per player per game per
server, the boards /leaderboard pages through and the ranks /stats shows.

A row is there once its player has a rated table: boards and ranks count only rows with
``games > 0`` (:func:`lock` may leave a row of 0 games for a player it read but whose
rating the table did not change, the computer seated twice)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from bot.storage.base import Row, Transaction


@dataclass(frozen=True, slots=True)
class RatingRow:
    user_id: int
    mu: float
    sigma: float
    games: int


@dataclass(frozen=True, slots=True)
class RankedRating:
    """A player's rating in one game, with its rank on the server's board (1 the best;
    players with equal ordinals share one) and how many are on that board."""

    game: str
    rating: RatingRow
    rank: int
    of: int


_COLUMNS = "user_id, mu, sigma, games"


def _row(row: Row) -> RatingRow:
    return RatingRow(int(row[0]), float(row[1]), float(row[2]), int(row[3]))


async def lock(
    tx: Transaction,
    guild_id: int,
    game: str,
    user_ids: Iterable[int],
    *,
    mu: float,
    sigma: float,
    now: float,
) -> dict[int, RatingRow]:
    """The ratings of a table's players, held until the transaction ends, so that two
    tables ending at once with the same player update their rating one after the other
    (PostgreSQL; SQLite's transaction is already the file's only writer). A player
    without one gets a row of ``mu``/``sigma`` and 0 games first, so there is a row to
    hold. Taken in id order: two tables never wait on each other's rows."""
    found: dict[int, RatingRow] = {}
    suffix = " FOR UPDATE" if tx.dialect == "postgresql" else ""
    for user_id in sorted(set(user_ids)):
        await tx.execute(
            "INSERT INTO ratings (guild_id, game, user_id, mu, sigma, ordinal, games,"
            " updated_at) VALUES (?, ?, ?, ?, ?, ?, 0, ?)"
            " ON CONFLICT (guild_id, game, user_id) DO NOTHING",
            (guild_id, game, user_id, mu, sigma, mu - 3 * sigma, now),
        )
        row = await tx.fetchone(
            f"SELECT {_COLUMNS} FROM ratings WHERE guild_id = ? AND game = ? AND user_id = ?"
            + suffix,
            (guild_id, game, user_id),
        )
        assert row is not None
        found[user_id] = _row(row)
    return found


async def save(
    tx: Transaction,
    guild_id: int,
    game: str,
    rating: RatingRow,
    *,
    ordinal: float,
    now: float,
) -> None:
    await tx.execute(
        "UPDATE ratings SET mu = ?, sigma = ?, ordinal = ?, games = ?, updated_at = ?"
        " WHERE guild_id = ? AND game = ? AND user_id = ?",
        (
            rating.mu,
            rating.sigma,
            ordinal,
            rating.games,
            now,
            guild_id,
            game,
            rating.user_id,
        ),
    )


async def ratings_in(
    tx: Transaction, guild_id: int, game: str, user_ids: Iterable[int]
) -> dict[int, RatingRow]:
    """The ratings some players have in one game (those without one are absent)."""
    wanted = sorted(set(user_ids))
    if not wanted:
        return {}
    marks = ", ".join("?" for _ in wanted)
    rows = await tx.fetchall(
        f"SELECT {_COLUMNS} FROM ratings WHERE guild_id = ? AND game = ? AND games > 0"
        f" AND user_id IN ({marks})",
        (guild_id, game, *wanted),
    )
    return {int(row[0]): _row(row) for row in rows}


async def ratings_of(tx: Transaction, guild_id: int, user_id: int) -> list[RankedRating]:
    """A player's ratings in every game they have one, by game, each with its rank."""
    rows = await tx.fetchall(
        "SELECT r.game, r.user_id, r.mu, r.sigma, r.games,"
        " (SELECT COUNT(*) FROM ratings o WHERE o.guild_id = r.guild_id AND o.game = r.game"
        " AND o.games > 0 AND o.ordinal > r.ordinal) + 1,"
        " (SELECT COUNT(*) FROM ratings o WHERE o.guild_id = r.guild_id AND o.game = r.game"
        " AND o.games > 0)"
        " FROM ratings r WHERE r.guild_id = ? AND r.user_id = ? AND r.games > 0"
        " ORDER BY r.game",
        (guild_id, user_id),
    )
    return [RankedRating(str(row[0]), _row(row[1:5]), int(row[5]), int(row[6])) for row in rows]


async def board(
    tx: Transaction, guild_id: int, game: str, limit: int, offset: int
) -> tuple[list[tuple[int, RatingRow]], int]:
    """One page of a game's rating board, best first, each row with its rank (equal
    ordinals share one), and how many players the board holds."""
    rows = await tx.fetchall(
        f"SELECT {_COLUMNS}, (SELECT COUNT(*) FROM ratings o WHERE o.guild_id = r.guild_id"
        " AND o.game = r.game AND o.games > 0 AND o.ordinal > r.ordinal) + 1"
        " FROM ratings r WHERE r.guild_id = ? AND r.game = ? AND r.games > 0"
        " ORDER BY r.ordinal DESC, r.user_id LIMIT ? OFFSET ?",
        (guild_id, game, limit, offset),
    )
    count = await tx.fetchone(
        "SELECT COUNT(*) FROM ratings WHERE guild_id = ? AND game = ? AND games > 0",
        (guild_id, game),
    )
    return [(int(row[4]), _row(row[:4])) for row in rows], int(count[0]) if count else 0
