"""Work that outlasts Discord's 3 s is deferred first, and the answer still arrives."""

from __future__ import annotations

import asyncio
from typing import Any

from tests.support.sim import answered, make_world


def callback_types(env: Any) -> list[int]:
    return [
        request.json["type"]
        for request in env.http_requests
        if request.method == "POST" and request.path.endswith("/callback")
    ]


async def test_a_slow_click_is_deferred_then_answered(simcord_env, dice):
    world = await make_world(simcord_env, "alice", "bob")
    alice, bob = world["alice"], world["bob"]
    table = answered(await alice.slash(world.channel, "coinflip open", stake=10)).response.message
    answered(await bob.click(table, label="Join"))
    answered(await alice.click(table, label="Start"))
    service = simcord_env.bot.tables
    real_act = service.act

    async def slow_act(*args: Any, **kwargs: Any) -> Any:
        await asyncio.sleep(2.5)  # a table lock held elsewhere, a busy database
        return await real_act(*args, **kwargs)

    service.act = slow_act
    dice.extend([1])
    before = len(callback_types(simcord_env))
    result = await alice.click(world.channel.last_message, label="Heads")
    assert result.acknowledged
    assert callback_types(simcord_env)[before:] == [6], "deferred as an update, once"
    assert (await service.snapshot(1)).state.finished
    # The deferred answer was completed by an edit of the table message.
    assert "Winner" in world.channel.last_message.embeds[0].description


async def test_a_fast_click_is_answered_directly(simcord_env, dice):
    world = await make_world(simcord_env, "alice", "bob")
    alice, bob = world["alice"], world["bob"]
    table = answered(await alice.slash(world.channel, "coinflip open", stake=10)).response.message
    answered(await bob.click(table, label="Join"))
    before = len(callback_types(simcord_env))
    answered(await alice.click(table, label="Start"))
    assert callback_types(simcord_env)[before:] == [7], "one message update, no deferral"
