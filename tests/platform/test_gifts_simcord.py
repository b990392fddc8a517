"""The farm of issue 33, through Discord: five fresh accounts each give a main account
their welcome coins and their daily (5,500 freshly minted coins at once). Now every gift is
refused, saying how much can be given now and why; /wallet says what is held and until
when; once the hold has run out, the server's cap lets a wallet's worth a day through."""

from __future__ import annotations

from tests.support.sim import answered, make_world, refusal

SPARES = ("spare1", "spare2", "spare3", "spare4", "spare5")


async def wallet_of(world, member) -> int:
    return (await world.env.bot.economy.balance(world.guild.id, member.id)).balance


async def test_five_fresh_accounts_cannot_funnel_their_free_coins_to_a_main(simcord_env):
    world = await make_world(simcord_env, "main", *SPARES)
    main = world["main"]
    answered(await main.slash(world.channel, "wallet"))
    opened = int(simcord_env.now().timestamp())
    for name in SPARES:
        spare = world[name]
        answered(await spare.slash(world.channel, "daily"))  # welcome coins, then a daily
        text = refusal(await spare.slash(world.channel, "give", member=main, amount=1_100))
        assert text.startswith(f"You can give {main.mention} at most 0 ryō now")
        assert "1,100 ryō of your wallet came free (welcome coins and /daily)" in text
        assert f"all of yours from <t:{opened + 7 * 86_400}:f>" in text
        assert f"{main.mention} can receive 1,000 ryō more in gifts today" in text
    assert await wallet_of(world, main) == 1_000, "not one coin funnelled"
    shown = answered(await world["spare1"].slash(world.channel, "wallet"), ephemeral=True)
    assert (
        "Of it, **1,100 ryō** came free (welcome coins and /daily) and can be given away only "
        "after a while: you can give **0 ryō** now, all of it from "
        f"<t:{opened + 7 * 86_400}:f>"
    ) in shown.response.content

    # A week on, the coins are free to give, and the cap lets a wallet's worth a day in.
    await simcord_env.advance_time(7 * 86_400 + 1)
    answered(
        await world["spare1"].slash(world.channel, "give", member=main, amount=700),
        ephemeral=False,
    )
    text = refusal(await world["spare2"].slash(world.channel, "give", member=main, amount=700))
    assert text.startswith(f"You can give {main.mention} at most 300 ryō now")
    assert "they can receive only 300 ryō more in gifts today" in text
    answered(
        await world["spare2"].slash(world.channel, "give", member=main, amount=300),
        ephemeral=False,
    )
    assert await wallet_of(world, main) == 2_000
    told = answered(await main.slash(world.channel, "wallet"), ephemeral=True).response.content
    assert "You received 1,000 ryō in gifts today and can receive 0 ryō more" in told


async def test_a_moderator_can_let_old_accounts_give_at_once(simcord_env):
    world = await make_world(simcord_env, "old", "friend")
    old, friend, mod = world["old"], world["friend"], world.moderator
    answered(await mod.slash(world.channel, "config economy", gift_account_days=30))
    answered(await friend.slash(world.channel, "wallet"))
    # A month later "old" joins the server: the account is older than 30 days, its welcome
    # coins go at once; an account made today would wait.
    await simcord_env.advance_time(31 * 86_400)
    answered(await old.slash(world.channel, "wallet"))
    answered(await old.slash(world.channel, "give", member=friend, amount=500), ephemeral=False)
    new = world.guild.add_member(simcord_env.create_user("new"))
    answered(await new.slash(world.channel, "wallet"))
    assert "at most 0 ryō now" in refusal(
        await new.slash(world.channel, "give", member=friend, amount=1)
    )
