"""The test game's engine evolves its state as the shipped engines do (bot/games/kit.py): a
shallow copy whose containers are replaced, so the state an action was given never
changes (the benchmarks' clicks run on it)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bot.games.dice import ScriptedDice
from tests.support.coinflip import engine as coinflip

Move = tuple[str, int]
moves = st.lists(
    st.one_of(
        st.tuples(st.just("raise"), st.integers(1, 50)),
        st.tuples(st.sampled_from(["heads", "tails"]), st.integers(1, 2)),
    ),
    max_size=12,
)


@given(moves)
def test_an_action_never_changes_the_state_it_was_given(plays: list[Move]) -> None:
    rules = coinflip.Rules(stake=10)
    state = coinflip.start(rules, [1, 2], ScriptedDice([]))
    for kind, value in plays:
        if state.finished:
            break
        before = state.model_dump()
        player = state.seats[state.turn]
        if kind == "raise":
            action: coinflip.Raise | coinflip.Call = coinflip.Raise(amount=value)
        else:
            action = coinflip.Call(side=kind)  # type: ignore[arg-type]
        new, _events = coinflip.act(state, player, action, ScriptedDice([value]))
        assert state.model_dump() == before
        state = new


def test_a_raise_adds_to_the_raisers_stake_only() -> None:
    state = coinflip.start(coinflip.Rules(stake=10), [1, 2], ScriptedDice([]))
    raised, _ = coinflip.act(state, 2, coinflip.Raise(amount=5), ScriptedDice([]))
    assert raised.stakes == {1: 10, 2: 15}
    assert state.stakes == {1: 10, 2: 10}
