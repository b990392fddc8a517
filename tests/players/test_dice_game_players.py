"""The Hazard and Fortunes and Winds computers: the best main by exact fractions, the keep
of the exact best-keep table, no bets of their own, and whole tables played legally to
the end beside a member who bets and plays at random."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from bot.fairness import FairDice
from bot.games import fortunes_winds as fw
from bot.games import hazard
from bot.games.common import Deadline, Leave
from bot.games.dice import ScriptedDice
from bot.players import COMPUTER_IDS
from bot.players import fortunes_winds as fw_player
from bot.players import hazard as hazard_player

COMPUTER, MEMBER = COMPUTER_IDS[0], 5005


def test_the_best_main_is_the_caster_s_best_chance() -> None:
    chances = {main: hazard.odds(main).caster_wins for main in hazard.MAINS}
    assert chances[7] == Fraction(244, 495) > chances[5] == chances[9] > chances[6]
    assert hazard_player.BEST_MAIN == 7 and chances[7] == max(chances.values())


def test_the_caster_calls_throws_and_never_bets() -> None:
    state = hazard.start(hazard.Rules(), [COMPUTER, MEMBER], ScriptedDice())
    assert hazard_player.decide(state, COMPUTER, ScriptedDice()) == hazard.CallMain(main=7)
    assert hazard_player.decide(state, MEMBER, ScriptedDice()) is None
    state, _ = hazard.act(state, COMPUTER, hazard.CallMain(main=5), ScriptedDice())
    assert state.window_open
    assert hazard_player.decide(state, COMPUTER, ScriptedDice()) is None, "the window waits"
    state, _ = hazard.act(state, MEMBER, hazard.Ready(), ScriptedDice())
    assert hazard_player.decide(state, COMPUTER, ScriptedDice()) == hazard.Throw()


def test_a_computer_beside_the_caster_is_ready_at_once() -> None:
    state = hazard.start(hazard.Rules(), [MEMBER, COMPUTER], ScriptedDice())
    state, _ = hazard.act(state, MEMBER, hazard.CallMain(main=7), ScriptedDice())
    assert hazard_player.decide(state, COMPUTER, ScriptedDice()) == hazard.Ready()
    state, _ = hazard.act(state, COMPUTER, hazard.Ready(), ScriptedDice())
    assert not state.window_open and hazard_player.decide(state, COMPUTER, ScriptedDice()) is None


def random_member_move(state, rng, legal):
    moves = legal(state, MEMBER)
    if not moves or rng.random() < 0.3:
        return Deadline() if rng.random() < 0.5 else None
    return rng.choice(moves)


def hazard_moves(state, player):
    moves = [hazard.Ready(), hazard.Throw(), hazard.CallMain(main=random.choice(hazard.MAINS))]
    moves += [hazard.Bet(kind=k, amount=5) for k in ("with", "against", "caster")]
    out = []
    for move in moves:
        try:
            hazard.act(state, player, move, ScriptedDice([3] * 10))
        except Exception:
            continue
        out.append(move)
    return out


@pytest.mark.parametrize("seed", range(4))
def test_hazard_tables_with_the_computer_play_on_legally(seed: int) -> None:
    rng = random.Random(seed)
    dice = FairDice(bytes([seed]) * 32)
    state = hazard.start(hazard.Rules(), [MEMBER, COMPUTER], dice)
    computer_moves = 0
    for _ in range(400):
        action = hazard_player.decide(state, COMPUTER, dice)
        if action is not None:
            assert not isinstance(action, hazard.Bet), "the computer never bets"
            state, _ = hazard.act(state, COMPUTER, action, dice)
            computer_moves += 1
            continue
        move = random_member_move(state, rng, hazard_moves)
        if move is None:
            continue
        state, _ = hazard.act(state, None if isinstance(move, Deadline) else MEMBER, move, dice)
    assert computer_moves > 20
    assert state.payouts.get(COMPUTER, 0) == 0 and state.stakes.get(COMPUTER, 0) == 0


def test_the_shooter_bets_the_minimum_waits_for_the_window_then_keeps_the_best() -> None:
    rules = fw.Rules()
    state = fw.start(rules, [COMPUTER, MEMBER], ScriptedDice())
    first = fw_player.decide(state, COMPUTER, ScriptedDice())
    assert first == fw.Bet(kind="shooter", amount=rules.min_stake)
    state, _ = fw.act(state, COMPUTER, first, ScriptedDice())
    if rules.bet_seconds > 0:
        assert fw_player.decide(state, COMPUTER, ScriptedDice()) is None, "the window runs"
        state, _ = fw.act(state, None, Deadline(), ScriptedDice())
    assert fw_player.decide(state, COMPUTER, ScriptedDice()) == fw.Roll()


@pytest.mark.parametrize("seed", range(4))
def test_fortunes_tables_with_the_computer_keep_by_the_table(seed: int) -> None:
    rng = random.Random(seed)
    dice = FairDice(bytes([seed + 40]) * 32)
    state = fw.start(fw.Rules(), [MEMBER, COMPUTER], dice)
    kept = rolled = 0
    for _ in range(600):
        if state.finished:
            break
        action = fw_player.decide(state, COMPUTER, dice)
        if action is not None:
            assert action in fw.legal_actions(state, COMPUTER) or isinstance(action, fw.Bet)
            if isinstance(action, fw.SetAside):
                assert action.dice == fw.best_keep(state)
                kept += 1
            if isinstance(action, fw.Bet):
                assert action.kind == "shooter", "no side bets"
            rolled += isinstance(action, fw.Roll)
            state, _ = fw.act(state, COMPUTER, action, dice)
            continue
        move = random_member_move(state, rng, fw.legal_actions)
        if move is None:
            continue
        if isinstance(move, Leave):
            continue
        state, _ = fw.act(state, None if isinstance(move, Deadline) else MEMBER, move, dice)
    assert rolled > 10 and kept > 0
