"""Private panels in storage: where each player's DM panel is, and closed-DM markers (on
both backends)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.panels import PrivatePanels
from bot.storage import Database, Transaction, database_for_url
from bot.storage import money as money_q
from bot.storage import panels as q
from bot.storage import table_queries as tables_q


async def new_table(tx: Transaction, channel_id: int, status: str = "running") -> int:
    await money_q.insert_guild_settings(tx, 1)
    table_id = await tables_q.insert_table(
        tx,
        guild_id=1,
        channel_id=channel_id,
        game="strength_duel",
        host_id=10,
        rules_json="{}",
        seed_hex="00",
        commitment="00",
        now=0.0,
    )
    await tx.execute("UPDATE game_tables SET status = ? WHERE id = ?", (status, table_id))
    return table_id


@pytest.fixture
async def db(database_url: str) -> AsyncIterator[Database]:
    database = database_for_url(database_url)
    await database.open()
    yield database
    await database.close()


async def test_queries_remember_mark_and_drop(db: Database) -> None:
    async with db.transaction() as tx:
        table = await new_table(tx, 100)
        assert await q.panel(tx, table, 7) is None
        await q.set_panel(tx, table, 7, 555, 666)
        assert await q.mark_closed(tx, table, 8) is True
        assert await q.mark_closed(tx, table, 8) is False  # not news the second time
        rows = await q.panels(tx, table)
        assert rows == [
            q.PanelRow(table, 7, 555, 666, False),
            q.PanelRow(table, 8, None, None, True),
        ]
        assert await q.closed(tx) == [(table, 8)]
        # A DM that arrives later means the member opened their DMs again.
        await q.set_panel(tx, table, 8, 557, 667)
        assert await q.closed(tx) == []
        await q.drop_table(tx, table)
        assert await q.panels(tx, table) == []


async def test_the_store_survives_a_restart_and_forgets_ended_tables(
    db: Database, database_url: str
) -> None:
    async with db.transaction() as tx:
        live = await new_table(tx, 100)
        ended = await new_table(tx, 101, status="finished")
    store = PrivatePanels(db)
    await store.load()
    await store.remember(live, 7, 555, 666)
    assert await store.mark_closed(live, 8) is True
    assert await store.mark_closed(ended, 9) is True
    assert store.closed(live) == {8}
    await db.close()

    reopened = database_for_url(database_url)
    await reopened.open()
    try:
        again = PrivatePanels(reopened)
        assert again.closed(live) == frozenset()  # nothing before load()
        await again.load()
        assert again.closed(live) == {8}
        assert again.closed(ended) == frozenset(), "an ended table's markers are dropped"
        row = await again.get(live, 7)
        assert row is not None and (row.channel_id, row.message_id) == (555, 666)
        assert set(await again.of_table(live)) == {7, 8}
        assert await again.of_table(ended) == {}
        await again.forget(live)
        assert again.closed(live) == frozenset() and await again.of_table(live) == {}
    finally:
        await reopened.close()
