"""Hazard's issue-9 rulings: the against bar and commission, the bank's edge on every bet
whatever the options, the betting window with Ready, Abort at exact value, bank exposure,
and no cashing out of a bet that rides on an undecided round."""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from bot.games import hazard as hz
from bot.games.common import HOUSE, Abort, Deadline
from bot.games.dice import ScriptedDice
from bot.games.errors import IllegalMove
from bot.games.hazard import Bet, CallMain, Join, Leave, PassDice, Ready, Rules, State, Throw

A, B, C = 101, 202, 303
MOD = 777  # a moderator who is not seated


def pair(total: int) -> tuple[int, int]:
    first = max(1, total - 6)
    return first, total - first


def table(players: Sequence[int] = (A, B, C), **rules: Any) -> State:
    return hz.start(Rules(**rules), list(players), ScriptedDice())


def step(state: State, player: int | None, action: Any, *totals: int) -> tuple[State, list[Any]]:
    dice = ScriptedDice([face for total in totals for face in pair(total)])
    before = state.model_dump_json()
    new, events = hz.act(state, player, action, dice)
    assert state.model_dump_json() == before, "act mutated its input"
    assert dice.remaining == 0, "not every scripted throw was used"
    return new, events


def play(state: State, *moves: Any) -> State:
    for move in moves:
        state, _ = step(state, *move)
    return state


def illegal(state: State, player: int | None, action: Any, match: str) -> None:
    dump = state.model_dump_json()
    with pytest.raises(IllegalMove, match=match):
        hz.act(state, player, action, ScriptedDice([1, 2, 3, 4]))
    assert state.model_dump_json() == dump


def of(events: list[Any], kind: str) -> list[Any]:
    return [event for event in events if event.kind == kind]


def allowed_options() -> list[tuple[bool, int]]:
    """Every (against_bar, against_commission) pair the rules accept."""
    combos = []
    for bar, percent in itertools.product((True, False), range(101)):
        try:
            Rules(against_bar=bar, against_commission=percent)
        except ValidationError:
            continue
        combos.append((bar, percent))
    return combos


# ------------------------------------------------------------------ exact edges


def test_exact_caster_odds_and_edges_with_the_bar() -> None:
    expected = {
        # main: (caster wins, edge on caster/with, edge on against with the bar)
        7: (Fraction(244, 495), Fraction(7, 495), Fraction(3, 220)),
        6: (Fraction(6961, 14256), Fraction(167, 7128), Fraction(31, 7128)),
        8: (Fraction(6961, 14256), Fraction(167, 7128), Fraction(31, 7128)),
        5: (Fraction(1396, 2835), Fraction(43, 2835), Fraction(143, 11340)),
        9: (Fraction(1396, 2835), Fraction(43, 2835), Fraction(143, 11340)),
    }
    for main, (wins, with_edge, against_edge) in expected.items():
        figures = hz.odds(main)
        assert figures.caster_wins == wins
        assert figures.edge("caster") == figures.edge("with") == with_edge
        assert figures.edge("against") == against_edge
        assert figures.edge("odds_for") == figures.edge("odds_against") == 0
    percents = {m: round(float(hz.odds(m).edge("against")) * 100, 2) for m in hz.MAINS}
    assert percents == {5: 1.26, 6: 0.43, 7: 1.36, 8: 0.43, 9: 1.26}
    caster = {m: round(float(hz.odds(m).edge("caster")) * 100, 2) for m in hz.MAINS}
    assert caster == {5: 1.52, 6: 2.34, 7: 1.41, 8: 2.34, 9: 1.52}


def test_against_without_the_bar_needs_five_percent() -> None:
    assert hz.min_against_commission(False) == 5
    assert hz.min_against_commission(True) == 0
    for percent in range(5):
        with pytest.raises(ValidationError, match="at least 5%"):
            Rules(against_bar=False, against_commission=percent)
    assert Rules(against_bar=False, against_commission=5).against_commission == 5
    # 4 % leaves main 6 (and 8) in the player's favour; 5 % does not.
    assert hz.odds(6, False, 4).edge("against") < 0
    assert hz.odds(6, False, 5).edge("against") > 0
    with pytest.raises(ValidationError):
        Rules(against_commission=101)
    with pytest.raises(ValidationError):
        Rules(bet_seconds=-1)


def test_every_allowed_option_set_gives_every_bet_a_non_negative_edge() -> None:
    combos = allowed_options()
    assert (True, 0) in combos and (False, 5) in combos and (False, 4) not in combos
    for (bar, percent), main, kind in itertools.product(combos, hz.MAINS, hz.BET_KINDS):
        assert hz.odds(main, bar, percent).edge(kind) >= 0, (bar, percent, main, kind)


def exact_bank_ev(rules: Rules, main: int, caster_stake: int, against: int, odds: bool) -> Fraction:
    """The bank's exact expected gain on one round, played through the engine.

    The caster (A) chooses the main and stakes on themselves; a friend (B) bets against;
    with a chance set both take the full odds on their side. Each first throw is weighed
    by its ways, each chance race by its exact odds.
    """
    state = table((A, B), **rules.model_dump())
    if caster_stake:
        state = play(state, (A, Bet(kind="caster", amount=caster_stake)))
    if against:
        state = play(state, (B, Bet(kind="against", amount=against)))
    state = play(state, (A, CallMain(main=main)))
    if state.window_open:
        state = play(state, (B, Ready()))
    ev = Fraction(0)
    for first in range(2, 13):
        thrown, _ = step(state, A, Throw(), first)
        weight = Fraction(hz.ways(first), 36)
        if thrown.chance is None:
            ev += weight * thrown.payouts[HOUSE]
            continue
        if odds and caster_stake:
            thrown = play(thrown, (A, Bet(kind="odds_for", amount=caster_stake)))
        if odds and against:
            thrown = play(thrown, (B, Bet(kind="odds_against", amount=against)))
        chance_first = Fraction(hz.ways(first), hz.ways(first) + hz.ways(main))
        won, _ = step(thrown, A, Throw(), first)
        lost, _ = step(thrown, A, Throw(), main)
        ev += weight * (
            chance_first * won.payouts[HOUSE] + (1 - chance_first) * lost.payouts[HOUSE]
        )
    return ev


@pytest.mark.parametrize("main", hz.MAINS)
def test_a_caster_and_a_friend_cannot_farm_the_bank(main: int) -> None:
    # The caster picks the main, the friend backs the other side, both take the odds:
    # under every allowed option set the bank still expects to gain.
    for bar, percent in [*allowed_options()[::7], (True, 0), (False, 5)]:
        rules = Rules(against_bar=bar, against_commission=percent, max_stake=10_000)
        for stake, against, odds in [(100, 100, False), (0, 100, False), (100, 100, True)]:
            ev = exact_bank_ev(rules, main, stake, against, odds)
            assert ev >= 0, (bar, percent, main, stake, against, odds)
            if not odds:
                # 100-coin bets make the commission exact: the engine's settlement matches
                # the odds screen's edge to the last fraction.
                figures = hz.odds(main, bar, percent)
                assert ev == stake * figures.edge("caster") + against * figures.edge("against")


def test_the_bar_pushes_against_on_a_first_throw_of_two_only() -> None:
    state = play(table(), (B, Bet(kind="with", amount=5)), (C, Bet(kind="against", amount=8)))
    state = play(state, (A, CallMain(main=7)), (B, Ready()), (C, Ready()))
    barred, events = step(state, A, Throw(), 2)
    settled = {e.player: (e.won, e.net, e.push) for e in of(events, "bet_settled")}
    assert settled == {B: (False, -5, False), C: (False, 0, True)}
    assert barred.payouts == {HOUSE: 5, A: 0, B: -5, C: 0}
    assert barred.stakes[C] == 0
    _out, events = step(state, A, Throw(), 3)
    assert {e.player: e.net for e in of(events, "bet_settled")} == {B: -5, C: 8}
    # Without the bar a 2 is an ordinary out for "against".
    free = table(bet_seconds=0, against_bar=False, against_commission=5)
    free = play(free, (C, Bet(kind="against", amount=8)), (A, CallMain(main=7)))
    _, events = step(free, A, Throw(), 2)
    (bet,) = of(events, "bet_settled")
    assert (bet.won, bet.net, bet.push, bet.commission) == (True, 7, False, 1)


@pytest.mark.parametrize(
    ("percent", "amount", "net"), [(5, 100, 95), (5, 10, 9), (5, 1, 0), (10, 15, 13), (0, 7, 7)]
)
def test_commission_is_rounded_in_the_banks_favour(percent: int, amount: int, net: int) -> None:
    rules = Rules(against_commission=percent)
    assert hz.against_net(rules, amount) == net
    state = table(bet_seconds=0, against_commission=percent)
    state = play(state, (C, Bet(kind="against", amount=amount)), (A, CallMain(main=7)))
    state, events = step(state, A, Throw(), 12)
    (bet,) = of(events, "bet_settled")
    assert (bet.won, bet.net, bet.commission) == (True, net, amount - net)
    assert state.payouts[HOUSE] == -net


# --------------------------------------------------------------- betting window


def test_the_window_holds_the_throw_until_everyone_is_ready() -> None:
    state = table(bet_seconds=20, throw_seconds=60)
    assert hz.deadline_seconds(state) == 60
    state, _ = step(state, A, CallMain(main=7))
    assert state.window_open and hz.deadline_seconds(state) == 20
    assert hz.waiting_on(state) == [B, C]
    illegal(state, A, Throw(), "still open")
    ply = state.ply
    state, events = step(state, B, Bet(kind="with", amount=10))
    assert of(events, "betting_closed") == [] and state.ply == ply, "a bet keeps buttons fresh"
    assert hz.waiting_on(state) == [C]
    state = play(state, (A, Bet(kind="caster", amount=4)), (B, Bet(kind="with", amount=5)))
    state, events = step(state, C, Ready())
    assert [e.kind for e in events] == ["player_ready", "betting_closed"]
    assert not events[1].by_deadline
    assert not state.window_open and state.ply == ply + 1
    assert hz.deadline_seconds(state) == 60
    illegal(state, C, Bet(kind="against", amount=5), "window has ended")
    illegal(state, A, Bet(kind="caster", amount=5), "window has ended")
    illegal(state, B, Ready(), "No betting window")
    state, events = step(state, A, Throw(), 7)
    assert {e.player: e.net for e in of(events, "bet_settled")} == {A: 4, B: 15}
    # The next round opens betting again (before its main call too).
    assert hz.betting_open(state) and not state.bets_closed
    state = play(state, (C, Bet(kind="against", amount=3)), (A, CallMain(main=6)))
    assert hz.waiting_on(state) == [B, C], "a bet placed before the main was known counts not"


def test_the_deadline_closes_the_window_and_the_next_one_throws() -> None:
    state = play(table(bet_seconds=20), (A, CallMain(main=7)), (B, Ready()))
    state, events = step(state, None, Deadline())
    assert [e.kind for e in events] == ["betting_closed"] and events[0].by_deadline
    assert not state.deadline_acted, "the window's time is not the caster's absence"
    state, events = step(state, None, Deadline(), 7)
    assert [e.kind for e in events] == ["thrown", "round_ended"]
    assert state.absent_rounds == 1


def test_an_absent_caster_gets_a_main_then_the_window_then_a_throw() -> None:
    state, events = step(table(bet_seconds=20), None, Deadline())
    assert [e.kind for e in events] == ["main_called"] and state.window_open
    state = play(state, (C, Bet(kind="against", amount=5)), (None, Deadline()))
    state, events = step(state, None, Deadline(), 4)
    assert events[0].kind == "thrown" and events[0].by_deadline


@pytest.mark.parametrize(("players", "seconds"), [((A,), 20), ((A, B), 0)])
def test_no_window_alone_or_when_switched_off(players: tuple[int, ...], seconds: int) -> None:
    state = play(table(players, bet_seconds=seconds), (A, CallMain(main=7)))
    assert not state.window_open
    state, events = step(state, A, Throw(), 7)
    assert of(events, "round_ended")


def test_ready_refusals_and_no_bets_after_ready() -> None:
    state = table(bet_seconds=20)
    illegal(state, B, Ready(), "No betting window")
    state = play(state, (A, CallMain(main=7)))
    illegal(state, A, Ready(), "not the caster")
    illegal(state, None, Ready(), "table itself")
    state = play(state, (B, Ready()))
    illegal(state, B, Ready(), "already")
    illegal(state, B, Bet(kind="with", amount=3), "no more bets")
    assert hz.parse_action(Ready().model_dump()) == Ready()
    assert Ready().model_dump() == {"kind": "ready"}


def test_joining_and_leaving_during_the_window() -> None:
    state = play(table(bet_seconds=20), (A, CallMain(main=7)), (B, Ready()))
    state = play(state, (404, Join()))
    assert hz.waiting_on(state) == [C, 404]
    state = play(state, (404, Ready()))
    state, events = step(state, C, Leave())
    assert of(events, "betting_closed"), "the window waited only for the player who left"
    state, _ = step(state, A, Throw(), 7)
    # The caster leaving lapses the main and the window.
    state = play(state, (A, CallMain(main=7)))
    state, _ = step(state, A, Leave())
    assert not state.window_open and state.main is None and state.caster == B


def test_passing_the_dice_during_the_window_returns_bets_and_resets_it() -> None:
    state = play(table(bet_seconds=20), (A, CallMain(main=7)), (B, Bet(kind="with", amount=5)))
    state, events = step(state, A, hz.PassDice())
    assert of(events, "bet_returned") and not state.window_open and state.caster == B
    assert state.ready == [] and state.window_bettors == []


# ------------------------------------------------------------------------ abort


def chance_position(**rules: Any) -> State:
    """Main 7, chance 4 (the chance comes first with probability 3/9)."""
    state = table(bet_seconds=0, **rules)
    state = play(
        state,
        (A, Bet(kind="caster", amount=10)),
        (B, Bet(kind="with", amount=7)),
        (C, Bet(kind="against", amount=10)),
        (A, CallMain(main=7)),
        (A, Throw(), 4),
        (A, Bet(kind="odds_for", amount=10)),
        (C, Bet(kind="odds_against", amount=10)),
    )
    return state


@pytest.mark.parametrize("by", [MOD, None, A])
def test_abort_before_the_first_throw_returns_every_bet(by: int | None) -> None:
    state = play(table(bet_seconds=20), (B, Bet(kind="with", amount=5)))
    state = play(state, (A, CallMain(main=7)), (C, Bet(kind="against", amount=9)))
    state, events = step(state, by, Abort())
    assert {(e.player, e.amount) for e in of(events, "bet_returned")} == {(B, 5), (C, 9)}
    assert events[-1] == hz.Aborted(by=by)
    assert state.finished and set(state.stakes.values()) == {0} and state.bets == {}
    assert state.payouts == {HOUSE: 0, A: 0, B: 0, C: 0}
    assert hz.deadline_seconds(state) is None
    illegal(state, MOD, Abort(), "closed")


def test_abort_keeps_settled_rounds() -> None:
    state = play(table(bet_seconds=0), (B, Bet(kind="with", amount=5)), (A, CallMain(main=7)))
    state = play(state, (A, Throw(), 7), (C, Bet(kind="against", amount=3)))
    state, _ = step(state, MOD, Abort())
    assert state.payouts == {HOUSE: -5, A: 0, B: 5, C: 0}


def test_abort_with_a_chance_set_pays_the_exact_value_rounded_down() -> None:
    state = chance_position()
    third = Fraction(1, 3)
    assert hz.abort_value(state, "caster", 10) == 20 * third  # 6⅔
    assert hz.abort_value(state, "with", 7) == 14 * third  # 4⅔
    assert hz.abort_value(state, "against", 10) == 20 * (1 - third)  # 13⅓
    assert hz.abort_value(state, "odds_for", 10) == 30 * third  # wins 20: 10
    assert hz.abort_value(state, "odds_against", 10) == 15 * (1 - third)  # wins 5: 10
    state, events = step(state, MOD, Abort())
    valued = {(e.player, e.bet): (e.returned, e.net) for e in of(events, "bet_valued")}
    assert valued == {
        (A, "caster"): (6, -4),
        (A, "odds_for"): (10, 0),
        (B, "with"): (4, -3),
        (C, "against"): (13, 3),
        (C, "odds_against"): (10, 0),
    }
    assert state.payouts == {HOUSE: 4, A: -4, B: -3, C: 3}
    assert state.finished and set(state.stakes.values()) == {0}
    # With a commission the "against" win is smaller, and so is its value.
    commissioned = chance_position(against_commission=10)
    assert hz.abort_value(commissioned, "against", 10) == 19 * (1 - third)  # 12⅔
    # Main 6, chance 8: an even race.
    even = play(
        table(bet_seconds=0),
        (B, Bet(kind="with", amount=7)),
        (A, CallMain(main=6)),
        (A, Throw(), 8),
    )
    assert hz.abort_value(even, "with", 7) == 7


@settings(max_examples=120, deadline=None)
@given(
    main=st.sampled_from(hz.MAINS),
    chance=st.sampled_from([4, 5, 6, 8, 9, 10]),
    amounts=st.lists(st.integers(1, 50), min_size=4, max_size=4),
    commission=st.sampled_from([0, 5, 13, 50]),
)
def test_abort_never_pays_more_than_the_exact_value(
    main: int, chance: int, amounts: list[int], commission: int
) -> None:
    if chance == main or hz.first_throw_outcome(main, chance) != "chance":
        return
    caster, against, odds_for, odds_against = amounts
    state = table(bet_seconds=0, against_commission=commission, max_stake=100)
    state = play(
        state,
        (A, Bet(kind="caster", amount=caster)),
        (C, Bet(kind="against", amount=against)),
        (A, CallMain(main=main)),
        (A, Throw(), chance),
    )
    state = play(
        state,
        (A, Bet(kind="odds_for", amount=min(odds_for, caster))),
        (C, Bet(kind="odds_against", amount=min(odds_against, against))),
    )
    # The exact value of each player's position: finish the round both ways.
    chance_first = Fraction(hz.ways(chance), hz.ways(chance) + hz.ways(main))
    won, _ = step(state, A, Throw(), chance)
    lost, _ = step(state, A, Throw(), main)
    aborted, _ = step(state, MOD, Abort())
    for player in (A, C):
        exact = chance_first * won.payouts[player] + (1 - chance_first) * lost.payouts[player]
        assert aborted.payouts[player] <= exact
        assert aborted.payouts[player] > exact - 2, "each of two bets loses under a coin"
    assert sum(aborted.payouts.values()) == 0
    house = chance_first * won.payouts[HOUSE] + (1 - chance_first) * lost.payouts[HOUSE]
    assert aborted.payouts[HOUSE] >= house, "the bank keeps the fractions"


# ---------------------------------------------------------------- bank exposure


def test_bank_exposure_examples() -> None:
    state = table(bet_seconds=0)
    assert hz.bank_exposure(state) == 0
    state = play(state, (B, Bet(kind="with", amount=10)), (C, Bet(kind="against", amount=4)))
    assert hz.bank_exposure(state) == 6  # the caster wins: pay 10, keep 4
    state = play(state, (A, Bet(kind="caster", amount=10)))
    assert hz.bank_exposure(state) == 16
    lone_against = play(table(bet_seconds=0), (C, Bet(kind="against", amount=20)))
    assert hz.bank_exposure(lone_against) == 20
    commissioned = table(bet_seconds=0, against_bar=False, against_commission=5)
    commissioned = play(commissioned, (C, Bet(kind="against", amount=20)))
    assert hz.bank_exposure(commissioned) == 19
    # A chance set: the odds pay at their true odds on their side.
    assert hz.bank_exposure(chance_position()) == 10 + 20 + 7 - 10 - 10
    # Only the caster's bets and the "against" bet together: the caster losing costs 5.
    mixed = play(
        table(bet_seconds=0),
        (A, Bet(kind="caster", amount=10)),
        (C, Bet(kind="against", amount=15)),
    )
    assert hz.bank_exposure(mixed) == 5


@settings(max_examples=80, deadline=None)
@given(
    bets=st.lists(
        st.tuples(st.sampled_from([A, B, C]), st.sampled_from(["caster", "with", "against"])),
        max_size=6,
    ),
    amounts=st.lists(st.integers(1, 30), min_size=6, max_size=6),
    main=st.sampled_from(hz.MAINS),
    odds_amounts=st.tuples(st.integers(0, 30), st.integers(0, 30)),
    bar=st.booleans(),
)
def test_bank_exposure_covers_every_outcome(
    bets: list[tuple[int, str]],
    amounts: list[int],
    main: int,
    odds_amounts: tuple[int, int],
    bar: bool,
) -> None:
    state = table(bet_seconds=0, against_bar=bar, against_commission=0 if bar else 7)
    for (player, kind), amount in zip(bets, amounts, strict=False):
        with contextlib.suppress(IllegalMove):
            state, _ = hz.act(state, player, Bet(kind=kind, amount=amount), ScriptedDice())
    state = play(state, (A, CallMain(main=main)))
    before = hz.bank_exposure(state)
    for first in range(2, 13):
        thrown, _ = step(state, A, Throw(), first)
        if thrown.chance is None:
            assert -thrown.payouts[HOUSE] <= before
            continue
        for player, amount in zip((A, B), odds_amounts, strict=True):
            kind = "odds_for" if player == A else "odds_against"
            if 0 < amount <= hz.odds_cap(thrown, player):
                thrown, _ = hz.act(thrown, player, Bet(kind=kind, amount=amount), ScriptedDice())
        during = hz.bank_exposure(thrown)
        for decider in (first, main):
            done, _ = step(thrown, A, Throw(), decider)
            assert -done.payouts[HOUSE] <= during
        assert during >= 0


# ------------------------------------------------------- no escape from a bet


def test_no_cashing_out_while_a_bet_rides_on_an_undecided_round() -> None:
    state = play(table(bet_seconds=20), (C, Bet(kind="against", amount=5)))
    illegal(state, C, Leave(), "bets riding")
    state = play(state, (A, CallMain(main=7)))
    illegal(state, C, Leave(), "bets riding")  # window open
    state = play(state, (B, Ready()), (C, Ready()), (A, Throw(), 4))
    illegal(state, C, Leave(), "bets riding")  # chance set: the bet is losing or winning
    illegal(state, A, Leave(), "middle of a round")
    illegal(state, None, hz.Close(), "round is in play")
    state, _ = step(state, A, Throw(), 7)
    state, events = step(state, C, Leave())
    assert events[0] == hz.Left(player=C, net=5)


def test_a_new_caster_does_not_inherit_the_last_casters_absence() -> None:
    """The table called the main for an absent caster, who then passed the dice: the next
    caster's first round is theirs, not an absent one."""
    state = table()
    state, _ = step(state, None, Deadline())  # the table calls 7 for A; the window opens
    assert state.deadline_acted
    state, _ = step(state, A, PassDice())
    assert state.caster == B and not state.deadline_acted
    state = play(state, (B, CallMain(main=7)), (None, Deadline()), (B, Throw(), 7))
    assert state.absent_rounds == 0
