"""Each member's choice of turn notifications (/notify), per server; the turn notices
themselves (one row per member a table waits for); and when a member last pinged another."""

from __future__ import annotations

from dataclasses import dataclass

from bot.storage.base import Row, Transaction

POSTING = 0
"""A notice's ``message_id`` while one process posts it: no other process posts it too."""


@dataclass(frozen=True)
class TurnNotice:
    id: int
    table_id: int
    user_id: int
    guild_id: int
    due_at: float
    channel_id: int | None
    message_id: int | None
    """``None``: not posted yet; :data:`POSTING`: being posted; else the message."""


_COLUMNS = "id, table_id, user_id, guild_id, due_at, channel_id, message_id"


def _notice(row: Row) -> TurnNotice:
    return TurnNotice(
        id=int(row[0]),
        table_id=int(row[1]),
        user_id=int(row[2]),
        guild_id=int(row[3]),
        due_at=float(row[4]),
        channel_id=None if row[5] is None else int(row[5]),
        message_id=None if row[6] is None else int(row[6]),
    )


async def notify_mode(tx: Transaction, guild_id: int, user_id: int) -> str | None:
    """The member's stored choice (``"off"``, ``"dm"``, ``"on"``), or ``None``: never set."""
    row = await tx.fetchone(
        "SELECT mode FROM notify_prefs WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
    )
    return None if row is None else str(row[0])


async def notify_pref(
    tx: Transaction, guild_id: int, user_id: int
) -> tuple[str | None, int | None]:
    """The member's stored mode and wait (either ``None``: never set)."""
    row = await tx.fetchone(
        "SELECT mode, wait_seconds FROM notify_prefs WHERE guild_id = ? AND user_id = ?",
        (guild_id, user_id),
    )
    if row is None:
        return None, None
    return str(row[0]), None if row[1] is None else int(row[1])


async def set_notify_mode(tx: Transaction, guild_id: int, user_id: int, mode: str) -> None:
    await tx.execute(
        "INSERT INTO notify_prefs (guild_id, user_id, mode) VALUES (?, ?, ?)"
        " ON CONFLICT (guild_id, user_id) DO UPDATE SET mode = excluded.mode",
        (guild_id, user_id, mode),
    )


async def set_notify_wait(
    tx: Transaction, guild_id: int, user_id: int, seconds: int, default_mode: str
) -> None:
    """The member's wait; a member who never chose a mode keeps ``default_mode``."""
    await tx.execute(
        "INSERT INTO notify_prefs (guild_id, user_id, mode, wait_seconds) VALUES (?, ?, ?, ?)"
        " ON CONFLICT (guild_id, user_id) DO UPDATE SET wait_seconds = excluded.wait_seconds",
        (guild_id, user_id, default_mode, seconds),
    )


# -- turn notices ------------------------------------------------------------------------


async def turn_notices_of(tx: Transaction, table_id: int) -> list[TurnNotice]:
    rows = await tx.fetchall(
        f"SELECT {_COLUMNS} FROM turn_notices WHERE table_id = ? ORDER BY id", (table_id,)
    )
    return [_notice(row) for row in rows]


async def all_turn_notices(tx: Transaction) -> list[TurnNotice]:
    rows = await tx.fetchall(f"SELECT {_COLUMNS} FROM turn_notices ORDER BY id")
    return [_notice(row) for row in rows]


async def turn_notice(tx: Transaction, notice_id: int) -> TurnNotice | None:
    row = await tx.fetchone(f"SELECT {_COLUMNS} FROM turn_notices WHERE id = ?", (notice_id,))
    return None if row is None else _notice(row)


async def add_turn_notice(
    tx: Transaction, table_id: int, user_id: int, guild_id: int, due_at: float
) -> TurnNotice | None:
    """A member the table now waits for, to be told at ``due_at``; ``None`` when they
    already have a notice there (another process wrote it first)."""
    row = await tx.fetchone(
        "INSERT INTO turn_notices (table_id, user_id, guild_id, due_at) VALUES (?, ?, ?, ?)"
        f" ON CONFLICT (table_id, user_id) DO NOTHING RETURNING {_COLUMNS}",
        (table_id, user_id, guild_id, due_at),
    )
    return None if row is None else _notice(row)


async def drop_turn_notice(tx: Transaction, notice_id: int) -> TurnNotice | None:
    """Deletes the row; returns it to the one caller that deleted it (its message, if
    posted, is that caller's to delete)."""
    row = await tx.fetchone(
        f"DELETE FROM turn_notices WHERE id = ? RETURNING {_COLUMNS}", (notice_id,)
    )
    return None if row is None else _notice(row)


async def drop_table_notices(tx: Transaction, table_id: int) -> list[TurnNotice]:
    rows = await tx.fetchall(
        f"DELETE FROM turn_notices WHERE table_id = ? RETURNING {_COLUMNS}", (table_id,)
    )
    return [_notice(row) for row in rows]


async def postpone_turn_notice(
    tx: Transaction, table_id: int, user_id: int, due_at: float
) -> TurnNotice | None:
    """A member seen at the table: a notice not yet posted waits until ``due_at``; one
    posted (or being posted) is deleted and returned, its message the caller's to take
    back."""
    await tx.execute(
        "UPDATE turn_notices SET due_at = ? WHERE table_id = ? AND user_id = ?"
        " AND message_id IS NULL AND due_at < ?",
        (due_at, table_id, user_id, due_at),
    )
    row = await tx.fetchone(
        "DELETE FROM turn_notices WHERE table_id = ? AND user_id = ? AND message_id IS NOT NULL"
        f" RETURNING {_COLUMNS}",
        (table_id, user_id),
    )
    return None if row is None else _notice(row)


async def claim_turn_notice(tx: Transaction, notice_id: int, now: float) -> TurnNotice | None:
    """Take a due, unposted notice to post it: no other process will."""
    row = await tx.fetchone(
        "UPDATE turn_notices SET message_id = ? WHERE id = ? AND message_id IS NULL"
        f" AND due_at <= ? RETURNING {_COLUMNS}",
        (POSTING, notice_id, now),
    )
    return None if row is None else _notice(row)


async def posted_turn_notice(
    tx: Transaction, notice_id: int, channel_id: int, message_id: int
) -> bool:
    """Record the message of a notice claimed; False when the notice went meanwhile (the
    member acted): the message is then the caller's to delete."""
    row = await tx.fetchone(
        "UPDATE turn_notices SET channel_id = ?, message_id = ? WHERE id = ? AND message_id = ?"
        " RETURNING id",
        (channel_id, message_id, notice_id, POSTING),
    )
    return row is not None


# -- pings from one member to another -------------------------------------------------------


async def take_member_ping(
    tx: Transaction, guild_id: int, from_id: int, to_id: int, now: float, every: float
) -> bool:
    """True (and the ping is recorded) when ``from_id`` has not pinged ``to_id`` in the
    last ``every`` seconds."""
    row = await tx.fetchone(
        "INSERT INTO member_pings (guild_id, from_id, to_id, at) VALUES (?, ?, ?, ?)"
        " ON CONFLICT (guild_id, from_id, to_id) DO UPDATE SET at = excluded.at"
        " WHERE member_pings.at <= ? RETURNING at",
        (guild_id, from_id, to_id, now, now - every),
    )
    return row is not None
