"""Each member's choice of turn notifications (/notify), per server."""

from __future__ import annotations

from bot.storage.base import Transaction


async def notify_mode(tx: Transaction, guild_id: int, user_id: int) -> str | None:
    """The member's stored choice (``"off"``, ``"dm"``, ``"on"``), or ``None``: never set."""
    row = await tx.fetchone(
        "SELECT mode FROM notify_prefs WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
    )
    return None if row is None else str(row[0])


async def set_notify_mode(tx: Transaction, guild_id: int, user_id: int, mode: str) -> None:
    await tx.execute(
        "INSERT INTO notify_prefs (guild_id, user_id, mode) VALUES (?, ?, ?)"
        " ON CONFLICT (guild_id, user_id) DO UPDATE SET mode = excluded.mode",
        (guild_id, user_id, mode),
    )
