"""Nihakyu engine: the rules file's worked example, every tie path, every variant, the
table conventions, refusals, secrecy, and random playouts (money, termination, replay)."""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Sequence
from importlib import resources
from typing import Any, TypeVar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, TypeAdapter, ValidationError

from bot.games import nihakyu as N
from bot.games.common import HOUSE, Abort, Deadline, Honour
from bot.games.dice import ScriptedDice
from bot.games.errors import IllegalMove

A, B, C, D = 101, 202, 303, 404
DEALER = N.DEALER
ROLL, SHADOW, KAGE = N.Roll(), N.ShadowStep(), N.KageEndurance()
UP, DOWN, SKIP = N.Sleight(adjust=1), N.Sleight(adjust=-1), N.SkipSleight()
EVENTS = TypeAdapter(list[N.Event])
ACTION = TypeAdapter(N.Action)
T = TypeVar("T")


class RandomDice:
    """Seeded dice that remember every roll, so a game can be replayed with ScriptedDice."""

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)
        self.rolls: list[int] = []

    def roll(self, sides: int) -> int:
        value = self._rng.randint(1, sides)
        self.rolls.append(value)
        return value

    def shuffle(self, items: Sequence[T]) -> list[T]:
        raise AssertionError("Nihakyu never shuffles")


# --- helpers ---------------------------------------------------------------------------


def check_invariants(state: N.State) -> None:
    assert sum(state.payouts.values()) == 0
    assert HOUSE in state.payouts
    assert all(stake >= 0 for stake in state.stakes.values())
    assert set(state.stakes) == set(state.seats)
    if state.finished:
        assert state.phase == "finished"
        assert all(stake == 0 for stake in state.stakes.values())
        assert N.deadline_seconds(state) is None
    else:
        assert state.pot == sum(state.stakes.values())
        assert all(value == 0 for value in state.payouts.values())
    out = [p for p in state.seats if state.stamina[p] <= 0]
    assert sorted(out) == sorted(state.eliminated)
    assert len(set(state.eliminated)) == len(state.eliminated)


def step(
    state: N.State, player: int | None, action: BaseModel, dice: Any
) -> tuple[N.State, list[Any]]:
    """act(), plus the checks every act must pass (refusals re-raised after checking)."""
    snapshot = state.model_copy(deep=True)
    before = state.model_dump_json()
    try:
        new, events = N.act(state, player, action, dice)  # type: ignore[arg-type]
    except IllegalMove as refusal:
        assert str(refusal).strip(), "a refusal must say why"
        assert state == snapshot and state.model_dump_json() == before
        raise
    assert state == snapshot and state.model_dump_json() == before, "act mutated its input"
    assert N.State.model_validate_json(new.model_dump_json()) == new
    # Every event, including the ones built on the fast path, validates to itself.
    assert EVENTS.validate_json(EVENTS.dump_json(events)) == events
    assert EVENTS.validate_python([e.model_dump() for e in events]) == events
    for event in events:  # nothing beyond the declared fields hides in an event
        assert set(vars(event)) == set(type(event).model_fields), event
    assert new.ply >= state.ply
    check_invariants(new)
    return new, events


def refused(state: N.State, player: int | None, action: BaseModel, match: str = "") -> str:
    """Assert that the action is refused with a reason and changes nothing."""
    snapshot = state.model_copy(deep=True)
    before = state.model_dump_json()
    dice = ScriptedDice([10] * 20)
    with pytest.raises(IllegalMove, match=match) as caught:
        step(state, player, action, dice)
    assert str(caught.value).strip(), "a refusal must say why"
    assert state == snapshot, "a refused action changed the state"
    assert state.model_dump_json() == before, "a refused action changed the state"
    assert dice.remaining == 20, "a refused action rolled"
    return str(caught.value)


def play_round(
    state: N.State,
    rolls: Iterable[int] = (),
    picks: dict[int, BaseModel] | None = None,
    *,
    timeout: Iterable[int] = (),
) -> tuple[N.State, list[Any]]:
    """Everyone standing picks (Roll unless told) in seat order; players in ``timeout``
    pick nothing and the Deadline resolves the round. Exactly ``rolls`` must be used."""
    dice = ScriptedDice(rolls)
    picks = picks or {}
    idle = set(timeout)
    events: list[Any] = []
    for p in N.standing(state):
        if p not in idle:
            state, ev = step(state, p, picks.get(p, ROLL), dice)
            events += ev
    if idle:
        state, ev = step(state, None, Deadline(), dice)
        events += ev
    assert dice.remaining == 0, "a scripted roll was not used"
    return state, events


def spread(total: int, rounds: int) -> list[int]:
    base, extra = divmod(total, rounds)
    return [base + 1] * extra + [base] * (rounds - extra)


def drain(state: N.State, target: dict[int, int]) -> N.State:
    """Play plain Roll rounds until each key of ``target`` has exactly that Stamina."""
    need = {p: state.stamina[p] - value for p, value in target.items()}
    rounds = max(-(-n // 20) for n in need.values())
    assert all(n >= rounds for n in need.values())
    plan = {p: spread(n, rounds) for p, n in need.items()}
    order = [*N.standing(state), *([DEALER] if state.stamina.get(DEALER, 0) > 0 else [])]
    for i in range(rounds):
        state, _ = play_round(state, [plan[p][i] for p in order])
    assert {p: state.stamina[p] for p in target} == target
    return state


def kinds(events: Iterable[Any]) -> list[str]:
    return [e.kind for e in events]


def public(events: Iterable[Any]) -> list[Any]:
    return [e for e in events if getattr(e, "private_to", None) is None]


def only(events: Iterable[Any], kind: str) -> Any:
    found = [e for e in events if e.kind == kind]
    assert len(found) == 1, kinds(events)
    return found[0]


def new_game(players: Sequence[int] = (A, B), **rules: Any) -> N.State:
    state = N.start(N.Rules(**rules), list(players), ScriptedDice())
    check_invariants(state)
    return state


# --- start, rules, conventions -------------------------------------------------------


def test_start_takes_antes_and_sets_the_table() -> None:
    state = new_game((A, B, C), ante=15)
    assert state.seats == [A, B, C]
    assert state.stamina == {A: 200, B: 200, C: 200}
    assert state.stakes == {A: 15, B: 15, C: 15}
    assert state.pot == 45
    assert state.payouts == {A: 0, B: 0, C: 0, HOUSE: 0}
    assert (state.round, state.ply, state.phase, state.finished) == (1, 0, "choosing", False)
    assert state.winner is None
    assert N.deadline_seconds(state) == 60
    assert N.hold(N.Rules(ante=15)) == 15
    assert N.seat_limits(N.Rules()) == (2, 8)
    assert N.seat_limits(N.Rules(max_players=4)) == (2, 4)


def test_rules_defaults_match_the_rules_file() -> None:
    rules = N.Rules()
    assert rules.starting_stamina == 200
    assert rules.ante == 10
    assert not (rules.shadow_step or rules.kage_endurance or rules.dealers_blood)
    assert not rules.shinobi_interference
    assert rules.shadow_step_uses is None and rules.sleight_bonus == 0
    assert (rules.round_seconds, rules.sleight_seconds, rules.afk_rounds_to_forfeit) == (60, 30, 3)
    assert rules.max_players == 8
    assert rules.caught_on_natural_one is False


@pytest.mark.parametrize(
    "bad",
    [
        {"max_players": 9},
        {"max_players": 1},
        {"starting_stamina": 0},
        {"ante": -1},
        {"shadow_step_uses": -1},
        {"afk_rounds_to_forfeit": 0},
    ],
)
def test_rules_refuse_nonsense(bad: dict[str, int]) -> None:
    with pytest.raises(ValidationError):
        N.Rules(**bad)


def test_dealer_joins_under_minus_one() -> None:
    state = new_game(dealers_blood=True, starting_stamina=50)
    assert state.stamina == {A: 50, B: 50, DEALER: 50}
    assert DEALER not in state.stakes and DEALER not in state.payouts


@pytest.mark.parametrize(
    ("players", "rules", "reason"),
    [
        ([A], {}, "2 to 8"),
        (list(range(1, 10)), {}, "2 to 8"),
        ([A, B, C], {"max_players": 2}, "2 to 2"),
        ([A, A], {}, "one seat"),
        ([A, 0], {}, "reserved"),
        ([A, -1], {"dealers_blood": True}, "reserved"),
    ],
)
def test_start_refuses_a_bad_table(players: list[int], rules: dict[str, Any], reason: str) -> None:
    with pytest.raises(IllegalMove, match=reason):
        N.start(N.Rules(**rules), players, ScriptedDice())


def test_actions_are_exported_and_parse_from_json() -> None:
    assert Deadline in N.ACTIONS
    assert len({cls.model_fields["kind"].default for cls in N.ACTIONS}) == len(N.ACTIONS)
    assert N.Abort in N.ACTIONS and N.KageUnpaid in N.ACTIONS
    for action in (
        ROLL,
        SHADOW,
        KAGE,
        UP,
        DOWN,
        SKIP,
        N.Eject(target=A),
        N.KageUnpaid(player=A),
        Abort(),
        Deadline(),
    ):
        assert ACTION.validate_json(action.model_dump_json()) == action
    assert N.Sleight(adjust=1).kind == "sleight"
    with pytest.raises(ValidationError):
        N.Sleight.model_validate({"adjust": 2})


# --- the worked example and every tie path -------------------------------------------


def test_worked_example_round_one() -> None:
    state, events = play_round(new_game(), [17, 4])
    assert state.stamina == {A: 183, B: 196}
    assert only(events, "round_revealed").rolls == {A: [17], B: [4]}
    assert only(events, "round_resolved").losses == {A: 17, B: 4}
    assert state.round == 2 and not state.finished


def test_worked_example_both_fall_higher_before_wins() -> None:
    state, _ = play_round(new_game(), [17, 4])
    state = drain(state, {A: 12, B: 9})
    state, events = play_round(state, [15, 9])
    assert state.stamina == {A: -3, B: 0}
    assert state.finished and state.winner == A
    over = only(events, "game_over")
    assert over.reason == "highest_before" and over.winner == A
    assert "sudden_death" not in kinds(events)
    assert state.payouts == {A: 10, B: -10, HOUSE: 0}
    assert state.eliminated == [A, B]


def test_worked_example_sudden_death() -> None:
    state = drain(new_game(), {A: 9, B: 9})
    # Both fall (10 and 12), then sudden death: 11-11 is tied, 3-19 gives B the pot.
    dice = [10, 12, 11, 11, 3, 19]
    state, events = play_round(state, dice)
    assert state.finished and state.winner == B
    duel = only(events, "sudden_death")
    assert duel.players == [A, B]
    assert duel.rolls == [{A: 11, B: 11}, {A: 3, B: 19}]
    assert only(events, "game_over").reason == "sudden_death"
    assert state.payouts == {A: -10, B: 10, HOUSE: 0}


def test_higher_before_wins_from_any_seat() -> None:
    state = drain(new_game((A, B), starting_stamina=40), {A: 5, B: 8})
    state, _ = play_round(state, [20, 20])
    assert state.winner == B


def test_one_survivor_wins_whatever_the_others_had() -> None:
    state = drain(new_game((A, B, C), starting_stamina=40), {A: 20, B: 19, C: 3})
    state, events = play_round(state, [20, 19, 2])
    assert state.stamina == {A: 0, B: 0, C: 1}
    assert state.winner == C
    assert only(events, "game_over").reason == "last_standing"
    assert state.payouts == {A: -10, B: -10, C: 20, HOUSE: 0}


def test_three_fall_only_the_tied_top_roll_sudden_death() -> None:
    state = drain(new_game((A, B, C), starting_stamina=40), {A: 7, B: 9, C: 9})
    # A is lower, so A never rolls in sudden death; exactly these dice must be used.
    state, events = play_round(state, [20, 20, 20, 4, 6])
    assert state.winner == C
    duel = only(events, "sudden_death")
    assert duel.players == [B, C] and duel.rolls == [{B: 4, C: 6}]


def test_three_way_sudden_death_with_repeated_ties() -> None:
    state = drain(new_game((A, B, C), starting_stamina=40), {A: 9, B: 9, C: 9})
    falls = [10, 10, 10]
    duel_dice = [5, 5, 5, 7, 9, 9, 12, 4]  # all tie; A out, B-C tie; B wins
    state, events = play_round(state, falls + duel_dice)
    duel = only(events, "sudden_death")
    assert duel.rolls == [{A: 5, B: 5, C: 5}, {A: 7, B: 9, C: 9}, {B: 12, C: 4}]
    assert duel.winner == B and state.winner == B
    assert state.payouts == {A: -10, B: 20, C: -10, HOUSE: 0}


def test_two_of_three_fall_game_goes_on() -> None:
    state = drain(new_game((A, B, C), starting_stamina=40), {A: 5, B: 30, C: 30})
    state, events = play_round(state, [6, 1, 1])
    assert not state.finished
    assert state.eliminated == [A]
    assert only(events, "eliminated").reason == "stamina"
    assert only(events, "round_started").standing == [B, C]
    # A is out: only B and C choose now.
    state, _ = play_round(state, [3, 4])
    assert state.stamina[B] == 26 and state.stamina[C] == 25


# --- honours ---------------------------------------------------------------------------


def test_touching_the_shinigamis_hand() -> None:
    state = new_game((A, B, C), starting_stamina=21)
    state, events = play_round(state, [20, 20, 5])
    honours = [e for e in events if e.kind == "honour"]
    assert honours == [
        Honour(player=A, name=N.SHINIGAMI),
        Honour(player=B, name=N.SHINIGAMI),
    ]
    assert N.SHINIGAMI == "Touching the Shinigami's Hand"
    assert state.honours == honours
    # Surviving at 1 again earns it again; falling from 1 does not.
    state, events = play_round(state, [1, 1, 15])
    assert state.finished and state.winner == C
    assert [e for e in events if e.kind == "honour"] == [Honour(player=C, name=N.SHINIGAMI)]
    assert len(state.honours) == 3


def test_winner_at_one_is_honoured_and_the_dealer_never_is() -> None:
    state = new_game(dealers_blood=True, starting_stamina=21)
    state, events = play_round(state, [20, 20, 20])
    assert state.stamina == {A: 1, B: 1, DEALER: 1}
    assert [e.player for e in events if e.kind == "honour"] == [A, B]


# --- Kage's Endurance ------------------------------------------------------------------


def test_kage_moves_no_coin_until_the_reveal() -> None:
    state = new_game(ante=10, kage_endurance=True)
    as_roll, _ = step(state, A, ROLL, ScriptedDice())
    state, events = step(state, A, KAGE, ScriptedDice())
    # Nothing but the secret choice differs from choosing Roll: stakes, pot, ply.
    assert state.stakes == {A: 10, B: 10} and state.pot == 20
    assert state.model_dump(exclude={"choices"}) == as_roll.model_dump(exclude={"choices"})
    mine = only(events, "choice_confirmed")
    assert (mine.private_to, mine.choice, mine.stake, mine.charge) == (A, "kage", 10, 10)
    assert N.pending_charge(state, A) == 10 and N.pending_charge(state, B) == 0
    assert N.pending_charge(as_roll, A) == 0
    state, _ = step(state, A, KAGE, ScriptedDice())  # choosing it again changes nothing
    state, events = step(state, A, ROLL, ScriptedDice())
    assert state.stakes[A] == 10 and state.pot == 20 and N.pending_charge(state, A) == 0
    assert only(events, "choice_confirmed").charge == 0
    assert state.kage_used == []
    state, _ = step(state, A, KAGE, ScriptedDice())
    # Two d20 for A (lower counts), then B's die; the second ante moves at the reveal.
    state, events = play_round(state, [15, 6, 9], picks={A: KAGE})
    assert state.stamina == {A: 194, B: 191}
    assert only(events, "round_revealed").rolls == {A: [15, 6], B: [9]}
    assert only(events, "round_revealed").choices == {A: "kage", B: "roll"}
    assert only(events, "round_revealed").kage_unpaid == []
    assert state.kage_used == [A] and state.stakes == {A: 20, B: 10} and state.pot == 30
    assert N.pending_charge(state, A) == 0


def test_kage_second_ante_is_taken_at_a_deadline_reveal_too() -> None:
    state = new_game((A, B, C), ante=7, kage_endurance=True)
    state, _ = step(state, B, KAGE, ScriptedDice())
    state, events = step(state, None, Deadline(), ScriptedDice([1, 2, 3, 4]))
    assert only(events, "round_revealed").rolls == {A: [1], B: [2, 3], C: [4]}
    assert state.stakes == {A: 7, B: 14, C: 7} and state.pot == 28


def test_shortfall_turns_kage_into_a_roll_and_the_reveal_says_why() -> None:
    state = new_game((A, B), ante=10, kage_endurance=True)
    assert N.shortfall(state, A) is None
    state, _ = step(state, A, KAGE, ScriptedDice())
    fix = N.shortfall(state, A)
    assert fix == N.KageUnpaid(player=A) and N.shortfall(state, B) is None
    # The table applies it (player None): no event, since nothing is revealed yet.
    fixed, events = step(state, None, fix, ScriptedDice())
    assert events == [] and fixed.choices == {A: "roll"} and fixed.kage_unpaid == [A]
    assert fixed.ply == state.ply and fixed.stakes == state.stakes
    assert N.pending_charge(fixed, A) == 0 and N.shortfall(fixed, A) is None
    # The retried reveal: one d20 for A (a plain Roll), then B's; no second ante.
    fixed, events = step(fixed, B, ROLL, ScriptedDice([12, 5]))
    revealed = only(events, "round_revealed")
    assert revealed.rolls == {A: [12], B: [5]} and revealed.choices == {A: "roll", B: "roll"}
    assert revealed.kage_unpaid == [A]
    assert fixed.stakes == {A: 10, B: 10} and fixed.kage_used == [] and fixed.kage_unpaid == []
    assert KAGE in N.legal_actions(fixed, A), "an unpaid Kage was never used"


def test_kage_unpaid_is_the_tables_alone_and_needs_a_pending_kage() -> None:
    state = new_game((A, B), kage_endurance=True)
    refused(state, None, N.KageUnpaid(player=A), "no Kage")
    state, _ = step(state, A, KAGE, ScriptedDice())
    refused(state, A, N.KageUnpaid(player=A), "Only the table")
    refused(state, B, N.KageUnpaid(player=A), "Only the table")
    refused(state, None, N.KageUnpaid(player=B), "no Kage")
    state, _ = step(state, None, N.KageUnpaid(player=A), ScriptedDice())
    # A chooses afresh before the reveal: the table's change no longer applies.
    state, _ = step(state, A, ROLL, ScriptedDice())
    assert state.kage_unpaid == []
    state, events = step(state, B, ROLL, ScriptedDice([3, 4]))
    assert only(events, "round_revealed").kage_unpaid == []


def test_kage_is_once_per_game_and_its_ante_stays() -> None:
    state = new_game(ante=10, kage_endurance=True, starting_stamina=30)
    state, _ = play_round(state, [5, 6, 7], picks={A: KAGE})
    assert refused(state, A, KAGE, "once per game")
    assert N.legal_actions(state, A) == [ROLL]
    assert KAGE in N.legal_actions(state, B)
    state, _ = play_round(state, [20, 2])
    state, _ = play_round(state, [20, 2])
    assert state.finished and state.winner == B
    # A paid two antes (the second at the first reveal) and lost both; B wins the pot of 30.
    assert state.payouts == {A: -20, B: 20, HOUSE: 0}


def test_kage_refused_when_the_variant_is_off() -> None:
    refused(new_game(), A, KAGE, "not played")


# --- Shadow Step ---------------------------------------------------------------------


def test_shadow_step_costs_five_without_a_die() -> None:
    state = new_game(shadow_step=True)
    state, events = play_round(state, [8], picks={A: SHADOW})
    assert state.stamina == {A: 195, B: 192}
    assert only(events, "round_revealed").rolls == {A: [], B: [8]}
    assert state.shadow_steps == {A: 1, B: 0}


def test_shadow_step_limit() -> None:
    state = new_game(shadow_step=True, shadow_step_uses=1)
    state, _ = play_round(state, [8], picks={A: SHADOW})
    assert "1" in refused(state, A, SHADOW, "Shadow Step")
    assert SHADOW not in N.legal_actions(state, A)
    state, _ = play_round(state, [8], picks={B: SHADOW})
    assert state.stamina == {A: 187, B: 187}


def test_shadow_step_unlimited_and_zero_uses() -> None:
    state = new_game(shadow_step=True, starting_stamina=30)
    for _ in range(4):
        state, _ = play_round(state, [1], picks={A: SHADOW})
    assert state.stamina[A] == 10 and state.shadow_steps[A] == 4
    refused(new_game(shadow_step=True, shadow_step_uses=0), A, SHADOW, "no Shadow Steps")
    refused(new_game(), A, SHADOW, "not played")


def test_shadow_step_can_eliminate() -> None:
    state = drain(new_game(shadow_step=True, starting_stamina=40), {A: 5, B: 30})
    state, _ = play_round(state, [3], picks={A: SHADOW})
    assert state.stamina[A] == 0 and state.winner == B


# --- Dealer's Blood ------------------------------------------------------------------


def test_dealer_rolls_last_and_keeps_the_game_going() -> None:
    state = new_game(dealers_blood=True, starting_stamina=30)
    state, events = play_round(state, [1, 2, 3])
    assert state.stamina == {A: 29, B: 28, DEALER: 27}
    assert only(events, "round_revealed").rolls == {A: [1], B: [2], DEALER: [3]}
    assert only(events, "round_started").standing == [A, B, DEALER]
    # A falls; B and the Dealer go on.
    state, events = play_round(state, [20, 1, 1])
    state, events = play_round(state, [20, 1, 1])
    assert state.stamina[A] <= 0 and not state.finished
    assert only(events, "round_started").standing == [B, DEALER]


def test_player_outlasting_the_dealer_wins_the_pot() -> None:
    state = drain(
        new_game((A, B, C), dealers_blood=True, starting_stamina=40), {A: 5, B: 30, C: 6, DEALER: 4}
    )
    state, events = play_round(state, [5, 1, 6, 4])
    assert state.finished and state.winner == B and not state.dealer_won
    assert state.payouts == {A: -10, B: 20, C: -10, HOUSE: 0}
    assert [e.player for e in events if e.kind == "eliminated"] == [A, C, DEALER]


def test_dealer_fallen_early_game_continues_between_players() -> None:
    state = drain(new_game(dealers_blood=True, starting_stamina=40), {A: 30, B: 30, DEALER: 2})
    state, _ = play_round(state, [1, 1, 2])
    assert state.stamina[DEALER] == 0 and not state.finished
    state, events = play_round(state, [3, 4])  # the Dealer no longer rolls
    assert only(events, "round_revealed").rolls == {A: [3], B: [4]}


@pytest.mark.parametrize(
    ("ante", "before", "shares"),
    [
        (15, {A: 12, B: 6}, {A: 10, B: 5}),  # the rules text's example
        (5, {A: 3, B: 1}, {A: 4, B: 1}),  # 3.75 / 1.25: the leftover coin to A
        (7, {A: 5, B: 3, C: 1}, {A: 6, B: 4, C: 1}),  # pot 21: house 10, 11 shared
        (1, {A: 1, B: 1, C: 1, D: 1}, {A: 1, B: 1, C: 0, D: 0}),  # tied remainders: seats
        (10, {A: 7, B: 7, C: 7}, {A: 5, B: 5, C: 5}),
        (3, {A: 17, B: 2}, {A: 3, B: 0}),  # pot 6: house 3, 3 shared 2.68 / 0.32
        (0, {A: 4, B: 4}, {A: 0, B: 0}),
        (13, {A: 11, B: 4, C: 9}, {A: 9, B: 3, C: 8}),  # pot 39: house 19, 20 shared
    ],
)
def test_dealer_last_standing_splits_the_pot(
    ante: int, before: dict[int, int], shares: dict[int, int]
) -> None:
    players = list(before)
    state = new_game(players, dealers_blood=True, ante=ante, starting_stamina=40)
    state = drain(state, {**before, DEALER: 30})
    pot = ante * len(players)
    state, events = play_round(state, [20] * len(players) + [1])
    assert state.finished and state.dealer_won and state.winner is None
    over = only(events, "game_over")
    assert over.reason == "dealer" and over.shares == shares
    assert over.house == pot // 2
    assert sum(shares.values()) + over.house == pot
    assert state.payouts == {**{p: shares[p] - ante for p in players}, HOUSE: pot // 2}
    # Each share is shown with the Stamina it was based on.
    assert over.basis == before and state.share_basis == before and state.shares == shares


def test_dealer_picked_by_the_tie_rule() -> None:
    state = drain(new_game(dealers_blood=True, starting_stamina=40), {A: 6, B: 4, DEALER: 9})
    state, events = play_round(state, [20, 20, 20])
    assert state.dealer_won and state.winner is None
    # Pot 20: the house takes 10; the other 10 in proportion 6:4.
    assert only(events, "game_over").shares == {A: 6, B: 4}
    assert state.payouts == {A: -4, B: -6, HOUSE: 10}


def test_dealer_rolls_last_in_sudden_death() -> None:
    state = drain(new_game(dealers_blood=True, starting_stamina=40), {A: 8, B: 3, DEALER: 8})
    state, events = play_round(state, [20, 20, 20, 9, 14])
    duel = only(events, "sudden_death")
    assert duel.players == [A, DEALER] and duel.rolls == [{A: 9, DEALER: 14}]
    assert state.dealer_won
    # 10 coins in proportion 8:3 are 7.27 and 2.73: the leftover coin goes to B.
    assert only(events, "game_over").shares == {A: 7, B: 3}

    state = drain(new_game(dealers_blood=True, starting_stamina=40), {A: 8, B: 3, DEALER: 8})
    state, events = play_round(state, [20, 20, 20, 15, 14])
    assert state.winner == A and not state.dealer_won
    assert state.payouts == {A: 10, B: -10, HOUSE: 0}


def test_dealer_last_after_everyone_is_ejected_takes_everything() -> None:
    state = new_game(dealers_blood=True)
    state, _ = step(state, None, N.Eject(target=A), ScriptedDice())
    assert not state.finished
    state, events = step(state, None, N.Eject(target=B), ScriptedDice())
    assert state.finished and state.dealer_won
    assert state.payouts == {A: -10, B: -10, HOUSE: 20}
    assert only(events, "game_over").shares == {}


# --- Shinobi Interference ------------------------------------------------------------


def sleight_game(**rules: Any) -> N.State:
    return new_game((A, B, C), shinobi_interference=True, shadow_step=True, **rules)


def test_sleight_window_opens_after_the_dice() -> None:
    state = sleight_game(dealers_blood=True, sleight_seconds=25)
    state, events = play_round(state, [10, 11, 12], picks={B: SHADOW})
    assert state.phase == "sleight" and state.ply == 1
    assert N.deadline_seconds(state) == 25
    assert only(events, "sleight_window").players == [A, C]  # not B, not the Dealer
    assert state.stamina == {A: 200, B: 200, C: 200, DEALER: 200}  # nothing applied yet
    assert N.legal_actions(state, A) == [DOWN, UP, SKIP]
    assert N.legal_actions(state, B) == []
    refused(state, B, UP, "Shadow Stepped")
    refused(state, A, ROLL, "already on the table")
    refused(state, B, SHADOW, "already on the table")


@pytest.mark.parametrize(
    ("adjust", "natural", "bonus", "loss", "outcome"),
    [
        (UP, 18, 0, 11, "success"),
        (DOWN, 20, 0, 9, "success"),
        (UP, 17, 0, 10, "failure"),
        (DOWN, 2, 0, 10, "failure"),
        (UP, 15, 3, 11, "success"),
        (DOWN, 10, 7, 10, "failure"),
        (DOWN, 12, -1, 10, "failure"),
    ],
)
def test_sleight_checks(
    adjust: N.Sleight, natural: int, bonus: int, loss: int, outcome: str
) -> None:
    state = new_game(shinobi_interference=True, sleight_bonus=bonus)
    state, _ = play_round(state, [10, 5])
    state, events = step(state, A, adjust, ScriptedDice())
    assert state.phase == "sleight"
    state, events = step(state, B, SKIP, ScriptedDice([natural]))
    check = only(events, "sleight_check")
    assert (check.player, check.natural, check.total, check.outcome) == (
        A,
        natural,
        natural + bonus,
        outcome,
    )
    assert only(events, "round_resolved").losses == {A: loss, B: 5}
    assert state.stamina == {A: 200 - loss, B: 195}
    assert state.phase == "choosing" and state.ply == 2


def test_sleight_natural_one_is_caught_cheating_with_the_house_rule() -> None:
    state = new_game(
        (A, B, C), shinobi_interference=True, sleight_bonus=17, ante=10, caught_on_natural_one=True
    )
    state, _ = play_round(state, [10, 5, 7])
    state, _ = step(state, A, SKIP, ScriptedDice())
    state, _ = step(state, B, UP, ScriptedDice())
    state, events = step(state, C, DOWN, ScriptedDice([1, 20]))  # B caught, C succeeds
    assert [(e.player, e.outcome) for e in events if e.kind == "sleight_check"] == [
        (B, "caught"),
        (C, "success"),
    ]
    assert state.stamina == {A: 190, B: 0, C: 194}
    assert state.eliminated == [B]
    assert only(events, "eliminated").reason == "caught_cheating"
    assert state.stakes[B] == 10 and state.pot == 30  # the ante stays in the pot
    state, _ = play_round(state, [1, 1])
    state, _ = step(state, A, SKIP, ScriptedDice())
    state, _ = step(state, C, SKIP, ScriptedDice())
    refused(state, B, ROLL, "eliminated")


@pytest.mark.parametrize(("bonus", "outcome", "loss"), [(0, "failure", 10), (17, "success", 11)])
def test_sleight_natural_one_is_a_plain_check_by_default(
    bonus: int, outcome: str, loss: int
) -> None:
    state = new_game(shinobi_interference=True, sleight_bonus=bonus)
    state, _ = play_round(state, [10, 5])
    state, _ = step(state, A, UP, ScriptedDice())
    state, events = step(state, B, SKIP, ScriptedDice([1]))
    check = only(events, "sleight_check")
    assert (check.natural, check.total, check.outcome) == (1, 1 + bonus, outcome)
    assert state.stamina == {A: 200 - loss, B: 195} and state.eliminated == []
    assert "eliminated" not in kinds(events)


def test_caught_cheater_cannot_win_even_last() -> None:
    state = new_game(shinobi_interference=True, starting_stamina=5, caught_on_natural_one=True)
    state, _ = play_round(state, [1, 20])
    state, _ = step(state, A, UP, ScriptedDice())
    state, events = step(state, B, SKIP, ScriptedDice([1]))
    assert only(events, "sleight_check").outcome == "caught"
    # A was caught, B fell: B is the only contender left and wins.
    assert state.winner == B and state.payouts == {A: -10, B: 10, HOUSE: 0}


def test_sleight_clamps_to_the_die_and_adjusts_the_lower_kage_die() -> None:
    state = new_game(shinobi_interference=True, kage_endurance=True)
    state, _ = play_round(state, [20, 3, 1], picks={A: KAGE})
    state, _ = step(state, A, DOWN, ScriptedDice())
    state, events = step(state, B, DOWN, ScriptedDice([19, 19]))
    assert only(events, "round_resolved").losses == {A: 2, B: 1}
    state, _ = play_round(state, [20, 20])
    state, _ = step(state, A, UP, ScriptedDice())
    state, events = step(state, B, SKIP, ScriptedDice([18]))
    assert only(events, "round_resolved").losses == {A: 20, B: 20}


def test_sleight_window_deadline_means_skip() -> None:
    state = sleight_game()
    state, _ = play_round(state, [10, 11, 12])
    state, _ = step(state, B, UP, ScriptedDice())
    refused(state, B, DOWN, "already made")
    refused(state, B, SKIP, "already made")
    state, events = step(state, None, Deadline(), ScriptedDice([18]))
    assert [e.player for e in events if e.kind == "sleight_check"] == [B]
    assert state.stamina == {A: 190, B: 188, C: 188}
    assert state.phase == "choosing" and state.ply == 2


def test_sleight_window_skipped_when_nobody_rolled() -> None:
    state = new_game(shinobi_interference=True, shadow_step=True, dealers_blood=True)
    state, events = play_round(state, [4], picks={A: SHADOW, B: SHADOW})
    assert "sleight_window" not in kinds(events)
    assert state.phase == "choosing" and state.ply == 1
    assert state.stamina == {A: 195, B: 195, DEALER: 196}


def test_sleight_refused_outside_its_window_or_variant() -> None:
    state = new_game(shinobi_interference=True)
    refused(state, A, UP, "after the dice")
    refused(state, A, SKIP, "after the dice")
    refused(new_game(), A, UP, "not played")


# --- AFK: auto-roll and forfeit ------------------------------------------------------


def test_deadline_auto_rolls_and_says_so() -> None:
    state = new_game((A, B, C))
    state, _ = step(state, A, ROLL, ScriptedDice())
    state, events = step(state, None, Deadline(), ScriptedDice([3, 4, 5]))
    revealed = only(events, "round_revealed")
    assert revealed.auto_rolled == [B, C] and revealed.forfeiting == []
    assert revealed.choices == {A: "roll", B: "roll", C: "roll"}
    assert state.stamina == {A: 197, B: 196, C: 195}
    assert state.auto_rolls == {A: 0, B: 1, C: 1}


def test_forfeit_after_consecutive_auto_rolls() -> None:
    state = new_game((A, B, C), afk_rounds_to_forfeit=3)
    state, _ = play_round(state, [1, 1, 1], timeout=[C])
    state, _ = play_round(state, [1, 1, 1], timeout=[C, B])
    assert state.auto_rolls == {A: 0, B: 1, C: 2}
    state, events = play_round(state, [1, 1, 1], timeout=[C])  # B chose: B's count resets
    assert only(events, "round_revealed").forfeiting == [C]
    assert state.stamina == {A: 197, B: 197, C: 0}
    assert state.eliminated == [C]
    assert only(events, "eliminated").reason == "afk"
    assert state.auto_rolls[B] == 0
    assert state.stakes[C] == 10 and state.pot == 30


def test_forfeiter_cannot_win_the_tie_rule() -> None:
    state = drain(new_game(afk_rounds_to_forfeit=1, starting_stamina=40), {A: 3, B: 9})
    state, _ = play_round(state, [5, 20], timeout=[B])
    assert state.winner == A  # B had more, but forfeited


def test_everyone_forfeiting_at_once_leaves_the_pot_to_the_house() -> None:
    state = new_game(afk_rounds_to_forfeit=1)
    state, events = play_round(state, [2, 3], timeout=[A, B])
    assert state.finished and state.winner is None
    assert only(events, "game_over").reason == "no_contender"
    assert state.payouts == {A: -10, B: -10, HOUSE: 20}


def test_forfeiting_player_gets_no_sleight_window() -> None:
    state = new_game((A, B, C), shinobi_interference=True, afk_rounds_to_forfeit=1)
    state, events = play_round(state, [2, 3, 4], timeout=[C])
    assert only(events, "sleight_window").players == [A, B]
    refused(state, C, UP, "forfeit")


# --- Eject ---------------------------------------------------------------------------


def test_eject_ends_a_two_player_game() -> None:
    state = new_game()
    state, events = step(state, 999, N.Eject(target=B), ScriptedDice())  # a moderator
    assert state.finished and state.winner == A
    assert kinds(events) == ["eliminated", "game_over"]
    gone = only(events, "eliminated")
    assert (gone.player, gone.reason, gone.by) == (B, "ejected", 999)
    assert state.stamina[B] == 0 and state.payouts == {A: 10, B: -10, HOUSE: 0}


def test_eject_voids_a_pending_kage() -> None:
    state = new_game((A, B, C), kage_endurance=True)
    state, _ = step(state, C, KAGE, ScriptedDice())
    state, _ = step(state, A, ROLL, ScriptedDice())
    assert state.stakes[C] == 10 and state.pot == 30
    state, events = step(state, None, N.Eject(target=C), ScriptedDice())
    assert state.stakes[C] == 10 and state.pot == 30  # the second ante was never taken
    assert C not in state.choices and state.kage_used == []
    assert only(events, "eliminated").by is None
    # B has not chosen yet, so nothing resolves; B's choice then resolves the round.
    assert kinds(events) == ["eliminated"] and state.round == 1
    state, events = step(state, B, ROLL, ScriptedDice([4, 6]))
    assert only(events, "round_revealed").rolls == {A: [4], B: [6]}


def test_eject_resolves_the_round_when_everyone_left_has_chosen() -> None:
    state = new_game((A, B, C))
    state, _ = step(state, A, ROLL, ScriptedDice())
    state, _ = step(state, B, ROLL, ScriptedDice())
    state, events = step(state, 999, N.Eject(target=C), ScriptedDice([7, 8]))
    assert kinds(events)[:2] == ["eliminated", "round_revealed"]
    assert state.stamina == {A: 193, B: 192, C: 0}


def test_eject_in_the_sleight_window() -> None:
    state = sleight_game()
    state, _ = play_round(state, [10, 11, 12])
    state, _ = step(state, A, SKIP, ScriptedDice())
    state, _ = step(state, C, UP, ScriptedDice())
    state, events = step(state, None, N.Eject(target=C), ScriptedDice())
    assert state.phase == "sleight" and state.sleight_players == [A, B]
    state, events = step(state, B, SKIP, ScriptedDice())
    assert state.phase == "choosing"
    assert state.stamina == {A: 190, B: 189, C: 0}
    assert "sleight_check" not in kinds(events)


@pytest.mark.parametrize(
    ("target", "reason"), [(999, "not seated"), (DEALER, "Dealer"), (B, "already out")]
)
def test_eject_refusals(target: int, reason: str) -> None:
    state = new_game((A, B, C), dealers_blood=True)
    state, _ = step(state, None, N.Eject(target=B), ScriptedDice())
    refused(state, None, N.Eject(target=target), reason)


@pytest.mark.parametrize("who", [A, B, C])
@pytest.mark.parametrize("target", [A, C])
def test_nobody_seated_may_eject_not_even_the_host(who: int, target: int) -> None:
    # A is the host (first seat); B is already out but still seated: their ante is in the pot.
    state = new_game((A, B, C))
    state, _ = step(state, 999, N.Eject(target=B), ScriptedDice())
    refused(state, who, N.Eject(target=target), "only a moderator who is not seated")


# --- Abort -----------------------------------------------------------------------------


def assert_aborted(state: N.State, events: list[Any], refunds: dict[int, int]) -> None:
    assert state.finished and state.aborted and state.phase == "finished"
    assert state.winner is None and not state.dealer_won
    assert state.stakes == dict.fromkeys(state.seats, 0)
    assert state.payouts == {**dict.fromkeys(state.seats, 0), HOUSE: 0}
    assert state.choices == {} and state.sleights == {}
    assert N.deadline_seconds(state) is None
    event = only(events, "aborted")
    assert event.refunds == refunds
    assert "game_over" not in kinds(events)
    refused(state, None, Deadline(), "over")
    refused(state, None, Abort(), "over")


def test_abort_at_the_start_gives_every_ante_back() -> None:
    state = new_game((A, B, C), ante=25)
    state, events = step(state, 999, Abort(), ScriptedDice())
    assert_aborted(state, events, {A: 25, B: 25, C: 25})
    assert only(events, "aborted").by == 999
    assert state.ply == 1


def test_abort_returns_a_second_ante_already_taken_and_drops_secret_choices() -> None:
    state = new_game((A, B, C), ante=10, kage_endurance=True, dealers_blood=True)
    state, _ = play_round(state, [3, 4, 5, 6, 7], picks={A: KAGE})
    assert state.stakes == {A: 20, B: 10, C: 10}
    state, _ = step(state, B, KAGE, ScriptedDice())  # unrevealed: nothing to give back
    state, events = step(state, None, Abort(), ScriptedDice())
    assert_aborted(state, events, {A: 20, B: 10, C: 10})
    assert only(events, "aborted").by is None


def test_abort_in_the_sleight_window_and_after_an_elimination() -> None:
    state = new_game((A, B, C), shinobi_interference=True, starting_stamina=10)
    state, _ = play_round(state, [20, 1, 2])
    state, _ = step(state, A, UP, ScriptedDice())
    state, _ = step(state, B, SKIP, ScriptedDice())
    state, _ = step(state, C, SKIP, ScriptedDice([5]))
    assert A in state.eliminated
    state, _ = play_round(state, [1, 1])
    assert state.phase == "sleight"
    state, _ = step(state, B, DOWN, ScriptedDice())
    state, events = step(state, C, Abort(), ScriptedDice())  # whoever the log names
    # Even the eliminated player's ante goes back: nothing is settled before the end.
    assert_aborted(state, events, {A: 10, B: 10, C: 10})


# --- refusals ------------------------------------------------------------------------


def test_strangers_and_the_eliminated_cannot_choose() -> None:
    state = new_game((A, B, C))
    for action in (ROLL, SHADOW, KAGE):
        refused(state, 999, action, "not seated")
        refused(state, None, action, "not seated")
        refused(state, DEALER, action, "not seated")
    state, _ = step(state, None, N.Eject(target=C), ScriptedDice())
    refused(state, C, ROLL, "eliminated")
    assert N.legal_actions(state, C) == [] and N.legal_actions(state, 999) == []


def test_nothing_is_accepted_after_the_end() -> None:
    state = new_game()
    state, _ = step(state, None, N.Eject(target=B), ScriptedDice())
    for player, action in [
        (A, ROLL),
        (A, UP),
        (A, SKIP),
        (None, Deadline()),
        (None, N.Eject(target=A)),
    ]:
        refused(state, player, action, "over")
    assert N.legal_actions(state, A) == []


def test_foreign_actions_are_refused() -> None:
    class Dance(BaseModel):
        kind: str = "dance"

    refused(new_game(), A, Dance(), "not a move in this game")


# --- secrecy, ply and deadlines -------------------------------------------------------


def choosing_events(picks: dict[int, BaseModel]) -> tuple[list[Any], list[Any]]:
    state = new_game((A, B, C), kage_endurance=True, shadow_step=True)
    events: list[Any] = []
    # A and B choose, A changes their mind, B confirms; C keeps the round open.
    for p, action in ((A, picks[A]), (B, picks[B]), (A, ROLL), (B, picks[B])):
        state, ev = step(state, p, action, ScriptedDice())
        events += ev
    return public(events), [e for e in events if e not in public(events)]


@pytest.mark.parametrize("a_pick", [ROLL, SHADOW, KAGE])
@pytest.mark.parametrize("b_pick", [ROLL, SHADOW, KAGE])
def test_public_events_never_reveal_a_choice(a_pick: BaseModel, b_pick: BaseModel) -> None:
    shown, private = choosing_events({A: a_pick, B: b_pick})
    baseline, _ = choosing_events({A: ROLL, B: ROLL})
    assert shown == baseline
    assert set(kinds(shown)) == {"player_chose"}
    for event in shown:
        assert not re.search(r"roll|shadow|kage|stake", repr(vars(event))), event
    assert [(e.private_to, e.player) for e in private] == [(A, A), (B, B), (A, A), (B, B)]


@pytest.mark.parametrize("pick", [UP, DOWN, SKIP])
def test_sleight_decisions_stay_private_until_the_checks(pick: BaseModel) -> None:
    state = sleight_game()
    state, _ = play_round(state, [10, 11, 12])
    state, events = step(state, A, pick, ScriptedDice())
    assert kinds(public(events)) == ["sleight_decided"]
    assert "adjust" not in public(events)[0].model_dump()
    mine = only(events, "sleight_confirmed")
    assert mine.private_to == A and mine.adjust == {UP: 1, DOWN: -1, SKIP: 0}[pick]


def test_the_state_keeps_choices_secret_but_public_events_show_them_after_the_reveal() -> None:
    state = new_game((A, B, C), kage_endurance=True)
    state, _ = step(state, A, KAGE, ScriptedDice())
    assert state.choices == {A: "kage"}
    state, events = play_round(state, [5, 6, 7, 8], picks={A: KAGE})
    assert only(public(events), "round_revealed").choices == {A: "kage", B: "roll", C: "roll"}
    assert state.choices == {}


def test_ply_moves_on_decision_points_only() -> None:
    state = sleight_game()
    state, _ = step(state, A, ROLL, ScriptedDice())
    state, _ = step(state, A, SHADOW, ScriptedDice())
    assert state.ply == 0 and N.deadline_seconds(state) == 60
    state, _ = step(state, B, ROLL, ScriptedDice())
    state, _ = step(state, C, ROLL, ScriptedDice([3, 4]))
    assert state.ply == 1 and state.phase == "sleight"
    state, _ = step(state, B, SKIP, ScriptedDice())
    assert state.ply == 1
    state, _ = step(state, None, Deadline(), ScriptedDice())
    assert state.ply == 2 and N.deadline_seconds(state) == 60
    state, _ = play_round(new_game(), [1, 2])
    assert state.ply == 1
    state, _ = step(state, None, N.Eject(target=A), ScriptedDice())
    assert state.ply == 2 and state.finished


# --- random playouts: money, termination, replay --------------------------------------

ACTIONS_ANY = st.sampled_from([ROLL, ROLL, ROLL, SHADOW, KAGE, UP, DOWN, SKIP, Deadline()])
TABLE_FIXES = st.builds(N.KageUnpaid, player=st.sampled_from([1000, 1001, 1002]))


@settings(max_examples=300, deadline=None)
@given(
    data=st.data(),
    players=st.integers(2, 5),
    stamina=st.integers(1, 45),
    ante=st.integers(0, 30),
    variants=st.tuples(*[st.booleans()] * 4),
    uses=st.none() | st.integers(0, 3),
    bonus=st.integers(-3, 17),
    afk=st.integers(1, 4),
    seed=st.integers(0, 2**32 - 1),
)
def test_random_playouts(
    data: st.DataObject,
    players: int,
    stamina: int,
    ante: int,
    variants: tuple[bool, bool, bool, bool],
    uses: int | None,
    bonus: int,
    afk: int,
    seed: int,
) -> None:
    rules = N.Rules(
        starting_stamina=stamina,
        ante=ante,
        shadow_step=variants[0],
        shadow_step_uses=uses,
        kage_endurance=variants[1],
        dealers_blood=variants[2],
        shinobi_interference=variants[3],
        sleight_bonus=bonus,
        afk_rounds_to_forfeit=afk,
    )
    seats = [1000 + i for i in range(players)]
    dice = RandomDice(seed)
    state = N.start(rules, seats, dice)
    start_state = state
    log: list[tuple[int | None, str]] = []
    events_seen: list[Any] = []
    moves = data.draw(
        st.lists(
            st.tuples(
                st.sampled_from([*seats, None, 999]),
                ACTIONS_ANY
                | TABLE_FIXES
                | st.builds(N.Eject, target=st.sampled_from([*seats, DEALER, 7])),
            ),
            max_size=50,
        )
    )
    # The act bound: every round costs every participant at least 1 Stamina and takes at
    # most two Deadlines, so the table's clock alone ends any game.
    deadlines = [(None, Deadline())] * (2 * stamina + 2)
    for player, action in [*moves, *deadlines]:
        if state.finished:
            break
        if player is not None and isinstance(action, N.Roll | N.ShadowStep | N.KageEndurance):
            legal = N.legal_actions(state, player)
            try:
                step(state, player, action, RandomDice(seed))
                assert action in legal
            except IllegalMove:
                assert action not in legal
        try:
            state, events = step(state, player, action, dice)
        except IllegalMove:
            continue
        log.append((player, action.model_dump_json()))
        events_seen.extend(events)
    assert state.finished
    over = only(events_seen, "game_over")
    assert over.payouts == state.payouts
    assert sum(over.shares.values()) + over.house == over.pot
    # What each player had at stake when the game ended: one ante, two after Kage's Endurance.
    final_stakes = {p: over.shares.get(p, 0) - state.payouts[p] for p in seats}
    assert sum(final_stakes.values()) == over.pot
    for p in seats:
        assert final_stakes[p] in {ante, 2 * ante}
        if p in state.kage_used:
            assert final_stakes[p] == 2 * ante
    if state.winner is not None:
        assert over.shares == {state.winner: over.pot} and over.house == 0
        assert state.winner in seats and not state.dealer_won
    elif state.dealer_won:
        assert over.house in {over.pot // 2, over.pot}
        assert variants[2]
    else:
        assert over.reason == "no_contender" and over.house == over.pot

    # Replaying the logged actions with the same dice gives the same game, event for event.
    replay_dice = ScriptedDice(dice.rolls)
    replayed, replayed_events = start_state, []
    for player, raw in log:
        replayed, events = N.act(replayed, player, ACTION.validate_json(raw), replay_dice)
        replayed_events.extend(events)
    assert replayed == state and replayed_events == events_seen
    assert replay_dice.remaining == 0


@pytest.mark.parametrize("seed", range(30))
def test_random_legal_games_with_every_variant(seed: int) -> None:
    rng = random.Random(seed)
    rules = N.Rules(
        starting_stamina=30,
        ante=7,
        kage_endurance=True,
        shadow_step=True,
        shadow_step_uses=2,
        dealers_blood=seed % 2 == 0,
        shinobi_interference=True,
    )
    dice = RandomDice(seed)
    state = N.start(rules, [A, B, C, D], dice)
    for _ in range(400):
        if state.finished:
            break
        options: list[tuple[int | None, BaseModel]] = [
            (p, a) for p in N.standing(state) for a in N.legal_actions(state, p)
        ]
        if rng.random() < 0.05 or not options:
            options = [(None, Deadline())]
        player, action = rng.choice(options)
        state, events = step(state, player, action, dice)
    assert state.finished
    over = only(events, "game_over")
    assert over.payouts == state.payouts
    for p in state.seats:
        paid = 14 if p in state.kage_used else 7
        assert state.payouts[p] == over.shares.get(p, 0) - paid
    if state.winner is not None:
        assert over.shares == {state.winner: over.pot}
        assert state.payouts[HOUSE] == 0
    else:
        assert state.dealer_won or over.reason == "no_contender"


@pytest.mark.parametrize("seed", range(20))
def test_abort_at_any_moment_returns_exactly_what_is_at_stake(seed: int) -> None:
    rng = random.Random(seed)
    rules = N.Rules(
        starting_stamina=80,
        ante=9,
        kage_endurance=True,
        shadow_step=True,
        dealers_blood=seed % 2 == 1,
        shinobi_interference=True,
    )
    dice = RandomDice(seed)
    state = N.start(rules, [A, B, C], dice)
    for _ in range(rng.randint(0, 60)):
        options: list[tuple[int | None, BaseModel]] = [
            (p, a) for p in N.standing(state) for a in N.legal_actions(state, p)
        ]
        if rng.random() < 0.05 or not options:
            options = [(None, Deadline())]
        player, action = rng.choice(options)
        state, _ = step(state, player, action, dice)
        if state.finished:
            return
    at_stake = dict(state.stakes)
    assert sum(at_stake.values()) == state.pot
    state, events = step(state, rng.choice([None, 999]), Abort(), dice)
    assert_aborted(state, events, at_stake)


# --- the players' rules text ----------------------------------------------------------


def test_rules_text_pages() -> None:
    text = resources.files("bot.rules_text").joinpath("nihakyu.md").read_text(encoding="utf-8")
    pages = text.split("\n---\n")
    assert len(pages) >= 3
    for page in pages:
        assert page.strip().startswith("# "), page[:40]
        assert len(page.strip()) <= 3500
    for technique in ("chakra", "genjutsu", "dōjutsu", "substitution", "summoning"):
        assert technique in text.lower()
    for number in ("17", "183", "196", "12 > 9", "-3", "19"):
        assert number in text
    assert "Shinigami" in text
