"""An event in Japanese: at a Japanese server the moderator opens it, members join and play
its tables, and nobody reads English anywhere in the channel, their answers or their DMs:
the event message, its buttons, the tables the bot opens, the final message."""

from __future__ import annotations

import pytest

from tests.events.event_sim import books_balanced, event_message, event_tables, play_duel
from tests.support.japanese import english_in, make_japanese_world, texts_of
from tests.support.sim import answered, message_text

NAMES = ("alice", "bob")


@pytest.mark.simcord(settle_timeout=0.5)
async def test_an_event_in_japanese_reads_japanese_throughout(simcord_env, monkeypatch):
    world, _locales = await make_japanese_world(simcord_env, monkeypatch, *NAMES)
    alice, bob = world["alice"], world["bob"]
    seen = [
        answered(
            await world.moderator.slash(
                world.channel, "event open", game="strength_duel", rounds=1, fee=10, split="100"
            )
        )
    ]
    message = await event_message(world)
    assert "大会" in message_text(message) and "参加費" in message_text(message)
    seen.append(answered(await alice.click(message, label="参加")))
    seen.append(answered(await bob.click(message, label="参加")))
    seen.append(answered(await world.moderator.click(message, label="開始")))
    ((snapshot, posted),) = await event_tables(world)
    assert "大会の卓が開きました" in message_text(posted)
    await play_duel(world, snapshot.id, bob.id)
    seen.append(answered(await alice.slash(world.channel, "event standings", event=1)))
    seen.append(answered(await alice.slash(world.channel, "event history")))
    final = message_text(await event_message(world))
    assert "終了" in final and "順位" in final, final
    dms = [m for member in (alice, bob) for m in member.user.dm_channel.history()]
    shown = texts_of([*seen, *world.channel.history(), *dms])
    assert len(shown) > 10
    assert english_in(shown, names=NAMES) == []
    await books_balanced(world)
