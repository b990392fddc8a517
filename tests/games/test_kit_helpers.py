"""The kit's helpers that the betting games share: the action union where a bet kind names
the Bet, the seated player's move, and the check of a newcomer's seat."""

from __future__ import annotations

from typing import Literal

import pytest
from pydantic import BaseModel, TypeAdapter

from bot.games import fortunes_winds, hazard
from bot.games.common import HOUSE
from bot.games.dice import ScriptedDice
from bot.games.errors import IllegalMove
from bot.games.kit import NOT_SEATED_JOIN_FIRST, bet_kind_union, check_join, seated_move
from bot.i18n import N_


class Bet(BaseModel):
    kind: Literal["red", "black"]
    amount: int


class Spin(BaseModel):
    kind: Literal["spin"] = "spin"


class Table(BaseModel):
    seats: list[int]


def union(legacy_key: str | None = None) -> TypeAdapter[Bet | Spin]:
    return TypeAdapter(
        bet_kind_union((Bet, Spin), bet=Bet, bet_kinds=("red", "black"), legacy_key=legacy_key)
    )


def test_a_bet_kind_names_the_bet_and_every_other_kind_its_action() -> None:
    parse = union()
    assert parse.validate_python({"kind": "black", "amount": 3}) == Bet(kind="black", amount=3)
    assert parse.validate_python({"kind": "spin"}) == Spin()
    with pytest.raises(ValueError):
        parse.validate_python({"kind": "green", "amount": 3})


def test_an_older_logs_key_is_read_only_when_kind_is_absent() -> None:
    assert union("action").validate_python({"action": "spin"}) == Spin()
    with pytest.raises(ValueError):
        union().validate_python({"action": "spin"})


def test_the_games_parse_their_logged_bets_through_it() -> None:
    assert hazard.parse_action({"kind": "against", "amount": 4}) == hazard.Bet(
        kind="against", amount=4
    )
    assert hazard.parse_action({"action": "throw"}) == hazard.Throw()
    assert fortunes_winds.parse_action({"kind": "tea", "amount": 2}) == fortunes_winds.Bet(
        kind="tea", amount=2
    )


def test_a_seated_move_refuses_the_table_and_outsiders_before_its_check() -> None:
    checked: list[int] = []
    move = seated_move(
        lambda state, player, action: checked.append(player),
        lambda s, player, action, dice: [],
        outsider=NOT_SEATED_JOIN_FIRST,
        table_only=N_("The table itself can only call time or close."),
    )
    table = Table(seats=[1, 2])
    with pytest.raises(IllegalMove, match="The table itself can only call time or close"):
        move.check(table, None, Spin())
    with pytest.raises(IllegalMove, match="You aren't seated at this table — join"):
        move.check(table, 3, Spin())
    assert checked == []
    move.check(table, 2, Spin())
    assert checked == [2]
    assert move.apply(table, 2, Spin(), ScriptedDice()) == []


@pytest.mark.parametrize(
    ("player", "reason"),
    [
        (None, "The table itself can only call time"),
        (HOUSE, "reserved for the bank"),
        (1, "already seated"),
        (4, r"This table is full \(3 seats\)"),
    ],
)
def test_a_newcomer_is_refused_a_seat_with_the_reason(player: int | None, reason: str) -> None:
    with pytest.raises(IllegalMove, match=reason):
        check_join(Table(seats=[1, 2, 3]), player, 3)


def test_a_newcomer_takes_a_free_seat() -> None:
    check_join(Table(seats=[1, 2]), 4, 3)
