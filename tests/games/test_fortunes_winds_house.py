"""Fortunes and Winds, issue 24 (the rules file's turn-3 rulings): a computer seat's
stakes are the house's own coins, whole pays (Belly in 2s, Against in 3s) with an exact
guard limit, the guard protecting a player banker, and the betting window after the
shooter's bet. Every verdict of the guard is checked against exact fractions."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.games import fortunes_winds as fw
from bot.games.common import HOUSE, Deadline
from bot.games.dice import ScriptedDice
from bot.games.errors import IllegalMove
from bot.games.fortunes_winds import Bet, Join, Leave, Ready, Roll, Rules, State

COMPUTER, MEMBER, FRIEND, THIRD = 1, 101, 202, 303
NOTHING = (6, 6, 6, 6, 1)


def act(state: State, player: int | None, action: Any, *rolls: int) -> tuple[State, list[Any]]:
    dice = ScriptedDice(rolls)
    before = state.model_dump_json()
    new, events = fw.act(state, player, action, dice)
    assert state.model_dump_json() == before, "act mutated its input"
    assert dice.remaining == 0
    return new, events


def bet(state: State, player: int, kind: str, amount: int) -> State:
    return act(state, player, Bet(kind=kind, amount=amount))[0]  # type: ignore[arg-type]


def refused(state: State, player: int | None, action: Any, match: str) -> str:
    dump = state.model_dump_json()
    with pytest.raises(IllegalMove, match=match) as info:
        fw.act(state, player, action, ScriptedDice([1, 2, 3, 4, 5, 6]))
    assert state.model_dump_json() == dump
    return str(info.value)


def takes(state: State, player: int, kind: str, amount: int) -> bool:
    """Whether the engine takes the bet (the guard's verdict; the bet is legal otherwise)."""
    try:
        fw.act(state, player, Bet(kind=kind, amount=amount), ScriptedDice())  # type: ignore[arg-type]
    except IllegalMove as refusal:
        assert "house guard" in str(refusal), refusal
        return False
    return True


def value_under_best_keep(bets: list[tuple[str, int]]) -> Fraction:
    """The exact expected net of these bets together, the shooter keeping for the shooter's
    bet (the odds module's dynamic programme gives each outcome's probability)."""
    outcomes = fw.turn_odds("best").outcomes
    return sum(
        (
            p * sum(fw.outcome_net(kind, amount, outcome) for kind, amount in bets)  # type: ignore[arg-type]
            for outcome, p in outcomes.items()
        ),
        Fraction(0),
    )


def computer_shoots(min_stake: int, **rules: Any) -> State:
    """A house-banked, guarded table where the computer shoots the minimum (as it does)."""
    rules = {"max_stake": 1000 * min_stake, "bet_seconds": 0, **rules}
    state = fw.start(
        Rules(min_stake=min_stake, house_seats=[COMPUTER], **rules),
        [COMPUTER, MEMBER, FRIEND],
        ScriptedDice(),
    )
    return bet(state, COMPUTER, "shooter", min_stake)


def least(kind: str, min_stake: int) -> int:
    step = fw.whole_pays_step(kind)  # type: ignore[arg-type]
    return -(-min_stake // step) * step


# ------------------------------------------------------------ the computer's turn

MIN_STAKES = [1, 100, 1000, 10000]


@pytest.mark.parametrize("min_stake", MIN_STAKES)
def test_on_the_computers_turn_the_guard_refuses_every_bet_that_beats_the_house(
    min_stake: int,
) -> None:
    """The computer's own shooter's bet is the house's: it adds no slack. A member's bet
    alone is taken exactly when its exact value under the computer's keeping is <= 0:
    Belly, Tea and riding at every amount; Hungry Moon and Against at none."""
    state = computer_shoots(min_stake)
    top = state.rules.max_stake
    for kind in ("ride", "daikoku", "tea", "hungry", "against"):
        low = least(kind, min_stake)
        step = fw.whole_pays_step(kind)  # type: ignore[arg-type]
        for amount in sorted(
            {low, low + step, 7 * low, 137 * low // 100 // step * step, top // step * step}
        ):
            fair = value_under_best_keep([(kind, amount)]) <= 0
            assert takes(state, MEMBER, kind, amount) is fair, (kind, amount)
        fair_kind = value_under_best_keep([(kind, step)]) <= 0
        assert fair_kind is (kind in ("ride", "daikoku", "tea")), kind


@pytest.mark.parametrize("min_stake", MIN_STAKES)
def test_on_the_computers_turn_a_members_ride_is_the_only_slack(min_stake: int) -> None:
    """A member who rides the computer may then back Hungry Moon up to exactly the ride's
    loss: the named limit keeps the members' exact value <= 0, one coin more does not."""
    state = bet(computer_shoots(min_stake), MEMBER, "ride", 10 * min_stake)
    limit = fw.guard_limit(state, FRIEND, "hungry")
    members = [("ride", 10 * min_stake)]
    assert value_under_best_keep([*members, ("hungry", limit)]) <= 0
    assert value_under_best_keep([*members, ("hungry", limit + 1)]) > 0
    assert fw.joint_ev(state, Bet(kind="hungry", amount=limit), FRIEND) == value_under_best_keep(
        [*members, ("hungry", limit)]
    )
    if limit >= min_stake:
        assert takes(state, FRIEND, "hungry", limit)
    assert not takes(state, FRIEND, "hungry", limit + 1)


def test_the_computers_bet_is_not_counted_but_a_members_shot_still_is() -> None:
    # A member shooting at the same table: their own bet is the members' slack, as before.
    state = fw.start(
        Rules(house_seats=[COMPUTER], bet_seconds=0), [MEMBER, COMPUTER, FRIEND], ScriptedDice()
    )
    state = bet(state, MEMBER, "shooter", 1)
    assert takes(state, FRIEND, "hungry", 1)
    assert not takes(state, FRIEND, "hungry", 2)  # the worked example's third turn


def test_a_computer_never_sits_at_an_unguarded_house_table() -> None:
    with pytest.raises(IllegalMove, match="guard"):
        fw.start(
            Rules(house_guard=False, house_seats=[COMPUTER]), [MEMBER, COMPUTER], ScriptedDice()
        )
    # Guarded, or with a player banker (the computer never bets there), it may.
    fw.start(Rules(house_seats=[COMPUTER]), [MEMBER, COMPUTER], ScriptedDice())
    fw.start(
        Rules(house_guard=False, player_banker=True, house_seats=[COMPUTER]),
        [MEMBER, COMPUTER, FRIEND],
        ScriptedDice(),
    )
    # Members alone at an unguarded table play the seed's pays (the worked example).
    fw.start(Rules(house_guard=False), [MEMBER, FRIEND], ScriptedDice())


# ------------------------------------------------------------------- whole pays


@pytest.mark.parametrize(
    ("kind", "amount", "nearest"),
    [
        ("daikoku", 1, "bet 2, not 1"),
        ("daikoku", 21, "bet 20 or 22, not 21"),
        ("against", 1, "bet 3, not 1"),
        ("against", 4, "bet 3 or 6, not 4"),
        ("against", 29, "bet 27 or 30, not 29"),
    ],
)
def test_an_amount_off_the_whole_pays_multiple_is_refused_naming_the_nearest(
    kind: str, amount: int, nearest: str
) -> None:
    state = fw.start(Rules(house_guard=False, bet_seconds=0), [MEMBER, FRIEND], ScriptedDice())
    message = refused(state, FRIEND, Bet(kind=kind, amount=amount), "multiples")  # type: ignore[arg-type]
    assert nearest in message


def test_whole_pays_win_whole_coins_with_nothing_rounded() -> None:
    state = fw.start(
        Rules(house_guard=False, bet_seconds=0), [MEMBER, FRIEND, THIRD], ScriptedDice()
    )
    state = bet(state, MEMBER, "shooter", 1)
    state = bet(state, FRIEND, "daikoku", 4)
    state = bet(state, FRIEND, "daikoku", 2)  # a top-up in the multiple too
    state = bet(state, THIRD, "tea", 1)
    state, events = act(state, MEMBER, Roll(), 1, 1, 1, 1, 3)  # Seven Thunders on roll 1
    nets = {(e.player, e.bet): e.net for e in events if e.kind == "bet_settled"}
    assert nets[(FRIEND, "daikoku")] == 9  # 6 to win 9


@pytest.mark.parametrize(
    ("shooter", "others"),
    [
        (3, [("daikoku", 2)]),
        (10, [("ride", 10)]),
        (20, []),
        (5, [("tea", 4)]),
        (1, []),
    ],
)
@pytest.mark.parametrize("kind", ["daikoku", "against"])
def test_the_guard_takes_exactly_the_multiples_up_to_its_named_limit(
    shooter: int, others: list[tuple[str, int]], kind: str
) -> None:
    """The accepted set is exactly 0..N in the kind's multiples: every multiple up to the
    limit is taken, every one above it (far past it too) refused, and the refusal names N."""
    state = fw.start(Rules(max_stake=1000, bet_seconds=0), [MEMBER, FRIEND, THIRD], ScriptedDice())
    state = bet(state, MEMBER, "shooter", shooter)
    for held, amount in others:
        state = bet(state, FRIEND, held, amount)
    step = fw.whole_pays_step(kind)  # type: ignore[arg-type]
    limit = fw.guard_limit(state, THIRD, kind)  # type: ignore[arg-type]
    assert limit % step == 0
    for amount in range(step, 301, step):
        assert takes(state, THIRD, kind, amount) is (amount <= limit), (amount, limit)
    if limit < 300:
        message = refused(state, THIRD, Bet(kind=kind, amount=limit + step), "house guard")  # type: ignore[arg-type]
        assert (f"at most {limit} coins" in message) if limit else ("takes no more" in message)


def test_the_guard_names_no_amount_under_the_table_minimum() -> None:
    state = fw.start(
        Rules(min_stake=100, max_stake=1000, bet_seconds=0), [MEMBER, FRIEND, THIRD], ScriptedDice()
    )
    state = bet(bet(state, MEMBER, "shooter", 100), FRIEND, "hungry", 100)
    limit = fw.guard_limit(state, THIRD, "hungry")
    assert 0 < limit < 100
    message = refused(state, THIRD, Bet(kind="hungry", amount=100), "house guard")
    assert "takes no more" in message, "a limit under the minimum can't be bet"


# -------------------------------------------------------------- a player banker


def test_the_guard_protects_a_player_banker_as_it_protects_the_house() -> None:
    house = fw.start(Rules(bet_seconds=0), [MEMBER, FRIEND, THIRD], ScriptedDice())
    player = fw.start(
        Rules(player_banker=True, bet_seconds=0), [THIRD, MEMBER, FRIEND], ScriptedDice()
    )
    assert player.banker == THIRD and player.shooter == MEMBER
    for state in (bet(house, MEMBER, "shooter", 1), bet(player, MEMBER, "shooter", 1)):
        message = refused(state, FRIEND, Bet(kind="hungry", amount=5), "house guard")
        assert "at most 1 coin" in message
        assert fw.joint_ev(bet(state, FRIEND, "hungry", 1)) <= 0
    # Off (a moderator's choice), a player banker covers what their wallet covers.
    unguarded = fw.start(
        Rules(player_banker=True, house_guard=False, bet_seconds=0),
        [THIRD, MEMBER, FRIEND],
        ScriptedDice(),
    )
    state = bet(bet(unguarded, MEMBER, "shooter", 1), FRIEND, "hungry", 5)
    assert fw.joint_ev(state) > 0


# ------------------------------------------------------------ the betting window


def window_table(players: list[int] | None = None, **rules: Any) -> State:
    rules.setdefault("house_guard", False)
    rules.setdefault("bet_seconds", 30)
    return fw.start(Rules(**rules), players or [MEMBER, FRIEND, THIRD], ScriptedDice())


def test_the_shooter_cannot_roll_until_every_other_member_bet_or_is_ready() -> None:
    state = window_table()
    assert not state.window_open and fw.deadline_seconds(state) == state.rules.roll_seconds
    state = bet(state, MEMBER, "shooter", 1)
    assert state.window_open and fw.waiting_on(state) == [FRIEND, THIRD]
    assert fw.deadline_seconds(state) == 30
    refused(state, MEMBER, Roll(), "still open")
    state = bet(state, FRIEND, "tea", 1)
    assert fw.waiting_on(state) == [THIRD]
    refused(state, MEMBER, Roll(), "still open")
    state = bet(state, FRIEND, "tea", 1)  # a top-up while the window waits
    state, events = act(state, THIRD, Ready())
    assert [e.kind for e in events] == ["player_ready", "betting_closed"]
    assert not events[-1].by_deadline
    assert not state.window_open and not fw.betting_open(state)
    refused(state, FRIEND, Bet(kind="tea", amount=1), "closed")
    assert fw.deadline_seconds(state) == state.rules.roll_seconds
    state, events = act(state, MEMBER, Roll(), *NOTHING)
    assert state.roll_number == 1


def test_the_deadline_closes_the_window_then_rolls_for_an_idle_shooter() -> None:
    state = bet(window_table(), MEMBER, "shooter", 1)
    state, events = act(state, None, Deadline())
    assert [e.kind for e in events] == ["betting_closed"] and events[0].by_deadline
    assert not state.window_open and state.bets_closed and not state.deadline_acted
    refused(state, THIRD, Bet(kind="tea", amount=1), "closed")
    state, events = act(state, None, Deadline(), *NOTHING)
    assert next(e for e in events if e.kind == "rolled").by_deadline


def test_a_member_who_bet_before_the_shooter_is_not_waited_for() -> None:
    state = bet(window_table([MEMBER, FRIEND]), FRIEND, "tea", 1)
    state, events = act(state, MEMBER, Bet(kind="shooter", amount=1))
    assert events[-1].kind == "betting_closed", "nobody left to wait for"
    act(state, MEMBER, Roll(), *NOTHING)


@pytest.mark.parametrize(
    ("players", "house_seats", "bet_seconds"),
    [
        ([MEMBER], [], 30),  # alone with its shooter
        ([MEMBER, COMPUTER], [COMPUTER], 30),  # only a computer besides
        ([MEMBER, FRIEND], [], 0),  # no window at this table
    ],
)
def test_no_window_opens_when_nobody_is_to_be_waited_for(
    players: list[int], house_seats: list[int], bet_seconds: int
) -> None:
    state = window_table(
        players, house_seats=house_seats, house_guard=True, bet_seconds=bet_seconds
    )
    state = bet(state, MEMBER, "shooter", 1)
    assert not state.window_open and fw.betting_open(state)
    act(state, MEMBER, Roll(), *NOTHING)


def test_on_the_computers_turn_the_window_waits_for_the_members_only() -> None:
    state = window_table([COMPUTER, MEMBER, FRIEND], house_seats=[COMPUTER], house_guard=True)
    state = bet(state, COMPUTER, "shooter", 1)
    assert state.window_open and fw.waiting_on(state) == [MEMBER, FRIEND]
    refused(state, COMPUTER, Roll(), "still open")
    state = bet(state, MEMBER, "daikoku", 2)
    state, _ = act(state, FRIEND, Ready())
    assert not state.window_open
    act(state, COMPUTER, Roll(), *NOTHING)


def test_ready_refusals_and_no_bet_after_ready() -> None:
    state = window_table()
    refused(state, FRIEND, Ready(), "No betting window")
    state = bet(state, MEMBER, "shooter", 1)
    refused(state, MEMBER, Ready(), "not the shooter")
    state, _ = act(state, FRIEND, Ready())
    refused(state, FRIEND, Ready(), "already said")
    refused(state, FRIEND, Bet(kind="tea", amount=1), "ready")
    banked = window_table([THIRD, MEMBER, FRIEND], player_banker=True)
    banked = bet(banked, MEMBER, "shooter", 1)
    assert fw.waiting_on(banked) == [FRIEND], "the banker makes no bets: never waited for"
    refused(banked, THIRD, Ready(), "banker")


def test_joining_and_leaving_during_the_window() -> None:
    state = bet(window_table([MEMBER, FRIEND]), MEMBER, "shooter", 1)
    state, _ = act(state, THIRD, Join())
    assert fw.waiting_on(state) == [FRIEND, THIRD]
    state, _ = act(state, FRIEND, Ready())
    state, events = act(state, THIRD, Leave())
    assert events[-1].kind == "betting_closed", "it waited only for the member who left"
    act(state, MEMBER, Roll(), *NOTHING)


def test_a_new_turn_opens_a_new_window() -> None:
    state = bet(window_table([MEMBER, FRIEND]), MEMBER, "shooter", 1)
    state, _ = act(state, FRIEND, Ready())
    state, _ = act(state, MEMBER, Roll(), 1, 1, 1, 1, 3)  # Seven Thunders: won
    state, _ = act(state, MEMBER, fw.NewTurn())
    assert state.ready == [] and not state.window_open
    state = bet(state, MEMBER, "shooter", 1)
    assert fw.waiting_on(state) == [FRIEND]
    refused(state, MEMBER, Roll(), "still open")


def test_the_worked_example_plays_with_the_window() -> None:
    """Every member bets each turn of the seed's example: the window closes each time and
    the shooter rolls at once (off-guard, as the rules file plays it)."""
    g, s, u = MEMBER, FRIEND, THIRD
    state = window_table([g, s, u])
    for shooter, bets, rolls in [
        (g, [(s, "ride", 1), (u, "against", 3)], [(4, 4, 1, 6, 1), (4, 1, 5), (1, 3)]),
        (s, [(g, "tea", 1), (u, "hungry", 1)], [(1, 1, 1, 1, 5)]),
        (u, [(g, "hungry", 2), (s, "hungry", 1)], [(1, 1, 1, 4, 6)]),
    ]:
        state = bet(state, shooter, "shooter", {g: 1, s: 2, u: 1}[shooter])
        for player, kind, amount in bets:
            state = bet(state, player, kind, amount)
        assert not state.window_open
        for keep, faces in zip([["earth", "water"], ["fire"], []], rolls, strict=False):
            state, _ = act(state, shooter, Roll(), *faces)
            if state.roll_number and keep:
                state, _ = act(state, shooter, fw.SetAside(dice=keep))  # type: ignore[arg-type]
        if state.phase == "won":
            state, _ = act(state, shooter, fw.PassDice())
    assert state.payouts == {HOUSE: -9, g: 0, s: 8, u: 1}


def test_ready_parses_back_from_its_log() -> None:
    assert fw.parse_action({"kind": "ready"}) == Ready()
    assert fw.parse_event({"kind": "player_ready", "player": 5}) == fw.PlayerReady(player=5)


@settings(max_examples=150, deadline=None)
@given(
    st.sampled_from(MIN_STAKES),
    st.lists(
        st.tuples(
            st.sampled_from([MEMBER, FRIEND, THIRD]),
            st.sampled_from(["ride", "daikoku", "against", "tea", "hungry"]),
            st.integers(1, 40),
        ),
        max_size=8,
    ),
)
def test_whatever_the_members_bet_on_the_computers_turn_they_cannot_beat_the_house(
    min_stake: int, attempts: list[tuple[int, str, int]]
) -> None:
    """Any sequence of bets, in any amounts: what the engine takes keeps the members' exact
    value under the computer's keeping <= 0 (the computer's own bet not counted)."""
    state = fw.start(
        Rules(min_stake=min_stake, max_stake=40 * min_stake, bet_seconds=0, house_seats=[COMPUTER]),
        [COMPUTER, MEMBER, FRIEND, THIRD],
        ScriptedDice(),
    )
    state = bet(state, COMPUTER, "shooter", min_stake)
    for player, kind, units in attempts:
        amount = units * min_stake * fw.whole_pays_step(kind)  # type: ignore[arg-type]
        try:
            state, _ = fw.act(state, player, Bet(kind=kind, amount=amount), ScriptedDice())  # type: ignore[arg-type]
        except IllegalMove:
            continue
        members = [
            (kind_, n)
            for p, held in state.bets.items()
            if p != COMPUTER
            for kind_, n in held.items()
        ]
        assert value_under_best_keep(members) <= 0
        assert fw.joint_ev(state) == value_under_best_keep(members)
