"""A 3-seat Nuki Hachi-hachi event: six entrants, two Swiss rounds of tables of three formed
by score, each table's places read from its match points, the points of a table of three
(1, ½, 0), the prize paid. The moves are the engine's own legal ones, made through the
table service (a Hachi-hachi match is long to click through); the event runs through
Discord."""

from __future__ import annotations

from fractions import Fraction

import pytest

from bot.games import hachihachi
from bot.service import Actor
from tests.events.event_sim import (
    books_balanced,
    event_tables,
    join_all,
    open_event,
    start_event,
    until_round,
)
from tests.support.sim import make_world, pinged

NAMES = ("h0", "h1", "h2", "h3", "h4", "h5")


async def play_out(bot, table_id: int) -> None:
    """Every decision the first legal one, until the match ends."""
    for _ in range(2000):
        state = (await bot.tables.snapshot(table_id)).state
        if state.finished:
            return
        player = bot.registry.get("hachihachi").engine.waiting_on(state)[0]
        # The last legal action: play rather than drop out, so every round is played.
        action = hachihachi.legal_actions(state, player)[-1]
        await bot.tables.act(table_id, Actor(player), action)
    raise AssertionError("the match did not end")


def hand_points(results) -> dict[int, Fraction]:
    """At a table of three: against each other player, 1 for finishing ahead, ½ level, 0
    behind; a table's points are the mean of those (1, ½, 0 with no tie)."""
    total: dict[int, Fraction] = {}
    for result in results:
        for player, place in zip(result.players, result.places, strict=True):
            others = [
                other for p, other in zip(result.players, result.places, strict=True) if p != player
            ]
            against = [
                Fraction(1) if place < o else Fraction(1, 2) if place == o else Fraction(0)
                for o in others
            ]
            total[player] = total.get(player, Fraction(0)) + sum(against) / len(against)
    return total


@pytest.mark.simcord(settle_timeout=0.5)
async def test_a_three_seat_hachihachi_event_forms_tables_by_score(simcord_env):
    world = await make_world(simcord_env, *NAMES)
    bot = simcord_env.bot
    message = await open_event(
        world,
        game="hachihachi",
        rounds=2,
        fee=30,
        split="100",
        options="seats=3; rounds=1; first_dealer=first_seat",
    )
    await join_all(world, message, [world[name] for name in NAMES])
    await start_event(world, message)
    first = await event_tables(world)
    assert [len(t[0].state.seats) for t in first] == [3, 3]
    for snapshot, posted in first:
        assert sorted(pinged(simcord_env, posted)) == sorted(snapshot.state.seats)
        await play_out(bot, snapshot.id)
    view = await until_round(world, 1, 2)
    assert view.row.round == 2
    after_one = {row.member: row.points for row in view.swiss}
    assert after_one == hand_points(view.results)
    second = [t for t in await event_tables(world) if t[0].row.live]
    assert len(second) == 2
    # Formed by score: the two round winners sit at the same table.
    winners = {m for m, points in after_one.items() if points == 1}
    if len(winners) == 2:
        assert any(winners <= set(t[0].state.seats) for t in second)
    for snapshot, _posted in second:
        await play_out(bot, snapshot.id)
    view = await until_round(world, 1)
    assert view.row.status == "finished"
    assert sum(view.prizes.values()) == 6 * 30
    assert {row.member: row.points for row in view.swiss} == hand_points(view.results)
    for result in view.results:
        state = (await bot.tables.snapshot(result.table_id)).state
        best = max(state.scores.values())
        assert {
            p for p, place in zip(result.players, result.places, strict=True) if place == 1
        } == {p for p in result.players if state.scores[p] == best}
    await books_balanced(world)
