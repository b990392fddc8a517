"""Tests of the Nuki Hachi-hachi engine: the deal, the phases, the matching, the calls, the
match and its money, bad input. Scripted deals are built by :func:`deal_order`."""

from __future__ import annotations

import json
import math
import random
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import pytest

from bot.fairness import FairDice, RecordingDice
from bot.games import hachihachi as hh
from bot.games.common import HOUSE, Abort, Deadline
from bot.games.dice import ScriptedDice
from bot.games.errors import IllegalMove
from bot.games.hachihachi import match
from bot.games.hachihachi.round import End

A, B, C, D = 101, 202, 303, 404
OUTSIDER = 999

# ----------------------------------------------------------------------- helpers


def deal_order(
    hands: Sequence[Sequence[str]], field: Sequence[str] = (), draw: Sequence[str] = ()
) -> list[int]:
    """The shuffle order (indices into DECK) that deals these cards (§5): ``hands`` in
    deal order (the seat after the dealer first, the dealer last), each its first cards;
    ``field`` its first cards; ``draw`` the top of the draw pile. The rest is filled from
    the unused cards in deck order (the field first, then the hands, then the draw pile)."""
    used = [card for part in (*hands, field, draw) for card in part]
    assert len(set(used)) == len(used), "a card named twice"
    spare = [card for card in hh.DECK if card not in used]
    # The field is filled first, with no bright and at most two cards of a month, so the
    # filling makes no misdeal, Paulownia pair or Large Field of its own.
    full_field = list(field)
    for card in list(spare):
        if len(full_field) == 6:
            break
        month = hh.CARDS[card].month
        if hh.CARDS[card].category == "bright":
            continue
        if sum(1 for other in full_field if hh.CARDS[other].month == month) >= 2:
            continue
        if month == hh.PAULOWNIA and "paulownia-bright" in full_field:
            continue
        full_field.append(card)
        spare.remove(card)
    full_hands = []
    for hand in hands:
        more = 7 - len(hand)
        full_hands.append([*hand, *spare[:more]])
        spare = spare[more:]
    deck: list[str] = []
    for hand in full_hands:
        deck += hand[:4]
    deck += full_field[:3]
    for hand in full_hands:
        deck += hand[4:]
    deck += full_field[3:]
    deck += [*draw, *spare]
    assert sorted(deck) == sorted(hh.DECK)
    return [hh.DECK.index(card) for card in deck]


def rules(**options: Any) -> hh.Rules:
    options.setdefault("first_dealer", "first_seat")
    options.setdefault("mizuten", False)
    return hh.Rules(**options)


def begin(
    players: Sequence[int] = (A, B), *orders: list[int], **options: Any
) -> tuple[hh.State, ScriptedDice]:
    options.setdefault("seated_players", len(players))
    dice = ScriptedDice(orders=orders)
    return hh.start(rules(**options), list(players), dice), dice


def step(
    state: hh.State, player: int | None, action: Any, dice: Any = None
) -> tuple[hh.State, list[Any]]:
    """Act; the input must not change, money sums to 0, events validate and parse back."""
    before = state.model_dump_json()
    new, events = hh.act(state, player, action, dice if dice is not None else ScriptedDice())
    assert state.model_dump_json() == before, "act mutated its input"
    assert sum(new.payouts.values()) == 0
    assert new.ply == state.ply + 1
    for event in events:
        assert type(event).model_validate(event.model_dump()) == event
        assert hh.parse_event(event.model_dump(mode="json")) == event
    return new, events


def refused(state: hh.State, player: int | None, action: Any, match_text: str) -> None:
    before = state.model_dump_json()
    with pytest.raises(IllegalMove, match=match_text):
        hh.act(state, player, action, ScriptedDice())
    assert state.model_dump_json() == before


def kinds(events: Sequence[Any]) -> list[str]:
    return [event.kind for event in events]


def accounted(state: hh.State) -> list[str]:
    cards = [*state.field, *state.draw_pile]
    for p in state.seats:
        cards += state.hands[p] + state.piles[p]
    if state.drawn:
        cards.append(state.drawn)
    return sorted(cards)


def play_first(state: hh.State, dice: Any = None) -> tuple[hh.State, list[Any]]:
    """The player in turn takes the first legal action."""
    assert state.turn is not None
    return step(state, state.turn, hh.legal_actions(state, state.turn)[0], dice)


def finish_round(state: hh.State, dice: Any = None) -> tuple[hh.State, list[Any]]:
    """First legal actions until the round in play is scored."""
    played = state.rounds_played
    events: list[Any] = []
    while state.rounds_played == played and not state.finished:
        state, more = play_first(state, dice)
        events += more
    return state, events


def built(state: hh.State, **fields: Any) -> hh.State:
    """``state`` with fields replaced (a position the rules allow), checked to validate."""
    new = state.model_copy(update=fields)
    return hh.State.model_validate_json(new.model_dump_json())


# ------------------------------------------------------------------ start and deal


def test_the_canonical_deal_for_two() -> None:
    state, _ = begin((A, B), list(range(34)))
    d = hh.DECK
    assert state.dealer == A and state.acting_dealer == A
    assert state.hands[B] == d[0:4] + d[11:14]
    assert state.hands[A] == d[4:8] + d[14:17]
    assert state.field == d[8:11] + d[17:20]
    assert state.draw_pile == d[20:34]
    assert state.phase == "play" and state.turn == A and state.active == [A, B]
    assert accounted(state) == sorted(hh.DECK)


@pytest.mark.parametrize("seats", [3, 4])
def test_the_canonical_deal_for_three_and_four(seats: int) -> None:
    players = [A, B, C, D][:seats]
    reverse = list(range(33, -1, -1))  # the identity would deal the Paulownia pair at 4
    state, _ = begin(players, reverse)
    d = hh.DECK[::-1]
    order = players[1:] + players[:1]
    at = 0
    for p in order:
        assert state.hands[p][:4] == d[at : at + 4]
        at += 4
    assert state.field[:3] == d[at : at + 3]
    at += 3
    for p in order:
        assert state.hands[p][4:] == d[at : at + 3]
        at += 3
    assert state.field[3:] == d[at : at + 3]
    assert len(state.draw_pile) == 34 - 7 * seats - 6
    assert state.phase == "participate" and state.turn == A


def test_first_dealer_by_draw_earliest_month_then_rank_then_redraw() -> None:
    # Seats draw index 0, 1, 2 of the shuffle: Plum animal, Pine chaff, Pine bright.
    first = [hh.DECK.index(c) for c in ("plum-animal", "pine-chaff-1", "pine-bright")]
    order = first + [i for i in range(34) if i not in first]
    state = hh.start(hh.Rules(seated_players=3), [A, B, C], ScriptedDice(orders=[order]))
    assert state.dealer == C
    assert state.dealer_draws == [{A: "plum-animal", B: "pine-chaff-1", C: "pine-bright"}]
    # Two Pine chaff tie: those two redraw from a new shuffle, in seat order.
    tie = [hh.DECK.index(c) for c in ("pine-chaff-1", "pine-chaff-2", "plum-animal")]
    tie_order = tie + [i for i in range(34) if i not in tie]
    redraw = [hh.DECK.index(c) for c in ("maple-chaff-1", "cherry-chaff-1")]
    redraw_order = redraw + [i for i in range(34) if i not in redraw]
    dice = ScriptedDice(orders=[tie_order, redraw_order, list(range(34))])
    state = hh.start(hh.Rules(seated_players=3), [A, B, C], dice)
    assert state.dealer == B
    assert state.dealer_draws[1] == {A: "maple-chaff-1", B: "cherry-chaff-1"}
    # The deal used the third shuffle (the identity: 3 hands of 4, then the field).
    assert state.field[:3] == hh.DECK[12:15]


def test_start_refuses_bad_seating() -> None:
    with pytest.raises(IllegalMove, match="2 to 4"):
        hh.start(rules(), [A], ScriptedDice())
    with pytest.raises(IllegalMove, match="one seat"):
        hh.start(rules(), [A, A], ScriptedDice())
    with pytest.raises(IllegalMove, match="reserved"):
        hh.start(rules(), [HOUSE, A], ScriptedDice())


def test_seat_limits_are_the_lobby_size() -> None:
    assert hh.seat_limits(hh.Rules(seated_players=3)) == (3, 3)
    assert hh.seat_limits(hh.Rules()) == (2, 2)


# ------------------------------------------------------------------------ mizuten


def test_mizuten_is_asked_of_the_dealer_first() -> None:
    state, _ = begin((A, B), list(range(34)), mizuten=True)
    assert state.phase == "mizuten" and state.turn == A
    assert hh.legal_actions(state, A) == [hh.Mizuten(declare=False), hh.Mizuten(declare=True)]
    assert hh.legal_actions(state, B) == []
    refused(state, B, hh.Mizuten(declare=True), "isn't your turn")
    refused(state, A, hh.Play(card=state.hands[A][0]), "can't play a card now")
    state, events = step(state, A, hh.Mizuten(declare=True))
    assert state.mizuten_declared and state.phase == "play"
    assert kinds(events)[0] == "mizuten_decided"


def test_a_mizuten_dealer_must_play_with_three_seated() -> None:
    state, _ = begin((A, B, C), list(range(34)), mizuten=True)
    state, events = step(state, A, hh.Mizuten(declare=True))
    assert state.answers == {A: True}
    assert any(e.kind == "participated" and e.auto and e.player == A for e in events)
    assert state.phase == "participate" and state.turn == B


def _mizuten_state(dealer_points_pile: list[str], seats: Sequence[int]) -> hh.State:
    state, _ = begin(seats, list(range(34)), mizuten=True)
    rest = [c for c in hh.DECK if c not in dealer_points_pile]
    piles: dict[int, list[str]] = {p: [] for p in seats}
    piles[A] = dealer_points_pile
    piles[B] = rest
    return built(
        state,
        phase="play",
        active=[A, B],
        acting_dealer=A,
        mizuten_declared=True,
        piles=piles,
        hands={p: [] for p in seats},
        field=[],
        draw_pile=[],
    )


def test_a_mizuten_bonus_is_paid_by_every_other_seated_player() -> None:
    # The dealer's pile has 106+ card points: B (active) and C (inactive) pay 1 kan each.
    big = ["pine-bright", "cherry-bright", "susuki-bright", "willow-bright", "plum-animal",
           "peony-animal", "maple-animal"]  # fmt: skip
    assert hh.card_points(big) == 110
    state = _mizuten_state(big, (A, B, C))
    result, _ = hh.score_round(state, "exhaustion", None)
    mizuten = [line for line in result.lines if line.kind == "mizuten"]
    assert {(line.payer, line.payee, line.points) for line in mizuten} == {
        (B, A, 10),
        (C, A, 10),
    }
    # A failed mizuten: the dealer pays the active opponent only.
    small = ["pine-chaff-1", "pine-chaff-2"]
    state = _mizuten_state(small, (A, B, C))
    result, _ = hh.score_round(state, "exhaustion", None)
    mizuten = [line for line in result.lines if line.kind == "mizuten"]
    assert [(line.payer, line.payee, line.points) for line in mizuten] == [(A, B, 10)]


# ---------------------------------------------------------------- field checks


def test_field_multiplier_stack_mode_and_the_rain_man_option() -> None:
    field = ["pine-bright", "cherry-bright", "susuki-bright", "willow-bright", "plum-chaff-1",
             "peony-chaff-1"]  # fmt: skip
    order = deal_order([[], []], field)
    state, _ = begin((A, B), order, field_multiplier_mode="stack")
    assert state.multiplier == 8 and state.pending_large == 0
    state, _ = begin(
        (A, B),
        order,
        field_multiplier_mode="stack",
        rain_man_phoenix_make_large_field=True,
    )
    assert state.multiplier == 16
    state, _ = begin((A, B), order)
    assert state.multiplier == 2 and state.pending_large == 2
    state, _ = begin((A, B), order, rain_man_phoenix_make_large_field=True)
    assert state.pending_large == 3
    # Rain Man and Phoenix alone make a Large Field only with the option.
    alone = deal_order(
        [[], []],
        ["willow-bright", "paulownia-bright", "plum-chaff-1", "peony-chaff-1", "maple-chaff-1",
         "chrysanthemum-chaff-1"],
    )  # fmt: skip
    assert begin((A, B), alone)[0].multiplier == 1
    assert begin((A, B), alone, rain_man_phoenix_make_large_field=True)[0].multiplier == 2


def test_three_of_a_month_on_the_field_stay_and_the_fourth_takes_them() -> None:
    field = ["maple-animal", "maple-ribbon", "maple-chaff-1", "pine-chaff-1", "plum-chaff-1",
             "cherry-chaff-1"]  # fmt: skip
    order = deal_order([[], ["maple-chaff-2"]], field)
    state, _ = begin((A, B), order)
    assert state.field == field
    assert hh.legal_actions(state, A)[0] == hh.Play(card="maple-chaff-2")
    state, events = step(state, A, hh.Play(card="maple-chaff-2"))
    assert events[0].captured == ["maple-animal", "maple-ribbon", "maple-chaff-1"]
    assert set(state.piles[A]) >= set(field[:3]) | {"maple-chaff-2"}
    # With three matches a named capture is accepted too (all are taken anyway).
    state, _ = begin((A, B), order)
    state, events = step(state, A, hh.Play(card="maple-chaff-2", capture="maple-ribbon"))
    assert len(events[0].captured) == 3


# ---------------------------------------------------------------- play and drop


def three_seated(**options: Any) -> hh.State:
    state, _ = begin((A, B, C), list(range(34)), **options)
    assert state.phase == "participate" and state.turn == A
    return state


def test_two_plays_force_out_the_rest_and_idle_hands_go_to_the_draw_pile() -> None:
    state, _ = begin((A, B, C, D), list(range(34)), shuffle_draw_after_dropouts=False)
    hands = {p: list(state.hands[p]) for p in state.seats}
    state, _ = step(state, A, hh.Participate(play=False))
    state, _ = step(state, B, hh.Participate(play=True))
    state, events = step(state, C, hh.Participate(play=True))
    assert state.active == [B, C] and state.acting_dealer == B
    assert state.forced_out == [D]
    lineup = next(e for e in events if e.kind == "line_up")
    assert lineup.forced_out == [D] and lineup.draw_pile == 14
    # Idle hands on top, from the seat after the dealer round: D then A.
    assert state.draw_pile == hands[D] + hands[A]
    assert state.hands[A] == [] and state.hands[D] == []
    assert state.phase == "play" and state.turn == B
    assert accounted(state) == sorted(hh.DECK)


def test_the_draw_pile_is_shuffled_after_the_line_up() -> None:
    state, _ = begin((A, B, C), list(range(34)))
    state, _ = step(state, A, hh.Participate(play=True))
    before = state.hands[C] + state.draw_pile
    reverse = list(range(13, -1, -1))
    state, _ = step(state, B, hh.Participate(play=True), ScriptedDice(orders=[reverse]))
    assert state.draw_pile == before[::-1]


def test_dealer_drops_the_acting_dealer_moves_first_and_takes_the_paulownia_pair() -> None:
    order = deal_order([[], [], []], ["paulownia-bright", "paulownia-chaff"])
    state, _ = begin((A, B, C), order)
    assert state.piles[A] == ["paulownia-bright", "paulownia-chaff"]
    state, _ = step(state, A, hh.Participate(play=False))
    state, _ = step(state, B, hh.Participate(play=True))
    state, _ = step(state, C, hh.Participate(play=True))
    assert state.acting_dealer == B and state.turn == B and state.dealer == A
    assert state.piles[B] == ["paulownia-bright", "paulownia-chaff"] and state.piles[A] == []


def test_must_two_play_makes_the_last_two_active() -> None:
    state = three_seated(must_two_play=True)
    state, events = step(state, A, hh.Participate(play=False))
    assert state.active == [B, C] and state.forced_out == []
    assert [e.player for e in events if e.kind == "participated" and e.auto] == [B, C]


def test_one_player_plays_wins_the_pot_and_deals_next() -> None:
    state = three_seated(dropout_penalties=True, rounds=2)
    state, _ = step(state, A, hh.Participate(play=False))
    assert state.pot == {A: 10}
    state, _ = step(state, B, hh.Participate(play=True))
    state, events = step(state, C, hh.Participate(play=False), ScriptedDice())
    assert state.rounds_played == 1 and state.round == 2
    scored = next(e for e in events if e.kind == "round_scored")
    assert scored.result.ended_by == "one_player" and scored.result.winner == B
    assert scored.result.net == {A: -10, B: 25, C: -15}
    assert state.scores == {A: -10, B: 25, C: -15}
    assert state.dealer == B and state.pot == {}


def test_nobody_plays_is_a_misdeal_with_the_pot_kept_and_pending_restored() -> None:
    field = ["pine-bright", "cherry-bright"]
    state, _ = begin((A, B, C), deal_order([[], [], []], field), dropout_penalties=True)
    assert state.multiplier == 2 and state.pending_large == 1
    for p in (A, B):
        state, _ = step(state, p, hh.Participate(play=False))
    # A 1 kan ×2, B 1½ kan ×2; C's drop (2 kan ×2) abandons the deal.
    state, events = step(state, C, hh.Participate(play=False), ScriptedDice(orders=[]))
    assert any(e.kind == "misdealt" and e.reason == "nobody_plays" for e in events)
    assert state.pot == {A: 20, B: 30, C: 40}
    assert state.pot_carried == state.pot
    assert state.round == 1 and state.rounds_played == 0 and state.dealer == A
    # The redeal (identity order: no Large-Field bright on its field) keeps pending 0.
    assert state.pending_large == 0 and state.multiplier == 1
    # The carried penalties are inside the escrow taken at the start.
    assert state.stakes == dict.fromkeys((A, B, C), hh.hold(state.rules))
    # The pot goes to the next scored round's winner; B and C, whose penalties are still
    # in the pot, drop free in the redeal (one penalty a counted round).
    state, _ = step(state, A, hh.Participate(play=True))
    state, events = step(state, B, hh.Participate(play=False))
    assert next(e for e in events if e.kind == "participated").penalty == 0
    state, events = step(state, C, hh.Participate(play=False), ScriptedDice())
    result = next(e for e in events if e.kind == "round_scored").result
    assert result.winner == A
    assert result.net == {A: 30 + 40, B: -30, C: -40}
    assert state.pot == {} and state.pot_carried == {}


def test_abandoned_deals_never_take_more_than_the_escrow() -> None:
    """However many deals nobody plays, each player pays one penalty a counted round, and
    the stakes stay the escrow taken at the start."""
    state, _ = begin((A, B, C), deal_order([[], [], []], []), dropout_penalties=True)
    hold = hh.hold(state.rules)
    for _ in range(4):
        for p in (A, B, C):
            state, _ = step(state, p, hh.Participate(play=False), ScriptedDice(orders=[]))
        assert state.rounds_played == 0
        assert state.pot == {A: 10, B: 15, C: 20}
        assert state.stakes == dict.fromkeys((A, B, C), hold)
    # The allowance for that penalty is in the bound: 63 kan + 2 kan.
    assert match.round_bound(state.rules, 3) == 650


def test_forced_out_compensation_is_paid_by_the_non_dealer() -> None:
    forced = ["pine-bright", "cherry-bright", "susuki-bright", "paulownia-bright", "pine-ribbon",
              "plum-ribbon", "cherry-ribbon"]  # fmt: skip
    # Deal order: B, C, A (the dealer last). C holds Four Brights and Poetry Ribbons.
    order = deal_order([[], forced, []], ["willow-chaff"])
    state, _ = begin((A, B, C), order, forced_out_compensation=True)
    owed = hh.compensation_points(forced, points_per_kan=10)
    assert owed > 0
    state, _ = step(state, A, hh.Participate(play=True))
    state, _ = step(state, B, hh.Participate(play=True))
    assert state.forced_out == [C] and state.compensation == {C: owed * state.multiplier}
    state, events = finish_round(state)
    result = next(e for e in events if e.kind == "round_scored").result
    line = next(line for line in result.lines if line.kind == "compensation")
    assert (line.payer, line.payee, line.points) == (B, C, owed * result.multiplier)


def test_participation_out_of_turn_and_by_an_outsider() -> None:
    state = three_seated()
    refused(state, B, hh.Participate(play=True), "isn't your turn")
    refused(state, OUTSIDER, hh.Participate(play=True), "aren't seated")
    refused(state, None, hh.Participate(play=True), "only call time")


# ------------------------------------------------------------------ teyaku claims


def test_auto_claims_reveal_the_cards_and_name_the_lowest_triplet() -> None:
    hand = ["pine-bright", "pine-chaff-1", "pine-chaff-2", "maple-chaff-1", "maple-chaff-2",
            "maple-ribbon", "willow-chaff"]  # fmt: skip
    state, _ = begin((A, B), deal_order([[], hand]))
    (claim,) = state.claims[A]
    assert claim.name == "Triplet" and claim.month == 1
    assert claim.revealed == ["pine-bright", "pine-chaff-1", "pine-chaff-2"]


A_TRIPLETS = ["pine-bright", "pine-chaff-1", "pine-chaff-2", "maple-chaff-1", "maple-chaff-2",
              "maple-ribbon", "willow-chaff"]  # fmt: skip
B_ONE_RIBBON = ["pine-ribbon", "willow-ribbon", "cherry-chaff-1", "peony-chaff-2",
                "susuki-chaff-1", "chrysanthemum-chaff-1", "paulownia-chaff"]  # fmt: skip
NO_TEYAKU = ["cherry-bright", "plum-animal", "peony-animal", "susuki-animal",
             "chrysanthemum-animal", "maple-animal", "pine-ribbon"]  # fmt: skip


def silently(state: hh.State, player: int, action: Any) -> hh.State:
    """A claim step nobody else sees: no event, and the ply (every button) unchanged."""
    before = state.model_dump_json()
    new, events = hh.act(state, player, action, ScriptedDice())
    assert state.model_dump_json() == before, "act mutated its input"
    assert events == [] and new.ply == state.ply
    return new


def test_manual_claims_give_every_player_a_step_and_the_dealer_plays_at_once() -> None:
    state, _ = begin((A, B), deal_order([B_ONE_RIBBON, A_TRIPLETS]), teyaku_claims="manual")
    assert state.phase == "play" and state.turn == A and state.claims_open
    assert state.to_claim == {A: ["A"], B: ["B"]}
    dealer = hh.legal_actions(state, A)
    assert isinstance(dealer[0], hh.Play), "the deadline's default is the turn's card"
    assert hh.ClaimTeyaku(claim=True, month=10) in dealer
    assert hh.legal_actions(state, B) == [hh.ClaimTeyaku(claim=False), hh.ClaimTeyaku(claim=True)]
    refused(state, A, hh.ClaimTeyaku(claim=True, month=3), "triplet in your hand")
    refused(state, A, hh.ClaimTeyaku(claim=True, group="B"), "no Group B")
    refused(state, OUTSIDER, hh.ClaimTeyaku(claim=False), "aren't seated")
    # Not a turn: B claims while the dealer is still to play.
    state, events = step(state, B, hh.ClaimTeyaku(claim=True))
    assert kinds(events) == ["teyaku_claimed"] and events[0].claim.name == "One Ribbon"
    refused(state, B, hh.ClaimTeyaku(claim=False), "already taken your claim step")
    state, events = step(state, A, hh.ClaimTeyaku(claim=True, month=10))
    claim = events[0].claim
    assert claim.month == 10
    assert claim.revealed == ["maple-ribbon", "maple-chaff-1", "maple-chaff-2"]
    assert state.to_claim == {} and state.claims_open and state.turn == A


def test_a_hand_without_teyaku_gets_the_same_step_with_nothing_to_claim() -> None:
    state, _ = begin((A, B), deal_order([NO_TEYAKU, A_TRIPLETS]), teyaku_claims="manual")
    assert state.to_claim == {A: ["A"], B: []}
    assert hh.legal_actions(state, B) == [hh.ClaimTeyaku(claim=False)]
    refused(state, B, hh.ClaimTeyaku(claim=True), "nothing to claim")
    nothing = silently(state, B, hh.ClaimTeyaku(claim=False))
    declined = silently(state, A, hh.ClaimTeyaku(claim=False))
    # A decline and "nothing to claim" alike: no event, nothing public changes.
    assert nothing.claims == {A: [], B: []} and declined.claims == {A: [], B: []}
    assert nothing.to_claim == {A: ["A"]} and declined.to_claim == {B: []}


def test_the_dealers_first_draw_waits_for_the_claim_steps_then_closes_them() -> None:
    state, _ = begin((A, B), deal_order([B_ONE_RIBBON, A_TRIPLETS]), teyaku_claims="manual")
    pile = len(state.draw_pile)
    state, events = step(state, A, hh.Play(card="willow-chaff"))
    assert kinds(events) == ["card_played"] and events[0].source == "hand"
    assert state.phase == "claim" and len(state.draw_pile) == pile, "the draw waits"
    refused(state, A, hh.Play(card="pine-bright"), "waits for the teyaku claims")
    assert hh.legal_actions(state, A)[0] == hh.ClaimTeyaku(claim=False)
    state = silently(state, A, hh.ClaimTeyaku(claim=False))
    assert hh.legal_actions(state, A) == [] and state.phase == "claim"
    # The last step (here a claim) lets the draw happen; claims close with it.
    state, events = step(state, B, hh.ClaimTeyaku(claim=True))
    assert kinds(events)[0] == "teyaku_claimed" and len(state.draw_pile) == pile - 1
    assert kinds(events)[1] in ("card_played", "drawn_awaits"), "the dealer's draw"
    assert not state.claims_open and state.to_claim == {}
    assert state.claims[A] == [] and [c.name for c in state.claims[B]] == ["One Ribbon"]


def test_a_claim_after_the_dealers_first_draw_is_refused() -> None:
    state, _ = begin((A, B), deal_order([B_ONE_RIBBON, A_TRIPLETS]), teyaku_claims="manual")
    state = silently(state, A, hh.ClaimTeyaku(claim=False))
    state = silently(state, B, hh.ClaimTeyaku(claim=False))
    pile = len(state.draw_pile)
    state, _ = step(state, A, hh.Play(card="willow-chaff"))
    assert len(state.draw_pile) == pile - 1 and not state.claims_open
    refused(state, B, hh.ClaimTeyaku(claim=True), "closed when the dealer drew")
    refused(state, A, hh.ClaimTeyaku(claim=False), "closed when the dealer drew")


def test_a_deadline_at_the_waiting_draw_claims_nothing_and_draws() -> None:
    state, _ = begin((A, B), deal_order([B_ONE_RIBBON, A_TRIPLETS]), teyaku_claims="manual")
    state, _ = step(state, A, hh.Play(card="willow-chaff"))
    pile = len(state.draw_pile)
    state, events = step(state, None, Deadline())
    assert "teyaku_claimed" not in kinds(events) and len(state.draw_pile) == pile - 1
    assert state.claims == {A: [], B: []} and not state.claims_open
    assert state.idle.get(A, 0) == 0 and state.idle.get(B, 0) == 0, "not claiming is no idling"


def test_manual_claims_one_group_at_a_time() -> None:
    hand = [
        "pine-bright",
        "pine-chaff-1",
        "pine-chaff-2",
        "plum-chaff-1",
        "cherry-chaff-1",
        "willow-animal",
        "paulownia-chaff",
    ]  # fmt: skip  (W10: Triplet + One Bright)
    state, _ = begin((A, B), deal_order([[], hand]), teyaku_claims="manual")
    assert state.to_claim[A] == ["A", "B"]
    state = silently(state, A, hh.ClaimTeyaku(claim=False, group="B"))
    assert state.turn == A and state.to_claim[A] == ["A"]
    state, _ = step(state, A, hh.ClaimTeyaku(claim=True, group="A"))
    assert [c.name for c in state.claims[A]] == ["Triplet"]


# ---------------------------------------------------------------------- the play


def _capture_setup() -> tuple[hh.State, list[int]]:
    field = ["cherry-bright", "cherry-chaff-2", "pine-chaff-1", "plum-chaff-1",
             "peony-chaff-1", "susuki-chaff-1"]  # fmt: skip
    order = deal_order([[], ["cherry-chaff-1"]], field, ["cherry-ribbon"])
    state, _ = begin((A, B), order)
    return state, order


def test_the_drawn_card_waits_for_its_capture_choice() -> None:
    # The hand card takes no cherry; the drawn Cherry ribbon matches two field cards.
    state, _ = _capture_setup()
    other = next(c for c in state.hands[A] if not hh.matches(state.field, c))
    state, events = step(state, A, hh.Play(card=other))
    assert state.phase == "capture_drawn" and state.drawn == "cherry-ribbon"
    assert events[-1].kind == "drawn_awaits"
    assert events[-1].choices == ["cherry-bright", "cherry-chaff-2"]
    assert accounted(state) == sorted(hh.DECK)
    assert hh.legal_actions(state, A) == [
        hh.CaptureDrawn(capture="cherry-bright"),
        hh.CaptureDrawn(capture="cherry-chaff-2"),
    ]
    refused(state, A, hh.CaptureDrawn(capture="pine-chaff-1"), "only a card of its own month")
    refused(state, A, hh.Play(card=state.hands[A][0]), "drawn card captures")
    refused(state, B, hh.CaptureDrawn(capture="cherry-bright"), "isn't your turn")
    state, events = step(state, A, hh.CaptureDrawn(capture="cherry-chaff-2"))
    assert state.drawn is None and state.turn == B and state.phase == "play"
    assert state.piles[A][-2:] == ["cherry-ribbon", "cherry-chaff-2"]


def test_bad_plays_are_refused_with_a_reason_and_change_nothing() -> None:
    state, _ = _capture_setup()
    not_held = next(c for c in hh.DECK if c not in state.hands[A] and c not in state.field)
    refused(state, A, hh.Play(card=not_held), "You don't hold")
    refused(state, A, hh.Play(card="no-such-card"), "no card called")
    refused(state, A, hh.Play(card="cherry-chaff-1"), "choose the Curtain or a Cherry chaff")
    refused(state, A, hh.Play(card="cherry-chaff-1", capture="pine-chaff-1"), "can't capture")
    refused(state, A, hh.Play(card="cherry-chaff-1", capture="maple-animal"), "isn't on the field")
    refused(state, B, hh.Play(card=state.hands[B][0]), "isn't your turn")
    refused(state, A, hh.Sage(), "only right after")
    refused(state, A, hh.Shoubu(), "only right after")
    refused(state, A, hh.Cancel(), "after you have called sage")
    refused(state, B, hh.Cancel(), "isn't your turn")
    refused(state, OUTSIDER, hh.Play(card=state.hands[A][0]), "aren't seated")
    refused(state, None, hh.Play(card=state.hands[A][0]), "only call time")
    refused(state, A, Deadline(), "Only the table")


def test_a_dropped_players_action_is_refused() -> None:
    state = three_seated()
    state, _ = step(state, A, hh.Participate(play=True))
    state, _ = step(state, B, hh.Participate(play=True))
    assert state.forced_out == [C]
    refused(state, C, hh.Play(card=state.hands[A][0]), "sat this round out")
    refused(state, C, hh.Sage(), "sat this round out")
    assert hh.legal_actions(state, C) == []


def _dekiyaku_turn() -> hh.State:
    """A plays the Cherry ribbon onto the Curtain... giving A Poetry Ribbons this turn."""
    field = ["cherry-chaff-1", "pine-chaff-1", "plum-chaff-1", "peony-chaff-1",
             "susuki-chaff-1", "maple-chaff-1"]  # fmt: skip
    order = deal_order([[], ["cherry-ribbon"]], field, ["willow-chaff"])
    state, _ = begin((A, B), order, rounds=1)
    piles = {A: ["pine-ribbon", "pine-chaff-2", "plum-ribbon", "plum-chaff-2"], B: []}
    return built(state, piles=piles)


def test_a_new_dekiyaku_needs_a_call_and_sage_passes_the_turn() -> None:
    state = _dekiyaku_turn()
    state, events = step(state, A, hh.Play(card="cherry-ribbon"))
    formed = events[-1]
    assert formed.kind == "dekiyaku_formed" and formed.total == 7
    assert formed.dekiyaku == [("Poetry Ribbons", 7)]
    assert state.phase == "call" and state.turn == A
    assert hh.legal_actions(state, A) == [hh.Shoubu(), hh.Sage()]
    refused(state, B, hh.Sage(), "isn't your turn")
    refused(state, A, hh.Play(card=state.hands[A][0]), "call sage")
    sage, _ = step(state, A, hh.Sage())
    assert sage.sage_calls == [A] and sage.turn == B and sage.phase == "play"
    # B may not cancel (no sage of B's own); A may at A's next turn, as the last action.
    refused(sage, B, hh.Cancel(), "after you have called sage")
    after, _ = play_first(sage)
    assert after.turn == A and hh.legal_actions(after, A)[-1] == hh.Cancel()
    assert hh.Cancel() not in hh.legal_actions(after, A)[:-1]


def test_shoubu_ends_the_round_and_only_the_caller_scores() -> None:
    state = _dekiyaku_turn()
    state, _ = step(state, A, hh.Play(card="cherry-ribbon"))
    state, events = step(state, A, hh.Shoubu())
    result = next(e for e in events if e.kind == "round_scored").result
    assert result.ended_by == "shoubu" and result.caller == A and result.winner == A
    assert [(line.kind, line.points) for line in result.lines if line.kind == "dekiyaku"] == [
        ("dekiyaku", 70)
    ]
    assert state.finished and kinds(events)[-1] == "match_over"


# ------------------------------------------------------------------ the deadline


def test_deadline_defaults_and_idle_forfeit() -> None:
    state, _ = begin((A, B, C), list(range(34)), mizuten=True, afk_rounds_to_forfeit=2)
    state, events = step(state, None, Deadline())
    assert events[0].kind == "mizuten_decided" and not events[0].declare and events[0].by_deadline
    assert state.idle[A] == 1
    state, events = step(state, None, Deadline())  # A's second idle decision: forfeit
    assert kinds(events)[:2] == ["forfeited", "participated"]
    assert events[1].play is False and events[1].by_deadline
    assert state.forfeited == [A]
    # B and C still act: both play, A sits out, the round is played.
    state, _ = step(state, B, hh.Participate(play=True))
    state, events = step(state, C, hh.Participate(play=True))
    state, events = finish_round(state)
    assert state.finished and state.rounds_played == 1
    over = events[-1]
    assert over.kind == "match_over" and over.reason == "forfeit"
    assert all(stake == 0 for stake in state.stakes.values())


def test_a_forfeiters_round_is_played_out_at_once_and_scored() -> None:
    state, _ = begin((A, B), list(range(34)), afk_rounds_to_forfeit=1, rounds=5)
    assert state.turn == A
    state, events = step(state, None, Deadline())
    assert events[0].kind == "forfeited"
    # B still acts; every A decision is played for A inside B's actions.
    while not state.finished:
        assert state.turn == B
        state, events = play_first(state)
    assert state.rounds_played == 1
    assert events[-1].kind == "match_over" and events[-1].reason == "forfeit"


def test_an_own_action_resets_the_idle_count() -> None:
    state, _ = begin((A, B), list(range(34)), afk_rounds_to_forfeit=2)
    state, _ = step(state, None, Deadline())
    assert state.idle[A] == 1 and state.turn == B
    state, _ = play_first(state)
    state, _ = step(state, None, Deadline())
    assert state.idle[A] == 2 and state.forfeited == [A]
    state, _ = begin((A, B), list(range(34)), afk_rounds_to_forfeit=2)
    state, _ = step(state, None, Deadline())
    state, _ = play_first(state)
    state, _ = play_first(state)  # A acts: the count starts again
    assert state.idle[A] == 0


def test_the_deadline_in_a_call_is_shoubu() -> None:
    state = _dekiyaku_turn()
    state, _ = step(state, A, hh.Play(card="cherry-ribbon"))
    state, events = step(state, None, Deadline())
    assert events[0].kind == "called" and events[0].call == "shoubu" and events[0].by_deadline


def test_deadline_seconds() -> None:
    state, _ = begin((A, B), list(range(34)), turn_seconds=45)
    assert hh.deadline_seconds(state) == 45
    state, _ = step(state, C, Abort())
    assert hh.deadline_seconds(state) is None


# ---------------------------------------------------------------- match and money


def test_hold_formula_and_figures() -> None:
    # One round's worst case (issue 27): a new member's 1,000 covers the default table.
    assert hh.hold(hh.Rules()) == 127
    assert hh.hold(hh.Rules(rounds=1)) == hh.hold(hh.Rules(rounds=48)) == 127
    assert match.round_bound(hh.Rules()) == 630
    assert match.round_bound(hh.Rules(points_per_kan=12)) == 63 * 12
    comp = hh.Rules(seated_players=4, forced_out_compensation=True)
    assert match.compensation_bound(comp) == 166
    assert match.round_bound(comp) == 630 + 2 * 166
    assert hh.hold(hh.Rules(stake_per_kan=3, rounds=6)) == -(-630 * 2 * 3 // 10) + 1
    assert hh.hold(hh.Rules(field_multiplier_mode="stack")) == 630 * 8 // 10 + 1
    assert (
        match.max_multiplier(
            hh.Rules(field_multiplier_mode="stack", rain_man_phoenix_make_large_field=True)
        )
        == 32
    )
    assert hh.hold(hh.Rules(extend_game_for_carryover=True)) == 630 * 2 // 10 + 1


@pytest.mark.parametrize(
    "rules",
    [
        hh.Rules(),
        hh.Rules(points_per_kan=12, stake_per_kan=7),
        hh.Rules(seated_players=3, forced_out_compensation=True),
        hh.Rules(seated_players=4, forced_out_compensation=True, dropout_penalties=True),
        hh.Rules(field_multiplier_mode="stack", stake_per_kan=3, points_per_kan=12),
    ],
)
def test_each_scored_round_frees_more_escrow_than_it_can_cost(rules: hh.Rules) -> None:
    """A round can cost a player less than one coin over its exact worst case X (coins
    are made whole from the running score), so the escrow a scored round frees must be at
    least ceil(X) + 1: then the table never asks a wallet for more than it held."""
    seats = rules.seated_players
    exact = Fraction(
        match.round_bound(rules, seats) * match.max_multiplier(rules) * rules.stake_per_kan,
        rules.points_per_kan,
    )
    for left in range(1, match.max_rounds(rules) + 1):
        freed = match.worst_case(rules, left, seats) - match.worst_case(rules, left - 1, seats)
        assert freed >= math.ceil(exact) + 1


def test_stakes_are_one_rounds_worst_case_until_the_end() -> None:
    """The escrow is a round at a time: after each scored round the loser's wallet puts
    the loss back (``top_up``), nothing after the last."""
    state, _ = begin((A, B), list(range(34)), rounds=3)
    r = state.rules
    assert state.stakes == {A: hh.hold(r), B: hh.hold(r)} == {A: 127, B: 127}
    for _ in range(2):
        before = state
        state, _ = finish_round(state)
        assert state.stakes == {A: 127, B: 127}
        for p in (A, B):
            lost = before.payouts[p] - state.payouts[p]
            assert hh.top_up(before, state, p) == max(0, lost)
    before = state
    state, events = finish_round(state)
    assert hh.top_up(before, state, A) == hh.top_up(before, state, B) == 0
    assert state.finished and state.stakes == {A: 0, B: 0}
    assert events[-1].kind == "match_over" and events[-1].reason == "rounds"
    best = max(state.scores.values())
    assert state.winners == [p for p in (A, B) if state.scores[p] == best]


def test_a_player_who_cannot_cover_the_next_round_ends_the_match_after_this_one() -> None:
    """The table's Uncovered note (sent when a wallet cannot put a loss back): the round
    is scored from what is held and the match ends; everything goes back but the loss."""
    state, _ = begin((A, B), list(range(34)), rounds=12)
    with pytest.raises(IllegalMove):
        hh.act(state, A, hh.Uncovered(player=B), ScriptedDice())  # the table's alone
    fix = hh.shortfall(state, B)
    assert fix == hh.Uncovered(player=B)
    noted, events = hh.act(state, None, fix, ScriptedDice())
    assert [e.kind for e in events] == ["cannot_cover"] and noted.ply == state.ply
    assert hh.shortfall(noted, B) is None
    done, events = finish_round(noted)
    assert done.finished and done.rounds_played == 1 and done.stakes == {A: 0, B: 0}
    assert events[-1].kind == "match_over" and events[-1].reason == "uncovered"
    assert sum(done.payouts.values()) == 0
    assert all(-done.payouts[p] <= noted.stakes[p] for p in (A, B))


def test_coins_are_whole_and_sum_to_zero_by_largest_remainder() -> None:
    r = hh.Rules(seated_players=3)
    assert hh.coins({A: 15, B: -7, C: -8}, [A, B, C], r) == {HOUSE: 0, A: 2, B: -1, C: -1}
    assert hh.coins({A: 66, B: -66}, [A, B], hh.Rules(stake_per_kan=5)) == {
        HOUSE: 0,
        A: 33,
        B: -33,
    }
    r12 = hh.Rules(points_per_kan=12, stake_per_kan=1)
    assert hh.coins({A: 18, B: -18}, [A, B], r12) == {HOUSE: 0, A: 2, B: -2}


def test_the_round_winner_deals_next() -> None:
    state, _ = begin((A, B), list(range(34)), rounds=2)
    state, events = finish_round(state)
    winner = next(e for e in events if e.kind == "round_scored").result.winner
    assert state.dealer == winner and state.acting_dealer == winner and state.turn == winner
    assert state.round == 2


def test_extension_plays_while_a_large_field_is_carried_over() -> None:
    field = ["pine-bright", "cherry-bright", "susuki-bright"]
    order = deal_order([[], []], field)
    state, dice = begin((A, B), order, order, rounds=1, extend_game_for_carryover=True)
    assert state.pending_large == 2
    state, _ = finish_round(state, dice)
    assert not state.finished and state.round == 2  # round 2's field had 3 more
    assert state.pending_large == 4
    while not state.finished:
        state, _ = finish_round(state, dice)
    assert state.rounds_played == 2  # at most `rounds` extra
    plain, dice = begin((A, B), order, rounds=1)
    plain, _ = finish_round(plain, dice)
    assert plain.finished and plain.rounds_played == 1


def test_abort_plays_the_round_in_play_out_and_keeps_settled_rounds() -> None:
    state, _ = begin((A, B, C), list(range(34)), dropout_penalties=True, rounds=3)
    state, _ = step(state, A, hh.Participate(play=False))
    state, _ = step(state, B, hh.Participate(play=True))
    state, _ = step(state, C, hh.Participate(play=False))
    settled = dict(state.scores)
    assert settled[B] > 0 and state.dealer == B
    state, _ = step(state, B, hh.Participate(play=False))
    assert state.pot
    state, events = step(state, OUTSIDER, Abort())
    # The table answers for everyone: C and A drop too, nobody plays, and with no round
    # left to play the pot goes back and the match ends.
    assert kinds(events) == ["aborted", "participated", "participated", "misdealt", "match_over"]
    assert events[0].by == OUTSIDER and events[-1].reason == "aborted"
    assert state.finished and state.aborted and state.phase == "over"
    assert state.scores == settled and state.pot == {}
    assert state.payouts == hh.coins(settled, state.seats, state.rules)
    assert all(stake == 0 for stake in state.stakes.values())
    refused(state, B, hh.Participate(play=True), "over")


def test_abort_cannot_undo_a_round_already_dealt() -> None:
    """Ending the match mid-round scores that round as the table's defaults play it out,
    the claimed teyaku included: a moderator cannot wipe out a seated friend's loss."""
    hand = ["susuki-bright", "susuki-animal", "susuki-chaff-1", "susuki-chaff-2",
            "maple-animal", "maple-ribbon", "maple-chaff-1"]  # fmt: skip
    state, _ = begin((A, B), deal_order([[], hand]), rounds=3, mizuten=False)
    holder = next(p for p in (A, B) if [c.name for c in state.claims.get(p, [])] == ["Four-Three"])
    state, events = step(state, OUTSIDER, Abort())
    scored = [e for e in events if e.kind == "round_scored"]
    assert len(scored) == 1 and state.rounds_played == 1
    teyaku = [line for line in scored[0].result.lines if line.kind == "teyaku"]
    assert any(line.payee == holder and line.points >= 200 for line in teyaku)
    assert state.finished and events[-1].kind == "match_over"
    assert events[-1].reason == "aborted"
    assert sum(state.scores.values()) == 0 and state.scores != {A: 0, B: 0}
    assert all(stake == 0 for stake in state.stakes.values())


def test_honours_for_four_three_and_sixteen_chaff() -> None:
    hand = ["susuki-bright", "susuki-animal", "susuki-chaff-1", "susuki-chaff-2",
            "maple-animal", "maple-ribbon", "maple-chaff-1"]  # fmt: skip
    state, _ = begin((A, B), deal_order([[], hand]), rounds=1)
    # All 19 chaff-like cards, and what keeps the other pile from any dekiyaku.
    chaff = [c for c in hh.DECK if hh.CARDS[c].chaff_like]
    chaff += ["paulownia-bright", "pine-ribbon", "maple-ribbon"]
    rest = [c for c in hh.DECK if c not in chaff]
    state = built(state, piles={A: chaff, B: rest}, hands={A: [], B: []}, field=[], draw_pile=[])
    result, honours = hh.score_round(state, "exhaustion", None)
    assert result.case == "S" and result.winner == A
    assert [(h.player, h.name) for h in honours] == [(A, "Four-Three"), (A, "Sixteen Chaff")]
    sixteen = next(line for line in result.lines if line.kind == "sixteen_chaff")
    assert sixteen.points == 18 * 10 * result.multiplier


# --------------------------------------------------------- the contract's checks


def test_module_exports_its_typed_engine() -> None:
    from bot.games.contract import Engine
    from bot.games.registry import GameSpec

    assert isinstance(hh.ENGINE, Engine) and hh.ENGINE.name == "hachihachi"
    assert hh.ENGINE.rules_model is hh.Rules and hh.ENGINE.state_model is hh.State
    for action_type in hh.ACTIONS:
        assert "kind" in action_type.model_fields
    spec = GameSpec(hh.ENGINE, "Hachi-hachi")
    for action in (hh.Play(card="pine-bright", capture="pine-chaff-1"), hh.Sage(), Abort(),
                   hh.ClaimTeyaku(claim=True, group="A", month=3), Deadline()):  # fmt: skip
        assert spec.engine.parse_action(action.model_dump(mode="json")) == action
    rules_ = hh.Rules(seated_players=3)
    assert hh.ENGINE.hold(rules_) == hh.hold(rules_)
    assert list(hh.CARDS) == hh.DECK
    assert hh.teyaku(hh.DECK[:7]) == [("Four-Three", 20)]  # the contract's helper
    assert hh.dekiyaku(["pine-ribbon", "plum-ribbon", "cherry-ribbon"]) == [("Poetry Ribbons", 7)]


@pytest.mark.parametrize("seats", [2, 3, 4])
@pytest.mark.parametrize("seed", range(4))
def test_random_playouts_keep_the_contract(seats: int, seed: int) -> None:
    """test_contract.py's check, with this game's legal actions and random bad ones."""
    rng = random.Random(seed)
    r = hh.Rules(
        seated_players=seats,
        rounds=3,
        mizuten=rng.random() < 0.5,
        teyaku_claims=rng.choice(["auto", "manual"]),
        dropout_penalties=True,
        forced_out_compensation=True,
    )
    players = [A, B, C, D][:seats]
    dice = RecordingDice(FairDice(seed.to_bytes(32, "big")))
    state = hh.start(r, players, dice)
    history: list[tuple[int | None, Any]] = []
    for _ in range(2000):
        if state.finished:
            break
        chosen = rng.choice(players)
        player: int | None = chosen
        moves = hh.legal_actions(state, chosen)
        if rng.random() < 0.05:
            action: Any = Deadline()
            player = None
        elif moves and rng.random() < 0.8:
            action = rng.choice(moves)
        else:
            action = rng.choice(
                [hh.Play(card=rng.choice(hh.DECK)), hh.Sage(), hh.Cancel(), hh.Shoubu(),
                 hh.CaptureDrawn(capture=rng.choice(hh.DECK)), hh.Participate(play=True)]
            )  # fmt: skip
        before = state.model_dump_json()
        try:
            new, events = hh.act(state, player, action, dice)
        except IllegalMove as refusal:
            assert str(refusal)
            assert state.model_dump_json() == before
            assert player is None or action not in moves
            continue
        assert player is None or action in moves
        assert state.model_dump_json() == before
        # Only a silent claim step (a decline, "nothing to claim") leaves the ply as it was.
        silent = isinstance(action, hh.ClaimTeyaku) and not events
        assert new.ply > state.ply or (silent and new.ply == state.ply)
        assert sum(new.payouts.values()) == 0 and HOUSE not in new.stakes
        assert all(stake >= 0 for stake in new.stakes.values())
        assert hh.State.model_validate_json(new.model_dump_json()) == new
        for event in events:
            assert hh.parse_event(json.loads(event.model_dump_json())) == event
        history.append((player, action))
        state = new
    assert state.finished
    assert all(stake == 0 for stake in state.stakes.values())
    replay = ScriptedDice(orders=[d.order for d in dice.draws if d.order is not None])
    again = hh.start(r, players, replay)
    for player, action in history:
        again, _ = hh.act(again, player, action, replay)
    assert again == state


def test_end_round_books_a_built_round() -> None:
    state, _ = begin((A, B), list(range(34)), rounds=1)
    state = built(state, piles={A: hh.DECK[:17], B: hh.DECK[17:]}, hands={A: [], B: []},
                  field=[], draw_pile=[], claims={A: [], B: []})  # fmt: skip
    from bot.games.kit import evolve

    s = evolve(state)
    events = match.end_round(s, End("exhaustion"), ScriptedDice())
    assert s.finished and kinds(events)[-2:] == ["round_scored", "match_over"]
    assert sum(s.scores.values()) == 0


# ------------------------------------------------------- house options, one by one


def _scored_position(
    piles: dict[int, list[str]], claims: dict[int, list[hh.Claim]], **options: Any
) -> hh.RoundResult:
    state, _ = begin((A, B), list(range(34)), rounds=1, **options)
    state = built(
        state,
        piles=piles,
        claims=claims,
        hands={A: [], B: []},
        field=[],
        draw_pile=[],
        multiplier=1,
    )
    result, _ = hh.score_round(state, "exhaustion", None)
    return result


def _claim(group: str, name: str, kan: int, month: int | None = None) -> hh.Claim:
    return hh.Claim.model_validate(
        {"group": group, "name": name, "kan": kan, "revealed": [], "month": month}
    )


_CHERRY = ["cherry-bright", "cherry-ribbon", "cherry-chaff-1", "cherry-chaff-2"]


@pytest.mark.parametrize(
    ("eligibility", "name", "dives"),
    [
        ("triplet_or_haneken", "Triplet", True),
        ("triplet_or_haneken", "Triplet and Two Pairs", True),
        ("triplet_only", "Triplet", True),
        ("triplet_only", "Triplet and Two Pairs", False),
    ],
)
def test_diving_eligibility(eligibility: str, name: str, dives: bool) -> None:
    rest = [c for c in hh.DECK if c not in _CHERRY]
    kan = 2 if name == "Triplet" else 8
    result = _scored_position(
        {A: _CHERRY + rest[:2], B: rest[2:]},
        {A: [_claim("A", name, kan, 3)], B: []},
        diving_eligibility=eligibility,
    )
    diving = [line for line in result.lines if line.kind == "diving"]
    assert [(line.payee, line.points) for line in diving] == ([(A, 10)] if dives else [])


@pytest.mark.parametrize("excludes", [False, True])
def test_escape_and_the_one_bright_option(excludes: bool) -> None:
    big = ["pine-bright", "cherry-bright", "susuki-bright", "willow-bright", "plum-animal",
           "peony-animal", "maple-animal"]  # fmt: skip
    rest = [c for c in hh.DECK if c not in big]
    for name, kan in (("One Bright", 4), ("One Animal", 3)):
        result = _scored_position(
            {A: big, B: rest},
            {A: [_claim("B", name, kan)], B: []},
            escape_excludes_one_bright=excludes,
        )
        escape = [line for line in result.lines if line.kind == "escape"]
        paid = not (excludes and name == "One Bright")
        assert [(line.payee, line.points) for line in escape] == ([(A, 10)] if paid else [])


def test_points_per_kan_twelve() -> None:
    # No dekiyaku on either side, no Sixteen Chaff.
    mine = [
        *_CHERRY,
        "peony-ribbon",
        "pine-chaff-1",
        "pine-chaff-2",
        "plum-chaff-1",
        "plum-chaff-2",
    ]
    result = _scored_position(
        {A: mine, B: [c for c in hh.DECK if c not in mine]},
        {A: [_claim("A", "Triplet", 2, 3)], B: [_claim("B", "Red", 2)]},
        points_per_kan=12,
    )
    assert result.case == "C"
    lines = {(line.kind, line.payee): line.points for line in result.lines}
    assert lines[("teyaku", A)] == 24 and lines[("diving", A)] == 12
    # Card points are points whatever the kan: the difference is unscaled.
    a_points = hh.card_points(mine)
    winner = A if a_points > 211 - a_points else B
    assert lines[("card_points", winner)] == abs(2 * a_points - 211)
    assert hh.coins({A: 30, B: -30}, [A, B], hh.Rules(points_per_kan=12)) == {
        HOUSE: 0,
        A: 3,
        B: -3,
    }


def test_boar_deer_butterflies_never_forms_but_counts_in_compensation() -> None:
    pile = ["maple-animal", "peony-animal", "susuki-animal", "plum-animal"]
    rest = [c for c in hh.DECK if c not in pile]
    result = _scored_position({A: pile, B: rest}, {A: [], B: []}, boar_deer_butterflies=True)
    assert result.dekiyaku[A] == []  # the Boar was stripped with Bush Clover
    # A forced-out hand holding the Deer and the Butterflies is owed 2 × 3 points more.
    forced = ["maple-animal", "peony-animal", "pine-chaff-1", "plum-chaff-1", "cherry-chaff-1",
              "susuki-chaff-1", "chrysanthemum-chaff-1"]  # fmt: skip
    owed = {}
    for option in (False, True):
        state, _ = begin(
            (A, B, C),
            deal_order([[], forced, []]),
            forced_out_compensation=True,
            boar_deer_butterflies=option,
        )
        state, _ = step(state, A, hh.Participate(play=True))
        state, _ = step(state, B, hh.Participate(play=True))
        owed[option] = state.compensation[C] // state.multiplier
    assert owed[True] == owed[False] + 6
