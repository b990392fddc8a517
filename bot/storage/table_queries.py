"""Queries for game tables, their seats, action log, deadlines, player stats and notices."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from bot.games.common import COMPUTER_IDS
from bot.storage.base import UNIQUE_VIOLATIONS, Transaction

_TABLE_COLUMNS = (
    "id, guild_id, channel_id, message_id, game, status, host_id, rules_json, state_json,"
    " schema_version, version, escrow, house_net, seed_hex, commitment, dice_counter,"
    " created_at, updated_at, invitee_id"
)


class TableStatus(StrEnum):
    """Where a table is in its life; stored as this text in ``game_tables.status``."""

    LOBBY = "lobby"
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"


@dataclass(frozen=True, slots=True)
class TableRow:
    id: int
    guild_id: int
    channel_id: int
    message_id: int | None
    game: str
    status: TableStatus
    host_id: int
    rules_json: str
    state_json: str | None
    schema_version: int
    version: int
    escrow: int
    house_net: int
    seed_hex: str
    commitment: str
    dice_counter: int
    created_at: float
    updated_at: float
    invitee_id: int | None

    def __post_init__(self) -> None:
        # Rows come from SQL as plain text.
        object.__setattr__(self, "status", TableStatus(self.status))

    @property
    def live(self) -> bool:
        return self.status in (TableStatus.LOBBY, TableStatus.RUNNING)


@dataclass(frozen=True, slots=True)
class SeatRow:
    user_id: int
    seat_no: int
    wallet_net: int


@dataclass(frozen=True, slots=True)
class LogRow:
    seq: int
    actor_id: int | None
    action_json: str
    draws_json: str
    events_json: str
    at: float


@dataclass(frozen=True, slots=True)
class DeadlineRow:
    table_id: int
    due_at: float
    ply: int
    kind: str


class DuplicateOpenTable(Exception):
    """The channel already has an open table of this game."""


async def insert_table(
    tx: Transaction,
    *,
    guild_id: int,
    channel_id: int,
    game: str,
    host_id: int,
    rules_json: str,
    seed_hex: str,
    commitment: str,
    now: float,
    invitee_id: int | None = None,
    event_id: int | None = None,
) -> int:
    """A new lobby; an event's table (`event_id`) may share its channel with others."""
    try:
        return await tx.insert(
            "INSERT INTO game_tables (guild_id, channel_id, game, status, host_id, rules_json,"
            " seed_hex, commitment, created_at, updated_at, invitee_id, event_id)"
            " VALUES (?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                guild_id,
                channel_id,
                game,
                host_id,
                rules_json,
                seed_hex,
                commitment,
                now,
                now,
                invitee_id,
                event_id,
            ),
        )
    except UNIQUE_VIOLATIONS as error:
        if "one_open_table_per_channel" in str(error) or "UNIQUE" in str(error).upper():
            raise DuplicateOpenTable from error
        raise


async def table(tx: Transaction, table_id: int) -> TableRow | None:
    row = await tx.fetchone(f"SELECT {_TABLE_COLUMNS} FROM game_tables WHERE id = ?", (table_id,))
    return TableRow(*row) if row else None


async def table_version(tx: Transaction, table_id: int) -> int | None:
    row = await tx.fetchone("SELECT version FROM game_tables WHERE id = ?", (table_id,))
    return int(row[0]) if row else None


async def lock_table(tx: Transaction, table_id: int) -> None:
    """Hold the table's row until the transaction ends, so that its actions serialise
    across processes: another process's action on it waits here until this one commits,
    then reads what it wrote. On SQLite, ``BEGIN IMMEDIATE`` already made this transaction
    the only writer of the file: nothing to do."""
    if tx.dialect == "postgresql":
        await tx.execute("SELECT 1 FROM game_tables WHERE id = ? FOR UPDATE", (table_id,))


async def claim_table(tx: Transaction, table_id: int) -> bool:
    """Take the table's row lock only if nobody holds it (``SKIP LOCKED``): False when
    another process is acting on the table right now, perhaps firing the same deadline.
    A deadline claims its table instead of queueing behind that work. (SQLite: the
    transaction is already the file's only writer.)"""
    if tx.dialect != "postgresql":
        return True
    row = await tx.fetchone(
        "SELECT 1 FROM game_tables WHERE id = ? FOR UPDATE SKIP LOCKED", (table_id,)
    )
    return row is not None


async def open_table_in_channel(tx: Transaction, channel_id: int, game: str) -> TableRow | None:
    row = await tx.fetchone(
        f"SELECT {_TABLE_COLUMNS} FROM game_tables WHERE channel_id = ? AND game = ?"
        " AND status IN ('lobby', 'running') AND event_id IS NULL",
        (channel_id, game),
    )
    return TableRow(*row) if row else None


async def lobbies_hosted(tx: Transaction, guild_id: int, host_id: int) -> list[int]:
    """The ids of the lobbies a member hosts in a server (the live-tables index serves it)."""
    rows = await tx.fetchall(
        "SELECT id FROM game_tables WHERE status IN ('lobby', 'running')"
        " AND status = 'lobby' AND guild_id = ? AND host_id = ? ORDER BY id",
        (guild_id, host_id),
    )
    return [int(row[0]) for row in rows]


async def computer_tables_hosted(tx: Transaction, guild_id: int, host_id: int) -> list[int]:
    """The ids of the live tables (lobbies and games) a member hosts in a server with a
    computer seat."""
    marks = ", ".join("?" for _ in COMPUTER_IDS)
    rows = await tx.fetchall(
        "SELECT t.id FROM game_tables t WHERE t.status IN ('lobby', 'running')"
        " AND t.guild_id = ? AND t.host_id = ? AND EXISTS (SELECT 1 FROM table_seats s"
        f" WHERE s.table_id = t.id AND s.user_id IN ({marks})) ORDER BY t.id",
        (guild_id, host_id, *COMPUTER_IDS),
    )
    return [int(row[0]) for row in rows]


async def live_table_ids(tx: Transaction) -> list[int]:
    rows = await tx.fetchall(
        "SELECT id FROM game_tables WHERE status IN ('lobby', 'running') ORDER BY id"
    )
    return [int(row[0]) for row in rows]


async def update_table(
    tx: Transaction,
    row: TableRow,
    *,
    status: str,
    state_json: str | None,
    dice_counter: int,
    house_net: int,
    now: float,
) -> TableRow | None:
    """Save a table's new state if nobody saved it since `row` was read (optimistic lock);
    returns the row as saved, or None when another action got there first."""
    saved = await tx.fetchone(
        "UPDATE game_tables SET status = ?, state_json = ?, dice_counter = ?, house_net = ?,"
        f" version = version + 1, updated_at = ? WHERE id = ? AND version = ? RETURNING"
        f" {_TABLE_COLUMNS}",
        (status, state_json, dice_counter, house_net, now, row.id, row.version),
    )
    return TableRow(*saved) if saved else None


async def set_message(tx: Transaction, table_id: int, message_id: int) -> None:
    await tx.execute("UPDATE game_tables SET message_id = ? WHERE id = ?", (message_id, table_id))


async def set_host(tx: Transaction, table_id: int, host_id: int) -> None:
    await tx.execute("UPDATE game_tables SET host_id = ? WHERE id = ?", (host_id, table_id))


async def seats(tx: Transaction, table_id: int) -> list[SeatRow]:
    rows = await tx.fetchall(
        "SELECT user_id, seat_no, wallet_net FROM table_seats WHERE table_id = ? ORDER BY seat_no",
        (table_id,),
    )
    return [SeatRow(int(r[0]), int(r[1]), int(r[2])) for r in rows]


async def add_seat(tx: Transaction, table_id: int, user_id: int) -> None:
    await tx.execute(
        "INSERT INTO table_seats (table_id, user_id, seat_no) VALUES (?, ?,"
        " (SELECT COALESCE(MAX(seat_no), 0) + 1 FROM table_seats WHERE table_id = ?))",
        (table_id, user_id, table_id),
    )


async def remove_seat(tx: Transaction, table_id: int, user_id: int) -> None:
    await tx.execute(
        "DELETE FROM table_seats WHERE table_id = ? AND user_id = ?", (table_id, user_id)
    )


async def set_wallet_net(tx: Transaction, table_id: int, user_id: int, wallet_net: int) -> None:
    await tx.execute(
        "UPDATE table_seats SET wallet_net = ? WHERE table_id = ? AND user_id = ?",
        (wallet_net, table_id, user_id),
    )


async def append_log(
    tx: Transaction,
    *,
    table_id: int,
    seq: int,
    actor_id: int | None,
    action_json: str,
    draws_json: str,
    events_json: str,
    at: float,
) -> None:
    await tx.execute(
        "INSERT INTO action_log (table_id, seq, actor_id, action_json, draws_json, events_json, at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?)",
        (table_id, seq, actor_id, action_json, draws_json, events_json, at),
    )


async def action_log(tx: Transaction, table_id: int) -> list[LogRow]:
    rows = await tx.fetchall(
        "SELECT seq, actor_id, action_json, draws_json, events_json, at FROM action_log"
        " WHERE table_id = ? ORDER BY seq",
        (table_id,),
    )
    return [LogRow(*row) for row in rows]


async def recent_events(tx: Transaction, table_id: int, rows: int) -> list[str]:
    """The public-events JSON of a table's last `rows` log rows, oldest first."""
    found = await tx.fetchall(
        "SELECT events_json FROM action_log WHERE table_id = ? ORDER BY seq DESC LIMIT ?",
        (table_id, rows),
    )
    return [str(row[0]) for row in reversed(found)]


async def set_deadline(tx: Transaction, table_id: int, due_at: float, ply: int, kind: str) -> None:
    await tx.execute(
        "INSERT INTO deadlines (table_id, due_at, ply, kind) VALUES (?, ?, ?, ?)"
        " ON CONFLICT (table_id) DO UPDATE SET due_at = excluded.due_at, ply = excluded.ply,"
        " kind = excluded.kind",
        (table_id, due_at, ply, kind),
    )


async def deadline(tx: Transaction, table_id: int) -> DeadlineRow | None:
    row = await tx.fetchone(
        "SELECT table_id, due_at, ply, kind FROM deadlines WHERE table_id = ?", (table_id,)
    )
    return DeadlineRow(*row) if row else None


async def clear_deadline(tx: Transaction, table_id: int) -> None:
    await tx.execute("DELETE FROM deadlines WHERE table_id = ?", (table_id,))


async def all_deadlines(tx: Transaction) -> list[tuple[DeadlineRow, int]]:
    """Every stored deadline, with the server of its table (which process fires it)."""
    rows = await tx.fetchall(
        "SELECT d.table_id, d.due_at, d.ply, d.kind, t.guild_id"
        " FROM deadlines d JOIN game_tables t ON t.id = d.table_id"
    )
    return [(DeadlineRow(*row[:4]), int(row[4])) for row in rows]


async def bump_stat(
    tx: Transaction, guild_id: int, user_id: int, game: str, stat: str, delta: int
) -> None:
    await tx.execute(
        "INSERT INTO player_stats (guild_id, user_id, game, stat, value) VALUES (?, ?, ?, ?, ?)"
        " ON CONFLICT (guild_id, user_id, game, stat)"
        # Qualified: PostgreSQL finds a bare `value` ambiguous (the row or `excluded`).
        " DO UPDATE SET value = player_stats.value + excluded.value",
        (guild_id, user_id, game, stat, delta),
    )


@dataclass(frozen=True, slots=True)
class ResultRow:
    """One player's result at one finished table."""

    table_id: int
    game: str
    net: int
    won: bool
    at: float


async def record_result(
    tx: Transaction,
    guild_id: int,
    user_id: int,
    table_id: int,
    game: str,
    net: int,
    won: bool,
    at: float,
) -> None:
    await tx.execute(
        "INSERT INTO player_results (guild_id, user_id, table_id, game, net, won, at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (table_id, user_id) DO NOTHING",
        (guild_id, user_id, table_id, game, net, won, at),
    )


async def results_of(
    tx: Transaction, guild_id: int, user_id: int, game: str | None = None
) -> list[ResultRow]:
    """A member's results, oldest first (one game's, or every game's)."""
    where = "guild_id = ? AND user_id = ?" + (" AND game = ?" if game is not None else "")
    parameters: tuple[object, ...] = (guild_id, user_id) + ((game,) if game is not None else ())
    rows = await tx.fetchall(
        f"SELECT table_id, game, net, won, at FROM player_results WHERE {where}"
        " ORDER BY at, table_id",
        parameters,
    )
    return [ResultRow(int(r[0]), str(r[1]), int(r[2]), bool(r[3]), float(r[4])) for r in rows]


async def stats(tx: Transaction, guild_id: int, user_id: int) -> dict[tuple[str, str], int]:
    rows = await tx.fetchall(
        "SELECT game, stat, value FROM player_stats WHERE guild_id = ? AND user_id = ?",
        (guild_id, user_id),
    )
    return {(str(r[0]), str(r[1])): int(r[2]) for r in rows}


async def stat_board(
    tx: Transaction, guild_id: int, stat: str, game: str | None, limit: int, offset: int
) -> tuple[list[tuple[int, int]], int]:
    """One page of members ranked by a stat (one game's, or summed over every game), and how
    many members have that stat at all."""
    where = "guild_id = ? AND stat = ?" + (" AND game = ?" if game is not None else "")
    parameters: tuple[object, ...] = (guild_id, stat) + ((game,) if game is not None else ())
    rows = await tx.fetchall(
        f"SELECT user_id, SUM(value) AS total FROM player_stats WHERE {where}"
        " GROUP BY user_id ORDER BY total DESC, user_id LIMIT ? OFFSET ?",
        (*parameters, limit, offset),
    )
    count = await tx.fetchone(
        f"SELECT COUNT(DISTINCT user_id) FROM player_stats WHERE {where}", parameters
    )
    return [(int(r[0]), int(r[1])) for r in rows], int(count[0]) if count else 0


async def toggle_watch(tx: Transaction, table_id: int, user_id: int) -> bool:
    """Start or stop watching a table; True when the member now watches it."""
    stopped = await tx.fetchone(
        "DELETE FROM table_watchers WHERE table_id = ? AND user_id = ? RETURNING user_id",
        (table_id, user_id),
    )
    if stopped is not None:
        return False
    await tx.execute(
        "INSERT INTO table_watchers (table_id, user_id) VALUES (?, ?)", (table_id, user_id)
    )
    return True


async def take_watchers(tx: Transaction, table_id: int) -> list[int]:
    """Everyone watching a table, removed as they are read: whoever reads them tells them,
    once, whichever process that is."""
    rows = await tx.fetchall(
        "DELETE FROM table_watchers WHERE table_id = ? RETURNING user_id", (table_id,)
    )
    return sorted(int(row[0]) for row in rows)


async def put_notice(tx: Transaction, user_id: int, table_id: int, content: str) -> None:
    await tx.execute(
        "INSERT INTO private_notices (user_id, table_id, content) VALUES (?, ?, ?)"
        " ON CONFLICT (user_id, table_id) DO UPDATE SET content = excluded.content",
        (user_id, table_id, content),
    )


async def take_notice(tx: Transaction, user_id: int, table_id: int) -> str | None:
    row = await tx.fetchone(
        "DELETE FROM private_notices WHERE user_id = ? AND table_id = ? RETURNING content",
        (user_id, table_id),
    )
    return str(row[0]) if row is not None else None


async def notice_keys(tx: Transaction) -> list[tuple[int, int]]:
    rows = await tx.fetchall("SELECT user_id, table_id FROM private_notices")
    return [(int(row[0]), int(row[1])) for row in rows]


@dataclass(frozen=True, slots=True)
class LiveTable:
    """A live table as `/tables` lists it."""

    id: int
    game: str
    status: TableStatus
    channel_id: int
    message_id: int | None
    host_id: int
    seated: int
    created_at: float


async def live_tables_of(tx: Transaction, guild_id: int) -> list[LiveTable]:
    """A server's lobbies and running tables, oldest first, with how many sit at each."""
    rows = await tx.fetchall(
        "SELECT t.id, t.game, t.status, t.channel_id, t.message_id, t.host_id,"
        " (SELECT COUNT(*) FROM table_seats s WHERE s.table_id = t.id), t.created_at"
        " FROM game_tables t WHERE t.status IN ('lobby', 'running') AND t.guild_id = ?"
        " ORDER BY t.id",
        (guild_id,),
    )
    return [
        LiveTable(
            int(r[0]),
            str(r[1]),
            TableStatus(r[2]),
            int(r[3]),
            None if r[4] is None else int(r[4]),
            int(r[5]),
            int(r[6]),
            float(r[7]),
        )
        for r in rows
    ]


async def live_games(tx: Transaction) -> list[tuple[int, str]]:
    rows = await tx.fetchall(
        "SELECT id, game FROM game_tables WHERE status IN ('lobby', 'running')"
    )
    return [(int(row[0]), str(row[1])) for row in rows]


async def live_table_counts(tx: Transaction) -> dict[tuple[str, str], int]:
    """Tables open or in play, by (game, status)."""
    rows = await tx.fetchall(
        "SELECT game, status, COUNT(*) FROM game_tables"
        " WHERE status IN ('lobby', 'running') GROUP BY game, status"
    )
    return {(str(row[0]), str(row[1])): int(row[2]) for row in rows}


async def tables_with_computers(tx: Transaction) -> list[int]:
    """Running tables with a computer seat (its small id: see bot.players), at start."""
    rows = await tx.fetchall(
        "SELECT DISTINCT s.table_id FROM table_seats s JOIN game_tables t ON t.id = s.table_id"
        " WHERE t.status = 'running' AND s.user_id BETWEEN 1 AND ? ORDER BY s.table_id",
        (max(COMPUTER_IDS),),
    )
    return [int(row[0]) for row in rows]


# -- a server's table settings (/config) -------------------------------------------------------


async def guild_config(tx: Transaction, guild_id: int) -> dict[str, str]:
    rows = await tx.fetchall("SELECT name, value FROM guild_config WHERE guild_id = ?", (guild_id,))
    return {str(row[0]): str(row[1]) for row in rows}


async def set_guild_config(tx: Transaction, guild_id: int, name: str, value: str) -> None:
    await tx.execute(
        "INSERT INTO guild_config (guild_id, name, value) VALUES (?, ?, ?)"
        " ON CONFLICT (guild_id, name) DO UPDATE SET value = excluded.value",
        (guild_id, name, value),
    )
