"""An event through Discord, small: open, join (the fee staked), start, tables opened by the
bot with a ping each, bids by DM, the result read from the table, the prize paid."""

from __future__ import annotations

import pytest

from bot.errors import NotAllowed
from cogs._ui.replay import replay_page
from tests.events.event_sim import (
    books_balanced,
    event_message,
    event_tables,
    join_all,
    open_event,
    play_duel,
    start_event,
)
from tests.support.replay import data_of
from tests.support.sim import answered, make_world, message_text, pinged, refusal, wallet


async def test_a_four_player_swiss_of_one_round_pays_the_winners(simcord_env):
    world = await make_world(simcord_env, "ann", "ben", "cat", "dan")
    players = [world[name] for name in ("ann", "ben", "cat", "dan")]
    message = await open_event(world, fee=10, prize=0, rounds=1, split="60/40")
    await join_all(world, message, players)
    assert [await wallet(world, p) for p in players] == [990] * 4
    await books_balanced(world)
    await start_event(world, message)
    tables = await event_tables(world)
    assert len(tables) == 2
    for snapshot, posted in tables:
        assert sorted(pinged(simcord_env, posted)) == sorted(snapshot.state.seats)
    winners = []
    for snapshot, _posted in tables:
        winners.append(snapshot.state.seats[0])
        await play_duel(world, snapshot.id, winners[-1])
        if len(winners) == 1:
            # The event message follows the tables as they end: this one is done, its
            # winner leads the standings.
            shown = message_text(await event_message(world))
            assert f"✅ #{snapshot.id}" in shown and f"⏳ #{tables[1][0].id}" in shown
            assert f"1. <@{winners[0]}> **1**" in shown, shown
    view = await simcord_env.bot.events.view(1)
    assert view.row.status == "finished"
    # Two winners on 1 point tie on every break but rating: they share 1st and 2nd.
    assert view.prizes == {winners[0]: 20, winners[1]: 20}
    assert sorted([await wallet(world, p) for p in players]) == [990, 990, 1010, 1010]
    text = message_text(await event_message(world))
    assert "Finished" in text
    await books_balanced(world)
    standings = answered(
        await players[0].slash(world.channel, "event standings", event=1), ephemeral=True
    )
    listed = standings.response.embeds[0].description
    assert all(f"<@{p.id}>" in listed for p in players), listed
    history = answered(await players[0].slash(world.channel, "event history"), ephemeral=True)
    assert "#1" in history.response.content and "finished" in history.response.content
    # Event tables are normal tables: /verify replays them, the replay page reads them.
    for snapshot, _posted in tables:
        checked = answered(await players[0].slash(world.channel, "verify", table=snapshot.id))
        report = checked.response.embeds[0].description
        assert "Every roll matches the seed" in report, report
        data = data_of(await replay_page(simcord_env.bot, snapshot.id, world.guild.id))
        said = [step["said"] for step in data["steps"]]
        assert said[:3] == ["opened the table", "joined", "started the game"], said


async def test_joining_twice_or_after_the_start_is_refused_privately(simcord_env):
    world = await make_world(simcord_env, "ann", "ben")
    ann, ben = world["ann"], world["ben"]
    message = await open_event(world, fee=0, rounds=1)
    await join_all(world, message, [ann, ben])
    assert "already entered" in refusal(await ann.click(message, label="Join"))
    await start_event(world, message)
    late = world.guild.add_member(simcord_env.create_user("late"))
    assert "Join" not in message_text(await event_message(world))
    with pytest.raises(NotAllowed, match="started"):
        await simcord_env.bot.events.join(1, late.id)


async def test_only_a_moderator_opens_an_event(simcord_env):
    world = await make_world(simcord_env, "ann")
    said = refusal(
        await world["ann"].slash(world.channel, "event open", game="strength_duel", rounds=1)
    )
    assert "Manage Server" in said
    answered(await world.moderator.slash(world.channel, "event open", game="strength_duel"))


async def test_a_table_discord_refused_to_post_is_posted_after_a_restart(simcord_env, bot_factory):
    world = await make_world(simcord_env, "ann", "ben")
    message = await open_event(world, rounds=1)
    await join_all(world, message, [world["ann"], world["ben"]])
    simcord_env.inject_error(
        "POST", f"/channels/{world.channel.id}/messages", status=500, code=0, times=1
    )
    await start_event(world, message)
    ((snapshot, posted),) = await event_tables(world)
    assert posted is None and snapshot.row.message_id is None
    await simcord_env.bot.close()
    await simcord_env.restart_bot(bot_factory())
    ((snapshot, posted),) = await event_tables(world)
    assert posted is not None
    assert sorted(pinged(simcord_env, posted)) == sorted(snapshot.state.seats)


async def test_cancelling_a_running_event_refunds_every_fee_and_ends_its_tables(simcord_env):
    world = await make_world(simcord_env, "ann", "ben", "cat", "dan")
    players = [world[name] for name in ("ann", "ben", "cat", "dan")]
    message = await open_event(world, fee=25, prize=40, rounds=2)
    await join_all(world, message, players)
    await start_event(world, message)
    tables = await event_tables(world)
    await play_duel(world, tables[0][0].id, tables[0][0].state.seats[0])
    assert "Manage Server" in refusal(await players[0].slash(world.channel, "event cancel"))
    answered(await world.moderator.slash(world.channel, "event cancel"), ephemeral=True)
    assert [await wallet(world, p) for p in players] == [1000] * 4
    for snapshot, _posted in await event_tables(world):
        assert not (await simcord_env.bot.tables.snapshot(snapshot.id)).row.live
    text = message_text(await event_message(world))
    assert "Cancelled" in text and "Join" not in text
    live = await event_tables(world)
    # The table still in play was ended and its message shows it.
    assert "Cancelled" in live[1][1].embeds[0].description
    await books_balanced(world)
