"""Who reads what in which language (issue 29): the table and everything public in the
server's language (/config language, else the server's Discord language), what a member
alone sees — answers, DMs — in that member's Discord language, remembered for the DMs the
bot sends outside any interaction."""

from __future__ import annotations

import pytest
from simcord import Env

from bot.languages import Languages
from tests.support.japanese import english_in, make_japanese_world, texts_of
from tests.support.sim import answered, labels, make_world


async def test_config_language_sets_and_shows(simcord_env: Env) -> None:
    world = await make_world(simcord_env, "alice")
    mod, alice = world.moderator, world["alice"]
    shown = answered(await mod.slash(world.channel, "config show"), ephemeral=True)
    field = shown.response.embeds[0].fields[0]
    assert (field.name, field.value) == (
        "Language (/config language)",
        "English — the server's Discord language *(default)*",
    )
    wallet = answered(await alice.slash(world.channel, "wallet"), ephemeral=True)
    assert "ryō" in wallet.response.content

    chosen = answered(await mod.slash(world.channel, "config language", language="ja"))
    assert chosen.ephemeral
    # The moderator reads their own language (English); the setting names Japanese.
    assert chosen.response.content.startswith("Table messages here are now in 日本語.")
    shown = answered(await mod.slash(world.channel, "config show"), ephemeral=True)
    assert shown.response.embeds[0].fields[0].value == "日本語"
    # A server whose moderators never named the currency counts in 両 in Japanese.
    wallet = answered(await alice.slash(world.channel, "wallet"), ephemeral=True)
    assert "両" in wallet.response.content and "ryō" not in wallet.response.content
    # The table everyone sees is in Japanese, whoever opened it.
    lobby = answered(await alice.slash(world.channel, "hazard open")).response.message
    assert lobby.embeds[0].title == "ハザード — 卓 #1（募集中）"
    assert {"参加", "開始", "見守る"} <= set(labels(lobby))

    back = answered(await mod.slash(world.channel, "config language", language="discord"))
    assert "English" in back.response.content
    assert world.env.bot.languages.chosen(world.guild.id) is None


async def test_each_member_reads_their_own_language_and_the_table_the_servers(
    simcord_env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    world, _locales = await make_japanese_world(
        simcord_env, monkeypatch, "alice", "bob", english=["bob"]
    )
    alice, bob = world["alice"], world["bob"]
    lobby = answered(await alice.slash(world.channel, "hazard open")).response.message
    # The server's Discord language is Japanese: the public table is, for bob too.
    assert lobby.embeds[0].title == "ハザード — 卓 #1（募集中）"
    assert lobby.embeds[0].fields[0].name.startswith("席（")
    assert {"参加", "退席", "開始", "中止", "ルール", "見守る"} <= set(labels(lobby))

    mine = answered(await alice.click(lobby, label="見守る"), ephemeral=True)
    assert mine.response.content.startswith("🔔 卓 #1 が終わったら")
    assert english_in(texts_of(mine), names=["alice", "bob"]) == []
    theirs = answered(await bob.click(lobby, label="見守る"), ephemeral=True)
    assert theirs.response.content.startswith("🔔 You will get one DM when table #1 ends")
    # A refusal too: bob is not seated, alice's own refusals come in Japanese.
    again = answered(await alice.click(lobby, label="見守る"), ephemeral=True)
    assert again.response.content == "卓 #1 の見守りをやめました。"
    answered(await alice.click(lobby, label="見守る"), ephemeral=True)

    # The end reaches each watcher by DM, outside any interaction of theirs: in the
    # language their last interaction carried.
    answered(await alice.click(lobby, label="中止"))
    (alice_dm,) = alice.user.dm_channel.history()
    (bob_dm,) = bob.user.dm_channel.history()
    assert alice_dm.content.startswith("🔔 ハザード — 卓 #1 は中止されました。"), alice_dm.content
    assert bob_dm.content.startswith("🔔 Hazard — table #1 was cancelled;"), bob_dm.content

    # Remembered across restarts, and written once per member, not once per click.
    languages = world.env.bot.languages
    assert languages.writes == 2
    fresh = Languages(world.env.bot.db)
    assert await fresh.member(alice.id) == "ja"
    assert await fresh.member(bob.id) == "en"
    assert await fresh.member(world.moderator.id, fallback="ja") == "ja"


async def test_a_member_whose_language_changes_is_stored_again(
    simcord_env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    world, locales = await make_japanese_world(simcord_env, monkeypatch, "alice")
    alice = world["alice"]
    answered(await alice.slash(world.channel, "wallet"))
    answered(await alice.slash(world.channel, "wallet"))
    locales.set(alice, "en-GB")
    answered(await alice.slash(world.channel, "wallet"))
    languages = world.env.bot.languages
    assert languages.writes == 2
    assert await Languages(world.env.bot.db).member(alice.id) == "en"


async def test_a_public_answer_is_built_in_the_servers_language(
    simcord_env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``in_server_language``: for the answers the whole channel reads (cogs that answer
    a command publicly); inside an interaction the member's language is in effect."""
    from types import SimpleNamespace

    from bot.i18n import _, current_locale, use_locale
    from cogs._ui.primitives import in_server_language

    world, _locales = await make_japanese_world(simcord_env, monkeypatch, "alice")
    interaction = SimpleNamespace(client=world.env.bot, guild_id=world.guild.id)
    with use_locale("en"):
        # The guild's Discord language is known once one of its interactions came in.
        answered(await world["alice"].slash(world.channel, "wallet"))
        with in_server_language(interaction):  # type: ignore[arg-type]
            assert current_locale() == "ja"
            assert _("Join") == "参加"
        assert current_locale() == "en"


async def test_the_server_language_is_the_guilds_as_the_gateway_keeps_it(
    simcord_env: Env,
) -> None:
    """A server whose Discord language is Japanese gets Japanese tables, from the guild
    the gateway keeps current (SimCord's interactions say ``en-US`` whatever the guild)."""
    await simcord_env.bot.tree.sync()
    guild = simcord_env.create_guild("kyoto", preferred_locale="ja")
    channel = guild.create_text_channel("tables")
    alice = guild.add_member(simcord_env.create_user("alice"))
    lobby = answered(await alice.slash(channel, "hazard open")).response.message
    assert lobby.embeds[0].title == "ハザード — 卓 #1（募集中）"
    # alice's own answers stay in her language (English here).
    mine = answered(await alice.click(lobby, label="見守る"), ephemeral=True)
    assert mine.response.content.startswith("🔔 You will get one DM")
