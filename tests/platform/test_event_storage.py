"""Events in the store, on both backends: the entry fee is a stake (self-exclusion and loss
limits refuse it, and a loss limit counts it), fees and the house's prize wait in the
event's escrow with a ledger row each, leaving and cancelling pay them back, and the books
balance after every step. On PostgreSQL with two processes, exactly one advances an event.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from bot.errors import LossLimitReached, NotAllowed, SelfExcluded
from bot.events import Format
from bot.games.common import Ranking, ranked_alone
from bot.games.registry import GameRegistry, GameSpec
from bot.service import Actor, TableService
from bot.service.events import EventBusy, EventChange, EventService
from bot.storage import events as eq
from bot.storage import money as mq
from bot.storage.postgres import PostgresDatabase
from tests.platform._helpers import FakeClock, Services, open_services
from tests.support import coinflip

GUILD, CHANNEL = 10, 20
MOD = Actor(1, is_moderator=True)
MEMBERS = (101, 102, 103, 104)


async def books(services: Services) -> None:
    audit = await services.economy.audit(GUILD)
    assert audit.invariant_holds, audit.totals
    assert audit.mismatches == [], audit.mismatches


def rules() -> coinflip.Rules:
    return coinflip.Rules(stake=0, max_players=2)


async def open_event(events: EventService, *, fee: int = 50, prize: int = 100) -> int:
    view = await events.open(
        guild_id=GUILD,
        channel_id=CHANNEL,
        actor=MOD,
        game="coinflip",
        rules=rules(),
        format=Format.SWISS,
        rounds=2,
        duration_seconds=0,
        entry_fee=fee,
        house_prize=prize,
        split=[70, 30],
    )
    return view.id


def ranked_coinflip(state: coinflip.State, _events: object) -> Ranking:
    """The coin flip placed by its winner (the winner first, the rest after): a game
    players win against each other, as an event needs."""
    return ranked_alone({seat: (int(seat == state.winner),) for seat in state.seats})


def event_registry() -> GameRegistry:
    registry = GameRegistry()
    registry.add(GameSpec(coinflip.ENGINE, "Coin Flip", ranking=ranked_coinflip))
    return registry


@pytest.fixture
async def services(database_url: str) -> AsyncIterator[Services]:
    opened = await open_services(database_url, registry=event_registry())
    yield opened
    await opened.tables.scheduler.stop()
    await opened.db.close()


async def test_fees_and_the_prize_wait_in_escrow_and_come_back_on_leave_and_cancel(
    services: Services,
) -> None:
    events = EventService(services.tables, clock=services.clock)
    event = await open_event(events)
    await books(services)
    for member in MEMBERS:
        await events.join(event, member)
        await books(services)
    async with services.db.reading() as tx:
        row = await eq.event(tx, event)
        stored = await mq.stored_balances(tx, GUILD)
    assert row is not None and row.escrow == 100 + 4 * 50
    assert stored[f"event:{event}"] == 300
    await events.leave(event, MEMBERS[0])
    assert (await services.economy.balance(GUILD, MEMBERS[0])).balance == 1000
    await books(services)
    house_before = (await services.economy.totals(GUILD)).house
    await events.cancel(event, MOD)
    await books(services)
    for member in MEMBERS:
        assert (await services.economy.balance(GUILD, member)).balance == 1000
    assert (await services.economy.totals(GUILD)).house == house_before + 100
    async with services.db.reading() as tx:
        row = await eq.event(tx, event)
    assert row is not None and row.escrow == 0 and row.status == "cancelled"


async def test_the_entry_fee_is_a_stake_that_exclusion_and_loss_limits_guard(
    services: Services,
) -> None:
    events = EventService(services.tables, clock=services.clock)
    event = await open_event(events, fee=300, prize=0)
    await services.economy.self_exclude(GUILD, MEMBERS[0], 7)
    with pytest.raises(SelfExcluded):
        await events.join(event, MEMBERS[0])
    await services.economy.set_loss_limit(GUILD, MEMBERS[1], 500)
    await events.join(event, MEMBERS[1])  # 300 of 500
    second = await open_event_elsewhere(events)
    # The first fee counts against the day's limit: 300 + 300 passes 500.
    with pytest.raises(LossLimitReached):
        await events.join(second, MEMBERS[1])
    await books(services)


async def open_event_elsewhere(events: EventService) -> int:
    view = await events.open(
        guild_id=GUILD,
        channel_id=CHANNEL + 1,
        actor=MOD,
        game="coinflip",
        rules=rules(),
        format=Format.SWISS,
        rounds=1,
        duration_seconds=0,
        entry_fee=300,
        house_prize=0,
        split=[100],
    )
    return view.id


async def test_bad_events_are_refused_and_change_nothing(services: Services) -> None:
    events = EventService(services.tables, clock=services.clock)
    with pytest.raises(NotAllowed, match="Manage Server"):
        await events.open(
            guild_id=GUILD,
            channel_id=CHANNEL,
            actor=Actor(5),
            game="coinflip",
            rules=rules(),
            format=Format.SWISS,
            rounds=2,
            duration_seconds=0,
            entry_fee=0,
            house_prize=0,
            split=[100],
        )
    with pytest.raises(NotAllowed, match="add up to 100"):
        await events.open(
            guild_id=GUILD,
            channel_id=CHANNEL,
            actor=MOD,
            game="coinflip",
            rules=rules(),
            format=Format.SWISS,
            rounds=2,
            duration_seconds=0,
            entry_fee=0,
            house_prize=0,
            split=[60, 30],
        )
    await services.tables.configure_game(GUILD, "coinflip", enabled=False)
    with pytest.raises(NotAllowed, match="switched off"):
        await open_event(events)
    await services.tables.configure_game(GUILD, "coinflip", enabled=True)
    # A server's stake limits are for coins at tables: an event's play for points.
    await services.tables.configure_stakes(GUILD, "coinflip", 5, None)
    await services.tables.configure_channel(GUILD, CHANNEL + 7, allowed=True)
    with pytest.raises(NotAllowed, match="Tables open only in"):
        await open_event(events)
    await services.tables.configure_channel(GUILD, CHANNEL, allowed=True)
    bank = GameRegistry()
    bank.add(GameSpec(coinflip.ENGINE, "Coin Flip"))
    unranked = EventService(
        TableService(services.db, services.economy, bank, clock=services.clock),
        clock=services.clock,
    )
    with pytest.raises(NotAllowed, match="against the bank"):
        await open_event(unranked)
    assert await events.history(GUILD) == []
    assert (await events.view(await open_event(events))).row.status == "open"


async def test_an_event_round_opens_its_tables_in_one_channel_and_reads_their_ends(
    services: Services,
) -> None:
    events = EventService(services.tables, clock=services.clock)
    event = await open_event(events, fee=0, prize=0)
    for member in MEMBERS:
        await events.join(event, member)
    change = await events.start(event, MOD)
    assert len(change.opened) == 2
    assert {o.snapshot.row.channel_id for o in change.opened} == {CHANNEL}
    for outcome in change.opened:
        await services.tables.end_for_event(outcome.snapshot.id)
    advanced = await advance_when_free(events, event)
    assert advanced is not None and advanced.view.row.round == 2
    assert len(advanced.opened) == 2
    # A table a moderator ended is a draw for both.
    assert all(set(r.places) == {1} for r in advanced.view.results)
    await books(services)


async def advance_when_free(events: EventService, event: int) -> EventChange | None:
    """Advance the event, once the table service's own telling of the ends (a task of its
    own, which holds the event a moment) lets go of it."""
    for _ in range(500):
        try:
            return await events.advance(event)
        except EventBusy:
            await asyncio.sleep(0.01)
    raise AssertionError("the event stayed busy")


# -- two processes on PostgreSQL ----------------------------------------------------------


@pytest.fixture
async def two_processes(postgres_dsn: str) -> AsyncIterator[tuple[Services, Services]]:
    clock = FakeClock()
    first = await open_services(postgres_dsn, clock=clock, registry=event_registry())
    second = await open_services(postgres_dsn, clock=clock, registry=event_registry())
    yield first, second
    for services in (first, second):
        await services.tables.scheduler.stop()
        await services.db.close()


async def round_one_ended(services: Services, events: EventService) -> int:
    event = await open_event(events, fee=10, prize=0)
    for member in MEMBERS:
        await events.join(event, member)
    change = await events.start(event, MOD)
    for outcome in change.opened:
        await services.tables.end_for_event(outcome.snapshot.id)
    await events.settled()
    return event


async def test_two_processes_advancing_one_event_at_once_open_one_round(
    two_processes: tuple[Services, Services],
) -> None:
    first, second = two_processes
    one = EventService(first.tables, clock=first.clock)
    two = EventService(second.tables, clock=second.clock)
    event = await round_one_ended(first, one)

    async def advance(events: EventService) -> int:
        try:
            change = await events.advance(event)
        except EventBusy:
            return 0
        return 0 if change is None else len(change.opened)

    opened = await asyncio.gather(advance(one), advance(two), advance(one), advance(two))
    assert sorted(opened) == [0, 0, 0, 2]
    view = await two.view(event)
    assert view.row.round == 2
    assert len([g for g in view.games if g.round == 2]) == 2
    await books(first)


async def test_an_event_another_process_holds_is_busy_not_waited_for(
    two_processes: tuple[Services, Services],
) -> None:
    first, second = two_processes
    one = EventService(first.tables, clock=first.clock)
    two = EventService(second.tables, clock=second.clock)
    event = await round_one_ended(first, one)
    assert isinstance(second.db, PostgresDatabase)
    async with first.db.transaction() as tx:
        await eq.lock_event(tx, event)
        with pytest.raises(EventBusy):
            await two.advance(event)
    change = await two.advance(event)
    assert change is not None and len(change.opened) == 2


async def test_a_process_that_stopped_after_a_table_ended_leaves_the_event_to_another(
    two_processes: tuple[Services, Services],
) -> None:
    """The process that ended round 1's tables stops before it advances the event; the
    other hears that the event is due (a trigger's signal) and advances it, once."""
    first, second = two_processes
    one = EventService(first.tables, clock=first.clock)
    two = EventService(second.tables, clock=second.clock)
    await first.tables.rearm()
    await second.tables.rearm()
    changes: list[int] = []
    two.listeners.append(lambda change: changes.append(len(change.opened)))
    event = await open_event(one, fee=10, prize=0)
    for member in MEMBERS:
        await one.join(event, member)
    started = await one.start(event, MOD)
    await first.tables.scheduler.stop()  # the first process is gone from here on
    for outcome in started.opened:
        await first.tables.end_for_event(outcome.snapshot.id)
    # The second process may first find the event held (the first's update of it still
    # in its transaction) and retry BUSY_RETRY_SECONDS later by the clock, which moves
    # here only when the test moves it: it moves as real time does, until round 2 is open.
    for _ in range(3000):
        if sum(changes) >= 2:
            break
        await asyncio.sleep(0.01)
        first.clock.advance(0.01)
    # Once: one change opened round 2's two tables (an earlier one may only have read the
    # first table's result).
    assert [opened for opened in changes if opened] == [2]
    view = await two.view(event)
    assert view.row.round == 2 and len([g for g in view.games if g.round == 2]) == 2
