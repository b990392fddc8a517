"""The Strength Duel's computer: the shipped equilibrium is one (to 1e-9, both sides), its
rounds are the engine's, a fresh solve gives the same table, every decision is legal in
every mode, and a decision never depends on what the seat cannot see."""

from __future__ import annotations

import itertools
import random

import pytest

from bot.fairness import FairDice
from bot.games import strength_duel as duel
from bot.games.dice import ScriptedDice
from bot.players import strength_duel as sd
from bot.players.duel_round import round_end

STATES = [(a, b) for a in range(1, 26) for b in range(1, 26)]
A, B = 101, 202


def earned(own: int, other: int, mix: dict[int, float], their_bid: int) -> float:
    """What `mix` earns against one pure bid (both bidding 0 keeps the state's value)."""
    return sum(p * sd._result_or_self(own, other, bid, their_bid) for bid, p in mix.items())


def test_no_pure_bid_does_better_than_the_value_against_the_equilibrium() -> None:
    worst = 0.0
    for own, other in STATES:
        value, mix = sd.value(own, other), sd.equilibrium(own, other)
        assert set(mix) <= set(range(own + 1)) and abs(sum(mix.values()) - 1) < 1e-12
        for their_bid in range(other + 1):
            worst = max(worst, value - earned(own, other, mix, their_bid))
        # And the other side: the opponent's equilibrium holds this player to the value.
        theirs = sd.equilibrium(other, own)
        for bid in range(own + 1):
            against = sum(p * sd._result_or_self(own, other, bid, y) for y, p in theirs.items())
            worst = max(worst, against - value)
    assert worst <= 1e-9, worst


def test_the_values_are_a_zero_sum_game_from_an_even_start() -> None:
    for own, other in STATES:
        assert abs(sd.value(own, other) + sd.value(other, own) - 1) < 1e-9
    assert abs(sd.value(25, 25) - 0.5) < 1e-9
    assert sd.value(0, 5) == 0.0 and sd.value(5, 0) == 1.0 and sd.value(0, 0) == 0.5
    assert sd.value(25, 1) == 1.0, "one strength can never pay a roll-away"
    with pytest.raises(ValueError):
        sd.value(26, 25)


def test_the_equilibrium_never_stalls_and_plays_a_won_game_out() -> None:
    """Both bidding 0 repeats the state, so a mix that bids 0 for sure could stall until
    the round limit: no state's mix does, a decided state's never bids 0, and a won state's
    bid wins against every reply."""
    for own, other in STATES:
        mix, value = sd.equilibrium(own, other), sd.value(own, other)
        assert mix.get(0, 0.0) <= 0.5 + 1e-9, (own, other, mix)
        if value in (0.0, 1.0):
            assert 0 not in mix, (own, other, mix)
        if value == 1.0:
            for bid in mix:
                replies = [sd.result(own, other, bid, y) for y in range(other + 1)]
                assert min(replies) == 1.0, (own, other, bid)


@pytest.mark.parametrize("their_bid", [0, 1])
def test_a_game_against_a_stalling_bidder_ends_long_before_the_round_limit(
    their_bid: int,
) -> None:
    for game in range(20):
        dice = FairDice(bytes([game, their_bid]) * 16)
        state = waiting_state()
        while not state.finished:
            action = sd.decide(state, A, dice)
            assert isinstance(action, duel.Bid)
            state, _ = duel.act(state, A, action, dice)
            low = min(their_bid, state.strength[B])
            state, _ = duel.act(state, B, duel.Bid(amount=low), dice)
        # Against 0 (or 1) every round the old table's "both bid 0" ran to round 100.
        assert state.round <= 40 < state.rules.max_rounds, (game, state.round)


def holds_the_value(
    values: dict[tuple[int, int], float], own: int, other: int, mix: dict[int, float]
) -> float:
    """How far ``mix`` falls short of the state's value against the opponent's worst pure
    reply for it, the payoffs read from ``values`` (both bidding 0: the state's own)."""

    def value_at(a: int, b: int) -> float:
        if a == 0 or b == 0:
            return 0.5 if a == b else float(a > b)
        return values[a, b]

    def earned(bid: int, their_bid: int) -> float:
        end, after = round_end(own, other, bid, their_bid)
        return end if end is not None else value_at(*after)  # type: ignore[misc]

    worst = min(
        sum(p * earned(bid, their_bid) for bid, p in mix.items()) for their_bid in range(other + 1)
    )
    return value_at(own, other) - worst


def test_a_fresh_solve_gives_the_shipped_table() -> None:
    """What the game determines, not which optimum the LP returned: the values, exactly
    the won states' bids (an integer rule), and elsewhere that the shipped mix and the
    fresh one each hold the value against every pure reply. Where the optimal mixes form a
    segment (at (8, 8) {1: ½, 4: ½} and the shipped mix both hold ½) the solver's pick
    among them changes with the last bits of the BLAS kernels and SciPy's release."""
    # SciPy is a dev dependency: a missing one fails here, never skips.
    from bot.players import strength_duel_solve as solver

    size = 9
    solved, mixes = solver.solve(max_strength=size)
    states = list(itertools.product(range(1, size + 1), repeat=2))
    fresh_values = {(a, b): float(solved[a, b]) for a, b in states}
    shipped_values = {(a, b): sd.value(a, b) for a, b in states}
    won = 0
    for own, other in states:
        assert abs(fresh_values[own, other] - shipped_values[own, other]) < 1e-9, (own, other)
        fresh = {bid: float(p) for bid, p in enumerate(mixes[(own, other)]) if p > 1e-12}
        shipped = sd.equilibrium(own, other)
        for mix in (fresh, shipped):
            assert set(mix) <= set(range(own + 1)) and abs(sum(mix.values()) - 1) < 1e-9
        if shipped_values[own, other] == 1.0:
            won += 1
            assert fresh == shipped == {next(iter(shipped)): 1.0}, (own, other, fresh, shipped)
        else:
            # Each judged on the fresh values and on the shipped ones (equal to 1e-9).
            for values in (fresh_values, shipped_values):
                assert holds_the_value(values, own, other, fresh) < 1e-9, (own, other, fresh)
                assert holds_the_value(values, own, other, shipped) < 1e-9, (own, other, shipped)
    assert won > 10


def play_round(own: int, other: int, bid: int, their_bid: int) -> duel.State:
    state = duel.start(duel.Rules(), [A, B], ScriptedDice())
    state = state.model_copy(update={"strength": {A: own, B: other}})
    state, _ = duel.act(state, A, duel.Bid(amount=bid), ScriptedDice())
    state, _ = duel.act(state, B, duel.Bid(amount=their_bid), ScriptedDice())
    return state


@pytest.mark.parametrize("seed", range(6))
def test_the_solvers_rounds_are_the_engines(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(150):
        own, other = rng.randint(1, 25), rng.randint(1, 25)
        bid, their_bid = rng.randint(0, own), rng.randint(0, other)
        end, after = round_end(own, other, bid, their_bid)
        state = play_round(own, other, bid, their_bid)
        if end is None:
            assert not state.finished and (state.strength[A], state.strength[B]) == after
        else:
            assert state.finished
            expected = {1.0: A, 0.0: B}.get(end)
            assert state.winner == expected and state.draw == (end == 0.5)


def test_the_seeds_ruling_examples() -> None:
    assert round_end(3, 5, 3, 5) == (1.0 - 1.0, None), "A 3 bids 3, B 5 bids 5: B wins"
    assert round_end(5, 5, 5, 2) == (0.5, None), "A 5 bids 5, B 5 bids 2: a draw"


def test_regret_is_zero_on_the_mix_and_positive_off_it() -> None:
    for own, other in STATES:
        mix = sd.equilibrium(own, other)
        for bid in range(own + 1):
            regret = sd.bid_regret(own, other, bid)
            assert regret >= -1e-9
            if bid in mix:
                assert abs(regret) < 1e-9
    assert sd.bid_regret(25, 25, 25) > 0.3, "all in at the start throws the game away"


def test_a_sample_follows_the_mix_from_one_roll() -> None:
    mix = sd.equilibrium(25, 25)
    low, high = min(mix), max(mix)
    assert sd.sample(mix, ScriptedDice([1])) == low
    assert sd.sample(mix, ScriptedDice([sd.SAMPLE_SIDES])) == high
    counts = dict.fromkeys(mix, 0)
    dice = FairDice(bytes(32))
    for _ in range(4000):
        counts[sd.sample(mix, dice)] += 1
    for bid, p in mix.items():
        assert abs(counts[bid] / 4000 - p) < 0.03, (bid, counts[bid], p)


def waiting_state(mode: str = "duel") -> duel.State:
    seats = [A, B] if mode in ("duel", "forbidden") else [A, B, 303, 404][: duel.SEATS[mode]]
    return duel.start(duel.Rules(mode=mode), seats, ScriptedDice())  # type: ignore[arg-type]


def test_the_decision_ignores_the_opponents_hidden_bid() -> None:
    state = waiting_state()
    for their_bid in (0, 3, 17, 25):
        hidden = state.model_copy(update={"bids": {A: their_bid}})
        decisions = {sd.decide(hidden, B, ScriptedDice([12345])) for _ in range(2)}
        assert decisions == {sd.decide(state, B, ScriptedDice([12345]))}
    assert sd.decide(state.model_copy(update={"bids": {B: 4}}), B, ScriptedDice()) is None


@pytest.mark.parametrize("mode", ["duel", "forbidden", "three", "tag"])
def test_computers_at_every_seat_play_legal_games_to_the_end(mode: str) -> None:
    for game in range(6):
        dice = FairDice(bytes([game]) * 32)
        state = waiting_state(mode)
        for _ in range(400):
            if state.finished:
                break
            moved = False
            for seat in state.seats:
                action = sd.decide(state, seat, dice)
                if action is not None:
                    assert action in duel.legal_actions(state, seat), (mode, action)
                    state, _ = duel.act(state, seat, action, dice)
                    moved = True
            assert moved, "some seat always has a move while the game runs"
        assert state.finished, mode
        for seat in state.seats:
            assert sd.decide(state, seat, dice) is None


# -- where the house may stake ------------------------------------------------------------------

OTHER_VALUES = {"mode": ["forbidden", "three", "tag"], "max_rounds": [5, 39, 99, 101]}
OTHER_VALUES["afk_rounds_to_forfeit"] = [1, 2, 4]
"""For every option of the rules that changes play, values other than the solved game's."""


def test_every_option_that_changes_play_has_values_to_refuse() -> None:
    """A new option must be judged: either it leaves the game alone (PLAY_NEUTRAL) or the
    house-stake test below refuses its other values."""
    assert set(duel.Rules.model_fields) == set(OTHER_VALUES) | sd.PLAY_NEUTRAL


@pytest.mark.parametrize(
    ("option", "other"), [(name, v) for name, values in OTHER_VALUES.items() for v in values]
)
def test_the_house_stakes_only_the_solved_game(option: str, other: object) -> None:
    from bot.catalog import STRENGTH_DUEL
    from bot.players import computer_refusal

    rules = duel.Rules(**{option: other})
    why = computer_refusal(STRENGTH_DUEL.computer, "Strength Duel", rules, 10)
    assert why is not None and str(other) in why and "Nothing changed" in why, why
    assert computer_refusal(STRENGTH_DUEL.computer, "Strength Duel", rules, 0) is None, "no coins"


def test_the_house_stakes_the_solved_game_at_any_stake_and_bidding_time() -> None:
    from bot.catalog import STRENGTH_DUEL
    from bot.players import computer_refusal

    for rules in (duel.Rules(), duel.Rules(stake=1_000_000, round_seconds=15)):
        assert computer_refusal(STRENGTH_DUEL.computer, "Strength Duel", rules, rules.stake) is None


def test_the_house_does_not_stake_a_duel_from_another_starting_strength(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from bot.catalog import STRENGTH_DUEL
    from bot.players import computer_refusal

    monkeypatch.setitem(duel.STARTING_STRENGTH, "duel", 20)
    why = computer_refusal(STRENGTH_DUEL.computer, "Strength Duel", duel.Rules(), 10)
    assert why is not None and "start with 20 strength" in why, why


def best_reply(max_rounds: int) -> float:
    """A member's best chance (a draw ½) against the computer from the even start, in the
    duel that ends after ``max_rounds`` rounds (most strength wins): the computer's mix
    is fixed, so the member's best is a maximum per state, round by round from the last."""
    size = sd.MAX_STRENGTH
    states = [(c, m) for c in range(1, size + 1) for m in range(1, size + 1)]
    # Per state and member bid: (chance, the member's result or None, the next state).
    branches = {
        (c, m): [
            [
                (p, None if end is None else 1.0 - end, after)
                for x, p in sd.equilibrium(c, m).items()
                for end, after in [round_end(c, m, x, y)]
            ]
            for y in range(m + 1)
        ]
        for c, m in states
    }
    later = {(c, m): 1.0 if m > c else 0.5 if m == c else 0.0 for c, m in states}
    for _ in range(max_rounds):
        later = {
            state: max(
                sum(p * (end if end is not None else later[after]) for p, end, after in bid)
                for bid in branches[state]
            )
            for state in states
        }
    return later[(size, size)]


def test_the_round_limit_of_the_solved_game_gives_a_member_no_edge() -> None:
    """The table is solved without a round limit; a short limit is a member's edge (why
    the house refuses it), the solved rules' limit is not."""
    assert best_reply(sd.SOLVED_RULES.max_rounds) <= 0.5 + 1e-9
    assert best_reply(5) > 0.545, "a 5-round limit: a member's best reply wins 54.6%"


def test_the_computer_bids_from_its_own_strength() -> None:
    """Holding more strength than the member in a won state, the computer's bid wins
    against every reply: drawn from its own side of the equilibrium (own, other), never the
    member's (which, bidding what the member could, throws sure wins away)."""
    won = [(own, other) for own, other in STATES if sd.value(own, other) == 1.0 and own > other]
    assert len(won) > 100
    for own, other in won:
        state = duel.start(duel.Rules(), [A, B], ScriptedDice())
        state = state.model_copy(update={"strength": {A: own, B: other}})
        for roll in (1, sd.SAMPLE_SIDES // 2, sd.SAMPLE_SIDES):
            action = sd.decide(state, A, ScriptedDice([roll]))
            assert isinstance(action, duel.Bid)
            for reply in range(other + 1):
                end, after = round_end(own, other, action.amount, reply)
                assert end == 1.0 or (after is not None and sd.value(*after) == 1.0), (
                    own,
                    other,
                    action.amount,
                    reply,
                )
