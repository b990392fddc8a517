"""Hazard's computer: the main it calls is the argmax of the caster's exact chances
(worked out here from two d6 and the outcome table), it throws once the window lets it,
says Ready when the window waits for it, never bets or passes the dice, reads nothing
but the public table and draws no die; whole tables beside members who play at random
go on legally."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from bot.fairness import FairDice
from bot.games import hazard
from bot.games.common import COMPUTER_IDS, Deadline, Join, Leave
from bot.games.dice import ScriptedDice
from bot.games.errors import IllegalMove
from bot.players import hazard as player

COMPUTER, SECOND, MEMBER = COMPUTER_IDS[0], COMPUTER_IDS[1], 5005
NO_DICE = ScriptedDice()

NICKS = {5: {5}, 6: {6, 12}, 7: {7, 11}, 8: {8, 12}, 9: {9}}
OUTS = {5: {2, 3, 11, 12}, 6: {2, 3, 11}, 7: {2, 3, 12}, 8: {2, 3, 11}, 9: {2, 3, 11, 12}}


def caster_wins(main: int) -> Fraction:
    """The rules file's outcome table over the 36 throws of two d6: nick, out, or a chance
    that then races the main (the chance first wins)."""
    throws = [a + b for a in range(1, 7) for b in range(1, 7)]
    won = Fraction(0)
    for total in throws:
        if total in NICKS[main]:
            won += Fraction(1, 36)
        elif total not in OUTS[main]:
            chance, lose = throws.count(total), throws.count(main)
            won += Fraction(1, 36) * Fraction(chance, chance + lose)
    return won


def test_the_main_is_the_argmax_of_the_exact_chances() -> None:
    exact = {main: caster_wins(main) for main in hazard.MAINS}
    assert player.caster_chances() == exact
    assert exact[7] == Fraction(244, 495)
    assert exact[5] == exact[9] == Fraction(1396, 2835)
    assert exact[6] == exact[8] == Fraction(6961, 14256)
    best = max(exact.values())
    assert [main for main in hazard.MAINS if exact[main] == best] == [7], "no tie to break"
    assert player.best_main() == player.BEST_MAIN == 7


def test_equal_chances_go_to_the_lower_main(monkeypatch: pytest.MonkeyPatch) -> None:
    even = dict.fromkeys(hazard.MAINS, Fraction(1, 2))
    monkeypatch.setattr(player, "caster_chances", lambda: even)
    assert player.best_main() == 5


def start(seats: list[int], **rules: object) -> hazard.State:
    return hazard.start(hazard.Rules(**rules), seats, NO_DICE)


def test_the_caster_calls_waits_for_the_window_then_throws_to_the_end() -> None:
    state = start([COMPUTER, MEMBER])
    assert player.decide(state, COMPUTER, NO_DICE) == hazard.CallMain(main=7)
    assert player.decide(state, MEMBER, NO_DICE) is None, "not a seat of the computer's"
    state, _ = hazard.act(state, COMPUTER, hazard.CallMain(main=7), NO_DICE)
    assert state.window_open
    assert player.decide(state, COMPUTER, NO_DICE) is None, "the members may still bet"
    state, _ = hazard.act(state, MEMBER, hazard.Bet(kind="with", amount=5), NO_DICE)
    assert not state.window_open, "the member has bet: the window closed"
    assert player.decide(state, COMPUTER, NO_DICE) == hazard.Throw()
    state, _ = hazard.act(state, COMPUTER, hazard.Throw(), ScriptedDice([2, 2]))
    assert state.chance == 4, "a chance is set: throw on"
    assert player.decide(state, COMPUTER, NO_DICE) == hazard.Throw()
    state, _ = hazard.act(state, COMPUTER, hazard.Throw(), ScriptedDice([1, 3]))
    assert state.main is None and state.caster == COMPUTER, "it won and keeps the dice"
    assert state.payouts[MEMBER] == 5, "the member's 'with' bet won even money"
    assert player.decide(state, COMPUTER, NO_DICE) == hazard.CallMain(main=7)


@pytest.mark.parametrize("rules", [{"bet_seconds": 0}, {}])
def test_with_no_window_to_wait_for_it_throws_at_once(rules: dict[str, object]) -> None:
    seats = [COMPUTER, MEMBER] if rules else [COMPUTER]  # alone: no window either
    state = start(seats, **rules)
    state, _ = hazard.act(state, COMPUTER, hazard.CallMain(main=7), NO_DICE)
    assert not state.window_open
    assert player.decide(state, COMPUTER, NO_DICE) == hazard.Throw()


def test_beside_the_caster_it_is_ready_when_waited_for_and_idle_otherwise() -> None:
    state = start([MEMBER, COMPUTER, SECOND])
    assert player.decide(state, COMPUTER, NO_DICE) is None, "no window before the main"
    state, _ = hazard.act(state, MEMBER, hazard.CallMain(main=6), NO_DICE)
    assert player.decide(state, COMPUTER, NO_DICE) == hazard.Ready()
    state, _ = hazard.act(state, COMPUTER, hazard.Ready(), NO_DICE)
    assert player.decide(state, COMPUTER, NO_DICE) is None, "already ready"
    assert state.window_open, "the window still waits for the second computer"
    state, _ = hazard.act(state, SECOND, player.decide(state, SECOND, NO_DICE), NO_DICE)
    assert not state.window_open
    assert player.decide(state, COMPUTER, NO_DICE) is None, "the member throws"


def test_the_decision_reads_only_the_public_table_and_not_the_bets() -> None:
    state = start([COMPUTER, MEMBER, 6006])
    state, _ = hazard.act(state, COMPUTER, hazard.CallMain(main=7), NO_DICE)
    base = player.decide(state, COMPUTER, NO_DICE)
    for bets in ({MEMBER: {"with": 50}}, {MEMBER: {"against": 3}, 6006: {"with": 9}}):
        stakes = {COMPUTER: 0, MEMBER: 0, 6006: 0}
        stakes.update({p: sum(held.values()) for p, held in bets.items()})
        other = state.model_copy(update={"bets": bets, "stakes": stakes})
        assert player.decide(other, COMPUTER, ScriptedDice()) == base


def member_moves(state: hazard.State, rng: random.Random) -> list[hazard.Action]:
    """Every move the member could try now; the engine says which it accepts."""
    moves: list[hazard.Action] = [
        hazard.Ready(),
        hazard.Throw(),
        hazard.PassDice(),
        hazard.CallMain(main=rng.choice(hazard.MAINS)),
        *(hazard.Bet(kind=kind, amount=rng.randint(1, 20)) for kind in hazard.BET_KINDS),
    ]
    legal = []
    for move in moves:
        try:
            hazard.act(state, MEMBER, move, ScriptedDice([3, 4]))
        except IllegalMove:
            continue
        legal.append(move)
    return legal


@pytest.mark.parametrize("seed", range(4))
def test_tables_with_the_computer_go_on_legally(seed: int) -> None:
    rng = random.Random(seed)
    dice = FairDice(bytes([seed]) * 32)
    seats = [MEMBER, COMPUTER] if seed % 2 else [COMPUTER, MEMBER, SECOND]
    state = hazard.start(hazard.Rules(bet_seconds=20 if seed < 3 else 0), seats, dice)
    computer_moves = rounds_cast = 0
    for _ in range(400):
        for seat in [s for s in state.seats if s != MEMBER]:
            action = player.decide(state, seat, dice)
            if action is None:
                continue
            assert not isinstance(action, hazard.Bet | hazard.PassDice | Leave | Join)
            state, _ = hazard.act(state, seat, action, dice)  # raises if it were illegal
            computer_moves += 1
            rounds_cast += isinstance(action, hazard.CallMain)
        moves = member_moves(state, rng)
        if moves and rng.random() < 0.7:
            state, _ = hazard.act(state, MEMBER, rng.choice(moves), dice)
        elif rng.random() < 0.3:
            state, _ = hazard.act(state, None, Deadline(), dice)
    assert computer_moves > 50 and rounds_cast > 3
    for computer in (COMPUTER, SECOND):
        assert state.payouts.get(computer, 0) == 0 and state.stakes.get(computer, 0) == 0
        assert computer not in state.bets, "the computer never bets"


def test_computers_alone_keep_casting() -> None:
    dice = FairDice(b"alone" * 8)
    state = start([COMPUTER, SECOND, COMPUTER_IDS[2]])
    for _ in range(300):
        acted = False
        for seat in state.seats:
            action = player.decide(state, seat, dice)
            if action is not None:
                state, _ = hazard.act(state, seat, action, dice)
                acted = True
        assert acted, "the table never waits on a computer"
    assert state.round > 20
    assert all(state.payouts[p] == 0 for p in state.seats)
