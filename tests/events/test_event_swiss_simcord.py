"""The issue's Swiss event, end to end through Discord: 8 entrants, 3 rounds of the
Strength Duel; one entrant never shows at their first table and loses it by the table's own
deadlines, one drops during round 1 (so rounds 2 and 3 have a bye), and the bot restarts in
the middle of round 2. Pairings never repeat, the standings and their tie breaks equal a
hand computation, the prizes are paid by the split, and the books balance throughout."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from bot.events import TableResult
from tests.events.event_sim import (
    bid,
    books_balanced,
    event_tables,
    join_all,
    open_event,
    play_duel,
    start_event,
)
from tests.support.sim import answered, make_world, wallet

NAMES = ("p0", "p1", "p2", "p3", "p4", "p5", "p6", "p7")
FEE, PRIZE = 100, 200


def strength_order(world: Any) -> dict[int, int]:
    """Who beats whom: the lower index in NAMES wins every game it plays."""
    return {world[name].id: index for index, name in enumerate(NAMES)}


async def play_no_show(world: Any, table_id: int, present: int) -> None:
    """The absent player never bids: the present one bids 1 a round and the table's own
    round deadline passes, until the table ends."""
    bot = world.env.bot
    for _ in range(10):
        if (await bot.tables.snapshot(table_id)).state.finished:
            return
        await bid(world, present, 1)
        await world.env.advance_time(61)
    raise AssertionError("the no-show's table never ended")


async def play_round(world: Any, tables: list[Any], order: dict[int, int], no_show: int) -> None:
    for snapshot, _posted in tables:
        if not snapshot.row.live:
            continue
        seats = snapshot.state.seats
        if no_show in seats:
            await play_no_show(world, snapshot.id, next(s for s in seats if s != no_show))
            continue
        await play_duel(world, snapshot.id, min(seats, key=order.__getitem__))


def game_points(result: TableResult, player: int) -> Fraction:
    """1 for a bye or a win, ½ for a draw, 0 for a loss (two seats)."""
    if len(result.players) == 1:
        return Fraction(1)
    place = result.places[result.players.index(player)]
    if result.places.count(1) == 2:
        return Fraction(1, 2)
    return Fraction(1) if place == 1 else Fraction(0)


def hand_standings(
    members: list[int], results: list[TableResult]
) -> dict[int, tuple[Fraction, Fraction, Fraction]]:
    """Points, Buchholz and Sonneborn-Berger by the book, for two-seat games: an unplayed
    game (a bye, either side of a forfeit) counts against a virtual opponent with the
    player's own final score."""
    score = {m: Fraction(0) for m in members}
    for result in results:
        for player in result.players:
            score[player] += game_points(result, player)
    buchholz = {m: Fraction(0) for m in members}
    sb = {m: Fraction(0) for m in members}
    for result in results:
        unplayed = len(result.players) == 1 or bool(result.forfeit_losers)
        for player in result.players:
            opponent = next((p for p in result.players if p != player), player)
            opponent_score = score[player] if unplayed else score[opponent]
            buchholz[player] += opponent_score
            sb[player] += game_points(result, player) * opponent_score
    return {m: (score[m], buchholz[m], sb[m]) for m in members}


@pytest.mark.simcord(settle_timeout=0.5)
async def test_eight_entrant_swiss_with_a_no_show_a_drop_a_bye_and_a_restart(
    simcord_env, bot_factory
):
    world = await make_world(simcord_env, *NAMES)
    order = strength_order(world)
    members = [world[name] for name in NAMES]
    ids = [m.id for m in members]
    no_show, dropper = world["p7"].id, world["p6"].id
    message = await open_event(world, fee=FEE, prize=PRIZE, rounds=3, split="50/30/20")
    await join_all(world, message, members)
    await books_balanced(world)
    await start_event(world, message)

    # Round 1: the dropper's table first, then they drop while the round goes on.
    tables = await event_tables(world)
    assert len(tables) == 4
    ordered = sorted(tables, key=lambda t: dropper not in t[0].state.seats)
    await play_round(world, ordered[:1], order, no_show)
    answered(await world["p6"].slash(world.channel, "event drop"))
    await play_round(world, ordered[1:], order, no_show)
    await books_balanced(world)

    # Round 2: 7 playing, so a bye; the bot restarts after the first table.
    view = await simcord_env.bot.events.view(1)
    assert view.row.round == 2
    round_two = [g for g in view.games if g.round == 2]
    assert sum(g.is_bye for g in round_two) == 1 and len(round_two) == 4
    assert all(dropper not in g.players for g in round_two)
    tables = [t for t in await event_tables(world) if t[0].row.live]
    await play_round(world, tables[:1], order, no_show)
    await simcord_env.bot.close()
    await simcord_env.restart_bot(bot_factory())
    await play_round(world, tables[1:], order, no_show)
    await books_balanced(world)

    # Round 3, then the end.
    view = await simcord_env.bot.events.view(1)
    assert view.row.round == 3
    tables = [t for t in await event_tables(world) if t[0].row.live]
    assert len(tables) == 3
    await play_round(world, tables, order, no_show)
    view = await simcord_env.bot.events.view(1)
    assert view.row.status == "finished"

    # Pairings never repeat; byes go to different players.
    met = [frozenset(g.players) for g in view.games if not g.is_bye]
    assert len(met) == len(set(met)) == 4 + 3 + 3
    byes = [g.players[0] for g in view.games if g.is_bye]
    assert len(byes) == len(set(byes)) == 2
    # The no-show's first game was a forfeit, read from the table.
    first = next(r for r in view.results if no_show in r.players and r.round == 1)
    assert first.forfeit_losers == (no_show,)

    # Standings and tie breaks equal the hand computation.
    hand = hand_standings(ids, list(view.results))
    shown = {row.member: (row.points, row.buchholz, row.sonneborn_berger) for row in view.swiss}
    assert shown == hand
    # Then the skill rating (the event's own tables rated them), then the member id.
    rating = {row.member: row.rating for row in view.swiss}
    ranked = sorted(ids, key=lambda m: (*(-value for value in hand[m]), -rating[m], m))
    assert [row.member for row in view.swiss] == ranked
    # The top three stand apart, so the pool pays 50/30/20 exactly.
    pool = FEE * 8 + PRIZE
    assert len({hand[m] for m in ranked[:4]}) == 4
    assert view.prizes == {ranked[0]: pool // 2, ranked[1]: pool * 3 // 10, ranked[2]: pool // 5}
    for member in members:
        expected = 1000 - FEE + view.prizes.get(member.id, 0)
        assert await wallet(world, member) == expected
    await books_balanced(world)
    finals = [m for m in world.channel.history() if "is over" in (m.content or "")]
    assert len(finals) == 1 and str(pool // 2) in finals[0].content
