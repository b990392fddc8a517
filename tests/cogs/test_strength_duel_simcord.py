"""Strength Duel through Discord: challenge, secret bids by DM, fallback, reveal."""

from __future__ import annotations

import re

from bot.service import Actor
from tests.support.sim import (
    answered,
    close_dms,
    make_world,
    message_text,
    refusal,
    visible_to,
    wallet,
)

SAMPLE_GAME = [(3, 2), (3, 4), (5, 0), (0, 2), (1, 1), (2, 1), (3, 3), (1, 3)]
NOISE = re.compile(r"<t:\d+:\w>|<@!?\d+>|`[0-9a-f]{16,}…?`|#\d+|table \d+", re.IGNORECASE)


async def challenge(world, challenger, opponent, **options):
    options.setdefault("stake", 10)
    result = answered(
        await challenger.slash(world.channel, "duel challenge", member=opponent, **options)
    )
    return result.response.message


async def started_duel(world, **options):
    alice, bob = world["alice"], world["bob"]
    table = await challenge(world, alice, bob, **options)
    answered(await bob.click(table, label="Accept"))
    return table


async def bid_by_dm(member, amount: int):
    panel = member.user.dm_channel.last_message
    assert panel is not None and "Pick your bid" in panel.content
    return answered(await member.user.click(panel, label=str(amount)))


async def test_the_seed_sample_game_by_direct_message(simcord_env):
    world = await make_world(simcord_env, "alice", "bob")
    alice, bob = world["alice"], world["bob"]
    await started_duel(world)
    assert await wallet(world, alice) == 990 and await wallet(world, bob) == 990
    expected = [(22, 20), (16, 16), (11, 13), (8, 11), (7, 10), (5, 6), (2, 3)]
    for number, (a_bid, b_bid) in enumerate(SAMPLE_GAME):
        confirmation = await bid_by_dm(alice, a_bid)
        notes = [m.content for m in [confirmation.response, *confirmation.followups] if m]
        assert any(f"your bid is **{a_bid}**" in text for text in notes)
        await bid_by_dm(bob, b_bid)
        state = (await simcord_env.bot.tables.snapshot(1)).state
        if number < len(expected):
            assert (state.strength[alice.id], state.strength[bob.id]) == expected[number]
    assert state.finished and state.winner == bob.id
    final = world.channel.last_message.embeds[0].description
    assert "Round 8 revealed" in final and "wins the pot of 20" in final
    assert await wallet(world, bob) == 1010 and await wallet(world, alice) == 990

    # The finished duel in /stats (with its chart) and on the game's leaderboard.
    stats = answered(await bob.slash(world.channel, "stats", game="strength_duel"))
    (field,) = stats.response.embeds[0].fields
    for line in ("played: **1**", "won: **1**", "net: **+10 ryō**", "best win: **10 ryō**"):
        assert line in field.value
    assert "longest streak: **1**" in field.value
    assert [a.filename for a in stats.response.attachments] == ["stats.png"]
    board = answered(
        await alice.slash(world.channel, "leaderboard", game="strength_duel", by="wins")
    )
    assert board.response.embeds[0].description.splitlines() == [f"**1.** {bob.mention} — 1 win"]


async def test_no_message_the_opponent_can_see_holds_the_bid(simcord_env):
    world = await make_world(simcord_env, "alice", "bob")
    alice, bob = world["alice"], world["bob"]
    await started_duel(world)
    public_before = message_text(world.channel.last_message)
    panel = alice.user.dm_channel.last_message
    # Amounts above the quick buttons (0-14), so no button label can match them.
    shown = answered(await alice.user.click(panel, label="Other amount…"))
    answered(await alice.user.submit_modal(shown, {"amount": "23"}))
    edits_before = sum(1 for r in simcord_env.http_requests if r.method == "PATCH")
    shown = answered(await alice.user.click(panel, label="Other amount…"))
    answered(await alice.user.submit_modal(shown, {"amount": "21"}))
    edits_after = sum(1 for r in simcord_env.http_requests if r.method == "PATCH")
    assert edits_after == edits_before, "changing a bid must not edit any public message"

    public_after = message_text(world.channel.last_message)
    assert public_after.replace("✅ has bid", "⏳ waiting") == public_before
    for message in visible_to(world, bob):
        text = NOISE.sub("", message_text(message))
        assert not re.search(r"\b2[13]\b", text), f"bob can read alice's bid in: {text!r}"
    await bid_by_dm(bob, 2)
    assert "**21**" in world.channel.last_message.embeds[0].description, "revealed at last"


async def test_closed_dms_fall_back_to_bidding_privately(simcord_env):
    world = await make_world(simcord_env, "alice", "bob")
    alice, bob = world["alice"], world["bob"]
    close_dms(simcord_env, bob)
    table = await challenge(world, alice, bob)
    accepted = answered(await bob.click(table, label="Accept"))
    notes = [m.content for m in accepted.followups if m.ephemeral]
    assert any("direct messages are closed" in n and "Pick your bid" in n for n in notes)
    table = world.channel.last_message
    assert "I cannot DM you" in table.embeds[0].description
    private = await bob.click(table, label="Bid privately")
    panels = [m for m in [private.response, *private.followups] if m and m.ephemeral]
    panel = next(m for m in panels if "Pick your bid" in m.content)
    answered(await bob.click(panel.message, label="4"))
    await bid_by_dm(alice, 1)
    state = (await simcord_env.bot.tables.snapshot(1)).state
    assert (state.strength[alice.id], state.strength[bob.id]) == (21, 21)
    for message in visible_to(world, alice):
        assert (
            "Pick your bid" not in message.content or message.channel.id == alice.user.dm_channel.id
        )


async def test_restart_between_the_two_bids_keeps_the_first(simcord_env, bot_factory):
    world = await make_world(simcord_env, "alice", "bob")
    alice, bob = world["alice"], world["bob"]
    await started_duel(world)
    await bid_by_dm(alice, 5)
    await simcord_env.bot.close()
    await simcord_env.restart_bot(bot_factory())
    await bid_by_dm(bob, 2)  # the DM drawn before the restart still works
    state = (await simcord_env.bot.tables.snapshot(1)).state
    assert state.round == 2
    assert (state.strength[alice.id], state.strength[bob.id]) == (20, 20)


async def test_a_deadline_counts_missing_bids_as_zero(simcord_env):
    world = await make_world(simcord_env, "alice", "bob")
    alice, bob = world["alice"], world["bob"]
    await started_duel(world, round_seconds=60)
    await bid_by_dm(alice, 2)
    await simcord_env.advance_time(61)
    state = (await simcord_env.bot.tables.snapshot(1)).state
    assert (state.strength[alice.id], state.strength[bob.id]) == (23, 22)
    assert "(default)" in world.channel.last_message.embeds[0].description
    assert "round 2" in bob.user.dm_channel.last_message.content


async def test_bad_input_is_refused_privately_and_changes_nothing(simcord_env):
    world = await make_world(simcord_env, "alice", "bob", "dave")
    alice, bob, dave = world["alice"], world["bob"], world["dave"]
    assert "yourself" in refusal(
        await alice.slash(world.channel, "duel challenge", member=alice, stake=5)
    )
    robot = world.guild.add_member(simcord_env.create_user("robot", bot=True))
    assert "Bots" in refusal(
        await alice.slash(world.channel, "duel challenge", member=robot, stake=5)
    )
    assert "cannot cover" in refusal(
        await alice.slash(world.channel, "duel challenge", member=bob, stake=5000)
    )
    table = await challenge(world, alice, bob, mode="forbidden")
    assert "challenge is for" in refusal(await alice.click(table, label="Accept"))
    assert "challenge is for" in refusal(await dave.click(table, label="Accept"))
    answered(await bob.click(table, label="Accept"))

    forbid_panel = alice.user.dm_channel.last_message
    answered(await alice.user.click(forbid_panel, label="4"))
    await bob.user.click(bob.user.dm_channel.last_message, label="0")
    panel = alice.user.dm_channel.last_message
    before = await simcord_env.bot.tables.snapshot(1)
    shown = await alice.user.click(panel, label="Other amount…")
    assert "forbidden" in refusal(await alice.user.submit_modal(shown, {"amount": "4"}))
    shown = await alice.user.click(panel, label="Other amount…")
    assert "strength" in refusal(await alice.user.submit_modal(shown, {"amount": "51"}))
    shown = await alice.user.click(panel, label="Other amount…")
    assert "whole number" in refusal(await alice.user.submit_modal(shown, {"amount": "-3"}))
    shown = await alice.user.click(panel, label="Other amount…")
    assert "whole number" in refusal(await alice.user.submit_modal(shown, {"amount": "lots"}))
    assert "not in this duel" in refusal(
        await dave.click(world.channel.last_message, label="Bid privately")
    )
    after = await simcord_env.bot.tables.snapshot(1)
    assert after.row.version == before.row.version and after.state == before.state

    private = await alice.click(world.channel.last_message, label="Bid privately")
    old_panel = next(m for m in [private.response, *private.followups] if m and m.ephemeral)
    await alice.user.click(panel, label="1")
    await bob.user.click(bob.user.dm_channel.last_message, label="1")
    # The DM panel now shows round 2; a panel drawn in round 1 is stale.
    assert "moment has passed" in refusal(await alice.click(old_panel.message, label="2"))


async def test_an_unanswered_challenge_expires_with_a_refund(simcord_env):
    world = await make_world(simcord_env, "alice", "bob")
    await challenge(world, world["alice"], world["bob"], stake=100)
    assert await wallet(world, world["alice"]) == 900
    await simcord_env.advance_time(301)
    assert await wallet(world, world["alice"]) == 1000
    assert "closed" in world.channel.last_message.embeds[0].title


async def test_decline_refunds_the_challenger(simcord_env):
    world = await make_world(simcord_env, "alice", "bob")
    table = await challenge(world, world["alice"], world["bob"], stake=100)
    answered(await world["bob"].click(table, label="Decline"))
    assert await wallet(world, world["alice"]) == 1000


# --------------------------------------------------------------------------- one DM panel


def dm_messages(member) -> list:
    """What the member sees in their DMs from the bot (ephemeral answers excluded)."""
    return member.user.dm_channel.history()


def dm_edits(env, member) -> int:
    path = f"/channels/{member.user.dm_channel.id}/messages/"
    return sum(1 for r in env.http_requests if r.method == "PATCH" and path in r.path)


def duel_ui(env):
    return env.bot.table_hub.games["strength_duel"]


async def test_one_dm_panel_per_player_is_edited_every_round_and_ends_with_the_result(
    simcord_env,
):
    world = await make_world(simcord_env, "alice", "bob")
    alice, bob = world["alice"], world["bob"]
    await started_duel(world)
    panels = {m: dm_messages(m) for m in (alice, bob)}
    assert all(len(found) == 1 for found in panels.values())
    ids = {m: found[0].id for m, found in panels.items()}
    for number, (a_bid, b_bid) in enumerate(SAMPLE_GAME, start=1):
        await bid_by_dm(alice, a_bid)
        await bid_by_dm(bob, b_bid)
        for member in (alice, bob):
            (panel,) = dm_messages(member)  # still one message, never a second DM
            assert panel.id == ids[member]
            assert f"Round {number} revealed" in panel.content
            if number < len(SAMPLE_GAME):
                assert f"round {number + 1}." in panel.content and "Pick your bid" in panel.content
    for member in (alice, bob):
        (panel,) = dm_messages(member)
        assert "over" in panel.content and "wins the pot of 20" in panel.content
        assert panel.components == [], "the finished panel keeps no buttons"
        assert dm_edits(simcord_env, member) >= len(SAMPLE_GAME)
    assert duel_ui(simcord_env).panels.closed(1) == frozenset()


async def test_a_restart_mid_game_keeps_editing_the_same_dm(simcord_env, bot_factory):
    world = await make_world(simcord_env, "alice", "bob")
    alice, bob = world["alice"], world["bob"]
    await started_duel(world)
    await bid_by_dm(alice, 3)
    await bid_by_dm(bob, 2)
    ids = {m: dm_messages(m)[0].id for m in (alice, bob)}
    await simcord_env.bot.close()
    await simcord_env.restart_bot(bot_factory())
    await bid_by_dm(alice, 1)
    await bid_by_dm(bob, 4)
    for member in (alice, bob):
        (panel,) = dm_messages(member)
        assert panel.id == ids[member]
        assert "round 3." in panel.content and "Round 2 revealed" in panel.content
    state = (await simcord_env.bot.tables.snapshot(1)).state
    assert (state.strength[alice.id], state.strength[bob.id]) == (18, 16)


async def test_the_closed_dm_marker_survives_a_restart_and_goes_with_the_table(
    simcord_env, bot_factory
):
    from bot.storage import panels as stored_panels

    world = await make_world(simcord_env, "alice", "bob")
    alice, bob = world["alice"], world["bob"]
    close_dms(simcord_env, bob)
    await started_duel(world)
    assert "I cannot DM you" in world.channel.last_message.embeds[0].description
    await simcord_env.bot.close()
    await simcord_env.restart_bot(bot_factory())
    assert duel_ui(simcord_env).panels.closed(1) == {bob.id}
    await bid_by_dm(alice, 5)  # redraws the table: the 📪 note must still be there
    description = world.channel.last_message.embeds[0].description
    assert "✅ has bid" in message_text(world.channel.last_message)
    assert "I cannot DM you" in description and "Bid privately" in message_text(
        world.channel.last_message
    )
    private = await bob.click(world.channel.last_message, label="Bid privately")
    panel = next(m for m in [private.response, *private.followups] if m and m.ephemeral)
    shown = answered(await bob.click(panel.message, label="Other amount…"))
    answered(await bob.submit_modal(shown, {"amount": "25"}))  # bob at 0 loses at once
    snapshot = await simcord_env.bot.tables.snapshot(1)
    assert snapshot.state.finished and snapshot.state.winner == alice.id
    assert duel_ui(simcord_env).panels.closed(1) == frozenset()
    async with simcord_env.bot.db.reading() as tx:
        assert await stored_panels.panels(tx, 1) == []
    assert "I cannot DM you" not in world.channel.last_message.embeds[0].description
    assert "wins the pot" in dm_messages(alice)[0].content


async def test_a_moderator_abort_returns_stakes_and_shows_in_the_panels(simcord_env):
    from bot.games.strength_duel import Aborted

    world = await make_world(simcord_env, "alice", "bob")
    alice, bob = world["alice"], world["bob"]
    await started_duel(world)
    await bid_by_dm(alice, 7)
    # The table service gates who may end a started table (and sends the engine Abort);
    # the UI must show what the engine decided.
    outcome = await simcord_env.bot.tables.cancel(1, Actor(world.moderator.id, True))
    assert any(isinstance(event, Aborted) for event in outcome.events)
    await duel_ui(simcord_env).after(outcome, None)
    await simcord_env.bot.table_hub.refresh(1)
    assert await wallet(world, alice) == 1000 and await wallet(world, bob) == 1000
    public = world.channel.last_message.embeds[0].description
    assert "Stopped" in public and "every stake went back" in public
    for member in (alice, bob):
        (panel,) = dm_messages(member)
        assert f"Stopped by <@{world.moderator.id}>**" in panel.content
        assert panel.components == [] and "every stake went back" in panel.content
    for message in visible_to(world, bob):
        assert not re.search(r"\b7\b", NOISE.sub("", message_text(message)))


# --------------------------------------------------------------------------- challenges


async def test_three_and_tag_open_a_lobby_without_a_member(simcord_env):
    world = await make_world(simcord_env, "alice", "bob", "carol", "dave")
    alice = world["alice"]
    result = answered(await alice.slash(world.channel, "duel challenge", stake=5, mode="tag"))
    lobby = result.response.message
    text = message_text(lobby)
    assert "seats 1–2" in text and "seats 3–4" in text and "open seat" in text
    for name in ("bob", "carol", "dave"):
        answered(await world[name].click(lobby, label="Join"))
    lobby = world.channel.last_message
    description = lobby.embeds[0].description
    ids = [world[n].id for n in ("alice", "bob", "carol", "dave")]
    assert f"<@{ids[0]}> & <@{ids[1]}>" in description
    assert f"<@{ids[2]}> & <@{ids[3]}>" in description
    answered(await alice.click(lobby, label="Start"))
    for name in ("alice", "bob", "carol", "dave"):
        (panel,) = dm_messages(world[name])  # one panel each, resting ninjas too
        resting = name in ("bob", "dave")
        assert ("resting this round" in panel.content) is resting
        assert ("Pick your bid" in panel.content) is not resting
    # Three players: a lobby too, in another channel.
    other = world.guild.create_text_channel("three")
    result = answered(await world["bob"].slash(other, "duel challenge", stake=5, mode="three"))
    assert "lobby" in result.response.message.embeds[0].title


async def test_a_duel_needs_a_member_and_a_group_mode_refuses_one(simcord_env):
    world = await make_world(simcord_env, "alice", "bob")
    alice, bob = world["alice"], world["bob"]
    for mode in ("duel", "forbidden"):
        text = refusal(await alice.slash(world.channel, "duel challenge", stake=5, mode=mode))
        assert "needs a `member`" in text
    text = refusal(
        await alice.slash(world.channel, "duel challenge", stake=5, mode="three", member=bob)
    )
    assert "anyone can join" in text and "leave out `member`" in text
    assert world.channel.last_message is None or not world.channel.last_message.embeds
    assert await wallet(world, alice) == 1000


async def test_no_fair_dice_footer_on_a_duel_table(simcord_env):
    world = await make_world(simcord_env, "alice", "bob")
    lobby = await challenge(world, world["alice"], world["bob"])
    assert "dice" not in message_text(lobby).lower()
    await world["bob"].click(lobby, label="Accept")
    assert "dice" not in message_text(world.channel.last_message).lower()


async def test_the_table_says_has_chosen_while_forbidden_numbers_are_picked(simcord_env):
    world = await make_world(simcord_env, "alice", "bob")
    alice, bob = world["alice"], world["bob"]
    await started_duel(world, mode="forbidden")
    answered(await alice.user.click(alice.user.dm_channel.last_message, label="4"))
    text = message_text(world.channel.last_message)
    assert "✅ has chosen" in text and "⏳ choosing" in text and "has bid" not in text
    (mine,) = dm_messages(alice)  # her own panel, edited: the number instead of buttons
    assert "your forbidden number is **4**" in mine.content and mine.components == []
    (theirs,) = dm_messages(bob)
    assert "pick your secret forbidden number" in theirs.content and theirs.components
    # Bob's own DM panel has buttons 0–5; everything public must not name alice's 4.
    for message in world.channel.history(viewer=bob):
        assert not re.search(r"\b4\b", NOISE.sub("", message_text(message)))


async def test_a_superscript_bid_is_refused_privately(simcord_env):
    world = await make_world(simcord_env, "alice", "bob")
    alice = world["alice"]
    await started_duel(world)
    before = await simcord_env.bot.tables.snapshot(1)
    panel = alice.user.dm_channel.last_message
    for typed in ("²", "1²", "٣", "3.5"):
        shown = answered(await alice.user.click(panel, label="Other amount…"))
        assert "not a whole number" in refusal(
            await alice.user.submit_modal(shown, {"amount": typed})
        )
    after = await simcord_env.bot.tables.snapshot(1)
    assert after.row.version == before.row.version and after.state == before.state
