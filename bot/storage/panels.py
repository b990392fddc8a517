"""Queries for private panels: the DM each player of a table is shown, and closed DMs."""

from __future__ import annotations

from dataclasses import dataclass

from bot.storage.database import Row, Transaction


@dataclass(frozen=True, slots=True)
class PanelRow:
    table_id: int
    user_id: int
    channel_id: int | None
    message_id: int | None
    dm_closed: bool


def _row(row: Row) -> PanelRow:
    return PanelRow(
        int(row[0]),
        int(row[1]),
        int(row[2]) if row[2] is not None else None,
        int(row[3]) if row[3] is not None else None,
        bool(row[4]),
    )


_COLUMNS = "table_id, user_id, channel_id, message_id, dm_closed"


async def panel(tx: Transaction, table_id: int, user_id: int) -> PanelRow | None:
    row = await tx.fetchone(
        f"SELECT {_COLUMNS} FROM private_panels WHERE table_id = ? AND user_id = ?",
        (table_id, user_id),
    )
    return _row(row) if row is not None else None


async def panels(tx: Transaction, table_id: int) -> list[PanelRow]:
    rows = await tx.fetchall(
        f"SELECT {_COLUMNS} FROM private_panels WHERE table_id = ? ORDER BY user_id",
        (table_id,),
    )
    return [_row(row) for row in rows]


async def set_panel(
    tx: Transaction, table_id: int, user_id: int, channel_id: int, message_id: int
) -> None:
    """Remember where a player's panel is; a DM that arrived also means DMs are open."""
    await tx.execute(
        "INSERT INTO private_panels (table_id, user_id, channel_id, message_id, dm_closed)"
        " VALUES (?, ?, ?, ?, 0) ON CONFLICT (table_id, user_id) DO UPDATE SET"
        " channel_id = excluded.channel_id, message_id = excluded.message_id, dm_closed = 0",
        (table_id, user_id, channel_id, message_id),
    )


async def mark_closed(tx: Transaction, table_id: int, user_id: int) -> bool:
    """Mark a player's DMs closed at a table; True when they were not marked before."""
    before = await panel(tx, table_id, user_id)
    await tx.execute(
        "INSERT INTO private_panels (table_id, user_id, dm_closed) VALUES (?, ?, 1)"
        " ON CONFLICT (table_id, user_id) DO UPDATE SET dm_closed = 1",
        (table_id, user_id),
    )
    return before is None or not before.dm_closed


async def closed(tx: Transaction) -> list[tuple[int, int]]:
    """Every (table, player) whose DMs are marked closed."""
    rows = await tx.fetchall("SELECT table_id, user_id FROM private_panels WHERE dm_closed = 1")
    return [(int(row[0]), int(row[1])) for row in rows]


async def drop_table(tx: Transaction, table_id: int) -> None:
    await tx.execute("DELETE FROM private_panels WHERE table_id = ?", (table_id,))


async def drop_ended(tx: Transaction) -> int:
    """Drop the panels of tables that are no longer live (left over by a crash at the end
    of a game); returns how many rows went."""
    rows = await tx.fetchall(
        "DELETE FROM private_panels WHERE table_id NOT IN"
        " (SELECT id FROM game_tables WHERE status IN ('lobby', 'running')) RETURNING table_id"
    )
    return len(rows)
