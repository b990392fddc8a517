"""Issue 13's groundwork, "lean": the gateway asked only for the intents the bot uses,
ended tables leave nothing behind in memory, and guild settings are read once.

Through SimCord where the behaviour is Discord-facing (it drops every gateway event the
bot did not ask for, as Discord does); on a real SQLite file where it is the economy's.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import discord
import pytest

from bot.app import gateway_intents
from bot.economy import Economy, GuildTerms
from bot.storage import Database
from bot.storage import money as mq
from tests.support.sim import World, answered, make_world, refusal

GUILD = 7

# -- intents ---------------------------------------------------------------------------------


def test_the_bot_asks_the_gateway_for_the_guilds_intent_only(bot_factory: Any) -> None:
    bot = bot_factory()
    assert bot.intents == gateway_intents() == discord.Intents(guilds=True)
    asked = {name for name, on in bot.intents if on}
    assert asked == {"guilds"}, "no message, DM, member, reaction or typing events"


def count_parsed(env: Any, events: tuple[str, ...]) -> dict[str, int]:
    """Counts every gateway event of these kinds that reaches the bot's own parsers."""
    parsers = env.bot._connection.parsers
    counts = dict.fromkeys(events, 0)
    for event in events:
        original = parsers[event]

        def counting(data: Any, event: str = event, original: Any = original) -> None:
            counts[event] += 1
            original(data)

        parsers[event] = counting
    return counts


async def test_a_game_by_clicks_and_dms_decodes_no_message_event(simcord_env: Any) -> None:
    """Every edit and message the bot makes would come back as a message event under the
    default intents; now the gateway does not send them, and nothing needs them: a
    Strength Duel played to its end by DM bids, commands naming a member, /stats."""
    world = await make_world(simcord_env, "alice", "bob")
    alice, bob = world["alice"], world["bob"]
    messages = ("MESSAGE_CREATE", "MESSAGE_UPDATE", "MESSAGE_DELETE")
    parsed = count_parsed(simcord_env, messages)
    await play_duel(world, world.channel)
    assert (await simcord_env.bot.tables.snapshot(1)).state.finished
    answered(await alice.slash(world.channel, "stats", member=bob), ephemeral=True)
    answered(await alice.slash(world.channel, "wallet", member=bob))
    assert parsed == dict.fromkeys(messages, 0)
    dropped = [
        name
        for kind, name, _ in simcord_env.backend.transcript
        if kind == "DROPPED" and name in messages
    ]
    assert "MESSAGE_UPDATE" in dropped and "MESSAGE_CREATE" in dropped, (
        "the gateway had message events to send, and they were not asked for"
    )


async def test_a_moderator_is_known_without_the_guild_in_the_cache(simcord_env: Any) -> None:
    """Manage Server comes from the permissions Discord puts in the interaction, not from
    roles cached through the guilds intent (absent while a guild is unavailable)."""
    world = await make_world(simcord_env, "alice", "bob")
    alice, bob = world["alice"], world["bob"]
    table = await open_coinflip(world, world.channel)
    answered(await bob.click(table, label="Join"))
    answered(await alice.click(table, label="Start"))
    simcord_env.bot._connection._guilds.pop(world.guild.id)
    assert "only a moderator" in refusal(await alice.slash(world.channel, "cancel", table=1))
    answered(await world.moderator.slash(world.channel, "cancel", table=1), ephemeral=True)
    assert (await simcord_env.bot.tables.snapshot(1)).status == "cancelled"


async def open_coinflip(world: World, channel: Any, host: str = "alice") -> Any:
    result = answered(await world[host].slash(channel, "coinflip open", stake=10))
    return result.response.message


SAMPLE_DUEL = [(3, 2), (3, 4), (5, 0), (0, 2), (1, 1), (2, 1), (3, 3), (1, 3)]


async def play_duel(world: World, channel: Any) -> None:
    alice, bob = world["alice"], world["bob"]
    challenge = answered(await alice.slash(channel, "duel challenge", member=bob, stake=10))
    answered(await bob.click(challenge.response.message, label="Accept"))
    for a_bid, b_bid in SAMPLE_DUEL:
        for member, bid in ((alice, a_bid), (bob, b_bid)):
            panel = member.user.dm_channel.last_message
            answered(await member.user.click(panel, label=str(bid)))


# -- guild settings cached -----------------------------------------------------------------


@pytest.fixture
async def economy(tmp_path: Any) -> Any:
    db = Database(tmp_path / "economy.db")
    await db.open()
    yield Economy(db, house_float=1000)
    await db.close()


@pytest.fixture
def settings_reads(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Every read of a guild's settings row, by guild."""
    reads: list[int] = []
    original = mq.guild_settings

    async def counted(tx: Any, guild_id: int) -> Any:
        reads.append(guild_id)
        return await original(tx, guild_id)

    monkeypatch.setattr(mq, "guild_settings", counted)
    yield reads


async def test_a_second_read_of_the_settings_does_not_touch_the_database(
    economy: Economy, settings_reads: list[int]
) -> None:
    await economy.settings(GUILD)  # the server's row exists (made by an earlier process)
    economy = Economy(economy._db, house_float=1000)
    settings_reads.clear()
    assert await economy.currency(GUILD) == "ryō"
    assert settings_reads == [GUILD], "read once"
    assert await economy.currency(GUILD) == "ryō"
    assert (await economy.balance(GUILD, 1)).currency == "ryō"  # a new wallet: welcome coins
    assert (await economy.balance(GUILD, 1)).balance == 1000
    assert (await economy.daily(GUILD, 1)).amount == 100
    assert (await economy.grant(GUILD, 2, 5, "test")).balance == 1005
    assert (await economy.give(GUILD, 1, 2, 5)).balance == 1095
    assert (await economy.peek(GUILD, 1)) is not None
    async with economy._db.transaction() as tx:
        assert await economy.terms(tx, GUILD) == GuildTerms("ryō", 1000, 100)
    assert settings_reads == [GUILD], "every later use came from memory"
    # The house balance moves with every bet: whoever asks for it reads it.
    assert (await economy.settings(GUILD)).house_balance == 1000
    assert settings_reads == [GUILD, GUILD]


async def test_a_new_server_is_read_once_more_after_its_row_is_made(
    economy: Economy, settings_reads: list[int]
) -> None:
    """The row a transaction made is not cached from it (it could roll back): the next
    use reads it once, committed, and the uses after come from memory."""
    assert await economy.currency(GUILD) == "ryō"
    made = len(settings_reads)
    assert await economy.currency(GUILD) == "ryō"
    assert await economy.currency(GUILD) == "ryō"
    assert len(settings_reads) == made + 1


async def test_economy_config_is_seen_at_once_and_after_a_restart(
    economy: Economy, settings_reads: list[int]
) -> None:
    assert (await economy.balance(GUILD, 1)).balance == 1000
    await economy.configure(GUILD, currency_name="mon", starting_balance=250, daily_amount=7)
    assert await economy.currency(GUILD) == "mon"
    assert (await economy.balance(GUILD, 2)).balance == 250, "the new starting balance"
    assert (await economy.daily(GUILD, 2)).amount == 7
    reads = len(settings_reads)
    assert await economy.currency(GUILD) == "mon"
    assert len(settings_reads) == reads, "read again once after the change, then cached"
    # A restart: a new process's economy starts empty and reads what was saved.
    fresh = Economy(economy._db, house_float=1000)
    assert fresh.cached_terms(GUILD) is None
    assert await fresh.currency(GUILD) == "mon"
    assert fresh.cached_terms(GUILD) == GuildTerms("mon", 250, 7)


async def test_a_rolled_back_first_use_leaves_no_cached_server(economy: Economy) -> None:
    """A server's row made by a transaction that then fails must not stay cached: its
    next wallet refers to that row (the first action of a new server can be refused)."""
    with pytest.raises(RuntimeError):
        async with economy._db.transaction() as tx:
            await economy.ensure_guild(tx, GUILD)
            await economy.terms(tx, GUILD)
            await economy.ensure_wallet(tx, GUILD, 1)
            raise RuntimeError("refused")
    assert (await economy.balance(GUILD, 2)).balance == 1000, "its row is made again"
    assert await economy.currency(GUILD) == "ryō"
    assert economy.cached_terms(GUILD) == GuildTerms("ryō", 1000, 100), "now committed"
    totals = await economy.totals(GUILD)
    assert totals.wallets + totals.escrow + totals.house == totals.minted


async def test_a_read_overtaken_by_a_config_change_is_not_kept(
    economy: Economy, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A read that began before /economy config finished (possible once reads and writes
    overlap, as on PostgreSQL) saw the old settings: it must not be cached."""
    assert await economy.currency(GUILD) == "ryō"
    economy.invalidate(GUILD)
    old = await economy.settings(GUILD)
    economy.invalidate(GUILD)
    release = asyncio.Event()

    async def slow_read(tx: Any, guild_id: int) -> Any:
        await release.wait()
        return old

    class Overlapping:  # a transaction of another connection: the write does not wait
        pass

    monkeypatch.setattr(mq, "guild_settings", slow_read)
    reading = asyncio.create_task(economy.ensure_guild(Overlapping(), GUILD))  # type: ignore[arg-type]
    await asyncio.sleep(0)
    monkeypatch.undo()
    await economy.configure(GUILD, currency_name="mon")
    release.set()
    assert (await reading).currency_name == "ryō", "the old read, as it was"
    assert economy.cached_terms(GUILD) in (None, GuildTerms("mon", 1000, 100))
    assert await economy.currency(GUILD) == "mon"


async def test_economy_config_through_discord_changes_the_currency_at_once(
    simcord_env: Any, bot_factory: Any
) -> None:
    world = await make_world(simcord_env, "alice")
    alice = world["alice"]
    shown = answered(await alice.slash(world.channel, "wallet"))
    assert "ryō" in wallet_text(shown)
    answered(
        await world.moderator.slash(world.channel, "economy config", currency="mon"),
        ephemeral=True,
    )
    assert "mon" in wallet_text(answered(await alice.slash(world.channel, "wallet")))
    table = await open_coinflip(world, world.channel)
    assert "mon" in str(table.embeds[0].to_dict()), "a table shows the new currency"
    await simcord_env.bot.close()
    await simcord_env.restart_bot(bot_factory())
    assert "mon" in wallet_text(answered(await alice.slash(world.channel, "wallet")))


def wallet_text(result: Any) -> str:
    message = result.response.message
    parts = [message.content or ""]
    parts.extend(str(embed.to_dict()) for embed in message.embeds)
    return "\n".join(parts)
