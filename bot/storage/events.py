"""Queries for server events (tournaments): the event, its entrants, its games.

An event's entry fees sit in its own escrow (``events.escrow``, ledger account
``event:<id>``), moved by :mod:`bot.economy` like a table's. Its tables are rows of
``game_tables`` marked with ``event_id``; ``event_games`` says which round each belongs
to and, once it ended, its players' places.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import StrEnum

from bot.storage.base import Row, Transaction

_EVENT_COLUMNS = (
    "id, guild_id, channel_id, message_id, host_id, game, rules_json, format, rounds,"
    " duration_seconds, entry_fee, house_prize, split_json, status, round, escrow, due_at,"
    " ends_at, version, created_at, updated_at"
)


class EventStatus(StrEnum):
    OPEN = "open"
    """Taking entrants (Join/Leave); nothing played yet."""
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"


@dataclass(frozen=True, slots=True)
class EventRow:
    id: int
    guild_id: int
    channel_id: int
    message_id: int | None
    host_id: int
    game: str
    rules_json: str
    format: str
    rounds: int
    duration_seconds: int
    entry_fee: int
    house_prize: int
    split_json: str
    status: EventStatus
    round: int
    escrow: int
    due_at: float | None
    ends_at: float | None
    version: int
    created_at: float
    updated_at: float

    def __post_init__(self) -> None:
        object.__setattr__(self, "status", EventStatus(self.status))

    @property
    def live(self) -> bool:
        return self.status in (EventStatus.OPEN, EventStatus.RUNNING)

    @property
    def split(self) -> list[int]:
        return [int(part) for part in json.loads(self.split_json)]


@dataclass(frozen=True, slots=True)
class EntrantRow:
    user_id: int
    fee_paid: int
    joined_at: float
    dropped: bool


@dataclass(frozen=True, slots=True)
class GameRow:
    id: int
    round: int
    table_id: int | None
    players: tuple[int, ...]
    result_json: str | None
    """How the game ended (the service's record); ``None`` while it is being played."""
    ended_at: float | None

    @property
    def is_bye(self) -> bool:
        return self.table_id is None


def _event(row: Row) -> EventRow:
    return EventRow(*row)


async def insert_event(
    tx: Transaction,
    *,
    guild_id: int,
    channel_id: int,
    host_id: int,
    game: str,
    rules_json: str,
    format: str,
    rounds: int,
    duration_seconds: int,
    entry_fee: int,
    house_prize: int,
    split: list[int],
    now: float,
) -> int:
    return await tx.insert(
        "INSERT INTO events (guild_id, channel_id, host_id, game, rules_json, format, rounds,"
        " duration_seconds, entry_fee, house_prize, split_json, status, created_at, updated_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'open', ?, ?)",
        (
            guild_id,
            channel_id,
            host_id,
            game,
            rules_json,
            format,
            rounds,
            duration_seconds,
            entry_fee,
            house_prize,
            json.dumps(split),
            now,
            now,
        ),
    )


async def event(tx: Transaction, event_id: int) -> EventRow | None:
    row = await tx.fetchone(f"SELECT {_EVENT_COLUMNS} FROM events WHERE id = ?", (event_id,))
    return _event(row) if row else None


async def lock_event(tx: Transaction, event_id: int) -> None:
    """Hold the event's row until the transaction ends (PostgreSQL; SQLite's transaction
    is already the file's only writer)."""
    if tx.dialect == "postgresql":
        await tx.execute("SELECT 1 FROM events WHERE id = ? FOR UPDATE", (event_id,))


async def claim_event(tx: Transaction, event_id: int) -> bool:
    """Take the event's row lock only if nobody holds it (``SKIP LOCKED``), as a deadline
    claims its table: False when another process is advancing the event right now."""
    if tx.dialect != "postgresql":
        return True
    row = await tx.fetchone("SELECT 1 FROM events WHERE id = ? FOR UPDATE SKIP LOCKED", (event_id,))
    return row is not None


async def live_event_in(tx: Transaction, channel_id: int) -> EventRow | None:
    row = await tx.fetchone(
        f"SELECT {_EVENT_COLUMNS} FROM events WHERE channel_id = ?"
        " AND status IN ('open', 'running') ORDER BY id DESC",
        (channel_id,),
    )
    return _event(row) if row else None


async def events_of(tx: Transaction, guild_id: int, limit: int) -> list[EventRow]:
    rows = await tx.fetchall(
        f"SELECT {_EVENT_COLUMNS} FROM events WHERE guild_id = ? ORDER BY id DESC LIMIT ?",
        (guild_id, limit),
    )
    return [_event(row) for row in rows]


async def live_events(tx: Transaction) -> list[EventRow]:
    rows = await tx.fetchall(
        f"SELECT {_EVENT_COLUMNS} FROM events WHERE status IN ('open', 'running') ORDER BY id"
    )
    return [_event(row) for row in rows]


async def update_event(
    tx: Transaction,
    event_id: int,
    *,
    now: float,
    status: EventStatus | None = None,
    round: int | None = None,
    due_at: float | None = None,
    clear_due: bool = False,
    ends_at: float | None = None,
) -> None:
    """Change what is given, and bump the version (what the event message shows)."""
    sets, values = ["version = version + 1", "updated_at = ?"], [now]
    if status is not None:
        sets.append("status = ?")
        values.append(status.value)  # type: ignore[arg-type]
    if round is not None:
        sets.append("round = ?")
        values.append(round)
    if clear_due:
        sets.append("due_at = NULL")
    elif due_at is not None:
        sets.append("due_at = ?")
        values.append(due_at)
    if ends_at is not None:
        sets.append("ends_at = ?")
        values.append(ends_at)
    await tx.execute(f"UPDATE events SET {', '.join(sets)} WHERE id = ?", (*values, event_id))


async def set_event_message(tx: Transaction, event_id: int, message_id: int) -> None:
    await tx.execute("UPDATE events SET message_id = ? WHERE id = ?", (message_id, event_id))


async def add_to_event_escrow(tx: Transaction, event_id: int, delta: int) -> None:
    await tx.execute("UPDATE events SET escrow = escrow + ? WHERE id = ?", (delta, event_id))


async def event_escrows(tx: Transaction, guild_id: int) -> dict[int, int]:
    rows = await tx.fetchall("SELECT id, escrow FROM events WHERE guild_id = ?", (guild_id,))
    return {int(row[0]): int(row[1]) for row in rows}


# -- entrants ----------------------------------------------------------------------------


async def entrants(tx: Transaction, event_id: int) -> list[EntrantRow]:
    rows = await tx.fetchall(
        "SELECT user_id, fee_paid, joined_at, dropped FROM event_entrants WHERE event_id = ?"
        " ORDER BY joined_at, user_id",
        (event_id,),
    )
    return [EntrantRow(int(r[0]), int(r[1]), float(r[2]), bool(r[3])) for r in rows]


async def add_entrant(
    tx: Transaction, event_id: int, user_id: int, fee_paid: int, now: float
) -> bool:
    """Enter a member; False when they already were."""
    row = await tx.fetchone(
        "SELECT 1 FROM event_entrants WHERE event_id = ? AND user_id = ?", (event_id, user_id)
    )
    if row is not None:
        return False
    await tx.execute(
        "INSERT INTO event_entrants (event_id, user_id, fee_paid, joined_at) VALUES (?, ?, ?, ?)",
        (event_id, user_id, fee_paid, now),
    )
    return True


async def remove_entrant(tx: Transaction, event_id: int, user_id: int) -> None:
    await tx.execute(
        "DELETE FROM event_entrants WHERE event_id = ? AND user_id = ?", (event_id, user_id)
    )


async def drop_entrant(tx: Transaction, event_id: int, user_id: int) -> None:
    await tx.execute(
        "UPDATE event_entrants SET dropped = 1 WHERE event_id = ? AND user_id = ?",
        (event_id, user_id),
    )


# -- games -------------------------------------------------------------------------------


def _game(row: Row) -> GameRow:
    id_, round_, table_id, players_json, result_json, ended_at = tuple(row)
    return GameRow(
        int(id_),
        int(round_),
        None if table_id is None else int(table_id),
        tuple(int(p) for p in json.loads(players_json)),
        None if result_json is None else str(result_json),
        None if ended_at is None else float(ended_at),
    )


_GAME_COLUMNS = "id, round, table_id, players_json, result_json, ended_at"


async def insert_game(
    tx: Transaction,
    event_id: int,
    round: int,
    table_id: int | None,
    players: list[int],
    result_json: str | None = None,
    ended_at: float | None = None,
) -> int:
    return await tx.insert(
        "INSERT INTO event_games (event_id, round, table_id, players_json, result_json,"
        " ended_at) VALUES (?, ?, ?, ?, ?, ?)",
        (event_id, round, table_id, json.dumps(players), result_json, ended_at),
    )


async def games(tx: Transaction, event_id: int) -> list[GameRow]:
    rows = await tx.fetchall(
        f"SELECT {_GAME_COLUMNS} FROM event_games WHERE event_id = ? ORDER BY round, id",
        (event_id,),
    )
    return [_game(row) for row in rows]


async def game_of_table(tx: Transaction, table_id: int) -> tuple[int, GameRow] | None:
    """The event a table belongs to and its game row; ``None`` for a member's table."""
    row = await tx.fetchone(
        f"SELECT event_id, {_GAME_COLUMNS} FROM event_games WHERE table_id = ?", (table_id,)
    )
    return (int(row[0]), _game(tuple(row)[1:])) if row else None


async def set_result(tx: Transaction, game_id: int, result_json: str, now: float) -> None:
    await tx.execute(
        "UPDATE event_games SET result_json = ?, ended_at = ? WHERE id = ?",
        (result_json, now, game_id),
    )


async def event_of_table(tx: Transaction, table_id: int) -> int | None:
    row = await tx.fetchone("SELECT event_id FROM game_tables WHERE id = ?", (table_id,))
    return None if row is None or row[0] is None else int(row[0])


async def due_events(tx: Transaction) -> list[tuple[int, float]]:
    """Every live event the scheduler is to look at, and when (at start)."""
    rows = await tx.fetchall(
        "SELECT id, due_at FROM events WHERE status IN ('open', 'running') AND due_at IS NOT NULL"
    )
    return [(int(row[0]), float(row[1])) for row in rows]


async def table_states(tx: Transaction, event_id: int) -> dict[int, tuple[str, str | None]]:
    """Each of the event's tables: its status and final state (JSON)."""
    rows = await tx.fetchall(
        "SELECT id, status, state_json FROM game_tables WHERE event_id = ?", (event_id,)
    )
    return {int(row[0]): (str(row[1]), row[2]) for row in rows}


async def unposted_tables(tx: Transaction, event_id: int) -> list[int]:
    """The event's tables whose message was never posted (a stop in between)."""
    rows = await tx.fetchall(
        "SELECT id FROM game_tables WHERE event_id = ? AND message_id IS NULL ORDER BY id",
        (event_id,),
    )
    return [int(row[0]) for row in rows]


PRIZE_MEMO = "event prize"


async def prizes_paid(tx: Transaction, guild_id: int, event_id: int) -> dict[int, int]:
    """What the event paid each winner, from its ledger rows."""
    rows = await tx.fetchall(
        "SELECT target, SUM(amount) FROM ledger WHERE guild_id = ? AND kind = 'event'"
        " AND event_id = ? AND memo = ? GROUP BY target",
        (guild_id, event_id, PRIZE_MEMO),
    )
    return {int(str(row[0]).partition(":")[2]): int(row[1]) for row in rows}
