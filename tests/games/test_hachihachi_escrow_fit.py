"""The largest stake a wallet covers at a Hachi-hachi table (`/hanafuda open`'s refusal)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bot.games import hachihachi as hh


def test_the_welcome_wallet_covers_seven_a_kan_not_eight() -> None:
    rules = hh.Rules()
    assert hh.hold(rules.model_copy(update={"stake_per_kan": 8})) == 1009
    assert hh.hold(rules.model_copy(update={"stake_per_kan": 7})) == 883
    assert hh.affordable_stake(rules, 1000) == 7
    assert hh.hold(rules) <= 1000, "the default table fits a new member's wallet"


@given(
    balance=st.integers(0, 10**9),
    seats=st.sampled_from([2, 3, 4]),
    points=st.sampled_from([10, 12]),
    mode=st.sampled_from(["carry_over", "stack"]),
    rain_man=st.booleans(),
    compensation=st.booleans(),
    penalties=st.booleans(),
)
def test_the_fit_is_the_largest_stake_whose_escrow_the_wallet_covers(
    balance: int,
    seats: int,
    points: int,
    mode: str,
    rain_man: bool,
    compensation: bool,
    penalties: bool,
) -> None:
    rules = hh.Rules.model_validate(
        {
            "seated_players": seats,
            "points_per_kan": points,
            "field_multiplier_mode": mode,
            "rain_man_phoenix_make_large_field": rain_man,
            "forced_out_compensation": compensation,
            "dropout_penalties": penalties,
        }
    )
    fit = hh.affordable_stake(rules, balance)
    assert hh.hold(rules.model_copy(update={"stake_per_kan": fit})) <= balance
    if fit < 1_000_000:
        assert hh.hold(rules.model_copy(update={"stake_per_kan": fit + 1})) > balance
