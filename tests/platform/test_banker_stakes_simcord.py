"""Banking is staking: at a Fortunes and Winds table with a player banker, a member who
excluded themself or whose daily loss limit leaves no room does not bank (the richest
member who may does), no coin of theirs moves to escrow, and the banker's escrow growing
as bets arrive is a stake of theirs judged like any other (issue 24)."""

from __future__ import annotations

from typing import Any

from tests.support.sim import answered, make_world, refusal

BANKER_OPTIONS: dict[str, Any] = {"banker": "player", "max_stake": 500}


async def wallet_of(world: Any, member: Any) -> int:
    return (await world.env.bot.economy.balance(world.guild.id, member.id)).balance


async def grant(world: Any, member: Any, amount: int) -> None:
    await world.env.bot.economy.grant(world.guild.id, member.id, amount, "test")


async def exclude(world: Any, member: Any, days: int) -> None:
    asked = answered(await member.slash(world.channel, "selfexclude", days=days), ephemeral=True)
    answered(await member.click(asked.response, label=f"Exclude me for {days:,} days"))


async def limit(world: Any, member: Any, amount: int) -> None:
    answered(
        await world.moderator.slash(
            world.channel, "economy loss-limit set", amount=amount, member=member
        ),
        ephemeral=True,
    )


async def open_and_seat(world: Any, host: Any, *others: Any) -> Any:
    """A player-banker lobby opened by `host`, the others seated; its message."""
    opened = answered(await host.slash(world.channel, "fortunes open", **BANKER_OPTIONS))
    table = opened.response.message
    for member in others:
        answered(await member.click(table, label="Join"))
    return table


async def state(world: Any) -> Any:
    return (await world.env.bot.tables.snapshot(1)).state


async def bet(world: Any, member: Any, kind: str, amount: int) -> Any:
    return await member.slash(world.channel, "fortunes bet", kind=kind, amount=amount)


async def ledger_rows_of(world: Any, member: Any) -> int:
    """Table moves that touched the member's wallet (none may, for a member barred)."""
    account = f"wallet:{member.id}"
    async with world.env.bot.db.reading() as tx:
        row = await tx.fetchone(
            "SELECT COUNT(*) FROM ledger WHERE kind = 'table' AND (source = ? OR target = ?)",
            (account, account),
        )
    return int(row[0])


async def test_a_self_excluded_member_with_a_zero_limit_and_the_biggest_wallet_does_not_bank(
    simcord_env,
):
    # The exact attack: alice holds the most, excluded herself and has a loss limit of 0.
    world = await make_world(simcord_env, "bob", "alice", "carol")
    bob, alice, carol = world["bob"], world["alice"], world["carol"]
    await grant(world, alice, 1000)
    await grant(world, carol, 500)
    table = await open_and_seat(world, bob, alice, carol)
    await exclude(world, alice, 7)
    await limit(world, alice, 0)
    before = await wallet_of(world, alice)

    answered(await bob.click(table, label="Start"))
    s = await state(world)
    assert s.banker == carol.id, "the richest member who may stake banks"
    assert s.banker != alice.id
    answered(await bet(world, bob, "shooter", 100))  # up to 800 on the banker
    assert (await state(world)).stakes[carol.id] == 800
    assert await wallet_of(world, carol) == 1500 - 800
    assert await wallet_of(world, alice) == before == 2000
    assert await ledger_rows_of(world, alice) == 0, "no coin of hers moved toward the table"


async def test_a_member_whose_loss_limit_leaves_no_room_does_not_bank(simcord_env):
    world = await make_world(simcord_env, "bob", "alice")
    bob, alice = world["bob"], world["alice"]
    await grant(world, alice, 1000)
    table = await open_and_seat(world, bob, alice)
    await limit(world, alice, 0)

    answered(await bob.click(table, label="Start"))
    s = await state(world)
    assert s.banker == bob.id and s.shooter == alice.id
    assert "loss limit of 0" in refusal(await bet(world, alice, "shooter", 5))
    assert await ledger_rows_of(world, alice) == 0, "no coin of hers moved toward the table"


async def test_no_seated_member_may_bank_so_the_table_does_not_start(simcord_env):
    world = await make_world(simcord_env, "bob", "alice")
    bob, alice = world["bob"], world["alice"]
    table = await open_and_seat(world, bob, alice)
    await exclude(world, alice, 7)
    await limit(world, bob, 0)
    wallets = (await wallet_of(world, bob), await wallet_of(world, alice))

    text = refusal(await bob.click(table, label="Start"))
    assert "bank" in text and "Nothing was changed" in text
    # Another member's self-exclusion is theirs to keep private: the refusal names nobody.
    assert f"<@{alice.id}>" not in text and "alice" not in text.lower()
    assert "exclu" not in text.lower()
    snapshot = await simcord_env.bot.tables.snapshot(1)
    assert snapshot.row.status == "lobby" and snapshot.state is None
    assert (await wallet_of(world, bob), await wallet_of(world, alice)) == wallets


async def test_the_bankers_growing_escrow_is_judged_against_their_loss_limit(simcord_env):
    world = await make_world(simcord_env, "bank", "alice")
    bank, alice = world["bank"], world["alice"]
    await grant(world, bank, 1000)
    table = await open_and_seat(world, bank, alice)
    await limit(world, bank, 500)
    answered(await bank.click(table, label="Start"))
    assert (await state(world)).banker == bank.id

    # 100 on the shooter could cost the banker 800: more than their limit lets them stake.
    text = refusal(await bet(world, alice, "shooter", 100))
    assert "banker" in text and "cannot cover" in text
    assert "limit" not in text, "the banker's loss limit is theirs, not the bettor's to read"
    assert (await state(world)).bets == {}
    assert (await wallet_of(world, bank), await wallet_of(world, alice)) == (2000, 1000)
    answered(await bet(world, alice, "shooter", 60))  # 480 at most: inside the limit
    assert (await state(world)).stakes[bank.id] == 480


async def test_a_banker_who_excludes_themself_mid_game_covers_no_more_bets(simcord_env):
    world = await make_world(simcord_env, "bank", "alice", "bob")
    bank, alice, bob = world["bank"], world["alice"], world["bob"]
    await grant(world, bank, 1000)
    table = await open_and_seat(world, bank, alice, bob)
    answered(await bank.click(table, label="Start"))
    answered(await bet(world, alice, "shooter", 10))
    covering = await wallet_of(world, bank)
    await exclude(world, bank, 3)

    text = refusal(await bet(world, bob, "ride", 10))
    assert "banker" in text and "cannot cover" in text and "exclu" not in text.lower()
    assert await wallet_of(world, bank) == covering
    assert (await state(world)).bets == {alice.id: {"shooter": 10}}


async def test_a_computer_never_banks_in_a_barred_members_place(simcord_env):
    world = await make_world(simcord_env, "bob")
    bob = world["bob"]
    opened = answered(await bob.slash(world.channel, "fortunes open", **BANKER_OPTIONS))
    answered(await bob.click(opened.response.message, label="Add computer"))
    await limit(world, bob, 0)
    house = (await simcord_env.bot.economy.settings(world.guild.id)).house_balance

    text = refusal(await bob.click(world.channel.last_message, label="Start"))
    assert "Nobody seated here can bank" in text and "Nothing was changed" in text
    snapshot = await simcord_env.bot.tables.snapshot(1)
    assert snapshot.row.status == "lobby" and snapshot.state is None
    assert (await simcord_env.bot.economy.settings(world.guild.id)).house_balance == house
