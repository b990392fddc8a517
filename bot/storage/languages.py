"""Languages: each server's chosen one (/config language) and each member's last seen."""

from __future__ import annotations

from bot.storage.base import Transaction


async def guild_languages(tx: Transaction) -> dict[int, str]:
    """Every server that chose a language (few: read once at start)."""
    rows = await tx.fetchall("SELECT guild_id, language FROM guild_languages")
    return {int(row[0]): str(row[1]) for row in rows}


async def guild_language(tx: Transaction, guild_id: int) -> str | None:
    row = await tx.fetchone("SELECT language FROM guild_languages WHERE guild_id = ?", (guild_id,))
    return None if row is None else str(row[0])


async def set_guild_language(tx: Transaction, guild_id: int, language: str | None) -> None:
    """``None``: the server follows its Discord language again."""
    if language is None:
        await tx.execute("DELETE FROM guild_languages WHERE guild_id = ?", (guild_id,))
        return
    await tx.execute(
        "INSERT INTO guild_languages (guild_id, language) VALUES (?, ?)"
        " ON CONFLICT (guild_id) DO UPDATE SET language = excluded.language",
        (guild_id, language),
    )


async def member_locale(tx: Transaction, user_id: int) -> str | None:
    row = await tx.fetchone("SELECT locale FROM member_locales WHERE user_id = ?", (user_id,))
    return None if row is None else str(row[0])


async def set_member_locale(tx: Transaction, user_id: int, locale: str) -> None:
    await tx.execute(
        "INSERT INTO member_locales (user_id, locale) VALUES (?, ?)"
        " ON CONFLICT (user_id) DO UPDATE SET locale = excluded.locale",
        (user_id, locale),
    )
