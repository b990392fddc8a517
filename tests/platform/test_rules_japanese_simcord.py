"""/rules and /verify in the language of the member who asked (issue 29): at a Japanese
server a Japanese member reads the Japanese rules and gets a Japanese replay page, an
English member the English ones; a page turned keeps the language of who turns it."""

from __future__ import annotations

from typing import Any

from bot import rules_text
from tests.platform.test_replay_page import attachment_text, play_a_hazard_table
from tests.support.japanese import english_in, make_japanese_world, member_locales, texts_of
from tests.support.replay import data_of
from tests.support.sim import answered, make_world


def next_button(message: Any) -> str:
    """The custom id of the rules page's second button (Next), whatever its label."""
    buttons = [child for row in message.components for child in row.to_dict()["components"]]
    return str(buttons[1]["custom_id"])


async def test_each_member_reads_the_rules_in_their_language(simcord_env, monkeypatch):
    world, _locales = await make_japanese_world(
        simcord_env, monkeypatch, "alice", "bob", english=["bob"]
    )
    alice, bob = world["alice"], world["bob"]
    japanese = rules_text.pages("hachihachi", "ja")
    english = rules_text.pages("hachihachi")

    shown = answered(await alice.slash(world.channel, "rules", game="hachihachi"), ephemeral=True)
    embed = shown.response.embeds[0]
    assert embed.description == japanese[0][1]
    assert (embed.title or "").endswith(f"— {japanese[0][0]}")
    # Nothing of the answer is English: the page, its title, footer and buttons.
    assert english_in(texts_of(shown), names=["alice", "bob"]) == []
    # The page's buttons lead to the same page in every language.
    turned = answered(
        await alice.click(shown.response.message, custom_id=next_button(shown.response.message))
    )
    assert turned.response.embeds[0].description == japanese[1][1]
    assert "光" in japanese[1][1] and "カス" in japanese[1][1]

    theirs = answered(await bob.slash(world.channel, "rules", game="hachihachi"), ephemeral=True)
    assert theirs.response.embeds[0].description == english[0][1]
    assert (theirs.response.embeds[0].footer.text or "").startswith("Page 1 of")
    turned = answered(
        await bob.click(theirs.response.message, custom_id=next_button(theirs.response.message))
    )
    assert turned.response.embeds[0].description == english[1][1]


async def test_verify_attaches_the_page_in_the_askers_language(simcord_env, monkeypatch):
    # An English server (its table in English), one member reading Japanese: the page
    # follows whoever asked, not the server.
    locales = member_locales(monkeypatch)
    world = await make_world(simcord_env, "alice", "bob")
    locales.set(world["alice"], "ja")
    await play_a_hazard_table(world, rounds=1)
    pages = {}
    for name in ("alice", "bob"):
        verified = answered(
            await world[name].slash(world.channel, "verify", table=1), ephemeral=True
        )
        (attached,) = verified.response.attachments
        pages[name] = attachment_text(world, attached)
    assert '<html lang="ja">' in pages["alice"] and "シードを確認しています…" in pages["alice"]
    assert '<html lang="en">' in pages["bob"] and "Checking the seed…" in pages["bob"]
    assert data_of(pages["alice"])["seed"] == data_of(pages["bob"])["seed"]
    assert [s["draws"] for s in data_of(pages["alice"])["steps"]] == [
        s["draws"] for s in data_of(pages["bob"])["steps"]
    ], "the same rolls to re-derive in both"


async def test_every_games_rules_read_in_japanese(simcord_env, monkeypatch):
    world, _locales = await make_japanese_world(simcord_env, monkeypatch, "alice")
    for game in sorted(rules_text.GAMES):
        shown = answered(await world["alice"].slash(world.channel, "rules", game=game))
        assert shown.response.embeds[0].description == rules_text.pages(game, "ja")[0][1]
        assert english_in(texts_of(shown), names=["alice"]) == [], game
