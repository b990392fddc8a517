"""/rules, /history, /verify and /stats, and Discord's limits on everything sent."""

from __future__ import annotations

import pytest

from bot import rules_text
from tests.support.discord_limits import command_problems, payload_problems
from tests.support.sim import answered, make_world, refusal, sent_payloads


@pytest.mark.parametrize("game", sorted(rules_text.GAMES))
def test_every_rules_page_fits_an_embed(game):
    pages = rules_text.pages(game)
    assert pages
    for title, body in pages:
        assert title and body
        assert len(body) <= 4096 and len(title) <= 200


async def test_rules_pages_turn(simcord_env):
    world = await make_world(simcord_env, "alice")
    result = answered(
        await world["alice"].slash(world.channel, "rules", game="hazard"), ephemeral=True
    )
    first = result.response.embeds[0]
    assert first.footer.text.startswith("Page 1 of")
    turned = answered(await world["alice"].click(result.response.message, label="Next ▶"))
    assert turned.response.embeds[0].footer.text.startswith("Page 2 of")
    assert turned.response.embeds[0].title != first.title


async def test_rules_of_one_page_show_without_page_buttons(simcord_env, monkeypatch):
    """Discord refuses a message whose two buttons share a custom id: ◀ and ▶ of a rules
    file of one page would both go to page 0, so such a page has no buttons."""
    one_page = (("How to play", "Throw the dice; the higher number wins."),)
    monkeypatch.setattr(rules_text, "pages", lambda game, locale="en": one_page)
    world = await make_world(simcord_env, "alice")
    result = answered(
        await world["alice"].slash(world.channel, "rules", game="hazard"), ephemeral=True
    )
    shown = result.response
    assert shown.embeds[0].footer.text == "Page 1 of 1"
    assert shown.embeds[0].description == one_page[0][1]
    assert not shown.components


async def test_a_tables_rules_button_shows_one_page_rules_without_page_buttons(
    simcord_env, monkeypatch
):
    one_page = (("How to play", "Outlast the Dealer."),)
    monkeypatch.setattr(rules_text, "pages", lambda game, locale="en": one_page)
    world = await make_world(simcord_env, "alice", "bob")
    opened = answered(await world["alice"].slash(world.channel, "nihakyu open", ante=10))
    result = answered(
        await world["bob"].click(opened.response.message, label="Rules"), ephemeral=True
    )
    shown = result.response if result.response else result.followups[0]
    assert shown.embeds[0].footer.text == "Page 1 of 1"
    assert not shown.components


async def play_until_finished(simcord_env, world, table_id):
    """Both players call heads in turn until the fair coin agrees with one of them."""
    alice, bob = world["alice"], world["bob"]
    for _ in range(60):
        snapshot = await simcord_env.bot.tables.snapshot(table_id)
        if snapshot.state.finished:
            return snapshot
        caller = alice if snapshot.state.seats[snapshot.state.turn] == alice.id else bob
        await caller.click(world.channel.last_message, label="Heads")
    raise AssertionError("sixty fair flips without a head")


async def test_history_and_verify_of_a_fair_table(simcord_env):
    world = await make_world(simcord_env, "alice", "bob")
    alice, bob = world["alice"], world["bob"]
    table = (await alice.slash(world.channel, "coinflip open", stake=10)).response.message
    await bob.click(table, label="Join")
    await alice.click(table, label="Start")
    text = refusal(await alice.slash(world.channel, "verify", table=1))
    assert "still being played" in text and "commitment" in text
    live = answered(await alice.slash(world.channel, "history", table=1), ephemeral=True)
    assert "started the game" in live.response.embeds[0].description

    await play_until_finished(simcord_env, world, 1)

    report = answered(await bob.slash(world.channel, "verify", table=1), ephemeral=True)
    assert "✅" in report.response.embeds[0].description
    history = answered(await bob.slash(world.channel, "history", table=1), ephemeral=True)
    assert "call: side heads" in history.response.embeds[0].description
    assert "seed `" in world.channel.last_message.embeds[0].footer.text

    stats = answered(await alice.slash(world.channel, "stats"), ephemeral=True)
    assert "played: **1**" in stats.response.embeds[0].fields[0].value


async def test_unknown_table_is_refused(simcord_env):
    world = await make_world(simcord_env, "alice")
    assert "no table #99" in refusal(await world["alice"].slash(world.channel, "history", table=99))


async def test_every_payload_respects_discord_limits(simcord_env):
    world = await make_world(simcord_env, "alice", "bob")
    alice, bob = world["alice"], world["bob"]
    table = (await alice.slash(world.channel, "coinflip open", stake=10)).response.message
    await bob.click(table, label="Join")
    await alice.click(table, label="Start")
    await play_until_finished(simcord_env, world, 1)
    for name in ("wallet", "daily", "leaderboard", "stats"):
        await world["alice"].slash(world.channel, name)
    for game in ("hachihachi", "koi-koi"):  # a rules page, and a refusal
        await world["alice"].slash(world.channel, "rules", game=game)
    payloads = sent_payloads(simcord_env)
    assert len(payloads) >= 10
    for payload in payloads:
        assert payload_problems(payload) == [], payload


async def test_command_tree_respects_discord_limits(simcord_env):
    tree = simcord_env.bot.tree
    commands = [command.to_dict(tree) for command in tree.get_commands()]
    names = {command["name"] for command in commands}
    assert {"wallet", "daily", "give", "leaderboard", "economy", "rules", "verify"} <= names
    for command in commands:
        assert command_problems(command) == [], command["name"]
        assert command.get("contexts") == [0], f"/{command['name']} must be guild-only"
