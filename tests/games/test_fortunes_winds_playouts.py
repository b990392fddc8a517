"""Random Fortunes and Winds tables (hypothesis): the books always balance."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import event as note_event
from hypothesis import strategies as st

from bot.games import fortunes_winds as fw
from bot.games.common import HOUSE, Abort, Deadline
from bot.games.dice import ScriptedDice
from bot.games.errors import IllegalMove
from bot.games.fortunes_winds import Bet, Join, Leave, NewTurn, PassDice, Roll, Rules, SetAside

A, B, C, D = 101, 202, 303, 404
OUTSIDER = 999


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
        raise AssertionError("Fortunes and Winds never shuffles")


def random_action(data: st.DataObject, state: fw.State) -> tuple[int | None, Any]:
    choice = data.draw(st.integers(0, 99), label="choice")
    seated = state.seats or [A]
    anyone = st.sampled_from([*seated, OUTSIDER])
    if choice < 8:
        return state.shooter, Bet(kind="shooter", amount=data.draw(st.integers(1, 4)))
    if choice < 25:
        return state.shooter, Roll()
    if choice < 35:
        dice = data.draw(st.lists(st.sampled_from(fw.WHITE_DICE), min_size=1, max_size=3))
        return state.shooter, SetAside(dice=dice)
    if choice < 65:
        kind = data.draw(st.sampled_from(fw.BET_KINDS))
        amount = data.draw(st.integers(-1, 12))
        return data.draw(anyone), Bet(kind=kind, amount=amount)
    if choice < 77:
        return None, Deadline()
    if choice < 83:
        return data.draw(anyone), NewTurn()
    if choice < 89:
        return data.draw(anyone), PassDice()
    if choice < 93:
        return data.draw(st.sampled_from([OUTSIDER, OUTSIDER + 1, A])), Join()
    if choice < 98:
        return data.draw(anyone), Leave()
    return data.draw(st.sampled_from([*seated, None])), Abort()


def check_invariants(state: fw.State, nets: dict[int, int]) -> None:
    assert sum(state.payouts.values()) == 0
    assert HOUSE not in state.stakes
    assert all(amount >= 0 for amount in state.stakes.values())
    for player, amount in state.stakes.items():
        held = state.bets.get(player, {})
        expected = sum(fw.stake_of(kind, n) for kind, n in held.items())
        if player == state.banker:
            assert not held
            expected = fw.banker_exposure(state)
        assert amount == expected, (player, amount, expected)
    for player, net in nets.items():
        assert state.payouts.get(player, 0) == net
    if state.banker is None:
        assert state.payouts[HOUSE] == -sum(nets.values())
    else:
        assert state.payouts[HOUSE] == 0
    assert len(state.set_aside) <= 3
    assert all(die in fw.WHITE_DICE for die in state.set_aside)
    if state.bets:
        assert state.phase in ("betting", "rolling")
    if state.rules.guarded and fw.betting_open(state) and state.bets:
        assert fw.joint_ev(state) <= 0
    if state.finished:
        assert all(amount == 0 for amount in state.stakes.values())
        assert fw.deadline_seconds(state) is None
    else:
        assert state.shooter in state.seats and state.shooter != state.banker


@settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    data=st.data(),
    players=st.lists(st.sampled_from([A, B, C, D]), min_size=2, max_size=4, unique=True),
    player_banker=st.booleans(),
    house_guard=st.booleans(),
    allow_bet_against=st.booleans(),
    bet_seconds=st.sampled_from([0, 30]),
)
def test_random_tables_keep_the_books(
    data: st.DataObject,
    players: list[int],
    player_banker: bool,
    house_guard: bool,
    allow_bet_against: bool,
    bet_seconds: int,
) -> None:
    rules = Rules(
        player_banker=player_banker,
        house_guard=house_guard,
        allow_bet_against=allow_bet_against,
        bet_seconds=bet_seconds,
        max_stake=10,
        max_players=5,
    )
    state = fw.start(rules, players, ScriptedDice())
    initial = state
    history: list[tuple[int | None, Any]] = []
    all_rolls: list[int] = []
    nets: dict[int, int] = {}
    for _ in range(data.draw(st.integers(1, 80), label="steps")):
        if state.finished:
            break
        player, action = random_action(data, state)
        dice = DrawnDice(data)
        before = state.model_dump_json()
        set_aside_before = len(state.set_aside) if state.roll_number else 0
        try:
            new, events = fw.act(state, player, action, dice)
        except IllegalMove as refusal:
            assert str(refusal)
            assert state.model_dump_json() == before
            assert dice.rolls == []
            continue
        assert state.model_dump_json() == before, "act mutated its input"
        assert new.ply >= state.ply
        for event in events:
            assert fw.parse_event(event.model_dump(mode="json")) == event
        rolled = [e for e in events if e.kind == "rolled"]
        assert len(rolled) <= 1
        if rolled:
            assert new.ply > state.ply
            aside = len(rolled[0].set_aside)
            assert len(dice.rolls) == 5 - aside
            assert aside >= set_aside_before
        else:
            assert dice.rolls == []
        for event in events:
            if event.kind in ("bet_settled", "bet_valued"):
                nets[event.player] = nets.get(event.player, 0) + event.net
                bank = HOUSE if new.banker is None else new.banker
                nets[bank] = nets.get(bank, 0) - event.net
                if event.kind == "bet_valued":
                    assert event.net <= fw.stake_of(event.bet, event.amount) * 8
        nets.pop(HOUSE, None)
        check_invariants(new, nets)
        if any(e.kind == "turn_ended" for e in events):
            note_event("a turn ended")
        history.append((player, action))
        all_rolls.extend(dice.rolls)
        state = new
    # Replaying the log with the same rolls gives the very same table.
    replay = ScriptedDice(all_rolls)
    replayed = initial
    for player, action in history:
        replayed, _ = fw.act(
            replayed, player, fw.parse_action(action.model_dump(mode="json")), replay
        )
    assert replayed == state
    assert replay.remaining == 0
