"""Helpers for the event SimCord tests: open, join, start, find the tables the bot opened,
bid in a duel by DM, and the books checked."""

from __future__ import annotations

import asyncio
from typing import Any

from bot.storage import money as mq
from tests.support.sim import World, answered


async def open_event(world: World, **options: Any) -> Any:
    options.setdefault("game", "strength_duel")
    options.setdefault("options", "round_seconds=60")
    result = answered(await world.moderator.slash(world.channel, "event open", **options))
    assert result.response is not None and not result.response.ephemeral, result
    return await event_message(world)


async def event_message(world: World) -> Any:
    """The event message as it is now (the channel's first message from the bot)."""
    bot: Any = world.env.bot
    view = await bot.events.live_in(world.channel.id)
    if view is None:
        views = await bot.events.history(world.guild.id)
        view = views[0]
    for message in world.channel.history():
        if message.id == view.row.message_id:
            return message
    raise AssertionError("no event message")


async def join_all(world: World, message: Any, members: list[Any]) -> None:
    for member in members:
        answered(await member.click(message, label="Join"), ephemeral=False)


async def start_event(world: World, message: Any) -> None:
    answered(await world.moderator.click(message, label="Start"))


async def event_tables(world: World, event: int = 1) -> list[tuple[Any, Any]]:
    """Every table of the event so far, with its posted message, in order."""
    bot: Any = world.env.bot
    view = await bot.events.view(event)
    found = []
    by_id = {m.id: m for m in world.channel.history()}
    for game in view.games:
        if game.table_id is None:
            continue
        snapshot = await bot.tables.snapshot(game.table_id)
        found.append((snapshot, by_id.get(snapshot.row.message_id)))
    return found


async def bid(world: World, member_id: int, amount: int) -> None:
    """The member bids at their live duel by the DM panel (the last one that asks)."""
    member = next(m for m in world.members.values() if m.id == member_id)
    panel = member.user.dm_channel.last_message
    assert panel is not None, "no bid panel"
    answered(await member.user.click(panel, label=str(amount)))


async def books_balanced(world: World) -> None:
    """Wallets + table escrow + event escrow + house == minted, and every stored balance
    equals the ledger's sum for it."""
    bot: Any = world.env.bot
    audit = await bot.economy.audit(world.guild.id)
    assert audit.invariant_holds, audit.totals
    assert audit.mismatches == [], audit.mismatches
    async with bot.db.reading() as tx:
        totals = await mq.totals(tx, world.guild.id)
    assert totals.wallets + totals.escrow + totals.house == totals.minted


SAMPLE_GAME = [(3, 2), (3, 4), (5, 0), (0, 2), (1, 1), (2, 1), (3, 3), (1, 3)]
"""The rules' sample duel (tests/cogs/test_strength_duel_simcord.py): the second wins."""


async def play_duel(world: World, table_id: int, winner: int) -> None:
    """Play the sample duel at the table so that `winner` wins (by DM bids)."""
    bot: Any = world.env.bot
    seats = (await bot.tables.snapshot(table_id)).state.seats
    loser = next(seat for seat in seats if seat != winner)
    for loser_bid, winner_bid in SAMPLE_GAME:
        await bid(world, loser, loser_bid)
        await bid(world, winner, winner_bid)
    state = (await bot.tables.snapshot(table_id)).state
    assert state.finished and state.winner == winner


async def until_round(world: World, event: int, round: int | None = None) -> Any:
    """The event once it has reached `round` (or finished), as the scheduler advances it
    after a table ended outside any click (waits on that state, up to a few seconds)."""
    bot: Any = world.env.bot
    for _ in range(500):
        view = await bot.events.view(event)
        if view.row.status == "finished" or (round is not None and view.row.round >= round):
            return view
        await asyncio.sleep(0.01)
    raise AssertionError(f"event {event} never reached round {round}")
