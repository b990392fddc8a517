"""Tests of the Hazard engine: the outcome table, the dice, the bets, the odds, the table."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any, get_args

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, TypeAdapter

from bot.games import hazard as hz
from bot.games.common import HOUSE, Abort, Deadline, Permission
from bot.games.contract import Engine
from bot.games.dice import ScriptedDice
from bot.games.errors import IllegalMove
from bot.games.hazard import (
    Bet,
    CallMain,
    Close,
    Join,
    Leave,
    PassDice,
    Rules,
    State,
    Throw,
)

A, B, C = 101, 202, 303
OUTSIDER = 999

# The outcome table of the rules (o = throws out, N = nicks, C = chance), totals 2..12,
# written out independently of the engine.
TABLE = {
    5: "o o C N C C C C C o o",
    6: "o o C C N C C C C o N",
    7: "o o C C C N C C C N o",
    8: "o o C C C C N C C o N",
    9: "o o C C C C C N C o o",
}
EXPECTED = {"o": "out", "N": "nick", "C": "chance"}
CELLS = [
    (main, total, EXPECTED[cell])
    for main, row in TABLE.items()
    for total, cell in zip(range(2, 13), row.split(), strict=True)
]


# ----------------------------------------------------------------------- helpers


def pair(total: int) -> tuple[int, int]:
    """Two die faces making ``total`` (first die as small as possible)."""
    first = max(1, total - 6)
    return first, total - first


def table(players: Sequence[int] = (A, B, C), **rules: Any) -> State:
    # These tests are about the throws and the bets; the betting window (which holds the
    # throw after a main call) has its own tests in test_hazard_rulings.py.
    rules.setdefault("bet_seconds", 0)
    return hz.start(Rules(**rules), list(players), ScriptedDice())


def step(state: State, player: int | None, action: Any, *totals: int) -> tuple[State, list[Any]]:
    """Act with dice scripted to throw the given totals; every scripted die must be used."""
    dice = ScriptedDice([face for total in totals for face in pair(total)])
    before = state.model_dump_json()
    new, events = hz.act(state, player, action, dice)
    assert state.model_dump_json() == before, "act mutated its input"
    assert dice.remaining == 0, "not every scripted throw was used"
    return new, events


def play(state: State, *moves: tuple[int | None, Any] | tuple[int | None, Any, int]) -> State:
    for move in moves:
        state, _ = step(state, *move)
    return state


def illegal(state: State, player: int | None, action: Any, match: str | None = None) -> None:
    """The action is refused with a reason and changes nothing."""
    before = state.model_copy(deep=True)
    dump = state.model_dump_json()
    dice = ScriptedDice([1, 2, 3, 4, 5, 6])
    with pytest.raises(IllegalMove, match=match) as info:
        hz.act(state, player, action, dice)
    assert str(info.value).strip(), "the refusal must say why"
    assert state == before
    assert state.model_dump_json() == dump
    assert dice.remaining == 6, "a refused action must not throw"


def kinds(events: list[Any]) -> list[str]:
    return [event.kind for event in events]


def of(events: list[Any], kind: str) -> list[Any]:
    return [event for event in events if event.kind == kind]


def round_with(state: State, main: int, *totals: int) -> tuple[State, list[Any]]:
    """The caster calls ``main`` and throws ``totals`` one throw at a time."""
    state, events = step(state, state.caster, CallMain(main=main))
    for total in totals:
        state, more = step(state, state.caster, Throw(), total)
        events += more
    return state, events


def lose_round(state: State) -> State:
    return round_with(state, 7, 2)[0]


def win_round(state: State) -> State:
    return round_with(state, 7, 7)[0]


# ----------------------------------------------------------------- outcome table


@pytest.mark.parametrize(("main", "total", "expected"), CELLS)
def test_first_throw_outcome_table(main: int, total: int, expected: str) -> None:
    assert hz.first_throw_outcome(main, total) == expected
    state, events = round_with(table(), main, total)
    (thrown,) = of(events, "thrown")
    assert thrown.outcome == expected
    assert thrown.total == total
    assert thrown.dice == pair(total)
    assert state.last_throw == pair(total)
    if expected == "chance":
        assert state.chance == total
        assert state.main == main
        assert state.throws == 1
        assert not of(events, "round_ended")
    else:
        (ended,) = of(events, "round_ended")
        assert ended.won is (expected == "nick")
        assert state.round == 2
        assert state.main is None
        assert state.chance is None
        assert state.losses_in_a_row == (0 if expected == "nick" else 1)


def test_every_main_has_a_chance_and_outcomes_cover_all_totals() -> None:
    for main in hz.MAINS:
        outcomes = {hz.first_throw_outcome(main, total) for total in range(2, 13)}
        assert outcomes == {"nick", "out", "chance"}


# ------------------------------------------------------------------- chance loop


@pytest.mark.parametrize("main", hz.MAINS)
def test_chance_comes_first_and_caster_wins(main: int) -> None:
    chance = 4
    state, events = round_with(table(), main, chance, chance)
    assert [e.outcome for e in of(events, "thrown")] == ["chance", "win"]
    assert of(events, "round_ended")[0].won is True
    assert state.losses_in_a_row == 0


@pytest.mark.parametrize("main", hz.MAINS)
def test_main_after_a_chance_loses(main: int) -> None:
    # On the first throw the main nicks; with a chance set it loses.
    state, events = round_with(table(), main, 10, main)
    assert [e.outcome for e in of(events, "thrown")] == ["chance", "lose"]
    assert of(events, "round_ended")[0].won is False
    assert state.losses_in_a_row == 1


@pytest.mark.parametrize("total", [2, 3, 5, 6, 8, 9, 10, 11, 12])
def test_anything_else_throws_again(total: int) -> None:
    # main 7, chance 4: even the first throw's nicks (11) and outs (2, 3, 12) don't count.
    state, events = round_with(table(), 7, 4, total)
    assert [e.outcome for e in of(events, "thrown")] == ["chance", "again"]
    assert state.chance == 4
    assert state.main == 7
    assert state.throws == 2
    assert state.round == 1


def test_long_chance_loop_then_win() -> None:
    state, events = round_with(table(), 6, 9, 2, 3, 11, 12, 7, 8, 9)
    outcomes = [e.outcome for e in of(events, "thrown")]
    assert outcomes == ["chance"] + ["again"] * 6 + ["win"]
    assert state.round == 2
    assert state.ply == 1 + 8  # the main call and eight throws


# ---------------------------------------------------------------- keeping the dice


def test_three_losses_in_a_row_pass_the_dice() -> None:
    state = table()
    state = lose_round(state)
    state = lose_round(state)
    assert state.caster == A
    assert state.losses_in_a_row == 2
    state, events = round_with(state, 7, 12)
    assert kinds(events)[-1] == "dice_passed"
    passed = of(events, "dice_passed")[0]
    assert (passed.from_player, passed.to_player, passed.reason) == (A, B, "three_losses")
    assert state.caster == B
    assert state.losses_in_a_row == 0


def test_a_win_resets_the_losing_streak() -> None:
    state = table()
    state = lose_round(lose_round(state))
    state = win_round(state)
    assert state.losses_in_a_row == 0
    state = lose_round(lose_round(state))
    assert state.caster == A
    assert state.losses_in_a_row == 2
    state = lose_round(state)
    assert state.caster == B


def test_a_lost_chance_counts_as_a_loss_in_the_streak() -> None:
    state = table()
    state = lose_round(lose_round(state))
    state, _ = round_with(state, 5, 8, 5)
    assert state.caster == B


def test_dice_pass_wraps_round_the_table() -> None:
    state = table((A, B))
    for _ in range(3):
        state = lose_round(state)
    assert state.caster == B
    for _ in range(3):
        state = lose_round(state)
    assert state.caster == A


def test_voluntary_pass_before_first_round() -> None:
    state, events = step(table(), A, PassDice())
    assert state.caster == B
    assert of(events, "dice_passed")[0].reason == "voluntary"
    assert state.ply == 1


def test_voluntary_pass_after_a_win() -> None:
    state = lose_round(table())
    state = win_round(state)
    assert hz.can_pass_dice(state)
    state, _ = step(state, A, PassDice())
    assert state.caster == B
    assert state.losses_in_a_row == 0
    assert state.caster_rounds == 0


def test_voluntary_pass_after_calling_main_lapses_the_main() -> None:
    state = win_round(table())
    state, _ = step(state, A, CallMain(main=6))
    state, _ = step(state, A, PassDice())
    assert state.caster == B
    assert state.main is None


def test_voluntary_pass_returns_bets_for_the_coming_round() -> None:
    state = play(table(), (A, Bet(kind="caster", amount=5)), (B, Bet(kind="with", amount=7)))
    state, events = step(state, A, PassDice())
    returned = {(e.player, e.bet, e.amount) for e in of(events, "bet_returned")}
    assert returned == {(A, "caster", 5), (B, "with", 7)}
    assert state.stakes == {A: 0, B: 0, C: 0}
    assert state.bets == {}
    assert state.payouts == {HOUSE: 0, A: 0, B: 0, C: 0}


# ---------------------------------------------------------------------- betting


@pytest.mark.parametrize(
    ("main", "totals", "caster_won"),
    [(7, (7,), True), (7, (11,), True), (7, (3,), False), (6, (4, 4), True), (6, (4, 6), False)],
)
def test_even_money_bets_settle(main: int, totals: tuple[int, ...], caster_won: bool) -> None:
    state = play(
        table(),
        (A, Bet(kind="caster", amount=10)),
        (B, Bet(kind="with", amount=7)),
        (C, Bet(kind="against", amount=4)),
    )
    assert state.stakes == {A: 10, B: 7, C: 4}
    state, events = round_with(state, main, *totals)
    settled = {(e.player, e.bet): (e.won, e.net, e.amount) for e in of(events, "bet_settled")}
    sign = 1 if caster_won else -1
    assert settled == {
        (A, "caster"): (caster_won, sign * 10, 10),
        (B, "with"): (caster_won, sign * 7, 7),
        (C, "against"): (not caster_won, -sign * 4, 4),
    }
    assert state.payouts == {A: sign * 10, B: sign * 7, C: -sign * 4, HOUSE: -sign * 13}
    assert state.stakes == {A: 0, B: 0, C: 0}
    assert state.bets == {}


def test_odds_example_from_the_rules() -> None:
    # Main 7, chance 4: a 10-coin odds bet on the chance wins 20.
    state = play(
        table(), (A, Bet(kind="caster", amount=10)), (A, CallMain(main=7)), (A, Throw(), 4)
    )
    state, events = step(state, A, Bet(kind="odds_for", amount=10))
    assert of(events, "bet_placed")[0].total == 10
    assert state.stakes[A] == 20
    state, events = step(state, A, Throw(), 4)
    nets = {e.bet: e.net for e in of(events, "bet_settled")}
    assert nets == {"caster": 10, "odds_for": 20}
    assert state.payouts == {A: 30, B: 0, C: 0, HOUSE: -30}
    assert state.stakes[A] == 0


@pytest.mark.parametrize(
    ("main", "chance", "kind", "amount", "win"),
    [
        (7, 4, "odds_for", 10, 20),  # 6:3
        (7, 4, "odds_against", 10, 5),  # 3:6
        (6, 4, "odds_for", 10, 16),  # 5:3 → 16⅔, rounded down
        (6, 4, "odds_against", 10, 6),  # 3:5
        (6, 9, "odds_for", 10, 12),  # 5:4 → 12½
        (8, 5, "odds_against", 7, 5),  # 4:5 → 5⅗
        (5, 10, "odds_for", 5, 6),  # 4:3 → 6⅔
        (9, 6, "odds_against", 3, 3),  # 5:4 → 3¾
    ],
)
def test_odds_bets_pay_fair_odds_rounded_down(
    main: int, chance: int, kind: str, amount: int, win: int
) -> None:
    assert hz.odds_payout(kind, amount, main, chance) == win  # type: ignore[arg-type]
    state = play(table(), (B, Bet(kind="with", amount=amount)), (A, CallMain(main=main)))
    state, _ = step(state, A, Throw(), chance)
    state, _ = step(state, B, Bet(kind=kind, amount=amount))
    decider = chance if kind == "odds_for" else main
    state, events = step(state, A, Throw(), decider)
    odds_bet = next(e for e in of(events, "bet_settled") if e.bet == kind)
    assert (odds_bet.won, odds_bet.net) == (True, win)
    # The with-bet rides on the caster: it wins with the chance and loses with the main.
    with_net = amount if kind == "odds_for" else -amount
    assert state.payouts[B] == win + with_net
    assert state.payouts[HOUSE] == -state.payouts[B]


@pytest.mark.parametrize("kind", ["odds_for", "odds_against"])
def test_losing_odds_bet_loses_its_amount(kind: str) -> None:
    state = play(
        table(), (C, Bet(kind="against", amount=9)), (A, CallMain(main=7)), (A, Throw(), 4)
    )
    state, _ = step(state, C, Bet(kind=kind, amount=9))
    decider = 7 if kind == "odds_for" else 4
    state, events = step(state, A, Throw(), decider)
    odds_bet = next(e for e in of(events, "bet_settled") if e.bet == kind)
    assert (odds_bet.won, odds_bet.net) == (False, -9)


def test_odds_cap_is_a_multiple_of_the_original_stake_across_both_kinds() -> None:
    state = play(
        table(odds_max_multiple=2),
        (B, Bet(kind="with", amount=10)),
        (A, CallMain(main=7)),
        (A, Throw(), 5),
    )
    assert hz.odds_cap(state, B) == 20
    state = play(
        state, (B, Bet(kind="odds_for", amount=15)), (B, Bet(kind="odds_against", amount=5))
    )
    assert state.stakes[B] == 30
    illegal(state, B, Bet(kind="odds_for", amount=1), match="at most 20")


def test_bets_top_up_within_limits() -> None:
    state = play(
        table(max_stake=20), (B, Bet(kind="with", amount=8)), (B, Bet(kind="with", amount=12))
    )
    assert state.bets == {B: {"with": 20}}
    assert state.stakes[B] == 20
    illegal(state, B, Bet(kind="with", amount=1), match="maximum")


def test_betting_before_main_is_called_is_allowed() -> None:
    state = play(table(), (B, Bet(kind="against", amount=3)))
    assert state.main is None
    assert state.ply == 0  # placing a bet does not make buttons stale


# ------------------------------------------------------------------ exact odds


def test_exact_caster_odds() -> None:
    assert hz.odds(5).caster_wins == Fraction(1396, 2835)
    assert hz.odds(9).caster_wins == Fraction(1396, 2835)
    assert hz.odds(6).caster_wins == Fraction(6961, 14256)
    assert hz.odds(8).caster_wins == Fraction(6961, 14256)
    assert hz.odds(7).caster_wins == Fraction(244, 495)
    assert set(hz.odds_table()) == {5, 6, 7, 8, 9}
    for main, figures in hz.odds_table().items():
        assert figures.main == main
        assert figures.nick + figures.out + figures.chance == 1
        assert figures.caster_wins + figures.caster_loses == 1


def test_first_throw_probabilities_for_seven() -> None:
    figures = hz.odds(7)
    assert figures.nick == Fraction(8, 36)  # 7 (6 ways) and 11 (2 ways)
    assert figures.out == Fraction(4, 36)  # 2, 3 and 12
    assert figures.chance == Fraction(24, 36)


def test_bank_edges() -> None:
    seven = hz.odds(7)
    assert seven.edge("caster") == Fraction(7, 495)  # 1.41 %
    assert seven.edge("with") == Fraction(7, 495)
    # With the bar (default) a first throw of 2 pushes "against": 1/36 - 7/495.
    assert seven.edge("against") == Fraction(3, 220)  # 1.36 %
    assert seven.edge("odds_for") == 0
    assert seven.edge("odds_against") == 0
    six = hz.odds(6)
    assert six.edge("caster") == 1 - 2 * Fraction(6961, 14256)
    assert round(float(six.edge("caster")) * 100, 2) == 2.34
    # Without bar or commission, even money against would favour the player (issue 9).
    assert hz.odds(5, False, 0).edges["against"] == 2 * Fraction(1396, 2835) - 1
    assert all(figures.edge("against") < 0 for figures in hz.odds_table(False, 0).values())
    assert all(figures.edge("against") > 0 for figures in hz.odds_table().values())


def test_expected_throws() -> None:
    # Main 7 by hand: 1 first throw, plus for each chance c (ways w = 3, 4, 5, 5, 4, 3)
    # P(c) · 36/(w + 6) = w/(w + 6) more: 1 + 2·(3/9 + 4/10 + 5/11) = 557/165.
    assert hz.odds(7).expected_throws == Fraction(557, 165)
    assert hz.odds(5).expected_throws == hz.odds(9).expected_throws
    assert hz.odds(6).expected_throws == hz.odds(8).expected_throws
    assert all(f.expected_throws > 1 for f in hz.odds_table().values())


def test_odds_refuses_a_bad_main() -> None:
    with pytest.raises(ValueError):
        hz.odds(4)
    with pytest.raises(ValueError):
        hz.first_throw_outcome(10, 7)


def test_ways() -> None:
    assert [hz.ways(total) for total in range(1, 14)] == [0, 1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1, 0]


# ------------------------------------------------------------------- bad inputs


def chance_set(**rules: Any) -> State:
    """Round 1, main 7, chance 4; B is with the caster for 10, A staked 10."""
    return play(
        table(**rules),
        (A, Bet(kind="caster", amount=10)),
        (B, Bet(kind="with", amount=10)),
        (A, CallMain(main=7)),
        (A, Throw(), 4),
    )


@pytest.mark.parametrize("main", [-1, 0, 2, 4, 10, 12])
def test_main_outside_5_to_9(main: int) -> None:
    illegal(table(), A, CallMain(main=main), match="5 to 9")


def test_call_main_by_non_caster() -> None:
    illegal(table(), B, CallMain(main=7), match="Only the caster")


def test_call_main_twice() -> None:
    state = play(table(), (A, CallMain(main=6)))
    illegal(state, A, CallMain(main=7), match="already")
    illegal(chance_set(), A, CallMain(main=7), match="already")


@pytest.mark.parametrize(("player", "kind"), [(A, "caster"), (B, "with"), (C, "against")])
def test_betting_after_the_first_throw(player: int, kind: str) -> None:
    illegal(chance_set(), player, Bet(kind=kind, amount=5), match="closed")


def test_caster_stake_by_non_caster() -> None:
    illegal(table(), B, Bet(kind="caster", amount=5), match="Only the caster")


@pytest.mark.parametrize("kind", ["with", "against"])
def test_with_or_against_by_the_caster(kind: str) -> None:
    illegal(table(), A, Bet(kind=kind, amount=5), match="caster can't")


def test_with_and_against_together() -> None:
    state = play(table(), (B, Bet(kind="with", amount=5)))
    illegal(state, B, Bet(kind="against", amount=5), match="both")


@pytest.mark.parametrize("kind", ["odds_for", "odds_against"])
def test_odds_bet_with_no_chance_set(kind: str) -> None:
    state = play(table(), (B, Bet(kind="with", amount=5)), (A, CallMain(main=7)))
    illegal(state, B, Bet(kind=kind, amount=5), match="chance")


def test_odds_bet_above_the_cap() -> None:
    state = chance_set()
    illegal(state, B, Bet(kind="odds_for", amount=11), match="at most 10")
    illegal(state, A, Bet(kind="odds_against", amount=11), match="at most 10")
    state = play(state, (B, Bet(kind="odds_for", amount=6)))
    illegal(state, B, Bet(kind="odds_against", amount=5), match="at most 10")


def test_odds_bet_when_odds_bets_are_off() -> None:
    illegal(chance_set(odds_bets=False), B, Bet(kind="odds_for", amount=5), match="off")


def test_odds_bet_without_an_original_stake() -> None:
    state = play(table(), (A, CallMain(main=7)), (A, Throw(), 4))
    illegal(state, C, Bet(kind="odds_for", amount=5), match="with or against")
    illegal(state, A, Bet(kind="odds_for", amount=5), match="with or against")


@pytest.mark.parametrize("amount", [0, -1, -100])
@pytest.mark.parametrize(("player", "kind"), [(A, "caster"), (B, "with"), (C, "against")])
def test_non_positive_bet(player: int, kind: str, amount: int) -> None:
    illegal(table(), player, Bet(kind=kind, amount=amount), match="at least 1")


@pytest.mark.parametrize("amount", [0, -3])
def test_non_positive_odds_bet(amount: int) -> None:
    illegal(chance_set(), B, Bet(kind="odds_for", amount=amount), match="at least 1")


def test_bets_outside_table_limits() -> None:
    state = table(min_stake=5, max_stake=50)
    illegal(state, B, Bet(kind="with", amount=4), match="minimum")
    illegal(state, A, Bet(kind="caster", amount=51), match="maximum")
    state = play(state, (B, Bet(kind="with", amount=5)), (A, CallMain(main=7)), (A, Throw(), 4))
    illegal(state, B, Bet(kind="odds_for", amount=4), match="minimum")


def test_throw_by_non_caster() -> None:
    state = play(table(), (A, CallMain(main=7)))
    illegal(state, B, Throw(), match="Only the caster")


def test_throw_before_a_main_is_called() -> None:
    illegal(table(), A, Throw(), match="main")


def test_pass_dice_when_not_allowed() -> None:
    illegal(table(), B, PassDice(), match="Only the caster")
    illegal(lose_round(table()), A, PassDice(), match="after a win")
    illegal(chance_set(), A, PassDice(), match="middle")
    illegal(table((A,)), A, PassDice(), match="nobody")
    # After a loss, a win restores the right to pass; a loss takes it away again.
    state = lose_round(win_round(table()))
    illegal(state, A, PassDice(), match="after a win")


@pytest.mark.parametrize(
    "action",
    [
        Throw(),
        CallMain(main=7),
        Bet(kind="with", amount=1),
        Join(),
        Leave(),
        Close(),
        PassDice(),
        Deadline(),
        hz.Ready(),
        Abort(),
    ],
)
def test_actions_on_a_finished_table(action: Any) -> None:
    state, _ = step(table(), A, Close())
    assert state.finished
    player: int | None = B
    if isinstance(action, (Deadline, Abort)):
        player = None
    elif isinstance(action, Join):
        player = OUTSIDER
    illegal(state, player, action, match="closed")


@pytest.mark.parametrize(
    "action",
    [CallMain(main=7), Bet(kind="with", amount=5), Throw(), PassDice(), Leave()],
)
def test_actions_by_a_non_seated_player(action: Any) -> None:
    illegal(table(), OUTSIDER, action, match="aren't seated")


def test_a_host_or_moderator_without_a_seat_closes_between_rounds() -> None:
    # Who may close is the service's check (PERMISSIONS); the engine checks the moment
    # and names the closer, seated or not.
    assert {Close: Permission.HOST_OR_MODERATOR} == hz.PERMISSIONS
    assert hz.ENGINE.permissions is hz.PERMISSIONS
    state, events = step(win_round(table()), OUTSIDER, Close())
    assert state.finished and events == [hz.Closed(by=OUTSIDER, reason="closed")]
    illegal(chance_set(), OUTSIDER, Close(), match="round is in play")
    illegal(play(table(), (B, Bet(kind="with", amount=2))), OUTSIDER, Close(), match="riding")


def test_deadline_only_by_the_table_and_the_table_only_calls_time_or_closes() -> None:
    illegal(table(), A, Deadline(), match="table itself")
    illegal(table(), None, Throw(), match="table itself")
    illegal(table(), None, Join(), match="table itself")


def test_join_refusals() -> None:
    illegal(table(), B, Join(), match="already seated")
    illegal(table((A, B), max_players=2), OUTSIDER, Join(), match="full")
    illegal(table(), HOUSE, Join(), match="bank")


def test_leave_refusals() -> None:
    state = play(table(), (B, Bet(kind="with", amount=5)))
    illegal(state, B, Leave(), match="bets riding")
    state = play(table(), (A, CallMain(main=7)), (A, Throw(), 4))
    illegal(state, A, Leave(), match="middle of a round")


def test_close_refusals() -> None:
    illegal(chance_set(), A, Close(), match="round is in play")
    state = play(table(), (B, Bet(kind="with", amount=5)))
    illegal(state, A, Close(), match="Bets are riding")
    illegal(state, None, Close(), match="Bets are riding")


@pytest.mark.parametrize(
    ("players", "match"),
    [([], "seats"), ([A, A], "one seat"), ([A, HOUSE], "bank"), (list(range(1, 12)), "seats")],
)
def test_bad_seating(players: list[int], match: str) -> None:
    with pytest.raises(IllegalMove, match=match):
        hz.start(Rules(), players, ScriptedDice())


def test_rules_validation() -> None:
    with pytest.raises(ValueError):
        Rules(min_stake=10, max_stake=5)
    with pytest.raises(ValueError):
        Rules(max_players=0)
    with pytest.raises(ValueError):
        Rules(no_such_option=True)  # type: ignore[call-arg]


# --------------------------------------------------------------------- deadline


def test_deadline_calls_seven_and_throws() -> None:
    state, events = step(table(), None, Deadline(), 4)
    assert kinds(events) == ["main_called", "thrown"]
    assert events[0].main == 7
    assert events[0].by_deadline
    assert events[1].by_deadline
    assert state.main == 7
    assert state.chance == 4
    assert state.deadline_acted
    assert state.ply == 2


def test_deadline_throws_when_a_main_is_called() -> None:
    state = play(table(), (A, CallMain(main=5)))
    state, events = step(state, None, Deadline(), 5)
    assert kinds(events) == ["thrown", "round_ended"]
    assert events[0].outcome == "nick"
    state = play(table(), (A, CallMain(main=5)), (A, Throw(), 8))
    state, events = step(state, None, Deadline(), 6)
    assert events[0].outcome == "again"


def test_absent_rounds_lose_the_dice() -> None:
    state = table(absent_rounds_to_lose_dice=2)
    state, _ = step(state, None, Deadline(), 7)
    assert state.caster == A
    assert state.absent_rounds == 1
    state, events = step(state, None, Deadline(), 7)
    passed = of(events, "dice_passed")
    assert [(e.from_player, e.to_player, e.reason) for e in passed] == [(A, B, "absent")]
    assert state.caster == B
    assert state.absent_rounds == 0


def test_a_deadline_in_mid_round_makes_the_round_absent() -> None:
    state = play(table(absent_rounds_to_lose_dice=1), (A, CallMain(main=7)), (A, Throw(), 4))
    state, events = step(state, None, Deadline(), 4)
    assert of(events, "dice_passed")[0].reason == "absent"
    assert state.caster == B


def test_a_round_played_in_person_resets_the_absent_count() -> None:
    state = table(absent_rounds_to_lose_dice=2)
    state, _ = step(state, None, Deadline(), 7)
    state = win_round(state)
    assert state.absent_rounds == 0
    state, _ = step(state, None, Deadline(), 7)
    assert state.caster == A


def test_absent_dice_loss_can_be_switched_off() -> None:
    state = table(absent_rounds_to_lose_dice=0)
    for _ in range(5):
        state, _ = step(state, None, Deadline(), 7)
    assert state.caster == A


def test_idle_table_closes_itself_when_asked() -> None:
    state = table((A, B), absent_rounds_to_lose_dice=1, idle_laps_to_close=1)
    state, _ = step(state, None, Deadline(), 7)
    assert state.caster == B and not state.finished
    state, events = step(state, None, Deadline(), 7)
    assert state.finished
    assert of(events, "closed")[0].reason == "idle"
    assert hz.deadline_seconds(state) is None


def test_any_player_action_resets_idleness() -> None:
    state = table((A, B), absent_rounds_to_lose_dice=1, idle_laps_to_close=1)
    state, _ = step(state, None, Deadline(), 7)
    state = play(state, (A, Bet(kind="with", amount=1)))
    state, _ = step(state, None, Deadline(), 7)
    assert not state.finished


def test_deadline_seconds() -> None:
    state = table(throw_seconds=45)
    assert hz.deadline_seconds(state) == 45
    state, _ = step(state, A, Close())
    assert hz.deadline_seconds(state) is None


# --------------------------------------------------------- join, leave, close


def test_join_takes_the_last_seat_and_may_bet() -> None:
    state, events = step(table(), OUTSIDER, Join())
    assert state.seats == [A, B, C, OUTSIDER]
    assert events[0].seat == 3
    assert state.ply == 1
    state = play(state, (OUTSIDER, Bet(kind="against", amount=3)))
    assert state.stakes[OUTSIDER] == 3
    for _ in range(3):
        state = lose_round(state)
    state = play(state, (B, PassDice()), (C, PassDice()))
    assert state.caster == OUTSIDER


def test_leave_keeps_the_players_result() -> None:
    state = play(table(), (B, Bet(kind="with", amount=5)))
    state = win_round(state)
    state, events = step(state, B, Leave())
    assert state.seats == [A, C]
    assert events[0].net == 5
    assert state.payouts[B] == 5
    assert sum(state.payouts.values()) == 0
    assert state.ply > 0


def test_caster_leaving_passes_the_dice_and_returns_bets() -> None:
    state = play(table(), (B, Bet(kind="with", amount=5)), (A, CallMain(main=8)))
    state, events = step(state, A, Leave())
    assert kinds(events) == ["bet_returned", "left", "dice_passed"]
    assert of(events, "dice_passed")[0].reason == "left"
    assert state.caster == B
    assert state.main is None
    assert state.stakes == {A: 0, B: 0, C: 0}


def test_caster_in_the_last_seat_leaving_wraps() -> None:
    state = play(table(), (A, PassDice()), (B, PassDice()))
    state, _ = step(state, C, Leave())
    assert state.caster == A


def test_last_player_leaving_finishes_the_table() -> None:
    state, events = step(table((A,)), A, Leave())
    assert state.finished
    assert state.seats == []
    assert of(events, "closed")[0].reason == "empty"


def test_close_between_rounds() -> None:
    state = win_round(play(table(), (C, Bet(kind="against", amount=4))))
    state, events = step(state, B, Close())
    assert state.finished
    assert events == [hz.Closed(by=B, reason="closed")]
    assert state.payouts == {HOUSE: 4, A: 0, B: 0, C: -4}
    state, _ = step(table(), None, Close())
    assert state.finished


# -------------------------------------------------------- the table conventions


def test_table_conventions() -> None:
    rules = Rules(max_players=6)
    assert hz.seat_limits(rules) == (1, 6)
    assert hz.hold(rules) == 0
    assert list(hz.ACTIONS) == [
        CallMain,
        Bet,
        Throw,
        PassDice,
        Join,
        Leave,
        Close,
        Deadline,
        hz.Ready,
        Abort,
    ]
    state = table()
    assert state.seats == [A, B, C]
    assert state.caster == A
    assert state.payouts == {HOUSE: 0, A: 0, B: 0, C: 0}
    assert state.stakes == {A: 0, B: 0, C: 0}
    assert (state.main, state.chance, state.losses_in_a_row, state.finished) == (
        None,
        None,
        0,
        False,
    )


def test_actions_construct_with_defaults_and_parse_back() -> None:
    actions: list[BaseModel] = [
        CallMain(main=6),
        Bet(kind="against", amount=3),
        Bet(kind="odds_for", amount=1),
        Throw(),
        PassDice(),
        Join(),
        Leave(),
        Close(),
        Deadline(),
        hz.Ready(),
        Abort(),
    ]
    for action in actions:
        assert hz.parse_action(action.model_dump()) == action
        assert hz.parse_action(action.model_dump(mode="json")) == action
    # One discriminator, ``kind``: a Bet's kind is its bet kind.
    assert Bet(kind="caster", amount=1).model_dump() == {"kind": "caster", "amount": 1}
    assert hz.parse_action({"kind": "caster", "amount": 1}) == Bet(kind="caster", amount=1)
    for refused in ({"action": "shuffle"}, {"kind": "shuffle"}, {"kind": "bet", "amount": 1}, {}):
        with pytest.raises(ValueError):
            hz.parse_action(refused)


def test_state_round_trips_mid_round() -> None:
    state = play(chance_set(), (B, Bet(kind="odds_for", amount=4)), (A, Throw(), 9))
    assert state.last_throw == pair(9)
    assert State.model_validate_json(state.model_dump_json()) == state


def test_events_round_trip() -> None:
    adapter: TypeAdapter[Any] = TypeAdapter(list[hz.Event])
    state = chance_set()
    state, events = step(state, A, Throw(), 4)
    state, more = step(state, OUTSIDER, Join())
    events += more
    assert adapter.validate_json(adapter.dump_json(events)) == events


def test_a_full_table_settles_every_bet_on_one_throw() -> None:
    """Ten seated, nine bets "with" the caster: a nick on the first throw settles all nine
    and ends the round. (How fast such an act is: benchmarks/hazard_act.py.)"""
    players = list(range(1, 11))
    state = play(table(players), *[(p, Bet(kind="with", amount=5)) for p in players[1:]])
    called, events = step(state, 1, CallMain(main=7))
    assert kinds(events) == ["main_called"] and called.main == 7
    thrown, events = step(called, 1, Throw(), 7)
    assert kinds(events) == ["thrown", *["bet_settled"] * 9, "round_ended"]
    assert thrown.round == state.round + 1 and thrown.main is None


# ------------------------------------------------- the engine object and the log


def test_the_module_functions_are_the_engine_methods() -> None:
    engine = hz.ENGINE
    assert isinstance(engine, Engine)
    assert (engine.name, engine.join_action, engine.leave_action) == ("hazard", Join, Leave)
    assert engine.rules_model is Rules and engine.state_model is State
    for name in (
        "start",
        "act",
        "seat_limits",
        "hold",
        "deadline_seconds",
        "bank_exposure",
        "parse_action",
        "parse_event",
    ):
        assert getattr(hz, name) == getattr(engine, name), name
    rules = Rules(max_players=4, bet_seconds=0)
    state = engine.start(rules, [A, B], ScriptedDice())
    assert state == hz.start(rules, [A, B], ScriptedDice())
    assert engine.seat_limits(rules) == (1, 4) and engine.hold(rules) == 0
    state = play(state, (B, Bet(kind="against", amount=6)), (A, CallMain(main=5)))
    # Through the engine as through the module: an "against" bet of 6 pays 6 at worst.
    new, events = engine.act(state, A, Throw(), ScriptedDice(pair(3)))
    assert (new, events) == hz.act(state, A, Throw(), ScriptedDice(pair(3)))
    assert engine.bank_exposure(state) == 6
    assert engine.deadline_seconds(state) == rules.throw_seconds


def test_hooks_hazard_does_not_use_keep_their_defaults() -> None:
    state = table()
    assert hz.ENGINE.pending_charge(state, A) == 0
    assert hz.ENGINE.shortfall(state, A) is None
    assert hz.ENGINE.charges_at_reveal is False


def test_an_action_of_another_game_is_refused() -> None:
    class Shuffle(BaseModel):
        kind: str = "shuffle"

    illegal(table(), A, Shuffle(), match="not a move in this game")


def test_actions_follow_the_union_and_each_kind_names_one_action() -> None:
    assert get_args(hz.Action) == hz.ACTIONS
    kinds_ = [model.model_fields["kind"].default for model in hz.ACTIONS if model is not Bet]
    assert len(kinds_) == len(hz.ACTIONS) - 1 == len(set(kinds_))
    # The action union reads a bet kind as a Bet, so no other action may share one.
    assert not set(kinds_) & set(hz.BET_KINDS)
    for model, kind in zip([m for m in hz.ACTIONS if m is not Bet], kinds_, strict=True):
        assert type(hz.parse_action({"kind": kind, "main": 6})) is model


@pytest.mark.parametrize("kind", hz.BET_KINDS)
def test_every_bet_kind_parses_as_a_bet(kind: hz.BetKind) -> None:
    bet = Bet(kind=kind, amount=7)
    assert bet.model_dump(mode="json") == {"kind": kind, "amount": 7}
    assert hz.parse_action({"kind": kind, "amount": 7}) == bet
    assert hz.ENGINE.parse_action(bet.model_dump()) == bet
    with pytest.raises(ValueError):
        hz.parse_action({"kind": kind})


# A table's action log as saved before every action carried ``kind`` (Hazard's own
# actions were named in ``action``; a bet's kind was in ``kind``), written out by hand:
# /verify must still replay tables saved then. Each entry: the log's player, the logged
# action, the action it stands for, the totals thrown.
LEGACY_LOG: list[tuple[int | None, dict[str, Any], BaseModel, tuple[int, ...]]] = [
    (B, {"action": "bet", "kind": "with", "amount": 5}, Bet(kind="with", amount=5), ()),
    (C, {"action": "bet", "kind": "against", "amount": 4}, Bet(kind="against", amount=4), ()),
    (A, {"action": "bet", "kind": "caster", "amount": 3}, Bet(kind="caster", amount=3), ()),
    (A, {"action": "call_main", "main": 7}, CallMain(main=7), ()),
    (B, {"action": "ready"}, hz.Ready(), ()),
    (C, {"action": "ready"}, hz.Ready(), ()),
    (A, {"action": "throw"}, Throw(), (4,)),
    (B, {"action": "bet", "kind": "odds_for", "amount": 5}, Bet(kind="odds_for", amount=5), ()),
    (A, {"action": "throw"}, Throw(), (9,)),
    (A, {"action": "throw"}, Throw(), (4,)),
    (A, {"action": "pass_dice"}, PassDice(), ()),
    (404, {"action": "join"}, Join(), ()),
    (None, {"kind": "deadline"}, Deadline(), ()),
    (None, {"kind": "deadline"}, Deadline(), ()),
    (None, {"kind": "deadline"}, Deadline(), (7,)),
    (404, {"action": "leave"}, Leave(), ()),
    (None, {"action": "close"}, Close(), ()),
]


def test_a_log_saved_before_the_kind_change_replays_to_the_same_game() -> None:
    typed = table(bet_seconds=20)
    legacy = typed
    seen: list[Any] = []
    for player, logged, action, totals in LEGACY_LOG:
        parsed = hz.parse_action(logged)
        assert parsed == action and type(parsed) is type(action)
        typed, events = step(typed, player, action, *totals)
        legacy, _ = step(legacy, player, parsed, *totals)
        seen += events
    assert legacy == typed and legacy.model_dump_json() == typed.model_dump_json()
    assert typed.finished and typed.payouts == {HOUSE: -14, A: 3, B: 15, C: -4, 404: 0}
    # Every event the game told parses back through the engine.
    assert {event.kind for event in seen} >= {"bet_placed", "thrown", "bet_settled", "closed"}
    for event in seen:
        assert hz.parse_event(event.model_dump(mode="json")) == event
    # Aborts were always logged by ``kind``; an old bet without its kind is refused.
    assert hz.parse_action({"kind": "abort"}) == Abort()
    with pytest.raises(ValueError):
        hz.parse_action({"action": "bet", "amount": 5})


# ------------------------------------------------------------ random playouts


class DrawnDice:
    """Dice whose every roll is drawn by hypothesis (so failures shrink)."""

    def __init__(self, data: st.DataObject) -> None:
        self.data = data
        self.rolls: list[int] = []

    def roll(self, sides: int) -> int:
        value = self.data.draw(st.integers(1, sides))
        self.rolls.append(value)
        return value

    def shuffle(self, items: Sequence[Any]) -> list[Any]:
        raise AssertionError("Hazard never shuffles")


def check_invariants(state: State, riding: int, nets: dict[int, int]) -> None:
    assert sum(state.payouts.values()) == 0
    assert all(amount >= 0 for amount in state.stakes.values())
    for player, held in state.bets.items():
        assert all(amount > 0 for amount in held.values())
        assert state.stakes[player] == sum(held.values())
    for player, amount in state.stakes.items():
        if amount:
            assert player in state.bets
    # Escrow: coins placed minus coins settled or returned, as told by the events.
    assert sum(state.stakes.values()) == riding
    for player, net in nets.items():
        assert state.payouts[player] == net
    assert state.payouts[HOUSE] == -sum(nets.values())
    if state.seats and not state.finished:
        assert state.caster in state.seats
    assert state.throws > 0 or not any(
        kind.startswith("odds") for held in state.bets.values() for kind in held
    )
    assert 0 <= state.losses_in_a_row < hz.LOSSES_TO_PASS
    if state.finished:
        assert riding == 0


def random_action(data: st.DataObject, state: State) -> tuple[int | None, Any]:
    choice = data.draw(st.integers(0, 99), label="choice")
    seated = state.seats or [A]
    anyone = st.sampled_from([*seated, OUTSIDER])
    if choice < 30:
        return state.caster, Throw()
    if choice < 42:
        return state.caster, CallMain(main=data.draw(st.integers(4, 10)))
    if choice < 72:
        kind = data.draw(st.sampled_from(hz.BET_KINDS))
        amount = data.draw(st.integers(-1, 25))
        return data.draw(anyone), Bet(kind=kind, amount=amount)
    if choice < 84:
        return None, Deadline()
    if choice < 90:
        return data.draw(anyone), PassDice()
    if choice < 93:
        return data.draw(st.sampled_from([OUTSIDER, OUTSIDER + 1, A])), Join()
    if choice < 96:
        return data.draw(anyone), Leave()
    if choice < 98:
        return data.draw(anyone), hz.Ready()
    if choice < 99:
        return data.draw(st.sampled_from([*seated, None])), Close()
    return data.draw(st.sampled_from([*seated, None])), Abort()


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    data=st.data(),
    players=st.lists(st.sampled_from([A, B, C, 404]), min_size=1, max_size=4, unique=True),
    odds_max_multiple=st.integers(0, 3),
    odds_bets=st.booleans(),
    absent=st.integers(0, 3),
    bet_seconds=st.sampled_from([0, 20]),
    bar_and_commission=st.sampled_from([(True, 0), (True, 10), (False, 5), (False, 30)]),
)
def test_random_games_keep_the_books(
    data: st.DataObject,
    players: list[int],
    odds_max_multiple: int,
    odds_bets: bool,
    absent: int,
    bet_seconds: int,
    bar_and_commission: tuple[bool, int],
) -> None:
    rules = Rules(
        odds_max_multiple=odds_max_multiple,
        odds_bets=odds_bets,
        absent_rounds_to_lose_dice=absent,
        max_stake=20,
        max_players=5,
        bet_seconds=bet_seconds,
        against_bar=bar_and_commission[0],
        against_commission=bar_and_commission[1],
    )
    state = hz.start(rules, players, ScriptedDice())
    initial = state
    log: list[tuple[int | None, dict[str, Any]]] = []
    all_rolls: list[int] = []
    riding = 0
    nets: dict[int, int] = {p: 0 for p in players}
    steps = data.draw(st.integers(1, 60), label="steps")
    for _ in range(steps):
        if state.finished:
            break
        player, action = random_action(data, state)
        dice = DrawnDice(data)
        before = state.model_dump_json()
        try:
            new, events = hz.act(state, player, action, dice)
        except IllegalMove as refusal:
            assert str(refusal)
            assert state.model_dump_json() == before
            assert dice.rolls == []
            continue
        assert state.model_dump_json() == before
        assert len(dice.rolls) == 2 * len(of(events, "thrown"))
        assert new.ply >= state.ply
        if of(events, "thrown") or of(events, "dice_passed") or of(events, "joined"):
            assert new.ply > state.ply
        if new.window_open:
            assert hz.deadline_seconds(new) == bet_seconds
            assert new.throws == 0 and new.main is not None
        assert hz.bank_exposure(new) >= 0
        for event in events:
            if event.kind == "bet_placed":
                riding += event.amount
            elif event.kind == "bet_settled":
                riding -= event.amount
                nets[event.player] = nets.get(event.player, 0) + event.net
                assert event.net == -event.amount or event.won or event.push
                assert not event.push or event.net == 0
            elif event.kind == "bet_valued":
                riding -= event.amount
                nets[event.player] = nets.get(event.player, 0) + event.net
                assert event.returned >= 0
            elif event.kind == "bet_returned":
                riding -= event.amount
        state = new
        log.append((player, action.model_dump()))
        all_rolls += dice.rolls
        check_invariants(state, riding, nets)
        assert State.model_validate_json(state.model_dump_json()) == state

    # Replay: the same actions with the same dice give the identical state.
    replay_dice = ScriptedDice(all_rolls)
    replayed = initial
    for player, dumped in log:
        replayed, _ = hz.act(replayed, player, hz.parse_action(dumped), replay_dice)
    assert replay_dice.remaining == 0
    assert replayed == state
    assert replayed.model_dump_json() == state.model_dump_json()


# ------------------------------------------------------------------ rules text


def test_player_rules_text_pages() -> None:
    path = Path(hz.__file__).resolve().parents[2] / "rules_text" / "hazard.md"
    pages = [page.strip() for page in path.read_text(encoding="utf-8").split("\n---\n")]
    assert len(pages) >= 2
    for page in pages:
        assert page.startswith("# ")
        assert len(page) <= 3500
