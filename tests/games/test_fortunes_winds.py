"""Tests of the Fortunes and Winds engine: the rolls, the bets, the turn, the table."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import pytest
from pydantic import ValidationError

from bot.games import fortunes_winds as fw
from bot.games.common import HOUSE, Abort, Deadline
from bot.games.dice import ScriptedDice
from bot.games.errors import IllegalMove
from bot.games.fortunes_winds import (
    Bet,
    Join,
    Leave,
    NewTurn,
    PassDice,
    Roll,
    Rules,
    SetAside,
    State,
)

GINAWA, SANZO, UJIKEME = 101, 202, 303
A, B, C = GINAWA, SANZO, UJIKEME
OUTSIDER = 999

# Face positions (1..6) in the rules file's table.
EARTH, NORTH, RICE = 1, 4, 6  # Earth die; likewise Water/East/Fish, Fire/West/Tree, ...
ELEMENT, WIND, BLANK = 1, 4, 6
VOID, FORTUNES, SUN, MOON = 1, 3, 5, 6

# Five-dice rolls (Earth, Water, Fire, Air, Moon) showing each combination.
COMBO_ROLLS: dict[str, tuple[int, ...]] = {
    "fortunes_and_winds": (WIND, WIND, WIND, WIND, FORTUNES),
    "ladys_breath": (WIND, WIND, WIND, WIND, SUN),
    "empty_winds": (WIND, WIND, WIND, WIND, VOID),
    "shinseis_blessing": (ELEMENT, ELEMENT, ELEMENT, ELEMENT, VOID),
    "ladys_tears": (ELEMENT, ELEMENT, ELEMENT, ELEMENT, SUN),
    "seven_thunders": (ELEMENT, ELEMENT, ELEMENT, ELEMENT, FORTUNES),
}
PAYS = {
    "fortunes_and_winds": 4,
    "ladys_breath": 4,
    "empty_winds": 2,
    "shinseis_blessing": 2,
    "ladys_tears": 2,
    "seven_thunders": 1,
}
NOTHING = (BLANK, BLANK, BLANK, BLANK, VOID)
"""A roll with no combination and no Moon."""


# ----------------------------------------------------------------------- helpers


def table(players: Sequence[int] = (A, B, C), **rules: Any) -> State:
    """An unguarded table with no betting window (both have tests of their own)."""
    rules.setdefault("house_guard", False)
    rules.setdefault("bet_seconds", 0)
    return fw.start(Rules(**rules), list(players), ScriptedDice())


def step(state: State, player: int | None, action: Any, *rolls: int) -> tuple[State, list[Any]]:
    """Act with scripted dice; every scripted roll must be used."""
    dice = ScriptedDice(rolls)
    before = state.model_dump_json()
    new, events = fw.act(state, player, action, dice)
    assert state.model_dump_json() == before, "act mutated its input"
    assert dice.remaining == 0, "not every scripted roll was used"
    assert sum(new.payouts.values()) == 0
    # The frequent events are built unvalidated: each must validate as it stands.
    for event in events:
        assert type(event).model_validate(event.model_dump()) == event
        assert fw.parse_event(event.model_dump(mode="json")) == event
    return new, events


def illegal(state: State, player: int | None, action: Any, match: str | None = None) -> str:
    """The action is refused with a reason, rolls nothing and changes nothing."""
    dump = state.model_dump_json()
    dice = ScriptedDice([1, 2, 3, 4, 5, 6])
    with pytest.raises(IllegalMove, match=match) as info:
        fw.act(state, player, action, dice)
    assert str(info.value).strip(), "the refusal must say why"
    assert state.model_dump_json() == dump
    assert dice.remaining == 6, "a refused action must not roll"
    return str(info.value)


def of(events: list[Any], kind: str) -> list[Any]:
    return [event for event in events if event.kind == kind]


def bet(state: State, player: int, kind: str, amount: int) -> State:
    return step(state, player, Bet(kind=kind, amount=amount))[0]  # type: ignore[arg-type]


def roll(state: State, *rolls: int) -> tuple[State, list[Any]]:
    return step(state, state.shooter, Roll(), *rolls)


# --------------------------------------------------------------- combinations


@pytest.mark.parametrize("on_roll", [1, 2, 3])
@pytest.mark.parametrize("combination", list(COMBO_ROLLS))
def test_each_combination_on_each_roll(combination: str, on_roll: int) -> None:
    state = bet(table(), A, "shooter", 3)
    state = bet(state, B, "ride", 2)
    events: list[Any] = []
    for _ in range(on_roll - 1):
        state, events = roll(state, *NOTHING)
        assert of(events, "rolled")[0].result is None
    state, events = roll(state, *COMBO_ROLLS[combination])
    (rolled,) = of(events, "rolled")
    assert rolled.result == combination
    assert rolled.roll == on_roll
    multiple = PAYS[combination] * (2 if on_roll == 1 else 1)
    assert state.payouts[A] == 3 * multiple
    assert state.payouts[B] == 2 * multiple
    assert state.payouts[HOUSE] == -5 * multiple
    assert state.stakes == {A: 0, B: 0, C: 0}
    (ended,) = of(events, "turn_ended")
    assert ended.won and ended.rolls == on_roll
    # The winner keeps the dice and chooses: a new turn or pass.
    assert state.phase == "won" and state.shooter == A
    assert state.roll_number == 0


def test_the_seeds_first_roll_example_pays_double() -> None:
    # 2 koku on The Lady's Tears on the first roll wins 8.
    state = bet(table(), A, "shooter", 2)
    state, _ = roll(state, *COMBO_ROLLS["ladys_tears"])
    assert state.payouts[A] == 8


@pytest.mark.parametrize("on_roll", [1, 2, 3])
def test_moon_on_each_roll_takes_the_bet_and_lord_moon(on_roll: int) -> None:
    state = bet(table(), A, "shooter", 3)
    state = bet(state, B, "ride", 1)
    state = bet(state, C, "against", 3)
    for _ in range(on_roll - 1):
        state, _ = roll(state, *NOTHING)
    # Moon with four Winds showing: Moon comes first, no combination.
    state, events = roll(state, WIND, WIND, WIND, WIND, MOON)
    assert of(events, "rolled")[0].result == "moon"
    assert state.payouts[A] == -6
    assert state.payouts[B] == -2
    assert state.payouts[C] == 2
    assert state.shooter == B
    assert of(events, "dice_passed")[0].reason == "lost"
    assert state.phase == "betting" and state.roll_number == 0


def test_nothing_after_roll_three_loses_the_bet_but_keeps_lord_moon() -> None:
    state = bet(table(), A, "shooter", 3)
    for _ in range(3):
        state, events = roll(state, *NOTHING)
    assert of(events, "rolled")[0].result == "nothing"
    assert state.payouts[A] == -3
    assert state.stakes[A] == 0
    assert state.shooter == B


def test_mixed_winds_and_elements_are_no_combination() -> None:
    state = bet(table(), A, "shooter", 1)
    state, events = roll(state, WIND, ELEMENT, WIND, WIND, FORTUNES)
    assert of(events, "rolled")[0].result is None
    assert state.phase == "rolling" and state.roll_number == 1


# ------------------------------------------------------------- setting aside


def test_set_aside_dice_are_not_rolled_again_and_the_moon_die_always_is() -> None:
    state = bet(table(), A, "shooter", 1)
    state, _ = roll(state, NORTH, NORTH, ELEMENT, BLANK, VOID)
    state, events = step(state, A, SetAside(dice=["earth", "water"]))
    assert of(events, "dice_set_aside")[0].set_aside == ["earth", "water"]
    # Three dice roll: Fire, Air, Moon.
    state, events = roll(state, WIND, ELEMENT, SUN)
    (rolled,) = of(events, "rolled")
    assert rolled.rolled == ["fire", "air", "moon"]
    assert state.faces == {
        "earth": "North",
        "water": "East",
        "fire": "West",
        "air": "Air",
        "moon": "Sun",
    }
    assert state.set_aside == ["earth", "water"]


def test_at_most_three_dice_over_the_whole_turn() -> None:
    state = bet(table(), A, "shooter", 1)
    state, _ = roll(state, *NOTHING)
    state, _ = step(state, A, SetAside(dice=["earth", "water"]))
    illegal(state, A, SetAside(dice=["fire", "air"]), "At most three")
    state, _ = step(state, A, SetAside(dice=["fire"]))
    illegal(state, A, SetAside(dice=["air"]), "At most three")
    state, _ = roll(state, BLANK, VOID)
    illegal(state, A, SetAside(dice=["air"]), "At most three")


def test_set_aside_refusals() -> None:
    state = bet(table(), A, "shooter", 1)
    illegal(state, A, SetAside(dice=["earth"]), "between the rolls")
    state, _ = roll(state, *NOTHING)
    state, _ = step(state, A, SetAside(dice=["earth"]))
    illegal(state, A, SetAside(dice=["earth"]), "already set aside")
    illegal(state, A, SetAside(dice=["water", "water"]), "once")
    illegal(state, A, SetAside(dice=[]), "at least one")
    illegal(state, B, SetAside(dice=["water"]), "Only the shooter")
    # The black die: refused by the action model, and by the engine if it gets through.
    with pytest.raises(ValidationError):
        fw.parse_action({"kind": "set_aside", "dice": ["moon"]})
    illegal(state, A, SetAside.model_construct(dice=["moon"]), "black die")


# ----------------------------------------------------------------- the bets


def test_bets_put_stakes_with_lord_moon_at_risk() -> None:
    state = bet(table(), A, "shooter", 3)
    state = bet(state, B, "ride", 2)
    state = bet(state, C, "tea", 4)
    assert state.stakes == {A: 6, B: 4, C: 4}
    state, events = step(state, B, Bet(kind="ride", amount=1))
    assert of(events, "bet_placed")[0].total == 3
    assert of(events, "bet_placed")[0].lord_moon == 3
    assert state.stakes[B] == 6


@pytest.mark.parametrize(
    ("player", "kind", "amount", "match"),
    [
        (B, "shooter", 1, "Only the shooter makes"),
        (A, "ride", 1, "may not make side bets"),
        (A, "hungry", 1, "may not make side bets"),
        (A, "daikoku", 1, "may not make side bets"),
        (B, "tea", 0, "at least 1"),
        (B, "tea", -3, "at least 1"),
        (B, "tea", 101, "maximum"),
        (OUTSIDER, "tea", 1, "aren't seated"),
    ],
)
def test_bet_refusals(player: int, kind: str, amount: int, match: str) -> None:
    illegal(table(), player, Bet(kind=kind, amount=amount), match)  # type: ignore[arg-type]


def test_bet_limits_count_top_ups_and_the_minimum() -> None:
    state = bet(table(min_stake=5, max_stake=10), B, "tea", 6)
    illegal(state, B, Bet(kind="tea", amount=5), "maximum")
    illegal(state, C, Bet(kind="tea", amount=4), "minimum")


def test_no_bets_after_the_first_roll_or_between_a_win_and_the_next_turn() -> None:
    state = bet(table(), A, "shooter", 1)
    state, _ = roll(state, *NOTHING)
    illegal(state, B, Bet(kind="tea", amount=1), "closed")
    illegal(state, A, Bet(kind="shooter", amount=1), "closed")
    state = bet(table(), A, "shooter", 1)
    state, _ = roll(state, *COMBO_ROLLS["seven_thunders"])
    illegal(state, B, Bet(kind="tea", amount=1), "closed")
    state, _ = step(state, A, NewTurn())
    state = bet(state, B, "tea", 1)


def test_against_is_a_house_rule() -> None:
    illegal(table(allow_bet_against=False), B, Bet(kind="against", amount=3), "no bets against")


def test_a_player_cannot_back_both_sides() -> None:
    state = bet(table(), B, "daikoku", 2)
    illegal(state, B, Bet(kind="against", amount=3), "both sides")
    state = bet(state, C, "tea", 1)
    illegal(state, C, Bet(kind="hungry", amount=1), "both sides")


def test_the_shooter_must_bet_before_rolling() -> None:
    state = bet(table(), B, "tea", 1)
    illegal(state, A, Roll(), "Place your bet")


@pytest.mark.parametrize(
    ("kind", "amount", "won_turn", "net"),
    [
        ("daikoku", 2, True, 3),
        ("daikoku", 4, True, 6),  # whole pays: Belly in 2s, Against in 3s
        ("daikoku", 2, False, -2),
        ("against", 3, False, 2),
        ("against", 6, False, 4),
        ("against", 3, True, -3),
        ("tea", 2, True, -2),  # a win on roll 1: no third roll
        ("hungry", 2, True, 2),
    ],
)
def test_side_bets_pay_as_the_rules_say(kind: str, amount: int, won_turn: bool, net: int) -> None:
    state = bet(table(), A, "shooter", 1)
    state = bet(state, B, kind, amount)
    state, events = roll(state, *(COMBO_ROLLS["seven_thunders"] if won_turn else NOTHING))
    if not won_turn:
        state, _ = roll(state, *NOTHING)
        state, events = roll(state, *NOTHING)
    (settled,) = [e for e in of(events, "bet_settled") if e.player == B]
    assert settled.net == net
    assert state.payouts[B] == net


@pytest.mark.parametrize(
    ("rolls_before", "combination", "hungry", "tea"),
    [
        (0, "fortunes_and_winds", 0, -1),  # push: Fortunes and Winds at roll 1
        (1, "fortunes_and_winds", 0, -1),  # push at roll 2
        (2, "fortunes_and_winds", -1, 1),  # roll 3: Tea wins, Hungry Moon loses
        (0, "ladys_breath", 1, -1),
        (1, "empty_winds", 1, -1),
    ],
)
def test_hungry_moon_pushes_on_fortunes_and_winds_at_roll_one_or_two(
    rolls_before: int, combination: str, hungry: int, tea: int
) -> None:
    state = bet(table(), A, "shooter", 1)
    state = bet(state, B, "hungry", 1)
    state = bet(state, C, "tea", 1)
    for _ in range(rolls_before):
        state, _ = roll(state, *NOTHING)
    state, events = roll(state, *COMBO_ROLLS[combination])
    (settled,) = [e for e in of(events, "bet_settled") if e.player == B]
    assert settled.net == hungry
    assert settled.push is (hungry == 0)
    assert state.payouts[C] == tea


# ---------------------------------------------------------- the worked example


def test_the_seeds_worked_example_every_payout() -> None:
    state = table([GINAWA, SANZO, UJIKEME])
    # Ginawa shoots 1 (+1); Sanzo rides 1 (+1); Ujikeme bets 3 against.
    state = bet(state, GINAWA, "shooter", 1)
    state = bet(state, SANZO, "ride", 1)
    state = bet(state, UJIKEME, "against", 3)
    state, _ = roll(state, NORTH, NORTH, ELEMENT, BLANK, VOID)  # North East Fire Bird Void
    assert fw.best_keep(state) == ["earth", "water"]
    state, _ = step(state, GINAWA, SetAside(dice=["earth", "water"]))
    state, _ = roll(state, WIND, ELEMENT, SUN)  # [North] [East] West Air Sun
    assert state.roll_number == 2
    assert fw.best_keep(state) == ["fire"]
    state, _ = step(state, GINAWA, SetAside(dice=["fire"]))
    state, events = roll(state, ELEMENT, FORTUNES)  # [N] [E] [W] Air Fortunes
    assert state.faces == {
        "earth": "North",
        "water": "East",
        "fire": "West",
        "air": "Air",
        "moon": "Fortunes",
    }
    nets = {e.player: e.net for e in of(events, "bet_settled")}
    assert nets == {GINAWA: -1, SANZO: -1, UJIKEME: 2}
    assert state.shooter == SANZO

    # Sanzo shoots 2 (+2); Ginawa 1 on Lady Sun's Tea; Ujikeme 1 on Hungry Moon.
    state = bet(state, SANZO, "shooter", 2)
    state = bet(state, GINAWA, "tea", 1)
    state = bet(state, UJIKEME, "hungry", 1)
    state, events = roll(state, ELEMENT, ELEMENT, ELEMENT, ELEMENT, SUN)  # The Lady's Tears
    nets = {e.player: e.net for e in of(events, "bet_settled")}
    assert nets == {SANZO: 8, GINAWA: -1, UJIKEME: 1}
    state, events = step(state, SANZO, PassDice())
    assert state.shooter == UJIKEME

    # Ujikeme shoots 1 (+1); Ginawa 2 and Sanzo 1 on Hungry Moon.
    state = bet(state, UJIKEME, "shooter", 1)
    state = bet(state, GINAWA, "hungry", 2)
    state = bet(state, SANZO, "hungry", 1)
    state, events = roll(state, ELEMENT, ELEMENT, ELEMENT, WIND, MOON)  # ... South, Moon
    nets = {e.player: e.net for e in of(events, "bet_settled")}
    assert nets == {UJIKEME: -2, GINAWA: 2, SANZO: 1}
    assert state.shooter == GINAWA

    assert state.payouts == {HOUSE: -9, GINAWA: 0, SANZO: 8, UJIKEME: 1}
    assert state.stakes == {GINAWA: 0, SANZO: 0, UJIKEME: 0}


def test_the_guard_refuses_the_third_turns_hungry_moon_of_two() -> None:
    state = fw.start(Rules(), [GINAWA, SANZO, UJIKEME], ScriptedDice())
    assert state.rules.house_guard
    state = State.model_validate({**state.model_dump(), "shooter": UJIKEME})
    state = bet(state, UJIKEME, "shooter", 1)
    message = illegal(state, GINAWA, Bet(kind="hungry", amount=2), "house guard")
    limit = fw.guard_limit(state, GINAWA, "hungry")
    assert f"at most {limit} coin" in message
    assert limit == 1
    # The largest amount named is taken; one more is not.
    assert fw.joint_ev(state, Bet(kind="hungry", amount=limit), GINAWA) <= 0
    assert fw.joint_ev(state, Bet(kind="hungry", amount=limit + 1), GINAWA) > 0
    state = bet(state, GINAWA, "hungry", 1)
    # With that, Sanzo's Hungry Moon of 1 would tip the table over: refused, nothing left.
    message = illegal(state, SANZO, Bet(kind="hungry", amount=1), "house guard")
    assert "takes no more" in message


def test_the_guard_takes_what_keeps_the_players_at_or_below_zero() -> None:
    state = fw.start(Rules(), [A, B, C], ScriptedDice())
    state = bet(state, A, "shooter", 10)
    state = bet(state, B, "ride", 10)
    state = bet(state, C, "daikoku", 6)
    assert fw.joint_ev(state) <= 0


def test_a_player_banker_table_with_the_guard_off_is_unguarded() -> None:
    # The guard protects a player banker too (test_fortunes_winds_house.py); off, a
    # moderator's choice, the banker covers whatever their wallet covers.
    state = fw.start(Rules(player_banker=True, house_guard=False), [A, B, C], ScriptedDice())
    state = bet(state, B, "shooter", 1)
    state = bet(state, C, "hungry", 5)
    assert fw.joint_ev(state) > 0


# ------------------------------------------------------------ after a win


def test_a_winner_may_go_again_or_pass() -> None:
    state = bet(table(), A, "shooter", 1)
    state, _ = roll(state, *COMBO_ROLLS["seven_thunders"])
    illegal(state, A, Roll(), "new turn or pass")
    illegal(state, B, NewTurn(), "Only the shooter")
    state, events = step(state, A, NewTurn())
    assert of(events, "new_turn_started")
    assert state.phase == "betting" and state.shooter == A
    illegal(state, A, NewTurn(), "winner's choice")
    state, events = step(state, A, PassDice())
    assert state.shooter == B


def test_pass_returns_the_bets_for_the_coming_turn() -> None:
    state = bet(table(), A, "shooter", 2)
    state = bet(state, B, "tea", 1)
    state, events = step(state, A, PassDice())
    assert {(e.player, e.amount) for e in of(events, "bet_returned")} == {(A, 2), (B, 1)}
    assert state.stakes == {A: 0, B: 0, C: 0}
    assert state.shooter == B


def test_no_pass_mid_turn_or_alone() -> None:
    state = bet(table(), A, "shooter", 1)
    state, _ = roll(state, *NOTHING)
    illegal(state, A, PassDice(), "middle of a turn")
    illegal(table([A]), A, PassDice(), "nobody else")


def test_rolling_out_of_turn() -> None:
    state = bet(table(), A, "shooter", 1)
    illegal(state, B, Roll(), "Only the shooter")
    illegal(state, None, Roll(), "table itself")


# ----------------------------------------------------------------- deadlines


def test_a_betting_deadline_closes_the_bets_then_rolls_for_the_idle_shooter() -> None:
    state = bet(table(bet_seconds=30), A, "shooter", 1)
    assert fw.deadline_seconds(state) == 30
    state, events = step(state, None, Deadline())
    assert of(events, "betting_closed")[0].by_deadline
    assert not fw.betting_open(state)
    illegal(state, B, Bet(kind="tea", amount=1), "closed")
    assert fw.deadline_seconds(state) == state.rules.roll_seconds
    state, events = step(state, None, Deadline(), *NOTHING)
    assert of(events, "rolled")[0].by_deadline
    assert state.roll_number == 1


def test_no_window_means_the_deadline_rolls_at_once() -> None:
    state = bet(table(bet_seconds=0), A, "shooter", 1)
    assert fw.deadline_seconds(state) == state.rules.roll_seconds
    state, events = step(state, None, Deadline(), *NOTHING)
    assert of(events, "rolled")


def test_the_deadline_keeps_with_the_best_keep() -> None:
    state = bet(table(), A, "shooter", 1)
    state, _ = roll(state, NORTH, NORTH, ELEMENT, BLANK, VOID)
    keep = fw.best_keep(state)
    assert keep == ["earth", "water"]
    state, events = step(state, None, Deadline(), WIND, ELEMENT, SUN)
    assert of(events, "dice_set_aside")[0].dice == keep
    assert of(events, "dice_set_aside")[0].by_deadline
    assert state.set_aside == keep


def test_a_shooter_with_no_bet_at_the_deadline_loses_the_dice() -> None:
    state = bet(table(), B, "tea", 1)
    state, events = step(state, None, Deadline())
    assert of(events, "bet_returned")
    assert of(events, "dice_passed")[0].reason == "absent"
    assert state.shooter == B
    assert state.stakes[B] == 0


def test_two_idle_turns_in_a_row_pass_the_dice() -> None:
    state = bet(table(bet_seconds=0), A, "shooter", 1)
    state, _ = step(state, None, Deadline(), *COMBO_ROLLS["seven_thunders"])
    assert state.shooter == A and state.phase == "won" and state.idle_turns == 1
    # The idle winner's choice is made for them: a new turn.
    state, events = step(state, None, Deadline())
    assert of(events, "new_turn_started")[0].by_deadline
    state = bet(state, A, "shooter", 1)
    state, events = step(state, None, Deadline(), *COMBO_ROLLS["seven_thunders"])
    assert of(events, "dice_passed")[0].reason == "absent"
    assert state.shooter == B


def test_a_shooter_who_rolls_is_not_idle() -> None:
    state = bet(table(bet_seconds=0), A, "shooter", 1)
    state, _ = step(state, None, Deadline(), *COMBO_ROLLS["seven_thunders"])
    state, _ = step(state, A, NewTurn())
    state = bet(state, A, "shooter", 1)
    state, _ = roll(state, *COMBO_ROLLS["seven_thunders"])
    assert state.idle_turns == 0 and state.shooter == A


def test_only_the_table_calls_time() -> None:
    illegal(table(), A, Deadline(), "Only the table")


# ------------------------------------------------------------------- abort


def test_abort_before_the_first_roll_returns_every_bet() -> None:
    state = bet(table(), A, "shooter", 2)
    state = bet(state, B, "daikoku", 4)
    state, events = step(state, None, Abort())
    assert state.finished
    assert {(e.player, e.amount) for e in of(events, "bet_returned")} == {(A, 2), (B, 4)}
    assert state.stakes == {A: 0, B: 0, C: 0}
    assert state.payouts == {HOUSE: 0, A: 0, B: 0, C: 0}
    assert fw.deadline_seconds(state) is None


def test_abort_mid_turn_settles_each_bet_at_its_exact_value_rounded_down() -> None:
    state = bet(table(), A, "shooter", 1)
    state, _ = roll(state, *COMBO_ROLLS["seven_thunders"])  # A won 2
    state, _ = step(state, A, NewTurn())
    state = bet(state, A, "shooter", 10)
    state = bet(state, B, "tea", 10)
    state = bet(state, C, "against", 9)
    state, _ = roll(state, NORTH, NORTH, WIND, BLANK, VOID)
    advice = fw.keep_advice(state)
    assert advice is not None and advice.keep == ["earth", "water", "fire"]
    assert sum(advice.outcomes.values()) == 1
    assert advice.shooter_ev == exact_value_three_winds_aside("shooter", 1)
    state, events = step(state, None, Abort())
    assert fw.keep_advice(state) is None
    valued = {e.player: e for e in of(events, "bet_valued")}
    assert set(valued) == {A, B, C}
    # Independently: from roll 2 with North, East, West aside (the best keep here).
    for player, kind, amount in [(A, "shooter", 10), (B, "tea", 10), (C, "against", 9)]:
        value = exact_value_three_winds_aside(kind, amount)
        assert valued[player].net == value.__floor__()
        assert valued[player].net <= value
    assert state.payouts[A] == 2 + valued[A].net
    assert sum(state.payouts.values()) == 0
    assert state.stakes == {A: 0, B: 0, C: 0}


def exact_value_three_winds_aside(kind: str, amount: int) -> Fraction:
    """A bet's value with three Winds aside before roll 2: each of roll 2 and 3 the Air
    die shows South with 1/3 and the black die Moon 1/6, Fortunes 1/3, Sun 1/6, Void 1/3."""
    value = Fraction(0)
    carry = Fraction(1)
    for r in (2, 3):
        moon = carry * Fraction(1, 6)
        value += moon * fw.outcome_net(kind, amount, (r, "moon"))  # type: ignore[arg-type]
        for black, p in [("fortunes_and_winds", 2), ("ladys_breath", 1), ("empty_winds", 2)]:
            hit = carry * Fraction(1, 3) * Fraction(p, 6)
            value += hit * fw.outcome_net(kind, amount, (r, black))  # type: ignore[arg-type]
        carry *= Fraction(5, 6) * Fraction(2, 3)
    value += carry * fw.outcome_net(kind, amount, (3, "nothing"))  # type: ignore[arg-type]
    return value


# ------------------------------------------------------------- player banker


def test_a_player_banker_covers_from_their_own_stake() -> None:
    state = fw.start(Rules(player_banker=True), [A, B, C], ScriptedDice())
    assert state.banker == A and state.shooter == B
    illegal(state, A, Bet(kind="tea", amount=1), "banker")
    state = bet(state, B, "shooter", 2)
    # The most the banker could pay: Fortunes and Winds on roll 1, 4 to 1 doubled.
    assert state.stakes[A] == 16 == fw.banker_exposure(state)
    assert fw.bank_exposure(state) == 0  # the house covers nothing
    state = bet(state, C, "against", 3)
    # Now the worst case is still the shooter's big win (against then loses 3).
    assert state.stakes[A] == 13
    state, _ = roll(state, *COMBO_ROLLS["seven_thunders"])
    assert state.payouts == {HOUSE: 0, A: -4 + 3, B: 4, C: -3}
    assert state.stakes == {A: 0, B: 0, C: 0}


def test_the_banker_never_shoots_and_the_dice_skip_them() -> None:
    state = fw.start(Rules(player_banker=True), [A, B, C], ScriptedDice())
    state, _ = step(state, B, PassDice())
    assert state.shooter == C
    state, _ = step(state, C, PassDice())
    assert state.shooter == B


def test_a_player_banker_needs_a_shooter() -> None:
    assert fw.seat_limits(Rules(player_banker=True))[0] == 2
    with pytest.raises(IllegalMove):
        fw.start(Rules(player_banker=True), [A], ScriptedDice())


def test_the_banker_leaving_closes_the_table_between_bets() -> None:
    state = fw.start(Rules(player_banker=True, house_guard=False), [A, B, C], ScriptedDice())
    state = bet(state, C, "tea", 1)
    illegal(state, A, Leave(), "bets that are riding")
    state, _ = step(state, B, PassDice())
    state, events = step(state, A, Leave())
    assert state.finished and of(events, "closed")[0].reason == "banker_left"


def test_the_last_shooter_leaving_a_player_banker_closes_the_table() -> None:
    """The banker still sits there: the table closes because nobody may shoot against
    them, not because everyone has gone; no bet is left open."""
    state = fw.start(Rules(player_banker=True, house_guard=False), [A, B, C], ScriptedDice())
    state = bet(state, C, "tea", 1)
    state, events = step(state, B, Leave())
    assert state.shooter == C and of(events, "bet_returned")[0].player == C
    state, events = step(state, C, Leave())
    assert state.finished and state.seats == [A]
    assert [e.kind for e in events] == ["left", "closed"]
    assert of(events, "closed")[0].reason == "no_shooter"
    assert state.bets == {} and not any(state.stakes.values())


def test_wallet_check_through_the_banker_stake() -> None:
    """The service keeps each wallet's change at ``payouts - stakes``: a banker holding
    10 coins cannot back a shooter's bet that could cost 16."""
    state = fw.start(Rules(player_banker=True), [A, B, C], ScriptedDice())
    banker_wallet = 10
    after = bet(state, B, "shooter", 2)
    needed = after.stakes[A] - after.payouts[A]
    assert needed > banker_wallet  # the service refuses: InsufficientFunds for A
    after = bet(state, B, "shooter", 1)
    assert after.stakes[A] - after.payouts[A] <= banker_wallet


# ------------------------------------------------------------------- seats


def test_join_and_leave() -> None:
    state = table([A, B])
    state, _ = step(state, C, Join())
    assert state.seats == [A, B, C]
    illegal(state, C, Join(), "already seated")
    state = bet(state, C, "tea", 1)
    illegal(state, C, Leave(), "bets riding")
    state, _ = step(state, B, Leave())
    assert state.seats == [A, C]


def test_a_shooter_leaving_between_turns_passes_the_dice_and_returns_bets() -> None:
    state = bet(table(), B, "tea", 1)
    state, events = step(state, A, Leave())
    assert state.shooter == B
    assert of(events, "bet_returned")[0].player == B
    assert of(events, "dice_passed")[0].reason == "left"


def test_the_shooter_cannot_leave_mid_turn() -> None:
    state = bet(table(), A, "shooter", 1)
    illegal(state, A, Leave(), "bets riding")


def test_the_last_player_leaving_closes_the_table() -> None:
    state, events = step(table([A]), A, Leave())
    assert state.finished and of(events, "closed")[0].reason == "empty"


def test_a_full_table_refuses_a_join() -> None:
    state = table([A, B], max_players=2)
    illegal(state, C, Join(), "full")


# ------------------------------------------------------------------ parsing


@pytest.mark.parametrize(
    "action",
    [
        *(Bet(kind=kind, amount=3) for kind in fw.BET_KINDS),
        Roll(),
        SetAside(dice=["earth", "air"]),
        NewTurn(),
        PassDice(),
        Join(),
        Leave(),
        Deadline(),
        Abort(),
    ],
)
def test_every_action_parses_back_from_its_log(action: Any) -> None:
    assert fw.parse_action(action.model_dump(mode="json")) == action


def test_state_round_trips_through_json() -> None:
    state = bet(table(), A, "shooter", 1)
    state, events = roll(state, *NOTHING)
    assert State.model_validate_json(state.model_dump_json()) == state
    for event in events:
        assert fw.parse_event(event.model_dump(mode="json")) == event


def test_legal_actions_are_exactly_what_the_checks_allow() -> None:
    state = bet(table(), A, "shooter", 1)
    assert Roll() in fw.legal_actions(state, A)
    assert Roll() not in fw.legal_actions(state, B)
    state, _ = roll(state, *NOTHING)
    moves = fw.legal_actions(state, A)
    assert Roll() in moves
    assert sum(isinstance(move, SetAside) for move in moves) == 4 + 6 + 4


@pytest.mark.parametrize(
    ("shooter", "others"),
    [
        (1, [("hungry", 1)]),
        (5, [("daikoku", 2), ("tea", 1)]),
        (10, [("against", 6)]),
        (3, [("ride", 3), ("tea", 2)]),
        (7, []),
    ],
)
@pytest.mark.parametrize("kind", ["daikoku", "against", "tea", "hungry"])
def test_the_guards_limit_is_every_amount_up_to_it(
    shooter: int, others: list[tuple[str, int]], kind: str
) -> None:
    state = fw.start(Rules(max_stake=1000, bet_seconds=0), [A, B, C], ScriptedDice())
    state = bet(state, A, "shooter", shooter)
    for held, amount in others:
        state = bet(state, B, held, amount)
    if kind in {"against", "daikoku"} and any(h in {"against", "daikoku"} for h, _ in others):
        return  # B cannot back both sides; C's own bet is what is checked below
    step_ = fw.whole_pays_step(kind)  # type: ignore[arg-type]
    limit = fw.guard_limit(state, C, kind)  # type: ignore[arg-type]
    for amount in range(step_, min(limit, 40) + 1, step_):
        assert fw.joint_ev(state, Bet(kind=kind, amount=amount), C) <= 0, amount  # type: ignore[arg-type]
    assert fw.joint_ev(state, Bet(kind=kind, amount=limit + step_), C) > 0  # type: ignore[arg-type]
    if limit:
        bet(state, C, kind, limit)
    if limit < 1000:
        message = illegal(state, C, Bet(kind=kind, amount=limit + step_), "house guard")  # type: ignore[arg-type]
        assert (f"at most {limit} coin" in message) if limit else ("takes no more" in message)


def test_with_the_guard_on_the_worked_examples_first_two_turns_are_taken() -> None:
    # Only the third turn's Hungry Moon of 2 is refused (the test above); the bets of the
    # first two turns keep the players together at or below zero.
    state = fw.start(Rules(), [GINAWA, SANZO, UJIKEME], ScriptedDice())
    state = bet(state, GINAWA, "shooter", 1)
    state = bet(state, SANZO, "ride", 1)
    state = bet(state, UJIKEME, "against", 3)
    assert fw.joint_ev(state) < 0
    state = State.model_validate(
        {**state.model_dump(), "shooter": SANZO, "bets": {}, "bets_closed": False}
    )
    state = State.model_validate(
        {**state.model_dump(), "stakes": {GINAWA: 0, SANZO: 0, UJIKEME: 0}}
    )
    state = bet(state, SANZO, "shooter", 2)
    state = bet(state, GINAWA, "tea", 1)
    state = bet(state, UJIKEME, "hungry", 1)
    assert fw.joint_ev(state) < 0


@pytest.mark.parametrize(
    ("player_banker", "balances", "order"),
    [
        (True, {1: 100, 2: 300, 3: 200}, [2, 1, 3]),
        (True, {1: 300, 2: 300, 3: 200}, [1, 2, 3]),  # a tie: who sat down first
        (True, {1: 5, 2: 5, 3: 9}, [3, 1, 2]),
        (False, {1: 100, 2: 300, 3: 200}, [1, 2, 3]),  # the house banks: seats as sat
    ],
)
def test_the_richest_player_takes_the_bankers_seat(
    player_banker: bool, balances: dict[int, int], order: list[int]
) -> None:
    from bot.games.fortunes_winds import ENGINE, Rules

    rules = Rules(player_banker=player_banker)
    assert ENGINE.seats_by_wallet
    assert ENGINE.seat_order(rules, [1, 2, 3], balances) == order


@pytest.mark.parametrize(
    ("kind", "amount", "offered"),
    [
        # The guard takes at most 15 on "against" beside a shooter's 10, the table 100.
        ("against", 100, "bet 15, not 100"),
        ("against", 16, "bet 15, not 16"),
        ("against", 14, "bet 12 or 15, not 14"),
        ("against", 10, "bet 9 or 12, not 10"),
        ("daikoku", 101, "bet 100, not 101"),
        ("daikoku", 7, "bet 6 or 8, not 7"),
    ],
)
def test_a_multiples_refusal_offers_only_amounts_the_table_takes(
    kind: str, amount: int, offered: str
) -> None:
    state = fw.start(Rules(max_stake=100, bet_seconds=0), [A, B, C], ScriptedDice())
    state = bet(state, A, "shooter", 10)
    assert fw.guard_limit(state, C, "against") == 15
    message = illegal(state, C, Bet(kind=kind, amount=amount))  # type: ignore[arg-type]
    assert offered in message, message


def test_a_multiples_refusal_counts_the_minimum_and_what_is_held() -> None:
    state = table(min_stake=5, max_stake=20)
    state = bet(state, A, "shooter", 5)
    assert "bet 6, not 4" in illegal(state, B, Bet(kind="against", amount=4))
    state = bet(state, B, "against", 12)
    assert "bet 6, not 7" in illegal(state, B, Bet(kind="against", amount=7))
    state = fw.start(Rules(max_stake=100, bet_seconds=0), [A, B, C], ScriptedDice())
    state = bet(state, A, "shooter", 1)  # the guard takes no "against" beside it
    assert "no multiple of 3 fits" in illegal(state, C, Bet(kind="against", amount=4))
