"""Where each player's private panel lives, and whose DMs are closed, kept across restarts.

A game with secret input shows each player one direct message per table and edits it in
place every round. Its channel and message ids are saved, so after a restart the bot
still edits that message instead of sending another. A player the bot could not DM is
marked, so the table keeps offering them a private button after a restart too.

The closed-DM markers are also kept in memory, because the table message is rendered
synchronously; the memory holds live tables only and forgets a table when it ends.
"""

from __future__ import annotations

import logging

from bot.storage import Database
from bot.storage import panels as q
from bot.storage.panels import PanelRow

log = logging.getLogger(__name__)

__all__ = ["PanelRow", "PrivatePanels"]


class PrivatePanels:
    def __init__(self, db: Database) -> None:
        self._db = db
        self._closed: dict[int, set[int]] = {}

    async def load(self) -> None:
        """At start: drop the panels of tables that ended, and read the closed markers."""
        async with self._db.transaction() as tx:
            dropped = await q.drop_ended(tx)
            marked = await q.closed(tx)
        if dropped:
            log.info("dropped %d private panels of ended tables", dropped)
        self._closed = {}
        for table_id, user_id in marked:
            self._closed.setdefault(table_id, set()).add(user_id)

    async def get(self, table_id: int, user_id: int) -> PanelRow | None:
        async with self._db.reading() as tx:
            return await q.panel(tx, table_id, user_id)

    async def of_table(self, table_id: int) -> dict[int, PanelRow]:
        async with self._db.reading() as tx:
            return {row.user_id: row for row in await q.panels(tx, table_id)}

    async def remember(self, table_id: int, user_id: int, channel_id: int, message_id: int) -> None:
        """The panel now lives at this message (and the player's DMs are open)."""
        async with self._db.transaction() as tx:
            await q.set_panel(tx, table_id, user_id, channel_id, message_id)
        players = self._closed.get(table_id)
        if players is not None:
            players.discard(user_id)
            if not players:
                del self._closed[table_id]

    async def mark_closed(self, table_id: int, user_id: int) -> bool:
        """Mark the player's DMs closed; True when that is news."""
        async with self._db.transaction() as tx:
            new = await q.mark_closed(tx, table_id, user_id)
        self._closed.setdefault(table_id, set()).add(user_id)
        return new

    def on_signal(self, payload: str) -> None:
        """Another process found a player's DMs closed (or open) at a table."""
        table, user, closed = (int(field) for field in payload.split())
        if closed:
            self._closed.setdefault(table, set()).add(user)
            return
        players = self._closed.get(table)
        if players is not None:
            players.discard(user)
            if not players:
                del self._closed[table]

    def closed(self, table_id: int) -> frozenset[int]:
        """Players of a table whose DMs are closed (from memory: safe while rendering)."""
        return frozenset(self._closed.get(table_id, ()))

    async def forget(self, table_id: int) -> None:
        """The table ended: drop its panels and markers."""
        async with self._db.transaction() as tx:
            await q.drop_table(tx, table_id)
        self._closed.pop(table_id, None)
