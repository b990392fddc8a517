"""A moderator's end of a Strength Duel the house stakes (rules: "Ended early"): the pot is
settled at the position's exact value from the table the computer plays by, so a member
who has every losing game ended gains nothing on average; a duel between members ended
the same way still returns every stake."""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction

import pytest

from bot.games import strength_duel as duel
from bot.games.common import COMPUTER_IDS, HOUSE, Abort
from bot.games.dice import ScriptedDice
from bot.games.errors import IllegalMove
from bot.players import strength_duel as duel_player
from bot.players.duel_round import round_end

MEMBER, COMPUTER = 1_000_001, COMPUTER_IDS[0]
TOP = duel_player.MAX_STRENGTH


def at(own: int, other: int, stake: int = 10, computer: int = COMPUTER) -> duel.State:
    """A running duel (member first) with these strengths."""
    state = duel.start(duel.Rules(mode="duel", stake=stake), [MEMBER, computer], ScriptedDice())
    return state.model_copy(update={"strength": {MEMBER: own, computer: other}})


def ended_at_value(state: duel.State) -> tuple[duel.State, duel.SettledAtValue]:
    action = duel.at_value(state, {COMPUTER}, duel_player.value)
    assert action is not None
    after, events = duel.act(state, None, action, ScriptedDice())
    (event,) = events
    assert isinstance(event, duel.SettledAtValue)
    return after, event


@pytest.mark.parametrize("stake", [1, 10, 333, 12_345_678])
def test_the_member_receives_the_pot_times_their_value_rounded_down(stake: int) -> None:
    pot = 2 * stake
    for own in range(1, TOP + 1):
        for other in range(1, TOP + 1):
            after, event = ended_at_value(at(own, other, stake))
            value = duel_player.value(own, other)
            expected = pot // 2 if own == other else math.floor(pot * Fraction(value))
            assert expected <= pot * value + 1e-9 * pot
            assert event.shares == {MEMBER: expected, COMPUTER: pot - expected}, (own, other)
            assert after.payouts == {
                HOUSE: 0,
                MEMBER: expected - stake,
                COMPUTER: stake - expected,
            }
            assert after.stakes == {MEMBER: 0, COMPUTER: 0}
            assert after.finished and after.aborted and after.settled == event.shares
            assert after.winner is None and not after.draw


def test_equal_strengths_are_exactly_half_and_a_decided_position_all_or_nothing() -> None:
    for strength in range(1, TOP + 1):
        _, event = ended_at_value(at(strength, strength, stake=7))
        assert event.chance == 0.5 and event.shares == {MEMBER: 7, COMPUTER: 7}
    # 3 against 1: the computer cannot pay to roll away from any bid the member tops.
    assert duel_player.value(3, 1) == 1.0
    assert ended_at_value(at(3, 1))[1].shares == {MEMBER: 20, COMPUTER: 0}
    assert ended_at_value(at(1, 3))[1].shares == {MEMBER: 0, COMPUTER: 20}


def test_ending_at_any_moment_gains_a_member_nothing_against_the_computer() -> None:
    """The member's best value when a friendly moderator may end the game at any moment
    the member chooses (their own bids the best against the computer's equilibrium mix),
    computed exactly over every position: with the pot settled at the value it is the
    game's value (50% of the pot from the even start: no gain); with stakes returned, as
    before, it was 74.96% (+49.9% of the stake)."""

    def settled(own: int, other: int) -> float:
        pot = 2_000
        if own == other:
            return 0.5
        return math.floor(pot * Fraction(duel_player.value(own, other))) / pot

    assert best_with_ending(settled) <= 0.5 + 1e-9
    assert abs(best_with_ending(settled) - 0.5) < 1e-9
    returned = best_with_ending(lambda own, other: 0.5)
    assert round(2 * returned - 1, 3) == 0.499, "the old end: +49.9% of the stake"


def best_with_ending(ending: Callable[[int, int], float]) -> float:
    """The member's value from 25–25 against the computer's mix when at every position they
    may have the game ended for ``ending(own, other)`` instead of bidding (the whole game
    solved backwards: every round spends strength but both bidding 0, which stays put)."""
    best: dict[tuple[int, int], float] = {}
    positions = sorted(
        ((own, other) for own in range(1, TOP + 1) for other in range(1, TOP + 1)), key=sum
    )
    for own, other in positions:
        theirs = duel_player.equilibrium(other, own)
        stay = theirs.get(0, 0.0)
        plays = []
        for bid in range(own + 1):
            total = 0.0
            for their_bid, chance in theirs.items():
                end, after = round_end(own, other, bid, their_bid)
                if end is not None:
                    total += chance * end
                elif after != (own, other):
                    assert after is not None
                    total += chance * best[after]
            plays.append(total)
        # Bidding 0 against the computer's 0 stays put: that bid is worth rest/(1 - stay).
        assert stay < 1
        standing = plays[0] / (1 - stay)
        best[own, other] = max(ending(own, other), max(plays[1:], default=0.0), standing)
    return best[TOP, TOP]


def test_only_a_duel_the_house_stakes_one_seat_of_is_settled_at_value() -> None:
    value = duel_player.value
    members = duel.start(duel.Rules(stake=10), [MEMBER, MEMBER + 1], ScriptedDice())
    assert duel.at_value(members, set(), value) is None, "members: every stake back"
    assert duel.at_value(at(9, 4, stake=0), {COMPUTER}, value) is None, "no coins at stake"
    both = duel.start(duel.Rules(stake=10), list(COMPUTER_IDS[:2]), ScriptedDice())
    assert duel.at_value(both, set(COMPUTER_IDS), value) is None, "the house against itself"
    for mode in ("forbidden", "three"):
        seats = [MEMBER, COMPUTER, MEMBER + 1][: duel.SEATS[mode]]
        other = duel.start(duel.Rules(mode=mode, stake=0), seats, ScriptedDice())
        assert duel.at_value(other, {COMPUTER}, value) is None, mode
    # A members' duel ended by a moderator: every stake goes back, as before.
    after, _ = duel.act(members, None, Abort(), ScriptedDice())
    assert after.payouts == {HOUSE: 0, MEMBER: 0, MEMBER + 1: 0} and not after.settled


def test_the_settlement_is_refused_where_it_does_not_apply() -> None:
    members = duel.start(duel.Rules(stake=10), [MEMBER, MEMBER + 1], ScriptedDice())
    with pytest.raises(IllegalMove):
        duel.act(members, None, duel.SettleAtValue(house=COMPUTER, chance=0.5), ScriptedDice())
    finished, _ = ended_at_value(at(9, 4))
    with pytest.raises(IllegalMove):
        duel.act(finished, None, duel.SettleAtValue(house=COMPUTER, chance=0.5), ScriptedDice())


def test_a_pending_bid_is_dropped_unrevealed_and_the_state_round_trips() -> None:
    state, _ = duel.act(at(12, 9), COMPUTER, duel.Bid(amount=4), ScriptedDice())
    after, event = ended_at_value(state)
    assert after.bids == {} and "bids" not in type(event).model_fields
    assert duel.ENGINE.state_model.model_validate_json(after.model_dump_json()) == after
    logged = duel.at_value(state, {COMPUTER}, duel_player.value)
    assert logged is not None
    assert duel.ENGINE.parse_action(logged.model_dump(mode="json")) == logged
