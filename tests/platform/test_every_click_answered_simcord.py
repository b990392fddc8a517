"""Every click and every table form gets an answer: on a message edited since the member
saw it, after a restart, after the form's own timeout."""

from __future__ import annotations

from typing import Any

from simcord.actors import _component_interaction

from tests.support.sim import answered, button_of, make_world, refusal

STALE = "moment has passed"


async def click_id(actor: Any, message: Any, custom_id: str) -> Any:
    """A click on `custom_id` as Discord delivers it: with `message` as it is *now*, which
    no longer carries that id when an edit replaced the buttons between the member's look
    and their click. (SimCord's `click` only offers the components still on the message,
    so the interaction is sent the way its own `click` sends one.)"""
    stored = actor._message(message)
    return await _component_interaction(
        actor, stored, {"custom_id": custom_id, "component_type": 2}
    )


async def running_coinflip(world: Any) -> Any:
    alice, bob = world["alice"], world["bob"]
    opened = answered(await alice.slash(world.channel, "coinflip open", stake=10))
    answered(await bob.click(opened.response.message, label="Join"))
    answered(await alice.click(opened.response.message, label="Start"))
    return world.channel.last_message


async def test_a_click_on_a_button_an_edit_removed_gets_the_stale_answer(simcord_env, dice):
    world = await make_world(simcord_env, "alice", "bob")
    alice, bob = world["alice"], world["bob"]
    table = await running_coinflip(world)
    seen = button_of(table, "Heads").custom_id  # what bob saw, drawn at ply 0
    dice.extend([2])  # tails: alice's call misses, the table moves to ply 1
    answered(await alice.click(table, label="Heads"))
    after = await simcord_env.bot.tables.snapshot(1)
    assert after.ply == 1
    assert seen not in {button_of(world.channel.last_message, "Heads").custom_id}

    result = await click_id(bob, world.channel.last_message, seen)
    assert STALE in refusal(result), "answered privately, as stale"
    assert result.ephemeral or any(m.ephemeral for m in result.followups)
    now = await simcord_env.bot.tables.snapshot(1)
    assert now.ply == 1 and now.row.version == after.row.version, "nothing changed"


async def test_a_still_valid_click_whose_button_is_not_on_the_message_is_applied(simcord_env, dice):
    world = await make_world(simcord_env, "alice", "bob")
    alice = world["alice"]
    table = await running_coinflip(world)
    heads = button_of(table, "Heads").custom_id  # ply 0: still the table's
    # Discord carries another message with the click (one the buttons are not on).
    elsewhere = await alice.send(world.channel, "hello")
    dice.extend([1])  # heads: alice wins
    answered(await click_id(alice, elsewhere, heads))
    assert (await simcord_env.bot.tables.snapshot(1)).state.finished


async def duel_form(world: Any, member: Any, **options: Any) -> Any:
    """A started duel and `member`'s bid form, open (shown) but not yet submitted."""
    alice, bob = world["alice"], world["bob"]
    challenge = answered(
        await alice.slash(world.channel, "duel challenge", member=bob, stake=10, **options)
    )
    answered(await bob.click(challenge.response.message, label="Accept"))
    panel = member.user.dm_channel.last_message
    return answered(await member.user.click(panel, label="Other amount…"))


async def test_a_bid_form_submitted_after_a_restart_is_applied(simcord_env, bot_factory):
    world = await make_world(simcord_env, "alice", "bob")
    alice = world["alice"]
    shown = await duel_form(world, alice)
    await simcord_env.bot.close()
    await simcord_env.restart_bot(bot_factory())
    result = answered(await alice.user.submit_modal(shown, {"amount": "23"}))
    assert any(
        "your bid is **23**" in (m.content or "") for m in [result.response, *result.followups] if m
    )
    state = (await simcord_env.bot.tables.snapshot(1)).state
    assert state.bids == {alice.id: 23}


async def test_a_bid_form_submitted_past_its_timeout_is_applied(simcord_env):
    world = await make_world(simcord_env, "alice", "bob")
    alice = world["alice"]
    shown = await duel_form(world, alice, round_seconds=900)
    await simcord_env.advance_time(301)  # past the form's 5 minutes, inside the round
    result = answered(await alice.user.submit_modal(shown, {"amount": "23"}))
    assert STALE not in "".join(m.content or "" for m in [result.response, *result.followups] if m)
    assert (await simcord_env.bot.tables.snapshot(1)).state.bids == {alice.id: 23}


async def test_a_bid_form_from_a_round_gone_by_gets_the_stale_answer(simcord_env, bot_factory):
    world = await make_world(simcord_env, "alice", "bob")
    alice = world["alice"]
    shown = await duel_form(world, alice)
    await simcord_env.advance_time(121)  # the round's deadline: missing bids count as 0
    before = await simcord_env.bot.tables.snapshot(1)
    assert before.state.round == 2
    await simcord_env.bot.close()
    await simcord_env.restart_bot(bot_factory())
    assert STALE in refusal(await alice.user.submit_modal(shown, {"amount": "23"}))
    after = await simcord_env.bot.tables.snapshot(1)
    assert after.row.version == before.row.version and after.state.bids == {}


async def test_a_hazard_amount_form_submitted_after_a_restart_places_the_bet(
    simcord_env, bot_factory
):
    world = await make_world(simcord_env, "alice", "bob")
    alice, bob = world["alice"], world["bob"]
    table = answered(await alice.slash(world.channel, "hazard open", max_stake=500))
    answered(await bob.click(table.response.message, label="Join"))
    answered(await alice.click(table.response.message, label="Start"))
    picker = answered(await bob.click(world.channel.last_message, label="Bet with"))
    shown = answered(await bob.click(picker.response.message, label="Other amount…"))
    await simcord_env.bot.close()
    await simcord_env.restart_bot(bot_factory())
    answered(await bob.submit_modal(shown, {"amount": "100"}))
    state = (await simcord_env.bot.tables.snapshot(1)).state
    assert state.bets[bob.id] == {"with": 100}


async def test_a_page_button_an_edit_removed_still_turns_the_page(simcord_env):
    """Not only table buttons: a /leaderboard page button clicked twice fast (the first
    click's edit replaced it) is answered by its own code, once."""
    world = await make_world(simcord_env, "alice", "bob")
    alice = world["alice"]
    answered(await alice.slash(world.channel, "wallet"))
    board = answered(await alice.slash(world.channel, "leaderboard")).response.message
    gone = f"tz-board:{alice.id}:coins:all:0"  # not on this one-page board
    result = await click_id(alice, board, gone)
    answered(result)
    assert "Leaderboard" in (result.response.embeds[0].title or "")
