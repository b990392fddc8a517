"""Turn notices and member pings in the database (bot/service/notices.py over
bot/storage/notify.py), on both backends: two processes sharing the store (here two
services, each with its own connection) post a notice once and delete it once, and a
member pings another at most once in a while."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.service.notices import TurnNotices
from bot.signals import SignalRouter
from bot.storage import Database, open_database
from bot.storage import notify as nq
from bot.storage.notify import POSTING
from tests.platform._helpers import FakeClock

SNOWFLAKE = 1_234_567_890_123_456_789
GUILD, TABLE, ALICE, BOB, CAROL = (SNOWFLAKE + n for n in range(5))


@pytest.fixture
async def stores(database_url: str) -> AsyncIterator[tuple[Database, Database]]:
    """Two connections to one store: two processes."""
    first = await open_database(database_url)
    second = await open_database(database_url) if first.shared else first
    try:
        yield first, second
    finally:
        await first.close()
        if second is not first:
            await second.close()


async def test_a_notice_is_posted_once_and_taken_back_once_by_either_process(stores) -> None:
    clock = FakeClock()
    here = TurnNotices(stores[0], SignalRouter(), clock=clock)
    there = TurnNotices(stores[1], SignalRouter(), clock=clock)
    assert await here.update(TABLE, GUILD, [ALICE, BOB], [], 25) == []
    [alice, bob] = await here.rearm()
    assert (alice.user_id, bob.user_id, alice.message_id) == (ALICE, BOB, None)
    assert alice.due_at == bob.due_at == clock() + 25
    assert await here.claim(bob.id) is None, "not due yet"
    clock.advance(25)
    claimed = await here.claim(bob.id)
    assert claimed is not None and claimed.message_id == POSTING
    assert await there.claim(bob.id) is None, "the other process does not post it too"
    assert await here.posted(bob.id, SNOWFLAKE, SNOWFLAKE + 99)
    # Bob acts at the other process: it alone takes his notice (and its message) back.
    [gone] = await there.update(TABLE, GUILD, [ALICE], [BOB], 25)
    assert (gone.user_id, gone.channel_id, gone.message_id) == (BOB, SNOWFLAKE, SNOWFLAKE + 99)
    assert await here.update(TABLE, GUILD, [ALICE], [], 25) == []
    # Alice's wait was not restarted by another member's move.
    [kept] = await there.rearm()
    assert (kept.user_id, kept.due_at) == (ALICE, alice.due_at)
    assert [n.user_id for n in await there.drop_table(TABLE)] == [ALICE]
    assert await here.drop_table(TABLE) == []


async def test_a_notice_claimed_then_dropped_tells_the_poster_to_delete_its_message(
    stores,
) -> None:
    clock = FakeClock()
    notices = TurnNotices(stores[0], SignalRouter(), clock=clock)
    await notices.update(TABLE, GUILD, [BOB], [], 0)
    [bob] = await notices.rearm()
    assert await notices.claim(bob.id) is not None
    await notices.update(TABLE, GUILD, [], [BOB], 0)  # he acted while it was being posted
    assert not await notices.posted(bob.id, SNOWFLAKE, SNOWFLAKE + 1)


async def test_a_member_seen_at_the_table_waits_again_or_has_their_notice_taken_back(
    stores,
) -> None:
    clock = FakeClock()
    notices = TurnNotices(stores[0], SignalRouter(), clock=clock)
    await notices.set_wait(GUILD, BOB, 60, "on")
    assert await notices.preferences(GUILD, BOB) == ("on", 60)
    assert await notices.preferences(GUILD, ALICE) == (None, None)
    await notices.update(TABLE, GUILD, [BOB], [], 25)
    [first] = await notices.rearm()
    assert first.due_at == clock() + 60, "his own wait"
    clock.advance(50)
    assert await notices.seen(TABLE, BOB, 25) is None
    [bob] = await notices.rearm()
    assert bob.due_at == clock() + 60, "his own wait, from his click"
    clock.advance(60)
    assert await notices.claim(bob.id) is not None
    assert await notices.posted(bob.id, SNOWFLAKE, SNOWFLAKE + 5)
    gone = await notices.seen(TABLE, BOB, 25)
    assert gone is not None and gone.message_id == SNOWFLAKE + 5
    assert await notices.rearm() == []
    assert await notices.seen(TABLE, CAROL, 25) is None


async def test_a_member_with_notices_off_gets_no_notice(stores) -> None:
    clock = FakeClock()
    notices = TurnNotices(stores[0], SignalRouter(), clock=clock)
    async with stores[0].transaction() as tx:
        await nq.set_notify_mode(tx, GUILD, CAROL, "off")
    await notices.update(TABLE, GUILD, [ALICE, CAROL], [], 25)
    assert [n.user_id for n in await notices.rearm()] == [ALICE]


async def test_a_member_pings_another_once_in_a_while_per_pair(stores) -> None:
    clock = FakeClock()
    here = TurnNotices(stores[0], SignalRouter(), clock=clock)
    there = TurnNotices(stores[1], SignalRouter(), clock=clock)
    assert await here.take_member_ping(GUILD, ALICE, BOB, 600)
    assert not await there.take_member_ping(GUILD, ALICE, BOB, 600)
    assert await there.take_member_ping(GUILD, CAROL, BOB, 600), "each pair its own"
    assert await here.take_member_ping(GUILD, BOB, ALICE, 600)
    assert await here.take_member_ping(GUILD + 1, ALICE, BOB, 600), "each server its own"
    clock.advance(599)
    assert not await here.take_member_ping(GUILD, ALICE, BOB, 600)
    clock.advance(1)
    assert await there.take_member_ping(GUILD, ALICE, BOB, 600)


async def test_an_action_s_notices_are_written_in_its_own_transaction(stores) -> None:
    # TableService.act hands its transaction to `within`: the notices are saved with the
    # action or, when it fails, not at all.
    from types import SimpleNamespace

    clock = FakeClock()
    notices = TurnNotices(stores[0], SignalRouter(), clock=clock)
    notices.waiting_of = lambda snapshot: [BOB]
    notices.default_wait = 25
    table = SimpleNamespace(id=TABLE, row=SimpleNamespace(guild_id=GUILD))

    class Failed(Exception):
        pass

    with pytest.raises(Failed):
        async with stores[0].transaction() as tx:
            changed = await notices.within(tx, table, ALICE)  # type: ignore[arg-type]
            assert changed is not None and [n.user_id for n in changed.added] == [BOB]
            raise Failed
    assert await notices.rearm() == [], "rolled back with the action"
    async with stores[0].transaction() as tx:
        changed = await notices.within(tx, table, ALICE)  # type: ignore[arg-type]
    assert changed is not None
    assert notices.settled(changed, TABLE) == []
    [bob] = await notices.rearm()
    assert (bob.user_id, bob.due_at) == (BOB, clock() + 25)
    # Bob acts: his notice goes with his action, kept for the one who deletes its message.
    async with stores[0].transaction() as tx:
        notices.waiting_of = lambda snapshot: []
        changed = await notices.within(tx, table, BOB)  # type: ignore[arg-type]
    assert changed is not None
    assert [n.user_id for n in notices.settled(changed, TABLE)] == [BOB]
    assert [n.user_id for n in notices.take_gone(TABLE)] == [BOB]
    assert notices.take_gone(TABLE) == [], "taken once"
    assert await notices.rearm() == []
