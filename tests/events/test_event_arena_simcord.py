"""An arena on the virtual clock: a player whose table ends is paired again at once, entry
stays open while it runs, points as Lichess counts them (win 2, a streak doubles), and
once its time is up the tables in play finish and the prizes are paid."""

from __future__ import annotations

import pytest

from bot.errors import NotAllowed
from tests.events.event_sim import (
    books_balanced,
    event_message,
    event_tables,
    join_all,
    open_event,
    play_duel,
    start_event,
)
from tests.support.sim import answered, make_world, message_text, wallet


def lichess_points(results, member):
    """Win 2, draw 1, loss 0; after two wins in a row every game counts double until one
    is not a win."""
    total, wins_in_a_row = 0, 0
    for result in results:
        if member not in result.players:
            continue
        place = result.places[result.players.index(member)]
        won = place == 1 and result.places.count(1) == 1
        drew = result.places.count(1) > 1 and place == 1
        base = 2 if won else 1 if drew else 0
        total += base * (2 if wins_in_a_row >= 2 else 1)
        wins_in_a_row = wins_in_a_row + 1 if won else 0
    return total


@pytest.mark.simcord(settle_timeout=0.5)
async def test_an_arena_pairs_again_at_once_counts_streaks_and_ends_on_time(simcord_env):
    world = await make_world(simcord_env, "ann", "ben", "cal")
    ann, ben, cal = world["ann"], world["ben"], world["cal"]
    message = await open_event(
        world, format="arena", minutes=10, fee=20, options="round_seconds=3600", split="100"
    )
    await join_all(world, message, [ann, ben])
    await start_event(world, message)
    bot = simcord_env.bot

    # Ann wins two: each end pairs the two again at once.
    for _ in range(2):
        live = [t for t in await event_tables(world) if t[0].row.live]
        assert len(live) == 1
        await play_duel(world, live[0][0].id, ann.id)
    # Entry stays open: Cal joins, waits for a free player, and is paired when one is.
    answered(await cal.click(await event_message(world), label="Join"))
    live = [t for t in await event_tables(world) if t[0].row.live]
    assert len(live) == 1 and cal.id not in live[0][0].state.seats
    await play_duel(world, live[0][0].id, ann.id)  # a third win in a row: on a streak
    live = [t for t in await event_tables(world) if t[0].row.live]
    assert len(live) == 1 and cal.id in live[0][0].state.seats

    # Time is up: the table in play finishes, nothing new opens, the arena ends.
    await simcord_env.advance_time(601)
    with pytest.raises(NotAllowed, match="time is up"):
        await bot.events.join(1, world.moderator.id)
    await play_duel(world, live[0][0].id, cal.id)
    view = await bot.events.view(1)
    assert view.row.status == "finished"
    assert not [t for t in await event_tables(world) if t[0].row.live]
    shown = {row.member: row.points for row in view.arena}
    assert shown == {m: lichess_points(view.results, m) for m in (ann.id, ben.id, cal.id)}
    assert shown[ann.id] == 2 + 2 + 4  # two wins, then a win on a streak counts double
    assert view.arena[0].member == ann.id
    assert view.prizes == {ann.id: 60}
    assert await wallet(world, ann) == 1000 - 20 + 60
    assert "Finished" in message_text(await event_message(world))
    await books_balanced(world)
