"""The platform in Japanese, end to end (issue 29): a member reading Japanese at a Japanese
server uses the wallet, daily, gifts, the leaderboard, /stats, /history, /verify, /tables,
/notify, self-exclusion and a moderator's loss limits and audit, and reads no English; a
member reading English at the same server gets their own answers in English and the
channel's lines in Japanese."""

from __future__ import annotations

import re
from typing import Any

import pytest
from simcord import Env, InteractionResult

from tests.platform.test_tools_simcord import play_until_finished
from tests.platform.test_translations import command_problems, synced_payloads
from tests.support.gifts import world_gifts_unheld
from tests.support.japanese import english_in, make_japanese_world, texts_of
from tests.support.sim import answered, refusal

NAMES = ("alice", "bob", "mod")


@pytest.fixture
def simcord_bot(bot_factory: Any) -> Any:
    # Turn notices on, so /notify shows and saves a member's setting.
    return bot_factory(settings={"turn_notices": True})


def japanese_only(shown: list[InteractionResult]) -> list[str]:
    return english_in(texts_of(shown), names=NAMES)


async def test_a_japanese_member_reads_the_platform_in_japanese(
    simcord_env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    world, _locales = await make_japanese_world(simcord_env, monkeypatch, "alice", "bob")
    alice, bob, mod, channel = world["alice"], world["bob"], world.moderator, world.channel
    shown: list[Any] = []

    async def run(who: Any, command: str, **options: Any) -> InteractionResult:
        result = answered(await who.slash(channel, command, **options))
        shown.append(result)
        return result

    wallet = await run(alice, "wallet")
    assert "両" in wallet.response.content and "財布" in wallet.response.content
    await run(alice, "daily")
    assert "今日の両はもう受け取りました" in refusal(await run(alice, "daily"))
    await run(bob, "wallet")
    await run(alice, "wallet", member=bob)
    # Her welcome coins and her daily came free: the server holds them a while (issue 33).
    assert "しばらく経たないと贈れません" in refusal(
        await run(alice, "give", member=bob, amount=250)
    )
    await world_gifts_unheld(world)
    gift = await run(alice, "give", member=bob, amount=250)
    assert not gift.ephemeral and "贈りました" in gift.response.content
    assert "自分自身には贈れません" in refusal(await run(alice, "give", member=alice, amount=5))
    board = await run(alice, "leaderboard")
    assert not board.ephemeral and board.response.embeds[0].title == "ランキング — 所持金"
    await run(alice, "leaderboard", by="wins")
    await run(alice, "stats")
    await run(alice, "tables")
    assert "#99" in refusal(await run(alice, "history", table=99))
    refusal(await run(alice, "verify", table=99))
    assert "チャンネル" in (await run(alice, "notify")).response.content
    assert "保存しました" in (await run(alice, "notify", mode="dm")).response.content

    asked = await run(alice, "selfexclude", days=7)
    done = answered(await alice.click(asked.response, label="7日間、自己除外する"))
    shown.append(done)
    assert "完了しました" in done.response.content
    assert "自己除外" in refusal(await run(alice, "give", member=bob, amount=5))

    await run(mod, "economy loss-limit set", amount=100, member=bob)
    await run(mod, "economy loss-limit clear")
    await run(mod, "economy audit", member=alice)
    await run(mod, "economy lift-exclusion", member=alice)
    # /config economy's note is the platform's (the settings shown under it are /config's).
    economy = answered(await mod.slash(channel, "config economy", daily_amount=50))
    note = next(text for text in texts_of(economy) if "/デイリー で50 ryō" in text)
    assert english_in(note.splitlines()[:1], names=NAMES) == []
    await run(bob, "wallet")

    # The ledger's own words too (a new wallet's welcome coins, in the audit).
    assert any("(歓迎)" in text for text in texts_of(shown))
    assert japanese_only(shown) == []


async def test_an_english_member_at_a_japanese_server_reads_english_in_private(
    simcord_env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    world, _locales = await make_japanese_world(
        simcord_env, monkeypatch, "alice", "bob", english=["bob"]
    )
    await world_gifts_unheld(world)
    alice, bob, channel = world["alice"], world["bob"], world.channel
    answered(await alice.slash(channel, "wallet"))
    wallet = answered(await bob.slash(channel, "wallet"), ephemeral=True)
    # The server never named its currency: 両 for everyone at a Japanese server.
    assert wallet.response.content == "Your wallet holds **1,000 両**."
    notify = answered(await bob.slash(channel, "notify"), ephemeral=True)
    assert notify.response.content.startswith("When a table on this server has waited")
    assert "already claimed your daily" not in refusal(
        await bob.slash(channel, "give", member=bob, amount=1)
    )
    assert refusal(await bob.slash(channel, "give", member=bob, amount=1)) == (
        "You cannot give coins to yourself."
    )
    # What the channel sees is in the server's language, whoever asked.
    gift = answered(await bob.slash(channel, "give", member=alice, amount=10))
    assert not gift.ephemeral and "贈りました" in gift.response.content
    board = answered(await bob.slash(channel, "leaderboard"))
    assert board.response.embeds[0].title == "ランキング — 所持金"
    # And a Japanese member's own answers stay Japanese.
    mine = answered(await alice.slash(channel, "wallet"), ephemeral=True)
    assert mine.response.content.startswith("あなたの財布には")


PLATFORM_COMMANDS = {
    "wallet",
    "daily",
    "give",
    "leaderboard",
    "selfexclude",
    "economy",
    "tables",
    "rules",
    "history",
    "verify",
    "cancel",
    "stats",
    "notify",
}


async def test_the_platforms_commands_carry_japanese(simcord_env: Env) -> None:
    """Every name, description, option and choice of the platform's commands has a valid
    Japanese localization when synced (the foundation's test checks every area at once)."""
    payloads = await synced_payloads(simcord_env)
    assert set(payloads) >= PLATFORM_COMMANDS
    problems = [
        problem
        for name in sorted(PLATFORM_COMMANDS)
        for problem in command_problems(payloads[name])
    ]
    assert problems == []
    assert payloads["wallet"]["name_localizations"]["ja"] == "財布"
    notify = payloads["notify"]["options"][0]
    assert [c["name_localizations"]["ja"] for c in notify["choices"]] == ["オン", "DM", "オフ"]


async def test_table_tools_in_japanese(simcord_env: Env, monkeypatch: pytest.MonkeyPatch) -> None:
    """/tables, /history, /verify, /stats and /cancel about a real table: what the platform
    writes is Japanese (the test coin flip's own words and title are the test game's)."""
    world, _locales = await make_japanese_world(simcord_env, monkeypatch, "alice", "bob")
    alice, bob, channel = world["alice"], world["bob"], world.channel
    # A lobby: listed, its history titled, cancelled by its host.
    answered(await alice.slash(channel, "coinflip open", stake=10))
    tables = answered(await world.moderator.slash(channel, "tables"), ephemeral=True)
    listed = tables.response.embeds[0]
    assert listed.title == "開いている卓（1）" and "募集中" in listed.description
    assert "#1を閉じて返金" in texts_of(tables)
    lobby = answered(await alice.slash(channel, "history", table=1), ephemeral=True)
    assert lobby.response.embeds[0].title.endswith("卓 #1（募集中）")
    cancelled = answered(await alice.slash(channel, "cancel", table=1))
    assert any("賭け金はすべて持ち主に戻りました" in text for text in texts_of(cancelled))

    # A played table: verified, and counted in /stats.
    table = (await alice.slash(channel, "coinflip open", stake=10)).response.message
    await bob.click(table, label="参加")
    await alice.click(table, label="開始")
    assert "対局中" in refusal(await alice.slash(channel, "verify", table=2))
    await play_until_finished(simcord_env, world, 2)
    report = answered(await bob.slash(channel, "verify", table=2), ephemeral=True)
    stats = answered(await alice.slash(channel, "stats"), ephemeral=True)
    embed = stats.response.embeds[0]
    assert "対局数：**1**" in embed.fields[0].value and "累計収支" in embed.footer.text
    # Coins are never bare: the net and the best win carry the currency, as elsewhere.
    assert re.search(r"^収支：\*\*[+-]?10両\*\*$", embed.fields[0].value, re.MULTILINE)
    assert re.search(r"^最高の勝ち額：\*\*(0|10)両\*\*$", embed.fields[0].value, re.MULTILINE)
    shown = [
        *texts_of(report),
        *texts_of(stats),
        listed.title,
        listed.description,
        lobby.response.embeds[0].title,
        *texts_of(cancelled),
    ]
    assert english_in(shown, names=[*NAMES, "Coin Flip"]) == []
