"""The snapshot an action hands back is built in memory (the engine's state, the deadline
just set, the recent events with the action's own appended), not read back from the rows
the action just wrote. It must equal what reading those rows gives, action after action,
also when another process acted last, and it must never show a private event."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.economy import Economy
from bot.games import strength_duel
from bot.games.dice import ScriptedDice
from bot.games.registry import GameRegistry, GameSpec
from bot.service import Actor, TableService, TableSnapshot
from bot.storage import SqliteDatabase
from tests.platform._helpers import FakeClock
from tests.support import coinflip

GUILD, CHANNEL, ALICE, BOB = 11 << 22, 50, 7001, 7002


def registry() -> GameRegistry:
    found = GameRegistry()
    found.add(GameSpec(coinflip.ENGINE, "Coin Flip"))
    found.add(GameSpec(strength_duel.ENGINE, "Strength Duel"))
    return found


async def process(path: Path, clock: FakeClock, dice: ScriptedDice) -> TableService:
    """A table service on its own connection to the file, as another process would be."""
    db = SqliteDatabase(path)
    await db.open()
    economy = Economy(db, house_float=10_000, clock=clock)
    return TableService(db, economy, registry(), clock=clock, dice_factory=lambda row: dice)


async def coinflip_table(service: TableService) -> int:
    opened = await service.open(
        guild_id=GUILD,
        channel_id=CHANNEL,
        game="coinflip",
        host_id=ALICE,
        rules=coinflip.Rules(stake=10),
    )
    await service.join(opened.snapshot.id, Actor(BOB))
    return opened.snapshot.id


def same(in_memory: TableSnapshot[Any, Any], stored: TableSnapshot[Any, Any]) -> None:
    assert in_memory.row == stored.row
    assert in_memory.rules == stored.rules
    assert in_memory.state == stored.state
    assert in_memory.seats == stored.seats
    assert in_memory.currency == stored.currency
    assert in_memory.deadline == stored.deadline
    assert in_memory.recent_events == stored.recent_events


@pytest.fixture
async def two(tmp_path: Path):
    clock, dice = FakeClock(), ScriptedDice(rolls=[1, 2] * 500)
    first = await process(tmp_path / "one.db", clock, dice)
    second = await process(tmp_path / "one.db", clock, dice)
    yield first, second, clock
    for service in (first, second):
        await service.scheduler.stop()
        await service._db.close()


async def test_every_snapshot_after_an_action_equals_the_stored_one(two) -> None:
    first, second, clock = two
    opened = await first.open(
        guild_id=GUILD,
        channel_id=CHANNEL,
        game="strength_duel",
        host_id=ALICE,
        rules=strength_duel.Rules(stake=10),
        invitee_id=BOB,
    )
    table = opened.snapshot.id
    await first.accept(table, Actor(BOB))
    bids = [(ALICE, 1), (BOB, 0), (ALICE, 0), (BOB, 1), (ALICE, 1), (BOB, 1)] * 3
    for turn, (player, amount) in enumerate(bids):
        # The two processes take turns, so half the time the other one acted last and the
        # recent events it logged must be read, not taken from stale memory.
        service = (first, second)[turn % 2 if turn < 8 else (turn // 2) % 2]
        clock.advance(1)
        outcome = await service.act(table, Actor(player), strength_duel.Bid(amount=amount))
        same(outcome.snapshot, await service.snapshot(table))
        shown = outcome.snapshot.recent_events
        assert all(getattr(event, "private_to", None) is None for event in shown), shown
        if not outcome.snapshot.row.live:
            break
    # A deadline is one more writer of the table's log.
    snapshot = await first.snapshot(table)
    if snapshot.row.live:
        assert snapshot.deadline is not None
        clock.now = snapshot.deadline.due_at
        fired = await second.fire_deadline(table, snapshot.deadline.ply)
        assert fired is not None
        same(fired.snapshot, await second.snapshot(table))


async def test_a_choice_inside_one_decision_keeps_the_deadline_it_had(two) -> None:
    first, _second, clock = two
    table = await coinflip_table(first)
    started = await first.start(table, Actor(ALICE))
    clock.advance(5)
    raised = await first.act(table, Actor(BOB), coinflip.Raise(amount=5))
    assert raised.snapshot.deadline == started.snapshot.deadline, "the clock kept running"
    same(raised.snapshot, await first.snapshot(table))


async def test_an_ended_table_leaves_no_rules_or_events_in_memory(two) -> None:
    first, _second, _clock = two
    table = await coinflip_table(first)
    await first.start(table, Actor(ALICE))
    steps = first._steps
    # The scripted coin lands heads first: Alice's call of heads wins at once.
    outcome = await first.act(table, Actor(ALICE), coinflip.Call(side="heads"))
    assert not outcome.snapshot.row.live
    assert outcome.snapshot.recent_events, "the last message still tells how it ended"
    assert table not in steps._rules and table not in steps._recent and table not in steps.games
