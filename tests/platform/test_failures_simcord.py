"""Telling the truth after a failure, and repairing what Discord did not take."""

from __future__ import annotations

import asyncio
import logging

import pytest

from cogs._ui.errors import DAILY_WENT_THROUGH, GIFT_WENT_THROUGH
from cogs._ui.primitives import APOLOGY, SAVED_BUT_NOT_SHOWN
from tests.support.gifts import world_gifts_unheld
from tests.support.sim import answered, make_world, message_text, refusal, visible_to


async def balance(world, member) -> int:
    return (await world.env.bot.economy.balance(world.guild.id, member.id)).balance


async def running_table(world, *, stake: int = 10):
    alice, bob = world["alice"], world["bob"]
    opened = answered(await alice.slash(world.channel, "coinflip open", stake=stake))
    table = opened.response.message
    answered(await bob.click(table, label="Join"))
    answered(await alice.click(table, label="Start"))
    return table


def everything_said(world, member) -> str:
    return "\n".join(message_text(message) for message in visible_to(world, member))


async def test_a_failed_click_answer_says_saved_and_the_message_is_repaired(simcord_env, dice):
    world = await make_world(simcord_env, "alice", "bob")
    table = await running_table(world)
    dice.extend([2])  # tails: alice's call of heads misses, the turn passes to bob
    simcord_env.inject_error("POST", "/interactions/*/callback", status=500, times=1)
    await world["alice"].click(table, label="Heads")
    snapshot = await simcord_env.bot.tables.snapshot(1)
    assert snapshot.ply == 1, "the action was saved"
    await simcord_env.advance_time(10)
    # The message caught up with the saved action by an ordinary edit.
    assert f"<@{world['bob'].user.id}>" in world.channel.last_message.embeds[0].description
    assert APOLOGY not in everything_said(world, world["alice"])


async def test_an_edit_that_fails_with_5xx_is_retried(simcord_env):
    world = await make_world(simcord_env, "alice", "bob")
    alice, bob = world["alice"], world["bob"]
    opened = answered(await alice.slash(world.channel, "coinflip open", stake=10))
    answered(await bob.click(opened.response.message, label="Join"))
    simcord_env.inject_error("PATCH", "/channels/*/messages/*", status=503, times=2)
    # A slash command changes the table: its message is refreshed by an edit, not a reply.
    answered(await world.moderator.slash(world.channel, "cancel", table=1), ephemeral=True)
    await simcord_env.advance_time(30)
    await asyncio.gather(*simcord_env.bot.background_tasks)
    patches = [r for r in simcord_env.http_requests if r.method == "PATCH"]
    assert len(patches) == 3, "two failures, then the edit that went through"
    assert "closed" in world.channel.last_message.embeds[0].title
    assert await balance(world, alice) == 1000
    assert await balance(world, bob) == 1000


async def test_a_deleted_table_message_is_posted_again(simcord_env, dice):
    world = await make_world(simcord_env, "alice", "bob")
    table = await running_table(world)
    old_id = (await simcord_env.bot.tables.snapshot(1)).row.message_id
    simcord_env.inject_error(
        "PATCH", "/channels/*/messages/*", status=404, code=10008, message="Unknown Message"
    )
    simcord_env.bot.table_hub.sync.schedule_refresh(1, force=True)
    await asyncio.gather(*simcord_env.bot.background_tasks)
    new_id = (await simcord_env.bot.tables.snapshot(1)).row.message_id
    assert new_id != old_id
    reposted = world.channel.last_message
    assert reposted.id == new_id
    assert [c.label for c in reposted.components[0].children][:2] == ["Heads", "Tails"]
    del table


async def test_a_stale_click_refreshes_a_message_that_fell_behind(simcord_env, dice):
    world = await make_world(simcord_env, "alice", "bob")
    alice, bob = world["alice"], world["bob"]
    table = await running_table(world)
    # Every edit of the table message fails for a while: a deadline moves the table on
    # (ply 1), but the message keeps showing ply 0's buttons.
    simcord_env.inject_error("PATCH", "/channels/*/messages/*", status=500, times=4)
    dice.extend([2])
    snapshot = await simcord_env.bot.tables.snapshot(1)
    assert snapshot.deadline is not None
    await simcord_env.advance_time(31)  # one 30 s turn
    assert (await simcord_env.bot.tables.snapshot(1)).ply == 1
    behind = world.channel.last_message
    # Bob's click on the outdated buttons is refused — and brings the message up to date.
    assert "moment has passed" in refusal(await bob.click(behind, label="Heads"))
    dice.extend([1])
    answered(await bob.click(world.channel.last_message, label="Heads"))
    final = await simcord_env.bot.tables.snapshot(1)
    assert final.state.finished and final.state.winner == bob.user.id
    del alice, table


async def test_a_table_whose_message_cannot_be_posted_is_withdrawn(simcord_env):
    world = await make_world(simcord_env, "alice")
    alice = world["alice"]
    answered(await alice.slash(world.channel, "wallet"))
    simcord_env.inject_error("POST", "/interactions/*/callback", status=500, times=1)
    await alice.slash(world.channel, "coinflip open", stake=40)
    snapshot = await simcord_env.bot.tables.snapshot(1)
    assert snapshot.status == "cancelled"
    assert await balance(world, alice) == 1000, "the stake came back"
    # The channel is free for the next table.
    answered(await alice.slash(world.channel, "coinflip open", stake=40))


async def test_the_lobby_rules_button_answers_privately(simcord_env):
    world = await make_world(simcord_env, "alice", "bob")
    opened = answered(await world["alice"].slash(world.channel, "nihakyu open", ante=10))
    table = opened.response.message
    before = message_text(world.channel.last_message)
    result = answered(await world["bob"].click(table, label="Rules"), ephemeral=True)
    page = result.response.embeds[0] if result.response else result.followups[0].embeds[0]
    assert "Nihakyu" in page.title
    assert message_text(world.channel.last_message) == before, "the table is untouched"


async def test_rules_lists_only_games_this_bot_runs(simcord_env):
    world = await make_world(simcord_env, "alice")
    alice = world["alice"]
    shown = answered(await alice.slash(world.channel, "rules", game="hazard"), ephemeral=True)
    assert "Hazard" in shown.response.embeds[0].title
    text = refusal(await alice.slash(world.channel, "rules", game="koi-koi"))
    assert "no game called" in text and "Hazard" in text and "Nuki Hachi-hachi" in text


async def test_one_member_hosts_at_most_three_lobbies(simcord_env):
    world = await make_world(simcord_env, "alice")
    alice = world["alice"]
    channels = [world.guild.create_text_channel(f"room-{n}") for n in range(4)]
    for channel in channels[:3]:
        answered(await alice.slash(channel, "coinflip open", stake=10))
    text = refusal(await alice.slash(channels[3], "coinflip open", stake=10))
    assert "already host 3 open lobbies (#1, #2, #3)" in text
    assert await balance(world, alice) == 970
    answered(await alice.slash(world.channel, "cancel", table=2))
    answered(await alice.slash(channels[3], "coinflip open", stake=10))


@pytest.mark.parametrize("level", [logging.DEBUG])
async def test_a_failing_click_logs_no_argument(simcord_env, caplog, level):
    """A click whose handling fails is logged by table and verb only."""
    world = await make_world(simcord_env, "alice", "bob")
    table = await running_table(world)
    caplog.set_level(level)

    def explode(*args, **kwargs):
        raise ValueError(f"secret-argument-{7000 + 731}")  # data, not this line's source

    simcord_env.bot.table_hub.ui("coinflip").action_for = explode
    result = await world["alice"].click(table, label="Heads")
    assert APOLOGY in refusal(result)
    assert "secret-argument-7731" not in caplog.text
    assert "'call' click at table 1 failed" in caplog.text
    assert "ValueError (message withheld)" in caplog.text


async def test_a_failure_after_saving_says_the_action_stands(simcord_env, dice):
    world = await make_world(simcord_env, "alice", "bob")
    table = await running_table(world)

    async def broken_after(outcome, interaction):
        raise RuntimeError("the private follow-up failed")

    simcord_env.bot.table_hub.ui("coinflip").after = broken_after
    dice.extend([2])
    result = await world["alice"].click(table, label="Heads")
    assert SAVED_BUT_NOT_SHOWN in refusal(result)
    assert APOLOGY not in refusal(result)
    assert (await simcord_env.bot.tables.snapshot(1)).ply == 1, "the action stands"


async def test_a_gift_whose_answer_discord_refuses_once_says_it_went_through(simcord_env):
    world = await make_world(simcord_env, "alice", "bob")
    await world_gifts_unheld(world)
    alice, bob = world["alice"], world["bob"]
    answered(await bob.slash(world.channel, "wallet"))
    answered(await alice.slash(world.channel, "wallet"))
    simcord_env.inject_error("POST", "/interactions/*/callback", status=500, times=1)
    result = answered(await alice.slash(world.channel, "give", member=bob, amount=50))
    said = everything_said(world, alice) + refusal(result)
    assert GIFT_WENT_THROUGH in said
    assert "nothing was changed" not in said.lower()
    assert await balance(world, alice) == 950, "the coins moved once"
    assert await balance(world, bob) == 1050


async def test_a_daily_claim_whose_answer_discord_refuses_once_says_it_was_paid(simcord_env):
    world = await make_world(simcord_env, "alice")
    alice = world["alice"]
    answered(await alice.slash(world.channel, "wallet"))
    simcord_env.inject_error("POST", "/interactions/*/callback", status=500, times=1)
    result = answered(await alice.slash(world.channel, "daily"))
    assert DAILY_WENT_THROUGH in refusal(result)
    paid = await balance(world, alice)
    assert paid > 1000
    # Following the advice would be refused (claimed already), not paid twice.
    answered(await alice.slash(world.channel, "daily"))
    assert await balance(world, alice) == paid
