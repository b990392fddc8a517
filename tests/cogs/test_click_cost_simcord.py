"""What a click costs the bot, counted (never timed): the Discord requests it makes and the
transactions it commits. Every request a click makes must earn its place (issue 36)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from bot.games.dice import ScriptedDice
from tests.cogs.test_fortunes_winds_simcord import BIRD, EAST, FIRE, NORTH, VOID
from tests.cogs.test_fortunes_winds_simcord import started as fortunes_started
from tests.support.sim import answered, make_world


@pytest.fixture
def simcord_bot(bot_factory: Any, dice: ScriptedDice) -> Any:
    return bot_factory(dice_factory=lambda row: dice, settings={"turn_notices": True})


@contextmanager
def counted(env: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, list[Any]]]:
    """The write transactions the bot opens, its reads outside them, and the requests it
    sends Discord meanwhile."""
    db = env.bot.db
    real, real_reading = db.transaction, db.reading
    seen: dict[str, list[Any]] = {"transactions": [], "reads": [], "requests": []}

    def transaction(*args: Any, **kwargs: Any) -> Any:
        seen["transactions"].append(args)
        return real(*args, **kwargs)

    def reading(*args: Any, **kwargs: Any) -> Any:
        seen["reads"].append(args)
        return real_reading(*args, **kwargs)

    monkeypatch.setattr(db, "transaction", transaction)
    monkeypatch.setattr(db, "reading", reading)
    before = len(env.http_requests)
    try:
        yield seen
    finally:
        monkeypatch.setattr(db, "transaction", real)
        monkeypatch.setattr(db, "reading", real_reading)
        seen["requests"].extend(env.http_requests[before:])


async def nihakyu_table(env: Any) -> Any:
    world = await make_world(env, "alice", "bob")
    opened = answered(await world["alice"].slash(world.channel, "nihakyu open", ante=10))
    table = opened.response.message
    answered(await world["bob"].click(table, label="Join"))
    answered(await world["alice"].click(table, label="Start"))
    return world, table


async def notices_of(env: Any) -> list[tuple[int, float]]:
    return [(n.user_id, n.due_at) for n in await env.bot.tables.turn_notices.rearm()]


async def fortunes_table(env: Any) -> tuple[Any, Any]:
    """Alice shoots alone, her shooter's bet down: the table waits for her Roll."""
    world = await fortunes_started(env, "alice")
    answered(await world["alice"].slash(world.channel, "fortunes bet", kind="shooter", amount=1))
    return world, await table_message(world)


async def table_message(world: Any) -> Any:
    message_id = (await world.env.bot.tables.snapshot(1)).row.message_id
    return next(m for m in world.channel.history() if m.id == message_id)


async def test_an_action_renews_its_turn_notice_in_its_own_transaction(
    simcord_env: Any, dice: ScriptedDice, monkeypatch: pytest.MonkeyPatch
) -> None:
    world, message = await fortunes_table(simcord_env)
    alice = world["alice"]
    [(member, due_at)] = await notices_of(simcord_env)
    assert member == alice.id
    await simcord_env.advance_time(5)
    dice.extend([NORTH, EAST, FIRE, BIRD, VOID])
    with counted(simcord_env, monkeypatch) as seen:
        answered(await alice.click(message, label="Roll"))
    # She acted: her wait starts again (the table still waits for her, to keep or roll).
    assert await notices_of(simcord_env) == [(alice.id, due_at + 5)]
    assert len(seen["transactions"]) == 1, "the action and its notice: one commit"


async def test_a_secret_roll_is_confirmed_privately_and_the_revealing_roll_is_not(
    simcord_env: Any, dice: ScriptedDice, monkeypatch: pytest.MonkeyPatch
) -> None:
    world, table = await nihakyu_table(simcord_env)
    alice, bob = world["alice"], world["bob"]
    with counted(simcord_env, monkeypatch) as first:
        chose = answered(await alice.click(table, label="Roll"))
    assert [m.ephemeral for m in chose.followups] == [True], "you chose Roll: only you see"
    # The answer (the table message's edit) and the private word: two requests.
    assert len(first["requests"]) == 2, [r.path for r in first["requests"]]
    dice.extend([3, 5])
    with counted(simcord_env, monkeypatch) as second:
        revealed = answered(await bob.click(table, label="Roll"))
    # Bob's Roll resolved the round: the table message shows it, and a word saying he may
    # still change his choice would be wrong. The answer alone.
    assert revealed.followups == []
    assert len(second["requests"]) == 1, [r.path for r in second["requests"]]
    state = (await simcord_env.bot.tables.snapshot(1)).state
    assert state.round == 2


async def test_roll_with_best_keep_saves_the_keep_and_the_roll_in_one_transaction(
    simcord_env: Any, dice: ScriptedDice, monkeypatch: pytest.MonkeyPatch
) -> None:
    world, message = await fortunes_table(simcord_env)
    alice = world["alice"]
    dice.extend([NORTH, EAST, FIRE, BIRD, VOID])
    answered(await alice.click(message, label="Roll"))
    before = (await simcord_env.bot.tables.snapshot(1)).state
    assert before.phase == "rolling" and before.roll_number == 1, "a turn to keep from"
    dice.extend([NORTH] * 5)
    message = await table_message(world)
    with counted(simcord_env, monkeypatch) as seen:
        answered(await alice.click(message, label="Roll with best keep"))
    after = (await simcord_env.bot.tables.snapshot(1)).state
    assert after.roll_number == 2 or after.phase != "rolling", "it rolled"
    assert len(seen["transactions"]) == 1, "set aside and roll: one commit"
    assert seen["reads"] == [], "the keep is worked out in the action's transaction"
