"""Fortunes and Winds' computer: as shooter it keeps exactly ``best_keep`` and rolls, lets
the betting window run, bets only the shooter's required minimum and only against the
house bank (which moves nothing on balance), never against a player banker, never a side
bet; it passes the dice after a win; it reads only the public table and draws no die;
whole tables beside members who play at random go on legally."""

from __future__ import annotations

import random

import pytest

from bot.fairness import FairDice
from bot.games import fortunes_winds as fw
from bot.games.common import COMPUTER_IDS, HOUSE, Deadline, Leave
from bot.games.dice import ScriptedDice
from bot.players import fortunes_winds as player

COMPUTER, SECOND, MEMBER = COMPUTER_IDS[0], COMPUTER_IDS[1], 5005
NO_DICE = ScriptedDice()

# Faces by their position 1..6 on each die (the rules file's table).
EARTH, NORTH, RICE = 1, 4, 6
VOID, FORTUNES, SUN, MOON = 1, 3, 5, 6


def start(seats: list[int], **rules: object) -> fw.State:
    return fw.start(fw.Rules(**rules), seats, NO_DICE)


def test_the_shooter_bets_the_minimum_lets_the_window_run_then_rolls() -> None:
    state = start([COMPUTER, MEMBER], min_stake=3)
    first = player.decide(state, COMPUTER, NO_DICE)
    assert first == fw.Bet(kind="shooter", amount=3)
    assert player.decide(state, MEMBER, NO_DICE) is None
    state, _ = fw.act(state, COMPUTER, first, NO_DICE)
    assert player.decide(state, COMPUTER, NO_DICE) is None, "the members may still bet"
    state, _ = fw.act(state, None, Deadline(), NO_DICE)
    assert state.bets_closed
    assert player.decide(state, COMPUTER, NO_DICE) == fw.Roll()


def test_the_window_ends_once_every_member_bet_or_is_ready() -> None:
    state = start([COMPUTER, MEMBER, 6006], min_stake=3, house_seats=[COMPUTER])
    state, _ = fw.act(state, COMPUTER, player.decide(state, COMPUTER, NO_DICE), NO_DICE)
    state, _ = fw.act(state, MEMBER, fw.Bet(kind="ride", amount=4), NO_DICE)
    assert player.decide(state, COMPUTER, NO_DICE) is None, "6006 may still bet"
    state, _ = fw.act(state, 6006, fw.Ready(), NO_DICE)
    assert player.decide(state, COMPUTER, NO_DICE) == fw.Roll()


def test_with_no_betting_window_it_rolls_at_once() -> None:
    state = start([COMPUTER, MEMBER], bet_seconds=0)
    state, _ = fw.act(state, COMPUTER, player.decide(state, COMPUTER, NO_DICE), NO_DICE)
    assert player.decide(state, COMPUTER, NO_DICE) == fw.Roll()


def rolled(state: fw.State, faces: list[int]) -> fw.State:
    """The computer's first roll of a turn with these faces (Earth, Water, Fire, Air, Moon)."""
    state, _ = fw.act(state, COMPUTER, fw.Bet(kind="shooter", amount=1), NO_DICE)
    state, _ = fw.act(state, COMPUTER, fw.Roll(), ScriptedDice(faces))
    return state


@pytest.mark.parametrize(
    "faces",
    [
        [NORTH, NORTH, NORTH, EARTH, VOID],  # three Winds and an element
        [EARTH, EARTH, RICE, RICE, SUN],  # two elements, two blanks
        [RICE, RICE, RICE, RICE, FORTUNES],  # four blanks
        [NORTH, EARTH, NORTH, EARTH, VOID],
    ],
)
def test_between_rolls_it_sets_aside_exactly_the_best_keep_then_rolls(faces: list[int]) -> None:
    state = rolled(start([COMPUTER, MEMBER], bet_seconds=0), faces)
    assert state.phase == "rolling" and state.roll_number == 1
    keep = fw.best_keep(state)
    action = player.decide(state, COMPUTER, NO_DICE)
    if not keep:
        assert action == fw.Roll()
        return
    assert action == fw.SetAside(dice=keep)
    state, _ = fw.act(state, COMPUTER, action, NO_DICE)
    assert fw.best_keep(state) == [], "from the kept position nothing more is worth keeping"
    assert player.decide(state, COMPUTER, NO_DICE) == fw.Roll()


def test_after_a_win_it_passes_the_dice_or_alone_plays_on() -> None:
    lady_tears = [EARTH, EARTH, EARTH, EARTH, SUN]
    for seats, expected in (([COMPUTER, MEMBER], fw.PassDice()), ([COMPUTER], fw.NewTurn())):
        state = rolled(start(seats, bet_seconds=0), lady_tears)
        assert state.phase == "won" and state.shooter == COMPUTER
        assert state.payouts[COMPUTER] == 4, "The Lady's Tears on roll 1: 2 × 2 to 1"
        assert state.payouts[COMPUTER] + state.payouts[HOUSE] == 0, "house against house"
        assert player.decide(state, COMPUTER, NO_DICE) == expected


def test_it_never_bets_against_a_player_banker() -> None:
    # The member banks (the richest seat first); the computer shoots after it.
    state = start([MEMBER, COMPUTER, 6006], player_banker=True)
    assert state.banker == MEMBER and state.shooter == COMPUTER
    assert player.decide(state, MEMBER, NO_DICE) is None, "the banker is not the computer"
    assert player.decide(state, COMPUTER, NO_DICE) == fw.PassDice()
    state, _ = fw.act(state, COMPUTER, fw.PassDice(), NO_DICE)
    assert state.shooter == 6006


@pytest.mark.parametrize(
    "seats", [[MEMBER, COMPUTER], [MEMBER, COMPUTER, SECOND], [MEMBER, SECOND, COMPUTER]]
)
def test_with_no_member_to_shoot_beside_a_player_banker_it_cashes_out(seats: list[int]) -> None:
    """It cannot pass to a member and will not stake the house's coins against one: it
    leaves, as a member who will not stake would, and the table closes (waiting left the
    table to its deadlines; two computers passed the dice back and forth without end)."""
    state = start(seats, player_banker=True, house_seats=[COMPUTER, SECOND])
    for _ in range(len(seats)):
        if state.finished:
            break
        shooter = state.shooter
        action = player.decide(state, shooter, NO_DICE)
        assert action == Leave(), action
        state, _ = fw.act(state, shooter, action, NO_DICE)
    assert state.finished and state.seats == [MEMBER]
    assert all(net == 0 for net in state.payouts.values()), "nothing was staked"


def test_beside_a_player_banker_it_passes_through_computers_to_a_member() -> None:
    state = start([MEMBER, COMPUTER, SECOND, 6006], player_banker=True, house_seats=[1, 2])
    for seat in (COMPUTER, SECOND):
        assert state.shooter == seat
        assert player.decide(state, seat, NO_DICE) == fw.PassDice()
        state, _ = fw.act(state, seat, fw.PassDice(), NO_DICE)
    assert state.shooter == 6006 and state.bets == {}


def test_the_decision_reads_only_the_public_table_and_not_the_bets() -> None:
    state = rolled(
        start([COMPUTER, MEMBER, 6006], bet_seconds=0), [NORTH, EARTH, NORTH, RICE, VOID]
    )
    base = player.decide(state, COMPUTER, NO_DICE)
    for bets in ({MEMBER: {"hungry": 9}}, {MEMBER: {"ride": 2}, 6006: {"against": 30}}):
        other = state.model_copy(update={"bets": {**state.bets, **bets}})
        assert player.decide(other, COMPUTER, ScriptedDice()) == base


def test_a_seat_that_does_not_shoot_has_nothing_to_do() -> None:
    state = start([MEMBER, COMPUTER])
    for phase_state in (state, state.model_copy(update={"phase": "won"})):
        assert player.decide(phase_state, COMPUTER, NO_DICE) is None, "no side bets, no rides"
    assert player.decide(state, 4242, NO_DICE) is None, "not seated"
    closed = state.model_copy(update={"finished": True, "shooter": COMPUTER})
    assert player.decide(closed, COMPUTER, NO_DICE) is None


@pytest.mark.parametrize("seed", range(4))
def test_tables_with_the_computer_go_on_legally(seed: int) -> None:
    rng = random.Random(seed)
    dice = FairDice(bytes([seed + 40]) * 32)
    seats = [MEMBER, COMPUTER, SECOND] if seed % 2 else [COMPUTER, MEMBER]
    state = fw.start(fw.Rules(bet_seconds=30 if seed < 2 else 0), seats, dice)
    kept = rolls = turns_won = 0
    computers = [s for s in seats if s != MEMBER]
    for _ in range(600):
        if state.finished:
            break
        for seat in computers:
            action = player.decide(state, seat, dice)
            if action is None:
                continue
            assert action in fw.legal_actions(state, seat) or isinstance(action, fw.Bet)
            if isinstance(action, fw.Bet):
                assert action == fw.Bet(kind="shooter", amount=state.rules.min_stake)
            if isinstance(action, fw.SetAside):
                assert action.dice == fw.best_keep(state)
                kept += 1
            rolls += isinstance(action, fw.Roll)
            turns_won += isinstance(action, fw.PassDice | fw.NewTurn)
            state, _ = fw.act(state, seat, action, dice)  # raises if it were illegal
        moves = [m for m in fw.legal_actions(state, MEMBER) if not isinstance(m, Leave)]
        if moves and rng.random() < 0.6:
            state, _ = fw.act(state, MEMBER, rng.choice(moves), dice)
        elif rng.random() < 0.4:
            state, _ = fw.act(state, None, Deadline(), dice)
    assert rolls > 20 and kept > 3 and turns_won > 0
