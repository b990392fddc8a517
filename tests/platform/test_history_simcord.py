"""/history of a long table: 25 steps a page, the newest first shown, turned with buttons;
a live table's pages never show a player's action nor the seed, an ended table's show
both."""

from __future__ import annotations

from tests.support.sim import answered, button_of, make_world


async def long_table(world, raises: int):
    alice, bob = world["alice"], world["bob"]
    table = answered(await alice.slash(world.channel, "coinflip open", stake=10)).response.message
    answered(await bob.click(table, label="Join"))
    answered(await alice.click(table, label="Start"))
    for _ in range(raises):
        answered(await bob.click(world.channel.last_message, label="Raise 5"), ephemeral=False)


async def test_a_live_tables_pages_turn_and_keep_its_secrets(simcord_env):
    world = await make_world(simcord_env, "alice", "bob")
    await long_table(world, 30)  # 33 steps: open, join, start, 30 raises
    seed = (await simcord_env.bot.tables.snapshot(1)).row.seed_hex
    shown = answered(await world["alice"].slash(world.channel, "history", table=1))
    last = shown.response
    assert last.embeds[0].footer.text == "Steps 26–33 of 33 · page 2 of 2"
    assert button_of(last, "Newer ▶")["disabled"] and not button_of(last, "◀ Older")["disabled"]
    older = answered(await world["alice"].click(last, label="◀ Older")).response
    assert older.embeds[0].footer.text == "Steps 1–25 of 33 · page 1 of 2"
    assert "opened the table" in older.embeds[0].description
    for page in (last, older):
        text = page.embeds[0].description
        assert "raise(" not in text and "a private choice" in text
        assert seed not in text and "Fairness seed" not in text


async def test_an_ended_table_shows_every_action_and_its_seed(simcord_env):
    world = await make_world(simcord_env, "alice", "bob")
    await long_table(world, 3)
    answered(await world.moderator.slash(world.channel, "cancel", table=1))
    seed = (await simcord_env.bot.tables.snapshot(1)).row.seed_hex
    shown = answered(await world["bob"].slash(world.channel, "history", table=1)).response
    text = shown.embeds[0].description
    assert text.count("raise(amount=5)") == 3
    assert f"Fairness seed: `{seed}`" in text
    assert not shown.components, "one page: no buttons"
