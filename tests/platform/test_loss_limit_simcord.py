"""Daily loss limits: a moderator sets one for the server or for a member; a stake that
would take a member's losses at the tables today (from midnight UTC) past it is refused,
and the day after it is not."""

from __future__ import annotations

from tests.support.gifts import world_gifts_unheld
from tests.support.sim import answered, make_world, refusal


async def wallet_of(world, member) -> int:
    return (await world.env.bot.economy.balance(world.guild.id, member.id)).balance


async def open_in(world, host, name: str):
    channel = world.guild.create_text_channel(name)
    result = await host.slash(channel, "coinflip open", stake=10)
    return channel, result


async def test_a_server_limit_refuses_the_stake_past_it_until_midnight(simcord_env):
    world = await make_world(simcord_env, "alice", "bob")
    alice, bob, mod = world["alice"], world["bob"], world.moderator
    answered(await mod.slash(world.channel, "economy loss-limit set", amount=25), ephemeral=True)

    channel, opened = await open_in(world, alice, "first")
    table = answered(opened, ephemeral=False).response.message
    answered(await bob.click(table, label="Join"))
    answered(await alice.click(table, label="Start"))
    for _ in range(3):  # 10 at the seat, then 5, 5, 5: exactly the limit
        answered(await alice.click(channel.last_message, label="Raise 5"), ephemeral=False)
    before = await wallet_of(world, alice)
    text = refusal(await alice.click(channel.last_message, label="Raise 5"))
    assert "would take your losses today to 30 ryō" in text
    assert "daily loss limit of 25 ryō" in text
    assert await wallet_of(world, alice) == before
    _, second = await open_in(world, alice, "second")
    assert "past this server's daily loss limit" in refusal(second)
    shown = answered(await alice.slash(world.channel, "wallet"), ephemeral=True)
    assert (
        "Daily loss limit: 25 ryō; lost at the tables or given away today: 25 ryō"
        in shown.response.content
    )
    # Bob staked 10: he is well inside the same limit.
    answered(await bob.click(channel.last_message, label="Raise 5"), ephemeral=False)

    now = simcord_env.now().timestamp()
    await simcord_env.advance_time(86_400 - now % 86_400 + 1)
    _, next_day = await open_in(world, alice, "next-day")
    answered(next_day, ephemeral=False)
    # Whatever the deadlines did overnight, today counts only today's stake.
    today = answered(await alice.slash(world.channel, "wallet"), ephemeral=True)
    assert "lost at the tables or given away today: 10 ryō" in today.response.content


async def test_a_members_own_limit_replaces_the_servers(simcord_env):
    world = await make_world(simcord_env, "alice", "bob")
    alice, bob, mod = world["alice"], world["bob"], world.moderator
    answered(await mod.slash(world.channel, "economy loss-limit set", amount=100))
    set_alice = await mod.slash(world.channel, "economy loss-limit set", amount=10, member=alice)
    assert "replaces the server's limit" in answered(set_alice).response.content

    answered((await open_in(world, alice, "a1"))[1], ephemeral=False)
    assert "loss limit of 10 ryō" in refusal((await open_in(world, alice, "a2"))[1])
    answered((await open_in(world, bob, "b1"))[1], ephemeral=False)
    answered((await open_in(world, bob, "b2"))[1], ephemeral=False)

    cleared = await mod.slash(world.channel, "economy loss-limit clear", member=alice)
    assert "removed" in answered(cleared).response.content
    answered((await open_in(world, alice, "a3"))[1], ephemeral=False)  # the server's 100 now
    again = await mod.slash(world.channel, "economy loss-limit clear", member=alice)
    assert "was not set: nothing changed" in answered(again).response.content


async def test_only_a_moderator_sets_a_limit(simcord_env):
    world = await make_world(simcord_env, "alice")
    alice = world["alice"]
    synced = await simcord_env.bot.tree.fetch_commands()
    economy = next(command for command in synced if command.name == "economy")
    world.guild.set_command_permissions(economy, {alice: True})
    text = refusal(await alice.slash(world.channel, "economy loss-limit set", amount=0))
    assert "Manage Server" in text
    answered((await open_in(world, alice, "free"))[1], ephemeral=False)


async def test_the_bars_on_a_stake_are_read_in_one_statement_on_both_backends(database_url):
    from bot.storage import money as mq
    from bot.storage import open_database

    db = await open_database(database_url)
    try:
        async with db.transaction() as tx:
            assert await mq.stake_bars(tx, 1, 5) == (None, None)
            await mq.set_loss_limit(tx, 1, mq.SERVER_WIDE, 300)
            assert await mq.stake_bars(tx, 1, 5) == (None, 300), "the server's limit"
            await mq.set_loss_limit(tx, 1, 5, 40)
            await mq.set_exclusion(tx, 1, 5, 1234.5, 1000.0)
            assert await mq.stake_bars(tx, 1, 5) == (1234.5, 40), "her own limit first"
            assert await mq.stake_bars(tx, 1, 6) == (None, 300)
            assert await mq.stake_bars(tx, 2, 5) == (None, None), "another server's are not hers"
            assert await mq.clear_loss_limit(tx, 1, 5)
            assert await mq.stake_bars(tx, 1, 5) == (1234.5, 300)
    finally:
        await db.close()


async def test_a_gift_spends_the_givers_limit_as_a_stake_does(simcord_env):
    # A gift is the way round a limit (to a friend, or an account of one's own, who stakes
    # it): what a member gives today counts as lost, and a gift to them adds no room.
    world = await make_world(simcord_env, "alice", "bob")
    await world_gifts_unheld(world)
    alice, bob, mod = world["alice"], world["bob"], world.moderator
    answered(await bob.slash(world.channel, "wallet"))
    set_alice = await mod.slash(world.channel, "economy loss-limit set", amount=50, member=alice)
    answered(set_alice)
    before = (await wallet_of(world, alice), await wallet_of(world, bob))

    text = refusal(await alice.slash(world.channel, "give", member=bob, amount=60))
    assert "gift of 60 ryō would take your losses today to 60 ryō" in text
    assert "daily loss limit of 50 ryō" in text
    assert (await wallet_of(world, alice), await wallet_of(world, bob)) == before
    answered(await alice.slash(world.channel, "give", member=bob, amount=45), ephemeral=False)
    answered(await bob.slash(world.channel, "give", member=alice, amount=500), ephemeral=False)
    assert "would take your losses today to 55 ryō" in refusal(
        (await open_in(world, alice, "after-the-gift"))[1]
    )
    shown = answered(await alice.slash(world.channel, "wallet"), ephemeral=True)
    assert "lost at the tables or given away today: 45 ryō" in shown.response.content


async def test_gifts_given_are_counted_by_giver_day_and_server_on_both_backends(database_url):
    from bot.storage import money as mq
    from bot.storage import open_database

    db = await open_database(database_url)

    async def gift(guild: int, source: str, target: str, amount: int, at: float) -> None:
        await mq.insert_ledger(
            tx,
            guild_id=guild,
            at=at,
            kind="give",
            source=source,
            target=target,
            amount=amount,
            table_id=None,
            action_seq=None,
            memo="",
        )

    try:
        async with db.transaction() as tx:
            await gift(1, "wallet:5", "wallet:6", 30, 1000.0)
            await gift(1, "wallet:5", "wallet:6", 7, 999.0)  # before the moment asked
            await gift(1, "wallet:6", "wallet:5", 500, 1001.0)  # received: no room
            await gift(2, "wallet:5", "wallet:6", 40, 1002.0)  # another server
            assert await mq.gifts_given_since(tx, 1, "wallet:5", 1000.0) == 30
            assert await mq.gifts_given_since(tx, 1, "wallet:6", 1000.0) == 500
            assert await mq.gifts_given_since(tx, 3, "wallet:5", 0.0) == 0
    finally:
        await db.close()


async def test_a_stake_returned_after_midnight_counts_on_the_day_it_was_staked(simcord_env):
    # Staked at 23:55 and returned at 00:05: it was lost on the day it was staked until it
    # came back, and coming back on the new day makes no room there.
    world = await make_world(simcord_env, "alice")
    alice, mod = world["alice"], world.moderator
    answered(await mod.slash(world.channel, "economy loss-limit set", amount=100))
    now = simcord_env.now().timestamp()
    await simcord_env.advance_time(86_400 - now % 86_400 - 300)  # 23:55 UTC

    channel = world.guild.create_text_channel("late")
    lobby = answered(await alice.slash(channel, "coinflip open", stake=100), ephemeral=False)
    await simcord_env.advance_time(600)  # 00:05 UTC: the lobby's 15 minutes are not up
    assert simcord_env.now().timestamp() % 86_400 == 300
    answered(await alice.click(lobby.response.message, label="Cancel"))
    assert await wallet_of(world, alice) == 1_000, "the stake came back"

    today = answered(await alice.slash(world.channel, "wallet"), ephemeral=True)
    assert "lost at the tables or given away today: 0 ryō" in today.response.content
    text = refusal(await alice.slash(world.guild.create_text_channel("too-much"),
                                     "coinflip open", stake=150))  # fmt: skip
    assert "would take your losses today to 150 ryō" in text
    answered(await alice.slash(world.guild.create_text_channel("enough"), "coinflip open",
                               stake=100), ephemeral=False)  # fmt: skip


def test_a_table_pays_back_the_oldest_coins_on_it_first() -> None:
    from bot.economy import lost_at_tables

    midnight = 86_400.0
    before, after = midnight - 60, midnight + 60
    # Staked yesterday, paid back today: nothing today, either way round.
    assert lost_at_tables([(1, before, 100), (1, after, -100)], midnight) == 0
    # Staked today and still on the table: lost today.
    assert lost_at_tables([(1, after, 40)], midnight) == 40
    # Yesterday's 100 and today's 30 on one table; 100 back repays yesterday's first.
    assert lost_at_tables([(1, before, 100), (1, after, 30), (1, after, -100)], midnight) == 30
    # Paid beyond every coin put on the table: winnings, room on the day they are paid.
    assert lost_at_tables([(1, before, 100), (1, after, -250)], midnight) == -150
    assert lost_at_tables([(1, after, 50), (1, after, -80), (2, after, 70)], midnight) == 40
    # Each table repays only its own stakes.
    assert lost_at_tables([(1, before, 100), (2, after, 60), (2, after, -60)], midnight) == 0


async def test_table_flows_reach_back_to_the_first_stake_on_both_backends(database_url):
    from bot.storage import money as mq
    from bot.storage import open_database

    db = await open_database(database_url)

    async def move(table: int, source: str, target: str, amount: int, at: float) -> None:
        await mq.insert_ledger(
            tx,
            guild_id=1,
            at=at,
            kind="table",
            source=source,
            target=target,
            amount=amount,
            table_id=table,
            action_seq=None,
            memo="",
        )

    try:
        async with db.transaction() as tx:
            await move(7, "wallet:5", "escrow:7", 100, 900.0)  # staked before the moment
            await move(8, "wallet:5", "escrow:8", 20, 950.0)  # a table untouched since
            await move(7, "escrow:7", "wallet:5", 100, 1000.0)  # paid back after it
            await move(9, "wallet:6", "escrow:9", 30, 1001.0)  # someone else's
            assert await mq.table_flows(tx, 1, "wallet:5", 1000.0) == [
                (7, 900.0, 100),
                (7, 1000.0, -100),
            ]
            assert await mq.table_flows(tx, 1, "wallet:6", 1000.0) == [(9, 1001.0, 30)]
            assert await mq.table_flows(tx, 2, "wallet:5", 0.0) == []
    finally:
        await db.close()
