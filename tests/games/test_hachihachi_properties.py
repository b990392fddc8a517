"""Properties of the Nuki Hachi-hachi engine over random deals and playouts (hypothesis):
every card accounted for, 211 card points in a round played out, zero-sum settlements,
no round's loss above the escrow bound and no settlement above what is escrowed (each
round's escrow is put back from a wallet of random size before the next round, and a
wallet that cannot ends the match after the round, as the table does), the books
balancing (wallets + escrow constant), stakes never negative, the state's JSON round-trip;
and a state machine playing random legal moves for 2, 3 and 4 seats with every house
option of §17 drawn at random."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from bot.games import hachihachi as hh
from bot.games.common import HOUSE, Deadline
from bot.games.errors import IllegalMove
from bot.games.hachihachi import match
from tests.support.dice import SeededDice

PLAYERS = [101, 202, 303, 404]


@st.composite
def house_rules(draw: st.DrawFn, seats: int | None = None) -> hh.Rules:
    """Every §17 option (and the table's own settings) at random."""
    return hh.Rules(
        seated_players=draw(st.sampled_from([2, 3, 4])) if seats is None else seats,
        rounds=draw(st.integers(1, 3)),
        points_per_kan=draw(st.sampled_from([10, 12])),
        mizuten=draw(st.booleans()),
        teyaku_claims=draw(st.sampled_from(["auto", "manual"])),
        field_multiplier_mode=draw(st.sampled_from(["carry_over", "stack"])),
        rain_man_phoenix_make_large_field=draw(st.booleans()),
        extend_game_for_carryover=draw(st.booleans()),
        boar_deer_butterflies=draw(st.booleans()),
        diving_eligibility=draw(st.sampled_from(["triplet_or_haneken", "triplet_only"])),
        escape_excludes_one_bright=draw(st.booleans()),
        dropout_penalties=draw(st.booleans()),
        forced_out_compensation=draw(st.booleans()),
        must_two_play=draw(st.booleans()),
        shuffle_draw_after_dropouts=draw(st.booleans()),
        first_dealer=draw(st.sampled_from(["draw", "first_seat"])),
        stake_per_kan=draw(st.integers(1, 7)),
        afk_rounds_to_forfeit=draw(st.integers(1, 4)),
    )


def cards_of(state: hh.State) -> list[str]:
    cards = [*state.field, *state.draw_pile]
    for p in state.seats:
        cards += state.hands[p] + state.piles[p]
    if state.drawn is not None:
        cards.append(state.drawn)
    return sorted(cards)


ALL_CARDS = sorted(hh.DECK)


class Playout:
    """Checks every step of one match played by random legal actions (and deadlines)."""

    def __init__(
        self, rules: hh.Rules, seed: int, deadlines: float = 0.05, *, short: bool = False
    ) -> None:
        self.rng = random.Random(seed)
        self.dice = SeededDice(seed)
        self.rules = rules
        self.players = PLAYERS[: rules.seated_players]
        self.state = hh.start(rules, list(self.players), self.dice)
        self.deadlines = deadlines
        self.rounds_to_last_card = 0
        hold = hh.hold(rules)
        assert all(stake == hold for stake in self.state.stakes.values())
        # Each wallet before sitting down: the seat's hold and a random spare (``short``:
        # small enough that a wallet may fail to put a round's loss back).
        spare = hold // 2 if short else 10**9
        self.start_wallet = {p: hold + self.rng.randint(0, spare) for p in self.players}
        self.total = sum(self.start_wallet.values())
        self.short_ended = False
        self.check(self.state)

    def wallet(self, state: hh.State, p: int) -> int:
        """A wallet as the service keeps it: its change at the table is payouts - stakes."""
        return self.start_wallet[p] + state.payouts[p] - state.stakes[p]

    def settle(self, state: hh.State, player: int | None, action: Any) -> tuple[Any, list[Any]]:
        """The action as the table applies it: a wallet that cannot put back what the
        scored round took (``top_up``) gets the engine's ``shortfall`` note first, and the
        action is applied again."""
        new, events = hh.act(state, player, action, self.dice)
        for p in self.players:
            need = hh.top_up(state, new, p)
            assert need == max(0, self.wallet(state, p) - self.wallet(new, p))
            if need > self.wallet(state, p):
                fix = hh.shortfall(state, p)
                assert fix is not None
                state, noted = hh.act(state, None, fix, self.dice)
                assert [e.kind for e in noted] == ["cannot_cover"] and state.uncovered
                new, events = hh.act(state, player, action, self.dice)
                assert new.finished and events[-1].reason == "uncovered"
                self.short_ended = True
                return new, [*noted, *events]
        return new, events

    def step(self) -> None:
        state = self.state
        assert not state.finished
        turn = state.turn
        assert turn is not None
        movers = {p: hh.legal_actions(state, p) for p in self.players}
        movers = {p: moves for p, moves in movers.items() if moves}
        assert turn in movers or state.phase == "claim", f"nothing to do in {state.phase}"
        assert movers, "the draw waits for no claim step"
        for other, moves in movers.items():
            if other != turn:
                # Besides the turn, only a claim step, while claims are open.
                assert state.claims_open and all(isinstance(m, hh.ClaimTeyaku) for m in moves)
        if self.rng.random() < self.deadlines:
            action: Any = Deadline()
            new, events = self.settle(state, None, action)
        else:
            player = self.rng.choice(sorted(movers))
            action = self.rng.choice(movers[player])
            new, events = self.settle(state, player, action)
        # Only a silent claim step (a decline, "nothing to claim") leaves the ply alone.
        silent = isinstance(action, hh.ClaimTeyaku) and not events
        assert new.ply > state.ply or (silent and new.ply == state.ply)
        for event in events:
            assert hh.parse_event(event.model_dump(mode="json")) == event
            if event.kind == "round_scored":
                self.check_round(event.result, state.pot_carried)
        for p in self.players:
            # No settlement exceeds what is escrowed: a step's loss is paid from the
            # stake the player held before it.
            assert state.payouts[p] - new.payouts[p] <= state.stakes[p], "loss over escrow"
        self.state = new
        self.check(new)

    def check(self, state: hh.State) -> None:
        assert cards_of(state) == ALL_CARDS
        assert sum(state.payouts.values()) == 0 and state.payouts[HOUSE] == 0
        assert sum(state.scores.values()) == 0
        assert HOUSE not in state.stakes
        assert all(stake >= 0 for stake in state.stakes.values())
        assert hh.State.model_validate_json(state.model_dump_json()) == state
        assert state.payouts == hh.coins(state.scores, state.seats, state.rules)
        # The books balance: every coin is in a wallet or in escrow, no wallet below 0.
        wallets = {p: self.wallet(state, p) for p in self.players}
        assert all(balance >= 0 for balance in wallets.values()), wallets
        assert sum(wallets.values()) + sum(state.stakes.values()) == self.total
        if state.finished:
            assert all(stake == 0 for stake in state.stakes.values())
            assert hh.deadline_seconds(state) is None
        else:
            assert all(stake == hh.hold(state.rules) for stake in state.stakes.values())
            assert state.turn in state.seats and hh.deadline_seconds(state)
            assert state.rounds_played < match.max_rounds(state.rules)
            if state.phase in ("play", "capture_drawn", "call"):
                assert len(state.active) == 2
                hands = [len(state.hands[p]) for p in state.active]
                # A turn uses a hand card and the draw pile's top; mid-turn the drawn
                # card waits face up.
                waiting = state.phase == "capture_drawn"
                assert (state.drawn is not None) == waiting
                assert len(state.draw_pile) == sum(hands)

    def check_round(self, result: hh.RoundResult, carried: dict[int, int]) -> None:
        assert sum(result.net.values()) == 0
        seats = len(self.players)
        allowance = match.dropout_allowance(self.rules, seats)
        bound = (match.round_bound(self.rules, seats) - allowance) * result.multiplier
        assert result.multiplier <= match.max_multiplier(self.rules)
        for p, net in result.net.items():
            # A penalty carried over from an abandoned deal (at that deal's multiplier)
            # is the bound's allowance: one penalty a counted round (see match).
            assert carried.get(p, 0) <= allowance * match.max_multiplier(self.rules)
            assert -net - carried.get(p, 0) <= bound
        if result.ended_by == "exhaustion":
            assert sum(result.card_points.values()) == hh.CARD_POINTS_TOTAL
            self.rounds_to_last_card += 1
        for line in result.lines:
            assert line.points > 0 and line.payer != line.payee

    def run(self, limit: int = 5000) -> hh.State:
        for _ in range(limit):
            if self.state.finished:
                return self.state
            self.step()
        raise AssertionError("the match did not end")


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=house_rules(), seed=st.integers(0, 2**32 - 1))
def test_random_matches_keep_every_invariant(rules: hh.Rules, seed: int) -> None:
    final = Playout(rules, seed).run()
    assert final.rounds_played <= match.max_rounds(rules)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=house_rules(), seed=st.integers(0, 2**32 - 1))
def test_short_wallets_end_the_match_with_every_settlement_inside_the_escrow(
    rules: hh.Rules, seed: int
) -> None:
    """Wallets that hold little beyond one round's escrow: the round is always paid from
    what is held, a wallet never goes below 0, and a wallet that cannot put a loss back
    ends the match after that round (checked in ``Playout.settle`` and ``check``)."""
    rules = rules.model_copy(update={"rounds": 6})
    final = Playout(rules, seed, short=True).run()
    assert final.finished


@settings(max_examples=60, deadline=None)
@given(seats=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2**32 - 1))
def test_rounds_played_to_the_last_card_hold_211_points(seats: int, seed: int) -> None:
    # No deadlines: every round of a random match is played out by the players.
    rules = hh.Rules(seated_players=seats, rounds=4, mizuten=False)
    playout = Playout(rules, seed, deadlines=0.0)
    playout.run()
    assert playout.state.rounds_played == 4


@settings(max_examples=30, deadline=None)
@given(seats=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2**32 - 1))
def test_the_deadline_alone_plays_a_match_to_its_forfeit(seats: int, seed: int) -> None:
    rules = hh.Rules(seated_players=seats, rounds=5, afk_rounds_to_forfeit=2)
    playout = Playout(rules, seed, deadlines=1.0)
    final = playout.run()
    assert final.finished and final.forfeited
    assert final.rounds_played <= 1


class HachihachiMachine(RuleBasedStateMachine):
    """Random legal moves (and deadlines, and random bad moves) under random house rules."""

    playout: Playout

    @initialize(rules=house_rules(), seed=st.integers(0, 2**32 - 1))
    def begin(self, rules: hh.Rules, seed: int) -> None:
        self.playout = Playout(rules, seed, deadlines=0.03)

    @rule()
    def legal_move(self) -> None:
        if not self.playout.state.finished:
            self.playout.step()

    @rule(data=st.data())
    def a_bad_move_changes_nothing(self, data: st.DataObject) -> None:
        state = self.playout.state
        player = data.draw(st.sampled_from([*self.playout.players, 999]))
        action = data.draw(
            st.one_of(
                st.builds(hh.Play, card=st.sampled_from(hh.DECK)),
                st.builds(hh.CaptureDrawn, capture=st.sampled_from(hh.DECK)),
                st.just(hh.Sage()),
                st.just(hh.Shoubu()),
                st.just(hh.Cancel()),
                st.builds(hh.Participate, play=st.booleans()),
                st.builds(hh.Mizuten, declare=st.booleans()),
                st.builds(hh.ClaimTeyaku, claim=st.booleans()),
            )
        )
        if player in state.seats and action in hh.legal_actions(state, player):
            return
        before = state.model_dump_json()
        try:
            hh.act(state, player, action, self.playout.dice)
        except IllegalMove as refusal:
            assert str(refusal)
        else:
            raise AssertionError(f"{action!r} by {player} was accepted")
        assert state.model_dump_json() == before

    @invariant()
    def every_card_is_somewhere(self) -> None:
        if hasattr(self, "playout"):
            assert cards_of(self.playout.state) == ALL_CARDS


TestHachihachiMachine = HachihachiMachine.TestCase
TestHachihachiMachine.settings = settings(max_examples=25, stateful_step_count=60, deadline=None)
