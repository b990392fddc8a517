"""Honours read from a finished game (``Engine.honours_at_end``): Hazard's nick on the first
throw, Fortunes and Winds rolled, a Strength Duel won with no strength left; and the table
service booking them in the winner's stats once the table finishes."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.games import fortunes_winds, hazard, strength_duel
from bot.games.dice import ScriptedDice
from bot.service import Actor
from tests.platform._helpers import open_services
from tests.support import coinflip


def test_a_nick_earns_its_caster_the_honour() -> None:
    events = [
        {"kind": "main_called", "caster": 5, "main": 7},
        {"kind": "thrown", "caster": 5, "outcome": "chance", "total": 4},
        {"kind": "thrown", "caster": 5, "outcome": "win", "total": 4},
        {"kind": "thrown", "caster": 6, "outcome": "nick", "total": 11},
        {"kind": "thrown", "caster": 6, "outcome": "out", "total": 2},
        {"kind": "thrown", "caster": 6, "outcome": "nick", "total": 7},
    ]
    state = hazard.start(hazard.Rules(), [5, 6], ScriptedDice())
    assert hazard.ENGINE.honours_at_end(state, events) == [
        (6, hazard.NICK_HONOUR),
        (6, hazard.NICK_HONOUR),
    ], "a chance won later is no nick; each nick counts"


def test_fortunes_and_winds_rolled_earns_the_shooter_the_honour() -> None:
    events = [
        {"kind": "rolled", "shooter": 3, "result": None},
        {"kind": "rolled", "shooter": 3, "result": "moon"},
        {"kind": "rolled", "shooter": 4, "result": "fortunes_and_winds"},
    ]
    state = fortunes_winds.start(fortunes_winds.Rules(), [3, 4], ScriptedDice())
    assert fortunes_winds.ENGINE.honours_at_end(state, events) == [
        (4, fortunes_winds.FORTUNES_AND_WINDS_HONOUR)
    ]


@pytest.mark.parametrize(
    ("winner", "strength", "draw", "aborted", "honoured"),
    [
        (1, {1: 0, 2: 0}, False, False, [1]),
        (1, {1: 3, 2: 0}, False, False, []),
        (None, {1: 0, 2: 0}, True, False, []),
        (None, {1: 0, 2: 5}, False, True, []),
    ],
)
def test_a_duel_won_with_no_strength_left(winner, strength, draw, aborted, honoured) -> None:
    state = strength_duel.start(strength_duel.Rules(stake=10), [1, 2], ScriptedDice())
    final = state.model_copy(
        update={
            "finished": True,
            "winner": winner,
            "strength": strength,
            "draw": draw,
            "aborted": aborted,
            "pot_to": [winner] if winner else [],
        }
    )
    found = strength_duel.ENGINE.honours_at_end(final, [])
    assert found == [(p, strength_duel.EMPTY_HANDED_HONOUR) for p in honoured]


async def test_the_table_books_an_engines_honours_at_the_end(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def lucky(self, state, events):  # the winner's call, read from the final state
        return [(state.winner, "Lucky call")] if state.winner else []

    monkeypatch.setattr(coinflip.CoinflipEngine, "honours_at_end", lucky)
    dice = ScriptedDice(rolls=[1])
    made = await open_services(tmp_path / "t.db", dice_factory=lambda row: dice)
    try:
        tables = made.tables
        opened = await tables.open(
            guild_id=9, channel_id=8, game="coinflip", host_id=5, rules=coinflip.Rules(stake=10)
        )
        table = opened.snapshot.id
        await tables.join(table, Actor(6))
        await tables.start(table, Actor(5))
        await tables.act(table, Actor(5), coinflip.Call(side="heads"))
        assert (await tables.snapshot(table)).state.winner == 5
        assert (await tables.stats(9, 5))[("coinflip", "Lucky call")] == 1
        assert ("coinflip", "Lucky call") not in await tables.stats(9, 6)
        await tables.scheduler.stop()
    finally:
        await made.db.close()


async def test_stats_rows_are_bumped_in_one_order_whatever_the_seats(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Member, then stat: two tables with the same players ending at once on PostgreSQL
    must not take their stats rows' locks in opposite orders (a deadlock ends one)."""
    from bot.storage import table_queries as tq

    order: list[tuple[int, str]] = []
    original = tq.bump_stat

    async def noting(tx, guild_id, user_id, game, stat, delta):  # type: ignore[no-untyped-def]
        order.append((user_id, stat))
        await original(tx, guild_id, user_id, game, stat, delta)

    monkeypatch.setattr(tq, "bump_stat", noting)
    dice = ScriptedDice(rolls=[1])
    made = await open_services(tmp_path / "t.db", dice_factory=lambda row: dice)
    try:
        tables = made.tables
        # The host sits first: seat order 9, then 4.
        opened = await tables.open(
            guild_id=9, channel_id=8, game="coinflip", host_id=9, rules=coinflip.Rules(stake=10)
        )
        table = opened.snapshot.id
        await tables.join(table, Actor(4))
        await tables.start(table, Actor(9))
        await tables.act(table, Actor(9), coinflip.Call(side="heads"))
        assert (await tables.snapshot(table)).state.finished
        await tables.scheduler.stop()
    finally:
        await made.db.close()
    assert order == sorted(order) and {user for user, _ in order} == {4, 9}
