"""Gifts cannot funnel free coins (issue 33): coins a member got for free (a new wallet's
welcome coins, /daily) can be given away only once the server's hold on them has run out
(7 days unless a server sets otherwise; a server may let members whose Discord account is
old enough off it), and a member receives at most the server's cap in gifts a day (1,000
unless set). On both backends, with a clock the test moves."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from bot.economy import DISCORD_EPOCH_MS, account_created, utc_day
from bot.errors import GiftLimited, InsufficientFunds
from bot.storage import money as mq
from tests.platform._helpers import Services, fingerprint, open_services, wallet_balances

GUILD = 1
DAY = 86_400
# Discord ids made now (by the test clock), so the accounts are as young as their wallets.
FRESH = [((1_700_000_000_000 - DISCORD_EPOCH_MS) << 22) + n for n in range(1, 8)]
MAIN, SPARES = FRESH[0], FRESH[1:6]


@pytest.fixture
async def services(database_url: str) -> AsyncIterator[Services]:
    made = await open_services(database_url, house_float=5_000)
    yield made
    await made.db.close()


async def test_the_free_coins_are_recorded_with_when_on_both_backends(database_url: str) -> None:
    made = await open_services(database_url)
    try:
        async with made.db.transaction() as tx:
            await mq.record_free_coins(tx, GUILD, 5, 100.0, 1_000)
            await mq.record_free_coins(tx, GUILD, 5, 200.0, 100)
            await mq.record_free_coins(tx, GUILD, 6, 300.0, 100)
            await mq.record_free_coins(tx, GUILD + 1, 5, 300.0, 7)
            for gift in ((5, 6, 30, 150.0), (7, 6, 40, 250.0), (6, 5, 99, 250.0)):
                await mq.insert_ledger(
                    tx,
                    guild_id=GUILD,
                    at=gift[3],
                    kind="give",
                    source=f"wallet:{gift[0]}",
                    target=f"wallet:{gift[1]}",
                    amount=gift[2],
                    table_id=None,
                    action_seq=None,
                    memo="",
                )
            assert await mq.free_coins_since(tx, GUILD, 5, 0.0) == [(100.0, 1_000), (200.0, 100)]
            assert await mq.free_coins_since(tx, GUILD, 5, 100.0) == [(200.0, 100)], "after"
            assert await mq.free_coins_since(tx, GUILD + 1, 6, 0.0) == []
            assert await mq.gifts_received_since(tx, GUILD, "wallet:6", 200.0) == 40
            assert await mq.gifts_received_since(tx, GUILD, "wallet:6", 0.0) == 70
    finally:
        await made.db.close()


async def test_five_fresh_accounts_cannot_funnel_their_welcome_coins(services: Services) -> None:
    economy = services.economy
    await economy.balance(GUILD, MAIN)
    for spare in SPARES:
        await economy.daily(GUILD, spare)  # a wallet with its welcome coins, and a daily
    before = await fingerprint(services.db)
    for spare in SPARES:
        with pytest.raises(GiftLimited) as refused:
            await economy.give(GUILD, spare, MAIN, 1_100)
        assert refused.value.most == 0
        assert "1,100 ryō of your wallet came free" in str(refused.value)
        assert f"<t:{int(services.clock.now) + 7 * DAY}:f>" in str(refused.value)
        with pytest.raises(GiftLimited):
            await economy.give(GUILD, spare, MAIN, 1)
    assert await fingerprint(services.db) == before, "nothing moved"
    assert (await economy.balance(GUILD, MAIN)).balance == 1_000


async def test_free_coins_can_be_given_once_the_hold_has_run_out(services: Services) -> None:
    economy, clock = services.economy, services.clock
    await economy.balance(GUILD, MAIN)
    await economy.balance(GUILD, SPARES[0])
    clock.advance(3 * DAY)
    await economy.daily(GUILD, SPARES[0])
    await economy.grant(GUILD, SPARES[0], 40, "prize")  # a moderator's grant is no free coin
    with pytest.raises(GiftLimited) as refused:
        await economy.give(GUILD, SPARES[0], MAIN, 41)
    assert refused.value.most == 40
    assert (await economy.give(GUILD, SPARES[0], MAIN, 40)).balance == 1_100
    free, _allowance = await economy.gift_status(GUILD, SPARES[0])
    assert (free.held, free.giftable, free.until) == (1_100, 0, clock.now + 7 * DAY)
    clock.advance(4 * DAY)  # the welcome coins are 7 days old; the daily is not
    free, _allowance = await economy.gift_status(GUILD, SPARES[0])
    assert (free.held, free.giftable) == (100, 1_000)
    with pytest.raises(GiftLimited):
        await economy.give(GUILD, SPARES[0], MAIN, 1_001)
    assert (await economy.give(GUILD, SPARES[0], MAIN, 900)).balance == 200
    # Losing coins spends the member's own first: 200 left, 100 of them held.
    clock.advance(3 * DAY)
    assert (await economy.give(GUILD, SPARES[0], MAIN, 200)).balance == 0


async def test_a_member_receives_at_most_the_cap_in_gifts_a_day(services: Services) -> None:
    economy, clock = services.economy, services.clock
    givers = SPARES[:3]
    for member in (MAIN, *givers):
        await economy.balance(GUILD, member)
    clock.advance(7 * DAY)  # every welcome coin free to give
    assert (await economy.give(GUILD, givers[0], MAIN, 600)).balance == 400
    before = await wallet_balances(services.db, GUILD)
    with pytest.raises(GiftLimited) as refused:
        await economy.give(GUILD, givers[1], MAIN, 401)
    text = str(refused.value)
    assert refused.value.most == 400 and "they can receive only 400 ryō more" in text
    assert "this server's cap being 1,000 ryō a day" in text
    assert f"<t:{int(utc_day(clock.now)[1])}:t>" in text
    assert await wallet_balances(services.db, GUILD) == before
    await economy.give(GUILD, givers[1], MAIN, 400)
    _free, allowance = await economy.gift_status(GUILD, MAIN)
    assert (allowance.received, allowance.left) == (1_000, 0)
    with pytest.raises(GiftLimited):
        await economy.give(GUILD, givers[2], MAIN, 1)
    # Giving is not receiving: the main account may still give, and tomorrow receive.
    await economy.give(GUILD, MAIN, givers[2], 1)
    clock.advance(utc_day(clock.now)[1] - clock.now)
    assert (await economy.give(GUILD, givers[2], MAIN, 1_000)).balance == 1


async def test_a_server_sets_the_hold_the_account_age_and_the_cap(services: Services) -> None:
    economy, clock = services.economy, services.clock
    await economy.balance(GUILD, MAIN)
    await economy.balance(GUILD, SPARES[0])
    await economy.configure(GUILD, gift_hold_days=1, gift_cap=0)
    with pytest.raises(GiftLimited) as refused:
        await economy.give(GUILD, SPARES[0], MAIN, 10)
    assert f"<t:{int(clock.now) + DAY}:f>" in str(refused.value), "a day's hold"
    clock.advance(DAY)
    assert (await economy.give(GUILD, SPARES[0], MAIN, 1_000)).balance == 0, "no cap"
    # An account at least 30 days old is let off the hold: these are 31 days old now.
    await economy.configure(GUILD, gift_hold_days=7, gift_account_days=30)
    await economy.daily(GUILD, MAIN)  # 1,000 received, 1,100 free and a day old at most
    with pytest.raises(GiftLimited) as refused:
        await economy.give(GUILD, MAIN, SPARES[0], 1_001)
    assert refused.value.most == 1_000
    assert clock.now - account_created(MAIN) < 2 * DAY
    clock.advance(29 * DAY)
    await economy.daily(GUILD, MAIN)
    assert (await economy.give(GUILD, MAIN, SPARES[0], 2_200)).balance == 0
    with pytest.raises(InsufficientFunds):  # the wallet's own limit comes first
        await economy.give(GUILD, SPARES[0], MAIN, 2_201)


async def test_a_refused_gift_of_a_new_wallet_leaves_no_free_coins_behind(
    services: Services,
) -> None:
    await services.economy.balance(GUILD, MAIN)
    before = await fingerprint(services.db)
    with pytest.raises(GiftLimited):
        await services.economy.give(GUILD, SPARES[0], MAIN, 5)  # its wallet opens, and rolls back
    assert await fingerprint(services.db) == before


async def test_gifts_from_two_processes_at_once_never_pass_the_hold_or_the_cap(
    postgres_dsn: str,
) -> None:
    """Each gift is checked once made, while its statements hold the giver's and the
    receiver's wallet rows: two processes giving at once are judged one after the other
    (PostgreSQL, READ COMMITTED; SQLite's BEGIN IMMEDIATE already serialises them)."""
    from bot.economy import Economy
    from bot.storage.postgres import PostgresDatabase
    from tests.platform._helpers import FakeClock

    clock = FakeClock()
    first_db, second_db = PostgresDatabase(postgres_dsn), PostgresDatabase(postgres_dsn)
    await first_db.open()
    await second_db.open()
    try:
        first = Economy(first_db, house_float=1000, clock=clock)
        second = Economy(second_db, house_float=1000, clock=clock)
        for member in FRESH:
            await first.balance(GUILD, member)
        # The giver may give the 100 a moderator granted, once: twice at once, one refused.
        await first.grant(GUILD, MAIN, 100, "prize")
        results = await asyncio.gather(
            first.give(GUILD, MAIN, SPARES[0], 100),
            second.give(GUILD, MAIN, SPARES[1], 100),
            return_exceptions=True,
        )
        assert sorted(type(r).__name__ for r in results) == ["Balance", "GiftLimited"], results
        assert (await first.balance(GUILD, MAIN)).balance == 1_000
        # Five givers at once to one receiver: 1,000 a day, never more.
        clock.advance(7 * DAY)
        results = await asyncio.gather(
            *(
                economy.give(GUILD, giver, MAIN, 300)
                for giver, economy in zip(SPARES, (first, second) * 3, strict=False)
            ),
            return_exceptions=True,
        )
        took = [r for r in results if not isinstance(r, BaseException)]
        assert len(took) == 3 and all(isinstance(r, GiftLimited) for r in results if r not in took)
        _free, allowance = await first.gift_status(GUILD, MAIN)
        assert allowance.received == 900
    finally:
        await first_db.close()
        await second_db.close()
