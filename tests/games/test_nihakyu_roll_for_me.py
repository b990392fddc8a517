"""Nihakyu's "Roll for me": the table chooses Roll for a player whose only choice it is,
round after round, and never for a player who still has a secret choice to make."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.games import nihakyu as N
from bot.games.common import Deadline
from bot.games.dice import ScriptedDice
from tests.games.test_nihakyu import (
    KAGE,
    ROLL,
    SHADOW,
    A,
    B,
    C,
    kinds,
    new_game,
    play_round,
    public,
    refused,
    step,
)

ON, OFF = N.RollForMe(on=True), N.RollForMe(on=False)


def test_roll_for_me_chooses_now_and_at_every_round_start_until_turned_off() -> None:
    state = new_game((A, B, C))
    state, events = step(state, A, ON, ScriptedDice())
    assert state.choices == {A: "roll"} and state.roll_for_me == [A]
    assert [e.kind for e in public(events)] == ["player_chose"]
    assert next(e for e in events if e.kind == "roll_for_me_confirmed").private_to == A
    # B and C choose by hand: the round rolls at C's click, A's die first.
    state, _ = step(state, B, ROLL, ScriptedDice())
    state, events = step(state, C, ROLL, ScriptedDice([3, 4, 5]))
    assert state.round == 2 and state.stamina == {A: 197, B: 196, C: 195}
    # Round 2 opens with A's Roll already chosen (the table waits for the others only).
    assert state.choices == {A: "roll"}
    assert N.deadline_seconds(state) == state.rules.round_seconds
    assert N.ENGINE.waiting_on(state) == [B, C]
    state, _ = step(state, B, ROLL, ScriptedDice())
    state, _ = step(state, C, ROLL, ScriptedDice([1, 1, 1]))
    assert state.round == 3 and state.choices == {A: "roll"}
    # Turned off: this round's Roll stands, the next round is A's own to choose.
    state, _ = step(state, A, OFF, ScriptedDice())
    assert state.choices == {A: "roll"} and state.roll_for_me == []
    state, _ = step(state, B, ROLL, ScriptedDice())
    state, _ = step(state, C, ROLL, ScriptedDice([1, 1, 1]))
    assert state.round == 4 and state.choices == {}


def test_with_everyone_on_roll_for_me_each_round_rolls_at_a_short_deadline() -> None:
    state = new_game((A, B), starting_stamina=40)
    state, _ = step(state, A, ON, ScriptedDice())
    state, events = step(state, B, ON, ScriptedDice([10, 10]))
    assert state.round == 2 and "round_revealed" in kinds(events)
    for _ in range(2):
        # Every choice made at the round's start: nothing to wait for but the reading.
        assert state.choices == {A: "roll", B: "roll"}
        assert N.deadline_seconds(state) == N.ROLL_FOR_ME_SECONDS
        state, events = step(state, None, Deadline(), ScriptedDice([10, 9]))
        revealed = next(e for e in events if e.kind == "round_revealed")
        assert revealed.auto_rolled == [] and revealed.forfeiting == []
    assert state.stamina == {A: 10, B: 12} and state.auto_rolls == {A: 0, B: 0}
    state, events = step(state, None, Deadline(), ScriptedDice([10, 12]))
    assert state.finished and state.winner == B, "Roll for me is never an idle forfeit"


@pytest.mark.parametrize(
    "rules",
    [{"shadow_step": True}, {"shadow_step": True, "shadow_step_uses": 1}, {"kage_endurance": True}],
)
def test_never_while_a_secret_choice_is_left(rules: dict[str, object]) -> None:
    state = new_game((A, B), **rules)
    text = refused(state, A, ON, "only while Roll is your only choice")
    assert "secret" in text


def test_offered_once_the_secret_choices_are_used_up() -> None:
    state = new_game((A, B), shadow_step=True, shadow_step_uses=1, kage_endurance=True)
    state, _ = play_round(state, [5, 6], picks={A: SHADOW, B: KAGE})
    assert not N.only_roll(state, A) and not N.only_roll(state, B)
    state, _ = play_round(state, [5, 6], picks={A: KAGE, B: SHADOW})
    assert N.only_roll(state, A) and N.only_roll(state, B)
    state, _ = step(state, A, ON, ScriptedDice())
    assert state.roll_for_me == [A]


def test_refusals() -> None:
    state = new_game((A, B))
    refused(state, A, OFF, "not rolling for you")
    refused(state, None, ON, "not seated")
    refused(state, C, ON, "not seated")
    state, _ = step(state, A, ON, ScriptedDice())
    refused(state, A, ON, "already rolls for you")


def test_it_is_not_a_listed_move_and_survives_json() -> None:
    state = new_game((A, B))
    state, _ = step(state, A, ON, ScriptedDice())
    assert N.RollForMe(on=True) not in N.legal_actions(state, A)
    assert N.State.model_validate_json(state.model_dump_json()) == state
    assert N.ENGINE.parse_action({"kind": "roll_for_me", "on": False}) == OFF


@given(seed=st.integers(0, 2**32))
def test_roll_for_me_plays_exactly_as_clicking_roll_each_round(seed: int) -> None:
    """The same dice give the same game whether a player clicks Roll every round or the
    table rolls for them: only who clicks differs."""
    import random

    rng = random.Random(seed)
    rolls = [rng.randint(1, 20) for _ in range(400)]
    by_hand = new_game((A, B), starting_stamina=60)
    by_table = new_game((A, B), starting_stamina=60)
    hand_dice, table_dice = ScriptedDice(rolls), ScriptedDice(rolls)
    by_table, _ = step(by_table, A, ON, table_dice)
    while not by_hand.finished:
        by_hand, _ = step(by_hand, A, ROLL, hand_dice)
        by_hand, _ = step(by_hand, B, ROLL, hand_dice)
        by_table, _ = step(by_table, B, ROLL, table_dice)
        assert by_table.stamina == by_hand.stamina
    assert by_table.finished and by_table.payouts == by_hand.payouts
